//! The fast solver: per-digit band bitboards, band-local constraint propagation and
//! minimum-remaining-values search.
//!
//! # Representation
//!
//! The grid is cut into three *bands* of three rows. For each digit `d` (`0..9`, meaning digit
//! `d + 1`) and band `b` (`0..3`) one `u32` holds 27 bits: bit `9 * r + c` is set when the cell
//! in row `3 * b + r`, column `c` may still hold the digit. A solved cell stays set in its own
//! digit's board and is cleared from the eight others, so every board ends as exactly the nine
//! cells of its digit. `unsolved[b]` marks the cells of band `b` not yet decided, and `seen`
//! keeps each board as its last band update left it, so a board that differs needs an update.
//!
//! # Propagation
//!
//! This is the band propagation of JCZSolve (J. Zhou / "zhouyundong", later tuned by
//! "champagne" and "JasonLion"), re-derived here rather than ported:
//!
//! - **Band update** of one board. In a band, a digit sits once in each of the three rows and
//!   once in each of the three boxes, so its three places form a permutation `row -> box`. The
//!   nine row/box *segments* that still hold the digit allow some of the six permutations; the
//!   union of the allowed ones ([`SHRINK`]) is all the segments that may keep the digit. This
//!   one table look-up does locked candidates in both directions (pointing and claiming) and
//!   finds hidden singles of rows and boxes, and an empty union is a contradiction. A row left
//!   with one cell is then solved: the cell is cleared from the other digits' boards. A box
//!   whose cells for the digit lie in one column clears that column from the other two bands
//!   (pointing along a column; this also carries a placement to its column).
//! - **Naked singles**: per band, bit-sliced counting over the nine boards finds the cells with
//!   one candidate (placed) and with none (a contradiction).
//! - **Hidden singles in columns**, only when nothing else is left, since the band update does
//!   not look across bands.
//!
//! # Search
//!
//! When propagation stalls the search branches on a cell with two candidates if there is one
//! (the first of the band with the most undecided cells), else on a cell with the fewest
//! (minimum remaining values). Each alternative but the last runs
//! on a copy of the state (124 bytes); the last one reuses it. The search stops once `limit`
//! solutions are counted, so an empty grid with `limit = 2` takes microseconds.

use std::fmt;

use crate::datamodel::Grid;

/// The 27 bits of a full band board.
const BAND: u32 = (1 << 27) - 1;

/// For a 9-bit row of a band board, the 3-bit set of its three segments (one per box) that
/// hold a candidate.
const SEG3: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            if (row >> (3 * k)) & 7 != 0 {
                t[row] |= 1 << k;
            }
            k += 1;
        }
        row += 1;
    }
    t
};

/// Locked candidates in a band. The index is a 9-bit segment pattern (bit `3 * r + k`: row `r`
/// of the band meets box `k` in at least one candidate cell); the value is the union of the
/// patterns of the permutations `r -> k` that the pattern allows, or 0 when none does.
const SHRINK: [u16; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut p = 0;
    while p < 512 {
        let mut i = 0;
        while i < 6 {
            let perm = PERMS[i];
            let mask = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if p & mask == mask {
                t[p] |= mask as u16;
            }
            i += 1;
        }
        p += 1;
    }
    t
};

/// A segment pattern (as in [`SHRINK`]) widened to the 27-bit mask of its cells.
const EXPAND: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut q = 0;
    while q < 512 {
        let mut s = 0;
        while s < 9 {
            if q & (1 << s) != 0 {
                t[q] |= 7 << (9 * (s / 3) + 3 * (s % 3));
            }
            s += 1;
        }
        q += 1;
    }
    t
};

/// For the 9-bit set of columns a band board uses, the columns that are the only column of
/// their box: the digit of that box is in that column, so the other bands lose it.
const COL_SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut f = 0;
    while f < 512 {
        let mut k = 0;
        while k < 3 {
            let seg = (f >> (3 * k)) & 7;
            if seg == 1 || seg == 2 || seg == 4 {
                t[f] |= (seg << (3 * k)) as u16;
            }
            k += 1;
        }
        f += 1;
    }
    t
};

/// For each of the 27 cells of a band, the other cells of the band in its row, box or column.
const PEERS_IN_BAND: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut x = 0;
    while x < 27 {
        let (r, c) = (x / 9, x % 9);
        let mut y = 0;
        while y < 27 {
            let (r2, c2) = (y / 9, y % 9);
            if y != x && (r == r2 || c == c2 || c / 3 == c2 / 3) {
                t[x] |= 1 << y;
            }
            y += 1;
        }
        x += 1;
    }
    t
};

