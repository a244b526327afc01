//! The Sudoku engine: everything about a grid that needs more than the rules of the game.
//!
//! - **Search** ([`solve`], [`count_solutions`], [`classify`]): a bitboard solver in the
//!   JCZSolve family (see the `solver` module docs): candidates as per-digit band bitboards,
//!   propagation of naked and hidden singles and locked candidates, and a guess on a bivalue
//!   cell when propagation stalls. [`classify`] sorts a grid into unique, multiple, none or
//!   invalid, naming the clashing givens ([`Clash`]).
//! - **Search trace** ([`trace`]): the steps of a simple candidate-mask search (place,
//!   eliminate, guess, backtrack) as an iterator, for an animated solve. It is a separate
//!   solver, so the plain search pays nothing for it.
//! - **Human techniques** ([`techniques`]): naked and hidden singles up to unique rectangles,
//!   each step named and explained; [`grade()`] maps the hardest technique a puzzle needs to a
//!   [`Level`]; [`generate()`] makes puzzles of a requested level from a seed; [`hint()`] finds the
//!   player's first mistake or the easiest next step.

mod full_grid;
mod solver;
mod trace;

pub mod generate;
pub mod grade;
pub mod hint;
pub mod techniques;

pub use solver::{clashes, classify, count_solutions, solve, Clash, Classification, House};
pub use trace::{trace, DeadEnd, EliminationReason, PlacementReason, Trace, TraceStep};

pub use generate::{generate, generate_cancellable, generate_with, Generated, Options, Symmetry};
pub use grade::{grade, unique_solution, Grading, ImproperPuzzle, Level, TechniqueSet};
pub use hint::{hint, Hint, MistakeKind};
