//! The core's side of the chart's typed lane (`runtime/lane.rs`): a typed event that the
//! generated `lane` covers runs at the call site of [`Core::submit`], without a queue, an
//! `_event`, a shared cell or a boxed callback in between, and the typed [`Observer`] (a
//! type parameter, so its calls inline) hears it and the macrostep's exits and entries
//! straight after. What the lane declines takes the interpreter's paths
//! ([`Core::process_envelope`]), with the same effect: the random walks of
//! `scxml-scion-tests` compare the two after every event.
//!
//! Unlike the shared handle, the core needs no flag for re-entrancy (its callbacks cannot
//! reach it) and no catch-up (it never defers a macrostep): the lane is open whenever the
//! machine runs and nothing is queued or recorded ([`Core::settled`], after every call that
//! is not a lane step).

use super::{Core, Observer};
use crate::runtime::envelope::{Envelope, Meta};
use crate::runtime::lane::{Lane, LaneEnd};
use crate::runtime::{Chart, EventKind, RuntimeError, StateIndex};

/// [`Core::lane`]: the lane is closed; typed events take the interpreter.
pub(super) const LANE_CLOSED: u8 = 0;
/// [`Core::lane`]: open, and no boxed callback of typed events or states is connected.
pub(super) const LANE_OPEN: u8 = 1;
/// [`Core::lane`]: open, with boxed callbacks of typed events or states.
pub(super) const LANE_OPEN_BOXED: u8 = 2;

/// Marks the path that calls it as the less likely one (a call of a `#[cold]` function), for
/// the layout of [`Core::submit`]'s cases (`std::hint::cold_path` is newer than the crate's
/// minimum Rust version).
#[cold]
#[inline(always)]
fn less_likely() {}

impl<C: Chart, O: Observer<C>> Core<C, O> {
    /// [`submit`](Core::submit) of the chart's typed event: the lane where it is open,
    /// otherwise the interpreter.
    #[inline(always)]
    pub(super) fn submit_typed(&mut self, event: C::Event) -> Result<(), RuntimeError> {
        // The open lane without boxed callbacks first: one comparison of the lane byte at
        // the call site. The lane with boxed callbacks is inlined too (one call away, its
        // call, saved registers and result cost it a third of its instructions), but laid
        // out as the less likely case: otherwise the compiler compares for it first and
        // gives it the registers of the first case's loop.
        let declined = if C::LANE && self.lane == LANE_OPEN {
            match self.lane_step::<false>(event) {
                Ok(()) => return Ok(()),
                Err(event) => event,
            }
        } else if C::LANE && self.lane == LANE_OPEN_BOXED {
            less_likely();
            match self.lane_step::<true>(event) {
                Ok(()) => return Ok(()),
                Err(event) => event,
            }
        } else {
            event
        };
        self.submit_declined(declined)
    }

    /// A typed event the lane does not take: the interpreter's paths.
    #[inline(never)]
    fn submit_declined(&mut self, event: C::Event) -> Result<(), RuntimeError> {
        let result = self.process_envelope(Envelope::Typed(event, Meta::of(EventKind::External)));
        self.settled();
        result
    }

