//! Whether a machine's datamodel and configuration are a game this chart could have reached:
//! the check a saved game passes before it is used.
//!
//! A snapshot restores any datamodel of the right types, so a damaged or hand-edited save
//! could hold a grid whose givens were changed, an undo list that would rewrite a given, or a
//! `solved` state over an unsolved grid. [`check`] refuses those with a sentence that names
//! the first problem.

use super::history::{Content, Move};
use super::info::Solution;
use super::play::Play;
use super::settings::Pending;
use crate::datamodel::{is_solved, Grid};
use crate::engine::techniques::{Cell, ALL};
use crate::engine::{classify, Classification};
use crate::{State, SudokuData};

/// Checks a game as the chart leaves it between macrosteps.
///
/// # Errors
/// The first problem found, as a sentence for the player (`the undo list changes the given
/// r1c4`).
pub fn check(data: &SudokuData, active: &[State]) -> Result<(), String> {
    let givens = &data.initState;
    let play = &data.play;
    check_grid("the puzzle", givens)?;
    if let Classification::Invalid(clashes) = classify(givens) {
        if let Some(clash) = clashes.first() {
            return Err(format!("the puzzle's givens clash ({clash})"));
        }
    }
    check_grid("the grid", &play.values)?;
    for cell in (0..81u8).map(Cell) {
        let given = Play::is_given(givens, cell);
        let content = play.content(cell);
        if given && content.value != givens.0[cell.row()][cell.col()] {
            return Err(format!(
                "the grid has {} at {cell}, where the puzzle gives {}",
                content.value,
                givens.0[cell.row()][cell.col()]
            ));
        }
        if content.notes & !ALL != 0 || (given && content.notes != 0) {
            return Err(format!("the notes of {cell} are not pencil marks"));
        }
    }
    check_history(givens, play)?;
    check_facts(data)?;
    if let Some(cell) = play.cursor {
        if cell.index() >= 81 {
            return Err("the selected cell is outside the grid".into());
        }
    }
    if let Some(hint) = &play.hint {
        if std::iter::once(hint.cell())
            .chain(hint.related())
            .any(|c| c.index() >= 81)
        {
            return Err("the hint on screen names a cell outside the grid".into());
        }
    }
    // About 317 years: more is damage, and would overflow the clock.
    const MAX_TENTHS: u64 = 100_000_000_000;
    if play.tenths > MAX_TENTHS {
        return Err(format!(
            "the time played ({} tenths of a second) is out of range",
            play.tenths
        ));
    }
    check_grid("the puzzle being typed in", &data.draft.grid)?;
    check_grid("the searched position", &data.search.start)?;
    if data.search.speed >= super::search::SPEEDS.len() {
        return Err("the search's speed is out of range".into());
    }
    if data.search.index > super::search::STEP_LIMIT + 1 {
        return Err("the search's step is out of range".into());
    }
    if play.hints_used > data.settings.hint_limit {
        return Err(format!(
            "{} hints were used, more than the {} allowed",
            play.hints_used, data.settings.hint_limit
        ));
    }
    check_configuration(data, active)
}

/// Every cell `0..=9`.
fn check_grid(what: &str, grid: &Grid) -> Result<(), String> {
    for (r, row) in grid.0.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if v > 9 {
                return Err(format!("{what} has {v} in row {}, column {}", r + 1, c + 1));
            }
        }
    }
    Ok(())
}

/// Undoing every move must lead back to the start of the attempt (the givens, no notes), and
/// redoing must fit the grid; no move may touch a given.
fn check_history(givens: &Grid, play: &Play) -> Result<(), String> {
    let mut contents: Vec<Content> = (0..81u8).map(|i| play.content(Cell(i))).collect();
    let check_move = |mv: &Move, list: &str| -> Result<(), String> {
        if mv.changes.is_empty() {
            return Err(format!("the {list} list holds an empty move"));
        }
        let mut seen = [false; 81];
        for change in &mv.changes {
            let cell = change.cell;
            if cell.index() >= 81 {
                return Err(format!("the {list} list names a cell outside the grid"));
            }
            if std::mem::replace(&mut seen[cell.index()], true) {
                return Err(format!("a move of the {list} list changes {cell} twice"));
            }
            if Play::is_given(givens, cell) {
                return Err(format!("the {list} list changes the given {cell}"));
            }
            for content in [change.before, change.after] {
                if content.value > 9 || content.notes & !ALL != 0 {
                    return Err(format!("the {list} list puts no digit at {cell}"));
                }
            }
        }
        Ok(())
    };
    for mv in play.history.undo.iter().rev() {
        check_move(mv, "undo")?;
        for change in mv.changes.iter().rev() {
            let now = &mut contents[change.cell.index()];
            if *now != change.after {
                return Err(format!(
                    "the undo list does not match the grid at {}",
                    change.cell
                ));
            }
            *now = change.before;
        }
    }
    for cell in (0..81u8).map(Cell) {
        let start = Content {
            value: givens.0[cell.row()][cell.col()],
            notes: 0,
        };
        if contents[cell.index()] != start {
            return Err(format!(
                "undoing every move does not lead back to the puzzle (at {cell})"
            ));
        }
    }
    let mut contents: Vec<Content> = (0..81u8).map(|i| play.content(Cell(i))).collect();
    for mv in play.history.redo.iter().rev() {
        check_move(mv, "redo")?;
        for change in &mv.changes {
            let now = &mut contents[change.cell.index()];
            if *now != change.before {
                return Err(format!(
                    "the redo list does not match the grid at {}",
                    change.cell
                ));
            }
            *now = change.after;
        }
    }
    Ok(())
}

/// The recorded solution is the givens' own.
fn check_facts(data: &SudokuData) -> Result<(), String> {
    let recorded = &data.puzzle.solution;
    if *recorded == Solution::Unknown {
        return Ok(());
    }
    if data.puzzle.givens != data.initState {
        return Err("the facts about the puzzle are about another puzzle".into());
    }
    let actual = match classify(&data.initState) {
        Classification::Unique(grid) => Solution::Unique(grid),
        Classification::Multiple => Solution::Multiple,
        Classification::None | Classification::Invalid(_) => Solution::None,
    };
    if *recorded != actual {
        return Err("the recorded solution is not the puzzle's".into());
    }
    Ok(())
}

/// The configuration fits the data: `solved` over a solved grid, `revealed` over the
/// solution, a game on only over an unsolved grid, a dialog only with something pending.
fn check_configuration(data: &SudokuData, active: &[State]) -> Result<(), String> {
    let is = |state: State| active.contains(&state);
    let solved = is_solved(&data.play.values);
    if is(State::Solved) && !solved {
        return Err("the game is marked solved, but the grid is not".into());
    }
    if is(State::Revealed) && data.puzzle.solution.grid() != Some(&data.play.values) {
        return Err("the answer is marked shown, but the grid is not the solution".into());
    }
    if is(State::Playing) && solved {
        return Err("the game is on, but the grid is already solved".into());
    }
    if is(State::Confirming) && data.pending == Pending::None {
        return Err("a question is open, but nothing waits for the answer".into());
    }
    if is(State::Generating) && !data.pending.is_generate() {
        return Err("a puzzle is being generated, but no level was asked for".into());
    }
    Ok(())
}
