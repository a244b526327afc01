//! Edit mode and the animated search, through the generated API only, as the window drives
//! them: the four verdicts on a typed puzzle, Solve and Play ("My puzzle N"), and the search
//! on the virtual clock (start, speed, pause, single steps, stop back to the position it
//! started from, the cap on searches too long to watch, a player's mistake making it fail).

mod common;

use std::time::Duration;

use common::{Game, QT};
use serde_json::{json, Value};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::engine::{trace, TraceStep};
use sudoku_machine::game::{trace_lines, Phase, View};
use sudoku_machine::{events, State};

/// top1465 #1: a hard puzzle whose search guesses and backtracks.
const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

fn digits(view: &View) -> Vec<u8> {
    view.cells.iter().map(|c| c.value).collect()
}

fn grid_digits(grid: &Grid) -> Vec<u8> {
    grid.0.iter().flatten().copied().collect()
}

fn steps(view: &View) -> usize {
    view.search.as_ref().expect("the search panel").counts.steps
}

fn last(view: &View) -> String {
    view.search.as_ref().expect("the search panel").last.clone()
}

/// Puzzle 11 of the bundled set with r2c3 and r2c5 emptied.
const LONG: &str =
    "98.7..6..75.........3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52.....";

/// Types `digit` at (`row`, `col`) in edit mode.
fn type_given(g: &Game, row: usize, col: usize, digit: u8) -> View {
    g.click(row, col);
    g.digit(digit)
}

#[test]
fn edit_mode_says_which_of_the_four_verdicts_a_typed_puzzle_gets() {
    let g = Game::new(QT);
    let v = g.send(events::EDIT, json!({ "from": "blank" }));
    assert!(g.active(State::Drafting));
    assert_eq!(v.phase, Phase::Editing);
    assert!(v.cells.iter().all(|c| c.value == 0 && c.editable));
    assert_eq!(v.status, "Edit mode: type the givens");
    assert_eq!(
        v.puzzle, "Your puzzle",
        "the panel is about the grid being typed"
    );

    // Several solutions: an empty grid.
    let v = g.send(events::EDIT_CHECK, Value::Null);
    assert!(g.active(State::Reviewed));
    assert_eq!(v.status, "Several solutions");
    assert!(
        v.message
            .starts_with("Several solutions: an empty grid leaves"),
        "{}",
        v.message
    );
    assert!(!v.can.play_draft && !v.can.solve_draft && v.can.change_draft);

    // Invalid: two 5s in row 1 are red as soon as they are typed, and named by the check.
    g.send(events::EDIT_CHANGE, Value::Null);
    assert!(g.active(State::Drafting));
    type_given(&g, 0, 0, 5);
    let v = type_given(&g, 0, 8, 5);
    let red: Vec<usize> = (0..81).filter(|&i| v.cells[i].error).collect();
    assert_eq!(red, [0, 8], "the clashing givens are red while typing");
    let v = g.send(events::EDIT_CHECK, Value::Null);
    assert_eq!(v.status, "Not a valid puzzle");
    assert_eq!(
        v.message,
        "Not a valid puzzle: 5 twice in row 1 (r1c1 and r1c9)."
    );
    assert!(v.cells[0].error && v.cells[8].error);

    // No solution: r1c1..r1c8 hold 1-8 and r2c9 holds 9, so r1c9 has no candidate. A digit
    // typed after the check goes back to typing.
    g.click(0, 8);
    g.send(events::CLEAR, Value::Null);
    assert!(g.active(State::Drafting), "Delete changes the draft");
    for col in 0..8 {
        type_given(&g, 0, col, col as u8 + 1);
    }
    type_given(&g, 1, 8, 9);
    let v = g.send(events::EDIT_CHECK, Value::Null);
    assert_eq!(v.status, "No solution");
    assert_eq!(v.message, "No solution: the singles and locked candidates these 9 givens force leave r1c9 without a candidate.");
    assert!(v.cells.iter().all(|c| !c.error), "no clash");

    // Leaving asks first (9 givens were typed); confirming goes back to the game as it was.
    let v = g.send(events::CANCEL, Value::Null);
    assert_eq!(v.phase, Phase::Confirming);
    let v = g.send(events::CONFIRM, Value::Null);
    assert!(g.active(State::Pen));
    assert_eq!(v.phase, Phase::Running);
    assert_eq!(digits(&v), grid_digits(&g.givens));

    // Unique: the current puzzle, with its grade.
    let name = v.puzzle.clone();
    let v = g.send(events::EDIT, json!({ "from": "current" }));
    assert_eq!(digits(&v), grid_digits(&g.givens), "starts from the givens");
    assert_eq!(
        v.puzzle,
        format!("Editing “{name}”"),
        "the heading says which puzzle"
    );
    let v = g.send(events::EDIT_CHECK, Value::Null);
    assert_eq!(v.status, "A proper puzzle: Easy");
    assert!(
        v.message
            .starts_with("A proper puzzle: one solution, easy (36 givens)"),
        "{}",
        v.message
    );
    assert!(v.can.play_draft && v.can.solve_draft);
    assert!(g.errors().is_empty(), "{:?}", g.errors());
}