    /// The lane's step for `event` (`BOXED`: boxed callbacks of typed events or states are
    /// connected); `Err` gives the event back untouched where the lane declines it.
    #[inline(always)]
    #[allow(
        clippy::result_large_err,
        reason = "the event is given back untouched, by move: nothing is allocated"
    )]
    fn lane_step<const BOXED: bool>(&mut self, event: C::Event) -> Result<(), C::Event> {
        match C::lane(&mut Lane::new(&mut self.interp), &event) {
            LaneEnd::Declined => return Err(event),
            LaneEnd::Ended => self.lane_told::<BOXED>(&event, None, false),
            LaneEnd::Recorded | LaneEnd::Moved => self.lane_told::<BOXED>(&event, None, true),
            LaneEnd::Transited(exit, enter) => {
                self.lane_told::<BOXED>(&event, Some((exit, enter)), false);
            }
            LaneEnd::Continue(microsteps) => self.lane_continue(event, microsteps),
        }
        Ok(())
    }

    /// Tells the callbacks and the observer about a lane step that ended the macrostep, in
    /// the order of every other path: the event, then the exits and entries (`moved`: the
    /// precomputed lists of [`LaneEnd::Transited`]; otherwise what the interpreter
    /// recorded), errors and logs; then processes what the macrostep sent the machine
    /// itself. `recorded`: the outbox or the external queue may hold something.
    #[inline(always)]
    fn lane_told<const BOXED: bool>(
        &mut self,
        event: &C::Event,
        moved: Option<(&'static [StateIndex], &'static [StateIndex])>,
        recorded: bool,
    ) {
        // Asked first: the empty list is then one comparison of its length, not the walk's
        // setup.
        if BOXED && !self.callbacks.typed.is_empty() {
            for f in &mut self.callbacks.typed {
                f(event);
            }
        }
        if O::EVENTS {
            self.observer.event(event);
        }
        if let Some((exit, enter)) = moved {
            if O::STATES || BOXED {
                for &s in exit {
                    self.tell_state::<BOXED>(s, false);
                }
                for &s in enter {
                    self.tell_state::<BOXED>(s, true);
                }
            }
        }
        if recorded {
            self.lane_recorded();
        }
    }

    /// Delivers what a lane step recorded and processes what it sent the machine itself.
    #[inline(never)]
    fn lane_recorded(&mut self) {
        if !self.interp.outbox.is_empty() {
            self.deliver();
        }
        if !self.interp.ctx.external.is_empty() {
            self.run(None);
            self.settled();
        }
    }

    /// Tells the state callbacks and the observer that `s` was entered (`true`) or exited.
    #[inline(always)]
    fn tell_state<const BOXED: bool>(&mut self, s: StateIndex, entered: bool) {
        if BOXED {
            self.tell_boxed_state(s, entered);
        }
        if O::STATES {
            if let Some(state) = C::state(s) {
                self.observer.state(state, entered);
            }
        }
    }

    /// Tells the state callbacks that `s` was entered (`true`) or exited.
    #[inline(always)]
    fn tell_boxed_state(&mut self, s: StateIndex, entered: bool) {
        if !crate::runtime::observers::may_watch(self.callbacks.state_mask, s) {
            return;
        }
        for (index, f) in &mut self.callbacks.states {
            if *index == s {
                f(entered);
            }
        }
    }

    /// Finishes a macrostep the lane began ([`LaneEnd::Continue`]) on the interpreter, then
    /// tells the callbacks and processes what follows.
    #[cold]
    fn lane_continue(&mut self, event: C::Event, microsteps: usize) {
        self.interp.lane_continue(
            Envelope::Typed(event, Meta::of(EventKind::External)),
            microsteps,
        );
        self.deliver();
        if self.interp.has_queued_work() {
            self.run(None);
        }
        self.settled();
    }

    /// After a call that is not a lane step: what the interpreter records for the callbacks
    /// and the observer there are, and whether the lane is open for the next typed event.
    pub(super) fn settled(&mut self) {
        self.record();
        let interp = &self.interp;
        let open = C::LANE
            && interp.precomputed
            && interp.started
            && interp.running
            && !self.start_requested
            && interp.ctx.external.is_empty()
            && interp.ctx.internal.is_empty()
            && interp.ctx.children.is_empty()
            && interp.outbox.is_empty()
            && self.callbacks.events.is_empty();
        let boxed = !self.callbacks.typed.is_empty() || !self.callbacks.states.is_empty();
        self.lane = match (open, boxed) {
            (false, _) => LANE_CLOSED,
            (true, false) => LANE_OPEN,
            (true, true) => LANE_OPEN_BOXED,
        };
    }
}
