//! Property tests: random event sequences through every compiled chart (the SCION charts,
//! the compiler's feature chart and the Sudoku game's chart) never panic and always leave a
//! legal configuration.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use scxml_scion_tests::{walk, WalkFn, WALKS};

mod features {
    #![allow(dead_code, reason = "only the chart type is walked here")]
    include!(concat!(env!("OUT_DIR"), "/features.rs"));
}

fn run(name: &str, f: WalkFn) {
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&vec(any::<u16>(), 0..40), |picks| {
        f(&picks).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

#[test]
fn random_events_keep_every_scion_chart_legal() {
    if WALKS.is_empty() {
        println!("SCION charts not found: only the other charts are walked");
    }
    for (name, f) in WALKS {
        run(name, *f);
    }
}

#[test]
fn random_events_keep_the_feature_chart_legal() {
    run("features", walk::<features::FeaturesChart>);
}

#[test]
fn random_events_keep_the_sudoku_chart_legal() {
    run("sudoku", walk::<sudoku_machine::SudokuChart>);
}