/// The two other bands of each band.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// Multiplying a 9-bit column set by this repeats it in the three rows of a band.
const COLUMNS_TO_BAND: u32 = 1 | 1 << 9 | 1 << 18;

/// A branch ended: some cell, row, column or box has no place left for a digit.
struct Contradiction;

/// What propagation left to do.
enum Next {
    /// Every cell is decided.
    Solved,
    /// Branch on this cell: band `b`, bit `x` of the band (a single-bit mask).
    Branch { b: usize, x: u32 },
}

/// The search state: the candidate boards and the bookkeeping of the propagation.
#[derive(Clone, Copy)]
struct State {
    /// `cand[3 * d + b]`: where digit `d + 1` may still be in band `b` (27 bits).
    cand: [u32; 27],
    /// Each board as its last band update left it: a board that differs needs an update.
    seen: [u32; 27],
    /// The undecided cells of each band.
    unsolved: [u32; 3],
}

/// Calls `$state.update::<I>()?` for each board index `I`, unrolled so that each call is
/// specialised to its board (the neighbour indices become constants and the update has no
/// data-dependent branch). Sets `$any` when some board needed an update.
macro_rules! update_changed {
    ($state:ident, $any:ident, $($i:literal)*) => {
        $(
            if $state.cand[$i] != $state.seen[$i] {
                $any = true;
                $state.update::<$i>()?;
            }
        )*
    };
}

