//! The macrostep (SCXML 1.0, Appendix D `mainEventLoop`): microsteps until the internal
//! queue is empty, then the invocations of the states entered; `<finalize>` and
//! `autoforward`; the microstep bound and the loop it names; the top-level `<final>` that
//! stops the machine (`exitInterpreter`).

use super::*;

impl<D: 'static, E: ChartEvent> Interpreter<D, E> {
    /// Appendix D `mainEventLoop` for the external event in `ctx.event`: runs the
    /// `<finalize>` of the invocation it came from, and forwards it to every child invoked
    /// with `autoforward`.
    pub(super) fn finalize_and_forward(&mut self) {
        let from = self.ctx.event.invokeid().map(str::to_owned);
        for i in 0..self.ctx.children.len() {
            let Some(child) = self.ctx.children.get(i) else {
                break;
            };
            let Some(inv) = self.tables.invokes.get(child.invoke as usize) else {
                continue;
            };
            if from.as_deref() == Some(child.id.as_str()) {
                if let Some(block) = inv.finalize {
                    self.run_block(block);
                }
            }
            if inv.autoforward {
                let event = self.ctx.event.to_event(self.ctx.session_id());
                if let Some(child) = self.ctx.children.get_mut(i) {
                    child.session.deliver(event);
                }
            }
        }
        // The child's last event: it is gone now.
        if let Some(id) = from {
            let done = self.ctx.event.name().strip_prefix("done.invoke.") == Some(id.as_str());
            if done {
                self.ctx.children.retain(|c| !(c.finished && c.id == id));
            }
        }
    }

    /// The macrostep, then the invocations of the states it entered (Appendix D: after the
    /// internal queue is empty, `statesToInvoke` are invoked in entry order; if that raised
    /// internal events, another macrostep follows).
    pub(super) fn settle(&mut self, steps: usize) {
        self.macrostep_from(steps);
        while self.running && !self.states_to_invoke.is_empty() {
            let states: Vec<StateIndex> = self.states_to_invoke.iter().collect();
            self.states_to_invoke.clear();
            for s in states {
                for k in 0..self.tables.invokes.len() {
                    if self.tables.invokes[k].state == s {
                        self.invoke(k);
                    }
                }
            }
            if self.ctx.internal.is_empty() {
                break;
            }
            self.macrostep_from(0);
        }
    }

    /// Appendix D `invoke`: evaluates the `<invoke>` and starts the child; an error raises
    /// `error.execution` and invokes nothing.
    pub(super) fn invoke(&mut self, k: usize) {
        let inv = &self.tables.invokes[k];
        let (data, ctx) = (&mut self.data, &mut self.ctx);
        match guarded(|| (inv.start)(data, ctx)) {
            Ok(start) => {
                let mut session = start.session;
                let parent = self.ctx.session_id().to_owned();
                session.start(self.ctx.now, start.params, &parent);
                self.ctx.children.push(crate::runtime::invoke::Child {
                    id: start.id,
                    state: inv.state,
                    invoke: k as u32,
                    session,
                    finished: false,
                });
            }
            Err(e) => {
                let e = e.at("invoke", inv.line, inv.column);
                self.execution_error("invoke", inv.line, e);
            }
        }
    }

    /// Appendix D's inner loop of `mainEventLoop`: eventless transitions first, then one
    /// internal event, until neither enables anything. At most `max_microsteps` steps (a
    /// microstep or an internal event that enabled nothing) run; `steps` already ran.
    pub(super) fn macrostep_from(&mut self, mut steps: usize) {
        while self.running {
            let mut event_driven = false;
            self.select_transitions(true);
            if self.scratch.filtered.is_empty() {
                let Some(event) = self.ctx.internal.pop_front() else {
                    break;
                };
                // The chart's generated step for the internal event, when it covers it (and
                // the bound is not reached, which the path below reports).
                let event = match self.generated {
                    Some(step) if self.precomputed && steps < self.max_microsteps => {
                        match step(&mut Stepper::internal(self), event) {
                            Ok(()) => {
                                steps += 1;
                                continue;
                            }
                            Err(event) => event,
                        }
                    }
                    _ => event,
                };
                self.set_internal_event(event);
                self.select_transitions(false);
                event_driven = true;
            }
            if steps >= self.max_microsteps {
                self.ctx.internal.clear();
                let error = RuntimeError::MacrostepLimit {
                    chart: self.tables.name.to_owned(),
                    microsteps: steps,
                    event: if event_driven {
                        self.ctx.event.name().to_owned()
                    } else {
                        String::new()
                    },
                    cycle: self.recent_cycle(),
                };
                tracing::error!(chart = self.tables.name, "{error}");
                self.outbox.push(Notification::Error(Box::new(error)));
                return;
            }
            if !self.scratch.filtered.is_empty() {
                self.microstep();
            }
            steps += 1;
        }
    }

    /// The loop the last microsteps went round, as `source → targets (file:line)` per
    /// transition, starting with the one first in document order; empty when the last
    /// microsteps do not repeat (with a period of up to half of [`RECENT_MICROSTEPS`]).
    pub(super) fn recent_cycle(&self) -> Vec<String> {
        let n = self.recent_count.min(RECENT_MICROSTEPS);
        // The last `n` first-transitions, oldest first.
        let last: Vec<TransitionIndex> = (self.recent_count - n..self.recent_count)
            .map(|i| self.recent[i % RECENT_MICROSTEPS])
            .collect();
        let Some(period) = (1..=n / 2).find(|&p| {
            let tail = &last[n - 2 * p..];
            tail[..p] == tail[p..]
        }) else {
            return Vec::new();
        };
        let mut cycle = last[n - period..].to_vec();
        let first = (0..period).min_by_key(|&i| cycle[i]).unwrap_or(0);
        cycle.rotate_left(first);
        let states = self.tables.states;
        cycle
            .into_iter()
            .map(|t| {
                let info = &self.tables.transitions[t as usize];
                let targets: Vec<&str> = info
                    .targets
                    .iter()
                    .map(|&s| states[s as usize].id)
                    .collect();
                let to = if targets.is_empty() {
                    "(targetless)".to_owned()
                } else {
                    targets.join(" ")
                };
                format!(
                    "{} → {to} ({}:{})",
                    states[info.source as usize].id, self.tables.file, info.line
                )
            })
            .collect()
    }

    /// When a top-level final state was reached: Appendix D `exitInterpreter`, then drop
    /// every queued and delayed event.
    pub(super) fn finish_if_stopped(&mut self) {
        if self.running {
            return;
        }
        let states = self.tables.states;
        self.final_state = self.ctx.configuration.iter().find(|&s| {
            states[s as usize].parent == 0 && states[s as usize].kind == StateKind::Final
        });
        // Appendix D `exitInterpreter`: an invoked session returns its final's done data.
        if let Some(dd) = self
            .final_state
            .and_then(|f| states[f as usize].donedata)
            .and_then(|d| self.tables.done_data.get(d as usize))
        {
            let (data, ctx) = (&self.data, &self.ctx);
            match guarded(|| (dd.eval)(data, ctx)) {
                Ok(v) => self.done_data = v,
                Err(e) => self.execution_error("donedata", dd.line, e),
            }
        }
        self.exit_interpreter();
    }

    /// What stopping a session does (Appendix D `exitInterpreter`, after the done data):
    /// cancels the invoked sessions, exits every active state in exit order (running each
    /// `<onexit>`), and drops every queued event and pending delayed `<send>`.
    pub(super) fn exit_interpreter(&mut self) {
        self.ctx.children.clear();
        self.states_to_invoke.clear();
        // Exit every active state in exit order, each onexit block separately.
        let mut order = std::mem::take(&mut self.scratch.atomic);
        order.clear();
        order.extend(self.ctx.configuration.iter_rev());
        for &s in &order {
            for &b in self.tables.states[s as usize].onexit {
                self.run_block(b);
            }
            self.ctx.configuration.remove(s);
            if self.record_states {
                self.outbox.push(Notification::Exited(s));
            }
        }
        self.scratch.atomic = order;
        self.ctx.internal.clear();
        self.ctx.external.clear();
        self.ctx.timers.clear();
    }
}
