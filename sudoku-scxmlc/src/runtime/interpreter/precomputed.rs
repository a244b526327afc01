//! The interpreter's side of precomputed macrosteps (`fast_path.rs`, the quiet path of the
//! shared handle), of the chart's generated macrosteps (`steps.rs`) and of its typed lane
//! (`lane.rs`): looking them up, running them with the effect of
//! [`process_external`](Interpreter::process_external), and what they hand back to it.

use super::*;

impl<D: 'static, E: ChartEvent> Interpreter<D, E> {
    /// The chart's precomputed macrosteps, if it has any.
    #[inline(always)]
    pub(super) fn fast_path(&mut self) -> Option<&'static FastPath> {
        if self.fast_path_known {
            self.fast_path
        } else {
            self.look_up_fast_path()
        }
    }

    #[cold]
    pub(super) fn look_up_fast_path(&mut self) -> Option<&'static FastPath> {
        self.fast_path_known = true;
        self.fast_path = self.tables.fast_path.get(self.tables);
        self.fast_path
    }

    /// When the machine may become quiet, the precomputed cells for a machine nobody
    /// observes ([`FastPath::quiet_cells`]) and the row of the active atomic state in them:
    /// the machine is running, nothing is queued, no session is invoked and the chart has
    /// precomputed macrosteps. While quiet, the machine keeps the atomic state and the last
    /// event itself and hands them back with [`catch_up_quiet`](Self::catch_up_quiet) before
    /// anything else touches the interpreter.
    pub(crate) fn prepare_quiet(&mut self) -> Option<(&'static [u32], u32)> {
        if !self.running
            || !self.ctx.external.is_empty()
            || !self.ctx.internal.is_empty()
            || !self.ctx.children.is_empty()
            || !self.outbox.is_empty()
        {
            return None;
        }
        let fast = self.fast_path()?;
        let leaf = self.ctx.configuration.last()?;
        if !self.tables.states[leaf as usize].kind.is_atomic() {
            return None;
        }
        self.leaf_hint = leaf;
        Some((fast.quiet_cells(), fast.row(leaf)))
    }

    /// Brings the interpreter up to date after quiet macrosteps (see
    /// [`prepare_quiet`](Self::prepare_quiet)): the configuration becomes the atomic state of
    /// `row` and its ancestors, and `_event` the plain external event with name index
    /// `event` and no data. Their effect is exactly that of
    /// [`process_external`](Self::process_external) on each event in turn: precomputed
    /// macrosteps run no executable content, so nothing else could have seen the states in
    /// between.
    pub(crate) fn catch_up_quiet(&mut self, row: u32, event: usize) {
        let Some(fast) = self.fast_path else {
            return;
        };
        let leaf = fast.leaf_of_row(row);
        let states = self.tables.states;
        let config = &mut self.ctx.configuration;
        config.clear();
        let mut s = leaf;
        while s != 0 && (s as usize) < states.len() {
            config.insert(s);
            s = states[s as usize].parent;
        }
        self.leaf_hint = leaf;
        if let Some(&name) = self.tables.event_names.get(event) {
            let event = self.ctx.envelope(Event::new(name, Value::Null));
            self.ctx.set_event(event);
        }
    }

    /// The chart's generated macrostep for `event` ([`Stepper`]), when one applies: the
    /// machine is running with nothing queued and no session invoked, and the generated code
    /// covers the event. `Err` gives the event back.
    #[inline]
    #[allow(
        clippy::result_large_err,
        reason = "the event is given back untouched, by move: nothing is allocated"
    )]
    pub(crate) fn generated_step(&mut self, event: Envelope<E>) -> Result<(), Envelope<E>> {
        match self.generated {
            Some(step)
                if self.precomputed
                    && self.running
                    && self.ctx.internal.is_empty()
                    && self.ctx.children.is_empty() =>
            {
                step(&mut Stepper::new(self), event)
            }
            _ => Err(event),
        }
    }

    /// Processes the external event `event` at once, when the machine is running with
    /// nothing queued and no session invoked: by its precomputed macrostep when the chart has
    /// one for the active atomic state and the event's name index `name` (its index in
    /// [`Tables::event_names`]; [`FastPath`](crate::runtime::fast_path)), else by the chart's generated macrostep.
    /// `Err` gives the event back untouched (the queue and the full interpreter take it).
    #[inline]
    #[allow(
        clippy::result_large_err,
        reason = "the event is given back untouched, by move: nothing is allocated"
    )]
    pub(crate) fn direct_step(
        &mut self,
        event: Envelope<E>,
        name: Option<usize>,
    ) -> Result<(), Envelope<E>> {
        if !self.running
            || !self.ctx.external.is_empty()
            || !self.ctx.internal.is_empty()
            || !self.ctx.children.is_empty()
        {
            return Err(event);
        }
        if let (Some(name), Some(fast)) = (name, self.fast_path()) {
            if let Some(step) = fast.step(self.leaf(), name) {
                self.run_fast_macrostep(step, event);
                return Ok(());
            }
        }
        match self.generated {
            Some(step) if self.precomputed => step(&mut Stepper::new(self), event),
            _ => Err(event),
        }
    }

    /// The active atomic state of a running chart without `<parallel>` of more than 64
    /// states, as its lane reads it: [`leaf_hint`](Self::leaf_hint), which every change of
    /// the configuration keeps (the lane of a smaller chart reads the configuration word,
    /// [`small_configuration`](Self::small_configuration)).
    #[inline(always)]
    pub(crate) fn exact_leaf(&self) -> StateIndex {
        debug_assert!(
            !self.running || self.ctx.configuration.last() == Some(self.leaf_hint),
            "the leaf hint {} is not the active atomic state {:?}",
            self.leaf_hint,
            self.ctx.configuration.last()
        );
        self.leaf_hint
    }

    /// The configuration of a chart of at most 64 states as one word (bit `s`: state `s`),
    /// as its lane reads it: in a chart without `<parallel>`, the active atomic state and its
    /// ancestors.
    #[inline(always)]
    pub(crate) fn small_configuration(&self) -> u64 {
        self.ctx.configuration.small()
    }

    /// The active atomic state of a chart without `<parallel>`.
    #[inline]
    pub(crate) fn leaf(&self) -> StateIndex {
        if self.ctx.configuration.contains(self.leaf_hint) {
            self.leaf_hint
        } else {
            self.ctx.configuration.last().unwrap_or(0)
        }
    }

    /// Appendix D `mainEventLoop` up to the selection, for an external event a generated
    /// macrostep processes: it becomes `_event`, and observers will hear it.
    #[inline]
    pub(crate) fn begin_external(&mut self, event: Envelope<E>) {
        self.ctx.set_event(event);
        self.note_observed();
    }

    /// Records `t` as the first transition of a microstep (to name a loop that hits the
    /// microstep bound).
    #[inline]
    pub(crate) fn note_microstep(&mut self, t: TransitionIndex) {
        let at = self.recent_count % RECENT_MICROSTEPS;
        if let Some(slot) = self.recent.get_mut(at) {
            *slot = t;
        } else {
            self.recent.push(t);
        }
        self.recent_count += 1;
    }

    /// Appendix D `microstep([t])` for the transition `t` a generated macrostep selected.
    pub(crate) fn microstep_of(&mut self, t: TransitionIndex) {
        let mut tmp = std::mem::take(&mut self.scratch.targets);
        let domain = self.shape().transition_domain(t, &mut tmp);
        self.scratch.targets = tmp;
        self.scratch.filtered.clear();
        self.scratch.filtered.push((t, domain));
        self.microstep();
    }

    /// The rest of the macrostep of an external event a generated macrostep processed,
    /// after `microsteps` microsteps; then a stop, if a top-level final state was reached.
    #[inline]
    pub(crate) fn finish_external(&mut self, microsteps: usize) {
        if self.ctx.internal.is_empty()
            && !self.eventless_active()
            && self.tables.invokes.is_empty()
        {
            // Nothing raised, nothing eventless active, nothing to invoke: the macrostep is over
            // (what `settle` would find).
            if !self.running {
                self.finish_if_stopped();
            }
            return;
        }
        self.settle(microsteps);
        self.finish_if_stopped();
    }

    /// After a generated macrostep that left nothing queued: the row of the active atomic
    /// state in the quiet cells ([`prepare_quiet`](Self::prepare_quiet)).
    #[inline]
    pub(crate) fn quiet_row_now(&self) -> Option<u32> {
        let fast = self.fast_path?;
        (self.running && self.ctx.external.is_empty() && self.outbox.is_empty())
            .then(|| fast.row(self.leaf()))
    }

    /// Raises `error.execution` for a failure at chart line `line` and reports it.
    #[cold]
    pub(crate) fn report_execution_error(
        &mut self,
        element: &'static str,
        line: u32,
        e: ExecError,
    ) {
        self.execution_error(element, line, e);
    }

    /// Hands the `<log>` records of the last block to the log observers.
    #[inline]
    pub(crate) fn flush_logs(&mut self) {
        if let Some(logs) = &mut self.ctx.logs {
            if !logs.is_empty() {
                self.outbox.extend(
                    logs.drain(..)
                        .map(|record| Notification::Log(Box::new(record))),
                );
            }
        }
    }

    /// `_event` becomes the internal event `event`; the external event observers have not
    /// heard yet is kept for them.
    pub(crate) fn set_internal_event(&mut self, event: Envelope<E>) {
        let previous = self.ctx.replace_event(event);
        if self.observed_pending {
            self.observed_pending = false;
            self.observed = Some(previous);
        }
    }

    /// Notes that observers must hear `_event`, the external event just dequeued.
    #[inline]
    pub(super) fn note_observed(&mut self) {
        if self.record_events {
            self.observed = None;
            self.observed_pending = true;
            self.outbox.push(Notification::Event);
        }
    }

    /// The external event that the last [`Notification::Event`] stands for, lent to the
    /// observers: give it back with [`return_observed`](Self::return_observed). `_event` is
    /// [`Event::default`] in between (nothing runs chart code then).
    pub(crate) fn lend_observed(&mut self) -> (Envelope<E>, bool) {
        match self.observed.take() {
            Some(e) => (e, false),
            None => {
                self.observed_pending = false;
                (std::mem::take(&mut self.ctx.event), true)
            }
        }
    }

    /// Takes back what [`lend_observed`](Self::lend_observed) lent.
    pub(crate) fn return_observed(&mut self, event: Envelope<E>, was_current: bool) {
        if was_current {
            self.ctx.event = event;
        }
    }

    /// Processes the external event `event` by the macrostep `step` that
    /// [`direct_step`](Self::direct_step) found for it. The effect is exactly that
    /// of [`process_external`](Self::process_external): `_event` is set, the outbox records
    /// what observers must hear, and the configuration changes by the step's exit and entry
    /// lists.
    #[inline(always)]
    pub(crate) fn run_fast_macrostep(&mut self, step: &FastStep, event: Envelope<E>) {
        self.ctx.set_event(event);
        self.note_observed();
        for &s in step.exit.iter() {
            self.ctx.configuration.remove(s);
            if self.record_states {
                self.outbox.push(Notification::Exited(s));
            }
        }
        for &s in step.enter.iter() {
            self.ctx.configuration.insert(s);
            if self.record_states {
                self.outbox.push(Notification::Entered(s));
            }
        }
        self.leaf_hint = step.leaf;
    }

    /// The exits and entries of a precomputed microstep ([`Lane::transit`]): the effect on
    /// the configuration of the interpreter's microstep for a transition that runs no
    /// executable content and touches no history and no `<final>`. Nothing is recorded
    /// for the observers: the machine tells them from the same lists.
    ///
    /// [`Lane::transit`]: crate::runtime::lane::Lane::transit
    #[inline(always)]
    pub(crate) fn transit(
        &mut self,
        exit: &[StateIndex],
        enter: &[StateIndex],
        leaf: StateIndex,
        word: u64,
    ) {
        if word == 0 {
            self.ctx.configuration.exchange(exit, enter);
            self.leaf_hint = leaf;
        } else {
            // The whole configuration as one word (a chart of at most 64 states, whose lane
            // reads the configuration, not the leaf hint): written, not read, so that
            // consecutive moves do not wait for each other; one store, to the set's inline
            // word, and the leaf hint left for `leaf` to check.
            self.ctx.configuration.set_small(kept_apart(word));
        }
        debug_assert!(self.ctx.configuration.last() == Some(leaf));
    }

    /// Finishes the macrostep of an external event a lane step began
    /// ([`LaneEnd::Continue`](crate::runtime::lane::LaneEnd)) after `microsteps` microsteps: the
    /// event becomes `_event` (no code the lane ran reads it), observers will hear it before
    /// what the lane recorded, and the interpreter runs the rest of the macrostep.
    #[cold]
    pub(crate) fn lane_continue(&mut self, event: Envelope<E>, microsteps: usize) {
        self.ctx.set_event(event);
        if self.record_events {
            self.observed = None;
            self.observed_pending = true;
            self.outbox.insert(0, Notification::Event);
        }
        self.settle(microsteps);
        self.finish_if_stopped();
    }
}

/// `word`, through an empty `asm!` block that the optimiser cannot see into: what a
/// precomputed microstep of a small chart stores ([`Interpreter::transit`]) stays a constant
/// of its own arm of the generated lane's `match` on the configuration, instead of being
/// merged with the other arms' into a computation on the word the `match` loaded (a
/// `select`, or arithmetic). Merged, each event waits for the previous event's store to reach
/// its load (a chain through memory, about five cycles: 0.9 ns per toggle event on the
/// benchmark machine); kept apart, the branch on the configuration is predicted and
/// consecutive events overlap.
#[inline(always)]
fn kept_apart(word: u64) -> u64 {
    #[allow(unused_mut, reason = "changed only where `asm!` is available")]
    let mut word = word;
    #[cfg(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64",
        target_arch = "loongarch64"
    ))]
    // SAFETY: the template is a comment: it leaves the one register it names as it is and
    // touches no memory, no stack and no flags.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) word, options(nomem, nostack, preserves_flags));
    }
    word
}
