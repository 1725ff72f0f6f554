// The page's analysis Web Worker (crates/analysis-worker/src/worker.rs). It runs the analysis
// wasm (built for speed, apart from the page's), which the page compiles as it loads and hands
// over with the job as `module` (without one, the worker fetches it), and does one of these jobs,
// as the page's first message says (src/file_load/loader.rs starts a worker per job, ends it when done):
// - {file, format, thresholds, module}: readFileInWorker reads the file piece by piece, parses and analyses
//   it, and posts progress and the result. For a big file it hands part of the work to a second
//   worker ({kind: "help-needed", job}, one of the two jobs below) and goes on with the rest;
//   the page posts the answer back ({kind: "helped", answer}). A long text's own share done, it
//   says so ({kind: "share-done"}: the page begins reading the text it will show).
// - {kind: "deflate", file, start, end, thresholds, module}: the side passes of those bytes of
//   the file (gzip-9 size and incoherence checks, a postcard buffer).
// - {kind: "analyze", texts, thresholds, module}: the reports of those texts (postcard buffers
//   both ways): a big log's second share, or a text the page shows whose report was summed up.
// - {kind: "export", bytes, format, thresholds, name, what, module}: the report the page offers
//   (`what`: markdown, html, json) of those input bytes, read and judged again (a buffer).
// - {kind: "compare", files, noise, thresholds, what, module}: those files (File objects) compared,
//   the golden file or the first as the reference, the last `noise` a second run of it (`what`: view, a postcard buffer; markdown, html,
//   json: the CLI's reports) (crates/analysis-worker/src/compare.rs).
// - {kind: "link", bytes, format, selected, thresholds, module}: a result link's fragment for
//   those input bytes (a postcard buffer: the fragment, or its length when over the limit);
// - {kind: "open-link", fragment, module}: the input bytes a result link carries (DEFLATE lives
//   here, not in the page's wasm; crates/analysis-worker/src/link.rs).
// - {kind: "warm-up", module}: the analysis run once on small inputs made in the wasm, so that V8
//   optimizes its hot functions before the first big file (the page asks once, at load;
//   crates/analysis-worker/src/warm_up.rs); answered with how many bytes it read (a u64, little-endian).
// A job's answer is posted as {kind: "helped", answer}; errors as {kind: "error", message}.
// A live run's worker (src/live/scorer.rs: one per stream the page reads) holds its session
// (crates/analysis-worker/src/live.rs) over many messages, answered in the order they came:
// - {kind: "live", t, module} starts it; {kind: "live-headers", t}; {kind: "live-feed", bytes, t}
//   (a read of the body, transferred); none of these is answered (an error is, and ends it);
// - {kind: "live-snapshot"} → {kind: "live-snapshot", snapshot} (a postcard buffer);
// - {kind: "live-end", ending, why, t} → {kind: "live-snapshot", snapshot, capture}.
// scripts/single-file.mjs builds the single file's classic worker from this file: keep the
// import on one line and the glue's `init({`.
import init, { readFileInWorker, deflatePassesInWorker, analyzeInWorker, exportInWorker, compareInWorker, linkInWorker, openLinkInWorker, warmUpInWorker, LiveRun } from "../pkg/coherency_analysis.js";

let ready = null;
let answerHelp = null;
let live = null;

// A live run's message (see above); false for any other.
const liveMessage = (data) => {
  switch (data.kind) {
    case "live":
      live = new LiveRun(data.t);
      if (typeof data.request === "string") live.set_request(data.request);
      return true;
    case "live-headers":
      live.headers(data.t);
      return true;
    case "live-feed":
      live.feed(data.bytes, data.t);
      return true;
    case "live-end":
      live.end(data.ending, data.why, data.t);
    // falls through: the last snapshot, and the capture
    case "live-snapshot": {
      const snapshot = live.snapshot();
      const message = { kind: "live-snapshot", snapshot: snapshot.buffer };
      const transfer = [snapshot.buffer];
      if (data.kind === "live-end") {
        message.capture = live.capture().buffer;
        transfer.push(message.capture);
      }
      postMessage(message, transfer);
      return true;
    }
    default:
      return false;
  }
};

onmessage = async ({ data }) => {
  if (data.kind === "helped") {
    if (answerHelp) answerHelp(data.answer);
    answerHelp = null;
    return;
  }
  try {
    ready ??= init({ module_or_path: data.module });
    await ready;
    if (liveMessage(data)) return;
    if (data.kind === "warm-up") {
      const read = warmUpInWorker();
      postMessage({ kind: "helped", answer: read.buffer }, [read.buffer]);
      return;
    }
    if (data.kind === "deflate") {
      const passes = await deflatePassesInWorker(data.file, data.start, data.end, data.thresholds);
      postMessage({ kind: "helped", answer: passes.buffer }, [passes.buffer]);
      return;
    }
    if (data.kind === "export") {
      const report = exportInWorker(new Uint8Array(data.bytes), data.format, data.thresholds, data.name, data.what);
      postMessage({ kind: "helped", answer: report.buffer }, [report.buffer]);
      return;
    }
    if (data.kind === "link") {
      const made = linkInWorker(new Uint8Array(data.bytes), data.format, data.selected, data.thresholds);
      postMessage({ kind: "helped", answer: made.buffer }, [made.buffer]);
      return;
    }
    if (data.kind === "open-link") {
      const bytes = openLinkInWorker(data.fragment);
      postMessage({ kind: "helped", answer: bytes.buffer }, [bytes.buffer]);
      return;
    }
    if (data.kind === "compare") {
      const bytes = await Promise.all(data.files.map((f) => f.arrayBuffer().then((b) => new Uint8Array(b))));
      const answer = compareInWorker(bytes, data.files.map((f) => f.name), data.noise, data.thresholds, data.what);
      postMessage({ kind: "helped", answer: answer.buffer }, [answer.buffer]);
      return;
    }
    if (data.kind === "analyze") {
      const reports = analyzeInWorker(new Uint8Array(data.texts), data.thresholds);
      postMessage({ kind: "helped", answer: reports.buffer }, [reports.buffer]);
      return;
    }
    const askHelp = (job, transfer) =>
      new Promise((resolve) => {
        answerHelp = resolve;
        postMessage({ kind: "help-needed", job }, transfer);
      });
    await readFileInWorker(data.file, data.format, data.thresholds, (message, transfer) => postMessage(message, transfer), askHelp);
  } catch (e) {
    postMessage({ kind: "error", message: String((e && e.message) || e) });
  }
};
