//! The Sudoku engine: answers about a grid that need search.
//!
//! For now it is one solver ([`count_solutions`], [`solve`]) used to check that a puzzle has
//! exactly one solution. A faster engine with hints and grading will replace the inside of this
//! module; the two functions here are its interface to the rest of the crate and to the game's
//! build script.
//!
//! How the solver works: each empty cell keeps a 9-bit mask of its candidates, and placing a
//! digit removes it from the cell's 20 peers. Before each branch the board is propagated to a
//! fixed point with naked singles (a cell with one candidate), hidden singles (a digit with one
//! place in a house) and locked candidates (a digit confined to where a line crosses a box); a
//! cell without candidates or a digit without a place ends the branch. It then branches two
//! ways where it can (a cell with two candidates, else a digit with two places in a house),
//! otherwise on the cell with the fewest candidates, each alternative on a copy of the board.
//! In a release build the 375 puzzles of the forum's "hardest 1106" list take about a
//! millisecond each to prove unique, and an empty grid shows two solutions at once.

mod solver;
mod trace;

pub mod generate;
pub mod grade;
pub mod hint;
pub mod techniques;

pub use solver::{classify, clashes, count_solutions, solve, Clash, Classification, House};
pub use trace::{trace, EliminationReason, PlacementReason, Trace, TraceStep};

pub use generate::{generate, generate_with, Generated, Options, Symmetry};
pub use grade::{grade, unique_solution, Grading, ImproperPuzzle, Level};
pub use hint::{hint, Hint, MistakeKind};
