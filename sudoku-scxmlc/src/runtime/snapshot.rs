//! Snapshots: a running machine's state as plain data that serializes with serde and restores
//! into a new machine that continues where the old one stopped (an autosave, a crash-safe
//! session, a state to replay in a test).
//!
//! A snapshot holds what the SCXML 1.0 algorithm needs to continue: the configuration, the
//! history values, the datamodel, the pending delayed events and queued external events, and
//! the machine clock. States are named by their ids, so a snapshot stays readable and survives
//! a rebuild of the same chart; restoring checks every id against the chart. Observers are not
//! part of a snapshot: connect them to the restored machine.

use super::envelope::{ChartEvent, Envelope};
use super::interpreter::Interpreter;
use super::{Event, StateKind};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::time::Duration;

/// A machine's state between two macrosteps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The chart's name (`<scxml name>`); restoring into another chart is refused.
    pub chart: String,
    /// Active state ids in document order (empty once the machine has stopped).
    pub configuration: Vec<String>,
    /// Recorded history values: history state id → the state ids it restores.
    pub history: BTreeMap<String, Vec<String>>,
    /// The datamodel: `<data>` id → value.
    pub data: Map<String, Value>,
    /// Machine time since start.
    pub now: Duration,
    /// Delayed events not yet delivered, in firing order.
    pub pending: Vec<PendingEvent>,
    /// External events queued but not yet processed.
    pub queued: Vec<Event>,
    /// Whether the machine was running (started, no top-level final state reached).
    pub running: bool,
    /// The number the next generated send id will use.
    pub next_send_id: u64,
    /// With late binding: the states whose `<data>` items already got their values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bound: Vec<String>,
    /// Once stopped: the top-level `<final>` state whose entry stopped the machine
    /// ([`Machine::final_state`](super::Machine::final_state)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_state: Option<String>,
}

/// A delayed `<send>` waiting for its time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingEvent {
    /// Machine time at which it is delivered.
    pub due: Duration,
    /// The event.
    pub event: Event,
}

/// Why a snapshot could not be taken or restored.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The machine has not started.
    #[error("the machine has not started")]
    NotStarted,
    /// The snapshot is of another chart.
    #[error("snapshot of chart `{found}` cannot restore a `{expected}` machine")]
    WrongChart {
        /// This machine's chart.
        expected: String,
        /// The snapshot's chart.
        found: String,
    },
    /// A state id in the snapshot is not a state of the chart.
    #[error("snapshot names state `{0}`, which the chart does not have")]
    UnknownState(String),
    /// A `<data>` value could not be read or written.
    #[error("`<data id=\"{id}\">`: {source}")]
    Data {
        /// The data id.
        id: String,
        /// What serde said.
        source: serde_json::Error,
    },
    /// The snapshot names a `<data>` id the chart does not declare.
    #[error("snapshot has data `{0}`, which the chart does not declare")]
    UnknownData(String),
    /// The snapshot's states are not a legal configuration (SCXML 1.0, section 3.11): a state
    /// without its parent, a compound state without exactly one active child, a parallel state
    /// without all its regions, a history state, or no state at all in a running machine.
    #[error("snapshot configuration is not legal: {0}")]
    IllegalConfiguration(String),
    /// A queued or pending event's data does not fit the payload type the chart gives its
    /// name.
    #[error("snapshot event `{event}`: {reason}")]
    EventData {
        /// The event's name.
        event: String,
        /// Why its data does not fit.
        reason: String,
    },
    /// The machine runs invoked child sessions, which snapshots do not capture.
    #[error("the machine runs invoked sessions ({0}), which a snapshot cannot capture")]
    InvokedSessions(String),
}

