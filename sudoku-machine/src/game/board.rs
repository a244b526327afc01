//! The board of a game as the window draws it (the phases that show the attempt: running,
//! stopped, solved, revealed, behind a question, generating): each cell from the grid, the
//! notes, the mistakes, the selection and the hint on screen.
//!
//! [`Board`] gathers what the 81 cells are made of. [`Board::cells`] builds all of them (the
//! whole [`View`](super::View)); [`Board::changed_since`] tells which cells can differ from
//! those of an earlier board, so that [`Screen::show`](super::Screen::show) builds only those
//! (a tap changes one cell and the peers whose mistake mark it turned on or off) instead of
//! building 81 and comparing them with the 81 it sent.

use super::info::PuzzleInfo;
use super::play::{Notes, Play};
use super::settings::{CheckMode, Settings};
use super::view::CellView;
use crate::datamodel::Grid;

/// What the cells of a game's board are made of: per cell its digit, notes, mark of the hint
/// and of Show answer, and per house the digits seen twice; for the whole board the givens,
/// the solution mistakes are checked against, the selection and whether input is taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The player's digits.
    values: Grid,
    /// The pencil marks.
    notes: Notes,
    /// The puzzle's givens.
    givens: Grid,
    /// The solution, when mistakes are checked against it ([`CheckMode::Solution`]).
    against: Option<Grid>,
    /// The selected cell's row, column and box (`9`: none), and its digit (`0`: none).
    selection: (usize, usize, usize, u8),
    /// Whether a game is running (empty cells take input).
    running: bool,
    /// Per cell: `0` not part of the hint on screen, `1` a cell of its pattern, `2` the cell
    /// it is about.
    hint: [[u8; 9]; 9],
    /// Per cell: whether Show answer filled its digit in (only while the answer is shown).
    answered: [[bool; 9]; 9],
    /// The digits each house holds twice or more.
    clashes: Clashes,
}

impl Board {
    /// The board of the attempt `play` on `givens`; `running` while a game runs, `revealed`
    /// while the answer is shown (the digits it filled in are set apart). `earlier` is any
    /// board built before (of any attempt): the doubled digits of the houses whose digits did
    /// not change since are taken from it rather than counted again.
    pub fn of(
        givens: &Grid,
        puzzle: &PuzzleInfo,
        play: &Play,
        settings: &Settings,
        running: bool,
        revealed: bool,
        earlier: Option<&Board>,
    ) -> Board {
        let mut answered = [[false; 9]; 9];
        if let Some(mv) = play.history.undo.last() {
            if revealed && mv.kind == super::history::MoveKind::Answer {
                for change in mv
                    .changes
                    .iter()
                    .filter(|c| c.before.value != c.after.value)
                {
                    answered[change.cell.row()][change.cell.col()] = true;
                }
            }
        }
        let mut hint = [[0u8; 9]; 9];
        if let Some(shown) = &play.hint {
            for cell in shown.related() {
                hint[cell.row()][cell.col()] = 1;
            }
            let cell = shown.cell();
            hint[cell.row()][cell.col()] = 2;
        }
        let selection = match play.cursor {
            // A cursor out of range selects nothing and matches nothing.
            Some(s) if s.index() < 81 => (
                s.row(),
                s.col(),
                s.box_index(),
                play.values.0[s.row()][s.col()],
            ),
            _ => (9, 9, 9, 0),
        };
        let clashes = match earlier {
            Some(earlier) => earlier.clashes.since(&earlier.values, &play.values),
            None => Clashes::of(&play.values),
        };
        debug_assert_eq!(
            clashes,
            Clashes::of(&play.values),
            "counted again where changed"
        );
        Board {
            values: play.values,
            notes: play.notes,
            givens: *givens,
            against: match (settings.check, puzzle.solution.grid()) {
                (CheckMode::Solution, Some(solution)) => Some(*solution),
                _ => None,
            },
            selection,
            running,
            hint,
            answered,
            clashes,
        }
    }

    /// All 81 cells, row by row.
    pub fn cells(&self) -> Vec<CellView> {
        let mut cells = Vec::with_capacity(81);
        for r in 0..9 {
            for c in 0..9 {
                cells.push(self.cell(r, c));
            }
        }
        cells
    }

    /// The cell at row `r`, column `c` (both `0..9`).
    pub fn cell(&self, r: usize, c: usize) -> CellView {
        let (sel_r, sel_c, sel_b, sel_value) = self.selection;
        let b = r / 3 * 3 + c / 3;
        let value = self.values.0[r][c];
        let given = self.givens.0[r][c] != 0;
        let selected = r == sel_r && c == sel_c;
        let wrong = self
            .against
            .as_ref()
            .is_some_and(|s| value != 0 && !given && s.0[r][c] != value);
        CellView {
            value,
            given,
            notes: if value == 0 { self.notes.0[r][c] } else { 0 },
            editable: self.running && !given,
            error: self.clashes.at(r, c, value) || wrong,
            selected,
            related: !selected && (r == sel_r || c == sel_c || b == sel_b),
            same: sel_value != 0 && value == sel_value,
            hint: self.hint[r][c],
            answered: self.answered[r][c],
            ..CellView::default()
        }
    }

