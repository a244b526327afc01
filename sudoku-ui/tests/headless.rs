//! Plays the game through the window on Slint's headless testing backend: widgets are found by
//! their accessible labels and pressed through their default actions, and the assertions read
//! what a player would see (cell digits, button texts, the status line).

use i_slint_backend_testing::ElementHandle;
use slint::platform::PointerEventButton;
use slint::{ComponentHandle, Model};
use sudoku_machine::puzzle::{parse, Puzzle};
use sudoku_machine::State;
use sudoku_ui::{Game, Ui};

const NEARLY_SOLVED: &str = include_str!("../../puzzles/nearly-solved-sudoku.data");
const SUDOKU: &str = include_str!("../../puzzles/sudoku.data");

/// The bundled puzzles, sorted by name as Qt's chooser lists them.
fn puzzles() -> Vec<Puzzle> {
    vec![
        Puzzle {
            name: "nearly-solved-sudoku".into(),
            givens: parse(NEARLY_SOLVED).expect("bundled puzzle parses"),
        },
        Puzzle {
            name: "sudoku".into(),
            givens: parse(SUDOKU).expect("bundled puzzle parses"),
        },
    ]
}

fn start_ui() -> Ui {
    i_slint_backend_testing::init_no_event_loop();
    let ui = sudoku_ui::init(puzzles()).expect("window builds");
    ui.window().show().expect("window shows");
    ui
}

/// The one element with this accessible label.
fn find(ui: &Ui, label: &str) -> ElementHandle {
    let mut found = ElementHandle::find_by_accessible_label(ui.window(), label);
    let element = found
        .next()
        .unwrap_or_else(|| panic!("no element labelled {label:?}"));
    assert!(
        found.next().is_none(),
        "several elements labelled {label:?}"
    );
    element
}

fn exists(ui: &Ui, label: &str) -> bool {
    ElementHandle::find_by_accessible_label(ui.window(), label)
        .next()
        .is_some()
}

fn press(ui: &Ui, label: &str) {
    find(ui, label).invoke_accessible_default_action();
}

fn cell(ui: &Ui, row: usize, col: usize) -> ElementHandle {
    find(ui, &format!("cell {row} {col}"))
}

fn digit(ui: &Ui, row: usize, col: usize) -> String {
    cell(ui, row, col)
        .accessible_value()
        .unwrap_or_default()
        .to_string()
}

fn tap(ui: &Ui, row: usize, col: usize) {
    cell(ui, row, col).invoke_accessible_default_action();
}

/// The status line, read from the window: exactly one of the two texts must be shown.
fn status(ui: &Ui) -> &'static str {
    match (exists(ui, "SOLVED !!!"), exists(ui, "unsolved")) {
        (true, false) => "SOLVED !!!",
        (false, true) => "unsolved",
        other => panic!("status line shows neither or both: {other:?}"),
    }
}

fn enabled(ui: &Ui, label: &str) -> bool {
    find(ui, label)
        .accessible_enabled()
        .expect("has accessible-enabled")
}

/// A grid as the window shows it: one string per row, `.` for an empty cell.
fn shown_grid(ui: &Ui) -> Vec<String> {
    (0..9)
        .map(|r| {
            (0..9)
                .map(|c| match digit(ui, r, c).as_str() {
                    "" => ".".to_string(),
                    d => d.to_string(),
                })
                .collect()
        })
        .collect()
}

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("sudoku-ui-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("temp file writes");
    path
}

#[test]
fn start_up_shows_the_first_puzzle_idle() {
    let ui = start_ui();
    assert_eq!(status(&ui), "unsolved");
    assert!(exists(&ui, "Start"));
    assert!(!exists(&ui, "Stop"));
    assert!(!enabled(&ui, "Undo"));
    assert_eq!(shown_grid(&ui)[0], ".35269781");
    assert_eq!(shown_grid(&ui)[8], "763418259");
    // In idle no cell takes taps, not even the empty one.
    assert_eq!(cell(&ui, 0, 0).accessible_enabled(), Some(false));
    tap(&ui, 0, 0);
    assert_eq!(digit(&ui, 0, 0), "");
    assert!(!ui.machine().is_active(State::Playing));

    let names: Vec<String> = ui
        .window()
        .global::<Game>()
        .get_puzzle_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names, ["nearly-solved-sudoku", "sudoku"]);
}

#[test]
fn four_taps_solve_the_nearly_solved_puzzle() {
    let ui = start_ui();
    press(&ui, "Start");
    assert!(exists(&ui, "Stop"));
    assert!(!exists(&ui, "Start"));
    assert!(enabled(&ui, "Undo"));
    assert_eq!(cell(&ui, 0, 0).accessible_enabled(), Some(true));
    // Givens stay disabled while playing.
    assert_eq!(cell(&ui, 0, 1).accessible_enabled(), Some(false));

    for expected in ["1", "2", "3"] {
        tap(&ui, 0, 0);
        assert_eq!(digit(&ui, 0, 0), expected);
        assert_eq!(status(&ui), "unsolved");
    }
    tap(&ui, 0, 0);
    assert_eq!(digit(&ui, 0, 0), "4");
    assert_eq!(status(&ui), "SOLVED !!!");
    assert!(exists(&ui, "Start"));
    assert!(!enabled(&ui, "Undo"));
    assert_eq!(cell(&ui, 0, 0).accessible_enabled(), Some(false));
    assert!(ui.machine().is_active(State::Solved));

    // Start again: the grid goes back to the puzzle and the status to "unsolved".
    press(&ui, "Start");
    assert_eq!(digit(&ui, 0, 0), "");
    assert_eq!(status(&ui), "unsolved");
}

