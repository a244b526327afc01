//! Where the search branches when propagation stalls (see the [solver docs](super)): on a
//! cell, or on the permutation of a digit in a band or stack.

use super::bands::{Record, Shapes, State};
use super::tables::*;
use super::Next;

/// The segment pattern (as in [`SHRINK`]) of stack `s` of a digit whose columns are packed in
/// `c` (band `b` at bit `9 * b`): band `b` as the pattern's row, the stack's three columns as
/// its boxes. Its permutations (see [`PERMS_OF`]) are the digit's possible layouts in the
/// stack: which column of the stack it takes in each band.
#[inline(always)]
fn stack_pattern(c: u32, s: usize) -> usize {
    let x = (c >> (3 * (s % 3))) & 0o007_007_007;
    ((x | x >> 6 | x >> 12) & 511) as usize
}

/// Per digit lane (as in [`Shapes`]), how many layouts it has left in each band and in each
/// stack: band `b`'s (or stack `s`'s) count in bits `9 * b..9 * b + 9` of the first array
/// (the second), as [`PERMS_OF`] counts them for each band's segment pattern and each
/// [`stack_pattern`].
///
/// Layout `[k0, k1, k2]` of band `b` is there when its segments `3 * r + k_r` are, bits
/// `9 * b + 3 * r + k_r` of the digit's packed segment patterns: bit `9 * b` of the AND of
/// the pattern shifted right by `k0`, `3 + k1` and `6 + k2`, for the three bands at once.
/// A stack's the same on the packed columns (bit `9 * b + 3 * s + k_b` for band `b` in
/// column `k_b` of stack `s`), shifted by `k0`, `9 + k1` and `18 + k2`, which leaves stack
/// `s` at bit `3 * s`: its sum (at most 6) is moved to bit `9 * s`.
#[inline(always)]
fn layout_counts(segments: &[u32; 12], columns: &[u32; 12]) -> ([u32; 12], [u32; 12]) {
    let (mut bands, mut stacks) = ([0u32; 12], [0u32; 12]);
    for d in 0..12 {
        let (q, c) = (segments[d], columns[d]);
        let (mut in_bands, mut in_stacks) = (0, 0);
        for [k0, k1, k2] in LAYOUTS {
            in_bands += (q >> k0) & (q >> (3 + k1)) & (q >> (6 + k2)) & 0o001_001_001;
            in_stacks += (c >> k0) & (c >> (9 + k1)) & (c >> (18 + k2)) & 0o111;
        }
        bands[d] = in_bands;
        stacks[d] = (in_stacks & 0o7) | (in_stacks & 0o70) << 6 | (in_stacks & 0o700) << 12;
    }
    (bands, stacks)
}

