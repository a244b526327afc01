//! Plays the game through the window on Slint's headless testing backend: widgets are found by
//! their accessible labels and pressed through their default actions, keys are sent to the
//! window as a keyboard sends them, time moves on a mock clock, and the assertions read what
//! a player would see (cell digits and marks, button states, the status, the clock, the
//! message).

mod common;

use common::*;
use std::time::Duration;

use slint::platform::{Key, PointerEventButton};
use slint::Model;
use sudoku_machine::engine::unique_solution;
use sudoku_machine::puzzle::parse;
use sudoku_machine::State;

#[test]
fn the_game_opens_ready_to_play_a_click_and_a_digit_place_it() {
    let h = start();
    assert_eq!(h.status(), "Playing");
    assert!(h.ui.machine().is_active(State::Running));
    let (r, c) = h.empty(0);
    h.click(r, c);
    h.key("7");
    assert_eq!(h.digit(r, c), "7");
    assert!(h.marks(r, c).contains("selected"));
    assert!(h.enabled("Undo") && !h.enabled("Redo"));
    // A pointer click selects too.
    let (r2, c2) = h.empty(1);
    h.cell(r2, c2).mock_single_click(PointerEventButton::Left);
    assert!(h.marks(r2, c2).contains("selected"));
    assert!(!h.marks(r, c).contains("selected"));
}

#[test]
fn arrows_move_the_selection_delete_clears_and_givens_stay_locked() {
    let h = start();
    h.key(Key::DownArrow);
    assert!(
        h.marks(0, 0).contains("selected"),
        "the first arrow selects r1c1"
    );
    h.key("5");
    assert_eq!(h.digit(0, 0), "5");
    h.key(Key::RightArrow);
    h.key(Key::RightArrow);
    h.key(Key::RightArrow); // r1c4, a given 2
    assert!(h.marks(0, 3).starts_with("given"));
    h.key("9");
    assert_eq!(h.digit(0, 3), "2");
    assert_eq!(h.message(), "r1c4 is a given: it cannot be changed.");
    for _ in 0..3 {
        h.key(Key::LeftArrow);
    }
    h.key(Key::Delete);
    assert_eq!(h.digit(0, 0), "");
    h.key("3");
    h.key(Key::Backspace);
    assert_eq!(h.digit(0, 0), "");
    h.key("3");
    h.key("0");
    assert_eq!(h.digit(0, 0), "");
    // Qt's click-to-cycle: clicking the selected cell counts its digit up.
    h.click(0, 0);
    h.click(0, 0);
    assert_eq!(h.digit(0, 0), "2");
}

#[test]
fn notes_are_removed_from_peers_by_a_digit_and_come_back_on_undo() {
    let h = start();
    h.press("Notes: Off");
    assert!(h.exists("Notes: On"));
    // r1c2 and r1c3 are empty cells of row 1; notes 3 and 4 in both.
    for (r, c) in [(0, 1), (0, 2)] {
        h.click(r, c);
        h.key("3");
        h.key("4");
    }
    assert!(h.marks(0, 1).ends_with("notes 34"), "{}", h.marks(0, 1));
    assert_eq!(h.digit(0, 1), "");
    h.key("n");
    assert!(h.exists("Notes: Off"), "N toggles notes mode");
    h.click(0, 0);
    h.key("3");
    assert_eq!(h.digit(0, 0), "3");
    assert!(h.marks(0, 1).ends_with("notes 4"), "{}", h.marks(0, 1));
    assert!(h.marks(0, 2).ends_with("notes 4"));
    h.ctrl("z", false);
    assert_eq!(h.digit(0, 0), "");
    assert!(
        h.marks(0, 1).ends_with("notes 34"),
        "one undo brings both back"
    );
    assert!(h.marks(0, 2).ends_with("notes 34"));
    // Fill candidates is one step too.
    h.press("Fill candidates");
    assert!(h.marks(8, 8).contains("notes"), "{}", h.marks(8, 8));
    h.press("Undo");
    assert!(!h.marks(8, 8).contains("notes"));
}

#[test]
fn undo_and_redo_by_buttons_and_keys() {
    let h = start();
    let (a, b) = (h.empty(0), h.empty(1));
    h.click(a.0, a.1);
    h.key("1");
    h.click(b.0, b.1);
    h.key("2");
    h.ctrl("z", false);
    assert_eq!(h.digit(b.0, b.1), "");
    assert!(h.enabled("Redo"));
    h.ctrl("y", false);
    assert_eq!(h.digit(b.0, b.1), "2");
    h.press("Undo");
    h.press("Undo");
    assert_eq!(h.digit(a.0, a.1), "");
    assert!(!h.enabled("Undo"));
    h.ctrl("z", true); // Ctrl+Shift+Z redoes
    assert_eq!(h.digit(a.0, a.1), "1");
    h.press("Redo");
    assert_eq!(h.digit(b.0, b.1), "2");
    assert!(!h.enabled("Redo"));
    h.ctrl("z", false);
    h.click(b.0, b.1);
    h.key("5");
    assert!(!h.enabled("Redo"), "a new action clears the redo list");
}

