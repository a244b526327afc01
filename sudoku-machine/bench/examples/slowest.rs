//! Prints the puzzles of a dataset that take longest for `count_solutions(g, 2)`, ours and the
//! `sudoku` crate's time for each (best of five runs):
//! `cargo run --release -p sudoku-bench --example slowest [DATASET_INDEX] [HOW_MANY]`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sudoku::Sudoku;
use sudoku_bench::datasets;
use sudoku_machine::engine::count_solutions;

/// The best of five runs of `f`.
fn best(mut f: impl FnMut()) -> Duration {
    (0..5)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let index: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let how_many: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let Some(sets) = datasets() else {
        return;
    };
    let set = &sets[index];
    let mut times: Vec<(Duration, usize)> = set
        .grids
        .iter()
        .enumerate()
        .map(|(i, g)| {
            (
                best(|| {
                    black_box(count_solutions(black_box(g), 2));
                }),
                i,
            )
        })
        .collect();
    times.sort_unstable_by(|a, b| b.cmp(a));
    for &(ours, i) in times.iter().take(how_many) {
        let theirs = Sudoku::from_str_line(&set.lines[i]).unwrap();
        let t = best(|| {
            black_box(black_box(theirs).solutions_count_up_to(2));
        });
        println!(
            "{} #{i}: ours {:.0} µs, sudoku {:.0} µs  {}",
            set.name,
            ours.as_secs_f64() * 1e6,
            t.as_secs_f64() * 1e6,
            set.lines[i]
        );
    }
}
