//! Runs only our `count_solutions(g, 2)` over one dataset many times, for a profiler:
//! `cargo run --release -p sudoku-bench --example profile_ours [DATASET_INDEX] [PASSES]`.

use std::hint::black_box;

use sudoku_bench::datasets;
use sudoku_machine::engine::count_solutions;

fn main() {
    let mut args = std::env::args().skip(1);
    let index: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let passes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let Some(sets) = datasets() else {
        return;
    };
    let set = &sets[index];
    let mut total = 0;
    for _ in 0..passes {
        for g in &set.grids {
            total += count_solutions(black_box(g), 2);
        }
    }
    println!("{}: {total}", set.name);
}