#[test]
fn clashes_are_red_and_the_solution_check_marks_wrong_digits_too() {
    let h = start();
    h.click(0, 0);
    h.key("2"); // row 1 has the given 2 at r1c4
    assert!(h.marks(0, 0).contains("mistake"));
    assert!(
        h.marks(0, 3).contains("mistake"),
        "the given it clashes with"
    );
    assert!(!h.marks(0, 4).contains("mistake"));
    h.key(Key::Delete);
    // A wrong digit that clashes with nothing yet.
    let givens = parse(QT).unwrap();
    let solution = unique_solution(&givens).unwrap();
    let (r, c, wrong) = (0..81)
        .map(|i| (i / 9, i % 9))
        .filter(|&(r, c)| givens.0[r][c] == 0)
        .find_map(|(r, c)| {
            (1..=9)
                .find(|&d| {
                    d != solution.0[r][c]
                        && (0..9).all(|k| {
                            givens.0[r][k] != d
                                && givens.0[k][c] != d
                                && givens.0[r / 3 * 3 + k / 3][c / 3 * 3 + k % 3] != d
                        })
                })
                .map(|d| (r, c, d))
        })
        .unwrap();
    h.click(r, c);
    h.key(wrong.to_string());
    assert!(!h.marks(r, c).contains("mistake"));
    h.game().invoke_set_check_solution(true);
    assert!(h.marks(r, c).contains("mistake"));
    h.game().invoke_set_check_solution(false);
    assert!(!h.marks(r, c).contains("mistake"));
}

#[test]
fn three_hints_then_a_refusal_each_shown_then_placed() {
    let h = start();
    for left in ["2 hints left", "1 hint left", "No hints left"] {
        h.press("Hint");
        assert!(
            h.message().contains("Hint again to place it"),
            "{}",
            h.message()
        );
        assert!(h.exists(left));
        let target = (0..81)
            .map(|i| (i / 9, i % 9))
            .find(|&(r, c)| h.marks(r, c).contains(", hint target"))
            .expect("the hint's cell is marked");
        assert_eq!(h.digit(target.0, target.1), "");
        h.key("h");
        assert_ne!(
            h.digit(target.0, target.1),
            "",
            "the second press places it"
        );
    }
    assert!(!h.enabled("Hint"));
    h.key("h");
    assert_eq!(h.message(), "No hints left: 3 per game.");
}

#[test]
fn pause_hides_the_board_stops_the_clock_and_resume_restores_notes_mode() {
    let h = start();
    h.wait(2_100);
    assert_eq!(h.clock(), "0:02");
    h.press("Notes: Off");
    h.click(0, 0);
    h.key("4");
    h.press("Pause");
    assert_eq!(h.status(), "Paused");
    assert!(
        (0..9).all(|c| h.digit(0, c).is_empty()),
        "the board is hidden"
    );
    assert!(
        !h.enabled("Show answer"),
        "show answer is disabled while paused"
    );
    h.press("Show answer");
    assert!(h.ui.machine().is_active(State::Paused));
    h.wait(5_000);
    assert_eq!(h.clock(), "0:02", "no time passes while paused");
    h.key("p");
    assert!(h.exists("Notes: On"), "resumed into notes mode");
    assert!(h.marks(0, 0).ends_with("notes 4"));
    assert_eq!(h.digit(0, 3), "2");
    h.wait(1_000);
    assert_eq!(h.clock(), "0:03");
    // Minimised: the clock stops; shown again: it goes on by itself.
    h.game().invoke_window_minimized(true);
    h.wait(4_000);
    h.game().invoke_window_minimized(false);
    h.wait(1_000);
    assert_eq!(h.clock(), "0:04");
}

