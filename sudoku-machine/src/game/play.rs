//! The player's side of a game: the digits and pencil marks entered, the moves for undo and
//! redo, the selected cell, the time played, the hints taken and the last word to the player.
//!
//! [`Play`] is the chart's `play` data item. Its methods are the rules of each player action;
//! the chart decides *when* an action applies (which states handle which events) and calls
//! them. Every method that refuses something says why in [`Play::message`] instead of failing:
//! a refused action is part of the game, not an error.

use serde::{Deserialize, Serialize};
use sudoku_scxmlc::runtime::Event;

use super::hints::ShownHint;
use super::history::{Change, Content, History, Move, MoveKind};
use super::settings::CheckMode;
use crate::datamodel::{event_cell, is_solved, is_valid_position, Grid, Position};
use crate::engine::techniques::{bit, peers, Cell, ALL};

/// Pencil marks of every cell, row-major: `notes.0[row][column]` is a 9-bit mask, digit `d` =
/// bit `d - 1`. Serializes as 9 arrays of 9 integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Notes(pub [[u16; 9]; 9]);

/// A direction for the selection (arrow keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// One column left.
    Left,
    /// One column right.
    Right,
}

/// The chart's `play` data item: one attempt at the puzzle `initState`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Play {
    /// The grid as the player sees it: the givens and the player's digits, `0` for empty.
    /// Sent to the window as Qt's `currentState`.
    pub values: Grid,
    /// Pencil marks. Kept when a cell gets a digit only if a tap put it there (Qt's cycle);
    /// typing a digit clears the cell's own notes.
    pub notes: Notes,
    /// The moves for undo and redo.
    pub history: History,
    /// The selected cell, if any.
    pub cursor: Option<Cell>,
    /// Time played in tenths of a second; it advances on the chart's `tick` only while the
    /// game runs (not paused, hidden or over).
    pub tenths: u64,
    /// Hints requested in this attempt.
    pub hints_used: u8,
    /// The hint on screen, waiting for a second press to be carried out.
    pub hint: Option<ShownHint>,
    /// The last hint paid for and not carried out: showing it again (after another action
    /// took it off the screen) costs nothing.
    #[serde(default)]
    pub paid_hint: Option<ShownHint>,
    /// What the game last said to the player (a refusal, a hint, a warning); empty for
    /// nothing. Each player action replaces it.
    pub message: String,
    /// Whether notes mode (the chart's `pencil` state, not `pen`) was the last of the two
    /// entered: what the Notes button says while the game is paused or behind a question,
    /// where neither is active and the deep history will resume this one. Written by their
    /// `<onentry>`.
    #[serde(default)]
    pub notes_mode: bool,
    /// Whether the solution check ([`CheckMode::Solution`]) was on at some moment of this
    /// attempt (set by [`Play::note_check`]): the game then counts as solved with help.
    #[serde(default)]
    pub solution_checked: bool,
}

/// What a cell index means as `(row, column)`, for messages.
fn at(cell: Cell) -> String {
    cell.to_string()
}

impl Play {
    /// A new attempt at `givens`: the grid is the givens, no notes, no moves, no time, no
    /// hints, no selection. Qt's `restart()`.
    pub fn restart(&mut self, givens: &Grid) {
        *self = Play {
            values: *givens,
            ..Play::default()
        };
    }

    /// Remembers that the solution check was on during this attempt, when `check` is
    /// [`CheckMode::Solution`]. The chart calls it when an attempt starts and whenever the
    /// options change.
    pub fn note_check(&mut self, check: CheckMode) {
        self.solution_checked |= check == CheckMode::Solution;
    }

    /// Whether `cell` is one of the puzzle's givens.
    pub fn is_given(givens: &Grid, cell: Cell) -> bool {
        givens.0[cell.row()][cell.col()] != 0
    }

    /// What `cell` holds now.
    pub fn content(&self, cell: Cell) -> Content {
        Content {
            value: self.values.0[cell.row()][cell.col()],
            notes: self.notes.0[cell.row()][cell.col()],
        }
    }

    fn set(&mut self, cell: Cell, content: Content) {
        self.values.0[cell.row()][cell.col()] = content.value;
        self.notes.0[cell.row()][cell.col()] = content.notes;
    }

    /// Whether anything the player made would be lost by starting over: a digit that is not
    /// a given, a pencil mark, a move that can be undone or redone, a hint taken, or a minute
    /// of play (a glance at a puzzle is not a game to keep).
    pub fn has_progress(&self, givens: &Grid) -> bool {
        self.tenths >= 600
            || self.hints_used > 0
            || self.can_undo()
            || self.can_redo()
            || (0..81u8).map(Cell).any(|cell| {
                let content = self.content(cell);
                content.notes != 0 || (content.value != 0 && !Self::is_given(givens, cell))
            })
    }