impl State {
    /// The state of a grid's givens, or `None` when a value is above 9 or two givens of a house
    /// are equal (only the clashes visible at once; the propagation finds the rest).
    fn from_givens(givens: &Grid) -> Option<State> {
        let mut state = State {
            cand: [BAND; 27],
            seen: [0; 27],
            unsolved: [BAND; 3],
        };
        for (i, &v) in givens.0.iter().flatten().enumerate() {
            match v {
                0 => {}
                1..=9 => {
                    let (b, x) = (i / 27, 1u32 << (i % 27));
                    if !state.place(usize::from(v - 1), b, x) {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        Some(state)
    }

    /// Puts digit `d` in cell `x` (a bit) of band `b`: its board in the band keeps no other cell
    /// of the row, box or column. The band update does the rest. False when the digit had
    /// already left that cell.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, x: u32) -> bool {
        let i = 3 * d + b;
        if self.cand[i] & x == 0 {
            return false;
        }
        self.cand[i] &= !PEERS_IN_BAND[x.trailing_zeros() as usize];
        true
    }

    /// The band update of board `I` (see the module documentation).
    #[inline(always)]
    fn update<const I: usize>(&mut self) -> Result<(), Contradiction> {
        let m = self.cand[I];
        let p = usize::from(SEG3[(m & 511) as usize])
            | usize::from(SEG3[((m >> 9) & 511) as usize]) << 3
            | usize::from(SEG3[(m >> 18) as usize]) << 6;
        let q = SHRINK[p];
        if q == 0 {
            return Err(Contradiction);
        }
        let m = m & EXPAND[usize::from(q)];
        self.cand[I] = m;
        self.seen[I] = m;
        let (d, b) = (I / 3, I % 3);

        // Boxes confined to one column clear it from the other bands.
        let keep =
            !(u32::from(COL_SINGLE[((m | m >> 9 | m >> 18) & 511) as usize]) * COLUMNS_TO_BAND);
        let [b1, b2] = OTHER_BANDS[b];
        self.cand[3 * d + b1] &= keep;
        self.cand[3 * d + b2] &= keep;

        // Rows with one cell left (none is empty after SHRINK) solve their cell.
        let (r0, r1, r2) = (m & 511, (m >> 9) & 511, m >> 18);
        let single = (r0 & ((r0 & (r0 - 1) == 0) as u32).wrapping_neg())
            | (r1 << 9 & ((r1 & (r1 - 1) == 0) as u32).wrapping_neg())
            | (r2 << 18 & ((r2 & (r2 - 1) == 0) as u32).wrapping_neg());
        let newly = single & self.unsolved[b];
        self.unsolved[b] &= !newly;
        let mut j = b;
        while j < 27 {
            if j != I {
                self.cand[j] &= !newly;
            }
            j += 3;
        }
        Ok(())
    }

    /// Band updates until no board changes.
    #[inline(always)]
    fn update_all(&mut self) -> Result<(), Contradiction> {
        loop {
            let mut any = false;
            update_changed!(self, any, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            if !any {
                return Ok(());
            }
        }
    }

    /// Propagates to a fixed point; returns whether the grid is full or where to branch.
    fn propagate(&mut self) -> Result<Next, Contradiction> {
        loop {
            self.update_all()?;
            if self.unsolved == [0; 3] {
                return Ok(Next::Solved);
            }

            // Naked singles, and the first cell with two candidates in case none is found.
            let mut branch: Option<(usize, u32)> = None;
            let mut placed = false;
            for b in 0..3 {
                let u = self.unsolved[b];
                if u == 0 {
                    continue;
                }
                let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
                for d in 0..9 {
                    let c = self.cand[3 * d + b];
                    thrice |= twice & c;
                    twice |= once & c;
                    once |= c;
                }
                if u & !once != 0 {
                    return Err(Contradiction);
                }
                let mut singles = u & !twice;
                placed |= singles != 0;
                while singles != 0 {
                    let x = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    let Some(d) = (0..9).find(|&d| self.cand[3 * d + b] & x != 0) else {
                        return Err(Contradiction);
                    };
                    self.place(d, b, x);
                }
                let pairs = u & twice & !thrice;
                // Of the bands with such a cell, the one with the most undecided cells: measured
                // to need fewer guesses than the first band on the hard collections.
                let busier = match branch {
                    None => true,
                    Some((other, _)) => self.unsolved[other].count_ones() < u.count_ones(),
                };
                if pairs != 0 && busier {
                    branch = Some((b, pairs & pairs.wrapping_neg()));
                }
            }
            if placed {
                continue;
            }

            if self.hidden_singles_in_columns()? {
                continue;
            }
            if let Some((b, x)) = branch {
                return Ok(Next::Branch { b, x });
            }
            return Ok(self.fewest_candidates());
        }
    }

    /// Places every digit that has one cell left in a column; true when it placed any. A column
    /// without a place for a digit is a contradiction.
    fn hidden_singles_in_columns(&mut self) -> Result<bool, Contradiction> {
        let mut placed = false;
        for d in 0..9 {
            let (mut once, mut twice, mut solved) = (0u32, 0u32, 0u32);
            for b in 0..3 {
                let m = self.cand[3 * d + b];
                let s = m & !self.unsolved[b];
                solved |= s | s >> 9 | s >> 18;
                for row in [m & 511, (m >> 9) & 511, m >> 18] {
                    twice |= once & row;
                    once |= row;
                }
            }
            if once != 511 {
                return Err(Contradiction);
            }
            let mut hidden = once & !twice & !solved & 511;
            while hidden != 0 {
                let col = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                let spread = col * COLUMNS_TO_BAND;
                for b in 0..3 {
                    let x = self.cand[3 * d + b] & spread;
                    if x != 0 {
                        if !self.place(d, b, x) {
                            return Err(Contradiction);
                        }
                        placed = true;
                        break;
                    }
                }
            }
            if placed {
                // The other digits' column sets are stale; let the band updates run first.
                return Ok(true);
            }
        }
        Ok(placed)
    }

    /// The undecided cell with the fewest candidates (there is one, and none has fewer than two
    /// once the naked singles are placed).
    fn fewest_candidates(&self) -> Next {
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let x = u & u.wrapping_neg();
                u &= u - 1;
                let n = (0..9).filter(|&d| self.cand[3 * d + b] & x != 0).count() as u32;
                if n < best.0 {
                    best = (n, b, x);
                }
            }
        }
        Next::Branch {
            b: best.1,
            x: best.2,
        }
    }

    /// The grid of a solved state.
    fn grid(&self) -> Grid {
        let mut grid = Grid::default();
        for d in 0..9 {
            for b in 0..3 {
                let mut m = self.cand[3 * d + b];
                while m != 0 {
                    let bit = m.trailing_zeros() as usize;
                    m &= m - 1;
                    grid.0[3 * b + bit / 9][bit % 9] = d as u8 + 1;
                }
            }
        }
        grid
    }
}

/// What a search has found so far.
struct Found {
    count: usize,
    limit: usize,
    first: Option<Grid>,
}

/// Depth-first search from `state`, stopping once `found.limit` solutions are counted.
fn search(mut state: State, found: &mut Found) {
    loop {
        let (b, x) = match state.propagate() {
            Err(Contradiction) => return,
            Ok(Next::Solved) => {
                found.count += 1;
                if found.first.is_none() {
                    found.first = Some(state.grid());
                }
                return;
            }
            Ok(Next::Branch { b, x }) => (b, x),
        };
        let mut digits: u32 = 0;
        for d in 0..9 {
            if state.cand[3 * d + b] & x != 0 {
                digits |= 1 << d;
            }
        }
        // Every alternative but the last on a copy; the last one continues on this state.
        while digits & (digits - 1) != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let mut child = state;
            child.place(d, b, x);
            search(child, found);
            if found.count >= found.limit {
                return;
            }
        }
        state.place(digits.trailing_zeros() as usize, b, x);
    }
}

/// Runs the search; `None` when the givens fail at first sight or `limit` is 0.
fn run(givens: &Grid, limit: usize) -> Option<Found> {
    if limit == 0 {
        return None;
    }
    let state = State::from_givens(givens)?;
    let mut found = Found {
        count: 0,
        limit,
        first: None,
    };
    search(state, &mut found);
    Some(found)
}

/// Counts the solutions of `givens`, stopping at `limit`: the result is `min(solutions, limit)`.
///
/// `givens` is row-major, `0` for an empty cell. `count_solutions(g, 2) == 1` is the uniqueness
/// test. Givens that clash (the same digit twice in a row, column or box) or hold a value above
/// 9 have no solution and give 0, as does `limit == 0`. In a release build the hardest public
/// collections average tens of microseconds per puzzle, and sparse grids (even an empty one)
/// are answered in microseconds for small limits, since the search stops at `limit`. See the
/// module documentation of `engine::solver` for the algorithm (JCZSolve-style band
/// propagation).
pub fn count_solutions(givens: &Grid, limit: usize) -> usize {
    run(givens, limit).map_or(0, |found| found.count)
}

/// A solution of `givens`, or `None` when there is none (including clashing givens).
///
/// When the puzzle has several solutions this returns the first one the search finds; use
/// [`count_solutions`] or [`classify`] to know whether it is the only one.
pub fn solve(givens: &Grid) -> Option<Grid> {
    run(givens, 1)?.first
}

/// A row, column or box, numbered from 0 (rows top to bottom, columns left to right, boxes in
/// reading order). [`fmt::Display`] numbers them from 1, as players do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum House {
    /// Row `0..9`.
    Row(u8),
    /// Column `0..9`.
    Column(u8),
    /// Box `0..9`: `row / 3 * 3 + column / 3`.
    Box(u8),
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(n) => write!(f, "row {}", n + 1),
            House::Column(n) => write!(f, "column {}", n + 1),
            House::Box(n) => write!(f, "box {}", n + 1),
        }
    }
}