#[test]
fn a_pointer_click_on_a_cell_taps_it() {
    let ui = start_ui();
    press(&ui, "Start");
    cell(&ui, 0, 0).mock_single_click(PointerEventButton::Left);
    assert_eq!(digit(&ui, 0, 0), "1");
    // A given ignores clicks.
    cell(&ui, 0, 1).mock_single_click(PointerEventButton::Left);
    assert_eq!(digit(&ui, 0, 1), "3");
}

#[test]
fn undo_steps_back_one_tap_at_a_time() {
    let ui = start_ui();
    press(&ui, "Start");
    tap(&ui, 0, 0);
    tap(&ui, 0, 0);
    assert_eq!(digit(&ui, 0, 0), "2");
    press(&ui, "Undo");
    assert_eq!(digit(&ui, 0, 0), "1");
    press(&ui, "Undo");
    assert_eq!(digit(&ui, 0, 0), "");
    assert_eq!(status(&ui), "unsolved");
    assert!(exists(&ui, "Stop"));
}

#[test]
fn stop_returns_to_idle_and_keeps_the_grid() {
    let ui = start_ui();
    press(&ui, "Start");
    tap(&ui, 0, 0);
    press(&ui, "Stop");
    assert!(exists(&ui, "Start"));
    assert!(!enabled(&ui, "Undo"));
    assert_eq!(status(&ui), "unsolved");
    // `stop` sends no update, so the last entry stays visible but can't be changed.
    assert_eq!(digit(&ui, 0, 0), "1");
    assert_eq!(cell(&ui, 0, 0).accessible_enabled(), Some(false));
    // `start` restarts from the puzzle.
    press(&ui, "Start");
    assert_eq!(digit(&ui, 0, 0), "");
}

#[test]
fn choosing_a_puzzle_shows_it_and_stops_a_game_in_progress() {
    let ui = start_ui();
    let game = ui.window().global::<Game>();
    game.invoke_puzzle_chosen(1);
    assert_eq!(shown_grid(&ui)[0], "...26.7.1");
    assert_eq!(status(&ui), "unsolved");

    press(&ui, "Start");
    tap(&ui, 0, 0);
    game.invoke_puzzle_chosen(0);
    assert!(exists(&ui, "Start"), "choosing a puzzle stops the game");
    assert_eq!(shown_grid(&ui)[0], ".35269781");
}

#[test]
fn opening_a_file_adds_and_selects_it() {
    let ui = start_ui();
    let line = SUDOKU
        .lines()
        .flat_map(|l| l.split(',').map(str::trim))
        .collect::<String>();
    assert_eq!(line.len(), 81);
    let path = temp_file("one-line.txt", &line);

    press(&ui, "Open…");
    find(&ui, "Path").set_accessible_value(path.display().to_string());
    press(&ui, "Open");
    assert!(!exists(&ui, "Path"), "the dialog closes");

    let game = ui.window().global::<Game>();
    assert_eq!(game.get_puzzle_names().row_count(), 3);
    assert_eq!(game.get_current_puzzle(), 2);
    let name = game.get_puzzle_names().row_data(2).unwrap();
    assert!(name.ends_with("one-line"), "{name}");
    assert_eq!(shown_grid(&ui)[0], "...26.7.1");

    // The same file again selects the existing entry instead of adding one.
    ui.open_puzzle_file(&path).unwrap();
    assert_eq!(game.get_puzzle_names().row_count(), 3);
    std::fs::remove_file(path).ok();
}

#[test]
fn a_bad_file_shows_an_error_and_keeps_the_game() {
    let ui = start_ui();
    press(&ui, "Start");
    tap(&ui, 0, 0);
    let game = ui.window().global::<Game>();

    let mut malformed = NEARLY_SOLVED.lines().collect::<Vec<_>>();
    malformed[2] = "1, 9, 7, 8, x, 4, 5, 6, 2";
    let malformed = temp_file("malformed.data", &malformed.join("\n"));
    let mut clashing = NEARLY_SOLVED.lines().collect::<Vec<_>>();
    clashing[1] = "6, 8, 2, 5, 7, 1, 4, 9, 6";
    let clashing = temp_file("clashing.data", &clashing.join("\n"));
    let missing = std::env::temp_dir().join("sudoku-ui-no-such-file.data");

    press(&ui, "Open…");
    for (path, needle) in [
        (&malformed, "line 3"),
        (&clashing, "line "),
        (&missing, "cannot read"),
    ] {
        find(&ui, "Path").set_accessible_value(path.display().to_string());
        press(&ui, "Open");
        let error = game.get_open_error().to_string();
        assert!(
            error.contains(needle),
            "{error:?} should mention {needle:?}"
        );
        assert!(
            exists(&ui, &format!("Error: {error}")),
            "the error is shown"
        );
        assert!(exists(&ui, "Path"), "the dialog stays open");
    }
    press(&ui, "Cancel");
    assert!(!exists(&ui, "Path"));

    // Nothing changed: same chooser, same game.
    assert_eq!(game.get_puzzle_names().row_count(), 2);
    assert!(exists(&ui, "Stop"));
    assert_eq!(digit(&ui, 0, 0), "1");
    std::fs::remove_file(malformed).ok();
    std::fs::remove_file(clashing).ok();
}

