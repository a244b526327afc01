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
//! # Setup
//!
//! The boards are built from the givens in one pass: digit `d` may be in a cell when the cell
//! holds no other given and no given `d` shares its row, column or box (see
//! `State::from_givens`). Two equal givens in a house fail at once.
//!
//! # Propagation
//!
//! This is the band propagation of JCZSolve (J. Zhou / "zhouyundong", later tuned by
//! "champagne" and "JasonLion"; the Rust `sudoku` crate by emerentius is a port of it), re-derived
//! here rather than ported:
//!
//! - **Band update** of one board. In a band, a digit sits once in each of the three rows and
//!   once in each of the three boxes, so its three places form a permutation `row -> box`. The
//!   nine row/box *segments* that still hold the digit allow some of the six permutations; the
//!   union of the allowed ones ([`SHRINK`], widened to cells in [`LOCKED_CELLS`]) is all the
//!   segments that may keep the digit. This one table look-up does locked candidates in both
//!   directions (pointing and claiming) and finds hidden singles of rows and boxes, and an empty
//!   union is a contradiction. A box whose cells for the digit lie in one column clears that
//!   column from the other two bands (pointing along a column; this also carries a placement to
//!   its column). A row left with one segment whose box keeps one column holds one cell
//!   ([`LONE_CELLS`]): the cell is solved and cleared from the other digits' boards. The update
//!   has no data-dependent branch (besides the contradiction): clearing the solved cells always,
//!   even when none is new, measured faster than testing first (the test mispredicts; the
//!   `sudoku` crate's notes say the same).
//! - **Naked singles**: per band, bit-sliced counting over the nine boards finds the cells with
//!   one candidate (placed) and with none (a contradiction), and the cells with two.
//!
//! - **Column claiming**, in a search that has already made [`CLAIM_AFTER`] guesses, when the
//!   above have stalled, before the next guess: a digit whose places in a column all lie in one
//!   band goes in that column's box of the band, so the box's two other columns lose it (see
//!   [`State::claim_columns`]). It is the one direction of locked candidates the band update
//!   misses, and it finds the hidden singles of columns. It cuts the guesses per puzzle from
//!   185 to 155 on hardest_1106, 107 to 92 on the hardest 11+ sample and 13.6 to 12.3 on
//!   top1465 (an instrumented build, counting to 2). Run at every stall it added 12 % to the
//!   whole command on the serg benchmark, whose puzzles (several solutions) end in about six
//!   guesses and gain nothing from it; run only near the top of the tree it lost most of its
//!   gain. Waiting for eight guesses keeps the easy puzzles off it: measured as the whole
//!   command against the same command without claiming (paired runs, `taskset`), 4 % off
//!   hardest_1106, 2 % off top1465 and the 17-clue list, serg unchanged (within 1 %).
//!
//! Tried and left out, measured the same way: the triad rule of tdoku (a box-row or
//! box-column segment that only three digits can reach holds them) at every stall cut guesses
//! by a further 5 % on hardest_1106 and 16 % on top1465 but made the command 1.17 to 1.8 times
//! slower (1.27 times on hardest_1106 even when it waited for 32 guesses); scoring four bivalue
//! cells per band once claiming is on was within 2 % either way.
//! Hidden singles in columns in every round of propagation had been tried before: they cost
//! more than the guesses they save.
//!
//! # Search
//!
//! When propagation stalls the search branches on a cell with two candidates: JCZSolve and the
//! `sudoku` crate take the first one; this solver takes, of the first two of each band, the one
//! with the most undecided peers (ties to the first), which cuts the search nodes by a third to
//! two fifths on the hard collections (see [`State::busiest_pair`]). With no such cell it takes
//! the undecided cell with the fewest candidates of all, again the one with the most undecided
//! peers among those (see [`State::fewest_candidates`]; the `sudoku` crate takes the first
//! undecided cell of each band with the fewest candidates of those three, which made a few
//! 17-clue puzzles take 2 ms: this case is rare, but at the top of the tree). Each alternative
//! but the last runs on a copy of the state (228 bytes); the last one reuses it. The search
//! stops once `limit` solutions are counted, so an empty grid with `limit = 2` takes
//! microseconds. A solution is kept as its boards and turned into a grid only when asked for,
//! so counting pays nothing for it.
//!
//! The benchmark crate `sudoku-machine/bench` compares this solver with the `sudoku` crate
//! (`examples/ratio.rs` and `examples/ratio_chunks.rs` for wall time, `icount.sh` for
//! instructions per puzzle).

