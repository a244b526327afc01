//! Undo and redo: every player action is one [`Move`], a list of cell [`Change`]s with the
//! contents before and after, so undoing and redoing are exact whatever the action was (a
//! digit that also cleared its peers' notes, a filled-in set of candidates, a hint).

use serde::{Deserialize, Serialize};

use crate::engine::techniques::Cell;

/// What one cell holds: a digit (`0` when empty) and its pencil marks (a 9-bit mask, digit
/// `d` = bit `d - 1`). A given's notes are always `0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Content {
    /// The digit, `0..=9`.
    pub value: u8,
    /// The pencil marks, `0..=0x1FF`.
    pub notes: u16,
}

/// One cell's contents before and after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Change {
    /// The cell.
    pub cell: Cell,
    /// What it held before the move.
    pub before: Content,
    /// What it holds after the move.
    pub after: Content,
}

/// The player action a move records, for messages and for the save check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// Qt's tap: the cell's digit went one up (9 to empty).
    Tap,
    /// A digit typed into a cell (its peers lose that pencil mark).
    Digit,
    /// A cell emptied of its digit and notes.
    Clear,
    /// A pencil mark set or removed.
    Note,
    /// Every empty cell's candidates written as notes.
    Fill,
    /// A hint carried out: its digit placed, or a mistake removed.
    Hint,
    /// Show answer: every cell set to the solution (this ends the game).
    Answer,
}

/// One player action: the cells it changed, in the order it changed them. Never empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// What the player did.
    pub kind: MoveKind,
    /// The changed cells; each cell at most once.
    pub changes: Vec<Change>,
}

/// The moves that can be undone (oldest first) and redone (the next redo last).
///
/// A new move clears the redo list; undoing moves the last move from `undo` to `redo`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    /// Moves made, oldest first.
    pub undo: Vec<Move>,
    /// Moves undone, the most recently undone last.
    pub redo: Vec<Move>,
}

impl History {
    /// Records a new move: it can be undone, and nothing can be redone any more.
    pub fn record(&mut self, mv: Move) {
        self.undo.push(mv);
        self.redo.clear();
    }

    /// Takes the last move for undoing; it becomes the next redo.
    pub fn take_undo(&mut self) -> Option<&Move> {
        let mv = self.undo.pop()?;
        self.redo.push(mv);
        self.redo.last()
    }

    /// Takes the next move to redo; it becomes the last undo.
    pub fn take_redo(&mut self) -> Option<&Move> {
        let mv = self.redo.pop()?;
        self.undo.push(mv);
        self.undo.last()
    }

    /// Forgets every move.
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(cell: u8, before: u8, after: u8) -> Move {
        Move {
            kind: MoveKind::Digit,
            changes: vec![Change {
                cell: Cell(cell),
                before: Content {
                    value: before,
                    notes: 0,
                },
                after: Content {
                    value: after,
                    notes: 0,
                },
            }],
        }
    }

    #[test]
    fn undo_then_redo_then_a_new_move_clears_redo() {
        let mut h = History::default();
        h.record(mv(0, 0, 1));
        h.record(mv(1, 0, 2));
        assert_eq!(h.take_undo(), Some(&mv(1, 0, 2)));
        assert_eq!(h.take_undo(), Some(&mv(0, 0, 1)));
        assert_eq!(h.take_undo(), None);
        assert_eq!(h.take_redo(), Some(&mv(0, 0, 1)));
        assert_eq!(h.redo, [mv(1, 0, 2)]);
        h.record(mv(2, 0, 3));
        assert!(h.redo.is_empty(), "a new move clears the redo list");
        assert_eq!(h.take_redo(), None);
        assert_eq!(h.undo, [mv(0, 0, 1), mv(2, 0, 3)]);
    }

    #[test]
    fn serializes_compactly() {
        let text = serde_json::to_string(&mv(80, 0, 9)).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"digit","changes":[{"cell":80,"before":{"value":0,"notes":0},"after":{"value":9,"notes":0}}]}"#
        );
    }
}