#[test]
fn about_shows_the_slint_attribution() {
    let ui = start_ui();
    assert!(!exists(&ui, "#MadeWithSlint"));
    press(&ui, "About");
    assert!(exists(&ui, "#MadeWithSlint"));
    press(&ui, "Close");
    assert!(!exists(&ui, "#MadeWithSlint"));
}

/// A fresh autosave folder for one test.
fn autosave_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-ui-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("saves").join("autosave.json")
}

fn start_ui_saving_to(path: &std::path::Path) -> Ui {
    // A test may start the game twice on its thread; the backend is set up once per thread.
    thread_local!(static BACKEND: () = i_slint_backend_testing::init_no_event_loop());
    BACKEND.with(|_| ());
    let ui =
        sudoku_ui::init_with_autosave(puzzles(), Some(path.to_owned())).expect("window builds");
    ui.window().show().expect("window shows");
    ui
}

#[test]
fn a_game_in_progress_comes_back_after_a_restart() {
    let path = autosave_path("autosave-restart");
    {
        let ui = start_ui_saving_to(&path);
        // Choose the second puzzle, start, and fill the first empty cell twice (1, then 2).
        ui.window().global::<Game>().invoke_puzzle_chosen(1);
        press(&ui, "Start");
        tap(&ui, 0, 0);
        tap(&ui, 0, 0);
        assert_eq!(digit(&ui, 0, 0), "2");
        assert!(path.is_file(), "the game was saved at {}", path.display());
    }
    let ui = start_ui_saving_to(&path);
    assert!(ui.machine().is_active(State::Playing));
    assert!(exists(&ui, "Stop"));
    assert_eq!(ui.window().global::<Game>().get_current_puzzle(), 1);
    assert_eq!(digit(&ui, 0, 0), "2");
    assert_eq!(shown_grid(&ui)[0].len(), 9);
    // The undo stack came back too: two taps to undo, then the empty cell.
    press(&ui, "Undo");
    assert_eq!(digit(&ui, 0, 0), "1");
    press(&ui, "Undo");
    assert_eq!(digit(&ui, 0, 0), "");
}

#[test]
fn a_damaged_save_is_set_aside_and_the_game_starts_fresh() {
    let path = autosave_path("autosave-damaged");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{ not json").unwrap();
    let ui = start_ui_saving_to(&path);
    assert_eq!(ui.window().global::<Game>().get_current_puzzle(), 0);
    assert_eq!(shown_grid(&ui)[0], ".35269781");
    assert!(!ui.machine().is_active(State::Playing));
    let bad = path.with_extension("json.bad");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "{ not json");
    // The fresh game is saved in its place.
    let saved = sudoku_ui::autosave::read(&path).unwrap().expect("saved");
    assert_eq!(saved.puzzle, "nearly-solved-sudoku");
}

#[test]
fn a_save_of_another_chart_is_set_aside() {
    let path = autosave_path("autosave-other-chart");
    {
        let ui = start_ui_saving_to(&path);
        drop(ui);
    }
    let mut saved = sudoku_ui::autosave::read(&path).unwrap().expect("saved");
    saved.machine.chart = "SomethingElse".into();
    sudoku_ui::autosave::write(&path, &saved).unwrap();
    let ui = start_ui_saving_to(&path);
    assert!(path.with_extension("json.bad").is_file());
    assert_eq!(shown_grid(&ui)[0], ".35269781");
}

#[test]
fn a_save_with_impossible_digits_is_set_aside_and_earlier_bad_saves_are_kept() {
    let path = autosave_path("autosave-digits");
    {
        let ui = start_ui_saving_to(&path);
        drop(ui);
    }
    let good = sudoku_ui::autosave::read(&path).unwrap().expect("saved");
    let mut wrong = good.clone();
    wrong.machine.data["currentState"][0][0] = serde_json::json!(200);
    sudoku_ui::autosave::write(&path, &wrong).unwrap();
    std::fs::write(path.with_extension("json.bad"), "an earlier bad save").unwrap();
    let ui = start_ui_saving_to(&path);
    assert_eq!(digit(&ui, 0, 0), "");
    assert_eq!(
        std::fs::read_to_string(path.with_extension("json.bad")).unwrap(),
        "an earlier bad save"
    );
    let moved = path.with_extension("json.bad.2");
    let kept = std::fs::read_to_string(&moved).expect("the new bad save is kept beside");
    assert!(kept.contains("200"), "{kept}");
}
