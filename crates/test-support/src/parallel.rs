//! Runs a test's independent pieces on every core. The evidence tests judge hundreds of
//! labelled inputs, each on its own, inside one `#[test]`: spread over the machine's cores they
//! take a fraction of the time, and the results come back in the inputs' order, so what a
//! test prints and asserts does not depend on how the work was shared.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

/// `f` applied to every item, on as many threads as the machine has cores (each thread takes
/// the next item not yet taken), the results in the items' order. A panic in `f` panics here.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = thread::available_parallelism().map_or(1, |n| n.get()).min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was mapped"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::map;

    #[test]
    fn results_come_back_in_the_items_order() {
        let items: Vec<u64> = (0..500).collect();
        // Uneven work, so that threads finish out of order.
        let squares = map(&items, |&n| {
            let mut x = n;
            for _ in 0..(n % 7) * 1000 {
                x = std::hint::black_box(x);
            }
            x * x
        });
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
    }

    #[test]
    fn no_items_no_results() {
        assert!(map(&[] as &[u8], |&b| b).is_empty());
    }

    #[test]
    #[should_panic]
    fn a_panic_in_the_work_is_a_panic_of_the_map() {
        map(&[1, 2, 3], |&n| assert!(n != 2));
    }
}