mod clashes;
mod tables;

pub use clashes::{clashes, Clash, House};
use tables::*;

use crate::datamodel::Grid;

/// How many cells with two candidates of each band [`State::busiest_pair`] compares at most
/// (the first ones of the band). Scoring every pair finds 5-7% fewer search nodes on the
/// hard collections than the first two of each band, but easy puzzles (the serg benchmark)
/// stall with about nine pairs and gain nothing from the choice, so every pair scored is pure
/// cost there. Two per band measured better than the first five overall (fewer nodes for
/// as many pairs scored): it looks at every band.
const SCORED_PAIRS: u32 = 2;

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
///
/// Each update is followed by [`std::hint::black_box`] on the state, which hides it from the
/// optimizer and costs one store. Without it the compiler keeps the boards it has read in
/// registers across the whole unrolled pass: it spills them, updates both copies and packs
/// them back into vectors for the naked singles, so a band update took up to 65 instructions
/// instead of 43 and the scan spilled too. With it every board is read and written in
/// memory where it is used (`solve` on hardest_1106: 264,000 instructions per puzzle down to
/// 227,000, `callgrind`). Only the generated code changes, not what is computed.
macro_rules! update_changed {
    ($state:ident, $any:ident, $($i:literal)*) => {
        $(
            if $state.cand[$i] != $state.seen[$i] {
                $any = true;
                $state.update::<$i>()?;
                std::hint::black_box(&mut *$state);
            }
        )*
    };
}

