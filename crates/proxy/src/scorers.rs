//! The scorers: a few threads (half the machine's cores, at least one) that run the watches'
//! [`Check`]s, so that a report (milliseconds per few KB of text) never holds up the bytes of
//! the streams passing on the network threads. Their queue is bounded: under more load than
//! they can judge, a check is dropped (the stream asks again at its next pace) and each
//! stream's checks simply come less often — the cost is a later cut, never a slower stream.

use std::io;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use crate::watch::{Check, Checked};

/// Checks waiting for a scorer, at most.
pub const QUEUE: usize = 256;

type Job = (Check, oneshot::Sender<Checked>);

/// The sending end of the scorers' queue.
#[derive(Clone, Debug)]
pub struct Scorers {
    tx: SyncSender<Job>,
}

impl Scorers {
    /// Starts `threads` scorer threads (named `proxy-score`); they end when every sender is gone.
    pub fn start(threads: usize) -> io::Result<Scorers> {
        let (tx, rx) = sync_channel::<Job>(QUEUE);
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            std::thread::Builder::new().name("proxy-score".to_string()).spawn(move || score(&rx))?;
        }
        Ok(Scorers { tx })
    }

    /// As many threads as half the cores, at least one.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
    }

    /// Queues `check`; its answer comes on the receiver. `None` when the queue is full.
    pub fn ask(&self, check: Check) -> Option<oneshot::Receiver<Checked>> {
        let (answer, rx) = oneshot::channel();
        self.tx.try_send((check, answer)).ok().map(|()| rx)
    }
}

fn score(rx: &Mutex<Receiver<Job>>) {
    loop {
        // The lock is held only while waiting for the next job, not while judging it.
        let job = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok((check, answer)) = job else { return };
        // The stream may have ended meanwhile: then nobody waits for the answer.
        let _ = answer.send(check.run());
    }
}
