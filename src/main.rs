//! The Sudoku desktop game: a port of Qt's SCXML Sudoku example, and with a subcommand a
//! command-line solver, grader, generator and hinter (see `cli.rs` or `sudoku --help`).
//!
//! The bundled puzzles (`puzzles/*.data`) are validated and embedded by `build.rs`, which
//! writes `BUNDLED_PUZZLES` as `(name, Qt .data text)` pairs sorted by file name; the window
//! lives in `sudoku-ui` and the game's state chart in `sudoku-machine`.

use clap::Parser;
use sudoku_machine::puzzle::{self, Puzzle};

mod cli;

include!(concat!(env!("OUT_DIR"), "/bundled_puzzles.rs"));

fn main() {
    let cli = cli::Cli::parse();
    if let Some(command) = cli.command {
        std::process::exit(cli::run(command));
    }
    // Qt's nearly solved demo (one empty cell) goes last: the game opens on a real puzzle.
    let mut puzzles: Vec<Puzzle> = BUNDLED_PUZZLES
        .iter()
        .map(|&(name, level, text)| Puzzle {
            name: name.to_owned(),
            givens: puzzle::parse(text)
                .expect("build.rs validated every bundled puzzle, so it parses"),
            level: level.parse().ok(),
        })
        .collect();
    puzzles.sort_by_key(|p| p.name.starts_with("Nearly solved"));
    if let Err(error) = sudoku_ui::run_with_file(puzzles, cli.open.as_deref()) {
        eprintln!("sudoku: {error}");
        std::process::exit(1);
    }
}
