//! Where the machine's quiet macrosteps are ([`QuietAt`]): what `submit_event` moves
//! without the interpreter, and what the interpreter catches up with when it is next used.

use std::cell::Cell;

/// [`QuietAt::event`] when the interpreter is up to date.
pub(super) const CAUGHT_UP: u32 = u32::MAX;

/// Where the quiet macrosteps are, as one word (one store per quiet move): the row of the
/// active atomic state in the quiet cells (low half), and the name index of the last event
/// a quiet macrostep processed when the interpreter has not caught up with it yet
/// ([`catch_up_quiet`]), else [`CAUGHT_UP`] (high half).
///
/// [`catch_up_quiet`]: crate::runtime::interpreter::Interpreter::catch_up_quiet
pub(super) struct QuietAt(Cell<u64>);

impl QuietAt {
    /// At `row`, caught up.
    pub(super) fn new(row: u32) -> Self {
        QuietAt(Cell::new(Self::word(row, CAUGHT_UP)))
    }

    #[inline(always)]
    fn word(row: u32, event: u32) -> u64 {
        u64::from(row) | u64::from(event) << 32
    }

    /// The row of the active atomic state.
    #[inline(always)]
    pub(super) fn row(&self) -> u32 {
        self.0.get() as u32
    }

    /// The last event not caught up with, or [`CAUGHT_UP`].
    #[inline(always)]
    pub(super) fn event(&self) -> u32 {
        (self.0.get() >> 32) as u32
    }

    /// Whether [`event`](Self::event) is [`CAUGHT_UP`]: one comparison of the word, without
    /// a shift.
    #[inline(always)]
    pub(super) fn is_caught_up(&self) -> bool {
        self.0.get() >= u64::from(CAUGHT_UP) << 32
    }

    /// A quiet macrostep of the event `event` moved to `row`.
    #[inline(always)]
    pub(super) fn moved(&self, row: u32, event: u32) {
        self.0.set(Self::word(row, event));
    }

    /// The row is `row` (the event is kept).
    pub(super) fn set_row(&self, row: u32) {
        self.0.set(Self::word(row, self.event()));
    }

    /// The interpreter caught up (the row is kept).
    pub(super) fn caught_up(&self) {
        self.0.set(Self::word(self.row(), CAUGHT_UP));
    }
}
