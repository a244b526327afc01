//! The game's chart beyond Qt's example, through the generated API only, as the window drives
//! it: every new transition (selection, digits, notes, undo and redo, mistakes, hints, show
//! answer, the clock on the virtual clock, pause and hide through history, the confirmation
//! before a game is discarded, generation, settings) and the check of saved games.

use std::time::Duration;

use serde_json::{json, Value};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::engine::Level;
use sudoku_machine::game::{self, CheckMode, Phase, ShownHint};
use sudoku_machine::{events, puzzle, State, Sudoku};
use sudoku_scxmlc::runtime::Snapshot;

mod common;
use common::{Game, NEARLY_SOLVED, QT};

#[test]
fn the_game_opens_ready_to_play_and_a_click_and_a_digit_place_it() {
    let g = Game::new(QT);
    assert!(g.active(State::Running) && g.active(State::Pen));
    let v = g.view();
    assert_eq!(v.phase, Phase::Running);
    assert!(v.can.edit && !v.can.undo);
    let (r, c) = g.empty_cells()[0];
    let v = g.put(r, c, 7);
    assert_eq!(v.cells[r * 9 + c].value, 7);
    assert!(v.cells[r * 9 + c].selected);
    assert!(v.can.undo);
    assert!(g.errors().is_empty(), "{:?}", g.errors());
}

#[test]
fn a_click_selects_and_a_second_click_cycles_like_qt_s_tap() {
    let g = Game::new(QT);
    let (r, c) = g.empty_cells()[0];
    assert_eq!(g.click(r, c).cells[r * 9 + c].value, 0);
    assert_eq!(g.click(r, c).cells[r * 9 + c].value, 1);
    assert_eq!(g.click(r, c).cells[r * 9 + c].value, 2);
    // A given is selected and never cycled; its row, column and box light up.
    let v = g.click(0, 3);
    assert!(v.cells[3].selected && v.cells[3].given);
    let v = g.click(0, 3);
    assert_eq!(v.cells[3].value, 2);
    assert!(v.cells[0].related && v.cells[9 * 5 + 3].related && v.cells[9 + 4].related);
    assert!(!v.cells[80].related);
    // Qt's tap still cycles too.
    g.machine
        .submit_event(events::TAP, json!({ "x": r, "y": c }));
    assert_eq!(g.value(r, c), 3);
}

#[test]
fn arrows_move_the_selection_digits_set_and_delete_clears_givens_stay_locked() {
    let g = Game::new(QT);
    let v = g.send(events::MOVE, json!({ "direction": "down" }));
    assert!(v.cells[0].selected, "the first arrow selects r1c1");
    g.send(events::MOVE, json!({ "direction": "down" }));
    let v = g.send(events::MOVE, json!({ "direction": "right" }));
    assert!(v.cells[10].selected);
    assert_eq!(g.givens.0[1][1], 8, "r2c2 is a given");
    let v = g.digit(3);
    assert_eq!(v.cells[10].value, 8);
    assert_eq!(v.message, "r2c2 is a given: it cannot be changed.");
    g.send(events::MOVE, json!({ "direction": "left" }));
    g.send(events::MOVE, json!({ "direction": "up" }));
    g.send(events::MOVE, json!({ "direction": "right" })); // r1c2, empty
    assert_eq!(g.digit(4).cells[1].value, 4);
    assert_eq!(g.send(events::CLEAR, json!(null)).cells[1].value, 0);
    // A direction that does not exist is an error.execution, and nothing moves.
    g.send(events::MOVE, json!({ "direction": "sideways" }));
    assert_eq!(g.errors().len(), 1, "{:?}", g.errors());
    assert!(g.view().cells[1].selected);
}