#[test]
fn a_game_in_progress_is_not_discarded_without_asking() {
    let h = start();
    let (r, c) = h.empty(0);
    h.click(r, c);
    h.key("6");
    // Choosing another puzzle asks; Keep playing keeps everything.
    h.game().invoke_puzzle_chosen(1);
    assert!(h.exists("Discard"));
    assert_eq!(
        h.game().get_current_puzzle(),
        0,
        "the chooser shows the game being played"
    );
    h.press("Keep my game");
    assert!(!h.exists("Discard"));
    assert_eq!(h.digit(r, c), "6");
    // Opening a file (as `--open FILE` does at start) asks too.
    let file = temp_file("open-in-progress.data", NEARLY_SOLVED);
    h.ui.open_puzzle_file(&file).unwrap();
    assert!(h.exists("Discard"));
    h.press("Keep my game");
    assert_eq!(h.digit(r, c), "6");
    std::fs::remove_file(file).unwrap();
    // Through the Open dialog, which covers the board (the clock waits), then Keep my game:
    // the game runs again, it is not left paused.
    let file = temp_file("open-through-the-dialog.data", NEARLY_SOLVED);
    h.game().set_open_dialog_shown(true);
    h.wait(100);
    assert!(h.ui.machine().is_active(State::Hidden), "covered");
    h.game().invoke_open_file(file.to_str().unwrap().into());
    h.wait(100);
    assert!(h.exists("Discard"));
    h.press("Keep my game");
    h.wait(100);
    assert!(h.ui.machine().is_active(State::Running), "{}", h.status());
    assert_eq!(h.digit(r, c), "6");
    std::fs::remove_file(file).unwrap();
    // Stop asks first; then Start asks whether to discard; Escape is Keep playing.
    h.press("Stop");
    assert!(h.exists("Stop this game?"), "Stop asks first");
    h.confirm();
    h.press("Start");
    assert!(h.exists("Discard"));
    h.key(Key::Escape);
    assert_eq!(h.digit(r, c), "6");
    // A new game of a level asks; Discard goes ahead.
    h.press("Start");
    h.press("Discard");
    assert_eq!(h.digit(r, c), "", "started over");
    h.game().invoke_puzzle_chosen(1);
    assert!(!h.exists("Discard"), "nothing to lose: no question");
    assert_eq!(h.digit(0, 1), "3", "the nearly solved puzzle");
}