#[test]
fn leaving_edit_mode_asks_before_the_typed_puzzle_is_lost() {
    let g = Game::new(QT);
    // Nothing typed: leaving does not ask.
    g.send(events::EDIT, json!({ "from": "blank" }));
    let v = g.send(events::CANCEL, Value::Null);
    assert_eq!(v.phase, Phase::Running);
    g.send(events::EDIT, json!({ "from": "current" }));
    let v = g.send(events::CANCEL, Value::Null);
    assert_eq!(
        v.phase,
        Phase::Running,
        "the current puzzle unchanged: nothing lost"
    );

    // Two givens typed: the question says so, and the board still shows the draft. (The
    // game said something before: a hint, which the panel about the draft does not repeat.)
    let hinted = g.send(events::HINT, Value::Null);
    assert!(!hinted.message.is_empty());
    g.send(events::EDIT, json!({ "from": "blank" }));
    type_given(&g, 0, 0, 5);
    let typed = type_given(&g, 4, 4, 7);
    let v = g.send(events::CANCEL, Value::Null);
    assert_eq!(
        v.message, typed.message,
        "the draft's message, not the game's"
    );
    assert_ne!(v.message, hinted.message);
    assert_eq!(v.phase, Phase::Confirming);
    assert_eq!(v.question_title, "Leave edit mode?");
    assert_eq!(
        v.question,
        "The puzzle you are typing is lost: the 2 givens typed."
    );
    assert_eq!(v.confirm_label, "Leave");
    assert_eq!(v.cancel_label, "Keep typing");
    assert!(v.edit_panel, "edit mode's controls stay in the panel");
    assert_eq!(digits(&v), digits(&typed), "the draft stays on the board");
    assert!(!v.game_info, "the panel is still about the draft");

    // No: back to typing, the draft whole and still editable.
    let v = g.send(events::CANCEL, Value::Null);
    assert!(g.active(State::Drafting));
    assert_eq!(digits(&v), digits(&typed));
    assert!(v.cells.iter().all(|c| c.editable));

    // A stray confirm while typing means nothing; asked again, yes goes back to the game.
    g.send(events::CONFIRM, Value::Null);
    assert!(g.active(State::Drafting));
    let v = g.send(events::CANCEL, Value::Null);
    assert_eq!(v.phase, Phase::Confirming);
    let v = g.send(events::CONFIRM, Value::Null);
    assert_eq!(v.phase, Phase::Running);
    assert_eq!(digits(&v), grid_digits(&g.givens), "the game as it was");

    // From the current puzzle, a changed cell is counted, after a check too (reviewed).
    g.send(events::EDIT, json!({ "from": "current" }));
    let (r, c) = g.empty_cells()[0];
    type_given(&g, r, c, g.solution().0[r][c]);
    g.send(events::EDIT_CHECK, Value::Null);
    assert!(g.active(State::Reviewed));
    let v = g.send(events::CANCEL, Value::Null);
    assert_eq!(
        v.question,
        "The puzzle you are typing is lost: 1 changed cell."
    );
    g.send(events::CANCEL, Value::Null);
    assert!(
        g.active(State::Reviewed),
        "back where the question was asked"
    );
    assert!(g.errors().is_empty(), "{:?}", g.errors());
}

