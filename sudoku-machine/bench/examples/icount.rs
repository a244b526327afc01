//! Runs one solver over one dataset, for instruction counting with `perf stat` or callgrind:
//! `cargo run --release -p sudoku-bench --example icount -- ours|sudoku solve|count DATASET PASSES`.
//!
//! Run it with `PASSES = 0` too and subtract: the difference divided by `PASSES` times the
//! puzzle count is the instructions per puzzle, a measure that does not depend on the load of
//! the machine (see `icount.sh` beside this crate's manifest).

use std::hint::black_box;

use sudoku::Sudoku;
use sudoku_bench::datasets;
use sudoku_machine::engine::{count_solutions, solve};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [who, mode, index, passes] = args.as_slice() else {
        eprintln!("usage: icount ours|sudoku solve|count DATASET_INDEX PASSES");
        std::process::exit(2);
    };
    let index: usize = index.parse().expect("dataset index");
    let passes: usize = passes.parse().expect("passes");
    let Some(sets) = datasets() else {
        return;
    };
    let set = &sets[index];
    let theirs: Vec<Sudoku> = set
        .lines
        .iter()
        .map(|l| Sudoku::from_str_line(l).unwrap())
        .collect();
    let mut total = 0usize;
    for _ in 0..passes {
        match (who.as_str(), mode.as_str()) {
            ("ours", "solve") => {
                for g in &set.grids {
                    total += usize::from(black_box(solve(black_box(g))).is_some());
                }
            }
            ("ours", "count") => {
                for g in &set.grids {
                    total += count_solutions(black_box(g), 2);
                }
            }
            ("sudoku", "solve") => {
                for s in &theirs {
                    total += usize::from(black_box(black_box(*s).some_solution()).is_some());
                }
            }
            ("sudoku", "count") => {
                for s in &theirs {
                    total += black_box(*s).solutions_count_up_to(2);
                }
            }
            _ => panic!("unknown solver or mode"),
        }
    }
    println!("{} {} {} {}", set.name, set.grids.len(), who, total);
}