#[test]
fn notes_mode_toggles_pencil_marks_and_placing_a_digit_takes_them_from_its_peers() {
    let g = Game::new(QT);
    let v = g.send(events::NOTES_TOGGLE, json!(null));
    assert!(v.pencil && g.active(State::Pencil));
    // r1c1 and r1c2 are empty (peers in row 1); r9c9 is not a peer of r1c1.
    for (r, c) in [(0, 1), (8, 8)] {
        g.click(r, c);
        g.digit(5);
        g.digit(3);
    }
    let v = g.view();
    assert_eq!(v.cells[1].notes, 0b10100);
    assert_eq!(v.cells[1].value, 0, "digits are notes in notes mode");
    let v = g.send(events::NOTES_TOGGLE, json!(null));
    assert!(!v.pencil && g.active(State::Pen));
    let v = g.put(0, 0, 3);
    assert_eq!(v.cells[1].notes, 0b10000, "r1c2 lost its 3");
    assert_eq!(v.cells[80].notes, 0b10100, "r9c9 is no peer");
    let v = g.send(events::UNDO, json!(null));
    assert_eq!(
        (v.cells[0].value, v.cells[1].notes),
        (0, 0b10100),
        "one step back"
    );
    // Fill all candidates is one move too.
    let v = g.send(events::NOTES_FILL, json!(null));
    assert!(v.cells[0].notes != 0);
    assert!(v
        .cells
        .iter()
        .all(|c| c.given || c.value != 0 || c.notes != 0));
    let v = g.send(events::UNDO, json!(null));
    assert_eq!(v.cells[1].notes, 0b10100);
}

#[test]
fn undo_and_redo_step_through_every_action_and_a_new_action_clears_redo() {
    let g = Game::new(QT);
    let empties = g.empty_cells();
    let (a, b) = (empties[0], empties[1]);
    g.put(a.0, a.1, 1);
    g.put(b.0, b.1, 2);
    g.send(events::NOTES_TOGGLE, json!(null));
    g.digit(9); // a note in b? b holds 2: refused, nothing recorded
    assert!(g.view().message.contains("holds a digit"));
    g.send(events::NOTES_TOGGLE, json!(null));
    let v = g.send(events::UNDO, json!(null));
    assert_eq!(v.cells[b.0 * 9 + b.1].value, 0);
    assert!(v.can.undo && v.can.redo);
    let v = g.send(events::REDO, json!(null));
    assert_eq!(v.cells[b.0 * 9 + b.1].value, 2);
    assert!(!v.can.redo);
    g.send(events::UNDO, json!(null));
    g.send(events::UNDO, json!(null));
    let v = g.send(events::UNDO, json!(null));
    assert_eq!(v.message, "Nothing to undo.");
    assert!(!v.can.undo && v.can.redo);
    g.put(b.0, b.1, 5);
    assert!(!g.view().can.redo, "a new action clears the redo list");
}

#[test]
fn clashes_are_red_on_both_sides_and_the_solution_check_marks_wrong_digits() {
    let g = Game::new(QT);
    // r1c1 gets 2, which row 1 has at r1c4 (a given).
    let v = g.put(0, 0, 2);
    assert!(v.cells[0].error && v.cells[3].error);
    assert_eq!((0..81).filter(|&i| v.cells[i].error).count(), 2);
    // A wrong digit that breaks no rule: only the solution check marks it.
    let solution = g.solution();
    let (r, c) = g.empty_cells()[5];
    let wrong = (1..=9)
        .find(|&d| {
            d != solution.0[r][c]
                && (0..9).all(|k| g.givens.0[r][k] != d && g.givens.0[k][c] != d)
                && (0..9).all(|k| g.givens.0[r / 3 * 3 + k / 3][c / 3 * 3 + k % 3] != d)
        })
        .unwrap();
    g.send(events::UNDO, json!(null));
    let v = g.put(r, c, wrong);
    assert!(!v.cells[r * 9 + c].error);
    let v = g.send(events::SETTINGS, json!({ "check": "solution" }));
    assert_eq!(v.settings.check, CheckMode::Solution);
    assert!(v.cells[r * 9 + c].error);
    // Same digit as the selection is highlighted.
    assert!(v.cells[r * 9 + c].same);
}

