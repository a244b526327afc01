//! Prints a Markdown table of microseconds per puzzle, ours against the `sudoku` crate, for
//! `solve` (first solution) and `count <= 2`, per dataset, plus our slowest single puzzle (best of three runs of it).
//!
//! `cargo run --release -p sudoku-bench --example ratio [PASSES]` (default 3 passes; the best
//! pass of each is kept). Both solvers run in the same process, interleaved pass by pass.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sudoku::Sudoku;
use sudoku_bench::datasets;
use sudoku_machine::engine::{count_solutions, solve};

/// The best of `passes` runs of `f`, in microseconds per puzzle.
fn best(passes: usize, n: usize, mut f: impl FnMut()) -> f64 {
    (0..passes)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or(Duration::ZERO)
        .as_secs_f64()
        * 1e6
        / n as f64
}

fn main() {
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let Some(sets) = datasets() else {
        return;
    };
    println!("| dataset | puzzles | solve ours µs | solve `sudoku` µs | ratio | count≤2 ours µs | count≤2 `sudoku` µs | ratio | our slowest count≤2 µs |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for set in &sets {
        let theirs: Vec<Sudoku> = set
            .lines
            .iter()
            .map(|l| Sudoku::from_str_line(l).unwrap())
            .collect();
        let n = set.grids.len();
        // Agreement first (also warms up).
        for (g, s) in set.grids.iter().zip(&theirs) {
            assert_eq!(
                count_solutions(g, 2),
                s.solutions_count_up_to(2),
                "{}: {:?}",
                set.name,
                g
            );
        }
        let ours_solve = best(passes, n, || {
            for g in &set.grids {
                black_box(solve(black_box(g)));
            }
        });
        let their_solve = best(passes, n, || {
            for s in &theirs {
                black_box(black_box(*s).some_solution());
            }
        });
        let ours_count = best(passes, n, || {
            for g in &set.grids {
                black_box(count_solutions(black_box(g), 2));
            }
        });
        let their_count = best(passes, n, || {
            for s in &theirs {
                black_box(black_box(*s).solutions_count_up_to(2));
            }
        });
        let slowest = set
            .grids
            .iter()
            .map(|g| {
                // The best of three runs, so that a preemption does not count.
                (0..3)
                    .map(|_| {
                        let start = Instant::now();
                        black_box(count_solutions(black_box(g), 2));
                        start.elapsed()
                    })
                    .min()
                    .unwrap_or_default()
            })
            .max()
            .unwrap_or_default();
        println!(
            "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.0} |",
            set.name,
            n,
            ours_solve,
            their_solve,
            their_solve / ours_solve,
            ours_count,
            their_count,
            their_count / ours_count,
            slowest.as_secs_f64() * 1e6
        );
    }
    println!("\nratio = `sudoku` time / our time (above 1: we are faster).");
}
