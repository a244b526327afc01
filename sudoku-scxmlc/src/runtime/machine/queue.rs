//! The machine's queue: submitting an event that the lane does not take (by its precomputed
//! or generated macrostep at once, or through the external queue), the loop that processes
//! queued work, and the delivery of what each step recorded to the observers.

use super::lane::{LANE_CLOSED, LANE_OPEN};
use super::{Interp, Machine, ProcessingGuard};
use crate::runtime::envelope::is_plain_external;
use crate::runtime::envelope::Envelope;
use crate::runtime::interpreter::Notification;
use crate::runtime::observers::{Observers, Watch};
use crate::runtime::{descriptor_matches, Chart, Event, RuntimeError};

impl<C: Chart> Machine<C> {
    /// Reports an event whose data does not fit its name's payload type, and drops it.
    #[cold]
    pub(super) fn refuse(&self, name: &str, reason: String) {
        let error = RuntimeError::EventData {
            chart: C::tables().name.to_owned(),
            event: name.to_owned(),
            reason,
        };
        tracing::warn!(chart = C::tables().name, "{error}");
        match self.core_mut() {
            Ok(mut core) => core.outbox.push(Notification::Error(Box::new(error))),
            Err(_) => {
                let obs = self.inner.observers.snapshot();
                for slot in obs.errors.iter() {
                    slot.call(|f| f(&error));
                }
                return;
            }
        }
        self.drain();
    }

    /// Submits an event as it is held: by a precomputed or generated macrostep when one
    /// applies and nothing waits (observers hear about it), otherwise through the queue and
    /// the interpreter.
    pub(super) fn submit_envelope(&self, event: Envelope<C::Event>) {
        let shared = &*self.inner;
        let event = match event {
            Envelope::Typed(e, meta)
                if C::LANE && shared.lane.get() == LANE_OPEN && is_plain_external(&meta) =>
            {
                match self.lane_step(e) {
                    Ok(()) => return,
                    Err(e) => Envelope::Typed(e, meta),
                }
            }
            event => event,
        };
        shared.lane.set(LANE_CLOSED);
        let event = if shared.precomputed.get()
            && !shared.processing.get()
            && shared.advance_target.get().is_none()
        {
            match self.direct_step(event) {
                Ok(()) => return,
                Err(event) => event,
            }
        } else {
            event
        };
        match self.core_mut() {
            Ok(mut core) => {
                if core.started && !core.running && !self.inner.restart_requested.get() {
                    // Dropped and reported; `drain` hands the report to the observers.
                    core.not_running(event.name());
                    drop(core);
                    self.drain();
                    return;
                }
                core.ctx.external.push_back(event);
            }
            Err(_) => self.inner.inbox.borrow_mut().push_back(event),
        }
        self.drain();
    }

