//! The SCION statechart tests (jbeard4/scxml-test-framework) run against `sudoku-scxmlc`.
//!
//! `build.rs` compiles each `GROUP/NAME.scxml` of the tests folder into a module of
//! [`charts`] and lists every chart in [`CASES`]. `tests/scion.rs` runs them:
//!
//! ```text
//! cargo test -p scxml-scion-tests -- --nocapture
//! SCXML_SCION_DIR=/path/to/scion cargo test -p scxml-scion-tests   # another copy
//! ```
//!
//! The charts are written for SCION's ECMAScript datamodel, and each runs twice:
//!
//! - as written, in sudoku-scxmlc's `ecmascript` datamodel ([`ECMA_CASES`]):
//!   `rewrite::for_ecmascript` only declares `datamodel="ecmascript"`, wraps transitions on
//!   the root in a state (SCION treats `<scxml>` as one; SCXML 1.0 does not allow them
//!   there), and inlines the `<script src>` files the suite describes but does not hold;
//! - translated to Rust ([`CASES`]): `build/rewrite.rs` turns a chart without expressions
//!   into `datamodel="null"` and any other into `datamodel="rust"`, its expressions and
//!   scripts translated by `build/ecmascript.rs`: every `<data>` is a `serde_json::Value`
//!   field and the ECMAScript operators are the functions of [`js`] (`x === 2` →
//!   `crate::js::strict_eq(x, &crate::js::Value::from(2_i64))`, `In('s')` → `In("s")`,
//!   `x *= 2;` → `*x = crate::js::mul(x, ..);`, a `function` → a closure inlined where it is
//!   called, an undefined name or a syntax error → an `ExecError`, hence `error.execution`).
//!
//! On the repository's copy of the suite (`testdata/`, 107 charts) the translated run passes
//! all 107, the ecmascript run 105, and skips the two charts with an ECMAScript syntax error
//! (`assign/assign_invalid`, `data/data_invalid`), which SCION raises as `error.execution` at
//! run time and sudoku-scxmlc refuses at build time, at their line and column. (`error/error`
//! inspects the `error.execution` payload; sudoku-scxmlc's has the fields SCION uses:
//! `tagname`, `line`, `column`, `reason`.)

pub mod js;

use serde::Deserialize;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use sudoku_scxmlc::runtime::{Chart, ChartEvent, Core, Machine, Observer};

include!(concat!(env!("OUT_DIR"), "/scion_cases.rs"));

/// One chart of the folder and its trace.
#[derive(Debug)]
pub struct TestCase {
    /// The folder the chart is in (`basic`).
    pub group: &'static str,
    /// The chart's file stem (`basic0`).
    pub name: &'static str,
    /// Whether the group is one of `build.rs`'s `REQUIRED_GROUPS`, where ECMAScript outside the
    /// translated subset is a failure rather than a skip. (Any failing test fails the run.)
    pub required: bool,
    /// The `NAME.json` trace (empty when missing).
    pub trace_json: &'static str,
    /// How to run it.
    pub run: Runner,
}

/// What [`TestCase::run`] does.
#[derive(Debug, Clone, Copy)]
pub enum Runner {
    /// Runs the compiled chart against a trace.
    Chart(fn(&Trace) -> Result<(), String>),
    /// The chart could not be compiled (or has no trace): the located message.
    Broken(&'static str),
    /// The chart is not run: why (ECMAScript outside the translated subset, or a platform
    /// difference the chart tests).
    Skip(&'static str),
}

/// A SCION trace: `{initialConfiguration, events: [{event: {name}, after?, nextConfiguration}]}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    /// The sorted atomic states after start.
    pub initial_configuration: Vec<String>,
    /// The events to send, in order.
    pub events: Vec<Step>,
    /// The trace of SCION's older semantics, which some files also carry.
    #[serde(default)]
    pub legacy_semantics: Option<Box<Trace>>,
}

/// Tests whose main SCION trace disagrees with the W3C algorithm (SCXML 1.0, Appendix D) and
/// whose `legacySemantics` trace is the one Appendix D produces.
///
/// In both, a transition `a → a` sits in a region of `<parallel id="p">`. Appendix D's
/// `findLCCA` only considers `<state>` and `<scxml>` ancestors, so the transition domain is
/// the `<scxml>` root: `p` is exited and re-entered, which is what test10's comments describe
/// (`x === 6` after the transition). SCION's newer main trace keeps `p` active instead; test10b's
/// comments describe that (`x === 4`), and its legacy trace is the Appendix D one.
pub const APPENDIX_D_TRACES: &[&str] = &["more-parallel/test10", "more-parallel/test10b"];

impl Trace {
    /// The trace to check test `key` (`group/name`) against: the `legacySemantics` trace for
    /// the tests listed in [`APPENDIX_D_TRACES`], the main trace otherwise.
    pub fn for_test(self, key: &str) -> Trace {
        match self.legacy_semantics {
            Some(legacy) if APPENDIX_D_TRACES.contains(&key) => *legacy,
            _ => self,
        }
    }
}

/// One event of a [`Trace`].
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// The event to submit.
    pub event: EventSpec,
    /// Milliseconds of machine time to let pass before submitting it.
    #[serde(default)]
    pub after: Option<f64>,
    /// The sorted atomic states expected after it.
    pub next_configuration: Vec<String>,
}