    /// The cells (bit `row * 9 + column`) that can differ between this board and `old`, or
    /// `None` when any of them can (other givens, another solution to check against,
    /// another selection, a game started or stopped).
    ///
    /// A cell depends on its digit, notes and marks, on the digits doubled in its three
    /// houses and on the selected digit: so the cells whose own inputs changed, the cells of
    /// each house whose doubled digits changed that hold one of the digits whose doubling
    /// changed, and when the selected digit changed the cells that hold the old or the new
    /// one.
    pub fn changed_since(&self, old: &Board) -> Option<u128> {
        let (sel, old_sel) = (self.selection, old.selection);
        if self.givens != old.givens
            || self.against != old.against
            || self.running != old.running
            || sel.0 != old_sel.0
            || sel.1 != old_sel.1
        {
            return None;
        }
        let mut dirty = 0u128;
        for r in 0..9 {
            // Rows first: a tap changes one row of each grid, the other eight compare whole.
            if self.values.0[r] == old.values.0[r]
                && self.notes.0[r] == old.notes.0[r]
                && self.hint[r] == old.hint[r]
                && self.answered[r] == old.answered[r]
            {
                continue;
            }
            for c in 0..9 {
                if self.values.0[r][c] != old.values.0[r][c]
                    || self.notes.0[r][c] != old.notes.0[r][c]
                    || self.hint[r][c] != old.hint[r][c]
                    || self.answered[r][c] != old.answered[r][c]
                {
                    dirty |= 1 << (r * 9 + c);
                }
            }
        }
        // A cell whose digit did not change changes its mistake mark only when that digit's
        // doubling changed in one of its houses.
        let digits = self.values.0.as_flattened();
        let holding = |house: u128, changed: u16| {
            let mut cells = 0u128;
            let mut rest = house;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if digit_bit(digits[i]) & changed != 0 {
                    cells |= 1 << i;
                }
            }
            cells
        };
        for h in 0..9 {
            let changed = self.clashes.rows[h] ^ old.clashes.rows[h];
            if changed != 0 {
                dirty |= holding(ROW << (h * 9), changed);
            }
            let changed = self.clashes.cols[h] ^ old.clashes.cols[h];
            if changed != 0 {
                dirty |= holding(COLUMN << h, changed);
            }
            let changed = self.clashes.boxes[h] ^ old.clashes.boxes[h];
            if changed != 0 {
                dirty |= holding(BOX << (h / 3 * 27 + h % 3 * 3), changed);
            }
        }
        if sel.3 != old_sel.3 {
            for (i, &value) in self.values.0.as_flattened().iter().enumerate() {
                if value != 0 && (value == sel.3 || value == old_sel.3) {
                    dirty |= 1 << i;
                }
            }
        }
        Some(dirty)
    }
}

/// The cells of row 0, as bits `row * 9 + column`.
const ROW: u128 = 0x1ff;
/// The cells of column 0.
const COLUMN: u128 = {
    let mut mask = 0;
    let mut r = 0;
    while r < 9 {
        mask |= 1 << (r * 9);
        r += 1;
    }
    mask
};
/// The cells of box 0.
const BOX: u128 = 0b111 | 0b111 << 9 | 0b111 << 18;

/// The digits that occur twice or more in each row, column and box of a grid: a cell's digit
/// shares a house with a peer exactly when it is doubled in one of its three houses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Clashes {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Clashes {
    /// One pass over the grid: per house the digits seen once, and those seen again.
    pub(super) fn of(values: &Grid) -> Clashes {
        let (mut col_seen, mut box_seen) = ([0u16; 9], [0u16; 9]);
        let mut twice = Clashes {
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        for (r, row) in values.0.iter().enumerate() {
            // The row's masks stay in registers; the columns' and boxes' are indexed.
            let (mut seen, mut again) = (0u16, 0u16);
            let boxes = r / 3 * 3;
            for (c, &v) in row.iter().enumerate() {
                let bit = (1u16 << (v & 15)) & !1;
                again |= seen & bit;
                seen |= bit;
                twice.cols[c] |= col_seen[c] & bit;
                col_seen[c] |= bit;
                let b = (boxes + c / 3) % 9;
                twice.boxes[b] |= box_seen[b] & bit;
                box_seen[b] |= bit;
            }
            twice.rows[r] = again;
        }
        twice
    }

    /// The clashes of `values`, where `self` are those of `old`: only the houses of the
    /// cells whose digit changed are counted again (a tap: one row, one column, one box).
    fn since(&self, old: &Grid, values: &Grid) -> Clashes {
        let (mut rows, mut cols, mut boxes) = (0u16, 0u16, 0u16);
        for r in 0..9 {
            if old.0[r] == values.0[r] {
                continue;
            }
            for c in 0..9 {
                if old.0[r][c] != values.0[r][c] {
                    rows |= 1 << r;
                    cols |= 1 << c;
                    boxes |= 1 << (r / 3 * 3 + c / 3);
                }
            }
        }
        let mut next = self.clone();
        for h in 0..9 {
            if rows & (1 << h) != 0 {
                next.rows[h] = twice((0..9).map(|c| values.0[h][c]));
            }
            if cols & (1 << h) != 0 {
                next.cols[h] = twice((0..9).map(|r| values.0[r][h]));
            }
            if boxes & (1 << h) != 0 {
                let (r0, c0) = (h / 3 * 3, h % 3 * 3);
                next.boxes[h] = twice((0..9).map(|i| values.0[r0 + i / 3][c0 + i % 3]));
            }
        }
        next
    }

    /// Whether digit `v` (`0`: none) at row `r`, column `c` clashes with a peer.
    pub(super) fn at(&self, r: usize, c: usize, v: u8) -> bool {
        let bit = (1u16 << (v & 15)) & !1;
        (self.rows[r] | self.cols[c] | self.boxes[(r / 3 * 3 + c / 3) % 9]) & bit != 0
    }
}

