//! The machine's view updates onto the `Game` global: the cells that changed, and the
//! controls and texts when the panel changed. A straight copy: every decision was made by
//! the machine.

use slint::{Model, ModelRc, SharedString, VecModel};
use sudoku_machine::engine::techniques::Technique;
use sudoku_machine::engine::Level;
use sudoku_machine::game::{CellView, CheckMode, Panel, Phase, Theme, ViewUpdate};

use crate::{CellData, Controls, Entry, Game, SearchData};

/// The phase as the markup names it.
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Unsolved => "unsolved",
        Phase::Solved => "solved",
        Phase::Revealed => "revealed",
        Phase::Running => "running",
        Phase::Paused => "paused",
        Phase::Hidden => "hidden",
        Phase::Confirming => "confirming",
        Phase::Generating => "generating",
        Phase::Editing => "editing",
        Phase::Reviewed => "reviewed",
        Phase::Searching => "searching",
    }
}

/// Copies `update` into the window: the cells it lists, and its panel if it has one.
pub fn show(game: &Game, cells: &VecModel<CellData>, update: &ViewUpdate) {
    for change in &update.cells {
        let data = cell_data(&change.cell);
        let index = usize::from(change.at);
        if cells.row_data(index).as_ref() != Some(&data) {
            cells.set_row_data(index, data);
        }
    }
    if let Some(panel) = &update.panel {
        show_panel(game, panel);
    }
}

/// One cell as the markup takes it.
fn cell_data(cell: &CellView) -> CellData {
    CellData {
        value: i32::from(cell.value),
        given: cell.given,
        notes: i32::from(cell.notes),
        editable: cell.editable,
        error: cell.error,
        selected: cell.selected,
        related: cell.related,
        same: cell.same,
        hint: i32::from(cell.hint),
        flash: i32::from(cell.flash),
        struck: i32::from(cell.struck),
        guessed: cell.guessed,
        answered: cell.answered,
    }
}

/// The panel's controls, texts, options and search.
fn show_panel(game: &Game, view: &Panel) {
    let can = &view.can;
    game.set_can(Controls {
        edit: can.edit,
        erase: can.erase,
        undo: can.undo,
        redo: can.redo,
        fill: can.fill,
        hint: can.hint,
        answer: can.answer,
        pause: can.pause,
        pause_label: can.pause_label.as_ref().into(),
        start_stop: can.start_stop,
        start_stop_label: can.start_stop_label.as_ref().into(),
        start_stop_event: can.start_stop_event.as_ref().into(),
        new_game: can.new_game,
        enter_edit: can.enter_edit,
        check: can.check,
        play_draft: can.play_draft,
        solve_draft: can.solve_draft,
        change_draft: can.change_draft,
        leave_edit: can.leave_edit,
        options: can.options,
        watch: can.watch,
    });
    let search = view.search.clone().unwrap_or_default();
    game.set_search(SearchData {
        paused: search.paused,
        done: search.done,
        speed: search.speed as i32,
        speed_label: search.speed_label.as_str().into(),
        can_slower: search.can_slower,
        can_faster: search.can_faster,
        steps: search.counts.steps as i32,
        placements: search.counts.placements as i32,
        eliminations: search.counts.eliminations as i32,
        guesses: search.counts.guesses as i32,
        backtracks: search.counts.backtracks as i32,
        last: search.last.as_str().into(),
    });
    game.set_phase(phase_name(view.phase).into());
    game.set_board_hidden(view.phase.hides_board());
    game.set_pencil(view.pencil);
    game.set_status(view.status.as_ref().into());
    game.set_message(view.message.as_str().into());
    game.set_question(view.question.as_str().into());
    game.set_question_title(view.question_title.as_ref().into());
    game.set_confirm_label(view.confirm_label.as_ref().into());
    game.set_cancel_label(view.cancel_label.as_ref().into());
    game.set_edit_panel(view.edit_panel);
    game.set_clock(view.clock.as_str().into());
    game.set_hints(view.hints.as_ref().into());
    game.set_game_info(view.game_info);
    game.set_puzzle_name(view.puzzle.as_str().into());
    game.set_level(view.level.as_ref().into());
    game.set_check_solution(view.settings.check == CheckMode::Solution);
    let level = Level::ALL.iter().position(|&l| l == view.settings.level);
    game.set_level_index(level.unwrap_or(1) as i32);
    game.set_theme(
        match view.settings.theme {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
        .into(),
    );
}

/// The help's glossary: every technique a hint can name, with what it does.
pub fn glossary() -> ModelRc<Entry> {
    let entries: Vec<Entry> = Technique::ALL
        .iter()
        .map(|t| Entry {
            heading: SharedString::from(t.name()),
            body: SharedString::from(t.description()),
        })
        .collect();
    ModelRc::new(VecModel::from(entries))
}
