//! Edit mode: a puzzle the player types in (the chart's `draft` data item), and the verdict on
//! it when the player is done: invalid (which givens clash, in which house), no solution,
//! several solutions, or a unique solution with its grade.

use serde::{Deserialize, Serialize};

use super::info::LoadRequest;
use crate::datamodel::{event_cell, Grid};
use crate::engine::techniques::Cell;
use crate::engine::{clashes, classify, grade, trace, Classification, DeadEnd, Level, TraceStep};

use super::play::Direction;

/// Where the givens fail without any guess: the first contradiction the traced search meets
/// before its first guess (placing the singles and locked candidates the givens force), or
/// `None` when the position only fails once guesses are made.
fn forced_dead_end(grid: &Grid) -> Option<DeadEnd> {
    trace(grid)
        .take_while(|step| !matches!(step, TraceStep::Guess { .. }))
        .find_map(|step| match step {
            TraceStep::DeadEnd(dead) => Some(dead),
            _ => None,
        })
}

/// A dead end as the verdict says it: `leave r3c4 without a candidate`.
fn dead_end_text(dead: DeadEnd) -> String {
    let at = |(r, c): (usize, usize)| Cell::new(r, c);
    match dead {
        DeadEnd::NoCandidate(cell) => format!("leave {} without a candidate", at(cell)),
        DeadEnd::NoPlace { digit, house } => format!("leave {digit} without a place in {house}"),
        DeadEnd::Clash { cell, peer, digit } => {
            format!("put {digit} in both {} and {}", at(peer), at(cell))
        }
    }
}

/// What the checked draft is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// Givens clash: the cells involved, and the sentence naming them and their houses.
    Invalid {
        /// Every cell of a clashing pair.
        cells: Vec<Cell>,
        /// `5 twice in row 1 (r1c1 and r1c9); ...`
        text: String,
    },
    /// No grid completes the givens.
    NoSolution,
    /// Two or more grids complete them.
    Multiple,
    /// Exactly one: a proper puzzle, with its grade.
    Unique {
        /// The grade by the project's grader.
        level: Level,
        /// The solution.
        solution: Grid,
    },
}

/// The chart's `draft` data item.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Draft {
    /// The givens typed so far, `0` for empty.
    pub grid: Grid,
    /// The selected cell.
    pub cursor: Option<Cell>,
    /// The verdict of the last check, until the draft changes.
    pub verdict: Option<Verdict>,
    /// The solution is shown on the board (after Solve).
    pub solved: bool,
    /// How many drafts were played: the next is "My puzzle {made + 1}".
    pub made: u32,
    /// The last word to the player.
    pub message: String,
    /// The grid the draft started from (blank, or the current puzzle's givens): what
    /// [`has_changes`](Self::has_changes) compares with.
    pub start: Grid,
    /// What was typed, oldest first, for [`undo`](Self::undo): each a cell with the digit
    /// before and after (`0` for empty).
    pub undo: Vec<DraftEdit>,
    /// What was undone, most recent last, for [`redo`](Self::redo); typing empties it.
    pub redo: Vec<DraftEdit>,
}

/// One change to a draft: `cell` went from `before` to `after` (`0` for empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftEdit {
    /// The cell typed in.
    pub cell: Cell,
    /// Its digit before.
    pub before: u8,
    /// Its digit after.
    pub after: u8,
}

/// A digit typed where a peer holds it is allowed while typing (it is drawn red, and the
/// verdict names it), as in any editor.
impl Draft {
    /// Starts a draft: blank, or from `givens` (the current puzzle's).
    pub fn start(&mut self, givens: Option<&Grid>) {
        self.grid = givens.copied().unwrap_or_default();
        self.start = self.grid;
        self.undo.clear();
        self.redo.clear();
        self.cursor = Some(Cell(0));
        self.verdict = None;
        self.solved = false;
        self.message =
            "Type the givens: click a cell or use the arrow keys, then 1–9; Delete clears. \
             Check when you are done."
                .into();
    }

    /// Whether the draft starts from the current puzzle (`{"from": "current"}`) rather than
    /// a blank grid (`{"from": "blank"}`, or no data).
    pub fn from_current(event: &sudoku_scxmlc::runtime::Event) -> bool {
        event.data.get("from").and_then(|v| v.as_str()) == Some("current")
    }

    fn changed(&mut self) {
        self.verdict = None;
        self.solved = false;
        self.message.clear();
    }