impl State {
    /// The state of a grid's givens, or `None` when a value is above 9 or two givens of a house
    /// are equal.
    ///
    /// The boards are built in one pass rather than by placing the givens one by one: digit `d`
    /// may be in a cell when the cell holds no other given and no given `d` shares its row,
    /// column or box. The band updates of the first propagation then start from a grid where
    /// every consequence of the givens that a single placement has is already drawn. The grid
    /// is read eight cells at a time and only its givens are visited (SWAR byte tests).
    fn from_givens(givens: &Grid) -> Option<State> {
        // Per digit: the houses that hold it (row `r` at bit `r`, column `c` at bit `9 + c`,
        // box `k` at bit `18 + k`), and the cells of each band that hold it.
        // (16 digit slots, 4 band slots and 128-entry tables, so that indices masked to
        // those sizes need no bounds checks.)
        let mut houses = [0u32; 16];
        let mut cells = [[0u32; 4]; 16];
        let mut filled = [0u32; 4];
        // Eight cells at a time, visiting only the givens: a branch per cell on whether it is
        // empty mispredicts often (about half the cells of a puzzle are givens, in no order).
        let mut bytes = [0u8; 88];
        bytes[..81].copy_from_slice(givens.0.as_flattened());
        for (k, chunk) in bytes.chunks_exact(8).enumerate() {
            // (Never `None`: the chunks are eight bytes long.)
            let word = u64::from_le_bytes(chunk.try_into().ok()?);
            // Bit 7 of each byte: set when the byte is not 0, and when it is above 9.
            let low = word & 0x7f7f_7f7f_7f7f_7f7f;
            let mut nonzero = ((low + 0x7f7f_7f7f_7f7f_7f7f) | word) & 0x8080_8080_8080_8080;
            if ((low + 0x7676_7676_7676_7676) | word) & 0x8080_8080_8080_8080 != 0 {
                return None;
            }
            while nonzero != 0 {
                let j = nonzero.trailing_zeros() / 8;
                nonzero &= nonzero - 1;
                let cell = (8 * k + j as usize) & 127;
                let d = usize::from((word >> (8 * j)) as u8 - 1) & 15;
                let h = CELL_HOUSES[cell];
                if houses[d] & h != 0 {
                    return None;
                }
                houses[d] |= h;
                let (b, x) = (usize::from(CELL_BAND[cell] & 3), CELL_BIT[cell]);
                cells[d][b] |= x;
                filled[b] |= x;
            }
        }
        let mut state = State {
            cand: [0; 27],
            seen: [0; 27],
            unsolved: [BAND & !filled[0], BAND & !filled[1], BAND & !filled[2]],
        };
        for d in 0..9 {
            let (rows, cols, boxes) = (houses[d], houses[d] >> 9, houses[d] >> 18);
            let free_cols = (!cols & 511) * COLUMNS_TO_BAND;
            for b in 0..3 {
                let free_rows = ROWS_TO_BAND[((!rows >> (3 * b)) & 7) as usize];
                let free_boxes = BOXES_TO_BAND[((!boxes >> (3 * b)) & 7) as usize];
                state.cand[3 * d + b] =
                    (free_rows & free_cols & free_boxes & !filled[b]) | cells[d][b];
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
        // (The `& 511` on every index lets the compiler drop the bounds checks.)
        let m = self.cand[I];
        let p = SEG3[(m & 511) as usize]
            | SEG3[((m >> 9) & 511) as usize] << 3
            | SEG3[((m >> 18) & 511) as usize] << 6;
        let p = (p & 511) as usize;
        let m = m & LOCKED_CELLS[p];
        if m == 0 {
            return Err(Contradiction);
        }
        let (d, b) = (I / 3, I % 3);

        // Boxes confined to one column clear it from the other bands.
        let keep = !COL_SINGLE[((m | m >> 9 | m >> 18) & 511) as usize];
        let [b1, b2] = OTHER_BANDS[b];
        self.cand[3 * d + b1] &= keep;
        self.cand[3 * d + b2] &= keep;

        // A row left with one segment (after SHRINK its box has no other row's segment) whose box
        // keeps one column holds one cell: that cell is solved.
        let single = LONE_CELLS[p] & !keep & m;
        // Clear them from all nine boards of the band, this one included (a cell solved earlier
        // is already clear in the others), then store this one.
        self.unsolved[b] &= !single;
        let mut j = b;
        while j < 27 {
            self.cand[j] &= !single;
            j += 3;
        }
        self.cand[I] = m;
        self.seen[I] = m;
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

    /// Propagates to a fixed point; returns whether the grid is full or where to branch. With
    /// `claim`, a stall tries [`State::claim_columns`] before it gives up.
    fn propagate(&mut self, claim: bool) -> Result<Next, Contradiction> {
        loop {
            self.update_all()?;
            if self.unsolved == [0; 3] {
                return Ok(Next::Solved);
            }

            // Naked singles, and the cells with two candidates of each band, to branch on. The
            // cells with at least one, two and three candidates are counted for the three bands
            // in one sweep over the boards, before any test, which lets the compiler work on the
            // counters of several bands at once in vector registers (a digit's three boards are
            // adjacent). A sweep per band, each with its own early exit, cost 8 % more
            // instructions in all (`solve` on hardest_1106).
            let (mut once, mut twice, mut thrice) = ([0u32; 3], [0u32; 3], [0u32; 3]);
            for c in self.cand.chunks_exact(3) {
                for b in 0..3 {
                    thrice[b] |= twice[b] & c[b];
                    twice[b] |= once[b] & c[b];
                    once[b] |= c[b];
                }
            }
            let mut pairs = [0u32; 3];
            let mut placed = false;
            #[allow(clippy::needless_range_loop)] // `b` indexes the boards too
            for b in 0..3 {
                let u = self.unsolved[b];
                if u & !once[b] != 0 {
                    return Err(Contradiction);
                }
                let mut singles = u & !twice[b];
                placed |= singles != 0;
                while singles != 0 {
                    let x = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    let Some(d) = (0..9).find(|&d| self.cand[3 * d + b] & x != 0) else {
                        return Err(Contradiction);
                    };
                    self.place(d, b, x);
                }
                pairs[b] = u & twice[b] & !thrice[b];
            }
            if placed {
                continue;
            }
            if claim && self.claim_columns() {
                continue;
            }

            if pairs != [0; 3] {
                return Ok(self.busiest_pair(pairs, SCORED_PAIRS));
            }
            return Ok(self.fewest_candidates());
        }
    }

    /// Locked candidates from columns (claiming): a digit whose places in a column all lie in
    /// one band is in that column's box of the band, so the box's two other columns lose it.
    /// Band updates see rows and boxes (and carry a box confined to one column to the other
    /// bands), so this is the one direction of locked candidates they miss; it also finds the
    /// hidden singles of columns. Run only when propagation has stalled, before a guess, once
    /// a search has made [`CLAIM_AFTER`] guesses. Returns whether a board changed.
    #[inline(always)]
    fn claim_columns(&mut self) -> bool {
        let mut changed = false;
        for d in 0..9 {
            let cols: [u32; 3] = std::array::from_fn(|b| {
                let m = self.cand[3 * d + b];
                (m | m >> 9 | m >> 18) & 511
            });
            for (b, [b1, b2]) in OTHER_BANDS.iter().enumerate() {
                let only = cols[b] & !(cols[*b1] | cols[*b2]);
                // The stacks of those columns, all three columns of each.
                let stacks = ((only | only >> 1 | only >> 2) & 0b001_001_001) * 7;
                let clear = (stacks & !only) * COLUMNS_TO_BAND;
                let m = self.cand[3 * d + b];
                changed |= m & clear != 0;
                self.cand[3 * d + b] = m & !clear;
            }
        }
        changed
    }

    /// Of the cells of `cells` (per band; not all empty), at most `limit` per band, the one
    /// with the most undecided peers (in its row, column or box), the first such in band
    /// order. Called on the cells with two candidates when there are some.
    ///
    /// Each alternative of a guess then places a digit whose eliminations reach the most open
    /// cells, so propagation goes further before the next guess (the "most constrained, then
    /// most constraining" rule of CSP search: minimum remaining values, ties broken by degree).
    /// Against the first cell with two candidates (the choice of JCZSolve and the `sudoku`
    /// crate), scoring the first two pairs of each band ([`SCORED_PAIRS`]) cuts the search
    /// nodes per puzzle from 329 to 215 on the hardest 11+ sample, 614 to 372 on hardest_1106
    /// and 43 to 27 on top1465, for about 30 instructions per pair scored (most of them a
    /// software popcount: there is no `popcnt` in the baseline x86-64 target).
    #[inline(always)]
    fn busiest_pair(&self, cells: [u32; 3], limit: u32) -> Next {
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
        Next::Branch {
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
    fn fewest_candidates(&self) -> Next {
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

    /// The grid of solved boards (each board holds exactly its digit's cells).
    fn grid(boards: &[u32; 27]) -> Grid {
        // Band `b`, bit `x` of the band is `flat[32 * b + x]`: an index the compiler can see is
        // in bounds.
        let mut flat = [0u8; 96];
        for d in 0..9 {
            for b in 0..3 {
                let mut m = boards[3 * d + b];
                while m != 0 {
                    flat[32 * b + m.trailing_zeros() as usize] = d as u8 + 1;
                    m &= m - 1;
                }
            }
        }
        let mut grid = Grid::default();
        for (r, row) in grid.0.iter_mut().enumerate() {
            let start = 32 * (r / 3) + 9 * (r % 3);
            row.copy_from_slice(&flat[start..start + 9]);
        }
        grid
    }
}

/// What a search has found so far.
struct Found {
    count: usize,
    /// The branch points so far (each cell guessed on counts once).
    guesses: usize,
    limit: usize,
    /// The boards of the first solution (turned into a grid only when asked for).
    first: Option<[u32; 27]>,
}

impl Found {
    /// The first solution found, as a grid.
    fn first_grid(&self) -> Option<Grid> {
        self.first.as_ref().map(State::grid)
    }
}

/// After how many guesses of a search [`State::claim_columns`] joins the propagation: a puzzle
/// that has needed that many is a hard one (see the module docs; the serg benchmark's puzzles
/// end in about six guesses, the hard collections need 12 to 185 on average).
const CLAIM_AFTER: usize = 8;

/// Depth-first search from `state`, stopping once `found.limit` solutions are counted.
fn search(state: &mut State, found: &mut Found) {
    loop {
        let claim = found.guesses >= CLAIM_AFTER;
        let (b, x) = match state.propagate(claim) {
            Err(Contradiction) => return,
            Ok(Next::Solved) => {
                found.count += 1;
                if found.first.is_none() {
                    found.first = Some(state.cand);
                }
                return;
            }
            Ok(Next::Branch { b, x }) => (b, x),
        };
        // (`min(2)` keeps `b` as it is and lets the compiler drop the bounds checks.)
        let b = b.min(2);
        let mut digits: u32 = 0;
        for d in 0..9 {
            digits |= u32::from(state.cand[3 * d + b] & x != 0) << d;
        }
        // Every alternative but the last on a copy; the last one continues on this state.
        found.guesses += 1;
        while digits & (digits - 1) != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let mut child = *state;
            child.place(d, b, x);
            search(&mut child, found);
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
    let mut state = State::from_givens(givens)?;
    let mut found = Found {
        count: 0,
        guesses: 0,
        limit,
        first: None,
    };
    search(&mut state, &mut found);
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
    run(givens, 1)?.first_grid()
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
///
/// The search comes first: its setup refuses clashing givens and values above 9 in one pass
/// over the grid, so [`clashes`] runs only for a grid that has them.
pub fn classify(givens: &Grid) -> Classification {
    match run(givens, 2) {
        Some(Found {
            count: 1,
            first: Some(boards),
            ..
        }) => Classification::Unique(State::grid(&boards)),
        Some(Found { count: 2.., .. }) => Classification::Multiple,
        Some(_) => Classification::None,
        None if givens.0.iter().flatten().any(|&v| v > 9) => Classification::Invalid(Vec::new()),
        None => Classification::Invalid(clashes(givens)),
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
        assert_eq!(COL_SINGLE[0b110_010_111], 0b000_010_000 * COLUMNS_TO_BAND);
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
    fn givens_are_read_in_every_chunk() {
        // The last cell is alone in its eight-byte chunk; values with the high bit set too.
        for bad in [10, 127, 128, 200, 255] {
            let mut g = Grid::default();
            g.0[8][8] = bad;
            assert_eq!(count_solutions(&g, 2), 0, "value {bad}");
        }
        let mut g = Grid::default();
        g.0[8][0] = 4;
        g.0[8][8] = 4;
        assert_eq!(count_solutions(&g, 2), 0, "a clash in the last row");
        let mut g = grid(SEVENTEEN);
        let s = solve(&g).unwrap();
        g.0[8][8] = s.0[8][8];
        assert_eq!(solve(&g), Some(s), "a given in the last cell");
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
    fn a_column_confined_to_one_band_claims_its_box() {
        // Digit 1 leaves column 1 in bands 2 and 3: in box 1 it must be in column 1.
        let mut s = State::from_givens(&Grid::default()).unwrap();
        s.cand[1] &= !COLUMNS_TO_BAND;
        s.cand[2] &= !COLUMNS_TO_BAND;
        assert!(s.claim_columns());
        assert_eq!(s.cand[0] & (0b111 * COLUMNS_TO_BAND), COLUMNS_TO_BAND);
        assert_eq!(
            s.cand[0] | (0b111 * COLUMNS_TO_BAND),
            BAND,
            "the other boxes keep it"
        );
        assert_eq!(s.cand[3], BAND, "the other digits keep theirs");
        assert!(!s.claim_columns(), "nothing more to claim");
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
