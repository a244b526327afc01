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

impl<C: Chart, O: Observer<C>> Core<C, O> {
    /// [`submit`](Core::submit) of the chart's typed event: the lane where it is open,
    /// otherwise the interpreter.
    #[inline(always)]
    pub(super) fn submit_typed(&mut self, event: C::Event) -> Result<(), RuntimeError> {
        if C::LANE && self.lane_open {
            match C::lane(&mut Lane::new(&mut self.interp), &event) {
                LaneEnd::Declined => {}
                LaneEnd::Ended => {
                    self.lane_told(&event, None, false);
                    return Ok(());
                }
                LaneEnd::Recorded | LaneEnd::Moved => {
                    self.lane_told(&event, None, true);
                    return Ok(());
                }
                LaneEnd::Transited(exit, enter) => {
                    self.lane_told(&event, Some((exit, enter)), false);
                    return Ok(());
                }
                LaneEnd::Continue(microsteps) => {
                    self.lane_continue(event, microsteps);
                    return Ok(());
                }
            }
        }
        let result = self.process_envelope(Envelope::Typed(event, Meta::of(EventKind::External)));
        self.settled();
        result
    }

    /// Tells the callbacks and the observer about a lane step that ended the macrostep, in
    /// the order of every other path: the event, then the exits and entries (`moved`: the
    /// precomputed lists of [`LaneEnd::Transited`]; otherwise what the interpreter
    /// recorded), errors and logs; then processes what the macrostep sent the machine
    /// itself. `recorded`: the outbox or the external queue may hold something.
    #[inline(always)]
    fn lane_told(
        &mut self,
        event: &C::Event,
        moved: Option<(&'static [StateIndex], &'static [StateIndex])>,
        recorded: bool,
    ) {
        if self.boxed {
            for f in &mut self.callbacks.typed {
                f(event);
            }
        }
        if O::EVENTS {
            self.observer.event(event);
        }
        if let Some((exit, enter)) = moved {
            if O::STATES || self.boxed {
                for &s in exit {
                    self.tell_state(s, false);
                }
                for &s in enter {
                    self.tell_state(s, true);
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
    fn tell_state(&mut self, s: StateIndex, entered: bool) {
        if self.boxed {
            self.tell_boxed_state(s, entered);
        }
        if O::STATES {
            if let Some(state) = C::state(s) {
                self.observer.state(state, entered);
            }
        }
    }

    /// Tells the state callbacks that `s` was entered (`true`) or exited.
    #[inline(never)]
    fn tell_boxed_state(&mut self, s: StateIndex, entered: bool) {
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
        self.lane_open = C::LANE
            && interp.precomputed
            && interp.started
            && interp.running
            && !self.start_requested
            && interp.ctx.external.is_empty()
            && interp.ctx.internal.is_empty()
            && interp.ctx.children.is_empty()
            && interp.outbox.is_empty()
            && self.callbacks.events.is_empty();
        self.boxed = !self.callbacks.typed.is_empty() || !self.callbacks.states.is_empty();
    }
}
