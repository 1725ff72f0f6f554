//! `FirstCome`: a piece of work either of two threads may do, done once by the first to ask.
//! The analyzer (natively, on a long text) hands the windowed profile, the incoherence checks
//! and the seed's word and line scans to whichever of its two threads is free first (see
//! `analyzer.rs`); the wasm build runs everything on one thread and has no use for it.

/// A piece of work either of two threads may do: the first to [`FirstCome::run`] it does.
pub(super) struct FirstCome<F, R> {
    work: std::sync::Mutex<Option<F>>,
    done: std::sync::Mutex<Option<R>>,
}

impl<F: FnOnce() -> R, R> FirstCome<F, R> {
    pub(super) fn new(work: F) -> Self {
        Self { work: std::sync::Mutex::new(Some(work)), done: std::sync::Mutex::new(None) }
    }

    /// Does the work unless it was taken already.
    pub(super) fn run(&self) {
        let work = self.work.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if let Some(work) = work {
            let result = work();
            *self.done.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(result);
        }
    }

    /// The result, once both threads have run it (or one has and the other was joined).
    pub(super) fn take(&self) -> R {
        self.run();
        self.done.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take().expect("the work was done")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn the_work_is_done_once_whichever_thread_asks_first() {
        let runs = AtomicUsize::new(0);
        let work = FirstCome::new(|| runs.fetch_add(1, Ordering::SeqCst) + 41);
        std::thread::scope(|scope| {
            let other = scope.spawn(|| work.run());
            work.run();
            other.join().expect("the other thread");
        });
        assert_eq!((work.take(), runs.load(Ordering::SeqCst)), (41, 1));
        let untouched = FirstCome::new(|| "done by take");
        assert_eq!(untouched.take(), "done by take", "take does the work when no thread has");
    }
}