#[test]
fn three_hints_a_game_each_shown_then_carried_out_and_a_mistake_first() {
    let g = Game::new(QT);
    let solution = g.solution();
    for left in [2, 1, 0] {
        let v = g.send(events::HINT, json!(null));
        let target = (0..81)
            .find(|&i| v.cells[i].hint == 2)
            .expect("a target cell");
        assert!(v.cells[target].selected);
        assert_eq!(v.cells[target].value, 0, "shown, not placed yet");
        assert_eq!(v.hints_left, left);
        assert!(
            v.message.contains("Hint again to place it"),
            "{}",
            v.message
        );
        let v = g.send(events::HINT, json!(null));
        assert_eq!(v.cells[target].value, solution.0[target / 9][target % 9]);
        assert!(v.cells.iter().all(|c| c.hint == 0));
    }
    let v = g.send(events::HINT, json!(null));
    assert_eq!(v.message, "No hints left: 3 per game.");
    assert!(!v.can.hint);
    // A new attempt has its hints back; a mistake is pointed at first.
    let g = Game::new(QT);
    g.put(0, 0, 2);
    let v = g.send(events::HINT, json!(null));
    assert!(v.message.starts_with("Mistake at r1c1"), "{}", v.message);
    assert_eq!((v.cells[0].hint, v.cells[3].hint), (2, 1));
    let v = g.send(events::HINT, json!(null));
    assert_eq!(v.cells[0].value, 0, "the second press removes the mistake");
    g.machine.with_data(|d| {
        assert!(matches!(
            d.play.history.undo.last().unwrap().kind,
            game::MoveKind::Hint
        ));
        assert_eq!(d.play.hints_used, 1);
        assert!(!matches!(d.play.hint, Some(ShownHint::Mistake { .. })));
    });
}

#[test]
fn show_answer_ends_the_game_unsolved_and_is_disabled_while_paused() {
    let g = Game::new(QT);
    let v = g.send(events::PAUSE, json!(null));
    assert!(!v.can.answer);
    g.send(events::ANSWER, json!(null));
    assert!(g.active(State::Paused), "ignored while paused");
    g.send(events::RESUME, json!(null));
    // It ends the game, so it asks first; keeping the game returns to it.
    let v = g.send(events::ANSWER, json!(null));
    assert!(g.active(State::Confirming));
    assert_eq!(
        (v.question_title.as_ref(), v.confirm_label.as_ref()),
        ("Show the answer?", "Show answer")
    );
    g.send(events::CANCEL, json!(null));
    assert!(g.active(State::Running));
    g.send(events::ANSWER, json!(null));
    let v = g.send(events::CONFIRM, json!(null));
    assert!(g.active(State::Revealed) && !g.active(State::Solved));
    assert_eq!(v.phase, Phase::Revealed);
    assert_eq!(v.status, "Answer shown: not solved by you");
    let solution = g.solution();
    assert!((0..81).all(|i| v.cells[i].value == solution.0[i / 9][i % 9]));
    // The digits the answer filled in are set apart from the givens and the player's.
    let (r, c) = g.empty_cells()[0];
    let cell = &v.cells[r * 9 + c];
    assert!(cell.answered && !cell.guessed && !v.cells[3].answered);
    assert_eq!(g.machine.next_deadline(), None, "the clock stopped");
    // Start plays it again, without asking (the game was over).
    g.send(events::START, json!(null));
    assert!(g.active(State::Running));
    assert_eq!(g.value(0, 0), 0);
}

