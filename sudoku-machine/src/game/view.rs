//! What the window shows, as the machine sends it with every `updateGUI`: each cell's digit,
//! notes, marks and whether it takes input, which controls work now and what they say, the
//! status, the clock and the last message. The window draws this and decides nothing.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::board::{Board, Clashes};
use super::draft::Draft;
use super::info::PuzzleInfo;
use super::panel::panel;
pub use super::panel::{clock_text, Panel};
use super::play::Play;
use super::search::{Counts, Search, StepKind};
use super::settings::{CheckMode, Pending, Settings};
use crate::datamodel::Grid;
use crate::engine::techniques::Cell;

/// Where the game is, from the chart's configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// No game running: stopped, or none started yet (`idle`/`unsolved`).
    #[default]
    Unsolved,
    /// The player solved the grid (`idle`/`solved`).
    Solved,
    /// The answer was shown (`idle`/`revealed`).
    Revealed,
    /// A game is on (`playing`/`running`).
    Running,
    /// Paused by the player: the board is hidden and the clock stopped.
    Paused,
    /// The window is minimised or hidden: the board is hidden and the clock stopped.
    Hidden,
    /// Waiting for the player to confirm that the game in progress may be discarded.
    Confirming,
    /// A new puzzle is being generated.
    Generating,
    /// Edit mode: the player types a puzzle's givens.
    Editing,
    /// Edit mode: the verdict on the typed puzzle is shown.
    Reviewed,
    /// The animated search.
    Searching,
}

impl Phase {
    /// The phase of a configuration, given `In()` of the chart (a state id → whether it is
    /// active). The states asked about exclude each other (the chart has no `<parallel>`),
    /// so the order only decides how soon the answer comes: a running game first.
    pub fn of(is_in: impl Fn(&str) -> bool) -> Phase {
        [
            ("running", Phase::Running),
            ("generating", Phase::Generating),
            ("confirming", Phase::Confirming),
            ("searching", Phase::Searching),
            ("reviewed", Phase::Reviewed),
            ("drafting", Phase::Editing),
            ("paused", Phase::Paused),
            ("hidden", Phase::Hidden),
            ("solved", Phase::Solved),
            ("revealed", Phase::Revealed),
        ]
        .into_iter()
        .find(|(id, _)| is_in(id))
        .map_or(Phase::Unsolved, |(_, phase)| phase)
    }

    /// Whether the board is hidden (paused or hidden window).
    pub fn hides_board(self) -> bool {
        matches!(self, Phase::Paused | Phase::Hidden)
    }
}

/// One cell as the window draws it. `Copy`, 14 bytes without padding (the two `u16`s
/// first), so comparing two is one wide comparison. Its JSON leaves out the fields at their
/// default (`0`, `false`): an empty cell of a running game is `{"editable": true}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[repr(C)]
pub struct CellView {
    /// Pencil marks of an empty cell, digit `d` = bit `d - 1`.
    #[serde(skip_serializing_if = "is_zero")]
    pub notes: u16,
    /// Candidates to draw struck out (the one the last step removed).
    #[serde(skip_serializing_if = "is_zero")]
    pub struck: u16,
    /// The digit, `0` for none (also while the board is hidden).
    #[serde(skip_serializing_if = "is_zero")]
    pub value: u8,
    /// Whether the digit is a given (locked, drawn bold).
    #[serde(skip_serializing_if = "is_false")]
    pub given: bool,
    /// Whether typing into this cell does anything now.
    #[serde(skip_serializing_if = "is_false")]
    pub editable: bool,
    /// Marked as a mistake (see [`CheckMode`]).
    #[serde(skip_serializing_if = "is_false")]
    pub error: bool,
    /// The selected cell.
    #[serde(skip_serializing_if = "is_false")]
    pub selected: bool,
    /// In the selected cell's row, column or box.
    #[serde(skip_serializing_if = "is_false")]
    pub related: bool,
    /// Holds the same digit as the selected cell.
    #[serde(skip_serializing_if = "is_false")]
    pub same: bool,
    /// Part of the hint on screen: `0` no, `1` a cell of its pattern, `2` the cell it is
    /// about.
    #[serde(skip_serializing_if = "is_zero")]
    pub hint: u8,
    /// The animated search's last step here: `0` none, `1` a placement, `2` a guess, `3` a
    /// candidate removed, `4` a backtrack, `5` a dead end (drawn until the next step).
    #[serde(skip_serializing_if = "is_zero")]
    pub flash: u8,
    /// The digit was placed by the animated search inside a guess.
    #[serde(skip_serializing_if = "is_false")]
    pub guessed: bool,
    /// The digit was filled in by Show answer: the solution's, not the player's.
    #[serde(skip_serializing_if = "is_false")]
    pub answered: bool,
}

