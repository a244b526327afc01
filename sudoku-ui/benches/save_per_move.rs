//! What saving one move costs, at 10, 1,000 and 10,000 moves into a game.
//!
//! `journal/N`: the game's autosave (`sudoku_ui::autosave`): one journal line per move, and
//! a compaction (a full snapshot) whenever the journal has grown as large as the last
//! snapshot; criterion's mean includes those compactions, so it is the amortized cost.
//! `snapshot/N`: the way the game saved before, a full snapshot written and renamed after
//! every move, for comparison. Run: `cargo bench -p sudoku-ui --bench save_per_move`.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::json;
use sudoku_machine::{events, puzzle, Sudoku};
use sudoku_ui::autosave::Autosave;

const QT: &str = include_str!("../../puzzles/sudoku.data");

/// A game of Qt's puzzle with `moves` digits entered (each one a move in the undo list).
fn game_with(moves: usize) -> Sudoku {
    let givens = puzzle::parse(QT).unwrap();
    let machine = Sudoku::new();
    machine
        .set_initial_values(json!({ "initState": givens, "autoplay": true }))
        .unwrap();
    machine.start();
    let empty: Vec<(usize, usize)> = (0..81)
        .map(|i| (i / 9, i % 9))
        .filter(|&(r, c)| givens.0[r][c] == 0)
        .collect();
    for i in 0..moves {
        let (r, c) = empty[i % empty.len()];
        machine.submit_event(events::CLICK, json!({ "x": r, "y": c }));
        // Each pass over the empty cells uses the next digit, so every entry changes its cell.
        let digit = 1 + (i / empty.len()) % 9;
        machine.submit_event(events::DIGIT, json!({ "digit": digit }));
    }
    assert_eq!(machine.with_data(|d| d.play.history.undo.len()), moves);
    machine
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-bench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn save_per_move(c: &mut Criterion) {
    let mut group = c.benchmark_group("save_per_move");
    group.measurement_time(Duration::from_secs(4));
    for moves in [10, 1_000, 10_000] {
        let machine = game_with(moves);
        let data = json!({ "digit": 5 });

        let dir = temp(&format!("journal-{moves}"));
        let (mut save, _) = Autosave::open(&dir).expect("a fresh folder opens");
        save.compact(&machine.snapshot().unwrap()).unwrap();
        group.bench_with_input(BenchmarkId::new("journal", moves), &moves, |b, _| {
            b.iter(|| {
                save.record(machine.now(), events::DIGIT, &data).unwrap();
                if save.wants_compaction() {
                    save.compact(&machine.snapshot().unwrap()).unwrap();
                }
            })
        });
        std::fs::remove_dir_all(&dir).unwrap();

        let dir = temp(&format!("snapshot-{moves}"));
        let (file, partial) = (dir.join("game.json"), dir.join("game.json.partial"));
        group.bench_with_input(BenchmarkId::new("snapshot", moves), &moves, |b, _| {
            b.iter(|| {
                let text = serde_json::to_vec(&machine.snapshot().unwrap()).unwrap();
                std::fs::write(&partial, text).unwrap();
                std::fs::rename(&partial, &file).unwrap();
            })
        });
        std::fs::remove_dir_all(&dir).unwrap();
    }
    group.finish();
}

criterion_group!(benches, save_per_move);
criterion_main!(benches);