#[test]
fn the_clock_ticks_only_while_running_and_pause_resumes_the_exact_sub_state() {
    let g = Game::new(QT);
    g.machine.advance_time(Duration::from_millis(2_550));
    assert_eq!(g.heard.borrow().clocks, ["0:01", "0:02"]);
    g.send(events::NOTES_TOGGLE, json!(null)); // pencil, then pause
    assert_eq!(
        g.send(events::UNDO, json!(null)).message,
        "Nothing to undo."
    );
    let v = g.send(events::PAUSE, json!(null));
    assert!(g.active(State::Paused));
    assert!(
        v.cells.iter().all(|c| c.value == 0 && !c.given),
        "the board is hidden"
    );
    assert_eq!(v.can.pause_label, "Resume");
    assert!(
        v.pencil,
        "the Notes button still says notes mode, which resume brings back"
    );
    g.machine.advance_time(Duration::from_secs(60));
    g.click(0, 0); // ignored while paused
    g.send(events::WINDOW_HIDDEN, json!(null)); // paused stays paused
    assert!(g.active(State::Paused));
    let v = g.send(events::PAUSE, json!(null)); // pause again = resume
    assert!(g.active(State::Pencil), "history brings back notes mode");
    assert_eq!(v.message, "", "the message was about the last move");
    assert!(v.pencil && v.cells[3].given);
    assert_eq!(v.clock, "0:02");
    // Minimised: the clock stops and comes back on its own when the window shows; Resume
    // there resumes too.
    g.send(events::WINDOW_HIDDEN, json!(null));
    assert!(g.active(State::Hidden));
    g.send(events::RESUME, json!(null));
    assert!(g.active(State::Pencil));
    g.send(events::WINDOW_HIDDEN, json!(null));
    g.machine.advance_time(Duration::from_secs(30));
    g.send(events::WINDOW_SHOWN, json!(null));
    assert!(g.active(State::Pencil));
    g.machine.advance_time(Duration::from_millis(1_000));
    assert_eq!(g.heard.borrow().clocks.last().unwrap(), "0:03");
    let tenths = g.machine.with_data(|d| d.play.tenths);
    assert_eq!(
        tenths, 35,
        "2.5 s, then 1.0 s: paused and hidden time not counted"
    );
}

#[test]
fn solving_stops_the_clock_and_shows_the_final_time() {
    let g = Game::new(NEARLY_SOLVED);
    g.machine.advance_time(Duration::from_secs(75));
    let v = g.put(0, 0, 4);
    assert!(g.active(State::Solved));
    assert_eq!(v.status, "Solved in 1:15");
    assert_eq!(g.machine.next_deadline(), None);
    g.machine.advance_time(Duration::from_secs(10));
    assert_eq!(g.heard.borrow().clocks.len(), 75);
}

#[test]
fn the_window_is_told_how_each_game_ended_and_what_counted_as_help() {
    use sudoku_machine::game::{Ending, GameOver};
    let g = Game::new(NEARLY_SOLVED);
    g.machine.advance_time(Duration::from_secs(75));
    g.put(0, 0, 4);
    let level = g.machine.with_data(|d| d.puzzle.level);
    let unaided = GameOver {
        outcome: Ending::Solved,
        puzzle: g.machine.with_data(|d| d.puzzle.name.clone()),
        level,
        seconds: 75,
        hints: 0,
        solution_checked: false,
    };
    assert_eq!(g.heard.borrow().over, std::slice::from_ref(&unaided));
    assert!(unaided.unaided());

    // The solution check on for a moment is help, even when it is off again at the end.
    let g = Game::new(NEARLY_SOLVED);
    g.send(events::SETTINGS, json!({ "check": "solution" }));
    g.send(events::SETTINGS, json!({ "check": "conflicts" }));
    g.put(0, 0, 4);
    let over = g.heard.borrow().over.clone();
    assert!(over.len() == 1 && over[0].solution_checked && !over[0].unaided());

    // A hint is help; a new attempt starts without any, under the option in force.
    let g = Game::new(QT);
    g.send(events::HINT, json!(null));
    g.send(events::ANSWER, json!(null));
    g.send(events::CONFIRM, json!(null));
    let over = g.heard.borrow().over.clone();
    assert_eq!(over.len(), 1);
    assert_eq!((over[0].outcome, over[0].hints), (Ending::Revealed, 1));
    g.send(events::START, json!(null));
    assert!(g
        .machine
        .with_data(|d| !d.play.solution_checked && d.play.hints_used == 0));
    g.send(events::SETTINGS, json!({ "check": "solution" }));
    g.send(events::START, json!(null));
    assert!(
        g.machine.with_data(|d| d.play.solution_checked),
        "the check was on when the attempt started"
    );
    // Stopping a game is not an ending the records count.
    assert_eq!(g.heard.borrow().over.len(), 1);
}

