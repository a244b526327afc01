//! The board of a game as the window draws it (the phases that show the attempt: running,
//! stopped, solved, revealed, behind a question, generating): each cell from the grid, the
//! notes, the mistakes, the selection and the hint on screen.
//!
//! [`Board`] gathers what the 81 cells are made of. [`Board::cells`] builds all of them (the
//! whole [`View`](super::View)); [`Board::changed_since`] tells which cells can differ from
//! those of an earlier board, and [`Board::refresh`] brings a board up to date and tells the
//! same, so that [`Screen::show`](super::Screen::show) builds only those
//! (a tap changes one cell and the peers whose mistake mark it turned on or off) instead of
//! building 81 and comparing them with the 81 it sent.

use super::info::PuzzleInfo;
use super::play::{Notes, Play};
use super::settings::{CheckMode, Settings};
use super::view::CellView;
use crate::datamodel::Grid;
use crate::engine::techniques::HOUSES;

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
        let (hint, answered) = marks(play, revealed);
        let selection = selection(play);
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
            against: against(puzzle, settings).copied(),
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
        let moved = differing_bytes(self.values.0.as_flattened(), old.values.0.as_flattened());
        let mut dirty = own_changes(
            (&self.values, &self.notes, &self.hint, &self.answered),
            (&old.values, &old.notes, &old.hint, &old.answered),
            moved,
        );
        dirty |= self.clashes.changed_cells(&old.clashes, &self.values);
        if sel.3 != old_sel.3 {
            dirty |= holding_either(&self.values, sel.3, old_sel.3);
        }
        Some(dirty)
    }

    /// Brings this board up to date with the attempt `play` (the arguments as
    /// [`Board::of`] takes them) and returns the cells that can differ from before, as
    /// [`changed_since`](Self::changed_since) the old board gives them: the same as replacing
    /// it with `Board::of(.., Some(&old))`, but only what changed is written (the givens and
    /// the solution are compared, not copied again).
    pub fn refresh(
        &mut self,
        givens: &Grid,
        puzzle: &PuzzleInfo,
        play: &Play,
        settings: &Settings,
        running: bool,
        revealed: bool,
    ) -> Option<u128> {
        #[cfg(debug_assertions)]
        let expected = {
            let new = Board::of(
                givens,
                puzzle,
                play,
                settings,
                running,
                revealed,
                Some(self),
            );
            let dirty = new.changed_since(self);
            (new, dirty)
        };
        let dirty = self.refresh_in_place(givens, puzzle, play, settings, running, revealed);
        #[cfg(debug_assertions)]
        {
            assert_eq!(*self, expected.0, "refreshed as built anew");
            assert_eq!(dirty, expected.1, "the cells changed_since names");
        }
        dirty
    }

    /// [`refresh`](Self::refresh) without its debug checks.
    fn refresh_in_place(
        &mut self,
        givens: &Grid,
        puzzle: &PuzzleInfo,
        play: &Play,
        settings: &Settings,
        running: bool,
        revealed: bool,
    ) -> Option<u128> {
        let sel = selection(play);
        let against = against(puzzle, settings);
        if self.givens != *givens
            || self.against.as_ref() != against
            || self.running != running
            || sel.0 != self.selection.0
            || sel.1 != self.selection.1
        {
            *self = Board::of(
                givens,
                puzzle,
                play,
                settings,
                running,
                revealed,
                Some(self),
            );
            return None;
        }
        let (hint, answered) = marks(play, revealed);
        let moved = differing_bytes(play.values.0.as_flattened(), self.values.0.as_flattened());
        let mut dirty = own_changes(
            (&play.values, &play.notes, &hint, &answered),
            (&self.values, &self.notes, &self.hint, &self.answered),
            moved,
        );
        let clashes = self.clashes.moved(moved, &play.values);
        dirty |= clashes.changed_cells(&self.clashes, &play.values);
        if sel.3 != self.selection.3 {
            dirty |= holding_either(&play.values, sel.3, self.selection.3);
        }
        self.values = play.values;
        self.notes = play.notes;
        self.hint = hint;
        self.answered = answered;
        self.clashes = clashes;
        self.selection = sel;
        Some(dirty)
    }
}

/// The marks of the hint on screen and of Show answer, per cell (see [`Board`]).
fn marks(play: &Play, revealed: bool) -> ([[u8; 9]; 9], [[bool; 9]; 9]) {
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
    (hint, answered)
}

/// The selected cell's row, column and box (`9`: none) and its digit (`0`: none).
fn selection(play: &Play) -> (usize, usize, usize, u8) {
    match play.cursor {
        // A cursor out of range selects nothing and matches nothing.
        Some(s) if s.index() < 81 => (
            s.row(),
            s.col(),
            s.box_index(),
            play.values.0[s.row()][s.col()],
        ),
        _ => (9, 9, 9, 0),
    }
}

/// The solution mistakes are checked against, if they are ([`CheckMode::Solution`]).
fn against<'a>(puzzle: &'a PuzzleInfo, settings: &Settings) -> Option<&'a Grid> {
    match (settings.check, puzzle.solution.grid()) {
        (CheckMode::Solution, Some(solution)) => Some(solution),
        _ => None,
    }
}

/// A board's own inputs per cell: digits, notes, the hint's and Show answer's marks.
type Own<'a> = (&'a Grid, &'a Notes, &'a [[u8; 9]; 9], &'a [[bool; 9]; 9]);

/// The cells whose own inputs differ between `new` and `old`; `moved` are those whose
/// digit differs ([`differing_bytes`] of the digits).
fn own_changes(new: Own, old: Own, moved: u128) -> u128 {
    moved
        | differing(new.1 .0.as_flattened(), old.1 .0.as_flattened())
        | differing_bytes(new.2.as_flattened(), old.2.as_flattened())
        | differing(new.3.as_flattened(), old.3.as_flattened())
}

