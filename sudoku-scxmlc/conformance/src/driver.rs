//! The run of a suite: filtering, isolation, counting and the verdict.

use std::process::ExitCode;
use std::time::Duration;

/// What one case came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It passed.
    Pass,
    /// It failed: why (may span lines: located compiler diagnostics).
    Fail(String),
    /// It was not run: why (out of scope for the rust and null datamodels).
    Skip(String),
}

/// A suite as its runner describes it.
#[derive(Debug, Clone, Copy)]
pub struct Suite<'a> {
    /// Its name in messages (`W3C`, `SCION`).
    pub name: &'a str,
    /// The folder its case table was built from.
    pub dir: &'a str,
    /// Whether that folder existed at build time.
    pub found: bool,
    /// The environment variable that chooses another folder.
    pub env_var: &'a str,
    /// What a case file looks like, for the message when there is none (`txml/test*.txml`).
    pub layout: &'a str,
    /// For a suite run more than once (in several datamodels): the name of this run, which
    /// starts its summary line (`rust: N passed, N failed, N skipped`).
    pub run: Option<&'a str>,
}

/// The counts of a run, and the ids of the cases that failed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases that passed, by id, in run order.
    pub passed: Vec<String>,
    /// Cases that failed, by id, in run order.
    pub failed: Vec<String>,
    /// Cases that were skipped.
    pub skipped: usize,
}

impl Tally {
    /// How many cases ran or were skipped.
    pub fn total(&self) -> usize {
        self.passed.len() + self.failed.len() + self.skipped
    }
}

/// Runs the cases of `suite` whose id (`id(case)`) contains one of the non-flag command-line
/// arguments (all of them without such arguments), prints one line per case and the
/// closing `N passed, N failed, N skipped`, and returns the process's exit code:
///
/// - failure when the folder does not exist or holds no case, or when no case passed the
///   filter: a run that tests nothing must not look green;
/// - otherwise what `verdict` says of the tally (`Err` holds the line to print).
///
/// `run` runs one case; give it [`run_isolated`] for anything that may panic or loop.
pub fn run_suite<C>(
    suite: &Suite<'_>,
    cases: &[C],
    id: impl Fn(&C) -> String,
    run: impl Fn(&C) -> Outcome,
    verdict: impl FnOnce(&Tally) -> Result<(), String>,
) -> ExitCode {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    run_filtered(suite, &filters, cases, id, run, verdict)
}

/// [`run_suite`] with the filters given rather than read from the command line.
pub fn run_filtered<C>(
    suite: &Suite<'_>,
    filters: &[String],
    cases: &[C],
    id: impl Fn(&C) -> String,
    run: impl Fn(&C) -> Outcome,
    verdict: impl FnOnce(&Tally) -> Result<(), String>,
) -> ExitCode {
    if !suite.found {
        println!(
            "{} tests folder {} does not exist (set {} to another): nothing to run",
            suite.name, suite.dir, suite.env_var
        );
        return ExitCode::FAILURE;
    }
    if cases.is_empty() {
        println!(
            "no {} in {}: nothing to run ({} chooses the {} tests folder)",
            suite.layout, suite.dir, suite.env_var, suite.name
        );
        return ExitCode::FAILURE;
    }
    let mut tally = Tally::default();
    for case in cases {
        let name = id(case);
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        match run(case) {
            Outcome::Pass => {
                println!("PASS {name}");
                tally.passed.push(name);
            }
            Outcome::Fail(reason) => {
                println!("FAIL {name}: {}", indent(&reason));
                tally.failed.push(name);
            }
            Outcome::Skip(reason) => {
                tally.skipped += 1;
                println!("SKIP {name}: {reason}");
            }
        }
    }
    println!(
        "{}{} passed, {} failed, {} skipped",
        suite.run.map_or(String::new(), |r| format!("{r}: ")),
        tally.passed.len(),
        tally.failed.len(),
        tally.skipped
    );
    if tally.total() == 0 {
        println!("no test matches {filters:?}");
        return ExitCode::FAILURE;
    }
    if tally.passed.len() + tally.failed.len() == 0 {
        println!("every selected test was skipped: nothing was tested");
        return ExitCode::FAILURE;
    }
    match verdict(&tally) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            println!("{why}");
            ExitCode::FAILURE
        }
    }
}

