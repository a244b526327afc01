//! A live view of a running state machine, for any chart compiled by `sudoku-scxmlc`: the
//! chart's state tree with the active states lit as they change, and the last few events the
//! machine processed.
//!
//! It uses the generated API only: the state list ([`state_tree`]), `active_states`,
//! `connect_to_state` and `connect_to_event("*")`. [`ChartMonitor`] keeps the view's data and
//! calls back when it changes; the Slint component that draws it is `ui/chart-view.slint`
//! (`ChartView`, with its row struct `ChartRow`), which a window imports through a library
//! path:
//!
//! ```text
//! // build.rs
//! let config = slint_build::CompilerConfiguration::new().with_library_paths(
//!     [("chart-view".into(), PathBuf::from(".../sudoku-scxmlc/chart-view/ui/chart-view.slint"))].into(),
//! );
//! // app.slint
//! import { ChartView, ChartRow } from "@chart-view";
//! ```
//!
//! [`ChartMonitor::feed`] keeps the component's two models up to date. The game's window and
//! the traffic-light example (`scxml-examples`) both use it.

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::rc::Rc;

use slint::{Model, SharedString, VecModel};
use sudoku_scxmlc::runtime::{state_tree, Chart, Connection, Event, Machine, NodeKind};

/// Events remembered by default.
pub const DEFAULT_EVENTS: usize = 8;

/// One line of the state tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The state's id.
    pub id: &'static str,
    /// Its depth: 0 for a top-level state.
    pub depth: usize,
    /// Whether it is in the active configuration.
    pub active: bool,
    /// What it is.
    pub kind: NodeKind,
}

impl Row {
    /// The kind as one word: `atomic`, `compound`, `parallel`, `final`.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            NodeKind::Atomic => "atomic",
            NodeKind::Compound => "compound",
            NodeKind::Parallel => "parallel",
            NodeKind::Final => "final",
        }
    }
}

/// One line of the event list: a name, and how many times in a row it came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLine {
    /// The event's name.
    pub name: String,
    /// How many times in a row (a timer's ticks come as one line).
    pub count: usize,
}

impl std::fmt::Display for EventLine {
    /// `name`, or `name ×12` for repeats.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.count > 1 {
            write!(f, "{} ×{}", self.name, self.count)
        } else {
            f.write_str(&self.name)
        }
    }
}

/// What [`ChartMonitor::on_change`] calls: the state tree's rows, the last events, and the
/// counts of the quiet ones.
type OnChange = Rc<dyn Fn(&[Row], &VecDeque<EventLine>, &[EventLine])>;

struct Inner {
    rows: Vec<Row>,
    events: VecDeque<EventLine>,
    keep: usize,
    /// The events left out of the list ([`ChartMonitor::set_quiet`]), each with its count.
    quiet: Vec<EventLine>,
    on_change: Option<OnChange>,
}

/// The live data of a machine's view; see the [crate docs](crate).
///
/// Dropping the monitor disconnects it.
pub struct ChartMonitor {
    inner: Rc<RefCell<Inner>>,
    connections: Vec<Connection>,
}

