//! Every puzzle the game bundles (`../puzzles/*.data`) parses and has exactly one solution,
//! the same checks the game's `build.rs` makes.

use std::path::Path;

use sudoku_machine::engine::{count_solutions, solve};
use sudoku_machine::puzzle::{parse, to_qt_data};

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../puzzles");

/// `(file name, text)` of every `.data` file, sorted by file name.
fn bundled() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(PUZZLES)
        .expect("the puzzles folder is part of the repository")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "data"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_bundled_puzzle_has_exactly_one_solution() {
    let files = bundled();
    assert!(files.len() >= 12, "only {} puzzles", files.len());
    for (name, text) in &files {
        let grid =
            parse(text).unwrap_or_else(|e| panic!("puzzles/{name}:{}: {}", e.line, e.message));
        assert_eq!(count_solutions(&grid, 2), 1, "puzzles/{name}");
        assert!(solve(&grid).is_some(), "puzzles/{name}");
        assert_eq!(
            &to_qt_data(&grid),
            text,
            "puzzles/{name} is not in Qt's exact layout"
        );
    }
}

#[test]
fn nearly_solved_sorts_first_and_needs_four_in_the_corner() {
    let files = bundled();
    assert_eq!(files[0].0, "nearly-solved-sudoku.data");
    let grid = parse(&files[0].1).unwrap();
    let empty: Vec<(usize, usize)> = (0..81)
        .map(|i| (i / 9, i % 9))
        .filter(|&(r, c)| grid.0[r][c] == 0)
        .collect();
    assert_eq!(empty, [(0, 0)]);
    assert_eq!(solve(&grid).unwrap().0[0][0], 4);
}

#[test]
fn qt_puzzles_are_unchanged() {
    let shared = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/reference/qt-sudoku/data"
    ));
    if !shared.is_dir() {
        println!(
            "SKIPPED: {} is absent; shared/ is not beside the project",
            shared.display()
        );
        return;
    }
    for name in ["nearly-solved-sudoku.data", "sudoku.data"] {
        let ours = std::fs::read(Path::new(PUZZLES).join(name)).unwrap();
        let qt = std::fs::read(shared.join(name)).unwrap();
        assert_eq!(ours, qt, "puzzles/{name} differs from Qt's");
    }
}