#[test]
fn solve_fills_in_the_solution_and_play_makes_it_my_puzzle_n() {
    let g = Game::new(QT);
    // Qt's puzzle with one more given: still proper, and a puzzle of the player's own.
    let solution = g.solution();
    g.send(events::EDIT, json!({ "from": "current" }));
    let (r, c) = g.empty_cells()[0];
    type_given(&g, r, c, solution.0[r][c]);
    let mut typed = g.givens;
    typed.0[r][c] = solution.0[r][c];
    let v = g.send(events::EDIT_CHECK, Value::Null);
    assert_eq!(v.phase, Phase::Reviewed);
    assert!(v.message.contains("(37 givens)"), "{}", v.message);

    let v = g.send(events::EDIT_SOLVE, Value::Null);
    assert_eq!(digits(&v), grid_digits(&solution), "the solution filled in");
    assert_eq!(
        v.cells.iter().filter(|c| c.given).count(),
        37,
        "the givens stay apart"
    );
    assert!(!v.can.solve_draft && v.can.play_draft);

    // Nothing played yet: Play starts it at once, and the window hears the new puzzle.
    let v = g.send(events::EDIT_PLAY, Value::Null);
    assert!(g.active(State::Running));
    assert_eq!(v.puzzle, "My puzzle 1");
    assert_eq!(v.level, "Easy");
    assert_eq!(
        digits(&v),
        grid_digits(&typed),
        "the typed givens, no solution"
    );
    assert!(v.cells.iter().filter(|c| c.given).count() == 37);
    let created = g.heard.borrow().created.clone();
    assert_eq!(created.len(), 1);
    assert_eq!(created[0]["name"], "My puzzle 1");
    assert_eq!(
        serde_json::from_value::<Grid>(created[0]["initState"].clone()).unwrap(),
        typed
    );

    // With a game in progress, Play asks first; the second draft is My puzzle 2.
    let (r2, c2) = g.empty_cells()[1];
    g.put(r2, c2, solution.0[r2][c2]);
    g.send(events::EDIT, json!({ "from": "current" }));
    g.send(events::EDIT_CHECK, Value::Null);
    let v = g.send(events::EDIT_PLAY, Value::Null);
    assert!(g.active(State::Confirming));
    assert_eq!(v.question_title, "Discard this game?");
    assert!(v.question.contains("“My puzzle 2”"), "{}", v.question);
    let v = g.send(events::CONFIRM, Value::Null);
    assert!(g.active(State::Running));
    assert_eq!(v.puzzle, "My puzzle 2");
    assert_eq!(v.cells[r2 * 9 + c2].value, 0, "a fresh game");
    assert_eq!(g.heard.borrow().created.len(), 2);
    assert!(g.errors().is_empty(), "{:?}", g.errors());
}

#[test]
fn the_search_runs_on_the_clock_pauses_steps_and_stop_restores_the_game() {
    let g = Game::new(HARD);
    let (r, c) = g.empty_cells()[0];
    g.put(r, c, g.solution().0[r][c]);
    g.send(events::NOTES_TOGGLE, Value::Null);
    let before = g.view();
    let tenths = g.machine.with_data(|d| d.play.tenths);
    let lines = trace_lines(&{
        let mut position = g.givens;
        position.0[r][c] = g.solution().0[r][c];
        position
    });

    let v = g.send(events::WATCH, Value::Null);
    assert!(g.active(State::SearchRunning));
    assert_eq!(v.phase, Phase::Searching);
    assert_eq!(v.status, "Watching the search");
    assert_eq!(steps(&v), 0, "the set-up is not a step");
    assert!(!v.can.new_game && !v.can.enter_edit);

    // 30 steps a second: a tick every 33 ms.
    g.machine.advance_time(Duration::from_millis(1_000));
    let v = g.view();
    assert_eq!(steps(&v), 30);
    assert_eq!(last(&v), lines[29], "the step shown is the trace's");
    assert_ne!(digits(&v), digits(&before));

    // Paused, the clock moves nothing; Step shows one step.
    let v = g.send(events::SEARCH_PAUSE, Value::Null);
    assert!(g.active(State::SearchPaused));
    assert_eq!(v.status, "Search paused");
    g.machine.advance_time(Duration::from_secs(5));
    assert_eq!(steps(&g.view()), 30);
    let v = g.send(events::SEARCH_STEP, Value::Null);
    assert_eq!(steps(&v), 31);
    assert_eq!(last(&v), lines[30]);

    // One step a second, then resumed.
    let v = g.send(events::SEARCH_SPEED, json!({ "speed": 0 }));
    assert_eq!(v.search.as_ref().unwrap().speed_label, "1 step/s");
    g.send(events::SEARCH_PAUSE, Value::Null);
    assert!(g.active(State::SearchRunning));
    g.machine.advance_time(Duration::from_millis(2_500));
    assert_eq!(steps(&g.view()), 33);

    // Stop: the game comes back as it was, notes mode included, and its clock did not run.
    let v = g.send(events::SEARCH_STOP, Value::Null);
    assert!(g.active(State::Pencil));
    assert_eq!(v.cells, before.cells);
    assert_eq!(g.machine.with_data(|d| d.play.tenths), tenths);
    g.machine.advance_time(Duration::from_secs(2));
    assert_eq!(g.view().cells, before.cells, "no step after the stop");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
}

