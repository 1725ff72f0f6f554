//! How streamed tool-call fragments join into calls, in time linear in the fragments: a
//! fragment adds to the call with the same `id`, else to the last call at the same `index` that
//! has no id yet, else (no id) to the last call at its `index`, else it starts a new call. The
//! calls are found through hash maps, not by searching the calls so far — a hostile endpoint can
//! send tens of thousands of distinct ids in one stream.

use std::collections::HashMap;
use std::ops::Range;

use super::openai_wire::ToolCallIn;
use super::reply::{widen, ToolCall};

/// Where the calls of one list are, by id and by index. Use one per list of calls, and add to
/// that list only through [`ToolCallMerger::merge`].
#[derive(Clone, Debug, Default)]
pub struct ToolCallMerger {
    /// The first call with each id.
    by_id: HashMap<String, usize>,
    /// The last call at each index.
    last_at: HashMap<u64, usize>,
    /// The calls at each index that have no id, in order (only the last can be given one).
    without_id_at: HashMap<u64, Vec<usize>>,
}

impl ToolCallMerger {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds fragment `frag` (the `n`th of its chunk, which stands for a missing `index`) that
    /// came from `source` to `calls`.
    pub fn merge(&mut self, calls: &mut Vec<ToolCall>, frag: ToolCallIn, n: usize, source: &Range<usize>) {
        let index = frag.index.unwrap_or(n as u64);
        let id = frag.id.filter(|s| !s.is_empty());
        let found = match &id {
            Some(id) => self.by_id.get(id).copied().or_else(|| self.without_id_at.get(&index)?.last().copied()),
            None => self.last_at.get(&index).copied(),
        };
        let k = match found {
            Some(k) => k,
            None => {
                let k = calls.len();
                calls.push(ToolCall { index, ..ToolCall::default() });
                self.last_at.insert(index, k);
                self.without_id_at.entry(index).or_default().push(k);
                k
            }
        };
        let call = &mut calls[k];
        if call.id.is_none() {
            if let Some(id) = id {
                // The call is the last without an id at its index: it has one now.
                if let Some(waiting) = self.without_id_at.get_mut(&call.index) {
                    if waiting.last() == Some(&k) {
                        waiting.pop();
                    }
                }
                self.by_id.entry(id.clone()).or_insert(k);
                call.id = Some(id);
            }
        }
        if let Some(f) = frag.function {
            if let Some(name) = f.name.filter(|s| !s.is_empty()) {
                if call.name.is_empty() {
                    call.name = name;
                } else if call.name != name {
                    call.name.push_str(&name);
                }
            }
            if let Some(a) = f.arguments {
                call.arguments.push_str(&a);
            }
        }
        widen(&mut call.source, source.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::super::openai_wire::FunctionIn;
    use super::*;
    use proptest::prelude::*;

    /// The rule as first written: a search of the calls so far for each fragment (quadratic).
    fn naive(calls: &mut Vec<ToolCall>, frag: ToolCallIn, n: usize, source: &Range<usize>) {
        let index = frag.index.unwrap_or(n as u64);
        let id = frag.id.filter(|s| !s.is_empty());
        let found = match &id {
            Some(id) => calls
                .iter()
                .position(|c| c.id.as_deref() == Some(id))
                .or_else(|| calls.iter().rposition(|c| c.index == index && c.id.is_none())),
            None => calls.iter().rposition(|c| c.index == index),
        };
        let call = match found {
            Some(k) => &mut calls[k],
            None => {
                calls.push(ToolCall { index, ..ToolCall::default() });
                let last = calls.len() - 1;
                &mut calls[last]
            }
        };
        if call.id.is_none() {
            call.id = id;
        }
        if let Some(f) = frag.function {
            if let Some(name) = f.name.filter(|s| !s.is_empty()) {
                if call.name.is_empty() {
                    call.name = name;
                } else if call.name != name {
                    call.name.push_str(&name);
                }
            }
            if let Some(a) = f.arguments {
                call.arguments.push_str(&a);
            }
        }
        widen(&mut call.source, source.clone());
    }

    fn frag(index: Option<u64>, id: Option<&str>, name: Option<&str>, args: &str) -> ToolCallIn {
        ToolCallIn {
            index,
            id: id.map(str::to_string),
            function: Some(FunctionIn { name: name.map(str::to_string), arguments: Some(args.to_string()) }),
        }
    }

    #[test]
    fn fragments_join_by_id_then_index() {
        let mut calls = Vec::new();
        let mut m = ToolCallMerger::new();
        // Ollama: two calls at index 0 told apart by id; a fragment without id joins the last.
        m.merge(&mut calls, frag(Some(0), Some("a"), Some("read"), "{\"p\":"), 0, &(0..5));
        m.merge(&mut calls, frag(Some(0), Some("b"), Some("grep"), "{\"q\":1}"), 0, &(5..9));
        m.merge(&mut calls, frag(Some(0), Some("a"), None, "1}"), 0, &(9..12));
        m.merge(&mut calls, frag(Some(0), None, None, ""), 0, &(12..13));
        // An id given after the call started without one.
        m.merge(&mut calls, frag(Some(1), None, Some("ls"), "{"), 0, &(13..14));
        m.merge(&mut calls, frag(Some(1), Some("c"), None, "}"), 0, &(14..15));
        let got: Vec<(u64, Option<&str>, &str, &str)> =
            calls.iter().map(|c| (c.index, c.id.as_deref(), c.name.as_str(), c.arguments.as_str())).collect();
        assert_eq!(
            got,
            [(0, Some("a"), "read", "{\"p\":1}"), (0, Some("b"), "grep", "{\"q\":1}"), (1, Some("c"), "ls", "{}")]
        );
        assert_eq!(calls[1].source, Some(5..13));
    }

    proptest! {
        /// The maps find what the search of the calls so far found, on any fragment sequence.
        #[test]
        fn the_merger_equals_the_search(
            frags in prop::collection::vec((prop::option::of(0u64..4), prop::option::of(0u8..5), 0usize..3), 0..60)
        ) {
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            let mut m = ToolCallMerger::new();
            for (k, (index, id, n)) in frags.into_iter().enumerate() {
                let id = id.map(|i| if i == 4 { String::new() } else { format!("id{i}") });
                let make = || frag(index, id.as_deref(), Some(["a", "b"][k % 2]), &k.to_string());
                m.merge(&mut fast, make(), n, &(k..k + 1));
                naive(&mut slow, make(), n, &(k..k + 1));
            }
            prop_assert_eq!(fast, slow);
        }
    }
}
