//! The human-technique solver and grader on real puzzles: every step agrees with the unique
//! solution, and grades rise with the datasets' difficulty.
//!
//! Datasets: the bundled `puzzles/*.data` of the game and, when present, samples of
//! `../shared/testdata/puzzles` (tests that need them print a note and pass when they are
//! absent).

use std::fs;
use std::path::{Path, PathBuf};

use sudoku_machine::datamodel::Grid;
use sudoku_machine::engine::grade::{grade_level, hardest_within, solvable_within};
use sudoku_machine::engine::techniques::{Board, HumanSolver, Technique};
use sudoku_machine::engine::{generate, grade, unique_solution, Level, Symmetry};
use sudoku_machine::puzzle;

/// The shared puzzle collections, if this checkout has them.
fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/puzzles");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "note: {} is absent; skipping the shared-dataset part of this test",
            dir.display()
        );
        None
    }
}

/// Every `step`-th puzzle of a shared dataset, at most `max` of them.
fn sample(dir: &Path, file: &str, step: usize, max: usize) -> Vec<Grid> {
    let text = fs::read_to_string(dir.join(file)).expect("dataset reads");
    puzzle::parse_lines(&text)
        .into_iter()
        .step_by(step)
        .take(max)
        .map(|r| r.expect("dataset line parses"))
        .collect()
}