    /// What starting over would lose, in words for the question that asks first: "3
    /// entries, notes in 2 cells, 1 hint and 4:05 of play"; empty without progress.
    pub fn what_is_lost(&self, givens: &Grid) -> String {
        let cells = (0..81u8).map(Cell).map(|cell| (cell, self.content(cell)));
        let entries = cells
            .clone()
            .filter(|(cell, c)| c.value != 0 && !Self::is_given(givens, *cell))
            .count();
        let noted = cells.filter(|(_, c)| c.value == 0 && c.notes != 0).count();
        let plural = super::search::plural;
        let mut parts = Vec::new();
        if entries > 0 {
            parts.push(plural(entries, "entry", "entries"));
        }
        if noted > 0 {
            parts.push(format!("notes in {}", plural(noted, "cell", "cells")));
        }
        if self.hints_used > 0 {
            parts.push(plural(
                usize::from(self.hints_used),
                "hint taken",
                "hints taken",
            ));
        }
        if parts.is_empty() && (self.can_undo() || self.can_redo()) {
            parts.push("your moves".to_owned());
        }
        if self.tenths >= 600 || (!parts.is_empty() && self.seconds() > 0) {
            parts.push(format!(
                "{} of play",
                super::view::clock_text(self.seconds())
            ));
        }
        match parts.len() {
            0 => String::new(),
            1 => parts.remove(0),
            n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
        }
    }

    /// Whether the grid is solved: every row, column and box holds 1 to 9 (Qt's
    /// `isSolved()`, [`is_solved`]).
    pub fn is_solved(&self) -> bool {
        is_solved(&self.values)
    }

    /// Whether there is a move to undo.
    pub fn can_undo(&self) -> bool {
        !self.history.undo.is_empty()
    }

    /// Whether there is a move to redo.
    pub fn can_redo(&self) -> bool {
        !self.history.redo.is_empty()
    }

    /// Whole seconds played.
    pub fn seconds(&self) -> u64 {
        self.tenths / 10
    }

    /// One tenth of a second more played; true when that completes a second (time for the
    /// window's clock to change).
    pub fn tick(&mut self) -> bool {
        self.tenths += 1;
        self.tenths % 10 == 0
    }

    /// Starts a player action: the last message goes.
    fn begin(&mut self) {
        self.message.clear();
    }

    /// Makes `changes` one move of `kind` (nothing when they change nothing): applies them,
    /// records the move for undo, clears the redo list and any hint on screen (the position
    /// it was about has changed).
    pub(crate) fn commit(&mut self, kind: MoveKind, changes: Vec<Change>) -> bool {
        let changes: Vec<Change> = changes
            .into_iter()
            .filter(|c| c.before != c.after)
            .collect();
        if changes.is_empty() {
            return false;
        }
        for change in &changes {
            self.set(change.cell, change.after);
        }
        self.history.record(Move { kind, changes });
        self.hint = None;
        true
    }

    /// The selected cell, for an action that needs one; says so when there is none, or when
    /// it is a given (givens are locked).
    fn editable_cursor(&mut self, givens: &Grid) -> Option<Cell> {
        let Some(cell) = self.cursor else {
            self.message = "Select a cell first (click it, or use the arrow keys).".into();
            return None;
        };
        if Self::is_given(givens, cell) {
            self.message = format!("{} is a given: it cannot be changed.", at(cell));
            return None;
        }
        Some(cell)
    }

    /// Qt's `tap`: the tapped cell's digit goes one up, from 9 back to empty, as one move.
    /// Only for a cell inside the grid that is not a given ([`is_valid_position`]); returns
    /// whether the tap counted. The cell's notes stay (they show again when it is empty).
    pub fn tap(&mut self, givens: &Grid, event: &Event) -> bool {
        if !is_valid_position(givens, event) {
            return false;
        }
        let Some(cell) = event_cell(event) else {
            return false;
        };
        self.begin();
        self.cycle(cell)
    }

    /// [`tap`](Self::tap) for the chart's typed `tap` event: the same move, at `position`.
    pub fn tap_at(&mut self, givens: &Grid, position: &Position) -> bool {
        match position.cell() {
            Some(cell) if !Self::is_given(givens, cell) => {
                self.begin();
                self.cycle(cell)
            }
            _ => false,
        }
    }

