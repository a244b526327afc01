//! Hints: the next thing a player should look at.
//!
//! From the givens and the player's entries, [`hint`] first looks for a mistake: an entry
//! that repeats a digit of its row, column or box (a clash anyone can see), then an entry that
//! differs from the unique solution. Without a mistake it returns the easiest technique step
//! that applies to the position (see [`crate::engine::techniques`]), computed from the placed
//! digits alone: the player's pencil marks are not known. When no technique applies, the step
//! is a [`Technique::Search`](super::techniques::Technique::Search) step that places one digit
//! of the solution.

use std::fmt;

use super::grade::{unique_solution, ImproperPuzzle};
use super::techniques::{search_step, Board, Cell, HumanSolver, Step};
use super::House;
use crate::datamodel::Grid;

/// What is wrong with an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MistakeKind {
    /// The entry repeats the digit of `other` in `house`.
    Clash {
        /// The other cell with the same digit (a given or another entry).
        other: Cell,
        /// The house both are in.
        house: House,
    },
    /// The entry clashes with nothing yet, but the unique solution has another digit there.
    Wrong,
}

/// The next hint for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// An entry of the player is wrong.
    Mistake {
        /// The cell of the wrong entry.
        cell: Cell,
        /// The digit entered there.
        digit: u8,
        /// Why it is wrong.
        kind: MistakeKind,
    },
    /// No mistake: the easiest step that applies.
    Step(Step),
    /// Every cell is filled, correctly.
    Solved,
}

impl fmt::Display for Hint {
    /// One sentence for the player.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::Mistake {
                cell,
                digit,
                kind: MistakeKind::Clash { other, house },
            } => write!(
                f,
                "Mistake at {cell}: {digit} is already in {house}, at {other}."
            ),
            Hint::Mistake {
                cell,
                digit,
                kind: MistakeKind::Wrong,
            } => write!(
                f,
                "Mistake at {cell}: {digit} does not belong there (the solution has another \
                 digit)."
            ),
            Hint::Step(step) => write!(f, "{step}"),
            Hint::Solved => f.write_str("The puzzle is solved."),
        }
    }
}

/// The next hint for the position `current` (the givens plus the player's entries, `0` for an
/// empty cell) of the puzzle `givens`. Cells given in `givens` are taken from `givens`.
///
/// Mistakes come first, in reading order: clashes, then entries that differ from the
/// solution. See the [module docs](self).
///
/// # Errors
/// [`ImproperPuzzle`] when `givens` is not a puzzle with exactly one solution.
pub fn hint(givens: &Grid, current: &Grid) -> Result<Hint, ImproperPuzzle> {
    let solution = unique_solution(givens)?;
    let mut position = *current;
    for (r, row) in givens.0.iter().enumerate() {
        for (c, &g) in row.iter().enumerate() {
            if g != 0 {
                position.0[r][c] = g;
            } else if position.0[r][c] > 9 {
                position.0[r][c] = 0;
            }
        }
    }
    let value = |cell: Cell| position.0[cell.row()][cell.col()];
    let entries: Vec<Cell> = (0..81u8)
        .map(Cell)
        .filter(|&c| givens.0[c.row()][c.col()] == 0 && value(c) != 0)
        .collect();
    // Clashes: an entry against any other cell of its houses.
    for &cell in &entries {
        let digit = value(cell);
        let clash = (0..81u8)
            .map(Cell)
            .find(|&o| o.sees(cell) && value(o) == digit);
        if let Some(other) = clash {
            let house = if other.row() == cell.row() {
                House::Row(cell.row() as u8)
            } else if other.col() == cell.col() {
                House::Column(cell.col() as u8)
            } else {
                House::Box(cell.box_index() as u8)
            };
            return Ok(Hint::Mistake {
                cell,
                digit,
                kind: MistakeKind::Clash { other, house },
            });
        }
    }
    for &cell in &entries {
        if value(cell) != solution.0[cell.row()][cell.col()] {
            return Ok(Hint::Mistake {
                cell,
                digit: value(cell),
                kind: MistakeKind::Wrong,
            });
        }
    }
    let board = Board::new(&position);
    if board.is_solved() {
        return Ok(Hint::Solved);
    }
    let step = HumanSolver::default()
        .next_step(&board)
        .or_else(|| search_step(&board, &solution))
        .expect("a position that agrees with the solution has an empty cell to fill");
    Ok(Hint::Step(step))
}

#[cfg(test)]
mod tests {
    use super::super::techniques::{Candidate, Technique};
    use super::*;
    use crate::puzzle::parse;

    const QT: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    #[test]
    fn no_entries_gives_the_easiest_step() {
        let g = parse(QT).unwrap();
        let Ok(Hint::Step(step)) = hint(&g, &g) else {
            panic!("a step");
        };
        assert_eq!(step.technique, Technique::HiddenSingle);
        assert_eq!(step.placements.len(), 1);
    }

    #[test]
    fn a_clash_is_pointed_at() {
        let g = parse(QT).unwrap();
        let mut current = g;
        // r1c1 gets 2, which row 1 has at r1c4.
        current.0[0][0] = 2;
        let h = hint(&g, &current).unwrap();
        assert_eq!(
            h,
            Hint::Mistake {
                cell: Cell::new(0, 0),
                digit: 2,
                kind: MistakeKind::Clash {
                    other: Cell::new(0, 3),
                    house: House::Row(0)
                }
            }
        );
        assert_eq!(
            h.to_string(),
            "Mistake at r1c1: 2 is already in row 1, at r1c4."
        );
    }

    #[test]
    fn a_wrong_digit_is_pointed_at() {
        let g = parse(QT).unwrap();
        let solution = unique_solution(&g).unwrap();
        let mut current = g;
        // A correct entry at r1c1, and at a later cell with two or more candidates a
        // candidate that is not the solution's digit: it clashes with nothing.
        current.0[0][0] = solution.0[0][0];
        let board = Board::new(&current);
        let (cell, wrong) = (1..81u8)
            .map(Cell)
            .filter(|&c| board.cands(c).count_ones() >= 2)
            .find_map(|c| {
                (1..=9)
                    .find(|&d| board.has(c, d) && d != solution.0[c.row()][c.col()])
                    .map(|d| (c, d))
            })
            .expect("the puzzle has a cell with two candidates");
        current.0[cell.row()][cell.col()] = wrong;
        let h = hint(&g, &current).unwrap();
        assert_eq!(
            h,
            Hint::Mistake {
                cell,
                digit: wrong,
                kind: MistakeKind::Wrong
            }
        );
    }

    #[test]
    fn solved_and_improper() {
        let g = parse(QT).unwrap();
        let solution = unique_solution(&g).unwrap();
        assert_eq!(hint(&g, &solution), Ok(Hint::Solved));
        assert_eq!(
            hint(&Grid::default(), &Grid::default()),
            Err(ImproperPuzzle::MultipleSolutions)
        );
    }

    #[test]
    fn search_when_no_technique_applies() {
        let g = parse(
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        )
        .unwrap();
        let solution = unique_solution(&g).unwrap();
        // Walk the hints until the techniques run out: each step is sound.
        let mut current = g;
        for _ in 0..200 {
            match hint(&g, &current).unwrap() {
                Hint::Step(step) => {
                    for Candidate { cell, digit } in &step.placements {
                        assert_eq!(solution.0[cell.row()][cell.col()], *digit);
                        current.0[cell.row()][cell.col()] = *digit;
                    }
                    if step.technique == Technique::Search {
                        return;
                    }
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        panic!("hints never needed search on a hardest-list puzzle");
    }
}