#[test]
fn the_search_ends_solved_with_its_guesses_and_backtracks_counted() {
    let g = Game::new(HARD);
    g.send(events::WATCH, Value::Null);
    g.send(events::SEARCH_SPEED, json!({ "speed": 8 })); // 1,000 steps a second
                                                         // The steps shown after each frame (16 ms) of the virtual clock, when they changed.
    let mut shown: Vec<(usize, String)> = vec![(0, String::new())];
    while g.active(State::SearchRunning) {
        g.machine.advance_time(Duration::from_millis(16));
        let v = g.view();
        if shown.last().map(|s| s.0) != Some(steps(&v)) {
            shown.push((steps(&v), last(&v)));
        }
    }
    assert!(g.active(State::SearchDone));
    let v = g.view();
    assert_eq!(v.status, "Search: solved");
    assert_eq!(digits(&v), grid_digits(&g.solution()));
    let counts = v.search.as_ref().unwrap().counts;
    let trace: Vec<TraceStep> = trace(&g.givens).collect();
    let guesses = trace
        .iter()
        .filter(|s| matches!(s, TraceStep::Guess { .. }))
        .count();
    let backtracks = trace
        .iter()
        .filter(|s| matches!(s, TraceStep::Backtrack { .. }))
        .count();
    assert!(guesses > 0 && backtracks > 0);
    assert_eq!((counts.guesses, counts.backtracks), (guesses, backtracks));
    assert_eq!(counts.steps, trace_lines(&g.givens).len());
    assert_eq!(shown.last().unwrap().1, "solved");
    // Fast speeds show several steps per frame: 17 at 1,000 steps a second.
    assert_eq!(shown.len() - 1, counts.steps.div_ceil(17));
    assert!(shown.iter().rev().skip(1).all(|s| s.0 % 17 == 0));
}

#[test]
fn a_mistake_makes_the_search_fail_where_it_runs_out() {
    let g = Game::new(QT);
    let solution = g.solution();
    // A wrong digit that clashes with no peer: the search finds no way on.
    let (r, c, wrong) = g
        .empty_cells()
        .into_iter()
        .find_map(|(r, c)| {
            (1..=9)
                .find(|&d| {
                    d != solution.0[r][c] && {
                        let mut p = g.givens;
                        p.0[r][c] = d;
                        sudoku_machine::engine::clashes(&p).is_empty()
                    }
                })
                .map(|d| (r, c, d))
        })
        .unwrap();
    g.put(r, c, wrong);
    g.send(events::WATCH, Value::Null);
    g.send(events::SEARCH_SPEED, json!({ "speed": 8 }));
    g.machine.advance_time(Duration::from_secs(60));
    assert!(g.active(State::SearchDone));
    let v = g.view();
    assert_eq!(v.status, "Search: no solution");
    assert_eq!(last(&v), "failed");
    assert_eq!(v.cells[r * 9 + c].value, wrong, "the player's digit stays");
}