#[test]
fn new_game_by_level_is_generated_off_the_ui_thread_and_can_be_cancelled() {
    let h = start();
    h.press("New game"); // the level box says Medium
    assert!(h.exists("Cancel"), "the window shows that it is working");
    h.press("Cancel");
    assert!(!h.exists("Cancel"));
    assert!(h.ui.machine().is_active(State::Running));
    h.game().invoke_new_game("easy".into());
    for _ in 0..400 {
        if !h.ui.generating() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    h.wait(100);
    assert!(h.ui.machine().is_active(State::Running));
    assert!(
        h.game().get_puzzle_name().starts_with("Generated #"),
        "{}",
        h.game().get_puzzle_name()
    );
    let names = h.game().get_puzzle_names();
    let index = h.game().get_current_puzzle() as usize;
    assert!(names.row_data(index).unwrap().ends_with("· Easy"));
}

#[test]
fn opening_a_file_with_several_solutions_says_so() {
    let h = start();
    let path = temp_file("multi.txt", &".".repeat(81));
    h.ui.open_puzzle_file(&path).unwrap();
    assert!(
        h.message().contains("more than one solution"),
        "{}",
        h.message()
    );
    assert!(!h.enabled("Hint"));
    let bad = temp_file("bad.txt", "not a puzzle");
    h.ui.open_puzzle_file_or_show_error(&bad);
    assert!(h.exists("Path"));
    let error = h.game().get_open_error().to_string();
    assert!(error.contains("bad.txt"), "{error}");
    std::fs::remove_file(path).unwrap();
    std::fs::remove_file(bad).unwrap();
}

#[test]
fn save_puzzle_writes_the_givens_and_asks_before_replacing_a_file() {
    let h = start();
    let (r, c) = h.empty(0);
    h.click(r, c);
    h.key("7");
    h.game().set_save_dialog_shown(true);
    h.game().invoke_prepare_save();
    h.wait(50);
    assert!(h.exists("Path"));
    let name = h.game().get_puzzle_name().to_string();
    assert_eq!(h.game().get_save_path(), format!("~/{name}.txt"));
    assert!(
        h.ui.machine().is_active(State::Hidden),
        "the dialog covers the board"
    );
    let path = temp_file("saved-puzzle.data", "an older file");
    h.game().invoke_save_file(path.to_str().unwrap().into());
    let error = h.game().get_save_error().to_string();
    assert!(
        error.ends_with("exists already: Save again to replace it"),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "an older file");
    h.game().invoke_save_file(path.to_str().unwrap().into());
    assert!(
        !h.game().get_save_dialog_shown(),
        "{}",
        h.game().get_save_error()
    );
    let saved = sudoku_ui::read_puzzle_file(&path).unwrap();
    let index = h.game().get_current_puzzle() as usize;
    assert_eq!(
        saved.givens,
        puzzles()[index].givens,
        "the givens, not the entry"
    );
    h.wait(50);
    assert!(h.ui.machine().is_active(State::Running));
    std::fs::remove_file(path).unwrap();
}

#[test]
fn help_lists_the_rules_controls_and_techniques_and_about_credits_slint() {
    let h = start();
    assert!(!h.exists("The rules"));
    h.key(Key::F1);
    assert!(h.game().get_help_shown());
    assert!(h.exists("The rules") && h.exists("Keyboard") && h.exists("Mouse"));
    // The glossary: every technique a hint can name, with what it does. (Its rows are made
    // when the dialog is laid out, which the testing backend does not do; the screenshot
    // check covers the drawing.)
    let glossary: Vec<_> = h.game().get_glossary().iter().collect();
    assert_eq!(glossary.len(), 20);
    for technique in [
        "Hidden Single",
        "XY-Wing",
        "Unique Rectangle Type 1",
        "Search",
    ] {
        let entry = glossary
            .iter()
            .find(|e| e.heading == technique)
            .expect(technique);
        assert!(entry.body.len() > 40, "{technique}: {}", entry.body);
    }
    h.key(Key::Escape);
    assert!(!h.game().get_help_shown());
    h.game().set_about_shown(true);
    assert!(h.exists(
        "The user interface is built with Slint, used under the Slint Royalty-free License."
    ));
}

#[test]
fn the_autosave_brings_back_notes_redo_time_and_hints() {
    let dir = save_dir("round-trip");
    {
        let h = start_with(puzzles(), Some(dir.clone()));
        let (a, b) = (h.empty(0), h.empty(1));
        h.click(a.0, a.1);
        h.key("1");
        h.key("n");
        h.click(b.0, b.1);
        h.key("8");
        h.key("9");
        h.ctrl("z", false); // note 9 can be redone
        h.press("Hint");
        h.game().invoke_level_chosen("easy".into());
        h.wait(7_000);
        assert_eq!(h.clock(), "0:07");
        // The window is dropped without closing: as if the process died.
    }
    let h = start_with(puzzles(), Some(dir.clone()));
    let (a, b) = (h.empty(0), h.empty(1));
    assert_eq!(h.digit(a.0, a.1), "1");
    assert!(
        h.marks(b.0, b.1).ends_with("notes 8"),
        "{}",
        h.marks(b.0, b.1)
    );
    assert!(h.exists("Notes: On"));
    assert!(h.exists("2 hints left"));
    assert!(
        h.message().contains("Hint again"),
        "the hint on screen is back"
    );
    assert_eq!(
        h.clock(),
        "0:05",
        "time up to the last time mark (every 5 s)"
    );
    assert!(h.enabled("Redo"));
    h.press("Redo");
    assert!(h.marks(b.0, b.1).ends_with("notes 89"));
    assert_eq!(
        h.game().get_level_index(),
        0,
        "the level chooser's Easy is kept"
    );
    assert!(h.game().get_notice().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_save_is_reported_in_the_window_and_set_aside() {
    let dir = save_dir("damaged");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game.json"), "{ not a save").unwrap();
    let h = start_with(puzzles(), Some(dir.clone()));
    let notice = h.game().get_notice().to_string();
    assert!(
        notice.starts_with("Your saved game could not be restored"),
        "{notice}"
    );
    assert!(notice.contains("game.json.bad-1"), "{notice}");
    assert!(h.exists(&format!("Notice: {notice}")));
    h.press("OK");
    h.wait(50);
    assert!(h.game().get_notice().is_empty());
    assert!(h.ui.machine().is_active(State::Running), "a new game");
    assert!(files(&dir).contains(&"game.json.bad-1".to_owned()));
    drop(h);

    // A save whose undo list rewrites a given is refused as a whole.
    let h = start_with(puzzles(), Some(dir.clone()));
    let (r, c) = h.empty(0);
    h.click(r, c);
    h.key("1");
    h.ui.session().compact();
    drop(h);
    let path = dir.join("game.json");
    let mut saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    saved["machine"]["data"]["play"]["history"]["undo"][0]["changes"][0]["cell"] = 3.into();
    std::fs::write(&path, serde_json::to_vec(&saved).unwrap()).unwrap();
    let h = start_with(puzzles(), Some(dir.clone()));
    let notice = h.game().get_notice().to_string();
    assert!(
        notice.contains("the undo list changes the given r1c4"),
        "{notice}"
    );
    assert!(files(&dir).contains(&"game.json.bad-2".to_owned()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_solved_game_shows_the_statistics_and_the_best_time_is_kept() {
    let dir = save_dir("records");
    let nearly = || vec![puzzle("nearly solved", NEARLY_SOLVED)];
    {
        let h = start_with(nearly(), Some(dir.clone()));
        h.wait(65_000);
        h.click(0, 0);
        h.key("4");
        assert!(h.ui.machine().is_active(State::Solved));
        assert!(h.game().get_stats_shown(), "solving opens the statistics");
        let headline = h.game().get_stats_headline().to_string();
        assert!(
            headline.starts_with("Solved in 1:05 without help: your first best time for "),
            "{headline}"
        );
        assert!(h.exists(&format!("Summary: {headline}")));
        let rows: Vec<_> = h.game().get_stats_rows().iter().collect();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].solved.as_str(), rows[0].unaided.as_str()),
            ("1", "1")
        );
        assert_eq!(
            (rows[0].best.as_str(), rows[0].average.as_str()),
            ("1:05", "1:05")
        );
        h.key(Key::Escape);
        assert!(!h.game().get_stats_shown());

        // Again, faster but with a hint: solved, not a best time.
        h.press("Start");
        h.wait(3_000);
        h.press("Hint");
        h.press("Hint");
        assert!(h.ui.machine().is_active(State::Solved));
        let headline = h.game().get_stats_headline().to_string();
        assert_eq!(
            headline,
            "Solved in 0:03 with a hint: it counts as solved, not for the best time."
        );
        let rows: Vec<_> = h.game().get_stats_rows().iter().collect();
        assert_eq!(
            (
                rows[0].solved.as_str(),
                rows[0].unaided.as_str(),
                rows[0].best.as_str()
            ),
            ("2", "1", "1:05")
        );
        assert_eq!(rows[0].average.as_str(), "0:34");
    }
    // The records are kept; the menu shows them without a summary.
    let h = start_with(nearly(), Some(dir.clone()));
    assert!(!h.game().get_stats_shown());
    assert_eq!(h.ui.records().levels[0].solved, 2);
    h.game().set_stats_shown(true);
    assert!(!h.exists("No game finished yet. Solve a puzzle to see your times here."));
    assert_eq!(h.game().get_stats_rows().row_count(), 1);

    // Reset asks first; "Keep them" keeps them, "Reset" forgets them, in the file too.
    h.press("Reset statistics…");
    assert!(h.exists("Reset forgets the games and times of every level. It cannot be undone."));
    h.press("Keep them");
    assert_eq!(h.ui.records().levels.len(), 1);
    h.press("Reset statistics…");
    h.press("Reset");
    assert!(h.exists("No game finished yet. Solve a puzzle to see your times here."));
    assert!(!h.exists("Reset statistics…"), "nothing left to reset");
    assert!(h.ui.records().levels.is_empty());
    drop(h);
    let h = start_with(nearly(), Some(dir.clone()));
    assert!(h.ui.records().levels.is_empty(), "the file was reset too");
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();

    // A first start has none.
    let h = start();
    h.game().set_stats_shown(true);
    assert!(h.exists("No game finished yet. Solve a puzzle to see your times here."));
}

#[test]
fn a_second_window_on_the_same_save_does_not_write_the_records() {
    let dir = save_dir("records-busy");
    let nearly = || vec![puzzle("nearly solved", NEARLY_SOLVED)];
    let first = start_with(nearly(), Some(dir.clone()));
    let second = start_with(nearly(), Some(dir.clone()));
    assert!(second.game().get_notice().contains("Another Sudoku window"));
    second.key(Key::Escape); // the notice read
    second.click(0, 0);
    second.key("4");
    assert!(
        second.game().get_stats_shown(),
        "its game is still summed up"
    );
    assert!(!dir.join("records.json").exists(), "but not kept");
    first.click(0, 0);
    first.key("4");
    assert_eq!(first.ui.records().levels[0].solved, 1);
    assert!(dir.join("records.json").exists());
    // A window opened now shows the records the first keeps, and leaves them to it.
    let third = start_with(nearly(), Some(dir.clone()));
    third.key(Key::Escape); // the notice read
    assert_eq!(third.ui.records().levels[0].solved, 1);
    third.game().set_stats_shown(true);
    third.press("Reset statistics…");
    third.press("Reset");
    assert_eq!(third.ui.records().levels[0].solved, 1, "not reset here");
    assert_eq!(
        third.game().get_notice(),
        "Another Sudoku window keeps your records: reset them there."
    );
    assert_eq!(first.ui.records().levels[0].solved, 1);
    drop((first, second, third));
    std::fs::remove_dir_all(&dir).unwrap();
}
