//! The solver against the public puzzle collections in `../shared/testdata/puzzles`.
//!
//! `shared/` sits beside the project root (`/work/shared` for `/work/main`); it is not part of
//! the repository, so each test prints a message and passes when its file is absent.

use std::path::PathBuf;
use std::time::Instant;

use sudoku_machine::datamodel::{is_solved, Grid};
use sudoku_machine::engine::{
    classify, count_solutions, solve, trace, Clash, Classification, House, TraceStep,
};
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
        let class = classify(&grid);
        match expected {
            "unique" => {
                assert_eq!(count, 1, "{context}");
                let solution = solve(&grid).unwrap();
                assert_completes(&grid, &solution, &context);
                assert_eq!(class, Classification::Unique(solution), "{context}");
            }
            "multiple" => {
                assert_eq!(count, 2, "{context}");
                assert_eq!(class, Classification::Multiple, "{context}");
            }
            "none" => {
                assert_eq!(count, 0, "{context}");
                assert_eq!(solve(&grid), None, "{context}");
                assert_eq!(class, Classification::None, "{context}");
            }
            "invalid" => {
                assert_eq!(count, 0, "{context}");
                assert!(parse(cells).is_err(), "{context}: parse accepts a clash");
                let Classification::Invalid(clashes) = class else {
                    panic!("{context}: classified as {class:?}");
                };
                assert!(!clashes.is_empty(), "{context}");
                for clash in &clashes {
                    assert_names_a_real_clash(&grid, clash, &context);
                }
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
        let class = classify(&grid);
        match expected {
            0 => assert!(
                matches!(class, Classification::None | Classification::Invalid(_)),
                "{context}: {class:?}"
            ),
            1 => assert!(matches!(class, Classification::Unique(_)), "{context}"),
            _ => assert_eq!(class, Classification::Multiple, "{context}"),
        }
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

/// The first `take` puzzles of a collection of unique puzzles: each parses, has one
/// solution, and `solve` completes it. Prints the time per puzzle (debug builds are several
/// times slower than release; the benchmarks are in `sudoku-machine/bench`).
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
fn hardest_1106_sample_is_unique_and_solved() {
    check_unique_collection("puzzles6_forum_hardest_1106.txt", 120);
}

#[test]
fn hardest_11_plus_sample_is_unique_and_solved() {
    check_unique_collection("puzzles5_forum_hardest_1905_11+.txt", 120);
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
        let context = format!("serg benchmark puzzle {}", i + 1);
        assert_eq!(count_solutions(&grid, 2), 2, "{context}");
        assert_eq!(classify(&grid), Classification::Multiple, "{context}");
        assert_completes(&grid, &solve(&grid).unwrap(), &context);
    }
}

#[test]
fn qt_example_puzzles_are_unique() {
    check_unique_collection("qt_scxml_example.txt", usize::MAX);
}

/// The clash names two cells of its house that both hold its digit.
fn assert_names_a_real_clash(grid: &Grid, clash: &Clash, context: &str) {
    for (r, c) in clash.cells {
        assert_eq!(grid.0[r][c], clash.digit, "{context}: {clash}");
        let inside = match clash.house {
            House::Row(n) => r == usize::from(n),
            House::Column(n) => c == usize::from(n),
            House::Box(n) => r / 3 * 3 + c / 3 == usize::from(n),
        };
        assert!(inside, "{context}: {clash} is not in its house");
    }
    assert_ne!(clash.cells[0], clash.cells[1], "{context}");
}

#[test]
fn invalid_puzzles_name_the_clash() {
    let row = raw_grid(
        ".4.1..35.............2.5......4.89..26.....12.5.3....7..4...16.6....7....1..8..2.",
    );
    let Classification::Invalid(clashes) = classify(&row) else {
        panic!("not invalid");
    };
    for clash in &clashes {
        assert_names_a_real_clash(&row, clash, "row clash");
    }
    assert!(clashes.iter().any(|c| matches!(c.house, House::Row(_))));

    let mut g = Grid::default();
    g.0[1][7] = 9;
    g.0[7][7] = 9;
    g.0[0][0] = 4;
    g.0[2][2] = 4;
    assert_eq!(
        classify(&g),
        Classification::Invalid(vec![
            Clash {
                digit: 9,
                house: House::Column(7),
                cells: [(1, 7), (7, 7)],
            },
            Clash {
                digit: 4,
                house: House::Box(0),
                cells: [(0, 0), (2, 2)],
            },
        ])
    );
    assert_eq!(
        Classification::Invalid(vec![]),
        classify(&Grid([[10; 9]; 9])),
        "values above 9 are invalid without a clash to name"
    );
}

/// Replays a trace: placements fill the grid, a backtrack restores its grid, and the
/// end is `Solved` with the replayed grid.
fn replay(givens: &Grid) -> Option<Grid> {
    let mut grid = Grid::default();
    for step in trace(givens) {
        match &step {
            TraceStep::Place { cell: (r, c), .. } => assert_eq!(grid.0[*r][*c], 0),
            TraceStep::Solved(solution) => {
                assert_eq!(*solution, grid);
                return Some(*solution);
            }
            TraceStep::Failed => return None,
            _ => {}
        }
        step.apply(&mut grid);
    }
    panic!("the trace did not end with Solved or Failed");
}

#[test]
fn traces_replay_to_the_solution() {
    let Some(text) = dataset("puzzles6_forum_hardest_1106.txt") else {
        return;
    };
    for result in parse_lines(&text).into_iter().take(3) {
        let grid = result.unwrap();
        assert_eq!(replay(&grid), solve(&grid));
    }
    let Some(text) = dataset("tdoku_test_puzzles_with_counts.txt") else {
        return;
    };
    for (line, record) in records(&text) {
        let fields: Vec<&str> = record.split(':').collect();
        let grid = raw_grid(fields[0]);
        let expected: usize = fields[1].parse().unwrap();
        let replayed = replay(&grid);
        assert_eq!(replayed.is_some(), expected > 0, "line {line}");
        if let Some(solution) = replayed {
            assert_completes(&grid, &solution, &format!("line {line}"));
        }
    }
}

#[test]
fn sparse_grids_are_instant() {
    // Debug builds are far slower than release (where each of these takes microseconds), so
    // the bound is loose; it catches a search that explores instead of stopping at the limit.
    let start = Instant::now();
    assert_eq!(count_solutions(&Grid::default(), 2), 2);
    assert_eq!(count_solutions(&Grid::default(), 1000), 1000);
    let mut one = Grid::default();
    one.0[0][0] = 1;
    assert_eq!(count_solutions(&one, 2), 2);
    // A sparse grid without a solution: row 1 needs a 9 in its last cell, which column 9
    // forbids (found by propagation, no search).
    let mut none = Grid::default();
    none.0[0] = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    none.0[8][8] = 9;
    assert_eq!(count_solutions(&none, 2), 0);
    // No place for 1 in box 1: rows 2 and 3 and columns 1 and 2 hold a 1 outside the box,
    // and the one cell left, row 1 column 3, holds a 2.
    let mut boxed = Grid::default();
    boxed.0[1][4] = 1;
    boxed.0[2][7] = 1;
    boxed.0[4][0] = 1;
    boxed.0[7][1] = 1;
    boxed.0[0][2] = 2;
    boxed.0[0][0] = 3;
    boxed.0[0][1] = 4;
    assert_eq!(count_solutions(&boxed, 2), 0);
    assert!(
        start.elapsed().as_millis() < 500,
        "took {:?}",
        start.elapsed()
    );
}
