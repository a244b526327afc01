//! Criterion benchmarks of the engine against the `sudoku` crate (JCZSolve family), per
//! dataset of `shared/testdata/puzzles`: one iteration solves every puzzle of the dataset, and
//! the throughput is set to the puzzle count, so criterion's time divided by that count is the
//! time per puzzle (its "elem/s" figure is puzzles per second).
//!
//! - `solve/<dataset>/ours` and `.../sudoku`: the first solution (`engine::solve`,
//!   `Sudoku::some_solution`).
//! - `count2/<dataset>/ours` and `.../sudoku`: solutions counted up to two
//!   (`engine::count_solutions(g, 2)`, `Sudoku::solutions_count_up_to(2)`), the uniqueness test.
//!
//! Short run: `cargo bench -p sudoku-bench -- --warm-up-time 1 --measurement-time 3`.
//! Without `shared/` it prints a message and measures nothing.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku::Sudoku;
use sudoku_bench::datasets;
use sudoku_machine::engine::{count_solutions, solve};

fn bench(c: &mut Criterion) {
    let Some(sets) = datasets() else {
        return;
    };
    for set in &sets {
        let theirs: Vec<Sudoku> = set
            .lines
            .iter()
            .map(|l| Sudoku::from_str_line(l).unwrap())
            .collect();
        let key = set.name.split(' ').next().unwrap_or(set.name);
        for (what, ours, sudoku) in [
            (
                "solve",
                (|g| usize::from(solve(g).is_some())) as fn(&_) -> usize,
                (|s: Sudoku| usize::from(s.some_solution().is_some())) as fn(Sudoku) -> usize,
            ),
            (
                "count2",
                |g| count_solutions(g, 2),
                |s: Sudoku| s.solutions_count_up_to(2),
            ),
        ] {
            let mut group = c.benchmark_group(format!("{what}/{key}"));
            group.sample_size(10);
            group.throughput(Throughput::Elements(set.grids.len() as u64));
            group.bench_function("ours", |b| {
                b.iter(|| set.grids.iter().map(|g| ours(black_box(g))).sum::<usize>())
            });
            group.bench_function("sudoku", |b| {
                b.iter(|| theirs.iter().map(|&s| sudoku(black_box(s))).sum::<usize>())
            });
            group.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
