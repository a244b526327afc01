//! The typed lane: a macrostep that the generator wrote out for one (event, active atomic
//! state) pair, run at the call site of [`Machine::submit`](super::Machine::submit) and
//! [`Core::submit`](super::Core::submit) without queueing the event, making it `_event`, or
//! going through the tables.
//!
//! A chart gets a lane (`Chart::LANE`) when it has no `<parallel>`, no `<invoke>`, no
//! eventless transition and the rust or null datamodel. Its generated `lane` function matches
//! the event's variant and the active atomic state, evaluates the candidate transitions'
//! conditions in document order by calling the same `cond_N` functions the tables hold
//! (directly: the call inlines), runs the selected transition (a targetless one's block, the
//! same `block_N`; a targeted one by its precomputed exit and entry lists where the chart
//! allows, else by the interpreter's own microstep), and tells the machine whether the
//! macrostep is over ([`LaneEnd::Ended`]) or the interpreter must finish it
//! ([`LaneEnd::Continue`]: something was raised, an `error.execution` among others, or a
//! top-level `<final>` was reached). A cell whose code reads `_event` is not in the lane
//! ([`LaneEnd::Declined`], before anything runs): the machine's other paths take it, and
//! `_event` stays exact for every piece of chart code that can read it.
//!
//! The lane keeps what it must look at afterwards small: [`LaneEnd::Ended`] when no code it
//! ran failed or could reach the context (the generator tells `content` whether a block's
//! body names `__ctx`), so neither the queues nor the outbox need a look; a precomputed
//! microstep writes the whole configuration as one word where the chart has at most 64
//! states, and the lane of such a chart matches that word (the configuration of a chart
//! without `<parallel>` names its active atomic state); a larger chart's lane matches the
//! interpreter's exact leaf hint.
//!
//! The machine opens the lane only while nothing is queued, processing or advancing, the
//! chart runs, precomputed steps are on and no observer connected by descriptor string is
//! there (those hear a plain [`Event`](super::Event)); typed and state observers hear the
//! event and the macrostep's exits and entries straight after it, in the order of any other
//! path. The random walks of `scxml-scion-tests` compare it with the full interpreter after
//! every event.

use super::interpreter::Interpreter;
use super::{ChartEvent, Context, ExecError, StateIndex, TransitionIndex};

/// How a lane step ended (for generated code only).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum LaneEnd {
    /// The lane does not cover this event in this state; nothing ran.
    Declined,
    /// The macrostep is over; the active atomic state is the one before, and the lane
    /// recorded nothing for the observers and queued no event (no code it ran failed, or
    /// could reach the context).
    Ended,
    /// The macrostep is over; the active atomic state is the one before, but the outbox or
    /// the external queue may hold what the code it ran recorded or sent (a `<log>`, a
    /// `<send>`, a reported error).
    Recorded,
    /// The macrostep is over after a microstep that moved to another configuration (what
    /// observers must hear is recorded).
    Moved,
    /// The macrostep is over after a precomputed microstep ([`Lane::transit`]) that exited
    /// the first states (in exit order) and entered the second (in entry order); nothing
    /// is recorded, the machine tells the state observers itself.
    Transited(&'static [StateIndex], &'static [StateIndex]),
    /// The interpreter must finish the macrostep (internal events were raised, or the
    /// machine reached a top-level `<final>`); the number of microsteps that ran.
    Continue(usize),
}

/// What a generated lane step reaches of the interpreter (for generated code only).
#[doc(hidden)]
pub struct Lane<'a, D: 'static, E: 'static> {
    interp: &'a mut Interpreter<D, E>,
    /// Some code that ran failed or may have reached the context (raised, sent, logged):
    /// the queues and the outbox must be looked at. While it is `false` they are as the
    /// lane found them, empty.
    busy: bool,
}

