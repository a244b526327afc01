//! Hints in the game: a limited number per attempt, each shown first and carried out on a
//! second request.
//!
//! A hint first points at a mistake if there is one (an entry that clashes with a peer, then
//! one that differs from the solution: [`crate::engine::hint`]); the second request removes
//! that entry. Otherwise it names the next digit the human techniques find
//! ([`crate::engine::techniques`], easiest first, from the placed digits alone): when the
//! easiest steps only remove candidates, they are followed until one places a digit, and the
//! hint explains that chain with its cells highlighted; the second request places the digit.

use serde::{Deserialize, Serialize};

use super::history::{Change, Content, MoveKind};
use super::info::PuzzleInfo;
use super::play::Play;
use crate::datamodel::Grid;
use crate::engine::techniques::{
    house_cells, peers, search_step, Board, Candidate, Cell, HumanSolver, Step, Technique,
};
use crate::engine::{hint as engine_hint, Hint, House, MistakeKind};

/// A hint on screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShownHint {
    /// An entry is wrong; carrying the hint out empties its cell.
    Mistake {
        /// The wrong entry's cell.
        cell: Cell,
        /// The digit entered there.
        digit: u8,
        /// The peer it clashes with, if it clashes (else it only differs from the solution).
        other: Option<Cell>,
        /// The explanation for the player.
        text: String,
    },
    /// The next digit; carrying the hint out places it.
    Placement {
        /// Where it goes.
        cell: Cell,
        /// The digit.
        digit: u8,
        /// The technique that finds it (the hardest of the chain), by its usual name.
        technique: String,
        /// The cells of the patterns the chain uses, without `cell`.
        cells: Vec<Cell>,
        /// The explanation for the player.
        text: String,
    },
}

impl ShownHint {
    /// The explanation for the player.
    pub fn text(&self) -> &str {
        match self {
            ShownHint::Mistake { text, .. } | ShownHint::Placement { text, .. } => text,
        }
    }

    /// The cell the hint is about.
    pub fn cell(&self) -> Cell {
        match self {
            ShownHint::Mistake { cell, .. } | ShownHint::Placement { cell, .. } => *cell,
        }
    }

    /// The other cells to highlight with it.
    pub fn related(&self) -> Vec<Cell> {
        match self {
            ShownHint::Mistake { other, .. } => other.iter().copied().collect(),
            ShownHint::Placement { cells, .. } => cells.clone(),
        }
    }
}

/// At most this many steps are explained in one hint; a longer chain says how many came
/// before.
const EXPLAINED_STEPS: usize = 3;

/// The chart's `hint` event. With a hint on screen, carries it out (one move) and returns
/// true; otherwise shows the next hint, unless `limit` hints were already used in this
/// attempt or the puzzle has no unique solution (then [`Play::message`] says why). Showing a
/// hint counts against the limit; carrying it out does not.
pub fn hint(play: &mut Play, givens: &Grid, puzzle: &PuzzleInfo, limit: u8) -> bool {
    play.message.clear();
    if let Some(shown) = play.hint.take() {
        return carry_out(play, givens, &shown);
    }
    let Some(solution) = puzzle.solution.grid() else {
        play.message = "Hints need a puzzle with exactly one solution.".into();
        return false;
    };
    let Some(shown) = next_hint(givens, &play.values, solution) else {
        play.message = "Nothing to hint: the grid is full and right.".into();
        return false;
    };
    // The same hint again (another action took it off the screen) is not paid twice.
    let paid = play.paid_hint.as_ref() == Some(&shown);
    if !paid && play.hints_used >= limit {
        play.message = match limit {
            0 => "Hints are off for this game.".into(),
            1 => "No hints left: 1 per game.".into(),
            n => format!("No hints left: {n} per game."),
        };
        return false;
    }
    if !paid {
        play.hints_used += 1;
        play.paid_hint = Some(shown.clone());
    }
    let left = limit.saturating_sub(play.hints_used);
    play.message = format!(
        "{} (Hint again to {}; {left} hint{} left.)",
        shown.text(),
        match shown {
            ShownHint::Mistake { .. } => "remove it",
            ShownHint::Placement { .. } => "place it",
        },
        if left == 1 { "" } else { "s" }
    );
    play.cursor = Some(shown.cell());
    play.hint = Some(shown);
    false
}

/// Carries out a hint as one [`MoveKind::Hint`] move.
fn carry_out(play: &mut Play, givens: &Grid, shown: &ShownHint) -> bool {
    play.paid_hint = None;
    let changes = match *shown {
        ShownHint::Mistake { cell, .. } => vec![Change {
            cell,
            before: play.content(cell),
            after: Content::default(),
        }],
        ShownHint::Placement { cell, digit, .. } if !Play::is_given(givens, cell) => {
            play.placement(cell, digit)
        }
        ShownHint::Placement { .. } => Vec::new(),
    };
    play.cursor = Some(shown.cell());
    play.commit(MoveKind::Hint, changes)
}

