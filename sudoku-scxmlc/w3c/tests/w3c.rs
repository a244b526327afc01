//! Runs every W3C test of the tables `build.rs` generated, once rewritten for the `rust`
//! datamodel ([`CASES`]) and once for the `ecmascript` one ([`ECMA_CASES`]), and prints one
//! line per test: `PASS test144`, `FAIL test189: reason` or `SKIP test201: reason`, then
//! per run `rust: N passed, N failed, N skipped` and `ecmascript: N passed, N failed, N
//! skipped` (the shared driver of `scxml-conformance`).
//!
//! The run fails when a test fails that is not in the run's expected failures
//! (`EXPECTED_FAILURES`, `ECMA_EXPECTED_FAILURES`), when a test listed there passes (so that
//! the list stays true), and when no test ran (the folder, the repository's `testdata` or
//! one chosen with `SCXML_W3C_DIR`, is missing or empty, or the filters match nothing).
//! Arguments that are not flags filter by test name:
//! `cargo test -p scxml-w3c-tests --test w3c -- test144 test2`.

use scxml_conformance::{run_isolated, run_suite, Outcome, Suite};
use scxml_w3c_tests::{
    Runner, TestCase, CASES, ECMA_CASES, ECMA_EXPECTED_FAILURES, EXPECTED_FAILURES, W3C_DIR,
    W3C_DIR_FOUND,
};
use std::process::ExitCode;
use std::time::Duration;

/// A test that runs longer than this in real time is reported as failing (its thread is left
/// behind). Machine time is virtual; this only catches a runtime that loops.
const WALL_LIMIT: Duration = Duration::from_secs(20);

fn main() -> ExitCode {
    let rust = run_datamodel("rust", CASES, EXPECTED_FAILURES);
    let ecmascript = run_datamodel("ecmascript", ECMA_CASES, ECMA_EXPECTED_FAILURES);
    if rust == ExitCode::SUCCESS && ecmascript == ExitCode::SUCCESS {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// One run of the suite, its summary line starting with `datamodel:`.
fn run_datamodel(
    datamodel: &'static str,
    cases: &'static [TestCase],
    expected: &'static [(&'static str, &'static str)],
) -> ExitCode {
    let suite = Suite {
        name: "W3C",
        dir: W3C_DIR,
        found: W3C_DIR_FOUND,
        env_var: "SCXML_W3C_DIR",
        layout: "txml/test*.txml (nor test*.txml)",
        run: Some(datamodel),
    };
    run_suite(
        &suite,
        cases,
        |c| c.name.to_owned(),
        |c| run(c, expected),
        |tally| {
            let mut unexpected = Vec::new();
            for (name, _) in expected {
                if tally.passed.iter().any(|p| p == name) {
                    unexpected.push(format!(
                        "{datamodel}: {name} passes: remove it from the expected failures"
                    ));
                }
            }
            for name in &tally.failed {
                if !expected.iter().any(|(n, _)| n == name) {
                    unexpected.push(format!("{datamodel}: {name} fails"));
                }
            }
            if unexpected.is_empty() {
                Ok(())
            } else {
                Err(format!("unexpected: {}", unexpected.join("; ")))
            }
        },
    )
}

fn run(case: &TestCase, expected: &[(&str, &str)]) -> Outcome {
    let run = match case.run {
        Runner::Chart(run) => run,
        Runner::Broken(msg) => return Outcome::Fail(msg.to_owned()),
        Runner::Rejected(_) => return Outcome::Pass,
        Runner::Skip(msg) => return Outcome::Skip(msg.to_owned()),
    };
    let outcome = match run_isolated(case.name, WALL_LIMIT, run) {
        Ok(()) => Outcome::Pass,
        Err(reason) => Outcome::Fail(reason),
    };
    match (outcome, expected.iter().find(|(n, _)| *n == case.name)) {
        (Outcome::Fail(reason), Some((_, why))) => {
            Outcome::Fail(format!("[expected: {why}] {reason}"))
        }
        (outcome, _) => outcome,
    }
}
