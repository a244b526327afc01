//! A set of state indices as a bitset, iterated in document order.
//!
//! States are numbered in document order, so ascending iteration is the SCXML entry order and
//! descending iteration the exit order (SCXML 1.0, Appendix D, `entryOrder` / `exitOrder`).
//! Because the descendants of a state are a contiguous index range, "does the set hold a
//! descendant of `s`" is a range query ([`StateSet::any_in_range`]).
//!
//! The first word (states 0 to 63) is held inline and the others on the heap, so that the
//! configuration of a chart of at most 64 states is one word inside the interpreter: a
//! precomputed microstep of such a chart ([`StateSet::set_small`]) is one store, without a
//! pointer to follow or a length to check.

use super::StateIndex;

/// A set of [`StateIndex`] values: a bitset of one inline `u64` word (indices 0 to 63) and a
/// `Vec<u64>` of the words after it.
///
/// It grows on insert, so a default (empty) set works for any chart; sets made
/// [`with_capacity`](StateSet::with_capacity) for the chart's state count never reallocate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct StateSet {
    /// Indices 0 to 63.
    first: u64,
    /// Indices from 64 on, 64 to a word (`rest[0]`: 64 to 127).
    rest: Vec<u64>,
}

impl StateSet {
    /// An empty set able to hold indices `0 .. states` without growing.
    pub(crate) fn with_capacity(states: usize) -> Self {
        StateSet {
            first: 0,
            rest: vec![0; states.div_ceil(64).saturating_sub(1)],
        }
    }

    /// The number of words (the inline one and those on the heap).
    #[inline]
    fn word_count(&self) -> usize {
        1 + self.rest.len()
    }

    /// Word `w` (indices `64 * w ..`), `0` beyond the words the set has.
    #[inline]
    fn word(&self, w: usize) -> u64 {
        if w == 0 {
            self.first
        } else {
            self.rest.get(w - 1).copied().unwrap_or(0)
        }
    }

    /// Whether `state` is in the set.
    #[inline(always)]
    pub(crate) fn contains(&self, state: StateIndex) -> bool {
        let (w, b) = split(state);
        let word = if w == 0 {
            self.first
        } else {
            match self.rest.get(w - 1) {
                Some(&word) => word,
                None => return false,
            }
        };
        word & (1 << b) != 0
    }

    /// Adds `state`; returns whether it was not yet present.
    #[inline(always)]
    pub(crate) fn insert(&mut self, state: StateIndex) -> bool {
        let (w, b) = split(state);
        let word = if w == 0 {
            &mut self.first
        } else {
            if w > self.rest.len() {
                self.grow(w);
            }
            &mut self.rest[w - 1]
        };
        let fresh = *word & (1 << b) == 0;
        *word |= 1 << b;
        fresh
    }

    /// Makes room for word `w` (a set made without the capacity for the state inserted).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, w: usize) {
        self.rest.resize(w, 0);
    }

    /// Removes `state`; returns whether it was present.
    #[inline(always)]
    pub(crate) fn remove(&mut self, state: StateIndex) -> bool {
        let (w, b) = split(state);
        let word = if w == 0 {
            &mut self.first
        } else {
            match self.rest.get_mut(w - 1) {
                Some(word) => word,
                None => return false,
            }
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
            self.first = (self.first & !clear) | set;
            return;
        }
        for &s in exit {
            self.remove(s);
        }
        for &s in enter {
            self.insert(s);
        }
    }

    /// Makes the set exactly the states of the bits of `word`, for a set that holds no
    /// index above 63 (the configuration of a chart of at most 64 states): one store.
    #[inline(always)]
    pub(crate) fn set_small(&mut self, word: u64) {
        debug_assert!(
            self.rest.iter().all(|&w| w == 0),
            "set_small on a set with states above 63"
        );
        self.first = word;
    }

    /// The set as one word, for a set that holds no index above 63 (the configuration of a
    /// chart of at most 64 states): bit `s` is state `s`.
    #[inline(always)]
    pub(crate) fn small(&self) -> u64 {
        debug_assert!(
            self.rest.iter().all(|&w| w == 0),
            "small() of a set with states above 63"
        );
        self.first
    }

    /// Removes every state, keeping the allocation.
    pub(crate) fn clear(&mut self) {
        self.first = 0;
        self.rest.iter_mut().for_each(|w| *w = 0);
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.first == 0 && self.rest.iter().all(|&w| w == 0)
    }

    /// How many states the set holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.first.count_ones() as usize
            + self
                .rest
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>()
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
        let words = self.word_count();
        if w >= words {
            return None;
        }
        let mut word = self.word(w) & (!0u64 << b);
        loop {
            if word != 0 {
                let found = (w as StateIndex) * 64 + word.trailing_zeros();
                return (found < hi).then_some(found);
            }
            w += 1;
            if w >= words || (w as StateIndex) * 64 >= hi {
                return None;
            }
            word = self.rest[w - 1];
        }
    }

    /// The largest state in the set.
    pub(crate) fn last(&self) -> Option<StateIndex> {
        if let Some(w) = self.rest.iter().rposition(|&w| w != 0) {
            return Some((w as StateIndex + 1) * 64 + 63 - self.rest[w].leading_zeros());
        }
        (self.first != 0).then(|| 63 - self.first.leading_zeros())
    }

    /// The states in ascending (document, entry) order.
    pub(crate) fn iter(&self) -> Iter<'_> {
        Iter {
            rest: &self.rest,
            index: 0,
            current: self.first,
        }
    }

    /// The states in descending (exit) order.
    pub(crate) fn iter_rev(&self) -> IterRev<'_> {
        IterRev {
            first: self.first,
            rest: &self.rest,
            index: self.rest.len() + 1,
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
    rest: &'a [u64],
    /// The word `current` came from (0: the inline one, `i`: `rest[i - 1]`).
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
            self.current = *self.rest.get(self.index)?;
            self.index += 1;
        }
    }
}

/// Descending iterator of a [`StateSet`].
pub(crate) struct IterRev<'a> {
    first: u64,
    rest: &'a [u64],
    /// The word `current` came from (0: the inline one, `i`: `rest[i - 1]`; `rest.len() + 1`
    /// before the first load).
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
            self.current = if self.index == 0 {
                self.first
            } else {
                self.rest[self.index - 1]
            };
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