/// The event of a [`Step`].
#[derive(Debug, Clone, Deserialize)]
pub struct EventSpec {
    /// Its name.
    pub name: String,
}

impl Trace {
    /// Parses a `NAME.json` trace.
    ///
    /// # Errors
    /// The JSON error, when the text is not a trace.
    pub fn parse(json: &str) -> Result<Trace, String> {
        serde_json::from_str(json).map_err(|e| format!("bad trace JSON: {e}"))
    }
}

/// The configuration a machine stopped in, followed through `connect_to_state`.
///
/// When a chart reaches a top-level final state, SCXML 1.0 (Appendix D, `exitInterpreter`)
/// exits every active state, so a stopped machine has no configuration; SCION's traces list
/// the states the machine stopped in (`["pass"]`). The exits of `exitInterpreter` are the
/// last notifications of the macrostep that entered the final state, so the configuration
/// right after the last entry is the one the machine stopped in.
#[derive(Debug, Default)]
struct StopTracker {
    /// The active states, by index, as the notifications report them.
    active: std::collections::BTreeSet<u32>,
    /// `active` right after the latest entry.
    at_last_entry: std::collections::BTreeSet<u32>,
}

/// Runs `machine` through `trace`: start, compare the sorted atomic configuration with
/// `initialConfiguration`, then for each step advance the clock by `after` ms (if given),
/// submit the event and compare with `nextConfiguration`. Once the machine has stopped in a
/// top-level final state, the configuration compared is the one it stopped in (see
/// `StopTracker`).
///
/// # Errors
/// The first mismatch: which step, the expected and the actual configuration, and any
/// runtime errors the machine reported.
pub fn check<C: Chart>(machine: Machine<C>, trace: &Trace) -> Result<(), String> {
    let errors = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = Rc::clone(&errors);
    let _connection = machine.connect_to_error(move |e| sink.borrow_mut().push(e.to_string()));
    let tracker = Rc::new(RefCell::new(StopTracker::default()));
    let _states: Vec<_> = (0..C::tables().states.len())
        .filter_map(|i| {
            let index = u32::try_from(i).ok()?;
            let state = C::state(index)?;
            let tracker = Rc::clone(&tracker);
            Some(machine.connect_to_state(state, move |entered| {
                let mut t = tracker.borrow_mut();
                if entered {
                    t.active.insert(index);
                    t.at_last_entry = t.active.clone();
                } else {
                    t.active.remove(&index);
                }
            }))
        })
        .collect();
    machine.start();
    let state = Configuration {
        machine: &machine,
        tracker: &tracker,
    };
    compare(
        "initial configuration",
        &trace.initial_configuration,
        &state,
        &errors,
    )?;
    for (i, step) in trace.events.iter().enumerate() {
        let mut what = format!("step {} (", i + 1);
        if let Some(ms) = step.after {
            machine.advance_time(Duration::from_secs_f64(ms.max(0.0) / 1000.0));
            what.push_str(&format!("after {ms} ms, "));
        }
        machine.submit_event(&step.event.name, ());
        what.push_str(&format!("event `{}`)", step.event.name));
        compare(&what, &step.next_configuration, &state, &errors)?;
    }
    Ok(())
}

/// What [`compare`] looks at: the machine, and where it stopped.
struct Configuration<'a, C: Chart> {
    machine: &'a Machine<C>,
    tracker: &'a RefCell<StopTracker>,
}