    /// A click selects a cell.
    pub fn click(&mut self, event: &sudoku_scxmlc::runtime::Event) {
        if let Some(cell) = event_cell(event) {
            self.cursor = Some(cell);
        }
    }

    /// Moves the selection one cell, stopping at the edges.
    pub fn move_cursor(&mut self, direction: Direction) {
        let cell = self.cursor.unwrap_or(Cell(0));
        let (row, col) = (cell.row(), cell.col());
        let (row, col) = match direction {
            Direction::Up => (row.saturating_sub(1), col),
            Direction::Down => ((row + 1).min(8), col),
            Direction::Left => (row, col.saturating_sub(1)),
            Direction::Right => (row, (col + 1).min(8)),
        };
        self.cursor = Some(Cell::new(row, col));
    }

    /// Puts a given `digit` (`1..=9`) in the selected cell.
    pub fn set(&mut self, digit: u8) {
        let Some(cell) = self.cursor else { return };
        if !(1..=9).contains(&digit) {
            return;
        }
        self.put(cell, digit);
    }

    /// Empties the selected cell.
    pub fn clear(&mut self) {
        let Some(cell) = self.cursor else { return };
        self.put(cell, 0);
    }

    /// Types `digit` (`0` for none) into `cell`, remembering the change for undo.
    fn put(&mut self, cell: Cell, digit: u8) {
        let before = self.grid.0[cell.row()][cell.col()];
        if before != digit {
            self.undo.push(DraftEdit {
                cell,
                before,
                after: digit,
            });
            self.redo.clear();
        }
        self.grid.0[cell.row()][cell.col()] = digit;
        self.changed();
    }

    /// Whether something typed can be undone.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether something undone can be typed again.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes back the last change, selecting its cell; nothing when there is none.
    pub fn undo(&mut self) {
        if let Some(edit) = self.undo.pop() {
            self.grid.0[edit.cell.row()][edit.cell.col()] = edit.before;
            self.cursor = Some(edit.cell);
            self.redo.push(edit);
            self.changed();
        }
    }

    /// Makes the last undone change again, selecting its cell; nothing when there is none.
    pub fn redo(&mut self) {
        if let Some(edit) = self.redo.pop() {
            self.grid.0[edit.cell.row()][edit.cell.col()] = edit.after;
            self.cursor = Some(edit.cell);
            self.undo.push(edit);
            self.changed();
        }
    }

    /// Checks the draft and says what it is; returns whether it is a proper puzzle.
    pub fn check(&mut self) -> bool {
        let verdict = match classify(&self.grid) {
            Classification::Invalid(_) => {
                let found = clashes(&self.grid);
                let mut cells: Vec<Cell> = found
                    .iter()
                    .flat_map(|c| c.cells.iter().map(|&(r, c)| Cell::new(r, c)))
                    .collect();
                cells.sort();
                cells.dedup();
                let text = found
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ");
                Verdict::Invalid { cells, text }
            }
            Classification::None => Verdict::NoSolution,
            Classification::Multiple => Verdict::Multiple,
            Classification::Unique(solution) => Verdict::Unique {
                level: grade(&self.grid).map_or(Level::Extreme, |g| g.level),
                solution,
            },
        };
        let givens = self.grid.0.iter().flatten().filter(|&&v| v != 0).count();
        self.message = match &verdict {
            Verdict::Invalid { text, .. } => format!("Not a valid puzzle: {text}."),
            Verdict::NoSolution => {
                let these = if givens == 1 {
                    "this one given".to_owned()
                } else {
                    format!("these {givens} givens")
                };
                match forced_dead_end(&self.grid) {
                    Some(dead) => format!(
                        "No solution: the singles and locked candidates {these} force {}.",
                        dead_end_text(dead)
                    ),
                    None => format!(
                        "No solution: no grid completes {these} (every guess fails: Watch \
                         solver shows where)."
                    ),
                }
            }
            Verdict::Multiple => format!(
                "Several solutions: {} more than one grid. Add givens until one is left.",
                match givens {
                    0 => "an empty grid leaves".to_owned(),
                    1 => "this one given leaves".to_owned(),
                    n => format!("these {n} givens leave"),
                }
            ),
            Verdict::Unique { level, .. } => format!(
                "A proper puzzle: one solution, {level} ({givens} givens). Play it, or Solve \
                 to see the solution."
            ),
        };
        let proper = matches!(verdict, Verdict::Unique { .. });
        self.verdict = Some(verdict);
        self.solved = false;
        proper
    }

