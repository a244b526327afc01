//! Runs every W3C test of the table `build.rs` generated and prints one line per test:
//! `PASS test144`, `FAIL test189: reason` or `SKIP test201: reason`, then
//! `N passed, N failed, N skipped`.
//!
//! The run fails when a test fails that is not in `EXPECTED_FAILURES`, or when a test listed
//! there passes (so that the list stays true). Arguments that are not flags filter by test
//! name: `cargo test -p scxml-w3c-tests --test w3c -- test144 test2`. A folder chosen with
//! `SCXML_W3C_DIR` that does not exist or holds no test fails the run.

use scxml_scion_tests::run_isolated;
use scxml_w3c_tests::{
    Runner, TestCase, CASES, EXPECTED_FAILURES, W3C_DIR, W3C_DIR_EXPLICIT, W3C_DIR_FOUND,
};
use std::process::ExitCode;
use std::time::Duration;

/// A test that runs longer than this in real time is reported as failing (its thread is left
/// behind). Machine time is virtual; this only catches a runtime that loops.
const WALL_LIMIT: Duration = Duration::from_secs(20);

enum Outcome {
    Pass,
    Fail(String),
    Skip(String),
}

fn main() -> ExitCode {
    if !W3C_DIR_FOUND && W3C_DIR_EXPLICIT {
        println!("{W3C_DIR} does not exist (SCXML_W3C_DIR): nothing to run");
        return ExitCode::FAILURE;
    }
    if !W3C_DIR_FOUND {
        println!("W3C tests skipped: folder {W3C_DIR} not found (set SCXML_W3C_DIR)");
        return ExitCode::SUCCESS;
    }
    if CASES.is_empty() {
        // A folder without tests is most likely the wrong folder (the parent of `w3c`, say).
        println!("no txml/test*.txml (nor test*.txml) in {W3C_DIR}: nothing to run");
        return if W3C_DIR_EXPLICIT {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut unexpected = Vec::new();
    for case in CASES {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        let expected = EXPECTED_FAILURES.iter().find(|(n, _)| *n == case.name);
        match run(case) {
            Outcome::Pass => {
                passed += 1;
                println!("PASS {}", case.name);
                if expected.is_some() {
                    unexpected.push(format!(
                        "{} passes: remove it from EXPECTED_FAILURES",
                        case.name
                    ));
                }
            }
            Outcome::Fail(reason) => {
                failed += 1;
                let known =
                    expected.map_or(String::new(), |(_, why)| format!(" [expected: {why}]"));
                println!("FAIL {}{known}: {}", case.name, indent(&reason));
                if expected.is_none() {
                    unexpected.push(format!("{} fails", case.name));
                }
            }
            Outcome::Skip(reason) => {
                skipped += 1;
                println!("SKIP {}: {reason}", case.name);
            }
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    if !filters.is_empty() && passed + failed + skipped == 0 {
        println!("no test matches {filters:?}");
        return ExitCode::FAILURE;
    }
    if unexpected.is_empty() {
        ExitCode::SUCCESS
    } else {
        println!("unexpected: {}", unexpected.join("; "));
        ExitCode::FAILURE
    }
}

fn run(case: &'static TestCase) -> Outcome {
    let run = match case.run {
        Runner::Chart(run) => run,
        Runner::Broken(msg) => return Outcome::Fail(msg.to_owned()),
        Runner::Rejected(_) => return Outcome::Pass,
        Runner::Skip(msg) => return Outcome::Skip(msg.to_owned()),
    };
    // Each test runs on its own thread, so a panic or an endless loop is one failing test.
    match run_isolated(case.name, WALL_LIMIT, run) {
        Ok(()) => Outcome::Pass,
        Err(reason) => Outcome::Fail(reason),
    }
}

/// Multi-line messages (located compiler diagnostics) indented under their FAIL line.
fn indent(text: &str) -> String {
    text.trim_end().replace('\n', "\n    ")
}
