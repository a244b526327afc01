//! The machine's side of the chart's typed lane (`runtime/lane.rs`): when it is open, the
//! lane step at the call site of `submit`, and its delivery to the typed and state
//! observers.

use super::{Machine, ProcessingGuard};
use crate::runtime::envelope::{ChartEvent, Envelope, Meta};
use crate::runtime::interpreter::Notification;
use crate::runtime::lane::{Lane, LaneEnd};
use crate::runtime::observers::Observers;
use crate::runtime::{Chart, EventKind, StateIndex};

/// [`Shared::lane`](super::Shared::lane): closed.
pub(super) const LANE_CLOSED: u8 = 0;
/// [`Shared::lane`](super::Shared::lane): open.
pub(super) const LANE_OPEN: u8 = 1;
/// [`Shared::lane`](super::Shared::lane): a lane step or its delivery runs.
pub(super) const LANE_RUNNING: u8 = 2;

impl<C: Chart> Machine<C> {
    /// [`submit`](Self::submit) of the chart's typed event: the quiet move, the lane, or
    /// the queue.
    #[inline(always)]
    pub(super) fn submit_typed(&self, e: C::Event) {
        let shared = &*self.inner;
        if shared.quiet.get() && e.is_plain() && self.quiet_move(e.name()) {
            // A plain event owns nothing: forgetting it spares its destructor.
            std::mem::forget(e);
            return;
        }
        if C::LANE && shared.lane.get() == LANE_OPEN {
            let lane = if C::LANE_AT_CALL_SITE {
                self.lane_step(e)
            } else {
                self.lane_step_out_of_line(e)
            };
            match lane {
                Ok(()) => {}
                Err(e) => self.submit_envelope(Envelope::Typed(e, Meta::of(EventKind::External))),
            }
            return;
        }
        self.submit_envelope(Envelope::Typed(e, Meta::of(EventKind::External)));
    }

