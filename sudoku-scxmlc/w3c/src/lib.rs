//! The W3C SCXML 1.0 Implementation Report tests, compiled at build time by `sudoku-scxmlc`.
//!
//! `build.rs` rewrites each `txml/testNNN.txml` of the tests folder (`testdata/`, the suite as
//! W3C publishes it, or another one chosen with `SCXML_W3C_DIR`) into a `rust`-datamodel
//! chart (see `build/rewrite.rs` for the `conf:` vocabulary), or keeps it as a `null` chart,
//! compiles it into a module of [`charts`], and lists every test in [`CASES`].
//! `tests/w3c.rs` runs them on a virtual clock and prints one line per test:
//!
//! ```text
//! cargo test -p scxml-w3c-tests --test w3c
//! SCXML_W3C_DIR=/path/to/w3c cargo test -p scxml-w3c-tests --test w3c
//! cargo test -p scxml-w3c-tests --test w3c -- test144 test145
//! ```

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use sudoku_scxmlc::runtime::{Chart, Machine};

include!(concat!(env!("OUT_DIR"), "/w3c_cases.rs"));

pub mod conf;

/// One W3C test.
#[derive(Debug)]
pub struct TestCase {
    /// The file stem, `test144`.
    pub name: &'static str,
    /// The section of the SCXML 1.0 spec it tests (from `manifest.xml`; empty without one).
    pub specnum: &'static str,
    /// Whether the manifest marks it mandatory.
    pub mandatory: bool,
    /// How to run it.
    pub run: Runner,
}

/// What [`TestCase::run`] does.
#[derive(Debug, Clone, Copy)]
pub enum Runner {
    /// Runs the compiled chart until it reaches `pass` or `fail`.
    Chart(fn() -> Result<(), String>),
    /// The chart could not be rewritten or compiled: the message.
    Broken(&'static str),
    /// The test asks for the document to be rejected, and the compiler rejected it: why.
    Rejected(&'static str),
    /// Out of scope for the `rust` and `null` datamodels: why.
    Skip(&'static str),
}

/// How much machine time a test may take before it fails. The tests' own delays are at most
/// a few seconds.
pub const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Tests known to fail today, each with the reason. The runner reports them as `FAIL` like
/// any other failure, but only a failure outside this list (or a listed test that passes,
/// so that the list stays true) makes the run fail.
pub const EXPECTED_FAILURES: &[(&str, &str)] = &[];

/// [`EXPECTED_FAILURES`] of the run in the ecmascript datamodel ([`ECMA_CASES`]).
pub const ECMA_EXPECTED_FAILURES: &[(&str, &str)] = &[];

/// Starts a machine of chart `C` and lets machine time pass, one pending delayed event at a
/// time, until it stops.
///
/// # Errors
/// Reaching the top-level final `fail` (or any final but `pass`), waiting with nothing
/// pending, or running past [`TIME_LIMIT`] of machine time; the message names the active
/// states and the runtime errors the machine reported.
pub fn run<C: Chart>() -> Result<(), String> {
    let machine = Machine::<C>::new();
    let errors = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = Rc::clone(&errors);
    let _connection = machine.connect_to_error(move |e| sink.borrow_mut().push(e.to_string()));
    machine.start();
    while machine.is_running() {
        let Some(wait) = machine.time_until_next() else {
            return Err(describe(
                &machine,
                &errors,
                "waits for an event that nothing will send",
            ));
        };
        if machine.now() + wait > TIME_LIMIT {
            return Err(describe(
                &machine,
                &errors,
                &format!(
                    "still running after {} s of machine time",
                    TIME_LIMIT.as_secs()
                ),
            ));
        }
        machine.advance_time(wait);
    }
    match machine.final_state_id() {
        Some("pass") => Ok(()),
        Some(other) => Err(describe(&machine, &errors, &format!("reached `{other}`"))),
        None => Err(describe(&machine, &errors, "stopped without a final state")),
    }
}

fn describe<C: Chart>(machine: &Machine<C>, errors: &RefCell<Vec<String>>, what: &str) -> String {
    let mut msg = what.to_owned();
    let active = machine.active_state_ids();
    if !active.is_empty() {
        msg.push_str(&format!("; active: {}", active.join(" ")));
    }
    let data: Vec<String> = C::tables()
        .data
        .iter()
        .filter_map(|d| machine.data_value(d.id).map(|v| format!("{}={v}", d.id)))
        .collect();
    if !data.is_empty() {
        msg.push_str(&format!("; datamodel: {}", data.join(", ")));
    }
    let errors = errors.borrow();
    if !errors.is_empty() {
        msg.push_str(&format!("; runtime errors: {}", errors.join(" | ")));
    }
    msg
}
