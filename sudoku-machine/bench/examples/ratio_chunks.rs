//! Like `ratio`, but robust to a busy machine: each dataset is cut into chunks of about
//! half a millisecond, each chunk is timed `REPS` times for each solver (interleaved), and the
//! minimum per chunk is summed. A preemption spoils one run of one chunk, not the pass.
//!
//! `cargo run --release -p sudoku-bench --example ratio_chunks [REPS [DATASET_INDEX...]]`
//! (default 15 repetitions, every dataset).

use std::hint::black_box;
use std::time::Instant;

use sudoku::Sudoku;
use sudoku_bench::datasets;
use sudoku_machine::engine::{count_solutions, solve};

/// Seconds for one run of `f`.
fn time(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(15);
    let only: Vec<usize> = std::env::args()
        .skip(2)
        .filter_map(|a| a.parse().ok())
        .collect();
    let Some(sets) = datasets() else {
        return;
    };
    println!("| dataset | puzzles | solve ours µs | solve `sudoku` µs | ratio | count≤2 ours µs | count≤2 `sudoku` µs | ratio |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (index, set) in sets.iter().enumerate() {
        if !only.is_empty() && !only.contains(&index) {
            continue;
        }
        let theirs: Vec<Sudoku> = set
            .lines
            .iter()
            .map(|l| Sudoku::from_str_line(l).unwrap())
            .collect();
        let n = set.grids.len();
        // Chunk size: about 0.5 ms of our count≤2 per chunk.
        let per = time(|| {
            for g in &set.grids {
                black_box(count_solutions(black_box(g), 2));
            }
        }) / n as f64;
        let size = ((5e-4 / per) as usize).clamp(1, n);
        let mut sums = [0.0f64; 4];
        for (ours, theirs) in set.grids.chunks(size).zip(theirs.chunks(size)) {
            let mut best = [f64::MAX; 4];
            for _ in 0..reps {
                let t = [
                    time(|| {
                        for g in ours {
                            black_box(solve(black_box(g)));
                        }
                    }),
                    time(|| {
                        for s in theirs {
                            black_box(black_box(*s).some_solution());
                        }
                    }),
                    time(|| {
                        for g in ours {
                            black_box(count_solutions(black_box(g), 2));
                        }
                    }),
                    time(|| {
                        for s in theirs {
                            black_box(black_box(*s).solutions_count_up_to(2));
                        }
                    }),
                ];
                for (b, t) in best.iter_mut().zip(t) {
                    *b = b.min(t);
                }
            }
            for (s, b) in sums.iter_mut().zip(best) {
                *s += b;
            }
        }
        let us = sums.map(|s| s * 1e6 / n as f64);
        println!(
            "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            set.name,
            n,
            us[0],
            us[1],
            us[1] / us[0],
            us[2],
            us[3],
            us[3] / us[2],
        );
    }
    println!("\nratio = `sudoku` time / our time (above 1: we are faster); per-chunk minimum of the runs.");
}