impl<D: 'static, E: ChartEvent> Interpreter<D, E> {
    /// Takes a snapshot (between macrosteps).
    pub(crate) fn snapshot(&self) -> Result<Snapshot, SnapshotError> {
        if !self.started {
            return Err(SnapshotError::NotStarted);
        }
        if !self.ctx.children.is_empty() {
            let ids: Vec<&str> = self.ctx.children.iter().map(|c| c.id.as_str()).collect();
            return Err(SnapshotError::InvokedSessions(ids.join(", ")));
        }
        let states = self.tables.states;
        let id = |s: u32| states[s as usize].id.to_owned();
        let mut data = Map::new();
        for item in self.tables.data {
            let value = (item.get)(&self.data).map_err(|source| SnapshotError::Data {
                id: item.id.to_owned(),
                source,
            })?;
            data.insert(item.id.to_owned(), value);
        }
        Ok(Snapshot {
            chart: self.tables.name.to_owned(),
            configuration: self.ctx.configuration.iter().map(id).collect(),
            history: self
                .history_values()
                .map(|(h, v)| (id(h), v.iter().copied().map(id).collect()))
                .collect(),
            data,
            now: self.ctx.now,
            pending: self
                .ctx
                .timers
                .pending()
                .map(|(due, event)| PendingEvent {
                    due,
                    event: event.to_event(self.ctx.session_id()),
                })
                .collect(),
            queued: self
                .ctx
                .external
                .iter()
                .map(|e| e.to_event(self.ctx.session_id()))
                .collect(),
            running: self.running,
            final_state: self.final_state.map(id),
            next_send_id: self.ctx.next_send_id,
            // Only states with `<data>`: whether the others are marked depends on the path an
            // event took (precomputed macrosteps enter them without marking).
            bound: self
                .data_bound
                .iter()
                .filter(|&s| self.tables.data.iter().any(|d| d.state == s))
                .map(id)
                .collect(),
        })
    }

    /// The functions an ECMAScript chart's top-level `<script>` (or `<script src>`) defines
    /// are part of its global scope but no value a snapshot can hold: the script runs again
    /// on restore, then the `<data>` get their snapshot values back (whatever it assigned).
    /// A failure is not reported: the machine reported it when it ran the script at start.
    /// Other datamodels keep everything in their `<data>` fields; nothing runs for them.
    fn redefine_script_functions(&mut self, snapshot: &Snapshot) {
        #[cfg(feature = "ecmascript")]
        if std::any::TypeId::of::<D>() == std::any::TypeId::of::<super::ecmascript::Js>() {
            if let Some(b) = self
                .tables
                .script
                .and_then(|b| self.tables.blocks.get(b as usize))
            {
                let _ = (b.run)(&mut self.data, &mut self.ctx);
                self.ctx.internal.clear();
                for (id, value) in &snapshot.data {
                    if let Some(item) = self.tables.data.iter().find(|d| d.id == id) {
                        let _ = (item.set)(&mut self.data, value.clone());
                    }
                }
            }
        }
        #[cfg(not(feature = "ecmascript"))]
        let _ = snapshot;
    }

    /// Restores a snapshot into a machine that has not started. Nothing is executed: no
    /// `<onentry>`, no `<data>` expressions; only an ECMAScript chart's top-level `<script>`
    /// runs again, for the functions it defines (see [`Self::redefine_script_functions`]).
    pub(crate) fn restore(&mut self, snapshot: &Snapshot) -> Result<(), SnapshotError> {
        if snapshot.chart != self.tables.name {
            return Err(SnapshotError::WrongChart {
                expected: self.tables.name.to_owned(),
                found: snapshot.chart.clone(),
            });
        }
        let states = self.tables.states;
        let index = |id: &str| {
            states
                .iter()
                .position(|s| s.id == id && s.kind != StateKind::Root)
                .map(|i| i as u32)
                .ok_or_else(|| SnapshotError::UnknownState(id.to_owned()))
        };
        let configuration = snapshot
            .configuration
            .iter()
            .map(|id| index(id))
            .collect::<Result<Vec<_>, _>>()?;
        if snapshot.running {
            check_legal(states, &configuration).map_err(SnapshotError::IllegalConfiguration)?;
        }
        let bound = snapshot
            .bound
            .iter()
            .map(|id| index(id))
            .collect::<Result<Vec<_>, _>>()?;
        let final_state = match &snapshot.final_state {
            Some(id) if !snapshot.running => {
                let s = index(id)?;
                let info = &states[s as usize];
                if info.kind != StateKind::Final || info.parent != 0 {
                    return Err(SnapshotError::IllegalConfiguration(format!(
                        "`{id}` is not a top-level <final> state"
                    )));
                }
                Some(s)
            }
            _ => None,
        };
        let mut history = Vec::new();
        for (h, values) in &snapshot.history {
            let h = index(h)?;
            let values = values
                .iter()
                .map(|id| index(id))
                .collect::<Result<Vec<_>, _>>()?;
            history.push((h, values));
        }
        for (id, value) in &snapshot.data {
            let item = self
                .tables
                .data
                .iter()
                .find(|d| d.id == id)
                .ok_or_else(|| SnapshotError::UnknownData(id.clone()))?;
            (item.set)(&mut self.data, value.clone()).map_err(|source| SnapshotError::Data {
                id: id.clone(),
                source,
            })?;
        }
        self.redefine_script_functions(snapshot);
        self.ctx.configuration.clear();
        for s in configuration {
            self.ctx.configuration.insert(s);
        }
        self.leaf_hint = self.ctx.configuration.last().unwrap_or(0);
        for (h, values) in history {
            self.set_history(h, values);
        }
        self.data_bound.clear();
        for s in bound {
            self.data_bound.insert(s);
        }
        self.ctx.now = snapshot.now;
        self.ctx.timers.clear();
        let typed = |event: &Event| {
            Envelope::from_event(event.clone()).map_err(|refused| SnapshotError::EventData {
                event: refused.name,
                reason: refused.reason,
            })
        };
        for p in &snapshot.pending {
            self.ctx.timers.schedule(p.due, typed(&p.event)?);
        }
        self.ctx.external = snapshot
            .queued
            .iter()
            .map(typed)
            .collect::<Result<_, _>>()?;
        self.ctx.next_send_id = snapshot.next_send_id;
        self.started = true;
        self.running = snapshot.running;
        self.final_state = final_state;
        Ok(())
    }
}