impl<'a, D: 'static, E: ChartEvent> Lane<'a, D, E> {
    #[inline(always)]
    pub(crate) fn new(interp: &'a mut Interpreter<D, E>) -> Self {
        Lane {
            interp,
            busy: false,
        }
    }

    /// The active atomic state (the chart has no `<parallel>`: there is one), for a chart
    /// of more than 64 states.
    #[inline(always)]
    pub fn leaf(&self) -> StateIndex {
        self.interp.exact_leaf()
    }

    /// The whole configuration as one word (bit `s`: state `s`), for a chart of at most 64
    /// states: the active atomic state and its ancestors (the chart has no `<parallel>`).
    #[inline(always)]
    pub fn configuration(&self) -> u64 {
        self.interp.small_configuration()
    }

    /// Evaluates a transition's `cond` (the generated `cond_N`, called directly): an `Err`
    /// makes it false and raises `error.execution` (SCXML 1.0, 5.9), as the interpreter's
    /// `conditionMatch` does.
    #[inline(always)]
    pub fn cond(
        &mut self,
        f: impl FnOnce(&D, &Context<E>) -> Result<bool, ExecError>,
        line: u32,
    ) -> bool {
        match f(&self.interp.data, &self.interp.ctx) {
            Ok(b) => b,
            Err(e) => {
                self.failed("transition", line, e);
                false
            }
        }
    }

    /// Runs the content of the targetless transition `t` (the generated `block_N`, called
    /// directly): a microstep that exits and enters nothing. `logs`: the block may run a
    /// `<log>`, whose records log observers hear; `reaches`: the block may reach the
    /// context (raise, send, log: the generator found `__ctx` in its body).
    #[inline(always)]
    pub fn content(
        &mut self,
        t: TransitionIndex,
        f: impl FnOnce(&mut D, &mut Context<E>) -> Result<(), ExecError>,
        line: u32,
        logs: bool,
        reaches: bool,
    ) {
        if let Err(e) = f(&mut self.interp.data, &mut self.interp.ctx) {
            self.failed("executable content", line, e);
        }
        if logs {
            self.interp.flush_logs();
        }
        self.busy |= reaches || logs;
        self.noted(t);
    }

    /// Reports a failed `cond` or block (`error.execution`, SCXML 1.0, 5.9).
    #[cold]
    fn failed(&mut self, site: &'static str, line: u32, e: ExecError) {
        self.interp.report_execution_error(site, line, e);
        self.busy = true;
    }

    /// The microstep of the targeted transition `t`, the only candidate and without `cond`,
    /// whose exits and entries the generator precomputed (no executable content, history or
    /// `<final>` on the way, no eventless transition after it): `exit` in exit order,
    /// `enter` in entry order, `leaf` the atomic state active afterwards, `word` the whole
    /// configuration afterwards as one word of bits (`leaf` and its ancestors; `0` for a
    /// chart of more than 64 states). Nothing ran before it and nothing runs in it, so the
    /// macrostep ends here. For a chart of at most 64 states it is one store of `word` (its
    /// lane reads [`configuration`](Self::configuration)).
    #[inline(always)]
    pub fn transit(
        &mut self,
        t: TransitionIndex,
        exit: &'static [StateIndex],
        enter: &'static [StateIndex],
        leaf: StateIndex,
        word: u64,
    ) -> LaneEnd {
        let _ = t;
        self.interp.transit(exit, enter, leaf, word);
        LaneEnd::Transited(exit, enter)
    }

    /// The targetless transition `t` without content: a microstep that changes nothing.
    #[inline(always)]
    pub fn targetless(&mut self, t: TransitionIndex) {
        self.noted(t);
    }

    /// The interpreter's microstep for the selected transition `t` (exits, content,
    /// entries, history).
    #[inline]
    pub fn microstep(&mut self, t: TransitionIndex) {
        self.interp.microstep_of(t);
    }

    /// Whether the macrostep is over after `microsteps` microsteps (0 or 1) that exited
    /// and entered nothing.
    #[inline(always)]
    pub fn end(&mut self, microsteps: usize) -> LaneEnd {
        if !self.busy {
            // Nothing was raised, and only entering a top-level `<final>` stops a machine.
            LaneEnd::Ended
        } else if self.interp.ctx.internal.is_empty() && self.interp.running {
            LaneEnd::Recorded
        } else {
            LaneEnd::Continue(microsteps)
        }
    }

    /// Whether the macrostep is over after a microstep with targets.
    #[inline(always)]
    pub fn moved(&mut self) -> LaneEnd {
        if self.interp.ctx.internal.is_empty() && self.interp.running {
            LaneEnd::Moved
        } else {
            LaneEnd::Continue(1)
        }
    }

    /// Records `t` in the ring of recent microsteps when the macrostep goes on (the ring
    /// names the loop that hits the microstep bound; a macrostep of one microstep never
    /// hits it, and the precomputed macrosteps skip the ring as well).
    #[inline(always)]
    fn noted(&mut self, t: TransitionIndex) {
        if self.busy && !self.interp.ctx.internal.is_empty() {
            self.interp.note_microstep(t);
        }
    }
}
