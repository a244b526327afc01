//! Datasets for the engine benchmarks (`benches/solve.rs`) and the `ratio` example.
//!
//! The puzzles come from `shared/testdata/puzzles`, which sits beside the project root and is
//! not part of the repository: [`datasets`] returns `None` (and the benchmarks print a message
//! and do nothing) when it is absent.

use std::path::PathBuf;

use sudoku_machine::datamodel::Grid;

/// One benchmark dataset: a fixed list of puzzles from one file.
pub struct Dataset {
    /// A short name for reports, e.g. `17-clue`.
    pub name: &'static str,
    /// The file it was read from, relative to `shared/testdata/puzzles`.
    pub file: &'static str,
    /// The puzzles as 81-character lines (`.` for empty), for the `sudoku` crate.
    pub lines: Vec<String>,
    /// The same puzzles as grids, for our engine.
    pub grids: Vec<Grid>,
}

/// The datasets: name, file and how many puzzles to take from the start of the file.
/// The hardest 11+ list (48,766 puzzles) is cut to a fixed subset of its first 10,000.
pub const DATASETS: [(&str, &str, usize); 5] = [
    ("17-clue", "puzzles2_17_clue.txt", usize::MAX),
    ("top1465", "puzzles3_magictour_top1465.txt", usize::MAX),
    (
        "hardest 11+ (first 10k)",
        "puzzles5_forum_hardest_1905_11+.txt",
        10_000,
    ),
    (
        "hardest_1106",
        "puzzles6_forum_hardest_1106.txt",
        usize::MAX,
    ),
    ("serg benchmark", "puzzles7_serg_benchmark.txt", usize::MAX),
];

/// `shared/testdata/puzzles`, found from this crate's directory (`sudoku-machine/bench`).
pub fn puzzle_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/testdata/puzzles"
    ))
}

/// A grid from an 81-character line (`.` or `0` for empty).
pub fn grid_of(line: &str) -> Option<Grid> {
    let bytes = line.as_bytes();
    if bytes.len() != 81 {
        return None;
    }
    let mut grid = Grid::default();
    for (i, &b) in bytes.iter().enumerate() {
        grid.0[i / 9][i % 9] = match b {
            b'1'..=b'9' => b - b'0',
            b'.' | b'0' => 0,
            _ => return None,
        };
    }
    Some(grid)
}

/// Every dataset of [`DATASETS`], or `None` with a printed message when `shared/` is absent.
pub fn datasets() -> Option<Vec<Dataset>> {
    let dir = puzzle_dir();
    let mut out = Vec::new();
    for (name, file, take) in DATASETS {
        let path = dir.join(file);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                println!(
                    "SKIPPED: {} is not readable ({e}); shared/ is absent, nothing to benchmark",
                    path.display()
                );
                return None;
            }
        };
        let lines: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .map(|l| l[..81].to_owned())
            .take(take)
            .collect();
        let grids = lines
            .iter()
            .map(|l| grid_of(l).unwrap_or_else(|| panic!("{file}: bad line {l}")))
            .collect();
        out.push(Dataset {
            name,
            file,
            lines,
            grids,
        });
    }
    Some(out)
}
