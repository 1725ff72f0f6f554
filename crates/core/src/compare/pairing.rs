//! Which candidate output answers which reference prompt: by id (a golden line's `id`, a soak's
//! "prompt 3", a capture's file name); when no id is shared and both sides hold as many
//! outputs, in order — and the comparison says so.

use super::output::Output;

/// The outputs paired, and those left over on each side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairing {
    /// `(reference index, candidate index)`, in the reference's order.
    pub pairs: Vec<(usize, usize)>,
    /// Reference outputs no candidate answers (their ids).
    pub missing: Vec<String>,
    /// Candidate outputs whose id the reference does not hold.
    pub unmatched: Vec<String>,
    /// Paired in order, since no id was shared.
    pub by_order: bool,
}

/// Pairs `candidates` with `references`. A candidate id seen twice pairs its first output; the
/// second is unmatched.
pub fn pair(references: &[Output], candidates: &[Output]) -> Pairing {
    let mut used = vec![false; candidates.len()];
    let mut p = Pairing::default();
    for (i, r) in references.iter().enumerate() {
        match candidates.iter().enumerate().position(|(j, c)| !used[j] && c.id == r.id) {
            Some(j) => {
                used[j] = true;
                p.pairs.push((i, j));
            }
            None => p.missing.push(r.id.clone()),
        }
    }
    if p.pairs.is_empty() && !references.is_empty() && references.len() == candidates.len() {
        return Pairing {
            pairs: (0..references.len()).map(|i| (i, i)).collect(),
            by_order: true,
            ..Pairing::default()
        };
    }
    p.unmatched = candidates.iter().zip(&used).filter(|(_, u)| !**u).map(|(c, _)| c.id.clone()).collect();
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outs(ids: &[&str]) -> Vec<Output> {
        ids.iter().map(|id| Output { id: id.to_string(), ..Output::default() }).collect()
    }

    #[test]
    fn by_id_then_by_order() {
        let p = pair(&outs(&["a", "b", "c"]), &outs(&["c", "a", "d", "a"]));
        assert_eq!(p.pairs, vec![(0, 1), (2, 0)]);
        assert_eq!((p.missing, p.unmatched, p.by_order), (vec!["b".to_string()], vec!["d".into(), "a".into()], false));
        let p = pair(&outs(&["x.sse", "y.sse"]), &outs(&["1.sse", "2.sse"]));
        assert!(p.by_order && p.pairs == vec![(0, 0), (1, 1)]);
        let p = pair(&outs(&["x"]), &outs(&["1", "2"]));
        assert!(p.pairs.is_empty() && p.missing == ["x"] && p.unmatched.len() == 2);
    }
}
