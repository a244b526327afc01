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
    #[inline(always)]
    pub(super) fn layout_branch(&self) -> Option<Next> {
        // (Unit `u`: bands 0..3, stacks 3..6. A unit whose nine digits have one layout each
        // has a total of 9.)
        let mut best = (u32::MAX, 0usize);
        for b in 0..3 {
            let mut total = 0;
            for d in 0..9 {
                total +=
                    u32::from(PERMS_OF[((self.shapes.segments[d] >> (9 * b)) & 511) as usize]) >> 8;
            }
            if total > 9 && total < best.0 {
                best = (total, b);
            }
        }
        let mut stacks = [0u32; 3];
        for d in 0..9 {
            let c = self.shapes.columns[d];
            for (s, total) in stacks.iter_mut().enumerate() {
                *total += u32::from(PERMS_OF[stack_pattern(c, s)]) >> 8;
            }
        }
        for (s, &total) in stacks.iter().enumerate() {
            if total > 9 && total < best.0 {
                best = (total, 3 + s);
            }
        }
        if best.0 == u32::MAX {
            return None;
        }
        let u = best.1;
        let mut pick = (u32::MAX, 0usize, 0u32);
        for d in 0..9 {
            let perms = u32::from(if u < 3 {
                PERMS_OF[((self.shapes.segments[d] >> (9 * u)) & 511) as usize]
            } else {
                PERMS_OF[stack_pattern(self.shapes.columns[d], u - 3)]
            });
            let n = perms >> 8;
            if n >= 2 && n < pick.0 {
                pick = (n, d, perms & 63);
            }
        }
        Some(Next::Layout {
            d: pick.1,
            u,
            perms: pick.2,
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