#[test]
fn the_window_s_stop_asks_when_there_is_something_to_lose_and_qt_s_stop_does_not() {
    let g = Game::new(QT);
    let v = g.send(events::END, json!(null));
    assert!(g.active(State::Unsolved), "nothing to lose: stops at once");
    assert_eq!(v.can.start_stop_event, "start");
    g.send(events::START, json!(null));
    let (r, c) = g.empty_cells()[0];
    g.put(r, c, 6);
    let v = g.send(events::END, json!(null));
    assert!(g.active(State::Confirming));
    assert_eq!(v.question_title, "Stop this game?");
    assert!(
        v.question
            .starts_with("The game cannot be continued afterwards"),
        "the body does not repeat the title: {}",
        v.question
    );
    // Behind the question the toolbar's button still reads Stop, disabled.
    assert_eq!(
        (v.can.start_stop, v.can.start_stop_label.as_ref()),
        (false, "Stop")
    );
    g.send(events::CANCEL, json!(null));
    assert!(g.active(State::Running));
    g.send(events::END, json!(null));
    let v = g.send(events::CONFIRM, json!(null));
    assert!(g.active(State::Unsolved));
    assert_eq!(v.can.start_stop_label, "Start");
    assert_eq!(g.value(r, c), 6, "the grid stays shown");
    // Qt's stop never asks.
    let v = g.send(events::START, json!(null));
    assert!(g.active(State::Confirming), "starting over loses the digit");
    assert_eq!(
        v.can.start_stop_label, "Start",
        "the game behind is stopped"
    );
    g.send(events::CONFIRM, json!(null));
    g.put(r, c, 6);
    g.send(events::STOP, json!(null));
    assert!(g.active(State::Unsolved));
}

#[test]
fn start_after_stop_asks_before_it_wipes_the_game_and_cancel_keeps_it() {
    let g = Game::new(QT);
    let (r, c) = g.empty_cells()[0];
    g.put(r, c, 6);
    g.send(events::STOP, json!(null));
    let v = g.view();
    assert!(g.active(State::Unsolved));
    assert_eq!(
        (
            v.can.start_stop_label.as_ref(),
            v.can.start_stop_event.as_ref()
        ),
        ("Start", "start")
    );
    assert!(!v.can.edit);
    let v = g.send(events::START, json!(null));
    assert!(g.active(State::Confirming));
    assert_eq!(
        v.question,
        "Discard the game in progress and start this puzzle over? Lost: 1 entry."
    );
    assert!(!v.can.options, "the options wait for the answer");
    g.send(events::CANCEL, json!(null));
    assert!(g.active(State::Unsolved));
    assert_eq!(g.value(r, c), 6, "nothing lost");
    g.send(events::START, json!(null));
    g.send(events::CONFIRM, json!(null));
    assert!(g.active(State::Running));
    assert_eq!(g.value(r, c), 0, "started over");
    // Nothing to lose: Start after Stop starts at once.
    g.send(events::STOP, json!(null));
    g.send(events::START, json!(null));
    assert!(g.active(State::Running));
}

#[test]
fn choosing_another_puzzle_asks_only_when_there_is_something_to_lose() {
    let g = Game::new(QT);
    let other = puzzle::parse(NEARLY_SOLVED).unwrap();
    let load = json!({ "initState": other, "name": "nearly solved" });
    // Nothing entered yet: loads at once.
    let v = g.send(events::LOAD, load.clone());
    assert_eq!(
        (v.puzzle.as_str(), v.level.as_ref()),
        ("nearly solved", "Easy")
    );
    assert!(g.active(State::Running));
    // Something entered: asks; cancel returns to the exact sub-state, time not counted.
    g.send(events::LOAD, json!({ "initState": g.givens, "name": "qt" }));
    let (r, c) = g.empty_cells()[3];
    let v = g.send(events::NOTES_TOGGLE, json!(null));
    assert!(v.pencil);
    g.click(r, c);
    g.digit(1);
    g.machine.advance_time(Duration::from_secs(3));
    let v = g.send(events::LOAD, load.clone());
    assert!(g.active(State::Confirming));
    assert!(v.question.contains("play “nearly solved”"));
    assert!(!v.can.new_game);
    g.machine.advance_time(Duration::from_secs(20));
    let v = g.send(events::CANCEL, json!(null));
    assert!(g.active(State::Pencil));
    assert_eq!(v.puzzle, "qt");
    assert_eq!(v.clock, "0:03");
    assert_eq!(v.cells[r * 9 + c].notes, 1);
    g.send(events::LOAD, load);
    let v = g.send(events::CONFIRM, json!(null));
    assert!(g.active(State::Running) && g.active(State::Pen));
    assert_eq!(
        (v.puzzle.as_str(), v.clock.as_str()),
        ("nearly solved", "0:00")
    );
    assert!(!v.can.undo);
}