/// The bundled puzzles whose file name contains `word`.
fn bundled(word: &str) -> Vec<Grid> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../puzzles");
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .expect("puzzles/ reads")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "data")
                && p.file_name().unwrap().to_string_lossy().contains(word)
        })
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| puzzle::parse(&fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

/// Solves `givens` to the end with techniques and search steps, checking that no placement
/// or elimination contradicts the unique solution. Returns the techniques used.
fn check_sound(givens: &Grid) -> Vec<Technique> {
    let solution = unique_solution(givens).expect("a proper puzzle");
    let path = HumanSolver::default().solve(Board::new(givens), Some(&solution), false);
    for step in &path.steps {
        for p in &step.placements {
            assert_eq!(
                solution.0[p.cell.row()][p.cell.col()],
                p.digit,
                "{step} in {}",
                puzzle::to_line(givens)
            );
        }
        for e in &step.eliminations {
            assert_ne!(
                solution.0[e.cell.row()][e.cell.col()],
                e.digit,
                "{step} in {}",
                puzzle::to_line(givens)
            );
        }
        assert!(
            !step.placements.is_empty() || !step.eliminations.is_empty(),
            "{step}"
        );
    }
    assert_eq!(path.board.grid(), solution);
    path.steps.iter().map(|s| s.technique).collect()
}

#[test]
fn every_step_agrees_with_the_solution() {
    let mut puzzles: Vec<Grid> = bundled("");
    if let Some(dir) = shared_dir() {
        puzzles.extend(sample(&dir, "puzzles2_17_clue.txt", 997, 30));
        puzzles.extend(sample(&dir, "puzzles3_magictour_top1465.txt", 29, 50));
        puzzles.extend(sample(&dir, "puzzles6_forum_hardest_1106.txt", 37, 10));
    }
    let mut used = std::collections::BTreeSet::new();
    for p in &puzzles {
        used.extend(check_sound(p));
    }
    eprintln!("techniques used: {used:?}");
    // The sample is wide enough to exercise most techniques on real puzzles.
    assert!(used.len() >= 10, "{used:?}");
}

/// The median level of a list of puzzles (the lower middle for an even count).
fn median_level(puzzles: &[Grid]) -> Level {
    let mut levels: Vec<Level> = puzzles
        .iter()
        .map(|p| grade(p).expect("proper puzzle").level)
        .collect();
    levels.sort();
    levels[(levels.len() - 1) / 2]
}

/// "Monotone" here: taking the datasets in their documented order of difficulty, the median
/// grade of each is at least the median grade of the one before, and the last is above the
/// first. The bundled puzzles go easy, medium, hard, hardest; the shared lists go 17-clue
/// (mostly easy or medium), top1465 (harder), the forum's hardest lists (Extreme).
#[test]
fn grades_are_monotone_over_datasets() {
    let mut datasets: Vec<(&str, Vec<Grid>)> = vec![
        ("bundled easy", bundled("easy")),
        ("bundled medium", bundled("medium")),
        ("bundled hard", bundled("-hard")),
        ("bundled hardest", bundled("hardest")),
    ];
    check_monotone(&datasets);
    if let Some(dir) = shared_dir() {
        datasets = vec![
            ("17-clue", sample(&dir, "puzzles2_17_clue.txt", 1229, 40)),
            (
                "top1465",
                sample(&dir, "puzzles3_magictour_top1465.txt", 37, 40),
            ),
            (
                "hardest 1905",
                sample(&dir, "puzzles5_forum_hardest_1905_11+.txt", 1249, 20),
            ),
            (
                "hardest 1106",
                sample(&dir, "puzzles6_forum_hardest_1106.txt", 19, 20),
            ),
        ];
        check_monotone(&datasets);
        assert_eq!(median_level(&datasets[3].1), Level::Extreme);
        assert!(median_level(&datasets[0].1) <= Level::Medium);
    }
}

fn check_monotone(datasets: &[(&str, Vec<Grid>)]) {
    let medians: Vec<(&str, Level)> = datasets
        .iter()
        .map(|(name, puzzles)| {
            assert!(!puzzles.is_empty(), "{name} is empty");
            (*name, median_level(puzzles))
        })
        .collect();
    eprintln!("median grades: {medians:?}");
    for pair in medians.windows(2) {
        assert!(pair[0].1 <= pair[1].1, "not monotone: {medians:?}");
    }
    assert!(
        medians[0].1 < medians[medians.len() - 1].1,
        "flat: {medians:?}"
    );
}

/// Cross-check with the search solver's trace, which propagates singles and locked
/// candidates before it guesses: a puzzle it finishes without a guess grades at most Medium,
/// and a puzzle whose human solve uses only singles and locked candidates needs no guess
/// there.
#[test]
fn grader_agrees_with_the_propagating_solver() {
    use sudoku_machine::engine::{trace, TraceStep};
    let mut puzzles = bundled("");
    if let Some(dir) = shared_dir() {
        puzzles.extend(sample(&dir, "puzzles2_17_clue.txt", 1999, 25));
        puzzles.extend(sample(&dir, "puzzles3_magictour_top1465.txt", 61, 24));
    }
    let mut checked = 0;
    for p in &puzzles {
        let guessed = trace(p).any(|s| matches!(s, TraceStep::Guess { .. }));
        let g = grade(p).expect("proper");
        if !guessed {
            checked += 1;
            assert!(
                g.level <= Level::Medium,
                "{} {:?}",
                puzzle::to_line(p),
                g.hardest
            );
        }
        let only_singles_and_locked = g.steps.iter().all(|s| {
            matches!(
                s.technique,
                Technique::HiddenSingle
                    | Technique::NakedSingle
                    | Technique::Pointing
                    | Technique::Claiming
            )
        });
        if only_singles_and_locked {
            assert!(!guessed, "{}", puzzle::to_line(p));
        }
    }
    assert!(checked > 5);
}

/// The quick grading (batched singles, no steps, no explanations) agrees with the step by
/// step solve: the same level and hardest technique as [`grade`], and the same answer to
/// "solvable within this level" as a limited [`HumanSolver`], on the bundled puzzles,
/// samples of the shared collections and generated puzzles of every level.
#[test]
fn quick_grading_agrees_with_the_step_by_step_solve() {
    let mut puzzles: Vec<Grid> = bundled("");
    if let Some(dir) = shared_dir() {
        puzzles.extend(sample(&dir, "puzzles2_17_clue.txt", 1499, 25));
        puzzles.extend(sample(&dir, "puzzles3_magictour_top1465.txt", 61, 20));
        puzzles.extend(sample(&dir, "puzzles6_forum_hardest_1106.txt", 75, 5));
    }
    for (k, level) in Level::ALL.into_iter().enumerate() {
        for seed in 0..4 {
            puzzles.push(generate(level, 100 * k as u64 + seed, Symmetry::None).puzzle);
        }
    }
    for p in &puzzles {
        let g = grade(p).expect("proper puzzle");
        assert_eq!(
            grade_level(p).unwrap(),
            (g.level, g.hardest),
            "{}",
            puzzle::to_line(p)
        );
        for level in &Level::ALL[..4] {
            let max = level.hardest_technique();
            let slow = HumanSolver { max }.solve(Board::new(p), None, true);
            assert_eq!(solvable_within(p, *level), slow.board.is_solved());
            assert_eq!(
                hardest_within(p, max),
                (slow.hardest(), slow.board.is_solved()),
                "{level} {}",
                puzzle::to_line(p)
            );
        }
    }
}