/// Two givens with the same digit in one house.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clash {
    /// The repeated digit, `1..=9`.
    pub digit: u8,
    /// The house both cells are in (a pair in one row and box is reported once per house).
    pub house: House,
    /// The two cells as `(row, column)`, numbered from 0, in reading order.
    pub cells: [(usize, usize); 2],
}

impl fmt::Display for Clash {
    /// E.g. `5 twice in row 1 (r1c1 and r1c9)`, numbered from 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [(r0, c0), (r1, c1)] = self.cells;
        write!(
            f,
            "{} twice in {} (r{}c{} and r{}c{})",
            self.digit,
            self.house,
            r0 + 1,
            c0 + 1,
            r1 + 1,
            c1 + 1
        )
    }
}

/// Every pair of equal givens in a row, column or box, rows first, then columns, then boxes,
/// each in reading order. A digit three times in a house gives the pairs (first, second) and
/// (first, third). Values above 9 are ignored here.
pub fn clashes(givens: &Grid) -> Vec<Clash> {
    let mut out = Vec::new();
    /// How to name house `h`, and its `k`-th cell as `(row, column)`.
    type HouseShape = (fn(u8) -> House, fn(usize, usize) -> (usize, usize));
    let houses: [HouseShape; 3] = [
        (House::Row, |h, k| (h, k)),
        (House::Column, |h, k| (k, h)),
        (House::Box, |h, k| (h / 3 * 3 + k / 3, h % 3 * 3 + k % 3)),
    ];
    for (make, cell) in houses {
        for h in 0..9 {
            let mut first = [None; 10];
            for k in 0..9 {
                let (r, c) = cell(h, k);
                let d = givens.0[r][c];
                if !(1..=9).contains(&d) {
                    continue;
                }
                match first[usize::from(d)] {
                    None => first[usize::from(d)] = Some((r, c)),
                    Some(earlier) => out.push(Clash {
                        digit: d,
                        house: make(h as u8),
                        cells: [earlier, (r, c)],
                    }),
                }
            }
        }
    }
    out
}

/// What a grid of givens is as a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Classification {
    /// Exactly one solution, given here.
    Unique(Grid),
    /// Two or more solutions.
    Multiple,
    /// The givens do not clash but no grid completes them.
    None,
    /// Givens clash: every pair found by [`clashes`]. Empty only when a cell holds a value
    /// above 9, which is no digit at all.
    Invalid(Vec<Clash>),
}