/// The hint for the position `current` of `givens`, whose solution is `solution`: the first
/// mistake, else the next placement; `None` when the grid is full and right.
pub fn next_hint(givens: &Grid, current: &Grid, solution: &Grid) -> Option<ShownHint> {
    match engine_hint(givens, current).ok()? {
        Hint::Solved => None,
        Hint::Mistake { cell, digit, kind } => {
            let text = Hint::Mistake { cell, digit, kind }.to_string();
            let other = match kind {
                MistakeKind::Clash { other, .. } => Some(other),
                MistakeKind::Wrong => None,
            };
            Some(ShownHint::Mistake {
                cell,
                digit,
                other,
                text,
            })
        }
        Hint::Step(first) => Some(placement(givens, current, solution, first)),
    }
}

/// Follows the easiest steps from `first` until one places a digit, and explains the chain.
fn placement(givens: &Grid, current: &Grid, solution: &Grid, first: Step) -> ShownHint {
    let mut position = *current;
    for (r, row) in givens.0.iter().enumerate() {
        for (c, &g) in row.iter().enumerate() {
            if g != 0 {
                position.0[r][c] = g;
            }
        }
    }
    let mut board = Board::new(&position);
    let solver = HumanSolver::default();
    let mut chain = vec![first];
    // A placement comes at the latest when the techniques run out (search places one), and
    // every elimination step removes a candidate, so this ends within 729 steps.
    while chain.last().is_some_and(|s| s.placements.is_empty()) {
        board.apply(chain.last().expect("the chain is never empty"));
        match solver
            .next_step(&board)
            .or_else(|| search_step(&board, solution))
        {
            Some(step) => chain.push(step),
            None => break,
        }
    }
    let last = chain.last().expect("the chain is never empty");
    let Some(target) = last.placements.first().copied() else {
        // Unreachable for a position that agrees with the solution; say what was found.
        return ShownHint::Placement {
            cell: last.cells.first().copied().unwrap_or(Cell(0)),
            digit: solution.0[0][0],
            technique: last.technique.name().to_owned(),
            cells: last.cells.clone(),
            text: last.to_string(),
        };
    };
    let hardest = chain
        .iter()
        .map(|s| s.technique)
        .max()
        .expect("the chain is never empty");
    let mut cells: Vec<Cell> = chain
        .iter()
        .flat_map(|s| s.cells.iter().copied())
        .chain(single_context(&board, last, target))
        .filter(|&c| c != target.cell)
        .collect();
    cells.sort();
    cells.dedup();
    let explained = &chain[chain.len().saturating_sub(EXPLAINED_STEPS)..];
    let mut text = String::new();
    if chain.len() > explained.len() {
        text.push_str(&format!(
            "After {} earlier steps that remove candidates: ",
            chain.len() - explained.len()
        ));
    }
    // Each explanation names its technique already.
    let sentences: Vec<String> = explained.iter().map(|s| s.explanation.clone()).collect();
    text.push_str(&sentences.join(" Then "));
    ShownHint::Placement {
        cell: target.cell,
        digit: target.digit,
        technique: hardest.name().to_owned(),
        cells,
        text,
    }
}