#[test]
fn searches_too_long_to_watch_are_settled_at_once() {
    // Two givens taken from puzzle 11 ("hardest"): several solutions, and a search of more
    // than 20,000 steps before it finds the first.
    let g = Game::new(LONG);
    let v = g.send(events::WATCH, Value::Null);
    assert!(g.active(State::SearchDone), "no animation");
    assert_eq!(v.status, "Search: several solutions");
    assert!(
        v.message
            .starts_with("This search takes more than 20000 steps, too long to watch")
            && v.message.contains("more than one solution"),
        "{}",
        v.message
    );
    assert_eq!(digits(&v), grid_digits(&g.givens), "nothing was filled in");
    let v = g.send(events::SEARCH_STOP, Value::Null);
    assert!(g.active(State::Running), "Stop goes back to the game");
    assert_eq!(digits(&v), grid_digits(&g.givens));
}

#[test]
fn a_near_empty_grid_is_watched_to_one_of_its_solutions() {
    let g = Game::new(QT);
    g.send(events::EDIT, json!({ "from": "blank" }));
    type_given(&g, 0, 0, 1);
    g.send(events::WATCH, Value::Null);
    g.send(events::SEARCH_SPEED, json!({ "speed": 8 }));
    g.machine.advance_time(Duration::from_secs(10));
    assert!(g.active(State::SearchDone));
    let v = g.view();
    assert_eq!(v.status, "Search: solved");
    assert!(
        v.message
            .ends_with("This is one solution: the puzzle has others."),
        "{}",
        v.message
    );
    assert!(v.cells.iter().all(|c| c.value != 0));
    // Stop goes back to edit mode, the draft as it was, then Cancel (and yes: the typed
    // given is lost) back to the game.
    let v = g.send(events::SEARCH_STOP, Value::Null);
    assert!(g.active(State::Drafting));
    assert_eq!(v.cells.iter().filter(|c| c.value != 0).count(), 1);
    let v = g.send(events::CANCEL, Value::Null);
    assert_eq!(
        v.question,
        "The puzzle you are typing is lost: the one given typed."
    );
    let v = g.send(events::CONFIRM, Value::Null);
    assert!(g.active(State::Running));
    assert_eq!(digits(&v), grid_digits(&g.givens));
}

#[test]
fn edit_mode_undoes_and_redoes_what_was_typed() {
    let g = Game::new(QT);
    let v = g.send(events::EDIT, json!({ "from": "blank" }));
    assert!(!v.can.undo && !v.can.redo, "nothing typed yet");
    assert!(v.can.erase, "Erase works in edit mode");
    type_given(&g, 0, 0, 5);
    type_given(&g, 4, 4, 7);
    let v = type_given(&g, 4, 4, 8);
    assert!(v.can.undo && !v.can.redo);
    assert_eq!((v.cells[0].value, v.cells[40].value), (5, 8));

    // Undo takes back the last change, selecting its cell.
    let v = g.send(events::UNDO, Value::Null);
    assert_eq!(v.cells[40].value, 7);
    assert!(v.can.redo);
    let v = g.send(events::UNDO, Value::Null);
    assert_eq!(v.cells[40].value, 0);
    let v = g.send(events::REDO, Value::Null);
    assert_eq!(v.cells[40].value, 7);
    assert!(v.cells[40].selected);

    // After a check, undo goes back to typing: the verdict was about the grid before.
    g.send(events::EDIT_CHECK, Value::Null);
    assert!(g.active(State::Reviewed));
    let v = g.send(events::UNDO, Value::Null);
    assert!(g.active(State::Drafting));
    assert_eq!(v.cells[40].value, 0);
    // Typing empties what can be redone; undoing everything leaves nothing to lose.
    let v = type_given(&g, 8, 8, 3);
    assert!(!v.can.redo);
    g.send(events::UNDO, Value::Null);
    let v = g.send(events::UNDO, Value::Null);
    assert!(!v.can.undo);
    assert!(v.cells.iter().all(|c| c.value == 0));
    g.send(events::CANCEL, Value::Null);
    assert!(
        !g.active(State::Confirming),
        "the grid is blank again: leaving does not ask"
    );
    assert!(g.errors().is_empty(), "{:?}", g.errors());
}