impl<C: Chart> Configuration<'_, C> {
    /// The sorted ids of the active atomic states; for a stopped machine, those it stopped in.
    fn atomic_ids(&self) -> Vec<&'static str> {
        if self.machine.is_running() {
            return self.machine.active_atomic_state_ids();
        }
        let states = C::tables().states;
        let mut ids: Vec<&'static str> = self
            .tracker
            .borrow()
            .at_last_entry
            .iter()
            .map(|&i| &states[i as usize])
            .filter(|s| s.kind.is_atomic())
            .map(|s| s.id)
            .collect();
        ids.sort_unstable();
        ids
    }
}

fn compare<C: Chart>(
    what: &str,
    expected: &[String],
    state: &Configuration<'_, C>,
    errors: &RefCell<Vec<String>>,
) -> Result<(), String> {
    let machine = state.machine;
    let mut expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    expected.sort_unstable();
    let got = state.atomic_ids();
    if got == expected {
        return Ok(());
    }
    let mut msg = format!("{what}: expected {expected:?}, got {got:?}");
    if !machine.is_running() {
        msg.push_str(" (where the machine stopped)");
    }
    let data: Vec<String> = C::tables()
        .data
        .iter()
        .map(|d| match machine.data_value(d.id) {
            Some(v) => format!("{}={v}", d.id),
            None => format!("{}=?", d.id),
        })
        .collect();
    if !data.is_empty() {
        msg.push_str(&format!("; datamodel: {}", data.join(", ")));
    }
    let errors = errors.borrow();
    if !errors.is_empty() {
        msg.push_str(&format!("; runtime errors: {}", errors.join(" | ")));
    }
    Err(msg)
}

#[cfg(test)]
#[path = "../build/ecmascript.rs"]
mod ecmascript;
#[cfg(test)]
#[path = "../build/rewrite.rs"]
mod rewrite;

/// A random walk through one compiled chart (see [`walk`]).
pub type WalkFn = fn(&[u16]) -> Result<(), String>;

