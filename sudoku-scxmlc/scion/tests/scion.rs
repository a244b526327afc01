//! Runs every SCION chart of the tables `build.rs` generated twice: as SCION runs it, with its
//! own ECMAScript in the ecmascript datamodel ([`ECMA_CASES`]), and translated to the rust
//! datamodel ([`CASES`]). Prints one line per test: `PASS group/name`, `FAIL group/name:
//! reason` or `SKIP group/name: reason`, then per run `ecmascript: N passed, N failed, N
//! skipped` and `translated to rust: N passed, N failed, N skipped` (the shared driver of
//! `scxml-conformance`). Fails when any test fails in either run (every SCION test must pass,
//! in whatever group), and when no test ran (the folder, the repository's `testdata` or one
//! chosen with `SCXML_SCION_DIR`, is missing or holds no chart, or the filters match
//! nothing).
//!
//! `cargo test -p scxml-scion-tests --test scion -- history` runs only the tests whose
//! `group/name` contains `history`.

use scxml_conformance::{run_isolated, run_suite, Outcome, Suite};
use scxml_scion_tests::{
    verdict, Runner, TestCase, Trace, CASES, ECMA_CASES, SCION_DIR, SCION_DIR_FOUND,
};
use std::process::ExitCode;
use std::time::Duration;

/// A chart that runs longer than this is reported as failing (its thread is left behind).
const TIMEOUT: Duration = Duration::from_secs(20);

fn main() -> ExitCode {
    let ecmascript = run_datamodel("ecmascript", ECMA_CASES);
    let translated = run_datamodel("translated to rust", CASES);
    if ecmascript == ExitCode::SUCCESS && translated == ExitCode::SUCCESS {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// One run of the suite, its summary line starting with `name:`.
fn run_datamodel(name: &'static str, cases: &'static [TestCase]) -> ExitCode {
    let suite = Suite {
        name: "SCION",
        dir: SCION_DIR,
        found: SCION_DIR_FOUND,
        env_var: "SCXML_SCION_DIR",
        layout: "GROUP/NAME.scxml chart",
        run: Some(name),
    };
    run_suite(
        &suite,
        cases,
        |c| format!("{}/{}", c.group, c.name),
        run,
        |tally| verdict(&tally.failed),
    )
}

fn run(case: &TestCase) -> Outcome {
    let run = match case.run {
        Runner::Chart(run) => run,
        Runner::Broken(msg) => return Outcome::Fail(msg.to_owned()),
        Runner::Skip(msg) => return Outcome::Skip(msg.to_owned()),
    };
    let name = format!("{}/{}", case.group, case.name);
    let trace = match Trace::parse(case.trace_json) {
        Ok(t) => t.for_test(&name),
        Err(e) => return Outcome::Fail(e),
    };
    // Each chart runs on its own thread, so a panic or an endless loop in the runtime is one
    // failing test rather than the end of the run.
    match run_isolated(&name, TIMEOUT, move || run(&trace)) {
        Ok(()) => Outcome::Pass,
        Err(reason) => Outcome::Fail(reason),
    }
}