/// The bit of digit `v` in a mask of digits (digit `d` = bit `d`); `0` (no digit) has none.
#[inline]
fn digit_bit(v: u8) -> u16 {
    (1u16 << (v & 15)) & !1
}

/// The digits that occur twice or more among `digits` (digit `d` = bit `d`; `0` is none).
fn twice(digits: impl Iterator<Item = u8>) -> u16 {
    let (mut seen, mut again) = (0u16, 0u16);
    for v in digits {
        let bit = (1u16 << (v & 15)) & !1;
        again |= seen & bit;
        seen |= bit;
    }
    again
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::techniques::Cell;
    use crate::game::hints::ShownHint;
    use crate::puzzle::parse;

    const QT: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    /// Every cell `changed_since` leaves out is the same on both boards.
    fn check_changes(new: &Board, old: &Board) -> usize {
        let Some(dirty) = new.changed_since(old) else {
            return 81;
        };
        for i in 0..81 {
            if dirty & (1 << i) == 0 {
                assert_eq!(new.cell(i / 9, i % 9), old.cell(i / 9, i % 9), "cell {i}");
            }
        }
        dirty.count_ones() as usize
    }

    #[test]
    fn a_tap_changes_its_cell_and_the_peers_whose_digit_s_doubling_changed() {
        let g = parse(QT).unwrap();
        let info = PuzzleInfo::analyse("qt".into(), None, &g);
        let mut play = Play::default();
        play.restart(&g);
        let settings = Settings::default();
        let board = |play: &Play| Board::of(&g, &info, play, &settings, true, false, None);
        let mut old = board(&play);
        let mut houses = 0;
        for _ in 0..10 {
            play.values.0[0][0] = (play.values.0[0][0] + 1) % 10;
            let new = board(&play);
            let n = check_changes(&new, &old);
            // The cell, and the peers holding a digit whose doubling it turned on or off
            // (not whole houses: the other digits' marks stay).
            assert!((1..9).contains(&n), "{n} cells");
            houses += usize::from(n > 1);
            old = new;
        }
        assert!(houses > 0, "some digit clashes with a given of row 1");
        // The selected digit changes: the cells that hold the old or the new one.
        play.cursor = Some(Cell::new(0, 0));
        old = board(&play);
        play.values.0[0][0] = 2;
        let new = board(&play);
        assert!(check_changes(&new, &old) < 81);
        // A hint on screen, and another selection.
        play.hint = Some(ShownHint::Mistake {
            cell: Cell::new(0, 0),
            digit: 2,
            other: Some(Cell::new(0, 3)),
            text: String::new(),
        });
        old = new;
        let new = board(&play);
        assert_eq!(new.changed_since(&old), Some(1 | 1 << 3));
        play.cursor = Some(Cell::new(4, 4));
        assert_eq!(board(&play).changed_since(&new), None);
    }

    #[test]
    fn clashes_match_the_peers() {
        let g = parse(QT).unwrap();
        let mut values = g;
        values.0[0][0] = 2;
        values.0[8][8] = 9;
        let clashes = Clashes::of(&values);
        for i in 0..81 {
            let cell = Cell(i as u8);
            let v = values.0[cell.row()][cell.col()];
            let by_peers = v != 0
                && crate::engine::techniques::peers(cell).any(|p| values.0[p.row()][p.col()] == v);
            assert_eq!(clashes.at(cell.row(), cell.col(), v), by_peers, "{cell}");
        }
        // Counted again where digits changed, taken over elsewhere: the same.
        let mut next = values;
        for (i, d) in [(0, 0), (40, 5), (80, 1), (9, 2)] {
            next.0[i / 9][i % 9] = d;
            assert_eq!(clashes.since(&values, &next), Clashes::of(&next));
        }
    }
}
