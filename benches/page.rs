//! Big files through the real page: generated 10 MB and 50 MB files (a JSONL request log and a
//! plain text) chosen in the page's real `<input type=file>` in headless Chromium, with the
//! built page (dist/, from scripts/build-page) served on 127.0.0.1. Prints, per file: time to
//! the first progress panel, to the first verdict shown while reading (the worst so far), to the
//! full result; the longest main-thread stall (the largest gap between animation frames, and
//! the longest `longtask` entry); peak JS heap (`performance.memory`) and peak renderer memory
//! (RSS of Chromium's renderer processes, from /proc); and the same analysis run natively here,
//! and by the native CLI (`COHERENCY_CLI`, which scripts/bench-page builds) on the same file,
//! for ratios, and one DEFLATE-9 pass over the same bytes in the analysis worker's wasm (the
//! floor of a text's analysis there: page ÷ that pass). Then a 5 MB text pasted into the text
//! box (`PAGE_BENCH_PASTE=5`, MB; empty: none): time from Analyze to the verdict, the longest
//! main-thread task meanwhile, and the same DEFLATE-9 pass over the text. A benchmark, not a
//! test: nothing is asserted on time.
//!
//! Run: `scripts/bench-page` (builds the page, then `cargo bench --bench page`). Without
//! `--bench` (as `cargo test --benches` would run it) it does nothing. `PAGE_BENCH_SIZES=10,50`
//! (MB) and `PAGE_BENCH_KINDS=jsonl,text` pick the files; `PAGE_BENCH_CHROME_ARG` adds one
//! Chromium argument (e.g. `--js-flags=--liftoff-only`); `PAGE_BENCH_VERBOSE=1` prints the probe.

use coherency_e2e_harness::browser;
use coherency_test_support::{biglog, grammar, textgen};

fn main() {
    bench::main()
}

/// The bench itself.
mod bench {
    use super::{biglog, browser, grammar, textgen};

    use std::path::Path;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use browser::{Page, TempDir};
    use coherency_core::judge::JudgedDocument;
    use fantoccini::Locator;
    use serde_json::Value;