#[test]
fn puzzles_that_cannot_be_played_are_refused_and_improper_ones_warned_about() {
    let g = Game::new(QT);
    let mut clash = g.givens;
    clash.0[0][0] = 2;
    let v = g.send(events::LOAD, json!({ "initState": clash, "name": "bad" }));
    assert_eq!(
        v.message,
        "Cannot play “bad”: its givens clash: 2 twice in row 1 (r1c1 and r1c4)."
    );
    assert_eq!(
        v.puzzle, "",
        "the Qt puzzle set by set_initial_values has no name"
    );
    let v = g.send(
        events::LOAD,
        json!({ "initState": Grid::default(), "name": "empty" }),
    );
    assert_eq!(v.puzzle, "empty");
    assert!(
        v.message.contains("more than one solution"),
        "{}",
        v.message
    );
    assert!(!v.can.hint && !v.can.answer && v.level.is_empty());
    assert_eq!(v.hints, "No hints", "not “3 hints left”");
    g.send(events::HINT, json!(null));
    g.send(events::ANSWER, json!(null));
    assert!(g.active(State::Running));
}

#[test]
fn generation_is_requested_cancelled_and_received_and_late_results_are_ignored() {
    let g = Game::new(QT);
    let v = g.send(events::GENERATE, json!({ "level": "hard" }));
    assert!(g.active(State::Generating));
    assert_eq!(v.phase, Phase::Generating);
    assert_eq!(v.status, "Generating a new hard puzzle…");
    assert_eq!(g.heard.borrow().requests, [json!({ "level": "hard" })]);
    g.send(events::CANCEL, json!(null));
    assert!(g.active(State::Running));
    assert_eq!(g.heard.borrow().cancels, 1);
    // A result after the cancel changes nothing.
    let made = puzzle::parse(NEARLY_SOLVED).unwrap();
    let generated = json!({ "initState": made, "name": "Hard #1", "level": "hard" });
    g.send(events::GENERATED, generated.clone());
    assert_eq!(g.view().puzzle, "");
    // With progress it asks first; the worker is asked only once confirmed.
    g.put(g.empty_cells()[0].0, g.empty_cells()[0].1, 1);
    g.send(events::GENERATE, json!({ "level": "expert" }));
    assert!(g.active(State::Confirming));
    assert_eq!(g.heard.borrow().requests.len(), 1);
    g.send(events::CONFIRM, json!(null));
    assert_eq!(g.heard.borrow().requests[1], json!({ "level": "expert" }));
    // After a restart of the app the new worker is asked again.
    g.send(events::RESUMED, json!(null));
    assert_eq!(g.heard.borrow().requests.len(), 3);
    let v = g.send(events::GENERATED, generated);
    assert!(g.active(State::Running));
    assert_eq!((v.puzzle.as_str(), v.level.as_ref()), ("Hard #1", "Hard"));
    // A level that does not exist is not generated.
    g.send(events::GENERATE, json!({ "level": "impossible" }));
    assert!(g.active(State::Running));
}

#[test]
fn settings_change_and_nonsense_is_an_error_that_changes_nothing() {
    let g = Game::new(QT);
    let v = g.send(
        events::SETTINGS,
        json!({ "theme": "dark", "hint_limit": 1 }),
    );
    assert_eq!(v.settings.hint_limit, 1);
    assert_eq!(v.hints_left, 1);
    assert_eq!(v.hints, "1 hint left");
    g.send(events::SETTINGS, json!({ "theme": "purple" }));
    assert_eq!(g.errors().len(), 1);
    assert_eq!(
        g.machine.with_data(|d| d.settings.theme),
        sudoku_machine::game::Theme::Dark
    );
    // The level chooser's choice is kept with the options (Medium at first).
    let v = g.send(events::SETTINGS, json!({ "level": "easy" }));
    assert_eq!(v.settings.level, sudoku_machine::engine::Level::Easy);
    g.send(events::SETTINGS, json!({ "level": "impossible" }));
    assert_eq!(g.errors().len(), 2);
    assert_eq!(
        g.machine.with_data(|d| d.settings.level),
        sudoku_machine::engine::Level::Easy
    );
}