    /// Processes `event` at once by its precomputed macrostep or the chart's generated one,
    /// when one applies and nothing waits; observers hear about it as after any macrostep,
    /// and what they (or the macrostep) queued is processed afterwards. `Err` gives the event
    /// back untouched.
    #[inline]
    #[allow(
        clippy::result_large_err,
        reason = "the event is given back untouched, by move: nothing is allocated"
    )]
    pub(super) fn direct_step(&self, event: Envelope<C::Event>) -> Result<(), Envelope<C::Event>> {
        let shared = &*self.inner;
        let Ok(mut core) = self.core_mut() else {
            return Err(event);
        };
        if !shared.inbox.borrow().is_empty() {
            return Err(event);
        }
        Self::record_for(shared.watch.get(), &mut core);
        let name = C::event_index(event.name());
        core.direct_step(event, name)?;
        let follow_up = !core.ctx.external.is_empty();
        if shared.quiet.get() {
            // Quiet but for this event's macrostep: keep the row in step.
            match core.quiet_row_now() {
                Some(row) if !follow_up => shared.quiet_at.set_row(row),
                _ => shared.quiet.set(false),
            }
        }
        let notify = !core.outbox.is_empty();
        drop(core);
        if notify {
            // Observers hear about this macrostep before the events it sent are processed;
            // what they submit meanwhile is queued.
            shared.processing.set(true);
            let _guard = ProcessingGuard(&shared.processing);
            self.deliver();
        }
        if follow_up || (notify && self.has_follow_up()) {
            self.drain();
        } else if C::LANE {
            shared.lane.set(self.lane_state());
        }
        Ok(())
    }

    /// Whether observers asked for something while they were told about a macrostep: events
    /// queued, a start, a stop or a time advance.
    pub(super) fn has_follow_up(&self) -> bool {
        let shared = &*self.inner;
        shared.stop_requested.get() || shared.restart_requested.get() || self.has_work()
    }

    /// What the interpreter records for the observers connected now.
    #[inline]
    pub(super) fn record_for(watch: Watch, core: &mut Interp<C>) {
        core.record_states = watch.states;
        core.record_events = watch.events;
        match (watch.logs, core.ctx.logs.is_some()) {
            (true, false) => core.ctx.logs = Some(Vec::new()),
            (false, true) => core.ctx.logs = None,
            _ => {}
        }
    }

    /// Processes queued work until there is none, delivering notifications after each
    /// macrostep. Returns at once when an outer call is already doing so.
    pub(super) fn drain(&self) {
        let shared = &*self.inner;
        shared.lane.set(LANE_CLOSED);
        if shared.processing.get() {
            return;
        }
        shared.processing.set(true);
        shared.quiet.set(false);
        let _guard = ProcessingGuard(&shared.processing);
        let mut steps = 0;
        loop {
            if steps >= shared.max_steps_per_call.get() && self.has_work() {
                self.report_step_limit(steps);
                break;
            }
            let progressed = {
                let Ok(mut core) = self.core_mut() else {
                    // Only when a `with_data` closure is running; it drains afterwards.
                    return;
                };
                if shared.stop_requested.take() && core.stop() {
                    shared.restart_requested.set(false);
                }
                if shared.restart_requested.take() && core.started && !core.running {
                    core.reset(C::new_data());
                    shared.advance_target.set(None);
                }
                {
                    let mut inbox = shared.inbox.borrow_mut();
                    if !inbox.is_empty() {
                        if core.started && !core.running {
                            for event in inbox.drain(..) {
                                core.not_running(event.name());
                            }
                        } else {
                            core.ctx.external.extend(inbox.drain(..));
                        }
                    }
                }
                Self::record_for(shared.watch.get(), &mut core);
                self.step(&mut core)
            };
            steps += usize::from(progressed);
            // Observers may have queued work; only a step that found nothing to do and
            // nothing to tell ends the loop.
            let told = self.deliver();
            if !progressed && (!told || !self.has_work()) {
                break;
            }
        }
        shared.quiet.set(self.is_quiet());
        drop(_guard);
        shared.lane.set(self.lane_state());
    }

    /// Tells error observers (and `tracing`) that a call stopped after `steps` units of work
    /// with work left.
    #[cold]
    pub(super) fn report_step_limit(&self, steps: usize) {
        let shared = &*self.inner;
        let queued =
            self.core_mut().map_or(0, |c| c.ctx.external.len()) + shared.inbox.borrow().len();
        let error = RuntimeError::StepLimit {
            chart: C::tables().name.to_owned(),
            steps,
            queued,
        };
        tracing::error!(chart = C::tables().name, "{error}");
        let obs = shared.observers.snapshot();
        for slot in obs.errors.iter() {
            slot.call(|f| f(&error));
        }
    }

    /// Whether the machine, after processing, can take the quiet path of
    /// [`submit_event`](Machine::submit_event) (see `Shared::quiet`).
    pub(super) fn is_quiet(&self) -> bool {
        let shared = &*self.inner;
        if !shared.precomputed.get()
            || shared.advance_target.get().is_some()
            || !shared.inbox.borrow().is_empty()
        {
            return false;
        }
        if shared
            .observers
            .with(|lists| lists.observe_states() || lists.observe_events() || lists.observe_logs())
        {
            return false;
        }
        let Ok(Some((cells, row))) = self.core_mut().map(|mut core| core.prepare_quiet()) else {
            return false;
        };
        shared.quiet_cells.set(cells);
        shared.quiet_at.set_row(row);
        true
    }

    /// Whether [`step`](Self::step) might find something to do: queued events, a requested
    /// start or time advance, or invoked sessions.
    pub(super) fn has_work(&self) -> bool {
        let shared = &*self.inner;
        if !shared.inbox.borrow().is_empty() || shared.advance_target.get().is_some() {
            return true;
        }
        match shared.core.try_borrow() {
            Ok(core) => {
                (!core.started && shared.start_requested.get())
                    || !core.ctx.external.is_empty()
                    || !core.ctx.children.is_empty()
            }
            Err(_) => true,
        }
    }

    /// Does one unit of work: start, one external event, one due timer, or finishing a time
    /// advance. Returns whether it did anything.
    pub(super) fn step(&self, core: &mut Interp<C>) -> bool {
        let shared = &*self.inner;
        let mut advance = shared.advance_target.get();
        let progressed = core.work_once(shared.start_requested.get(), &mut advance);
        shared.advance_target.set(advance);
        progressed
    }

    /// Tells the observers of `n`; `lent` is the external event of the macrostep, with its
    /// plain form when an observer by descriptor hears it.
    #[inline]
    pub(super) fn tell(
        obs: &Observers<C::Event>,
        n: Notification,
        lent: Option<(&Envelope<C::Event>, Option<&Event>)>,
    ) {
        match n {
            Notification::Entered(s) | Notification::Exited(s) => {
                let entered = matches!(n, Notification::Entered(_));
                if !crate::runtime::observers::may_watch(obs.state_mask, s) {
                    return;
                }
                for (index, slot) in obs.states.iter() {
                    if *index == s {
                        slot.call(|f| f(entered));
                    }
                }
            }
            Notification::Event => {
                let Some((event, plain)) = lent else {
                    return;
                };
                if let Some(plain) = plain {
                    for (descriptors, slot) in obs.events.iter() {
                        if descriptors
                            .iter()
                            .any(|d| descriptor_matches(d, &plain.name))
                        {
                            slot.call(|f| f(plain));
                        }
                    }
                }
                if let Some(typed) = event.typed() {
                    for slot in obs.typed.iter() {
                        slot.call(|f| f(typed));
                    }
                }
            }
            Notification::Error(error) => {
                for slot in obs.errors.iter() {
                    slot.call(|f| f(&error));
                }
            }
            Notification::Log(record) => {
                for slot in obs.logs.iter() {
                    slot.call(|f| f(&record.0, &record.1));
                }
            }
        }
    }

    /// Hands the notifications of the last step to the observers; returns whether there were
    /// any.
    pub(super) fn deliver(&self) -> bool {
        let shared = &*self.inner;
        let mut batch = std::mem::take(&mut *shared.spare.borrow_mut());
        let obs = shared.observers.snapshot();
        // The external event of the step, lent by the interpreter for the observers (and
        // as a plain `Event` for those connected by descriptor, when one matches).
        let mut lent = None;
        if let Ok(mut core) = self.core_mut() {
            std::mem::swap(&mut core.outbox, &mut batch);
            if batch.iter().any(|n| matches!(n, Notification::Event)) {
                let (mut event, was_current) = core.lend_observed();
                let name = event.name();
                let plain = obs
                    .events
                    .iter()
                    .any(|(descriptors, slot)| {
                        slot.is_live() && descriptors.iter().any(|d| descriptor_matches(d, name))
                    })
                    .then(|| {
                        // Written over the last delivery's event; lent (not copied) unless
                        // typed observers read the payload too.
                        let mut plain = std::mem::take(&mut *shared.spare_event.borrow_mut());
                        if obs.typed.is_empty() {
                            event.lend_event_into(core.ctx.session_id(), &mut plain);
                        } else {
                            event.to_event_into(core.ctx.session_id(), &mut plain);
                        }
                        plain
                    });
                lent = Some((event, was_current, plain));
            }
        }
        if batch.is_empty() {
            *shared.spare.borrow_mut() = batch;
            return false;
        }
        for n in batch.drain(..) {
            let lent = lent
                .as_ref()
                .map(|(event, _, plain)| (event, plain.as_ref()));
            Self::tell(&obs, n, lent);
        }
        if let Some((mut event, was_current, plain)) = lent {
            if let Some(mut plain) = plain {
                event.restore_lent_from(&mut plain);
                *shared.spare_event.borrow_mut() = plain;
            }
            match self.core_mut() {
                Ok(mut core) => core.return_observed(event, was_current),
                Err(_) => drop(event),
            }
        }
        *shared.spare.borrow_mut() = batch;
        // Observers disconnected by now need nothing recorded any more.
        if let Some(watch) = shared
            .observers
            .with(|lists| lists.take_stale().then(|| lists.watch()))
        {
            shared.watch.set(watch);
        }
        true
    }
}