impl<X: Record> State<X> {
    /// Of the cells of `cells` (per band; not all empty), at most `limit` per band, the one
    /// with the most undecided peers (in its row, column or box), the first such in band
    /// order. Called on the cells with two candidates when there are some.
    ///
    /// Each alternative of a guess then places a digit whose eliminations reach the most open
    /// cells, so propagation goes further before the next guess (the "most constrained, then
    /// most constraining" rule of CSP search: minimum remaining values, ties broken by degree).
    /// Against the first cell with two candidates (the choice of JCZSolve and the `sudoku`
    /// crate), scoring the first two pairs of each band (`SCORED_PAIRS`) cuts the search
    /// nodes per puzzle from 329 to 215 on the hardest 11+ sample, 614 to 372 on hardest_1106
    /// and 43 to 27 on top1465, for about 30 instructions per pair scored (most of them a
    /// software popcount: there is no `popcnt` in the baseline x86-64 target).
    #[inline(always)]
    pub(super) fn busiest_pair(&self, cells: [u32; 3], limit: u32) -> Next {
        // The best score so far with the cell's position (`32 * b + i`) below it, reversed
        // so that the larger key is the earlier cell: ties keep the first.
        let mut best = 0;
        for (b, &cells_b) in cells.iter().enumerate() {
            let mut left = limit;
            let [b1, b2] = OTHER_BANDS[b];
            // This band's undecided cells, band `b1`'s above them and band `b2`'s one bit
            // higher still (see [`PEERS_AND_COLUMN`]).
            let near = u64::from(self.unsolved[b]) | u64::from(self.unsolved[b1]) << 32;
            let far = u64::from(self.unsolved[b2]) << 33;
            let mut m = cells_b;
            while m != 0 {
                // (`& 31` rather than `% 27` drops the bounds check for an AND.)
                let i = m.trailing_zeros() & 31;
                m &= m - 1;
                let mask = PEERS_AND_COLUMN[i as usize];
                let n = ((near & mask) | (far & mask << 1)).count_ones();
                best = best.max(n << 7 | (127 - (32 * b as u32 + i)));
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        let at = 127 - (best & 127);
        Next::Cell {
            b: (at >> 5) as usize,
            x: 1 << (at & 31),
        }
    }

    /// The undecided cell with the fewest candidates, the one with the most undecided peers
    /// among those (as [`State::busiest_pair`], every one scored). Used when no cell has two
    /// candidates, which is rare but happens at the top of the search of sparse puzzles
    /// (17 clues), where a poor choice multiplies the whole tree: branching on the first
    /// undecided cell of a band instead made a few 17-clue puzzles take 2 ms.
    #[cold]
    pub(super) fn fewest_candidates(&self) -> Next {
        // Per band, the candidate count of each cell in four bit planes (a bit-sliced adder).
        let mut planes = [[0u32; 4]; 3];
        for (b, p) in planes.iter_mut().enumerate() {
            for d in 0..9 {
                let mut carry = self.cand[3 * d + b];
                for plane in p.iter_mut() {
                    let next = *plane & carry;
                    *plane ^= carry;
                    carry = next;
                }
            }
        }
        // The smallest count of an undecided cell (at least 3 here), and its cells.
        for n in 3..=9 {
            let mut cells = [0u32; 3];
            for b in 0..3 {
                let mut m = self.unsolved[b];
                for (k, plane) in planes[b].iter().enumerate() {
                    m &= if n >> k & 1 == 1 { *plane } else { !*plane };
                }
                cells[b] = m;
            }
            if cells != [0; 3] {
                return self.busiest_pair(cells, u32::MAX);
            }
        }
        unreachable!("an undecided cell has between 3 and 9 candidates here")
    }
}

impl State<Shapes> {
    /// tdoku's branch of a hard search (T. Dillon, tdoku, `ChooseBandAndValueToBranch`): of
    /// the three bands and three stacks, the one whose digits have the fewest layouts left in
    /// all, then its digit with the fewest (at least two). A layout is a permutation: in a
    /// band, which box each row's place of the digit is in; in a stack, which column each
    /// band's. `None` when every digit has one layout left in every band and stack.
    ///
    /// Against the busiest cell with two candidates, and with the deductions of
    /// [`State::deduce`] (which keep each stack's permutations as exact as the band update
    /// keeps the bands'), this cuts the search nodes of hardest_1106 from 274 to 228 per
    /// puzzle; without the deductions it made more nodes than cells (370).
    ///
    /// The layouts are counted without a table: a layout is there when its three segments
    /// (or columns) are, an AND of three shifted copies of the digit's packed word, for all
    /// three bands (or stacks) at once; the six layouts' bits are added in fields nine bits
    /// apart (see [`layout_counts`]), the same for every digit, so the compiler runs the
    /// digits four to a vector register. Against a look-up of each band's and stack's
    /// pattern in [`PERMS_OF`], this took counting to two on hardest_1106 from 603,000 to
    /// 563,000 instructions per puzzle (`cachegrind`, `profile_ours`), the same search.
    #[inline(always)]
    pub(super) fn layout_branch(&self) -> Option<Next> {
        let shapes = self.shapes.packed();
        let (bands, stacks) = layout_counts(&shapes.segments, &shapes.columns);
        let (mut band_total, mut stack_total) = (0, 0);
        for d in 0..9 {
            band_total += bands[d];
            stack_total += stacks[d];
        }
        // (Unit `u`: bands 0..3, stacks 3..6. A unit whose nine digits have one layout each
        // has a total of 9.)
        let mut best = (u32::MAX, 0usize);
        for (u, total) in (0..6).map(|u| {
            let totals = if u < 3 { band_total } else { stack_total };
            (u, (totals >> (9 * (u % 3))) & 511)
        }) {
            if total > 9 && total < best.0 {
                best = (total, u);
            }
        }
        if best.0 == u32::MAX {
            return None;
        }
        let u = best.1;
        let (counts, shift) = (if u < 3 { &bands } else { &stacks }, 9 * (u % 3));
        let mut pick = (u32::MAX, 0usize);
        for (d, &count) in counts.iter().enumerate().take(9) {
            let n = (count >> shift) & 511;
            if n >= 2 && n < pick.0 {
                pick = (n, d);
            }
        }
        let d = pick.1 % 9;
        let perms = if u < 3 {
            PERMS_OF[((shapes.segments[d] >> (9 * u)) & 511) as usize]
        } else {
            PERMS_OF[stack_pattern(shapes.columns[d], u - 3)]
        };
        Some(Next::Layout {
            d,
            u,
            perms: u32::from(perms & 63),
        })
    }

    /// The masks that keep, on the three boards of a digit, only layout `k` (an index into
    /// [`PERMUTATIONS`]) of unit `u` (bands 0..3, stacks 3..6).
    #[inline(always)]
    pub(super) fn layout_masks(u: usize, k: usize) -> [u32; 3] {
        let pattern = u32::from(PERMUTATIONS[k & 7]);
        if u < 3 {
            let mut masks = [BAND; 3];
            masks[u] = EXPAND[pattern as usize];
            masks
        } else {
            let s = (u - 3) % 3;
            let stack = (0b111 << (3 * s)) * COLUMNS_TO_BAND;
            std::array::from_fn(|b| {
                let k = ((pattern >> (3 * b)) & 7).trailing_zeros();
                !stack | ((1 << (3 * s as u32 + k)) * COLUMNS_TO_BAND)
            })
        }
    }
}
