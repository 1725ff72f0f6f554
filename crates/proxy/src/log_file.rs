//! The log file and the thread that writes it. Finished generations are sent to one thread
//! (a bounded queue: a proxy whose log cannot keep up counts the lines it lost rather than
//! holding replies in memory), which makes each line (a full report: one gzip pass, kept off
//! the network threads), appends it, counts it in the metrics, and says it in one line on
//! standard error. With `--log-max-bytes`, a file about to pass the size is renamed `FILE.1`
//! (replacing the one before) and a new `FILE` begun; a line is never split.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use coherency_core::render::terminal::safe_value;
use coherency_core::wording::thousands;

use crate::log_line::{line, Asked, GenerationSummary};
use crate::metrics::Metrics;
use crate::watch::Finished;

/// Finished generations waiting for the log thread, at most.
pub const QUEUE: usize = 1024;

/// An append-only log file, rotated by size.
#[derive(Debug)]
pub struct LogFile {
    path: PathBuf,
    max_bytes: Option<u64>,
    file: File,
    size: u64,
}

impl LogFile {
    /// Opens (or creates) `path` for appending.
    pub fn open(path: &Path, max_bytes: Option<u64>) -> io::Result<LogFile> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let size = file.metadata()?.len();
        Ok(LogFile { path: path.to_path_buf(), max_bytes, file, size })
    }

    /// Appends one line (with its `\n`), rotating first when it would pass the size.
    pub fn write_line(&mut self, line: &str) -> io::Result<()> {
        if should_rotate(self.size, line.len() as u64, self.max_bytes) {
            let mut old = self.path.clone().into_os_string();
            old.push(".1");
            std::fs::rename(&self.path, old)?;
            self.file = OpenOptions::new().create(true).append(true).open(&self.path)?;
            self.size = 0;
        }
        self.file.write_all(line.as_bytes())?;
        self.size += line.len() as u64;
        Ok(())
    }
}

/// Whether a file of `size` bytes is rotated before a line of `line` bytes: when it would pass
/// `max` and holds something (a line longer than `max` still goes in a file of its own).
pub fn should_rotate(size: u64, line: u64, max: Option<u64>) -> bool {
    max.is_some_and(|max| size > 0 && size + line > max)
}

/// One finished generation for the log thread; the keys live only until its line is made.
#[derive(Debug)]
pub struct Job {
    pub finished: Finished,
    pub asked: Asked,
    pub keys: Vec<String>,
    /// The request's body when it carries tool calls or results (see [`crate::tool_calls`]).
    pub history: Option<Vec<u8>>,
}

/// The sending end of the log thread's queue.
#[derive(Clone, Debug)]
pub struct Finisher {
    tx: SyncSender<Job>,
    metrics: Arc<Mutex<Metrics>>,
}

impl Finisher {
    /// Starts the log thread: lines to `log` (when given), counts to `metrics`, a line on
    /// standard error each unless `quiet`. It ends when every sender is gone.
    pub fn start(
        log: Option<LogFile>,
        metrics: Arc<Mutex<Metrics>>,
        quiet: bool,
    ) -> io::Result<(Finisher, JoinHandle<()>)> {
        let (tx, rx) = sync_channel(QUEUE);
        let m = Arc::clone(&metrics);
        let thread =
            std::thread::Builder::new().name("proxy-log".to_string()).spawn(move || finish_all(rx, log, &m, quiet))?;
        Ok((Finisher { tx, metrics }, thread))
    }

    /// Queues a job; when the queue is full, the line is lost and counted.
    pub fn send(&self, job: Job) {
        if let Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) = self.tx.try_send(job) {
            lock(&self.metrics).log_lines_lost += 1;
        }
    }
}

fn lock(metrics: &Mutex<Metrics>) -> std::sync::MutexGuard<'_, Metrics> {
    // A panic elsewhere while holding it leaves counts that are still counts.
    metrics.lock().unwrap_or_else(|e| e.into_inner())
}

fn finish_all(rx: Receiver<Job>, mut log: Option<LogFile>, metrics: &Mutex<Metrics>, quiet: bool) {
    let mut told_failure = false;
    for job in rx {
        let keys: Vec<&str> = job.keys.iter().map(String::as_str).collect();
        let (text, summary) = line(&job.finished, &job.asked, &keys, job.history.as_deref());
        drop(job.keys);
        let mut lost = false;
        if let Some(file) = log.as_mut() {
            if let Err(e) = file.write_line(&text) {
                lost = true;
                if !told_failure {
                    eprintln!("coherency proxy: the log could not be written ({e}); lines are counted as lost");
                    told_failure = true;
                }
            }
        }
        {
            let mut m = lock(metrics);
            m.generation(&summary);
            m.log_lines_lost += u64::from(lost);
        }
        if !quiet {
            eprintln!("{}", said(&summary, &job.asked));
        }
    }
}

/// The line on standard error for a generation: `#4 FAIL model /v1/chat/completions cut-by-proxy, 1,800 tokens saved (estimated)`.
pub fn said(s: &GenerationSummary, asked: &Asked) -> String {
    let verdict = s.verdict.map_or("-", |v| v.as_str());
    let mut text =
        format!("#{} {verdict} {} {} {}", asked.index + 1, safe_value(&s.model), safe_value(&asked.path), s.end);
    if asked.status != 200 {
        text += &format!(" (HTTP {})", asked.status);
    }
    match s.tokens_saved {
        Some((n, estimated)) => {
            text += &format!(", {} tokens saved{}", thousands(n as usize), if estimated { " (estimated)" } else { "" })
        }
        None if s.cut => text += ", tokens saved unknown (no max_tokens)",
        None => {}
    }
    if let Some(v) = s.tool_calls.filter(|v| *v != coherency_core::analyze::Verdict::Pass) {
        text += &format!(", tool calls across turns {}", v.as_str());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_happens_before_a_line_would_pass_the_size() {
        assert!(!should_rotate(0, 500, Some(100)), "an empty file takes any line");
        assert!(!should_rotate(50, 50, Some(100)));
        assert!(should_rotate(51, 50, Some(100)));
        assert!(!should_rotate(u64::MAX / 2, 50, None));
    }

    #[test]
    fn a_rotated_log_keeps_whole_lines_in_two_files() {
        let dir = std::env::temp_dir().join(format!("coherency-proxy-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("proxy.jsonl");
        let _ = std::fs::remove_file(&path);
        let mut log = LogFile::open(&path, Some(25)).unwrap();
        for i in 0..5 {
            log.write_line(&format!("line {i} of ten bytes\n")).unwrap();
        }
        let now = std::fs::read_to_string(&path).unwrap();
        let old = std::fs::read_to_string(dir.join("proxy.jsonl.1")).unwrap();
        assert_eq!(now, "line 4 of ten bytes\n");
        assert_eq!(old, "line 3 of ten bytes\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_terminal_line_escapes_what_came_from_the_network() {
        let s = GenerationSummary {
            model: "m\u{1b}[2J".into(),
            verdict: None,
            cut: true,
            tokens_saved: None,
            end: "cut-by-proxy",
            tool_calls: None,
        };
        let asked = Asked {
            index: 0,
            unix_ms: 0,
            path: "/v1/chat/completions".into(),
            upstream_url: String::new(),
            status: 200,
        };
        let text = said(&s, &asked);
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.ends_with("tokens saved unknown (no max_tokens)"));
    }
}
