//! Generation time per puzzle and the variety of what comes out, per level:
//! `cargo run --release -p sudoku-bench --example generation [SEEDS [LEVEL...]]` generates
//! SEEDS puzzles (default 200; seeds 1..=SEEDS, no symmetry, the default attempt limit) at each
//! level and prints, per level, the median, 95th percentile and maximum wall time of one
//! `generate_with`, the mean number of attempts, how many missed the level, and how many
//! puzzles have each technique as their hardest step.
//!
//! Each seed is generated three times, in three rounds over all the seeds, and its time is
//! the fastest of the three (the same work each time: generation is deterministic), so that a
//! preemption on a busy machine spoils one run of one seed, not the percentile.

use std::collections::BTreeMap;
use std::time::Instant;

use sudoku_machine::engine::{generate_with, Level, Options};

/// How many times each seed is generated for its time.
const ROUNDS: usize = 3;

/// The `q`-quantile of sorted values (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let levels: Vec<Level> = args.map(|a| a.parse().expect("a level name")).collect();
    let levels = if levels.is_empty() {
        Level::ALL.to_vec()
    } else {
        levels
    };
    println!("| level | seeds | p50 ms | p95 ms | max ms | mean attempts | missed | hardest technique (count) |");
    println!("|---|---:|---:|---:|---:|---:|---:|---|");
    for level in levels {
        let mut times = Vec::new();
        let mut attempts = 0;
        let mut missed = 0;
        let mut hardest: BTreeMap<String, usize> = BTreeMap::new();
        let mut best = vec![f64::MAX; seeds as usize];
        for _ in 0..ROUNDS {
            for (seed, best) in (1..=seeds).zip(&mut best) {
                let start = Instant::now();
                std::hint::black_box(generate_with(&Options::new(level, seed)));
                *best = best.min(start.elapsed().as_secs_f64() * 1e3);
            }
        }
        times.extend(best);
        for seed in 1..=seeds {
            let g = generate_with(&Options::new(level, seed));
            attempts += g.attempts;
            missed += usize::from(!g.exact);
            let name = g
                .grading
                .hardest
                .map_or("none".to_owned(), |t| t.to_string());
            *hardest.entry(name).or_default() += 1;
        }
        times.sort_by(f64::total_cmp);
        let mut kinds: Vec<(String, usize)> = hardest.into_iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let kinds: Vec<String> = kinds.iter().map(|(t, n)| format!("{t} {n}")).collect();
        println!(
            "| {level} | {seeds} | {:.1} | {:.1} | {:.1} | {:.1} | {missed} | {} |",
            quantile(&times, 0.5),
            quantile(&times, 0.95),
            times[times.len() - 1],
            attempts as f64 / seeds as f64,
            kinds.join(", ")
        );
    }
}