impl ChartMonitor {
    /// Starts watching `machine`, remembering the last `keep` events (consecutive repeats of
    /// a name count as one).
    pub fn attach<C: Chart>(machine: &Machine<C>, keep: usize) -> Self
    where
        C::State: Copy,
    {
        let tree = state_tree::<C>();
        let active: HashSet<C::State> = machine.active_states().into_iter().collect();
        let rows = tree
            .iter()
            .map(|node| Row {
                id: node.id,
                depth: node.depth,
                active: active.contains(&node.state),
                kind: node.kind,
            })
            .collect();
        let inner = Rc::new(RefCell::new(Inner {
            rows,
            events: VecDeque::new(),
            keep,
            quiet: Vec::new(),
            on_change: None,
        }));
        let mut connections = Vec::with_capacity(tree.len() + 1);
        for (index, node) in tree.iter().enumerate() {
            let inner = inner.clone();
            connections.push(machine.connect_to_state(node.state, move |on| {
                inner.borrow_mut().rows[index].active = on;
                notify(&inner);
            }));
        }
        let events = inner.clone();
        connections.push(machine.connect_to_event("*", move |event: &Event| {
            {
                let mut inner = events.borrow_mut();
                if let Some(quiet) = inner.quiet.iter_mut().find(|q| q.name == event.name) {
                    quiet.count += 1;
                    drop(inner);
                    notify(&events);
                    return;
                }
                match inner.events.back_mut() {
                    Some(last) if last.name == event.name => last.count += 1,
                    _ => {
                        inner.events.push_back(EventLine {
                            name: event.name.clone(),
                            count: 1,
                        });
                        while inner.events.len() > inner.keep {
                            inner.events.pop_front();
                        }
                    }
                }
            }
            notify(&events);
        }));
        ChartMonitor { inner, connections }
    }

    /// Leaves the events named `names` out of the list and only counts them: a timer's
    /// ticks would push every other event out of a short list (the game's clock ticks ten
    /// times a second). Their counts start at zero.
    pub fn set_quiet(&self, names: &[&str]) {
        self.inner.borrow_mut().quiet = names
            .iter()
            .map(|name| EventLine {
                name: (*name).to_owned(),
                count: 0,
            })
            .collect();
        notify(&self.inner);
    }

    /// Calls `f` with the rows, the events and the quiet events' counts whenever they change
    /// (and once now).
    pub fn on_change(&self, f: impl Fn(&[Row], &VecDeque<EventLine>, &[EventLine]) + 'static) {
        self.inner.borrow_mut().on_change = Some(Rc::new(f));
        notify(&self.inner);
    }

    /// Keeps two Slint models up to date: `rows` (one `T` per state, made by `row`: the
    /// window's own `ChartRow` struct, as Slint generates it for each window) and `events`
    /// (the last events as text, oldest first, then a line for each quiet event that came,
    /// `tick ×52, not listed`). Only the rows that changed are written, so a list view redraws
    /// only them.
    pub fn feed<T: Clone + PartialEq + 'static>(
        &self,
        rows: Rc<VecModel<T>>,
        events: Rc<VecModel<SharedString>>,
        row: impl Fn(&Row) -> T + 'static,
    ) {
        self.on_change(move |tree, last, quiet| {
            for (i, r) in tree.iter().enumerate() {
                let data = row(r);
                if i >= rows.row_count() {
                    rows.push(data);
                } else if rows.row_data(i).as_ref() != Some(&data) {
                    rows.set_row_data(i, data);
                }
            }
            let mut lines: Vec<SharedString> = last.iter().map(|e| e.to_string().into()).collect();
            lines.extend(
                quiet
                    .iter()
                    .filter(|q| q.count > 0)
                    .map(|q| format!("{} ×{}, not listed", q.name, q.count).into()),
            );
            if !lines.iter().eq(events.iter().collect::<Vec<_>>().iter()) {
                events.set_vec(lines);
            }
        });
    }

    /// The state tree, in document order.
    pub fn rows(&self) -> Vec<Row> {
        self.inner.borrow().rows.clone()
    }

    /// The last events, oldest first (the quiet ones left out).
    pub fn events(&self) -> Vec<EventLine> {
        self.inner.borrow().events.iter().cloned().collect()
    }

    /// The quiet events ([`ChartMonitor::set_quiet`]) with how many times each came.
    pub fn quiet(&self) -> Vec<EventLine> {
        self.inner.borrow().quiet.clone()
    }
}

impl Drop for ChartMonitor {
    fn drop(&mut self) {
        for connection in &self.connections {
            connection.disconnect();
        }
    }
}

fn notify(inner: &Rc<RefCell<Inner>>) {
    let callback = inner.borrow().on_change.clone();
    if let Some(f) = callback {
        let inner = inner.borrow();
        f(&inner.rows, &inner.events, &inner.quiet);
    }
}
