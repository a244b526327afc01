//! A set of state indices as a bitset, iterated in document order.
//!
//! States are numbered in document order, so ascending iteration is the SCXML entry order and
//! descending iteration the exit order (SCXML 1.0, Appendix D, `entryOrder` / `exitOrder`).
//! Because the descendants of a state are a contiguous index range, "does the set hold a
//! descendant of `s`" is a range query ([`StateSet::any_in_range`]).
//!
//! A set has one of two forms, fixed when it is made ([`StateSet::with_capacity`]): for a
//! chart of at most 64 states, one word held inline (the configuration of such a chart is
//! then one word inside the interpreter, and a precomputed microstep of it,
//! [`StateSet::set_small`], is one store without a pointer to follow or a length to check);
//! for a larger chart, a `Vec` of all its words. The form is the `Vec`'s length (zero: the
//! inline word), so an operation of the large form is the plain `Vec` bitset's (a bounds
//! check, a load, a store) and only when that check fails does it look at the inline word:
//! the form costs the large charts nothing on their hot path.

use super::StateIndex;

/// A set of [`StateIndex`] values: a bitset held either as one inline `u64` (indices 0 to
/// 63, while `words` is empty: the small form) or as a `Vec<u64>` of all its words (the
/// large form).
///
/// It grows on insert (a small set that receives an index above 63 takes the large form), so
/// a default (empty) set works for any chart; sets made
/// [`with_capacity`](StateSet::with_capacity) for the chart's state count never reallocate.
#[derive(Debug, Clone, Default)]
pub(crate) struct StateSet {
    /// The small form's word (indices 0 to 63) while `words` is empty; 0 otherwise.
    first: u64,
    /// The large form: every word (`words[w]`: indices `64 * w .. 64 * w + 64`); empty in
    /// the small form.
    words: Vec<u64>,
}

impl PartialEq for StateSet {
    /// Equal when they hold the same states, whatever their forms.
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.all_words(), other.all_words());
        let n = a.len().min(b.len());
        a[..n] == b[..n] && a[n..].iter().chain(&b[n..]).all(|&w| w == 0)
    }
}

impl Eq for StateSet {}

impl StateSet {
    /// An empty set able to hold indices `0 .. states` without growing: the small form for
    /// `states <= 64`, the large one otherwise.
    pub(crate) fn with_capacity(states: usize) -> Self {
        StateSet {
            first: 0,
            words: if states <= 64 {
                Vec::new()
            } else {
                vec![0; states.div_ceil(64)]
            },
        }
    }

    /// The set's words, in either form (at least one).
    #[inline(always)]
    fn all_words(&self) -> &[u64] {
        if self.words.is_empty() {
            std::slice::from_ref(&self.first)
        } else {
            &self.words
        }
    }

    /// Whether `state` is in the set.
    #[inline(always)]
    pub(crate) fn contains(&self, state: StateIndex) -> bool {
        let (w, b) = split(state);
        let word = if let Some(&word) = self.words.get(w) {
            word
        } else if w == 0 {
            // Word 0 is missing from `words` only in the small form.
            self.first
        } else {
            return false;
        };
        word & (1 << b) != 0
    }

    /// Adds `state`; returns whether it was not yet present.
    #[inline(always)]
    pub(crate) fn insert(&mut self, state: StateIndex) -> bool {
        let (w, b) = split(state);
        let word = if w < self.words.len() {
            &mut self.words[w]
        } else if w == 0 {
            &mut self.first
        } else {
            self.grow(w);
            &mut self.words[w]
        };
        let fresh = *word & (1 << b) == 0;
        *word |= 1 << b;
        fresh
    }

