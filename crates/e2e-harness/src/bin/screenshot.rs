//! A picture of the built page (dist/, or `COHERENCY_DIST`) as a person sees it: a built-in
//! sample analysed in headless Chromium (through chromedriver, as the e2e tests drive it), taken
//! once its verdict is on the page — the analysis runs in Web Workers on real time, so this
//! waits for it rather than for a guessed time. `scripts/screenshot` takes the README's with it.
//!
//! Usage: screenshot SAMPLE OUT.png [--dark] [--width N] [--height N]

use std::process::ExitCode;
use std::time::{Duration, Instant};

use coherency_e2e_harness::Page;

struct Shot {
    sample: String,
    out: String,
    dark: bool,
    width: u32,
    height: u32,
}

fn parse(args: &[String]) -> Result<Shot, String> {
    let mut positional = Vec::new();
    let (mut dark, mut width, mut height) = (false, 1280, 2300);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut number = |what: &str| -> Result<u32, String> {
            let value = it.next().ok_or_else(|| format!("{what} needs a number"))?;
            value.parse().map_err(|_| format!("{what} {value}: not a number of pixels"))
        };
        match arg.as_str() {
            "--dark" => dark = true,
            "--width" => width = number("--width")?,
            "--height" => height = number("--height")?,
            other if other.starts_with("--") => return Err(format!("unknown option {other}")),
            other => positional.push(other.to_string()),
        }
    }
    let [sample, out] =
        <[String; 2]>::try_from(positional).map_err(|_| "give a sample's name and the PNG's path".to_string())?;
    Ok(Shot { sample, out, dark, width, height })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shot = match parse(&args) {
        Ok(shot) => shot,
        Err(why) => {
            eprintln!("screenshot: {why}\nusage: screenshot SAMPLE OUT.png [--dark] [--width N] [--height N]");
            return ExitCode::from(2);
        }
    };
    // Switches of its own give the page a browser of its own (no other test's windows).
    let page = Page::open_with_args(&["--hide-scrollbars", "--force-color-profile=srgb"]).await;
    page.client.set_window_size(shot.width, shot.height).await.expect("size the window");
    page.goto_query(&format!("?sample={}", shot.sample)).await;
    if shot.dark {
        page.click("#theme-toggle").await;
    }
    let verdict = "return !document.querySelector('.results[aria-busy]') && !!document.querySelector('#verdict')?.dataset.verdict;";
    let deadline = Instant::now() + Duration::from_secs(60);
    while page.js(verdict).await != serde_json::json!(true) {
        if Instant::now() > deadline {
            eprintln!("screenshot: no verdict on the page after 60 s (is '{}' a sample's name?)", shot.sample);
            return ExitCode::FAILURE;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    page.js("window.scrollTo(0, 0); document.activeElement?.blur(); return null;").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let png = page.client.screenshot().await.expect("take the screenshot");
    if let Err(e) = std::fs::write(&shot.out, &png) {
        eprintln!("screenshot: cannot write {}: {e}", shot.out);
        return ExitCode::FAILURE;
    }
    println!("screenshot: {} ({} bytes, sample {})", shot.out, png.len(), shot.sample);
    page.close().await;
    ExitCode::SUCCESS
}