/// The cells (bit `i`) at which two boards' per-cell values differ.
fn differing<T: PartialEq>(a: &[T], b: &[T]) -> u128 {
    if a == b {
        return 0;
    }
    let mut dirty = 0u128;
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            dirty |= 1 << i;
        }
    }
    dirty
}

/// [`differing`] for bytes, eight at a time: a tap changes one cell of the digits.
fn differing_bytes(a: &[u8], b: &[u8]) -> u128 {
    if a == b {
        return 0;
    }
    let (words_a, words_b) = (a.chunks_exact(8), b.chunks_exact(8));
    let (rest_a, rest_b) = (words_a.remainder(), words_b.remainder());
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().expect("chunks of 8"));
    let mut dirty = 0u128;
    for (k, (x, y)) in words_a.zip(words_b).enumerate() {
        let mut d = word(x) ^ word(y);
        while d != 0 {
            let byte = d.trailing_zeros() / 8;
            dirty |= 1 << (k * 8 + byte as usize);
            d &= !(0xff << (byte * 8));
        }
    }
    let start = a.len() - rest_a.len();
    for (j, (x, y)) in rest_a.iter().zip(rest_b).enumerate() {
        if x != y {
            dirty |= 1 << (start + j);
        }
    }
    dirty
}

/// The cells of `values` that hold digit `a` or digit `b` (`0` matches nothing).
fn holding_either(values: &Grid, a: u8, b: u8) -> u128 {
    let mut dirty = 0u128;
    for (i, &value) in values.0.as_flattened().iter().enumerate() {
        if value != 0 && (value == a || value == b) {
            dirty |= 1 << i;
        }
    }
    dirty
}

/// The digits that occur twice or more in each row, column and box of a grid: a cell's digit
/// shares a house with a peer exactly when it is doubled in one of its three houses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Clashes {
    /// Per house, in the order of [`HOUSES`] (rows, columns, boxes), the digits doubled
    /// (digit `d` = bit `d`).
    houses: [u16; 27],
}

impl Clashes {
    /// One pass over the grid: per house the digits seen once, and those seen again.
    pub(super) fn of(values: &Grid) -> Clashes {
        let (mut col_seen, mut box_seen) = ([0u16; 9], [0u16; 9]);
        let mut twice = Clashes { houses: [0; 27] };
        for (r, row) in values.0.iter().enumerate() {
            // The row's masks stay in registers; the columns' and boxes' are indexed.
            let (mut seen, mut again) = (0u16, 0u16);
            let boxes = r / 3 * 3;
            for (c, &v) in row.iter().enumerate() {
                let bit = (1u16 << (v & 15)) & !1;
                again |= seen & bit;
                seen |= bit;
                twice.houses[9 + c] |= col_seen[c] & bit;
                col_seen[c] |= bit;
                let b = (boxes + c / 3) % 9;
                twice.houses[18 + b] |= box_seen[b] & bit;
                box_seen[b] |= bit;
            }
            twice.houses[r] = again;
        }
        twice
    }

    /// The clashes of `values`, where `self` are those of `old`: only the houses of the
    /// cells whose digit changed are counted again (a tap: one row, one column, one box).
    fn since(&self, old: &Grid, values: &Grid) -> Clashes {
        self.moved(
            differing_bytes(old.0.as_flattened(), values.0.as_flattened()),
            values,
        )
    }

    /// [`since`](Self::since), given the cells whose digit changed (bit `row * 9 +
    /// column`).
    fn moved(&self, moved: u128, values: &Grid) -> Clashes {
        // The houses of the cells that moved (bit `k` for `HOUSES[k]`).
        let mut houses = 0u32;
        let mut rest = moved;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (r, c) = (i / 9, i % 9);
            houses |= 1 << r | 1 << (9 + c) | 1 << (18 + r / 3 * 3 + c / 3);
        }
        let mut next = self.clone();
        let digits = values.0.as_flattened();
        while houses != 0 {
            let k = houses.trailing_zeros() as usize;
            houses &= houses - 1;
            next.houses[k] = twice(HOUSES[k].iter().map(|&i| digits[usize::from(i)]));
        }
        next
    }

    /// The cells of `values` whose mistake mark can differ between these clashes and
    /// `old` (of the same digits where they did not change): in each house whose doubled
    /// digits changed, those holding such a digit. A cell whose digit did not change changes
    /// its mark only when that digit's doubling changed in one of its houses.
    fn changed_cells(&self, old: &Clashes, values: &Grid) -> u128 {
        if self.houses == old.houses {
            return 0;
        }
        let digits = values.0.as_flattened();
        let mut dirty = 0u128;
        for (k, house) in HOUSES.iter().enumerate() {
            let changed = self.houses[k] ^ old.houses[k];
            if changed == 0 {
                continue;
            }
            // The house's cells that hit, as 9 bits first: few of them do.
            let mut hits = 0u16;
            for (j, &i) in house.iter().enumerate() {
                hits |= u16::from(digit_bit(digits[usize::from(i)]) & changed != 0) << j;
            }
            while hits != 0 {
                let j = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                dirty |= 1 << house[j];
            }
        }
        dirty
    }

    /// Whether digit `v` (`0`: none) at row `r`, column `c` clashes with a peer.
    pub(super) fn at(&self, r: usize, c: usize, v: u8) -> bool {
        let bit = (1u16 << (v & 15)) & !1;
        let h = &self.houses;
        (h[r] | h[9 + c] | h[18 + (r / 3 * 3 + c / 3) % 9]) & bit != 0
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