    /// Whether the player typed something since the draft started (leaving edit mode would
    /// lose it).
    pub fn has_changes(&self) -> bool {
        self.grid != self.start
    }

    /// What leaving edit mode loses, for the question: `"the 12 givens typed"`, or, for a
    /// draft started from the current puzzle, `"3 changed cells"`.
    pub fn what_is_lost(&self) -> String {
        let cells = |g: &Grid| -> Vec<u8> { g.0.iter().flatten().copied().collect() };
        let (now, start) = (cells(&self.grid), cells(&self.start));
        if start.iter().all(|&v| v == 0) {
            let givens = now.iter().filter(|&&v| v != 0).count();
            return match givens {
                1 => "the one given typed".to_owned(),
                n => format!("the {n} givens typed"),
            };
        }
        let changed = now.iter().zip(&start).filter(|(a, b)| a != b).count();
        super::search::plural(changed, "changed cell", "changed cells")
    }

    /// Whether the last check found a proper puzzle.
    pub fn is_proper(&self) -> bool {
        matches!(self.verdict, Some(Verdict::Unique { .. }))
    }

    /// Solve: shows the solution on the board (a proper puzzle only).
    pub fn solve(&mut self) {
        if self.is_proper() {
            self.solved = true;
            self.message = "The solution is filled in (the givens are the bold digits).".into();
        }
    }

    /// The cells to draw red: those of clashing givens, whether checked yet or not.
    pub fn clashing(&self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = clashes(&self.grid)
            .iter()
            .flat_map(|c| c.cells.iter().map(|&(r, c)| Cell::new(r, c)))
            .collect();
        cells.sort();
        cells.dedup();
        cells
    }

    /// The digits shown: the draft, or its solution after Solve.
    pub fn shown(&self) -> Grid {
        match (&self.verdict, self.solved) {
            (Some(Verdict::Unique { solution, .. }), true) => *solution,
            _ => self.grid,
        }
    }

    /// Takes the checked draft to be played as "My puzzle N" (the load request), counting it.
    pub fn take_puzzle(&mut self) -> LoadRequest {
        self.made += 1;
        let level = match &self.verdict {
            Some(Verdict::Unique { level, .. }) => Some(*level),
            _ => None,
        };
        LoadRequest {
            givens: self.grid,
            name: format!("My puzzle {}", self.made),
            level,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse;

    const QT: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    #[test]
    fn the_four_verdicts() {
        let mut d = Draft::default();
        d.start(Some(&parse(QT).unwrap()));
        assert!(d.check());
        assert!(d
            .message
            .starts_with("A proper puzzle: one solution, easy (36 givens)"));
        d.solve();
        assert!(d.shown().0.iter().flatten().all(|&v| v != 0));

        d.cursor = Some(Cell(0));
        d.set(2); // row 1 has 2 at r1c4
        assert!(!d.solved, "a change clears the verdict");
        assert_eq!(d.clashing(), [Cell(0), Cell(3)]);
        assert!(!d.check());
        assert_eq!(
            d.message,
            "Not a valid puzzle: 2 twice in row 1 (r1c1 and r1c4)."
        );
        d.clear();

        let mut blank = Draft::default();
        blank.start(None);
        assert!(!blank.check());
        assert!(blank
            .message
            .starts_with("Several solutions: an empty grid leaves"));

        // r1c1..r1c8 hold 1-8 and r2c9 holds 9: r1c9 has no candidate.
        for c in 0..8 {
            blank.cursor = Some(Cell::new(0, c));
            blank.set(c as u8 + 1);
        }
        blank.cursor = Some(Cell::new(1, 8));
        blank.set(9);
        assert!(!blank.check());
        assert_eq!(blank.verdict, Some(Verdict::NoSolution));
        assert!(
            blank
                .message
                .ends_with("force leave r1c9 without a candidate."),
            "names the cell: {}",
            blank.message
        );
    }

    #[test]
    fn drafts_are_numbered_as_they_are_played() {
        let mut d = Draft::default();
        d.start(Some(&parse(QT).unwrap()));
        d.check();
        assert_eq!(d.take_puzzle().name, "My puzzle 1");
        assert_eq!(d.take_puzzle().name, "My puzzle 2");
    }
}
