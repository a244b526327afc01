//! Runs every SCION chart of the table `build.rs` generated and prints one line per test:
//! `PASS group/name`, `FAIL group/name: reason` or `SKIP group/name: reason`, then
//! `N passed, N failed, N skipped`. Fails when any test fails (every SCION test must pass, in
//! whatever group), and when a folder chosen with `SCXML_SCION_DIR` holds no chart.
//!
//! `cargo test -p scxml-scion-tests --test scion -- history` runs only the tests whose
//! `group/name` contains `history`.

use scxml_scion_tests::{
    run_isolated, verdict, Runner, TestCase, Trace, CASES, SCION_DIR, SCION_DIR_EXPLICIT,
    SCION_DIR_FOUND,
};
use std::process::ExitCode;
use std::time::Duration;

/// A chart that runs longer than this is reported as failing (its thread is left behind).
const TIMEOUT: Duration = Duration::from_secs(20);

enum Outcome {
    Pass,
    Fail(String),
    Skip(String),
}

fn main() -> ExitCode {
    if !SCION_DIR_FOUND && SCION_DIR_EXPLICIT {
        println!("{SCION_DIR} does not exist (SCXML_SCION_DIR): nothing to run");
        return ExitCode::FAILURE;
    }
    if !SCION_DIR_FOUND {
        println!("SCION tests skipped: folder {SCION_DIR} not found (set SCXML_SCION_DIR)");
        return ExitCode::SUCCESS;
    }
    if CASES.is_empty() {
        println!("no GROUP/NAME.scxml chart in {SCION_DIR}: nothing to run");
        return if SCION_DIR_EXPLICIT {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    // Arguments that are not flags (`--nocapture`, ...) filter by `group/name` substring.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in CASES {
        let id = format!("{}/{}", case.group, case.name);
        if !filters.is_empty() && !filters.iter().any(|f| id.contains(f.as_str())) {
            continue;
        }
        match run(case) {
            Outcome::Pass => {
                passed += 1;
                println!("PASS {id}");
            }
            Outcome::Fail(reason) => {
                failed += 1;
                println!("FAIL {id}: {}", indent(&reason));
                failures.push(id);
            }
            Outcome::Skip(reason) => {
                skipped += 1;
                println!("SKIP {id}: {reason}");
            }
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    if !filters.is_empty() && passed + failed + skipped == 0 {
        println!("no test matches {filters:?}");
        return ExitCode::FAILURE;
    }
    match verdict(&failures) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            println!("{why}");
            ExitCode::FAILURE
        }
    }
}

fn run(case: &'static TestCase) -> Outcome {
    let run = match case.run {
        Runner::Chart(run) => run,
        Runner::Broken(msg) => return Outcome::Fail(msg.to_owned()),
        Runner::Skip(msg) => return Outcome::Skip(msg.to_owned()),
    };
    let trace = match Trace::parse(case.trace_json) {
        Ok(t) => t.for_test(&format!("{}/{}", case.group, case.name)),
        Err(e) => return Outcome::Fail(e),
    };
    // Each chart runs on its own thread, so a panic or an endless loop in the runtime is one
    // failing test rather than the end of the run.
    let name = format!("{}/{}", case.group, case.name);
    match run_isolated(&name, TIMEOUT, move || run(&trace)) {
        Ok(()) => Outcome::Pass,
        Err(reason) => Outcome::Fail(reason),
    }
}

/// Multi-line messages (located compiler diagnostics) indented under their FAIL line.
fn indent(text: &str) -> String {
    text.trim_end().replace('\n', "\n    ")
}