/// A saved game with its datamodel edited by `edit`.
fn forged(snapshot: &Snapshot, edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Snapshot {
    let mut s = snapshot.clone();
    edit(&mut s.data);
    s
}

fn check(snapshot: &Snapshot) -> Result<(), String> {
    let machine = Sudoku::restore(snapshot).map_err(|e| e.to_string())?;
    let active = machine.active_states();
    machine.with_data(|d| game::check(d, &active))
}

#[test]
fn a_saved_game_is_checked_against_the_chart_s_invariants() {
    let g = Game::new(QT);
    let (r, c) = g.empty_cells()[0];
    g.put(r, c, 5);
    g.send(events::NOTES_TOGGLE, json!(null));
    g.click(g.empty_cells()[1].0, g.empty_cells()[1].1);
    g.digit(3);
    g.send(events::UNDO, json!(null));
    let saved = g.machine.snapshot().unwrap();
    assert_eq!(check(&saved), Ok(()));

    // An undo list that points at a given.
    let bad = forged(&saved, |data| {
        data["play"]["history"]["undo"][0]["changes"][0]["cell"] = json!(3);
    });
    assert_eq!(
        check(&bad),
        Err("the undo list changes the given r1c4".into())
    );
    // Givens changed behind the recorded solution's back.
    let bad = forged(&saved, |data| {
        data["play"]["values"][0][3] = json!(0);
        data["initState"][0][3] = json!(0);
    });
    assert!(check(&bad).unwrap_err().contains("facts about the puzzle"));
    // Digits that no move put there, and a digit that is not the one the last move put.
    let (r, c) = g.empty_cells()[10];
    let bad = forged(&saved, |data| data["play"]["values"][r][c] = json!(9));
    assert!(check(&bad)
        .unwrap_err()
        .starts_with("undoing every move does not lead back"));
    let bad = forged(&saved, |data| data["play"]["values"][0][0] = json!(9));
    assert_eq!(
        check(&bad),
        Err("the undo list does not match the grid at r1c1".into())
    );
    // A given overwritten.
    let bad = forged(&saved, |data| data["play"]["values"][0][3] = json!(7));
    assert_eq!(
        check(&bad),
        Err("the grid has 7 at r1c4, where the puzzle gives 2".into())
    );
    // `solved` over a grid that is not.
    let mut bad = saved.clone();
    bad.configuration = ["game", "desk", "session", "idle", "solved"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        check(&bad),
        Err("the game is marked solved, but the grid is not".into())
    );
    // A clock past any real game.
    let bad = forged(&saved, |data| data["play"]["tenths"] = json!(u64::MAX));
    assert!(check(&bad).unwrap_err().contains("out of range"));
    // More hints than allowed; a redo list that does not fit.
    let bad = forged(&saved, |data| data["play"]["hints_used"] = json!(9));
    assert!(check(&bad).unwrap_err().contains("9 hints were used"));
    let bad = forged(&saved, |data| {
        data["play"]["history"]["redo"][0]["changes"][0]["before"]["notes"] = json!(4)
    });
    assert!(check(&bad)
        .unwrap_err()
        .starts_with("the redo list does not match"));
}

#[test]
fn the_pieces_of_the_view_all_come_from_the_chart_s_states() {
    // Every state id that the view's phase and the game's rules name exists in the chart.
    for id in [
        "generating",
        "confirming",
        "paused",
        "hidden",
        "running",
        "solved",
        "revealed",
        "pen",
        "pencil",
        "unsolved",
        "playing",
    ] {
        assert!(State::from_id(id).is_some(), "{id}");
    }
    assert_eq!(Level::Hard.to_string(), "hard");
}