    /// The digit of `cell` one up (9 to empty), as a [`MoveKind::Tap`] move.
    fn cycle(&mut self, cell: Cell) -> bool {
        let before = self.content(cell);
        let value = if before.value >= 9 {
            0
        } else {
            before.value + 1
        };
        let change = Change {
            cell,
            before,
            after: Content { value, ..before },
        };
        self.commit(MoveKind::Tap, vec![change])
    }

    /// A click on a cell (`x` the row, `y` the column, as in a tap): selects it. A click on
    /// the cell already selected cycles its digit like Qt's tap when `cycle` is true (the
    /// chart passes whether it is in pen mode); givens are only selected. Returns whether
    /// the grid changed. A click outside the grid is ignored.
    pub fn click(&mut self, givens: &Grid, event: &Event, cycle: bool) -> bool {
        let Some(cell) = event_cell(event) else {
            return false;
        };
        self.begin();
        if self.cursor == Some(cell) && cycle && !Self::is_given(givens, cell) {
            return self.cycle(cell);
        }
        self.cursor = Some(cell);
        false
    }

    /// Moves the selection one cell, stopping at the edges; with nothing selected, selects
    /// the top-left cell.
    pub fn move_cursor(&mut self, direction: Direction) {
        self.begin();
        let Some(cell) = self.cursor else {
            self.cursor = Some(Cell(0));
            return;
        };
        let (row, col) = (cell.row(), cell.col());
        let (row, col) = match direction {
            Direction::Up => (row.saturating_sub(1), col),
            Direction::Down => ((row + 1).min(8), col),
            Direction::Left => (row, col.saturating_sub(1)),
            Direction::Right => (row, (col + 1).min(8)),
        };
        self.cursor = Some(Cell::new(row, col));
    }

    /// Puts `digit` (`1..=9`) in the selected cell, as one move that also removes `digit`
    /// from the pencil marks of the cell itself and of its peers (undo brings them back).
    /// The same digit again changes nothing. Returns whether the grid changed.
    pub fn enter_digit(&mut self, givens: &Grid, digit: u8) -> bool {
        self.begin();
        if !(1..=9).contains(&digit) {
            self.message = format!("{digit} is not a digit from 1 to 9.");
            return false;
        }
        let Some(cell) = self.editable_cursor(givens) else {
            return false;
        };
        if self.content(cell).value == digit {
            return false;
        }
        self.commit(MoveKind::Digit, self.placement(cell, digit))
    }

    /// The changes of placing `digit` in `cell`: the cell gets the digit and loses its notes,
    /// and its peers lose that pencil mark.
    pub(crate) fn placement(&self, cell: Cell, digit: u8) -> Vec<Change> {
        let before = self.content(cell);
        let mut changes = vec![Change {
            cell,
            before,
            after: Content {
                value: digit,
                notes: 0,
            },
        }];
        for peer in peers(cell) {
            let before = self.content(peer);
            if before.notes & bit(digit) != 0 {
                changes.push(Change {
                    cell: peer,
                    before,
                    after: Content {
                        notes: before.notes & !bit(digit),
                        ..before
                    },
                });
            }
        }
        changes
    }

    /// Sets or removes the pencil mark `digit` of the selected cell, as one move. Only an
    /// empty cell takes notes. Returns whether the grid changed.
    pub fn toggle_note(&mut self, givens: &Grid, digit: u8) -> bool {
        self.begin();
        if !(1..=9).contains(&digit) {
            self.message = format!("{digit} is not a digit from 1 to 9.");
            return false;
        }
        let Some(cell) = self.editable_cursor(givens) else {
            return false;
        };
        let before = self.content(cell);
        if before.value != 0 {
            self.message = format!(
                "{} holds a digit: clear it (Delete) to write notes there.",
                at(cell)
            );
            return false;
        }
        let change = Change {
            cell,
            before,
            after: Content {
                notes: before.notes ^ bit(digit),
                ..before
            },
        };
        self.commit(MoveKind::Note, vec![change])
    }

    /// Empties the selected cell (its digit and its notes), as one move. Returns whether the
    /// grid changed.
    pub fn clear_cell(&mut self, givens: &Grid) -> bool {
        self.begin();
        let Some(cell) = self.editable_cursor(givens) else {
            return false;
        };
        let change = Change {
            cell,
            before: self.content(cell),
            after: Content::default(),
        };
        self.commit(MoveKind::Clear, vec![change])
    }