    /// The chart's typed lane for `event` ([`Chart::lane`]), when it is open: the macrostep
    /// written out by the generator, then the typed and state observers told at once; what
    /// they asked for (or the macrostep queued) is processed afterwards. `Err` gives the
    /// event back untouched when the lane does not cover it.
    ///
    /// The step is a thin layer over the interpreter, as the owned core's: one borrow of
    /// it, the generated macrostep, and a look at the queues and the outbox only where the
    /// lane says the code it ran could have reached them ([`LaneEnd::Recorded`],
    /// [`LaneEnd::Moved`]). The lane stays [`LANE_OPEN`] while the chart's code runs: a
    /// nested call into the machine from it finds the interpreter borrowed and queues (and
    /// closes the lane), which the check after the step sees. Only a delivery, which runs
    /// the observers with the interpreter free, marks the lane [`LANE_RUNNING`], so that
    /// what they submit is queued and processed after them.
    #[inline(always)]
    #[allow(
        clippy::result_large_err,
        reason = "the event is given back untouched, by move: nothing is allocated"
    )]
    pub(super) fn lane_step(&self, event: C::Event) -> Result<(), C::Event> {
        let shared = &*self.inner;
        self.catch_up();
        let Ok(mut core) = shared.core.try_borrow_mut() else {
            return Err(event);
        };
        let (moved, recorded) = match C::lane(&mut Lane::new(&mut core), &event) {
            LaneEnd::Declined => return Err(event),
            LaneEnd::Ended => (None, false),
            LaneEnd::Recorded => (None, true),
            end @ (LaneEnd::Moved | LaneEnd::Transited(..)) => {
                if shared.quiet.get() {
                    // Quiet but for this event's macrostep: keep the row in step.
                    match core.quiet_row_now() {
                        Some(row) => shared.quiet_at.set_row(row),
                        None => shared.quiet.set(false),
                    }
                }
                match end {
                    LaneEnd::Transited(exit, enter) => (Some((exit, enter)), false),
                    _ => (None, true),
                }
            }
            LaneEnd::Continue(microsteps) => {
                shared.lane.set(LANE_CLOSED);
                shared.quiet.set(false);
                core.lane_continue(
                    Envelope::Typed(event, Meta::of(EventKind::External)),
                    microsteps,
                );
                drop(core);
                self.drain();
                return Ok(());
            }
        };
        if recorded {
            self.lane_recorded(core, &event);
            return Ok(());
        }
        // `Ended` and `Transited` ran no code that could reach the queues or the outbox:
        // they are as the lane found them, empty.
        drop(core);
        let watch = shared.watch.get();
        let open = match moved.filter(|_| watch.states) {
            Some(moved) => self.lane_deliver_running(&event, None, Some(moved)),
            None if watch.events => self.lane_deliver_running(&event, None, None),
            None => shared.lane.get() == LANE_OPEN,
        };
        if !open {
            self.drain();
        }
        Ok(())
    }

    /// The end of a lane step whose code could have reached the queues or the outbox
    /// ([`LaneEnd::Recorded`], [`LaneEnd::Moved`]): the observers hear the event and what
    /// was recorded, then what the macrostep sent the machine itself is processed.
    #[inline(never)]
    fn lane_recorded(&self, mut core: std::cell::RefMut<'_, super::Interp<C>>, event: &C::Event) {
        let shared = &*self.inner;
        let follow_up = !core.ctx.external.is_empty();
        let batch = (!core.outbox.is_empty()).then(|| std::mem::take(&mut core.outbox));
        drop(core);
        let open = if shared.watch.get().events || batch.is_some() {
            self.lane_deliver_running(event, batch, None)
        } else {
            shared.lane.get() == LANE_OPEN
        };
        if follow_up || !open {
            if follow_up {
                shared.quiet.set(false);
            }
            self.drain();
        }
    }

    /// [`lane_deliver`](Self::lane_deliver) with the lane marked [`LANE_RUNNING`] (what the
    /// observers submit is queued); the lane is open again afterwards unless they closed it.
    /// Returns whether it is open (`false`: the caller drains the queue), so that the caller
    /// does not load the lane byte again after writing it here.
    #[inline(always)]
    fn lane_deliver_running(
        &self,
        event: &C::Event,
        batch: Option<Vec<Notification>>,
        moved: Option<(&'static [StateIndex], &'static [StateIndex])>,
    ) -> bool {
        let shared = &*self.inner;
        if shared.lane.get() != LANE_OPEN {
            // Closed by a nested call from the chart's code: the queue's loop reopens it.
            self.lane_deliver(event, batch, moved);
            return shared.lane.get() == LANE_OPEN;
        }
        shared.lane.set(LANE_RUNNING);
        self.lane_deliver(event, batch, moved);
        if shared.lane.get() == LANE_RUNNING {
            shared.lane.set(LANE_OPEN);
            true
        } else {
            false
        }
    }

    /// [`lane_step`](Self::lane_step), one call away.
    #[inline(never)]
    #[allow(
        clippy::result_large_err,
        reason = "the event is given back untouched, by move: nothing is allocated"
    )]
    pub(super) fn lane_step_out_of_line(&self, event: C::Event) -> Result<(), C::Event> {
        self.lane_step(event)
    }

    /// Tells the observers about a lane step: the typed observers hear `event`, then the
    /// state, error and log observers what the macrostep recorded (`batch`), in the order of
    /// any other path ([`deliver`](Self::deliver)).
    #[inline(always)]
    pub(super) fn lane_deliver(
        &self,
        event: &C::Event,
        batch: Option<Vec<Notification>>,
        moved: Option<(&'static [StateIndex], &'static [StateIndex])>,
    ) {
        let shared = &*self.inner;
        shared.processing.set(true);
        let _guard = ProcessingGuard(&shared.processing);
        let obs = shared.observers.snapshot();
        for slot in obs.typed.iter() {
            slot.call(|f| f(event));
        }
        if let Some((exit, enter)) = moved {
            for &s in exit {
                Self::tell_state(&obs, s, false);
            }
            for &s in enter {
                Self::tell_state(&obs, s, true);
            }
        }
        if let Some(batch) = batch {
            self.tell_recorded(&obs, batch);
        }
        // Observers disconnected by now need nothing recorded any more (the snapshot shares
        // the lists' flag).
        if obs.take_stale() {
            shared
                .watch
                .set(shared.observers.with(|lists| lists.watch()));
            shared.lane.set(LANE_CLOSED);
        }
    }

    /// Tells the state observers of `state` that it was entered (`true`) or exited.
    #[inline(always)]
    pub(super) fn tell_state(obs: &Observers<C::Event>, state: StateIndex, entered: bool) {
        if !crate::runtime::observers::may_watch(obs.state_mask, state) {
            return;
        }
        for (index, slot) in obs.states.iter() {
            if *index == state {
                slot.call(|f| f(entered));
            }
        }
    }

    /// Tells the observers what a lane step recorded (`batch`: exits, entries, errors,
    /// logs), then gives the buffer back unless their calls recorded something meanwhile
    /// (which the queue's loop then delivers).
    #[cold]
    pub(super) fn tell_recorded(&self, obs: &Observers<C::Event>, mut batch: Vec<Notification>) {
        for n in batch.drain(..) {
            Self::tell(obs, n, None);
        }
        if let Ok(mut core) = self.inner.core.try_borrow_mut() {
            if core.outbox.is_empty() {
                core.outbox = batch;
            }
        }
    }

    /// Whether the lane may open now (see [`Shared::lane`](super::Shared::lane)); when it may, the interpreter
    /// is told what to record for the observers connected now.
    pub(super) fn lane_state(&self) -> u8 {
        let shared = &*self.inner;
        if !C::LANE
            || !shared.precomputed.get()
            || shared.processing.get()
            || shared.advance_target.get().is_some()
            || shared.stop_requested.get()
            || shared.restart_requested.get()
            || !shared.inbox.borrow().is_empty()
        {
            return LANE_CLOSED;
        }
        if shared
            .observers
            .with(|lists| lists.events.iter().any(|(_, s)| s.is_live()))
        {
            return LANE_CLOSED;
        }
        self.catch_up();
        let Ok(mut core) = shared.core.try_borrow_mut() else {
            return LANE_CLOSED;
        };
        let settled = core.started
            && core.running
            && core.ctx.external.is_empty()
            && core.ctx.internal.is_empty()
            && core.ctx.children.is_empty()
            && core.outbox.is_empty();
        if !settled {
            return LANE_CLOSED;
        }
        Self::record_for(shared.watch.get(), &mut core);
        LANE_OPEN
    }
}