    /// Makes room for word `w > 0` (a set made without the capacity for the state
    /// inserted): a small set takes the large form, its word first.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, w: usize) {
        if self.words.is_empty() {
            self.words.push(std::mem::take(&mut self.first));
        }
        self.words.resize(w + 1, 0);
    }

    /// Removes `state`; returns whether it was present.
    #[inline(always)]
    pub(crate) fn remove(&mut self, state: StateIndex) -> bool {
        let (w, b) = split(state);
        let word = if w < self.words.len() {
            &mut self.words[w]
        } else if w == 0 {
            &mut self.first
        } else {
            return false;
        };
        let present = *word & (1 << b) != 0;
        *word &= !(1 << b);
        present
    }

    /// Removes the states of `exit`, then adds those of `enter` (a precomputed microstep's
    /// lists): one look at the words for both lists.
    #[inline(always)]
    pub(crate) fn exchange(&mut self, exit: &[StateIndex], enter: &[StateIndex]) {
        // All in the first word (a chart of at most 64 states, or a move among its first
        // 64): one read and one write of it (for constant lists, constant masks).
        let (mut clear, mut set, mut first) = (0u64, 0u64, true);
        for &s in exit {
            first &= s < 64;
            clear |= 1u64.wrapping_shl(s);
        }
        for &s in enter {
            first &= s < 64;
            set |= 1u64.wrapping_shl(s);
        }
        if first {
            let word = match self.words.first_mut() {
                Some(word) => word,
                None => &mut self.first,
            };
            *word = (*word & !clear) | set;
            return;
        }
        for &s in exit {
            self.remove(s);
        }
        for &s in enter {
            self.insert(s);
        }
    }

    /// Makes the set exactly the states of the bits of `word`, for a set of the small form
    /// (the configuration of a chart of at most 64 states): one store.
    #[inline(always)]
    pub(crate) fn set_small(&mut self, word: u64) {
        debug_assert!(
            self.words.is_empty(),
            "set_small on a set of the large form"
        );
        self.first = word;
    }

    /// The set as one word, for a set of the small form (the configuration of a chart of at
    /// most 64 states): bit `s` is state `s`.
    #[inline(always)]
    pub(crate) fn small(&self) -> u64 {
        debug_assert!(self.words.is_empty(), "small() of a set of the large form");
        self.first
    }

    /// Removes every state, keeping the form and the allocation.
    pub(crate) fn clear(&mut self) {
        self.first = 0;
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.all_words().iter().all(|&w| w == 0)
    }

    /// How many states the set holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.all_words()
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// Whether some state of the half-open range `lo .. hi` is in the set.
    pub(crate) fn any_in_range(&self, lo: StateIndex, hi: StateIndex) -> bool {
        self.first_in_range(lo, hi).is_some()
    }

    /// The smallest state of the half-open range `lo .. hi` in the set.
    pub(crate) fn first_in_range(&self, lo: StateIndex, hi: StateIndex) -> Option<StateIndex> {
        if lo >= hi {
            return None;
        }
        let (mut w, b) = split(lo);
        // As `contains`: the large form's bounds check first, the inline word when it fails.
        let mut word = if w < self.words.len() {
            self.words[w]
        } else if w == 0 {
            self.first
        } else {
            return None;
        } & (!0u64 << b);
        loop {
            if word != 0 {
                let found = (w as StateIndex) * 64 + word.trailing_zeros();
                return (found < hi).then_some(found);
            }
            w += 1;
            // The small form has no word after the inline one.
            if w >= self.words.len() || (w as StateIndex) * 64 >= hi {
                return None;
            }
            word = self.words[w];
        }
    }

    /// The largest state in the set.
    pub(crate) fn last(&self) -> Option<StateIndex> {
        let words = self.all_words();
        let w = words.iter().rposition(|&w| w != 0)?;
        Some(w as StateIndex * 64 + 63 - words[w].leading_zeros())
    }

    /// The states in ascending (document, entry) order.
    pub(crate) fn iter(&self) -> Iter<'_> {
        // The small form's `words` is empty: after the inline word, `next` finds no other.
        Iter {
            words: &self.words,
            index: 0,
            current: self.words.first().copied().unwrap_or(self.first),
        }
    }

    /// The states in descending (exit) order.
    pub(crate) fn iter_rev(&self) -> IterRev<'_> {
        let words = self.all_words();
        IterRev {
            words,
            index: words.len(),
            current: 0,
        }
    }
}

#[inline]
fn split(state: StateIndex) -> (usize, u32) {
    ((state / 64) as usize, state % 64)
}

/// Ascending iterator of a [`StateSet`].
pub(crate) struct Iter<'a> {
    /// The large form's words (empty for the small form, whose word starts as `current`).
    words: &'a [u64],
    /// The word `current` came from.
    index: usize,
    current: u64,
}

impl Iterator for Iter<'_> {
    type Item = StateIndex;

    #[inline]
    fn next(&mut self) -> Option<StateIndex> {
        loop {
            if self.current != 0 {
                let bit = self.current.trailing_zeros();
                self.current &= self.current - 1;
                return Some(self.index as StateIndex * 64 + bit);
            }
            self.index += 1;
            self.current = *self.words.get(self.index)?;
        }
    }
}

/// Descending iterator of a [`StateSet`].
pub(crate) struct IterRev<'a> {
    words: &'a [u64],
    /// The word `current` came from (`words.len()` before the first load).
    index: usize,
    current: u64,
}