    /// Writes every empty cell's candidates (the digits none of its peers holds) as its
    /// notes, replacing the notes it had, as one move. Returns whether the grid changed.
    pub fn fill_candidates(&mut self, givens: &Grid) -> bool {
        self.begin();
        let mut changes = Vec::new();
        for cell in (0..81u8).map(Cell) {
            let before = self.content(cell);
            if before.value != 0 || Self::is_given(givens, cell) {
                continue;
            }
            let used = peers(cell).fold(0u16, |used, peer| {
                let v = self.content(peer).value;
                if v == 0 {
                    used
                } else {
                    used | bit(v)
                }
            });
            changes.push(Change {
                cell,
                before,
                after: Content {
                    notes: ALL & !used,
                    ..before
                },
            });
        }
        let changed = self.commit(MoveKind::Fill, changes);
        if !changed {
            self.message = "The notes already hold every candidate.".into();
        }
        changed
    }

    /// Show answer: every cell takes the solution's digit and loses its notes, as one move
    /// (the chart then ends the game as not solved by the player). Returns whether the grid
    /// changed.
    pub fn reveal(&mut self, givens: &Grid, solution: &Grid) -> bool {
        self.begin();
        let changes = (0..81u8)
            .map(Cell)
            .filter(|&cell| !Self::is_given(givens, cell))
            .map(|cell| Change {
                cell,
                before: self.content(cell),
                after: Content {
                    value: solution.0[cell.row()][cell.col()],
                    notes: 0,
                },
            })
            .collect();
        self.commit(MoveKind::Answer, changes)
    }

    /// Takes back the last move. Returns whether there was one.
    pub fn undo(&mut self) -> bool {
        self.begin();
        let Some(mv) = self.history.take_undo() else {
            self.message = "Nothing to undo.".into();
            return false;
        };
        let changes: Vec<(Cell, Content)> = mv
            .changes
            .iter()
            .rev()
            .map(|c| (c.cell, c.before))
            .collect();
        for (cell, content) in changes {
            self.set(cell, content);
        }
        self.hint = None;
        true
    }

