//! Edit mode, the animated search and the live chart view through the window on Slint's
//! headless testing backend, as a player uses them: a puzzle typed with the keyboard and
//! the mouse and each verdict read in the window, Solve, Play ("My puzzle 1", kept across
//! restarts), the search advancing on the mock clock, paused, stepped and stopped, and the
//! chart view lighting the active states.

mod common;

use common::*;
use slint::platform::Key;
use slint::Model;
use sudoku_machine::engine::unique_solution;
use sudoku_machine::puzzle::parse;
use sudoku_machine::State;

/// The 81 digits on the board, as the cells show them (`.` for an empty cell).
fn board(h: &Harness) -> String {
    (0..81)
        .map(|i| {
            let d = h.digit(i / 9, i % 9);
            if d.is_empty() {
                ".".to_owned()
            } else {
                d
            }
        })
        .collect()
}

/// The chooser's entries.
fn chooser(h: &Harness) -> Vec<String> {
    h.game()
        .get_puzzle_names()
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn line(grid: &sudoku_machine::datamodel::Grid) -> String {
    grid.0
        .iter()
        .flatten()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}

/// Save puzzle… in edit mode writes the givens typed so far, and refuses an empty grid.
#[test]
fn the_puzzle_being_typed_can_be_saved() {
    let h = start();
    h.press("Enter puzzle");
    let path = std::env::temp_dir().join(format!("sudoku-ui-{}-typed.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    h.game().invoke_save_file(path.to_str().unwrap().into());
    assert_eq!(
        h.game().get_save_error(),
        "the grid has no givens yet: type some first"
    );
    h.click(0, 0);
    h.key("5");
    h.click(4, 4);
    h.key("7");
    h.game().invoke_save_file(path.to_str().unwrap().into());
    assert_eq!(h.game().get_save_error(), "");
    let saved = std::fs::read_to_string(&path).unwrap();
    let line = format!("5{}7{}", ".".repeat(39), ".".repeat(40));
    assert_eq!(saved, format!("# My puzzle\n{line}\n"));
    assert_eq!(h.status(), "Edit mode: type the givens", "still typing");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_typed_puzzle_gets_each_verdict_in_the_window_then_is_solved_and_played() {
    let dir = save_dir("edit");
    let h = start_with(puzzles(), Some(dir.clone()));
    let qt = parse(QT).unwrap();
    h.press("Enter puzzle");
    assert_eq!(h.status(), "Edit mode: type the givens");
    assert_eq!(board(&h), ".".repeat(81), "a blank grid");
    assert!(
        h.message().starts_with("Type the givens"),
        "{}",
        h.message()
    );

    // Several solutions: Check on the empty grid (Enter is Check while typing).
    h.key(Key::Return);
    assert_eq!(h.status(), "Several solutions");
    assert!(h
        .message()
        .starts_with("Several solutions: an empty grid leaves"));

    // Invalid: 5 in r1c1 by the keyboard, 5 in r1c9 by a click and the pad; both red.
    h.key("5");
    assert_eq!(h.status(), "Edit mode: type the givens", "typing goes on");
    h.click(0, 8);
    h.press("5");
    assert!(h.marks(0, 0).contains("mistake"), "{}", h.marks(0, 0));
    assert!(h.marks(0, 8).contains("mistake"));
    h.press("Check");
    assert_eq!(h.status(), "Not a valid puzzle");
    assert_eq!(
        h.message(),
        "Not a valid puzzle: 5 twice in row 1 (r1c1 and r1c9)."
    );

    // Ctrl+Z takes back the 5 of r1c9 (and Ctrl+Y types it again), as in play.
    assert!(h.enabled("Erase"));
    h.ctrl("z", false);
    assert_eq!(h.digit(0, 8), "", "undone");
    assert_eq!(h.status(), "Edit mode: type the givens", "back to typing");
    h.ctrl("y", false);
    assert_eq!(h.digit(0, 8), "5", "redone");

    // No solution: Delete r1c9, then 1-8 along row 1 with the arrows and 9 in r2c9.
    h.key(Key::Delete);
    h.click(0, 0);
    for d in 1..=8 {
        h.key(d.to_string());
        h.key(Key::RightArrow);
    }
    h.key(Key::DownArrow);
    h.key("9");
    h.press("Check");
    assert_eq!(h.status(), "No solution");
    assert_eq!(
        h.message(),
        "No solution: the singles and locked candidates these 9 givens force leave r1c9 without a candidate."
    );
    assert!(!h.enabled("Play it") && !h.enabled("Solve"));

    // Escape leaves edit mode, asking first (9 givens were typed): Escape again keeps
    // typing, Leave goes back to the game as it was.
    h.key(Key::Escape);
    assert!(h.exists("Leave") && h.exists("Keep typing"), "the question");
    assert!(h.exists("Check"), "edit mode's controls stay in the panel");
    h.key(Key::Escape);
    assert!(!h.exists("Leave"));
    assert_eq!(h.status(), "No solution", "back where it was");
    h.key(Key::Escape);
    h.press("Leave");
    assert_eq!(h.status(), "Playing");
    assert_eq!(board(&h), line(&qt));

    // Unique: the current puzzle with one more given, graded; Solve fills in the solution.
    h.game().invoke_edit("current".into());
    assert_eq!(board(&h), line(&qt), "starts from the current puzzle");
    let solution = unique_solution(&qt).unwrap();
    let (r, c) = h.empty(0);
    h.click(r, c);
    h.key(solution.0[r][c].to_string());
    h.press("Check");
    assert_eq!(h.status(), "A proper puzzle: Easy");
    assert!(
        h.message()
            .starts_with("A proper puzzle: one solution, easy (37 givens)"),
        "{}",
        h.message()
    );
    h.press("Solve");
    assert_eq!(board(&h), line(&solution));
    assert!(!h.enabled("Solve"));

    // Play it: the chooser gains "My puzzle 1", and it is played.
    h.press("Play it");
    assert_eq!(h.status(), "Playing");
    let mut typed = qt;
    typed.0[r][c] = solution.0[r][c];
    assert_eq!(board(&h), line(&typed), "the givens, not the solution");
    assert!(h
        .cell(r, c)
        .accessible_description()
        .unwrap()
        .starts_with("given"));
    let names = chooser(&h);
    let mine = names
        .iter()
        .position(|n| n.starts_with("My puzzle 1"))
        .unwrap_or_else(|| panic!("{names:?}"));
    assert_eq!(h.game().get_current_puzzle(), mine as i32);
    drop(h);

    // Kept across restarts: the chooser still has it, and the game comes back on it.
    let h = start_with(puzzles(), Some(dir.clone()));
    let names = chooser(&h);
    assert!(
        names.iter().any(|n| n.starts_with("My puzzle 1")),
        "{names:?}"
    );
    assert_eq!(board(&h), line(&typed));
    assert_eq!(h.game().get_puzzle_name(), "My puzzle 1");

    // A typed puzzle the chooser lists already (here the current one, unchanged) is played
    // under the chooser's name: the panel and the chooser agree, and no entry is added.
    h.game().invoke_edit("current".into());
    h.press("Check");
    h.press("Play it");
    assert_eq!(h.status(), "Playing");
    assert_eq!(h.game().get_puzzle_name(), "My puzzle 1");
    assert_eq!(chooser(&h), names, "no new entry");
    assert_eq!(
        names[h.game().get_current_puzzle() as usize],
        names[names
            .iter()
            .position(|n| n.starts_with("My puzzle 1"))
            .unwrap()]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_search_advances_with_the_clock_pauses_steps_and_back_restores_the_board() {
    let h = start();
    let before = board(&h);
    h.press("Watch solver");
    assert_eq!(h.status(), "Watching the search");
    assert_eq!(h.value("Steps"), "0");
    h.wait(1_000); // 30 steps a second
    assert_eq!(h.value("Steps"), "30");
    assert!(!h.value("Last step").is_empty());
    assert!(h.ui.machine().is_active(State::SearchRunning));

    // Space pauses; the clock then moves nothing, and Step shows one step.
    h.key(" ");
    assert_eq!(h.status(), "Search paused");
    h.wait(2_000);
    assert_eq!(h.value("Steps"), "30");
    h.press("Step");
    assert_eq!(h.value("Steps"), "31");

    // Faster, and running again, to the end.
    for (_, speed) in (0..4).zip(["60 steps/s", "120 steps/s", "250 steps/s", "1000 steps/s"]) {
        h.press("Faster");
        assert_eq!(h.value("Speed"), speed);
    }
    assert!(!h.enabled("Faster"), "the fastest speed has no faster one");
    assert!(h.enabled("Slower"));
    h.press("Run");
    h.wait(5_000);
    assert_eq!(h.status(), "Search: solved");
    assert_eq!(h.value("Last step"), "solved");
    assert_eq!(
        board(&h),
        line(&unique_solution(&parse(QT).unwrap()).unwrap())
    );
    assert_eq!(h.value("Guesses"), "0", "an easy puzzle needs no guess");

    // Back: the board as it was, and the game goes on.
    h.press("Back");
    assert_eq!(h.status(), "Playing");
    assert_eq!(board(&h), before);
}

#[test]
fn a_search_from_a_position_with_a_mistake_shows_where_it_fails() {
    let h = start();
    let solution = unique_solution(&parse(QT).unwrap()).unwrap();
    // A wrong digit that clashes with no given.
    let (r, c) = h.empty(0);
    let wrong = (1..=9u8)
        .find(|&d| {
            let mut p = parse(QT).unwrap();
            p.0[r][c] = d;
            d != solution.0[r][c] && sudoku_machine::engine::clashes(&p).is_empty()
        })
        .unwrap();
    h.click(r, c);
    h.key(wrong.to_string());
    let before = board(&h);
    h.press("Watch solver");
    h.key("+");
    h.key("+");
    h.key("+");
    h.wait(5_000);
    assert_eq!(h.status(), "Search: no solution");
    assert_eq!(h.value("Last step"), "failed");
    // The message says where: the last dead end, which is drawn red on the board.
    let message = h.message();
    assert!(
        message.starts_with("The search failed") || message.starts_with("No solution: "),
        "{message}"
    );
    assert!(
        [
            " has no candidate left",
            " has no place left in ",
            " both hold "
        ]
        .iter()
        .any(|why| message.contains(why)),
        "{message}"
    );
    let red = (0..9)
        .flat_map(|r| (0..9).map(move |c| (r, c)))
        .filter(|&(r, c)| h.marks(r, c).contains("mistake"))
        .count();
    assert!(red > 0, "the dead end is drawn");
    assert_eq!(h.digit(r, c), wrong.to_string(), "the player's digit stays");
    h.press("Back");
    assert_eq!(board(&h), before, "the mistake included");
    assert!(h.marks(r, c).starts_with("entry"));
}

#[test]
fn stopping_a_running_search_with_escape_restores_the_board() {
    let h = start();
    let before = board(&h);
    h.press("Watch solver");
    h.wait(500);
    assert_ne!(board(&h), before, "the search placed digits");
    h.key(Key::Escape);
    assert_eq!(h.status(), "Playing");
    assert_eq!(board(&h), before);
    h.wait(1_000);
    assert_eq!(board(&h), before, "no step after the stop");
}

#[test]
fn the_chart_view_lights_the_active_states_as_events_come() {
    let h = start();
    assert!(!h.exists("chart view"));
    h.press("Chart");
    assert!(h.exists("chart view"));
    let active = |id: &str| h.value(&format!("state {id}")) == "active";
    assert!(active("playing") && active("running") && active("pen"));
    assert!(!active("paused") && !active("pencil"));

    h.key("n");
    assert!(active("pencil") && !active("pen"));
    h.press("Pause");
    assert!(active("paused") && !active("running"));
    let events: Vec<String> = (0..8)
        .filter(|i| h.exists(&format!("event {i}")))
        .map(|i| h.value(&format!("event {i}")))
        .collect();
    assert_eq!(
        events,
        ["notes.toggle", "updateGUI", "pause", "updateGUI"],
        "the last events, oldest first, with what the machine sent the window"
    );
    h.key("p"); // resume
    assert!(
        active("pencil") && !active("paused"),
        "history brings back notes mode"
    );
    // Two seconds of clock ticks do not push the player's events out: they are counted.
    h.wait(2_000);
    let events: Vec<String> = (0..10)
        .filter(|i| h.exists(&format!("event {i}")))
        .map(|i| h.value(&format!("event {i}")))
        .collect();
    assert_eq!(events[0], "notes.toggle", "{events:?}");
    let counted: Vec<&str> = events
        .iter()
        .filter_map(|e| e.strip_suffix(", not listed"))
        .map(|e| e.split(' ').next().unwrap())
        .collect();
    assert_eq!(counted, ["tick", "clock"], "{events:?}");
    h.press("Hide chart");
    assert!(!h.exists("chart view"));
}