/// Drives a fresh machine of chart `C` with `picks`: each pick chooses one of the event names
/// the chart's transitions mention, an event it never handles, or 50 ms of machine time. After
/// start and after every pick the configuration must be legal ([`Machine::check_configuration`]), and
/// nothing may panic.
///
/// A second machine takes the same picks with precomputed macrosteps off
/// (`Machine::set_precomputed_steps(false)`: the full interpreter runs every event), while the
/// first one's `submit_event` may take a precomputed macrostep, the chart's generated step or
/// its lane: both must report the same state entries and exits and the same typed events, in
/// the same order, and end each pick in the same configuration with the same datamodel.
/// Two owned cores (`runtime::Core`) take the same picks through their `submit_event`
/// (which takes the chart's lane for a typed event): one with a typed observer (the type
/// parameter), one with boxed callbacks (`on_state`, `observe`); each must report what the
/// full interpreter reports and match its configuration and datamodel after every pick.
///
/// # Errors
/// The first illegal configuration, or the first difference between the two machines, with
/// the events that led to it.
pub fn walk<C: Chart>(picks: &[u16]) -> Result<(), String> {
    sudoku_scxmlc::runtime::check_quiet_steps::<C>()?;
    let mut alphabet: Vec<&'static str> = C::tables()
        .transitions
        .iter()
        .flat_map(|t| t.events.iter().copied())
        .filter(|e| *e != "*")
        .collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    alphabet.push("never.handled");
    let (fast, fast_log) = observed_machine::<C>();
    let (full, full_log) = observed_machine::<C>();
    full.set_precomputed_steps(false);
    // Nobody observes these two, so `submit_event` takes the quiet path where it can; the
    // first is compared after every step, the second only at the end (its interpreter
    // catches up with many quiet macrosteps at once).
    let quiet = unobserved_machine::<C>();
    let quiet_lazy = unobserved_machine::<C>();
    let mut owned = owned_core::<C>();
    let (mut boxed, boxed_log) = boxed_core::<C>();
    let mut done = Vec::new();
    let same = |done: &[&str]| -> Result<(), String> {
        fast.check_configuration()
            .and_then(|()| quiet.check_configuration())
            .map_err(|e| format!("after {done:?}: {e}"))?;
        if quiet.active_state_ids() != full.active_state_ids()
            || quiet.is_running() != full.is_running()
        {
            return Err(format!(
                "after {done:?}: the unobserved machine left {:?}; the full interpreter \
                 left {:?}",
                quiet.active_state_ids(),
                full.active_state_ids()
            ));
        }
        let data = |m: &Machine<C>| -> Vec<Option<serde_json::Value>> {
            C::tables()
                .data
                .iter()
                .map(|d| m.data_value(d.id))
                .collect()
        };
        if data(&fast) != data(&full) || data(&quiet) != data(&full) {
            return Err(format!(
                "after {done:?}: the datamodel is {:?} (observed), {:?} (unobserved); the \
                 full interpreter's is {:?}",
                data(&fast),
                data(&quiet),
                data(&full)
            ));
        }
        if *fast_log.borrow() != *full_log.borrow()
            || fast.active_state_ids() != full.active_state_ids()
            || fast.is_running() != full.is_running()
        {
            return Err(format!(
                "after {done:?}: submit_event reported {:?} and left {:?}; the full \
                 interpreter reported {:?} and left {:?}",
                fast_log.borrow(),
                fast.active_state_ids(),
                full_log.borrow(),
                full.active_state_ids()
            ));
        }
        Ok(())
    };
    let same_owned = |done: &[&str], owned: &Core<C, Logger<C>>, boxed: &Core<C>| {
        let core_data = |d: &C::Data| -> Vec<Option<serde_json::Value>> {
            C::tables()
                .data
                .iter()
                .map(|item| {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (item.get)(d)))
                        .ok()?
                        .ok()
                })
                .collect()
        };
        let full_data: Vec<Option<serde_json::Value>> = C::tables()
            .data
            .iter()
            .map(|d| full.data_value(d.id))
            .collect();
        for (which, log, ids, running, data) in [
            (
                "typed observer",
                owned.observer().log.clone(),
                owned.active_state_ids(),
                owned.is_running(),
                core_data(owned.data()),
            ),
            (
                "boxed callbacks",
                boxed_log.lock().expect("the log").clone(),
                boxed.active_state_ids(),
                boxed.is_running(),
                core_data(boxed.data()),
            ),
        ] {
            if log != *full_log.borrow()
                || ids != full.active_state_ids()
                || running != full.is_running()
                || data != full_data
            {
                return Err(format!(
                    "after {done:?}: the owned core ({which}) reported {log:?}, left {ids:?} \
                     with the datamodel {data:?}; the full interpreter reported {:?}, left \
                     {:?} with {full_data:?}",
                    full_log.borrow(),
                    full.active_state_ids(),
                ));
            }
        }
        Ok(())
    };
    same(&["start"])?;
    same_owned(&["start"], &owned, &boxed)?;
    for &p in picks {
        match alphabet.get(p as usize % (alphabet.len() + 1)) {
            Some(event) => {
                fast.submit_event(event, ());
                quiet.submit_event(event, ());
                quiet_lazy.submit_event(event, ());
                // Refused after a top-level `<final>`, as the handle's are (silently).
                let _ = owned.submit_event(event, ());
                let _ = boxed.submit_event(event, ());
                full.submit(sudoku_scxmlc::runtime::Event::new(*event, ()));
                done.push(*event);
            }
            None => {
                fast.advance_time(Duration::from_millis(50));
                quiet.advance_time(Duration::from_millis(50));
                quiet_lazy.advance_time(Duration::from_millis(50));
                owned.advance_time(Duration::from_millis(50));
                boxed.advance_time(Duration::from_millis(50));
                full.advance_time(Duration::from_millis(50));
                done.push("(50 ms)");
            }
        }
        same(&done)?;
        same_owned(&done, &owned, &boxed)?;
    }
    if quiet_lazy.active_state_ids() != full.active_state_ids()
        || quiet_lazy.is_running() != full.is_running()
    {
        return Err(format!(
            "after {done:?}: the unobserved machine compared only now left {:?}; the full \
             interpreter left {:?}",
            quiet_lazy.active_state_ids(),
            full.active_state_ids()
        ));
    }
    Ok(())
}

/// The typed observer of the walks' owned core: a log in the form of
/// [`observed_machine`]'s.
pub struct Logger<C> {
    /// `+id` for an entry, `-id` for an exit, `!name` for an event.
    pub log: Vec<String>,
    chart: std::marker::PhantomData<C>,
}

impl<C: Chart> Observer<C> for Logger<C> {
    fn event(&mut self, event: &C::Event) {
        self.log.push(format!("!{}", ChartEvent::name(event)));
    }

    fn state(&mut self, state: C::State, entered: bool) {
        let id = C::tables().states[C::index(state) as usize].id;
        self.log
            .push(format!("{}{id}", if entered { '+' } else { '-' }));
    }
}