/// Whether a number is zero (left out of a cell's JSON).
fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// Whether a flag is off (left out of a cell's JSON).
fn is_false(flag: &bool) -> bool {
    !*flag
}

/// Which controls do something now, and what the two that change meaning say.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Controls {
    /// Digits, Delete, notes mode and click-to-cycle (a game is running).
    pub edit: bool,
    /// Erase the selected cell (a game is running, or edit mode takes typing).
    pub erase: bool,
    /// Undo.
    pub undo: bool,
    /// Redo.
    pub redo: bool,
    /// Fill all candidates.
    pub fill: bool,
    /// Hint (shows one, or carries out the one on screen).
    pub hint: bool,
    /// Show answer.
    pub answer: bool,
    /// Pause or resume.
    pub pause: bool,
    /// What the pause button says: `Pause` or `Resume`.
    pub pause_label: Cow<'static, str>,
    /// The Start/Stop button.
    pub start_stop: bool,
    /// What it says: `Start` or `Stop`.
    pub start_stop_label: Cow<'static, str>,
    /// The event it submits: `start` or `end`.
    pub start_stop_event: Cow<'static, str>,
    /// Choosing, opening or generating a puzzle.
    pub new_game: bool,
    /// Entering edit mode.
    pub enter_edit: bool,
    /// Edit mode: checking the draft.
    pub check: bool,
    /// Edit mode: playing the checked puzzle.
    pub play_draft: bool,
    /// Edit mode: showing its solution.
    pub solve_draft: bool,
    /// Edit mode: changing it again after the check.
    pub change_draft: bool,
    /// The options and the chart view (not while a question waits for its answer).
    pub options: bool,
    /// Leaving edit mode (Cancel).
    pub leave_edit: bool,
    /// Watching the solver's search from the position on the board.
    pub watch: bool,
}

/// The animated search, as the side panel shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchView {
    /// Paused (single steps).
    pub paused: bool,
    /// Over: solved, failed or settled at once.
    pub done: bool,
    /// Index of the speed, and the speed as text (`30 steps/s`).
    pub speed: usize,
    /// The speed as the panel shows it.
    pub speed_label: String,
    /// Whether there is a slower speed.
    pub can_slower: bool,
    /// Whether there is a faster speed.
    pub can_faster: bool,
    /// What was done so far.
    pub counts: Counts,
    /// The last step, as `sudoku solve --trace` prints it.
    pub last: String,
}

/// The whole screen: the board and the panel. [`view()`] builds it; `updateGUI` sends what
/// changed of it ([`ViewUpdate`](super::ViewUpdate)). Its JSON is one object: `cells` beside
/// the panel's fields. It dereferences to its [`Panel`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The 81 cells, row by row.
    pub cells: Vec<CellView>,
    /// Everything else: phase, texts, controls, options, search.
    #[serde(flatten)]
    pub panel: Panel,
}

impl std::ops::Deref for View {
    type Target = Panel;

    fn deref(&self) -> &Panel {
        &self.panel
    }
}

/// The cells marked as mistakes: entries and givens that share a digit with a peer, and with
/// [`CheckMode::Solution`] also entries that differ from `solution`.
///
/// A digit shares a house with a peer exactly when it occurs twice in that row, column or
/// box, so one pass counts each house's digits (a mask of those seen once and one of those
/// seen again) and a second marks the cells whose digit is doubled in one of their houses:
/// 2 × 81 steps instead of 81 × 20 peer comparisons.
pub fn mistakes(
    givens: &Grid,
    values: &Grid,
    check: CheckMode,
    solution: Option<&Grid>,
) -> [bool; 81] {
    let clashes = Clashes::of(values);
    let against = match (check, solution) {
        (CheckMode::Solution, Some(solution)) => Some(solution),
        _ => None,
    };
    let mut marked = [false; 81];
    for (r, row) in values.0.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            marked[r * 9 + c] = clashes.at(r, c, v) || wrong(givens, against, r, c, v);
        }
    }
    marked
}

/// Whether the entry `v` at row `r`, column `c` differs from `solution` (givens never do).
fn wrong(givens: &Grid, solution: Option<&Grid>, r: usize, c: usize, v: u8) -> bool {
    solution.is_some_and(|s| v != 0 && givens.0[r][c] == 0 && s.0[r][c] != v)
}