/// Multi-line messages indented under their `FAIL` line.
fn indent(text: &str) -> String {
    text.trim_end().replace('\n', "\n    ")
}

/// Runs one test on a thread of its own named `name`, so that a panic or an endless loop is
/// one failing test rather than the end of a run.
///
/// # Errors
/// What `test` returned, or "did not finish within N s of real time" after `limit` (the thread
/// is left behind), or `"panicked: <message>"`.
pub fn run_isolated<F>(name: &str, limit: Duration, test: F) -> Result<(), String>
where
    F: FnOnce() -> Result<(), String> + Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let _ = tx.send(test());
        })
        .map_err(|e| format!("could not spawn a test thread: {e}"))?;
    match rx.recv_timeout(limit) {
        Ok(result) => result,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(format!(
            "did not finish within {} s of real time",
            limit.as_secs()
        )),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            let panic = handle.join().err().map_or_else(
                || "the test thread ended without a result".to_owned(),
                |p| {
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                        .unwrap_or_else(|| "non-string panic payload".to_owned())
                },
            );
            Err(format!("panicked: {panic}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isolated_panics_and_loops_are_failures() {
        assert_eq!(
            run_isolated("ok", Duration::from_secs(5), || Ok(())),
            Ok(())
        );
        let err = run_isolated("boom", Duration::from_secs(5), || panic!("boom")).unwrap_err();
        assert_eq!(err, "panicked: boom");
        let err = run_isolated("spin", Duration::from_millis(10), || {
            std::thread::sleep(Duration::from_secs(1));
            Ok(())
        })
        .unwrap_err();
        assert!(err.starts_with("did not finish within"), "{err}");
    }

    fn suite(found: bool) -> Suite<'static> {
        Suite {
            name: "T",
            dir: "/nowhere",
            found,
            env_var: "T_DIR",
            layout: "t*.t",
            run: None,
        }
    }

    #[test]
    fn a_run_that_tests_nothing_fails() {
        let none: &[u8] = &[];
        let pass = |_: &u8| Outcome::Pass;
        let ok = |_: &Tally| Ok(());
        assert_eq!(
            run_filtered(&suite(false), &[], &[1u8], |c| c.to_string(), pass, ok),
            ExitCode::FAILURE
        );
        assert_eq!(
            run_filtered(&suite(true), &[], none, |c| c.to_string(), pass, ok),
            ExitCode::FAILURE
        );
        let skip = |_: &u8| Outcome::Skip("out of scope".into());
        assert_eq!(
            run_filtered(&suite(true), &[], &[1u8, 2], |c| c.to_string(), skip, ok),
            ExitCode::FAILURE
        );
        assert_eq!(
            run_filtered(&suite(true), &[], &[1u8, 2], |c| c.to_string(), pass, ok),
            ExitCode::SUCCESS
        );
    }

    #[test]
    fn the_verdict_sees_the_failures() {
        let run = |c: &u8| {
            if *c == 2 {
                Outcome::Fail("two".into())
            } else {
                Outcome::Pass
            }
        };
        let mut seen = None;
        let code = run_filtered(
            &suite(true),
            &[],
            &[1u8, 2, 3],
            |c| format!("case{c}"),
            run,
            |t| {
                seen = Some(t.clone());
                Err("1 failed".into())
            },
        );
        assert_eq!(code, ExitCode::FAILURE);
        let t = seen.unwrap();
        assert_eq!(t.passed, ["case1", "case3"]);
        assert_eq!(
            (t.failed.as_slice(), t.skipped),
            (&["case2".to_owned()][..], 0)
        );
        let only = ["case3".to_owned()];
        let code = run_filtered(
            &suite(true),
            &only,
            &[1u8, 2, 3],
            |c| format!("case{c}"),
            run,
            |t| {
                assert_eq!(t.passed, ["case3"]);
                Ok(())
            },
        );
        assert_eq!(code, ExitCode::SUCCESS);
        let nothing = ["case9".to_owned()];
        let code = run_filtered(
            &suite(true),
            &nothing,
            &[1u8],
            |c| format!("case{c}"),
            run,
            |_| Ok(()),
        );
        assert_eq!(code, ExitCode::FAILURE);
    }
}