/// What a player looks at to see a single, on the board it was found on: for a hidden single,
/// the house and, for each of its other empty cells, a placed digit that rules the digit
/// out there; for a naked single, a peer holding each of the other eight digits.
fn single_context(board: &Board, step: &Step, target: Candidate) -> Vec<Cell> {
    let (cell, digit) = (target.cell, target.digit);
    let holding = |d: u8, of: Cell| peers(of).find(|&p| board.value(p) == d);
    match step.technique {
        Technique::HiddenSingle => {
            // The house the solver found it in: boxes first, then rows, then columns.
            let houses = [
                House::Box(cell.box_index() as u8),
                House::Row(cell.row() as u8),
                House::Column(cell.col() as u8),
            ];
            let Some(house) = houses
                .into_iter()
                .find(|&h| house_cells(h).filter(|&c| board.has(c, digit)).count() == 1)
            else {
                return Vec::new();
            };
            let mut cells: Vec<Cell> = house_cells(house).collect();
            for other in house_cells(house) {
                if other != cell && board.value(other) == 0 {
                    cells.extend(holding(digit, other));
                }
            }
            cells
        }
        Technique::NakedSingle => (1..=9)
            .filter(|&d| d != digit)
            .filter_map(|d| holding(d, cell))
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::unique_solution;
    use crate::puzzle::parse;

    const QT: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";
    /// A hard puzzle (top1465 #1): its first steps remove candidates before any placement.
    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    fn setup(line: &str) -> (Grid, PuzzleInfo, Play) {
        let g = parse(line).unwrap();
        let info = PuzzleInfo::analyse("t".into(), None, &g);
        let mut play = Play::default();
        play.restart(&g);
        (g, info, play)
    }

    #[test]
    fn show_then_place_and_the_limit_refuses_the_fourth() {
        let (g, info, mut play) = setup(QT);
        let solution = unique_solution(&g).unwrap();
        for n in 1..=3 {
            assert!(!hint(&mut play, &g, &info, 3), "the first press shows");
            let Some(ShownHint::Placement { cell, digit, .. }) = play.hint.clone() else {
                panic!("a placement hint: {:?}", play.hint);
            };
            assert_eq!(digit, solution.0[cell.row()][cell.col()]);
            assert_eq!(play.hints_used, n);
            assert!(play.message.contains("Hint again to place it"));
            assert!(hint(&mut play, &g, &info, 3), "the second press places");
            assert_eq!(play.values.0[cell.row()][cell.col()], digit);
            assert_eq!(play.history.undo.last().unwrap().kind, MoveKind::Hint);
        }
        assert!(!hint(&mut play, &g, &info, 3));
        assert_eq!(play.message, "No hints left: 3 per game.");
        assert_eq!(play.hint, None);
        assert_eq!(play.hints_used, 3);
    }

    #[test]
    fn a_hidden_single_shows_its_house_and_the_digits_that_rule_out_the_rest() {
        let (g, info, mut play) = setup(QT);
        hint(&mut play, &g, &info, 3);
        let Some(ShownHint::Placement {
            cell,
            digit,
            technique,
            cells,
            ..
        }) = play.hint.clone()
        else {
            panic!("a placement");
        };
        assert_eq!(technique, "Hidden Single");
        // Every other empty cell of the target's box is ruled out by a highlighted digit.
        let in_box = |c: Cell| c.box_index() == cell.box_index();
        for other in (0..81u8).map(Cell).filter(|&c| in_box(c) && c != cell) {
            if g.0[other.row()][other.col()] == 0 {
                assert!(
                    cells
                        .iter()
                        .any(|&w| !in_box(w) && w.sees(other) && g.0[w.row()][w.col()] == digit),
                    "nothing highlighted rules {digit} out of {other}"
                );
            }
        }
        assert!(
            cells.iter().filter(|&&c| in_box(c)).count() == 8,
            "the box is highlighted"
        );
    }

    #[test]
    fn a_hint_taken_off_the_screen_is_not_paid_twice() {
        let (g, info, mut play) = setup(QT);
        hint(&mut play, &g, &info, 3);
        let shown = play.hint.clone().unwrap();
        // Another action (a note elsewhere) takes the hint off the screen.
        play.cursor = Some(Cell::new(8, 8));
        play.toggle_note(&g, 1);
        assert_eq!(play.hint, None);
        hint(&mut play, &g, &info, 3);
        assert_eq!(play.hint.as_ref(), Some(&shown));
        assert_eq!(play.hints_used, 1, "shown again for free");
        assert!(hint(&mut play, &g, &info, 3), "and carried out");
        hint(&mut play, &g, &info, 3);
        assert_eq!(play.hints_used, 2, "a new hint is paid");
    }

    #[test]
    fn a_mistake_comes_first_and_the_second_press_removes_it() {
        let (g, info, mut play) = setup(QT);
        play.cursor = Some(Cell::new(0, 0));
        play.enter_digit(&g, 2); // row 1 already has 2 at r1c4
        hint(&mut play, &g, &info, 3);
        let Some(ShownHint::Mistake { cell, other, .. }) = play.hint.clone() else {
            panic!("a mistake: {:?}", play.hint);
        };
        assert_eq!((cell, other), (Cell::new(0, 0), Some(Cell::new(0, 3))));
        assert!(
            play.message.starts_with("Mistake at r1c1"),
            "{}",
            play.message
        );
        assert!(hint(&mut play, &g, &info, 3));
        assert_eq!(play.values.0[0][0], 0);
        assert!(play.undo(), "removing it is one move");
        assert_eq!(play.values.0[0][0], 2);
    }

    #[test]
    fn eliminations_lead_to_a_placement_with_the_chain_explained() {
        let (g, info, mut play) = setup(HARD);
        let solution = info.solution.grid().copied().unwrap();
        // Walk hints (carrying each out) until one needs steps that only eliminate.
        for _ in 0..81 {
            hint(&mut play, &g, &info, u8::MAX);
            let Some(ShownHint::Placement {
                cell, digit, text, ..
            }) = play.hint.clone()
            else {
                panic!("a placement: {:?}", play.hint);
            };
            assert_eq!(digit, solution.0[cell.row()][cell.col()]);
            assert!(hint(&mut play, &g, &info, u8::MAX));
            if text.contains("Then") {
                return;
            }
        }
        panic!("no hint of this hard puzzle needed a chain");
    }

    #[test]
    fn improper_puzzles_get_no_hints() {
        let g = Grid::default();
        let info = PuzzleInfo::analyse(String::new(), None, &g);
        let mut play = Play::default();
        play.restart(&g);
        assert!(!hint(&mut play, &g, &info, 3));
        assert_eq!(
            play.message,
            "Hints need a puzzle with exactly one solution."
        );
        assert_eq!(play.hints_used, 0);
    }
}