/// Builds the view from the chart's data items; `is_in` is the chart's `In()`.
#[allow(
    clippy::too_many_arguments,
    reason = "one argument per data item of the chart, as the chart's `<param>` names them"
)]
pub fn view(
    givens: &Grid,
    puzzle: &PuzzleInfo,
    play: &Play,
    settings: &Settings,
    pending: &Pending,
    draft: &Draft,
    search: &Search,
    is_in: impl Fn(&str) -> bool,
) -> View {
    let at = Where::of(play, pending, is_in);
    View {
        cells: cells(at.board, givens, puzzle, play, settings, draft, search),
        panel: panel(givens, puzzle, play, settings, pending, draft, search, at),
    }
}

/// The 81 cells of the board as `showing` says.
pub(super) fn cells(
    showing: Showing,
    givens: &Grid,
    puzzle: &PuzzleInfo,
    play: &Play,
    settings: &Settings,
    draft: &Draft,
    search: &Search,
) -> Vec<CellView> {
    match showing {
        Showing::Draft { typing } => draft_cells(draft, typing),
        Showing::Search => search_cells(search),
        Showing::Hidden => vec![CellView::default(); 81],
        Showing::Game { running, revealed } => {
            Board::of(givens, puzzle, play, settings, running, revealed, None).cells()
        }
    }
}

/// What the board shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Showing {
    /// The puzzle being typed in edit mode (`typing`: it takes input).
    Draft { typing: bool },
    /// The animated search's board.
    Search,
    /// Nothing: the board is hidden (paused, or the window is).
    Hidden,
    /// The game's [`Board`].
    Game { running: bool, revealed: bool },
}

/// What of the configuration the view depends on.
#[derive(Clone, Copy)]
pub(super) struct Where {
    pub(super) phase: Phase,
    /// Notes mode (the one the game resumes in while paused or asking).
    pub(super) pencil: bool,
    /// Whether the animated search is paused.
    pub(super) search_paused: bool,
    /// What the board shows.
    pub(super) board: Showing,
}

impl Where {
    /// The configuration's part in the view, given the chart's `In()`, the attempt (its
    /// notes mode) and what waits for confirmation.
    pub(super) fn of(play: &Play, pending: &Pending, is_in: impl Fn(&str) -> bool) -> Where {
        let phase = Phase::of(&is_in);
        // Paused or behind a question, notes mode is the one the game will resume in.
        let pencil = if phase == Phase::Running {
            is_in("pencil")
        } else {
            play.notes_mode
                && (is_in("playing") || (phase == Phase::Confirming && pending.interrupts_game()))
        };
        // Asking whether to leave edit mode: the board still shows the puzzle being typed.
        let leaving_edit = phase == Phase::Confirming && pending.is_leave_edit();
        let board = match phase {
            Phase::Editing | Phase::Reviewed => Showing::Draft {
                typing: phase == Phase::Editing,
            },
            _ if leaving_edit => Showing::Draft { typing: false },
            Phase::Searching => Showing::Search,
            _ if phase.hides_board() => Showing::Hidden,
            _ => Showing::Game {
                running: phase == Phase::Running,
                revealed: phase == Phase::Revealed,
            },
        };
        Where {
            phase,
            pencil,
            search_paused: phase == Phase::Searching && is_in("search_paused"),
            board,
        }
    }
}

/// The board in edit mode: the draft's givens (or its solution after Solve), clashes red.
fn draft_cells(draft: &Draft, typing: bool) -> Vec<CellView> {
    let shown = draft.shown();
    let clashing = draft.clashing();
    let selected = draft.cursor;
    let selected_value = selected.map_or(0, |c| shown.0[c.row()][c.col()]);
    (0..81u8)
        .map(Cell)
        .map(|cell| {
            let (r, c) = (cell.row(), cell.col());
            let value = shown.0[r][c];
            CellView {
                value,
                given: draft.grid.0[r][c] != 0,
                editable: typing,
                error: clashing.contains(&cell),
                selected: selected == Some(cell),
                related: selected.is_some_and(|s| s.sees(cell)),
                same: selected_value != 0 && value == selected_value,
                ..CellView::default()
            }
        })
        .collect()
}

