//! Deductions that look across the bands, made when the band updates and naked singles have
//! stalled in a hard search (see the [solver docs](super)): column claiming, a digit left
//! without a place in a column, and hidden triads.
//!
//! They work on what the last band update of each board recorded (its [`Shapes`]), which at a
//! stall is exact: every board is as its update left it. Each rule is a few shifts and masks
//! on a digit's packed word (its three bands at once, band `b` at bit `9 * b`), the same for
//! every digit: the loops over the digits' lanes have no branch, and the compiler runs them
//! on four digits at a time (SSE2, the baseline of x86-64).

use super::bands::{Packed, Shapes, State};
use super::tables::*;
use super::Contradiction;

/// Rotates the rows of each of three 9-bit segment patterns: row `r` of each receives row
/// `r + 1` (mod 3) of the same pattern (row `r` at bits `3 * r..3 * r + 3`).
#[inline(always)]
fn next_rows(q: u32) -> u32 {
    ((q >> 3) & 0o077_077_077) | ((q << 6) & 0o700_700_700)
}

/// As [`next_rows`], row `r` receiving row `r + 2` (mod 3).
#[inline(always)]
fn last_rows(q: u32) -> u32 {
    ((q >> 6) & 0o007_007_007) | ((q << 3) & 0o770_770_770)
}

/// Of packed segment patterns, the segments that are the only one of their box: the digit's
/// minirow in that box.
#[inline(always)]
fn lone_segments(q: u32) -> u32 {
    q & !(next_rows(q) | last_rows(q))
}

/// Of a packed column set (three bands of nine columns), the columns that are the only one
/// of their box (their group of three) used: the digit's minicolumn in that box.
#[inline(always)]
fn lone_columns(c: u32) -> u32 {
    let next = ((c >> 1) & 0o333_333_333) | ((c << 2) & 0o444_444_444);
    let last = ((c >> 2) & 0o111_111_111) | ((c << 1) & 0o666_666_666);
    c & !(next | last)
}

/// Column claiming on a packed column set: the columns to clear, as a packed column set. A
/// column that the digit uses in one band only holds its place in that band's box of the
/// column's stack, so the box's two other columns lose it (locked candidates, claiming, from
/// a column).
#[inline(always)]
fn claimed(c: u32) -> u32 {
    let others = (c >> 9) | (c << 18) | (c >> 18) | (c << 9);
    let only = c & !others & BAND;
    let stacks = (only | only >> 1 | only >> 2) & 0o111_111_111;
    (stacks | stacks << 1 | stacks << 2) & c & !only
}

/// Per digit lane (twelve, the last three padding), what [`State::deduce`] reads off its
/// shapes.
struct Lanes {
    /// Columns to clear by claiming (packed column sets).
    claims: [u32; 12],
    /// The minirows the digit is confined to (packed segment patterns).
    minirows: [u32; 12],
    /// The minicolumns the digit is confined to (packed column sets).
    minicolumns: [u32; 12],
}

impl State<Shapes> {
    /// The deductions of a stall in a hard search. Returns whether a board changed, or a
    /// contradiction: a digit with no place left in some column, or four digits confined to
    /// the three cells of a minirow or minicolumn.
    ///
    /// - **Column claiming** (see [`claimed`]): the direction of locked candidates that the
    ///   band update does not see.
    /// - **Empty columns**: the band update checks the rows and boxes of each band, never a
    ///   whole column. Together with claiming and the band update's pointing along columns this
    ///   is the permutation rule of the stacks (what the band update is for the bands, as
    ///   tdoku's vertical band configurations do it): without it a branch on a stack's
    ///   permutation could leave a column empty unnoticed.
    /// - **Hidden triads**, tdoku's triad rule for boxes (T. Dillon, tdoku, its "negative
    ///   triads"): a digit whose place in a box is confined to one minirow (a box row) is in
    ///   that minirow; when three digits are, the minirow's three cells hold them and every
    ///   other digit leaves them. Minicolumns the same. A fourth digit confined there is a
    ///   contradiction.
    ///
    /// The confinements are counted over the digits in bit slices (`at_least[k]`: confined
    /// for at least `k + 1` digits) for the three bands at once, minirows in the low half of a
    /// `u64` and minicolumns in the high half. A triad changes something only where another
    /// digit, not confined there, can still go (`loose`), which is told without looking at
    /// the cells.
    #[inline(always)]
    pub(super) fn deduce(&mut self) -> Result<bool, Contradiction> {
        let Packed { segments, columns } = self.shapes.packed();
        let mut lanes = Lanes {
            claims: [0; 12],
            minirows: [0; 12],
            minicolumns: [0; 12],
        };
        // (Every lane array holds `u32`s, so that the loop runs four digits to a register.)
        let mut missing = [0u32; 12];
        let (mut loose_rows, mut loose_columns) = ([0u32; 12], [0u32; 12]);
        for d in 0..12 {
            let (q, c) = (segments[d], columns[d]);
            missing[d] = !(c | c >> 9 | c >> 18) & 511;
            lanes.claims[d] = claimed(c);
            lanes.minirows[d] = lone_segments(q);
            lanes.minicolumns[d] = lone_columns(c);
            loose_rows[d] = q & !lanes.minirows[d];
            loose_columns[d] = c & !lanes.minicolumns[d];
        }
        let mut at_least = [0u64; 4];
        let (mut any_missing, mut any_claim) = (0, 0);
        let (mut any_loose_rows, mut any_loose_columns) = (0, 0);
        for d in 0..9 {
            any_missing |= missing[d];
            any_claim |= lanes.claims[d];
            any_loose_rows |= loose_rows[d];
            any_loose_columns |= loose_columns[d];
            let x = u64::from(lanes.minirows[d]) | u64::from(lanes.minicolumns[d]) << 32;
            at_least[3] |= at_least[2] & x;
            at_least[2] |= at_least[1] & x;
            at_least[1] |= at_least[0] & x;
            at_least[0] |= x;
        }
        let any_loose = u64::from(any_loose_rows) | u64::from(any_loose_columns) << 32;
        if any_missing != 0 || at_least[3] != 0 {
            return Err(Contradiction);
        }
        // (`at_least[2]` is exactly three digits here: four were a contradiction.)
        let triads = at_least[2] & any_loose;
        if u64::from(any_claim) | triads == 0 {
            return Ok(false);
        }
        self.apply(&lanes, triads);
        Ok(true)
    }

    /// Carries out the claims and hidden triads that [`State::deduce`] found: `triads` marks
    /// the minirows (low half, packed segment patterns) and minicolumns (high half, packed
    /// column sets) that three digits are confined to, whose cells lose every other digit.
    #[cold]
    fn apply(&mut self, lanes: &Lanes, triads: u64) {
        for d in 0..9 {
            let rows = triads as u32 & !lanes.minirows[d];
            let columns = (triads >> 32) as u32 & !lanes.minicolumns[d];
            let columns = columns | lanes.claims[d];
            for b in 0..3 {
                let clear = EXPAND[((rows >> (9 * b)) & 511) as usize]
                    | (((columns >> (9 * b)) & 511) * COLUMNS_TO_BAND);
                self.cand[3 * d + b] &= !clear;
            }
        }
    }
}
