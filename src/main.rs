//! The Sudoku desktop game: a port of Qt's SCXML Sudoku example.
//!
//! The bundled puzzles (`puzzles/*.data`) are validated and embedded by `build.rs`, which
//! writes `BUNDLED_PUZZLES` as `(name, Qt .data text)` pairs sorted by file name; the window
//! lives in `sudoku-ui` and the game's state chart in `sudoku-machine`.

use sudoku_machine::puzzle::{self, Puzzle};

include!(concat!(env!("OUT_DIR"), "/bundled_puzzles.rs"));

fn main() {
    let puzzles = BUNDLED_PUZZLES
        .iter()
        .map(|&(name, text)| Puzzle {
            name: name.to_owned(),
            givens: puzzle::parse(text)
                .expect("build.rs validated every bundled puzzle, so it parses"),
        })
        .collect();
    if let Err(error) = sudoku_ui::run(puzzles) {
        eprintln!("sudoku: {error}");
        std::process::exit(1);
    }
}