    /// Installed before the upload: timestamps of what appears, rAF gaps, long tasks, JS heap.
    const PROBE: &str = r#"
const p = window.__probe = { t0: null, progress: null, soFar: null, verdict: null, maxGap: 0, gapAt: 0,
  longTask: 0, tasks: [], heap: 0, stageAt: {} };
document.addEventListener('change', () => { if (p.t0 === null) p.t0 = performance.now(); }, true);
const look = () => {
  const now = performance.now();
  const prog = document.getElementById('load-progress');
  if (prog && p.progress === null) p.progress = now;
  if (prog && !(prog.dataset.stage in p.stageAt)) p.stageAt[prog.dataset.stage] = now;
  if (p.soFar === null && document.getElementById('verdict-so-far')) p.soFar = now;
  if (p.verdict === null && (document.getElementById('overall-verdict') || document.getElementById('verdict')))
    p.verdict = now;
};
new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
let last = performance.now();
const frame = (t) => {
  if (p.t0 !== null && t - last > p.maxGap) { p.maxGap = t - last; p.gapAt = t; }
  last = t;
  if (performance.memory) p.heap = Math.max(p.heap, performance.memory.usedJSHeapSize);
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (p.t0 !== null && e.startTime + e.duration > p.t0) {
      p.longTask = Math.max(p.longTask, e.duration);
      // Each long task: [start after t0, duration] (PAGE_BENCH_VERBOSE prints them).
      p.tasks.push([Math.round(e.startTime - p.t0), Math.round(e.duration)]);
    }
  }).observe({ type: 'longtask' });
} catch (e) { /* no long-task timing: the rAF gap still measures */ }
return null;
"#;

    /// Resident memory of the renderer processes in process group `group`, in bytes.
    fn renderer_rss(group: u32) -> u64 {
        let Ok(dir) = std::fs::read_dir("/proc") else { return 0 };
        let page = 4096;
        let mut total = 0;
        for entry in dir.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
            // Fields after the ")" of the command name: state ppid pgrp …
            let pgrp = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(2)?.parse::<u32>().ok());
            if pgrp != Some(group) {
                continue;
            }
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if !String::from_utf8_lossy(&cmdline).contains("--type=renderer") {
                continue;
            }
            let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).unwrap_or_default();
            total += statm.split_whitespace().nth(1).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0) * page;
        }
        total
    }

    struct Row {
        name: String,
        mb: f64,
        progress: f64,
        so_far: Option<f64>,
        verdict: f64,
        max_gap: f64,
        long_task: f64,
        heap_mb: f64,
        rss_base_mb: f64,
        rss_peak_mb: f64,
        native_ms: f64,
        /// The native CLI's wall time on the same file (`COHERENCY_CLI`), when given.
        cli_ms: Option<f64>,
        result: String,
        /// When each stage of the progress panel first showed (ms after the file was chosen).
        stages: Vec<(String, f64)>,
        /// One DEFLATE-9 pass over the same bytes in the analysis worker's wasm, on this page
        /// ([`DEFLATE_PASS`]): the floor of a text's analysis there.
        deflate_ms: Option<f64>,
    }

    /// Keeps the file chosen in the page's input (`window.__chosen`), seen before the page's
    /// own handler (capture phase).
    const KEEP_CHOSEN: &str = "document.addEventListener('change', (e) => { \
        if (e.target.files?.length) window.__chosen = e.target.files[0]; }, true); return null;";

    /// Times the analysis wasm's `gzipSizeInWorker` (one DEFLATE-9 pass, as the analysis counts a
    /// long text's gzip size) over the file chosen, or the text pasted, on the page's thread once
    /// the result is in; resolves to milliseconds, or to the error in words. The file is the one
    /// [`KEEP_CHOSEN`] kept (the page empties its input once it has the file).
    const DEFLATE_PASS: &str = r#"
        const blob = window.__chosen ?? new File([document.getElementById('input').value], 'pasted');
        if (!blob.size) return 'no bytes to time';
        const m = await import(new URL('pkg/coherency_analysis.js', document.baseURI).href);
        await globalThis.coherencyWorker.ready;
        await m.default({ module_or_path: globalThis.coherencyWorker.module });
        await m.gzipSizeInWorker(new File(['warm-up'], 'w'));
        const t = performance.now();
        await m.gzipSizeInWorker(blob);
        return performance.now() - t;
    "#;

    fn ms(v: &Value, key: &str, t0: f64) -> Option<f64> {
        v.get(key).and_then(Value::as_f64).map(|t| t - t0)
    }

    /// How the input reaches the page.
    #[derive(Clone, Copy, PartialEq)]
    enum Given {
        /// Chosen in the page's file input.
        File,
        /// Pasted into the text box, then Analyze pressed (the clock starts at the press).
        Paste,
    }

    async fn run(path: &Path, bytes: &[u8], given: Given) -> Row {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        // Natively: the same detection, parse and per-message analysis.
        let started = Instant::now();
        let doc = JudgedDocument::read(bytes, None);
        let native_ms = started.elapsed().as_secs_f64() * 1e3;
        drop(doc);
        // The native CLI on the same file, in the same sitting (scripts/bench-page builds it).
        let cli = std::env::var_os("COHERENCY_CLI").map(std::path::PathBuf::from).filter(|p| p.exists());
        let cli_ms = cli.map(|cli| {
            let started = Instant::now();
            let status = std::process::Command::new(cli)
                .arg("analyze")
                .arg(path)
                .stdout(std::process::Stdio::null())
                .status()
                .expect("run the CLI");
            assert!(status.code().is_some(), "the CLI ended by a signal");
            started.elapsed().as_secs_f64() * 1e3
        });

        // PAGE_BENCH_CHROME_ARG: one more Chromium argument (e.g. `--js-flags=--liftoff-only`).
        let extra = std::env::var("PAGE_BENCH_CHROME_ARG").unwrap_or_default();
        let mut args = vec!["--enable-precise-memory-info"];
        args.extend(Some(extra.as_str()).filter(|a| !a.is_empty()));
        let page = Page::open_with_args(&args).await;
        let group = page.process_group();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let rss_base = renderer_rss(group);
        let (stop, peak, peak_at) =
            (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(rss_base)), Arc::new(AtomicU64::new(0)));
        let chosen = Instant::now();
        let sampler = {
            let (stop, peak, peak_at) = (Arc::clone(&stop), Arc::clone(&peak), Arc::clone(&peak_at));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let now = renderer_rss(group);
                    if now > peak.fetch_max(now, Ordering::Relaxed) {
                        peak_at.store(chosen.elapsed().as_millis() as u64, Ordering::Relaxed);
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        };
        page.js(PROBE).await;
        page.js(KEEP_CHOSEN).await;
        if given == Given::Paste {
            page.set_input(std::str::from_utf8(bytes).expect("a text to paste")).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            page.js("window.__probe.t0 = performance.now(); document.getElementById('analyze').click(); return null;")
                .await;
        } else {
            let input = page.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
            input.send_keys(&path.display().to_string()).await.expect("choose the file");
        }
        let deadline = Instant::now() + Duration::from_secs(180);
        let probe = loop {
            let probe = page.js("return window.__probe;").await;
            if probe.get("verdict").is_some_and(|v| !v.is_null()) || Instant::now() > deadline {
                break probe;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        // A few more frames, so a stall right after the result is counted too.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let probe_after = page.js("return window.__probe;").await;
        stop.store(true, Ordering::Relaxed);
        let _ = sampler.join();
        let deflate = page
            .js(&format!("return (async () => {{ try {{ {DEFLATE_PASS} }} catch (e) {{ return String(e); }} }})();"))
            .await;
        if let Some(error) = deflate.as_str() {
            eprintln!("  {name}: the DEFLATE-9 pass in wasm was not timed: {error}");
        }
        if std::env::var_os("PAGE_BENCH_VERBOSE").is_some() {
            eprintln!(
                "  renderer memory peaked {} ms after the file was chosen; probe: {probe_after}",
                peak_at.load(Ordering::Relaxed)
            );
        }
        let result = page
        .js("return (document.getElementById('overall-verdict') || document.getElementById('verdict'))?.dataset.verdict \
             ?? document.getElementById('status')?.textContent ?? 'none';")
        .await
        .as_str()
        .unwrap_or("?")
        .to_string();
        page.close().await;

        let t0 = probe.get("t0").and_then(Value::as_f64).unwrap_or(0.0);
        let mut stages: Vec<(String, f64)> = probe
            .get("stageAt")
            .and_then(Value::as_object)
            .map(|o| o.iter().filter_map(|(k, v)| Some((k.clone(), v.as_f64()? - t0))).collect())
            .unwrap_or_default();
        stages.sort_by(|a, b| a.1.total_cmp(&b.1));
        let get = |k: &str| probe_after.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN);
        Row {
            name,
            mb: bytes.len() as f64 / 1e6,
            progress: ms(&probe, "progress", t0).unwrap_or(f64::NAN),
            so_far: ms(&probe, "soFar", t0),
            verdict: ms(&probe, "verdict", t0).unwrap_or(f64::NAN),
            max_gap: get("maxGap"),
            long_task: get("longTask"),
            heap_mb: get("heap") / 1e6,
            rss_base_mb: rss_base as f64 / 1e6,
            rss_peak_mb: peak.load(Ordering::Relaxed) as f64 / 1e6,
            native_ms,
            cli_ms,
            result,
            stages,
            deflate_ms: deflate.as_f64(),
        }
    }

    #[tokio::main]
    pub async fn main() {
        if !std::env::args().any(|a| a == "--bench") {
            println!("page bench: runs only as `cargo bench --bench page` (scripts/bench-page)");
            return;
        }
        let sizes: Vec<usize> = std::env::var("PAGE_BENCH_SIZES")
            .unwrap_or_else(|_| "10,50".into())
            .split(',')
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        let kinds = std::env::var("PAGE_BENCH_KINDS").unwrap_or_else(|_| "jsonl,text".into());
        let paste_mb: Vec<usize> = std::env::var("PAGE_BENCH_PASTE")
            .unwrap_or_else(|_| "5".into())
            .split(',')
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        let dir = TempDir::new("coherency-page-bench");
        let mut rows = Vec::new();
        for &mb in &sizes {
            for kind in kinds.split(',').map(str::trim) {
                let (name, bytes) = match kind {
                    "jsonl" => (format!("log-{mb}mb.jsonl"), biglog::generate_log(mb * 1_000_000).0),
                    "text" => {
                        let text = grammar::english(&mut textgen::Rng::new(5), mb * 1_000_000);
                        (format!("prose-{mb}mb.txt"), text.into_bytes())
                    }
                    other => panic!("unknown kind {other} (jsonl, text)"),
                };
                let path = dir.0.join(&name);
                std::fs::write(&path, &bytes).expect("write the generated file");
                eprintln!("page bench: {name} ({:.1} MB)…", bytes.len() as f64 / 1e6);
                rows.push(run(&path, &bytes, Given::File).await);
                let _ = std::fs::remove_file(&path);
            }
        }
        for &mb in &paste_mb {
            let text = grammar::english(&mut textgen::Rng::new(7), mb * 1_000_000);
            let name = format!("paste-{mb}mb.txt");
            let path = dir.0.join(&name);
            std::fs::write(&path, &text).expect("write the generated text");
            eprintln!("page bench: {name} ({:.1} MB pasted)…", text.len() as f64 / 1e6);
            rows.push(run(&path, text.as_bytes(), Given::Paste).await);
            let _ = std::fs::remove_file(&path);
        }
        println!(
            "{:<18} {:>6} {:>9} {:>9} {:>9} {:>8} {:>9} {:>8} {:>8} {:>14} {:>9} {:>6} {:>9} {:>6}  result",
            "file",
            "MB",
            "progress",
            "so far",
            "verdict",
            "max gap",
            "long task",
            "JS heap",
            "renderer",
            "(base→peak)",
            "native",
            "ratio",
            "CLI",
            "÷ CLI"
        );
        for r in &rows {
            let so_far = r.so_far.map_or("—".to_string(), |v| format!("{v:.0} ms"));
            let cli = r.cli_ms.map_or("—".to_string(), |v| format!("{v:.0} ms"));
            let by_cli = r.cli_ms.map_or("—".to_string(), |v| format!("{:.2}", r.verdict / v));
            println!(
            "{:<18} {:>6.1} {:>6.0} ms {:>9} {:>6.0} ms {:>5.0} ms {:>6.0} ms {:>5.0} MB {:>5.0} MB {:>6.0}→{:<5.0} MB {:>6.0} ms {:>6.2} {:>9} {:>6}  {}",
            r.name,
            r.mb,
            r.progress,
            so_far,
            r.verdict,
            r.max_gap,
            r.long_task,
            r.heap_mb,
            r.rss_peak_mb - r.rss_base_mb,
            r.rss_base_mb,
            r.rss_peak_mb,
            r.native_ms,
            r.verdict / r.native_ms,
            cli,
            by_cli,
            r.result
        );
        }
        for r in &rows {
            let stages: Vec<String> = r.stages.iter().map(|(stage, at)| format!("{stage} {at:.0} ms")).collect();
            println!("{}: stages began at {}; the result at {:.0} ms", r.name, stages.join(", "), r.verdict);
        }
        for r in &rows {
            if let Some(d) = r.deflate_ms {
                println!(
                    "{}: one DEFLATE-9 pass over its {:.1} MB in wasm {d:.0} ms; the page's result ÷ that pass {:.2}",
                    r.name,
                    r.mb,
                    r.verdict / d
                );
            }
        }
        println!(
            "progress / so far / verdict: ms after the file was chosen until the progress panel, the first verdict \
         while reading, the full result showed; max gap: longest time between animation frames (a main-thread \
         stall); long task: the longest main-thread task (long-task observer) from then on; renderer: peak growth of \
         the renderer processes' RSS (page + workers); native: the same analysis in this process, one thread; \
         ratio: verdict time / native; CLI: the native CLI (`coherency analyze FILE`, every core) on the same file; \
         ÷ CLI: verdict time / CLI. A paste's clock starts at Analyze."
        );
    }
}
