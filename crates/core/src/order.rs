//! A stable sort by key in little code, for the sorts that are not hot: the standard library's
//! stable sort (driftsort) is several KB of wasm for each element type and key it is used with,
//! and the page's wasm has a budget. This one is a bottom-up merge sort of the indices (one
//! small loop per call site), then the elements moved once into their places. O(n log n)
//! comparisons, each computing two keys: keep keys cheap. Checked against `sort_by_key`.

/// Sorts `v` by `key`, keeping equal elements in their order (as `slice::sort_by_key`).
pub fn sort_by_key_stable<T, K: Ord>(v: &mut Vec<T>, key: impl Fn(&T) -> K) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let (mid, end) = ((start + width).min(n), (start + 2 * width).min(n));
            let (mut a, mut b) = (start, mid);
            for slot in &mut merged[start..end] {
                // From the left run unless the right one's head is strictly smaller: stable.
                let take_left = a < mid && (b >= end || key(&v[order[b]]) >= key(&v[order[a]]));
                if take_left {
                    *slot = order[a];
                    a += 1;
                } else {
                    *slot = order[b];
                    b += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    let mut slots: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn it_orders_as_the_standard_stable_sort(items in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
            let mut ours = items.clone();
            let mut std = items;
            sort_by_key_stable(&mut ours, |&(k, _)| k);
            std.sort_by_key(|&(k, _)| k);
            prop_assert_eq!(ours, std);
        }
    }

    #[test]
    fn it_moves_what_it_cannot_copy() {
        let mut words: Vec<String> = ["pear", "fig", "apple", "kiwi", "date"].map(String::from).to_vec();
        sort_by_key_stable(&mut words, |w| w.len());
        assert_eq!(words, ["fig", "pear", "kiwi", "date", "apple"]);
    }
}