/// Whether `configuration` is legal (SCXML 1.0, section 3.11), as a running machine's must be:
/// every state's parent is active, the root and each active compound state have exactly one
/// active child, each active parallel state has all its regions active, and no history state
/// is listed. The error names the first offending state.
pub(crate) fn check_legal(
    states: &[super::StateInfo],
    configuration: &[u32],
) -> Result<(), String> {
    let mut active = vec![false; states.len()];
    for &s in configuration {
        active[s as usize] = true;
    }
    active[0] = true;
    for (i, info) in states.iter().enumerate() {
        if !active[i] {
            continue;
        }
        if info.kind.is_history() {
            return Err(format!("`{}` is a history state", info.id));
        }
        if i != 0 && !active[info.parent as usize] {
            let parent = &states[info.parent as usize];
            return Err(format!(
                "`{}` is active without its parent `{}`",
                info.id, parent.id
            ));
        }
        let regions = info
            .children
            .iter()
            .filter(|&&c| !states[c as usize].kind.is_history());
        match info.kind {
            StateKind::Root | StateKind::Compound => {
                let n = regions.filter(|&&c| active[c as usize]).count();
                if n != 1 {
                    let name = if i == 0 { "the chart" } else { info.id };
                    return Err(format!("{name} has {n} active child states, not one"));
                }
            }
            StateKind::Parallel => {
                if let Some(&c) = regions.clone().find(|&&c| !active[c as usize]) {
                    return Err(format!(
                        "parallel `{}` is active without its region `{}`",
                        info.id, states[c as usize].id
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