/// A started owned core of chart `C` whose typed observer logs as [`observed_machine`]'s
/// observers do.
fn owned_core<C: Chart>() -> Core<C, Logger<C>> {
    let mut core = Core::with_observer(Logger {
        log: Vec::new(),
        chart: std::marker::PhantomData,
    });
    core.set_max_microsteps(10_000);
    core.on_error(|_| {});
    core.start();
    core
}

/// A started owned core of chart `C` whose boxed callbacks log as [`observed_machine`]'s
/// observers do.
fn boxed_core<C: Chart>() -> (Core<C>, Arc<Mutex<Vec<String>>>) {
    let mut core = Core::<C>::new();
    core.set_max_microsteps(10_000);
    core.on_error(|_| {});
    let log = Arc::new(Mutex::new(Vec::new()));
    for (i, info) in C::tables().states.iter().enumerate() {
        let Some(state) = u32::try_from(i).ok().and_then(C::state) else {
            continue;
        };
        let log = Arc::clone(&log);
        let id = info.id;
        core.on_state(state, move |entered| {
            log.lock()
                .expect("the log")
                .push(format!("{}{id}", if entered { '+' } else { '-' }));
        });
    }
    let events = Arc::clone(&log);
    core.observe(move |e| {
        events
            .lock()
            .expect("the log")
            .push(format!("!{}", ChartEvent::name(e)));
    });
    core.start();
    (core, log)
}

/// A started machine of chart `C` with no observer but for errors.
fn unobserved_machine<C: Chart>() -> Machine<C> {
    let machine = Machine::<C>::new();
    machine.set_max_microsteps(10_000);
    machine.connect_to_error(|_| {});
    machine.start();
    machine
}

/// A started machine of chart `C` whose state entries (`+id`) and exits (`-id`) are logged.
fn observed_machine<C: Chart>() -> (Machine<C>, Rc<RefCell<Vec<String>>>) {
    let machine = Machine::<C>::new();
    machine.set_max_microsteps(10_000);
    let log = Rc::new(RefCell::new(Vec::new()));
    machine.connect_to_error(|_| {});
    let states = C::tables().states;
    for (i, info) in states.iter().enumerate() {
        let Some(state) = u32::try_from(i).ok().and_then(C::state) else {
            continue;
        };
        let log = Rc::clone(&log);
        let id = info.id;
        machine.connect_to_state(state, move |entered| {
            log.borrow_mut()
                .push(format!("{}{id}", if entered { '+' } else { '-' }));
        });
    }
    // The typed events it dequeues, in order with the states: the lane tells both.
    let events = Rc::clone(&log);
    machine.observe(move |e| {
        events
            .borrow_mut()
            .push(format!("!{}", ChartEvent::name(e)));
    });
    machine.start();
    (machine, log)
}

/// The verdict of a SCION run on the `group/name` ids of the tests that failed: every test
/// must pass, whatever its group, so any failure fails the run.
///
/// # Errors
/// The line to print when `failed` is not empty: how many failed, and which.
pub fn verdict(failed: &[String]) -> Result<(), String> {
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} test(s) failed: {}",
            failed.len(),
            failed.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_failure_fails_the_run() {
        assert_eq!(verdict(&[]), Ok(()));
        // `assign` is not one of build.rs's REQUIRED_GROUPS: its failure counts all the same.
        assert_eq!(
            verdict(&[
                "assign/assign_obj_literal".to_owned(),
                "basic/basic1".to_owned()
            ]),
            Err("2 test(s) failed: assign/assign_obj_literal, basic/basic1".to_owned())
        );
    }

    #[test]
    fn trace_parses_with_and_without_after() {
        let t = Trace::parse(
            r#"{"initialConfiguration":["a"],"events":[
                {"event":{"name":"t"},"nextConfiguration":["b"]},
                {"after":100,"event":{"name":"t2"},"nextConfiguration":["d","c"]}]}"#,
        )
        .unwrap();
        assert_eq!(t.initial_configuration, ["a"]);
        assert_eq!(t.events.len(), 2);
        assert_eq!(t.events[0].after, None);
        assert_eq!(t.events[1].after, Some(100.0));
        assert_eq!(t.events[1].event.name, "t2");
    }

    #[test]
    fn table_is_consistent() {
        // The run itself (tests/scion.rs) fails on a missing or empty folder.
        assert!(CASES.is_empty() || SCION_DIR_FOUND);
        for case in CASES {
            if let Runner::Chart(_) = case.run {
                Trace::parse(case.trace_json).unwrap();
            }
        }
    }
}
