//! The solver against the public puzzle collections in `../shared/testdata/puzzles`.
//!
//! `shared/` sits beside the project root (`/work/shared` for `/work/main`); it is not part of
//! the repository, so each test prints a message and passes when its file is absent.

use std::path::PathBuf;
use std::time::Instant;

use sudoku_machine::datamodel::{is_solved, Grid};
use sudoku_machine::engine::{count_solutions, solve};
use sudoku_machine::puzzle::{parse, parse_lines};

/// Reads `shared/testdata/puzzles/NAME`, or `None` (with a printed reason) when it is absent.
fn dataset(name: &str) -> Option<String> {
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/testdata/puzzles"
    ))
    .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            println!(
                "SKIPPED: {} is not readable ({e}); shared/ is absent",
                path.display()
            );
            None
        }
    }
}

fn assert_completes(givens: &Grid, solution: &Grid, context: &str) {
    assert!(is_solved(solution), "{context}: not a solved grid");
    for (g, s) in givens.0.iter().flatten().zip(solution.0.iter().flatten()) {
        assert!(*g == 0 || g == s, "{context}: the solution changes a given");
    }
}

/// Non-comment lines with their 1-based line numbers.
fn records(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// A grid from the first 81 characters of a record, without the clash check of
/// [`parse`], so invalid givens reach the solver too.
fn raw_grid(cells: &str) -> Grid {
    let bytes = cells.as_bytes();
    assert_eq!(bytes.len(), 81, "{cells}");
    Grid(std::array::from_fn(|r| {
        std::array::from_fn(|c| match bytes[r * 9 + c] {
            d @ b'1'..=b'9' => d - b'0',
            _ => 0,
        })
    }))
}

#[test]
fn edge_cases_have_the_expected_class() {
    let Some(text) = dataset("edge_cases.txt") else {
        return;
    };
    let mut checked = 0;
    for (line, record) in records(&text) {
        let fields: Vec<&str> = record.split('|').collect();
        let (cells, expected, note) = (fields[0], fields[1], fields[2]);
        let grid = raw_grid(cells);
        let count = count_solutions(&grid, 2);
        let context = format!("edge_cases.txt:{line} ({note})");
        match expected {
            "unique" => {
                assert_eq!(count, 1, "{context}");
                assert_completes(&grid, &solve(&grid).unwrap(), &context);
            }
            "multiple" => assert_eq!(count, 2, "{context}"),
            "none" => {
                assert_eq!(count, 0, "{context}");
                assert_eq!(solve(&grid), None, "{context}");
            }
            "invalid" => {
                assert_eq!(count, 0, "{context}");
                assert!(parse(cells).is_err(), "{context}: parse accepts a clash");
            }
            other => panic!("{context}: unknown class `{other}`"),
        }
        checked += 1;
    }
    assert_eq!(checked, 10);
}

#[test]
fn tdoku_test_puzzles_have_the_expected_counts() {
    let Some(text) = dataset("tdoku_test_puzzles_with_counts.txt") else {
        return;
    };
    let mut checked = 0;
    for (line, record) in records(&text) {
        let fields: Vec<&str> = record.split(':').collect();
        let grid = raw_grid(fields[0]);
        let expected: usize = fields[1].parse().unwrap();
        let context = format!("tdoku_test_puzzles_with_counts.txt:{line}");
        assert_eq!(count_solutions(&grid, 10_000), expected, "{context}");
        assert_eq!(count_solutions(&grid, 2), expected.min(2), "{context}");
        match (solve(&grid), fields.get(2)) {
            (Some(found), Some(solution)) => {
                assert_completes(&grid, &found, &context);
                if expected == 1 {
                    assert_eq!(found, raw_grid(solution), "{context}");
                }
            }
            (Some(found), None) => assert_completes(&grid, &found, &context),
            (None, _) => assert_eq!(expected, 0, "{context}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 43);
}

/// Every puzzle of a collection of unique puzzles: parses, has one solution, and `solve`
/// completes it. Prints the time per puzzle (debug builds are several times slower).
fn check_unique_collection(name: &str, take: usize) {
    let Some(text) = dataset(name) else {
        return;
    };
    let grids: Vec<Grid> = parse_lines(&text)
        .into_iter()
        .take(take)
        .map(|result| result.unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect();
    let start = Instant::now();
    for (i, grid) in grids.iter().enumerate() {
        assert_eq!(count_solutions(grid, 2), 1, "{name}: puzzle {}", i + 1);
        let solution = solve(grid).unwrap();
        assert_completes(grid, &solution, &format!("{name}: puzzle {}", i + 1));
    }
    let per_puzzle = start.elapsed() / grids.len().max(1) as u32;
    println!("{name}: {} puzzles, {per_puzzle:?} per puzzle", grids.len());
}

#[test]
fn hardest_1106_are_unique_and_solved() {
    check_unique_collection("puzzles6_forum_hardest_1106.txt", usize::MAX);
}

#[test]
fn magictour_top1465_sample_is_unique_and_solved() {
    check_unique_collection("puzzles3_magictour_top1465.txt", 300);
}

#[test]
fn seventeen_clue_sample_is_unique_and_solved() {
    check_unique_collection("puzzles2_17_clue.txt", 300);
}

#[test]
fn serg_benchmark_sample_has_several_solutions() {
    let Some(text) = dataset("puzzles7_serg_benchmark.txt") else {
        return;
    };
    for (i, result) in parse_lines(&text).into_iter().take(300).enumerate() {
        let grid = result.unwrap();
        assert_eq!(
            count_solutions(&grid, 2),
            2,
            "serg benchmark puzzle {}",
            i + 1
        );
    }
}

#[test]
fn sparse_grids_are_instant() {
    let start = Instant::now();
    assert_eq!(count_solutions(&Grid::default(), 2), 2);
    let mut one = Grid::default();
    one.0[0][0] = 1;
    assert_eq!(count_solutions(&one, 2), 2);
    assert!(
        start.elapsed().as_millis() < 500,
        "took {:?}",
        start.elapsed()
    );
}