/// Classifies `givens` (row-major, `0` for empty): invalid when givens clash, else by the
/// number of solutions, counted up to two with [`count_solutions`]'s search.
pub fn classify(givens: &Grid) -> Classification {
    if givens.0.iter().flatten().any(|&v| v > 9) {
        return Classification::Invalid(Vec::new());
    }
    let found = clashes(givens);
    if !found.is_empty() {
        return Classification::Invalid(found);
    }
    match run(givens, 2) {
        Some(Found {
            count: 1,
            first: Some(grid),
            ..
        }) => Classification::Unique(grid),
        Some(Found { count: 2.., .. }) => Classification::Multiple,
        _ => Classification::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datamodel::is_solved;
    use crate::puzzle::parse;

    /// A 17-clue puzzle (Royle's list) with one solution.
    const SEVENTEEN: &str =
        ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...";

    fn grid(line: &str) -> Grid {
        parse(line).unwrap()
    }

    fn assert_completes(givens: &Grid, solution: &Grid) {
        assert!(is_solved(solution), "{solution:?}");
        for (g, s) in givens.0.iter().flatten().zip(solution.0.iter().flatten()) {
            assert!(*g == 0 || g == s, "the solution changes a given");
        }
    }

    #[test]
    fn tables() {
        // Row 0 only in box 0, rows 1 and 2 anywhere: box 0 is row 0's, so they lose it.
        assert_eq!(SHRINK[0b111_111_001], 0b110_110_001);
        assert_eq!(SHRINK[0b001_001_001], 0, "three rows in one box");
        assert_eq!(SHRINK[0b111_111_111], 0b111_111_111);
        assert_eq!(SEG3[0b100_000_010], 0b101);
        assert_eq!(EXPAND[0b000_000_010], 0b111_000);
        assert_eq!(COL_SINGLE[0b110_010_111], 0b000_010_000);
        assert_eq!(PEERS_IN_BAND[0].count_ones(), 8 + 2 + 2 + 2 - 2 + 2);
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let empty = Grid::default();
        assert_eq!(count_solutions(&empty, 2), 2);
        assert_eq!(count_solutions(&empty, 100), 100);
        assert_completes(&empty, &solve(&empty).unwrap());
        assert_eq!(classify(&empty), Classification::Multiple);
    }

    #[test]
    fn seventeen_clues_are_unique() {
        let g = grid(SEVENTEEN);
        assert_eq!(count_solutions(&g, 2), 1);
        let s = solve(&g).unwrap();
        assert_completes(&g, &s);
        assert_eq!(classify(&g), Classification::Unique(s));
        assert_eq!(
            count_solutions(&s, 2),
            1,
            "a full grid is its own only solution"
        );
    }

    #[test]
    fn clashes_and_bad_values_have_no_solution() {
        let mut g = Grid::default();
        g.0[0][0] = 5;
        g.0[0][8] = 5;
        assert_eq!(count_solutions(&g, 2), 0);
        assert_eq!(solve(&g), None);
        let clash = Clash {
            digit: 5,
            house: House::Row(0),
            cells: [(0, 0), (0, 8)],
        };
        assert_eq!(classify(&g), Classification::Invalid(vec![clash]));
        assert_eq!(clash.to_string(), "5 twice in row 1 (r1c1 and r1c9)");
        let mut g = Grid::default();
        g.0[4][4] = 10;
        assert_eq!(count_solutions(&g, 2), 0);
        assert_eq!(classify(&g), Classification::Invalid(vec![]));
    }

    #[test]
    fn a_clash_in_a_column_across_bands_has_no_solution() {
        let mut g = Grid::default();
        g.0[0][4] = 7;
        g.0[8][4] = 7;
        assert_eq!(count_solutions(&g, 2), 0);
        let mut g = Grid::default();
        g.0[3][3] = 2;
        g.0[5][5] = 2;
        assert_eq!(
            clashes(&g),
            vec![Clash {
                digit: 2,
                house: House::Box(4),
                cells: [(3, 3), (5, 5)]
            }]
        );
    }

    #[test]
    fn limit_zero_counts_nothing() {
        assert_eq!(count_solutions(&grid(SEVENTEEN), 0), 0);
    }

    #[test]
    fn a_cell_without_candidates_means_no_solution() {
        // Row 1 holds 1..8 and column 9 holds a 9 lower down: cell (1, 9) has no candidate.
        let mut g = Grid::default();
        g.0[0] = [1, 2, 3, 4, 5, 6, 7, 8, 0];
        g.0[5][8] = 9;
        assert_eq!(count_solutions(&g, 2), 0);
        assert_eq!(solve(&g), None);
        assert_eq!(classify(&g), Classification::None);
    }
}
