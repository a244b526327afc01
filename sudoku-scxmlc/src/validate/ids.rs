//! The table of state ids the validator resolves targets and `In(id)` against.

use crate::chart::State;
use hashbrown::HashTable;
use std::hash::{BuildHasher, RandomState};

/// State ids → state indices. The table holds 4-byte indices and hashes the ids of the
/// states they name (`State::id`), so the ids are not stored twice: a chart of 65,536 states
/// has as many ids, and the table lives while the parsed document and the chart are both
/// alive (docs/scale.md, "Compiler memory").
#[derive(Debug, Default)]
pub(crate) struct StateIds {
    table: HashTable<u32>,
    hasher: RandomState,
}

impl StateIds {
    /// Room for `n` ids.
    pub(crate) fn reserve(&mut self, states: &[State], n: usize) {
        let hasher = &self.hasher;
        self.table
            .reserve(n, |&i| hasher.hash_one(&*states[i as usize].id));
    }

    /// The index of the state whose id is `id`, among `states`.
    pub(crate) fn get(&self, states: &[State], id: &str) -> Option<usize> {
        self.table
            .find(self.hasher.hash_one(id), |&i| &*states[i as usize].id == id)
            .map(|&i| i as usize)
    }

    /// Records that `id` is the id of state `index` (the next one to be pushed onto
    /// `states`, which holds the states of the ids recorded so far). `id` must not be
    /// recorded yet.
    pub(crate) fn insert(&mut self, states: &[State], id: &str, index: usize) {
        let hasher = &self.hasher;
        self.table.insert_unique(
            hasher.hash_one(id),
            u32::try_from(index).expect("a chart has fewer than 2^32 states"),
            |&i| hasher.hash_one(&*states[i as usize].id),
        );
    }

    /// The indices of the states with a recorded id, in no particular order.
    pub(crate) fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.table.iter().map(|&i| i as usize)
    }
}