/// The board of the animated search: its digits and candidates, the last step marked.
fn search_cells(search: &Search) -> Vec<CellView> {
    let (kind, at, digit, _) = &search.last;
    (0..81u8)
        .map(Cell)
        .map(|cell| {
            let (r, c) = (cell.row(), cell.col());
            let value = search.values.0[r][c];
            let here = *at == Some(cell);
            CellView {
                value,
                given: search.is_start(cell),
                notes: if value == 0 {
                    search.candidates.0[r][c]
                } else {
                    0
                },
                guessed: value != 0 && search.is_guessed(cell),
                flash: match kind {
                    _ if search.dead.contains(&cell) => 5,
                    _ if !here => 0,
                    StepKind::Place => 1,
                    StepKind::Guess => 2,
                    StepKind::Eliminate => 3,
                    StepKind::Backtrack => 4,
                    StepKind::None | StepKind::Solved | StepKind::Failed | StepKind::DeadEnd => 0,
                },
                error: search.dead.contains(&cell),
                struck: if here && *kind == StepKind::Eliminate {
                    crate::engine::techniques::bit(*digit)
                } else {
                    0
                },
                ..CellView::default()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::techniques::peers;
    use crate::puzzle::parse;

    const QT: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    fn running(id: &str) -> bool {
        matches!(id, "running" | "pen" | "playing")
    }

    #[test]
    fn phases_follow_the_configuration() {
        assert_eq!(Phase::of(running), Phase::Running);
        assert_eq!(
            Phase::of(|id| id == "paused" || id == "playing"),
            Phase::Paused
        );
        assert_eq!(Phase::of(|id| id == "solved"), Phase::Solved);
        assert_eq!(Phase::of(|_| false), Phase::Unsolved);
        assert_eq!(clock_text(59), "0:59");
        assert_eq!(clock_text(754), "12:34");
        assert_eq!(clock_text(3723), "1:02:03");
    }

    #[test]
    fn clashes_are_marked_on_both_sides_and_the_solution_check_adds_wrong_digits() {
        let g = parse(QT).unwrap();
        let info = PuzzleInfo::analyse("qt".into(), None, &g);
        let solution = info.solution.grid().unwrap();
        let mut values = g;
        values.0[0][0] = 2; // clashes with the given 2 at r1c4
        let m = mistakes(&g, &values, CheckMode::Conflicts, Some(solution));
        let marked: Vec<usize> = (0..81).filter(|&i| m[i]).collect();
        assert_eq!(marked, [0, 3]);
        // A wrong digit that clashes with nothing: only the solution check marks it.
        let mut values = g;
        let cell = (0..81)
            .find(|&i| g.0[i / 9][i % 9] == 0)
            .map(|i| (i / 9, i % 9))
            .unwrap();
        let wrong = (1..=9)
            .find(|&d| {
                d != solution.0[cell.0][cell.1]
                    && !peers(Cell::new(cell.0, cell.1)).any(|p| g.0[p.row()][p.col()] == d)
            })
            .unwrap();
        values.0[cell.0][cell.1] = wrong;
        let by_rules = mistakes(&g, &values, CheckMode::Conflicts, Some(solution));
        assert!(by_rules.iter().all(|&e| !e));
        let by_solution = mistakes(&g, &values, CheckMode::Solution, Some(solution));
        assert!(by_solution[cell.0 * 9 + cell.1]);
    }

    #[test]
    fn the_view_highlights_and_hides() {
        let g = parse(QT).unwrap();
        let info = PuzzleInfo::analyse("qt".into(), None, &g);
        let mut play = Play::default();
        play.restart(&g);
        play.cursor = Some(Cell::new(0, 3)); // the given 2
        let v = view(
            &g,
            &info,
            &play,
            &Settings::default(),
            &Pending::None,
            &Draft::default(),
            &Search::default(),
            running,
        );
        assert_eq!(v.cells.len(), 81);
        assert!(v.cells[3].selected && v.cells[3].given && !v.cells[3].editable);
        assert!(v.cells[0].related && v.cells[0].editable, "same row");
        assert!(v.cells[9 * 8 + 3].related, "same column");
        assert!(!v.cells[80].related);
        let twos: Vec<usize> = (0..81).filter(|&i| v.cells[i].same).collect();
        assert!(twos.len() > 1 && twos.iter().all(|&i| g.0[i / 9][i % 9] == 2));
        assert_eq!(v.level, "Easy");
        assert!(v.can.edit && v.can.hint && v.can.answer && !v.can.undo);
        assert_eq!(
            (v.can.pause_label.as_ref(), v.can.start_stop_event.as_ref()),
            ("Pause", "end")
        );

        let paused = |id: &str| id == "paused" || id == "playing";
        let v = view(
            &g,
            &info,
            &play,
            &Settings::default(),
            &Pending::None,
            &Draft::default(),
            &Search::default(),
            paused,
        );
        assert!(
            v.cells.iter().all(|c| *c == CellView::default()),
            "the board is hidden"
        );
        assert!(!v.can.answer && !v.can.edit && v.can.pause);
        assert_eq!(v.can.pause_label, "Resume");
    }
}