    /// Makes the last undone move again. Returns whether there was one.
    pub fn redo(&mut self) -> bool {
        self.begin();
        let Some(mv) = self.history.take_redo() else {
            self.message = "Nothing to redo.".into();
            return false;
        };
        let changes: Vec<(Cell, Content)> = mv.changes.iter().map(|c| (c.cell, c.after)).collect();
        for (cell, content) in changes {
            self.set(cell, content);
        }
        self.hint = None;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn givens() -> Grid {
        let mut g = Grid::default();
        g.0[0][0] = 5;
        g
    }

    fn play() -> Play {
        let mut p = Play::default();
        p.restart(&givens());
        p
    }

    #[test]
    fn a_digit_clears_its_peers_notes_and_undo_brings_them_back_in_one_step() {
        let g = givens();
        let mut p = play();
        // Notes 3 and 7 in r2c2 (a peer of r1c2 through box 1) and r9c2 (column 2).
        for cell in [Cell::new(1, 1), Cell::new(8, 1)] {
            p.cursor = Some(cell);
            assert!(p.toggle_note(&g, 3));
            assert!(p.toggle_note(&g, 7));
        }
        // r5c5 is no peer of r1c2.
        p.cursor = Some(Cell::new(4, 4));
        p.toggle_note(&g, 3);
        p.cursor = Some(Cell::new(0, 1));
        assert!(p.enter_digit(&g, 3));
        assert_eq!(p.values.0[0][1], 3);
        assert_eq!(p.notes.0[1][1], bit(7));
        assert_eq!(p.notes.0[8][1], bit(7));
        assert_eq!(p.notes.0[4][4], bit(3), "not a peer");
        assert!(p.undo());
        assert_eq!(p.values.0[0][1], 0);
        assert_eq!(p.notes.0[1][1], bit(3) | bit(7));
        assert_eq!(p.notes.0[8][1], bit(3) | bit(7));
        assert!(p.redo());
        assert_eq!(p.notes.0[1][1], bit(7));
    }

    #[test]
    fn givens_are_locked_and_need_a_selection() {
        let g = givens();
        let mut p = play();
        assert!(!p.enter_digit(&g, 4));
        assert!(p.message.contains("Select a cell"), "{}", p.message);
        p.cursor = Some(Cell(0));
        assert!(!p.enter_digit(&g, 4));
        assert!(!p.clear_cell(&g));
        assert!(!p.toggle_note(&g, 4));
        assert_eq!(p.message, "r1c1 is a given: it cannot be changed.");
        assert_eq!(p.values, g);
        assert!(!p.can_undo());
    }

    #[test]
    fn every_action_is_one_step_and_a_new_action_clears_redo() {
        let g = givens();
        let mut p = play();
        p.cursor = Some(Cell(1));
        assert!(p.enter_digit(&g, 9));
        assert!(p.enter_digit(&g, 8));
        assert!(
            !p.enter_digit(&g, 8),
            "the same digit again changes nothing"
        );
        assert!(p.clear_cell(&g));
        assert!(p.toggle_note(&g, 2));
        assert!(p.fill_candidates(&g));
        assert_eq!(p.history.undo.len(), 5);
        assert_eq!(p.notes.0[0][1], ALL & !bit(5), "r1c2 sees the given 5");
        for _ in 0..5 {
            assert!(p.undo());
        }
        assert!(!p.undo());
        assert_eq!(p.message, "Nothing to undo.");
        assert_eq!((p.values, p.notes), (g, Notes::default()));
        assert!(p.redo());
        assert_eq!(p.values.0[0][1], 9);
        p.cursor = Some(Cell(2));
        assert!(p.enter_digit(&g, 1));
        assert!(!p.can_redo(), "a new action clears the redo list");
        assert!(!p.redo());
        assert_eq!(p.message, "Nothing to redo.");
    }

    #[test]
    fn notes_only_in_empty_cells_and_fill_twice_says_so() {
        let g = givens();
        let mut p = play();
        p.cursor = Some(Cell(1));
        p.enter_digit(&g, 4);
        assert!(!p.toggle_note(&g, 2));
        assert!(p.message.contains("holds a digit"));
        assert!(p.fill_candidates(&g));
        assert!(!p.fill_candidates(&g));
        assert_eq!(p.message, "The notes already hold every candidate.");
        assert_eq!(p.notes.0[0][1], 0, "a filled cell gets no notes");
    }

    #[test]
    fn taps_cycle_and_clicks_select_then_cycle() {
        let g = givens();
        let mut p = play();
        let tap = |x: i64, y: i64| Event::new("tap", json!({"x": x, "y": y}));
        for expected in (1..=9).chain([0]) {
            assert!(p.tap(&g, &tap(0, 1)));
            assert_eq!(p.values.0[0][1], expected);
        }
        assert!(!p.tap(&g, &tap(0, 0)), "a given");
        assert!(!p.tap(&g, &tap(9, 0)), "outside the grid");
        assert_eq!(p.cursor, None, "a tap does not select");
        assert!(!p.click(&g, &tap(2, 3), true), "the first click selects");
        assert_eq!(p.cursor, Some(Cell::new(2, 3)));
        assert!(p.click(&g, &tap(2, 3), true), "the second cycles");
        assert_eq!(p.values.0[2][3], 1);
        assert!(!p.click(&g, &tap(2, 3), false), "not in notes mode");
        assert!(!p.click(&g, &tap(0, 0), true));
        assert!(
            !p.click(&g, &tap(0, 0), true),
            "a given is selected, never cycled"
        );
        assert_eq!(p.cursor, Some(Cell(0)));
    }

    #[test]
    fn the_cursor_stops_at_the_edges() {
        let mut p = play();
        p.move_cursor(Direction::Left);
        assert_eq!(
            p.cursor,
            Some(Cell(0)),
            "nothing selected: the top-left cell"
        );
        p.move_cursor(Direction::Up);
        p.move_cursor(Direction::Left);
        assert_eq!(p.cursor, Some(Cell(0)));
        for _ in 0..12 {
            p.move_cursor(Direction::Down);
            p.move_cursor(Direction::Right);
        }
        assert_eq!(p.cursor, Some(Cell(80)));
    }

    #[test]
    fn progress_and_time() {
        let g = givens();
        let mut p = play();
        assert!(!p.has_progress(&g));
        p.cursor = Some(Cell(1));
        p.toggle_note(&g, 1);
        assert!(p.has_progress(&g), "a note is progress");
        p.undo();
        assert!(p.has_progress(&g), "undone, but it could be redone");
        p.restart(&g);
        p.hints_used = 1;
        assert!(p.has_progress(&g), "a hint taken");
        p.restart(&g);
        p.tenths = 599;
        assert!(!p.has_progress(&g), "a glance");
        assert_eq!(p.what_is_lost(&g), "");
        p.tenths = 600;
        assert!(p.has_progress(&g), "a minute played");
        assert_eq!(p.what_is_lost(&g), "1:00 of play");
        p.cursor = Some(Cell(1));
        p.toggle_note(&g, 1);
        p.hints_used = 1;
        assert_eq!(
            p.what_is_lost(&g),
            "notes in 1 cell, 1 hint taken and 1:00 of play"
        );
        p.restart(&g);
        for _ in 0..9 {
            assert!(!p.tick());
        }
        assert!(p.tick());
        assert_eq!(p.seconds(), 1);
    }
}
