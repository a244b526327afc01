//! One microstep (SCXML 1.0, Appendix D): `selectTransitions` and
//! `selectEventlessTransitions`, `removeConflictingTransitions`, `exitStates` (history
//! recorded), `enterStates` (initial and history content, `done.state` events) and the
//! initial configuration.

use super::*;

impl<D: 'static, E: ChartEvent> Interpreter<D, E> {
    /// Appendix D `selectEventlessTransitions` (`eventless`) or `selectTransitions(_event)`,
    /// followed by `removeConflictingTransitions`; the result is left in `scratch.filtered`.
    pub(super) fn select_transitions(&mut self, eventless: bool) {
        if eventless && !self.eventless_active() {
            // Nothing to select: no active state has an eventless `<transition>` (or the
            // chart has none).
            self.scratch.filtered.clear();
            return;
        }
        let mut atomic = std::mem::take(&mut self.scratch.atomic);
        let mut enabled = std::mem::take(&mut self.scratch.enabled);
        atomic.clear();
        enabled.clear();
        let states = self.tables.states;
        atomic.extend(
            self.ctx
                .configuration
                .iter()
                .filter(|&s| states[s as usize].kind.is_atomic()),
        );
        for &atom in &atomic {
            let mut s = atom;
            'ancestors: while (s as usize) < states.len() {
                for &t in states[s as usize].transitions {
                    let info = &self.tables.transitions[t as usize];
                    let matches = if eventless {
                        info.events.is_empty()
                    } else {
                        let name = self.ctx.event.name();
                        info.events.iter().any(|d| descriptor_matches(d, name))
                    };
                    if matches && self.condition_match(t) {
                        if !enabled.contains(&t) {
                            enabled.push(t);
                        }
                        break 'ancestors;
                    }
                }
                s = states[s as usize].parent;
            }
        }
        self.scratch.atomic = atomic;
        self.remove_conflicting_transitions(&enabled);
        self.scratch.enabled = enabled;
    }

    /// Whether an active state has an eventless `<transition>` (otherwise
    /// `selectEventlessTransitions` selects nothing).
    #[inline]
    pub(super) fn eventless_active(&self) -> bool {
        self.eventless_states
            .iter()
            .any(|&s| self.ctx.configuration.contains(s))
    }

    /// Appendix D `removeConflictingTransitions`: two transitions conflict when their exit
    /// sets intersect; a transition whose source is a descendant of the other's source
    /// preempts it, otherwise the earlier one (in selection order) wins.
    pub(super) fn remove_conflicting_transitions(&mut self, enabled: &[TransitionIndex]) {
        let mut filtered = std::mem::take(&mut self.scratch.filtered);
        let mut remove = std::mem::take(&mut self.scratch.remove);
        let mut tmp = std::mem::take(&mut self.scratch.targets);
        filtered.clear();
        let shape = self.shape();
        let config = &self.ctx.configuration;
        let states = self.tables.states;
        for &t1 in enabled {
            let d1 = shape.transition_domain(t1, &mut tmp);
            let source1 = self.tables.transitions[t1 as usize].source;
            let mut preempted = false;
            remove.clear();
            if let Some(d1) = d1 {
                let (lo1, hi1) = (d1 + 1, states[d1 as usize].descendants_end);
                for (i, &(t2, d2)) in filtered.iter().enumerate() {
                    let Some(d2) = d2 else { continue };
                    let (lo2, hi2) = (d2 + 1, states[d2 as usize].descendants_end);
                    // Both exit sets are the configuration restricted to a range.
                    if !config.any_in_range(lo1.max(lo2), hi1.min(hi2)) {
                        continue;
                    }
                    let source2 = self.tables.transitions[t2 as usize].source;
                    if shape.is_descendant(source1, source2) {
                        remove.push(i);
                    } else {
                        preempted = true;
                        break;
                    }
                }
            }
            if !preempted {
                for &i in remove.iter().rev() {
                    filtered.remove(i);
                }
                filtered.push((t1, d1));
            }
        }
        self.scratch.filtered = filtered;
        self.scratch.remove = remove;
        self.scratch.targets = tmp;
    }

    /// Appendix D `microstep` over `scratch.filtered`.
    pub(super) fn microstep(&mut self) {
        let filtered = std::mem::take(&mut self.scratch.filtered);
        if let Some(&(t, _)) = filtered.first() {
            // The first transition of each of the last microsteps, to name a loop.
            self.note_microstep(t);
        }
        self.exit_states(&filtered);
        for &(t, _) in &filtered {
            if let Some(content) = self.tables.transitions[t as usize].content {
                self.run_block(content);
            }
        }
        self.enter_states(&filtered);
        self.scratch.filtered = filtered;
    }

    /// Appendix D `exitStates`: records history, then runs the onexit blocks of the exit set
    /// in exit order and removes the states from the configuration.
    pub(super) fn exit_states(&mut self, transitions: &[(TransitionIndex, Option<StateIndex>)]) {
        let states = self.tables.states;
        let mut exit_set = std::mem::take(&mut self.scratch.exit_set);
        exit_set.clear();
        // computeExitSet; the domains were computed during selection, before anything changed.
        for &(_, domain) in transitions {
            if let Some(d) = domain {
                let hi = states[d as usize].descendants_end;
                let mut lo = d + 1;
                while let Some(s) = self.ctx.configuration.first_in_range(lo, hi) {
                    exit_set.insert(s);
                    lo = s + 1;
                }
            }
        }
        // Record history before any state leaves the configuration.
        for s in exit_set.iter_rev() {
            for &h in states[s as usize].history {
                let deep = states[h as usize].kind == StateKind::DeepHistory;
                let value = &mut self.history[h as usize];
                value.clear();
                let end = states[s as usize].descendants_end;
                let mut lo = s + 1;
                while let Some(c) = self.ctx.configuration.first_in_range(lo, end) {
                    let keep = if deep {
                        states[c as usize].kind.is_atomic()
                    } else {
                        states[c as usize].parent == s
                    };
                    if keep {
                        value.push(c);
                    }
                    lo = c + 1;
                }
                self.history_recorded.insert(h);
            }
        }
        for s in exit_set.iter_rev() {
            for &b in states[s as usize].onexit {
                self.run_block(b);
            }
            // Appendix D `exitStates`: cancel the invocations of the exited state.
            self.states_to_invoke.remove(s);
            if !self.ctx.children.is_empty() {
                self.ctx.children.retain(|c| c.state != s);
            }
            self.ctx.configuration.remove(s);
            if self.record_states {
                self.outbox.push(Notification::Exited(s));
            }
        }
        self.scratch.exit_set = exit_set;
    }

    /// Appendix D `enterStates` for the transitions of a microstep.
    pub(super) fn enter_states(&mut self, transitions: &[(TransitionIndex, Option<StateIndex>)]) {
        let mut sets = std::mem::take(&mut self.scratch.entry);
        let mut tmp = std::mem::take(&mut self.scratch.targets);
        sets.to_enter.clear();
        sets.for_default_entry.clear();
        sets.default_history_content.clear();
        {
            // computeEntrySet: the domain is recomputed because exiting may have changed a
            // history value a target refers to.
            let shape = self.shape();
            for &(t, _) in transitions {
                let info = &self.tables.transitions[t as usize];
                for &s in info.targets {
                    shape.add_descendant_states_to_enter(s, &mut sets, 0);
                }
                let Some(domain) = shape.transition_domain(t, &mut tmp) else {
                    continue;
                };
                tmp.clear();
                shape.effective_targets(t, &mut tmp);
                for &s in &tmp {
                    shape.add_ancestor_states_to_enter(s, domain, &mut sets, 0);
                }
            }
        }
        self.scratch.targets = tmp;
        self.scratch.entry = sets;
        self.enter_computed_states();
    }

    /// `enterStates([doc.initial.transition])`: the root's initial transition, whose domain
    /// is the root. (An `<scxml>` has no `<initial>` element, so this transition has no
    /// content.)
    pub(super) fn enter_initial_configuration(&mut self) {
        let mut sets = std::mem::take(&mut self.scratch.entry);
        let mut tmp = std::mem::take(&mut self.scratch.targets);
        sets.to_enter.clear();
        sets.for_default_entry.clear();
        sets.default_history_content.clear();
        tmp.clear();
        {
            let shape = self.shape();
            let targets = shape.initial_targets(0);
            for &s in targets {
                shape.add_descendant_states_to_enter(s, &mut sets, 0);
            }
            match self.tables.states[0].initial {
                Some(t) => shape.effective_targets(t, &mut tmp),
                None => tmp.extend_from_slice(targets),
            }
            for &s in &tmp {
                shape.add_ancestor_states_to_enter(s, 0, &mut sets, 0);
            }
        }
        self.scratch.targets = tmp;
        self.scratch.entry = sets;
        self.enter_computed_states();
    }

    /// The second half of Appendix D `enterStates`, over `scratch.entry`.
    pub(super) fn enter_computed_states(&mut self) {
        let sets = std::mem::take(&mut self.scratch.entry);
        let states = self.tables.states;
        for s in sets.to_enter.iter() {
            let info = &states[s as usize];
            self.ctx.configuration.insert(s);
            self.leaf_hint = s;
            if self.record_states {
                self.outbox.push(Notification::Entered(s));
            }
            if self.tables.invokes.iter().any(|i| i.state == s) {
                self.states_to_invoke.insert(s);
            }
            if self.tables.late_binding && !self.data_bound.contains(s) {
                self.data_bound.insert(s);
                self.bind_data(s);
            }
            for &b in info.onentry {
                self.run_block(b);
            }
            if sets.for_default_entry.contains(s) {
                if let Some(t) = info.initial {
                    if let Some(content) = self.tables.transitions[t as usize].content {
                        self.run_block(content);
                    }
                }
            }
            if let Some(&(_, content)) = sets.default_history_content.iter().find(|(p, _)| *p == s)
            {
                self.run_block(content);
            }
            if info.kind == StateKind::Final {
                if info.parent == 0 {
                    self.running = false;
                } else {
                    self.raise_done(s);
                }
            }
        }
        self.scratch.entry = sets;
    }

    /// Raises `done.state.<parent>` for an entered final state, and `done.state.<grandparent>`
    /// when the grandparent is a parallel state whose regions are all final.
    pub(super) fn raise_done(&mut self, final_state: StateIndex) {
        let states = self.tables.states;
        let info = &states[final_state as usize];
        let parent = info.parent;
        let data = match info
            .donedata
            .and_then(|d| self.tables.done_data.get(d as usize))
        {
            Some(dd) => {
                let (data, ctx) = (&self.data, &self.ctx);
                match guarded(|| (dd.eval)(data, ctx)) {
                    Ok(v) => v,
                    Err(e) => {
                        self.execution_error("donedata", dd.line, e);
                        Value::Null
                    }
                }
            }
            None => Value::Null,
        };
        self.ctx
            .raise_platform(format!("done.state.{}", states[parent as usize].id), data);
        let grandparent = states[parent as usize].parent;
        if (grandparent as usize) < states.len()
            && states[grandparent as usize].kind == StateKind::Parallel
            && states[grandparent as usize]
                .children
                .iter()
                .filter(|&&c| !states[c as usize].kind.is_history())
                .all(|&c| self.is_in_final_state(c))
        {
            self.ctx.raise_platform(
                format!("done.state.{}", states[grandparent as usize].id),
                Value::Null,
            );
        }
    }

    /// Appendix D `isInFinalState`.
    pub(super) fn is_in_final_state(&self, s: StateIndex) -> bool {
        let states = self.tables.states;
        let info = &states[s as usize];
        match info.kind {
            StateKind::Compound | StateKind::Root => info.children.iter().any(|&c| {
                states[c as usize].kind == StateKind::Final && self.ctx.configuration.contains(c)
            }),
            StateKind::Parallel => info
                .children
                .iter()
                .filter(|&&c| !states[c as usize].kind.is_history())
                .all(|&c| self.is_in_final_state(c)),
            _ => false,
        }
    }
}