impl Iterator for IterRev<'_> {
    type Item = StateIndex;

    #[inline]
    fn next(&mut self) -> Option<StateIndex> {
        loop {
            if self.current != 0 {
                let bit = 63 - self.current.leading_zeros();
                self.current &= !(1 << bit);
                return Some((self.index as StateIndex) * 64 + bit);
            }
            if self.index == 0 {
                return None;
            }
            self.index -= 1;
            self.current = self.words[self.index];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[StateIndex]) -> StateSet {
        let mut s = StateSet::default();
        for &i in items {
            s.insert(i);
        }
        s
    }

    #[test]
    fn exchange_removes_the_exits_then_adds_the_entries() {
        let mut s = StateSet::with_capacity(70);
        s.insert(1);
        s.insert(65);
        s.exchange(&[65, 1], &[2, 66]);
        assert_eq!(s.iter().collect::<Vec<_>>(), [2, 66]);
        // A state both exited and entered (a transition that leaves and re-enters it) is in.
        s.exchange(&[66, 2], &[2]);
        assert_eq!(s.iter().collect::<Vec<_>>(), [2]);
        // The whole set as one word, for a set of indices below 64.
        let mut one = StateSet::with_capacity(10);
        one.insert(7);
        one.set_small(0b1010);
        assert_eq!(one.iter().collect::<Vec<_>>(), [1, 3]);
        assert_eq!(one.small(), 0b1010);
        assert_eq!(one.last(), Some(3));
        // Beyond the words it has, the set grows.
        let mut small = set(&[3]);
        small.exchange(&[3], &[130, 4]);
        assert_eq!(small.iter().collect::<Vec<_>>(), [4, 130]);
    }

    #[test]
    fn the_two_forms_hold_the_same_sets() {
        let mut small = StateSet::with_capacity(64);
        let mut large = StateSet::with_capacity(65);
        for s in [0, 5, 63] {
            assert!(small.insert(s) && large.insert(s));
        }
        assert_eq!(small, large);
        assert_eq!(small.small(), 1 | 1 << 5 | 1 << 63);
        assert_eq!(small.iter().collect::<Vec<_>>(), [0, 5, 63]);
        assert_eq!(large.iter().collect::<Vec<_>>(), [0, 5, 63]);
        assert_eq!(small.iter_rev().collect::<Vec<_>>(), [63, 5, 0]);
        assert_eq!(small.first_in_range(1, 64), Some(5));
        assert!(!small.contains(64) && !small.remove(64) && !small.any_in_range(64, 200));
        // A small set that receives a state above 63 takes the large form with its states.
        assert!(small.insert(100));
        assert_eq!(small.iter().collect::<Vec<_>>(), [0, 5, 63, 100]);
        assert_ne!(small, large);
        assert!(large.insert(100));
        assert_eq!(small, large);
        assert!(small.contains(63) && small.contains(100) && !small.contains(64));
        // Trailing empty words do not tell sets apart.
        assert!(small.remove(100) && large.remove(100));
        small.insert(300);
        small.remove(300);
        assert_eq!(small, large);
        assert_eq!(StateSet::default(), StateSet::with_capacity(500));
        assert_eq!(small.last(), Some(63));
        small.clear();
        assert!(small.is_empty() && small.last().is_none());
    }

    #[test]
    fn insert_remove_contains() {
        let mut s = StateSet::with_capacity(10);
        assert!(s.is_empty());
        assert!(s.insert(3));
        assert!(!s.insert(3));
        assert!(s.insert(200));
        assert!(s.contains(3) && s.contains(200));
        assert!(!s.contains(4) && !s.contains(1000));
        assert_eq!(s.len(), 2);
        assert!(s.remove(3));
        assert!(!s.remove(3));
        assert!(!s.remove(5000));
        assert_eq!(s.len(), 1);
        s.clear();
        assert!(s.is_empty());
    }

    #[test]
    fn iterates_in_both_orders() {
        let items = [0, 1, 5, 63, 64, 65, 127, 128, 300];
        let s = set(&items);
        assert_eq!(s.iter().collect::<Vec<_>>(), items);
        let mut rev = items.to_vec();
        rev.reverse();
        assert_eq!(s.iter_rev().collect::<Vec<_>>(), rev);
        assert_eq!(StateSet::default().iter().count(), 0);
        assert_eq!(StateSet::default().iter_rev().count(), 0);
        assert_eq!(StateSet::with_capacity(500).iter_rev().count(), 0);
    }

    #[test]
    fn range_queries() {
        let s = set(&[2, 70, 130]);
        assert_eq!(s.first_in_range(0, 3), Some(2));
        assert_eq!(s.first_in_range(3, 70), None);
        assert_eq!(s.first_in_range(3, 71), Some(70));
        assert_eq!(s.first_in_range(71, 200), Some(130));
        assert_eq!(s.first_in_range(131, 1000), None);
        assert_eq!(s.first_in_range(5, 5), None);
        assert!(s.any_in_range(64, 128));
        assert!(!s.any_in_range(71, 130));
        assert!(!s.any_in_range(10_000, 20_000));
    }

    #[test]
    fn matches_a_reference_set() {
        use std::collections::BTreeSet;
        // A small deterministic pseudo-random walk.
        let mut x: u32 = 12345;
        let mut s = StateSet::default();
        let mut r = BTreeSet::new();
        for _ in 0..2000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let v = (x >> 8) % 260;
            if (x >> 20) & 3 == 0 {
                assert_eq!(s.remove(v), r.remove(&v));
            } else {
                assert_eq!(s.insert(v), r.insert(v));
            }
        }
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            r.iter().copied().collect::<Vec<_>>()
        );
        assert_eq!(
            s.iter_rev().collect::<Vec<_>>(),
            r.iter().rev().copied().collect::<Vec<_>>()
        );
        for (lo, hi) in [(0, 10), (10, 100), (63, 65), (100, 259), (0, 260)] {
            assert_eq!(s.first_in_range(lo, hi), r.range(lo..hi).next().copied());
        }
    }
}
