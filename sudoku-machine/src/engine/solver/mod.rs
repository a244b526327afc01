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
//!   union of the allowed ones ([`tables::SHRINK`], widened to cells in [`tables::LOCKED_CELLS`]) is all the
//!   segments that may keep the digit. This one table look-up does locked candidates in both
//!   directions (pointing and claiming) and finds hidden singles of rows and boxes, and an empty
//!   union is a contradiction. A box whose cells for the digit lie in one column clears that
//!   column from the other two bands (pointing along a column; this also carries a placement to
//!   its column). A row left with one segment whose box keeps one column holds one cell
//!   ([`tables::LONE_CELLS`]): the cell is solved and cleared from the other digits' boards. The update
//!   has no data-dependent branch (besides the contradiction): clearing the solved cells always,
//!   even when none is new, measured faster than testing first (the test mispredicts; the
//!   `sudoku` crate's notes say the same).
//! - **Naked singles**: per band, bit-sliced counting over the nine boards finds the cells with
//!   one candidate (placed) and with none (a contradiction), and the cells with two.
//!
//! # The hard part of a search
//!
//! A search turns *hard* when the grid still has [`HARD_OPEN`] undecided cells at its first
//! stall, or after [`HARD_AFTER`] guesses. From then on its states carry each board's shape as
//! its last band update left it ([`bands::Shapes`]: the segment pattern and the columns used,
//! one word per digit with its three bands side by side), and a stall runs two things from
//! tdoku's design (T. Dillon, <https://github.com/t-dillon/tdoku>, the write-up at
//! <https://t-dillon.github.io/tdoku/>: a band-oriented bit-parallel DPLL solver with triads)
//! before it guesses, re-derived on this solver's boards rather than ported:
//!
//! - **Deductions across the bands** ([`State::deduce`], `deduce.rs`): column claiming (a
//!   digit whose places in a column lie in one band is in that column's box of the band: the
//!   box's two other columns lose it, the direction of locked candidates the band update
//!   misses), a column left without a place for a digit (a contradiction the band update
//!   cannot see), and hidden triads (tdoku's negative triads): three digits each confined in
//!   a box to one minirow (or minicolumn) fill its three cells, which every other digit
//!   leaves; a fourth is a contradiction. Each rule is shifts and masks on a digit's word, the
//!   same for every digit, so the compiler runs them four digits to an SSE2 register.
//! - **Branching on layouts** ([`State::layout_branch`], `branch.rs`): tdoku branches on a
//!   band's *configuration* of a digit (which box each of its three rows holds it in: one of
//!   six permutations) rather than on a cell. Of the three bands and three stacks, the one
//!   whose digits have the fewest layouts left in all, its digit with the fewest (at least
//!   two): one alternative per layout.
//!
//! Measured against the solver without them (the same propagation, claiming after eight
//! guesses, cells only), counting to 2: guesses per puzzle 155 -> 113 on hardest_1106, 92 ->
//! 64 on the hardest 11+ sample, 12.3 -> 9.1 on top1465; in-process time (`ratio_chunks`,
//! against the `sudoku` crate in the same run) 15 % less on the hard collections, 4 % on
//! top1465, the same on the 17-clue list and the serg benchmark, although it executes more
//! instructions on the hard sets (`icount.sh`): a guess costs mispredicted branches that the
//! lane-parallel rules do not. The triad rule alone, tried earlier at every stall on the
//! boards themselves, cut guesses by 5-16 % but made the command 1.2-1.8 times slower; here
//! the rules read the shapes that the band updates compute anyway, a digit per lane.
//!
//! Tried and left out, measured the same way: branching on a bivalue cell first when there is
//! one, the layout only otherwise (top1465 4 % faster, the hard collections 7-12 % slower);
//! the changed boards as a bit mask, with one band update (its board index known at run time)
//! looping over the bits instead of the unrolled tests of [`bands`] (40-60 % fewer mispredicted
//! branches by cachegrind's simulation, but 1.6-1.8 times the instructions: slower on every
//! collection); and an x86-64-v3 build (`popcnt`, BMI, AVX2), within 3 %.
//!
//! # Cost of a node
//!
//! tdoku and this solver search about as many nodes (guesses per puzzle, counting to two:
//! tdoku 110 on hardest_1106, 62 on the hardest 11+ list, 8.9 on top1465; this solver 113,
//! 64 on a sample of the 11+ list and 9.1, see above), so the command's time against tdoku
//! is the cost of a node. In instructions the two are close (whole processes under valgrind, tdoku
//! built `-march=native` without AVX-512, which valgrind cannot run): hardest_1106 197 M for
//! tdoku, 228 M for this command before the changes below, the hardest 11+ list 15.5 G and
//! 16.7 G, top1465 88.7 M and 88.1 M, and fewer on the easy sets (serg 202 M and 145 M,
//! 17-clue 1,135 M and 579 M) where it is still no faster in CPU time: its branches on which
//! boards changed depend on the data (cachegrind's model counts 1.5-1.8 times tdoku's
//! mispredicted branches), where tdoku's vector code has none. What was cut, per puzzle counting
//! to two on hardest_1106 (`profile_ours` under cachegrind): counting layouts with lane
//! arithmetic instead of table look-ups ([`State::layout_branch`]) 603,000 -> 563,000
//! instructions; the deductions' lanes all 32-bit, four digits to an SSE2 register instead
//! of two, 563,000 -> 520,000; the shapes stored unpacked by the band update and packed once
//! a stall ([`Shapes`]), 520,000 -> 510,000; the band update's segment pattern gathered by
//! one multiplication instead of three `SEG3` look-ups (see [`tables::segments`]; about 50
//! instructions an update down to 45), `profile_ours` one pass: hardest_1106 191.3 M ->
//! 184.2 M instructions, top1465 73.8 M -> 70.6 M, serg 149.7 M -> 142.7 M; and in the easy part of a search a pass of band
//! updates tests a digit's three boards together first (fewer data-dependent branches, more
//! instructions: serg 4 % less CPU time). Tried and left out: lowering [`HARD_OPEN`] to 40 or
//! [`HARD_AFTER`] to 0 now that the hard part is cheaper (serg +72 % and +55 % instructions,
//! 17-clue +2 % and +8 %, the others unchanged); a jump table over a bit mask of the changed
//! boards, each entry the update specialised to its board (1.5 times the instructions, 18 %
//! slower); the digit-wise test in the hard part (2-4 % slower); a `-C target-cpu=native`
//! build (the same CPU time).
//!
//! Where the rest of the gap to tdoku is (2026-12-02, cachegrind's branch model, whole
//! processes on hardest_1106, tdoku built without AVX-512): this command 193 M instructions,
//! 15.2 M conditional branches, 1.69 M mispredicted; tdoku 197 M, 5.6 M and 0.98 M. In the
//! solver alone (`profile_ours`, the same data) 1.24 M of its 1.66 M mispredictions are the
//! change tests of the band updates (`cand[i] != seen[i]`: 11 M tests for 1.19 M updates, so
//! about one mispredicted test per board updated: which boards change is not predictable).
//! Cutting that takes fewer, larger units of work per branch (tdoku updates whole bands in
//! vector registers with no test at all), not a reordering of the tests. Tried and left out
//! this time, measured with `profile_ours` (cachegrind for instructions and mispredictions,
//! paired CPU times for the ratio):
//!
//! - the hard part's tests in band order (a band's nine boards, then the next band) instead
//!   of digit order: mispredictions 1.66 M -> 2.02 M, instructions +1 %;
//! - placing a naked single without looking for its digit (the nine boards of the band
//!   masked without a branch): instructions +1.8 %, mispredictions -6 %, CPU time the
//!   same (hardest_1106 1.00, top1465 1.01);
//! - ending a pass of band updates on one OR of all 27 `cand ^ seen` (vectorised) tested
//!   before the pass instead of the flag set by the updates: instructions +3 %,
//!   mispredictions -4 %, CPU time hardest_1106 1.01, top1465 1.03;
//! - [`HARD_AFTER`] at 8 again, in CPU time: top1465 1.00, serg 1.035; [`HARD_OPEN`] at 44:
//!   top1465 0.99, serg 1.28.
//! - (2026-12-02, later) in the hard part, one test per band (an OR of its nine
//!   `cand ^ seen`) and, when one differs, all nine boards updated with no further test: a
//!   first step toward whole-band updates. `profile_ours`, one pass under cachegrind
//!   (`--branch-sim=yes`, the process including the dataset loading): hardest_1106 325 M ->
//!   533 M instructions, 3.47 M -> 2.75 M mispredicted; top1465 207 M -> 284 M, 2.51 M ->
//!   2.19 M; CPU time (20 passes of hardest_1106, `taskset -c 0`, three paired runs) 0.50 s
//!   -> 0.97 s. A mispredicted test saved costs far less than the eight updates added:
//!   a whole-band update pays only if it costs about one scalar board update, i.e. all nine
//!   digits in vector lanes (the segment patterns by shifts and masks, not `SEG3` look-ups).
//!   Counted out for SSE2 (the baseline target, no AVX2): the rule of the permutations by
//!   shifts and masks is about 35 operations on a register of four digits, the whole update
//!   about 110, so about 330 for a band's nine digits in three registers, about seven scalar
//!   updates, where a pass updates about four of its 27 boards: not tried.
//! - (2026-12-02, issue 15; `profile_ours` one pass under cachegrind, the dataset loading
//!   subtracted, against the segment patterns gathered by multiplication below: hardest_1106
//!   184.2 M instructions and 1.68 M mispredicted, top1465 70.6 M and 0.73 M) the layout
//!   branch on the digit and unit with the fewest layouts of all (ties to the unit with the
//!   fewest in all) instead of tdoku's unit first: 242.1 M and 2.27 M, 85.2 M and 0.92 M
//!   (measured against the earlier 191.3 M and 73.8 M: +26 %, +15 %); a bivalue cell when the
//!   chosen digit has three layouts or more: 191.8 M and 1.77 M, 72.0 M and 0.76 M; the
//!   choice of unit and digit as a branch-free minimum of keys (vector lanes): 185.9 M and
//!   1.70 M, 71.1 M and 0.74 M.
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
//! 17-clue puzzles take 2 ms: this case is rare, but at the top of the tree). In the hard
//! part the layout branch comes first (see above). Each alternative but the last runs on a
//! copy of the state (228 bytes, 372 with shapes); the last one reuses it. The search
//! stops once `limit` solutions are counted, so an empty grid with `limit = 2` takes
//! microseconds. A solution is kept as its boards and turned into a grid only when asked for,
//! so counting pays nothing for it.
//!
//! The benchmark crate `sudoku-machine/bench` compares this solver with the `sudoku` crate
//! (`examples/ratio.rs` and `examples/ratio_chunks.rs` for wall time, `icount.sh` for
//! instructions per puzzle).

mod bands;
mod branch;
mod clashes;
mod deduce;
mod tables;

use bands::{Record, Shapes, State};
pub use clashes::{clashes, Clash, House};

use crate::datamodel::Grid;

/// How many cells with two candidates of each band [`State::busiest_pair`] compares at most
/// (the first ones of the band). Scoring every pair finds 5-7% fewer search nodes on the
/// hard collections than the first two of each band, but easy puzzles (the serg benchmark)
/// stall with about nine pairs and gain nothing from the choice, so every pair scored is pure
/// cost there. Two per band measured better than the first five overall (fewer nodes for
/// as many pairs scored): it looks at every band.
const SCORED_PAIRS: u32 = 2;

/// After how many guesses a search is a hard one: from then on a stall runs
/// [`State::deduce`] and the search branches on layouts ([`State::layout_branch`]). The serg
/// benchmark's puzzles (several solutions) end in about six guesses and lose time to both:
/// at 8 they cost it 5 % more instructions (`callgrind`), at 16 nothing. The hard
/// collections turn hard at their first stall ([`HARD_OPEN`]): 16, 32 or never here makes no
/// difference to them.
const HARD_AFTER: usize = 16;

/// How many undecided cells at the first stall make a search hard from the start (see
/// [`HARD_AFTER`]). At the first stall the puzzles of the hard collections have 50 to 60
/// cells open (10th and 90th percentiles), the serg benchmark's 41 to 46, the 17-clue list's
/// 21 to 56; the hard part of a search pays off most at the top of the tree, where a guess
/// multiplies the work below it.
const HARD_OPEN: u32 = 48;

/// A branch ended: some cell, row, column or box has no place left for a digit.
struct Contradiction;

/// What propagation left to do.
enum Next {
    /// Every cell is decided.
    Solved,
    /// Branch on this cell: band `b`, bit `x` of the band (a single-bit mask).
    Cell { b: usize, x: u32 },
    /// Branch on digit `d`'s layout in unit `u` (bands 0..3, stacks 3..6): one alternative
    /// per permutation in `perms` (a set of indices into [`tables::PERMUTATIONS`], at least
    /// two).
    Layout { d: usize, u: usize, perms: u32 },
}

/// What a stall of the search does once the band updates and naked singles have done all
/// they can, before it falls back on a cell: nothing in the easy part of a search, the
/// deductions and the layout branch in the hard part (`X = Shapes`).
trait Stall: Record {
    /// Whether this is the easy part of a search, which turns hard after [`HARD_AFTER`]
    /// guesses.
    const EASY: bool;
    /// `Ok(None)` to branch on a cell; `Ok(Some(None))` when a board changed (propagation goes
    /// on); `Ok(Some(Some(next)))` to branch there.
    fn stall(state: &mut State<Self>) -> Result<Option<Option<Next>>, Contradiction>;
}

impl Stall for () {
    const EASY: bool = true;
    #[inline(always)]
    fn stall(_: &mut State) -> Result<Option<Option<Next>>, Contradiction> {
        Ok(None)
    }
}

impl Stall for Shapes {
    const EASY: bool = false;
    #[inline(always)]
    fn stall(state: &mut State<Shapes>) -> Result<Option<Option<Next>>, Contradiction> {
        if state.deduce()? {
            return Ok(Some(None));
        }
        Ok(state.layout_branch().map(Some))
    }
}

impl<X: Stall> State<X> {
    /// Propagates to a fixed point; returns whether the grid is full or where to branch (see
    /// [`Stall`] for what a stall tries before a cell).
    #[inline]
    fn propagate(&mut self) -> Result<Next, Contradiction> {
        loop {
            self.update_all()?;
            if self.unsolved == [0; 3] {
                return Ok(Next::Solved);
            }
            let singles = self.naked_singles()?;
            if singles.placed {
                continue;
            }
            match X::stall(self)? {
                Some(None) => continue,
                Some(Some(next)) => return Ok(next),
                None => {}
            }
            if singles.pairs != [0; 3] {
                return Ok(self.busiest_pair(singles.pairs, SCORED_PAIRS));
            }
            return Ok(self.fewest_candidates());
        }
    }
}

/// What a search has found so far.
struct Found {
    count: usize,
    /// The branch points so far (each cell or layout guessed on counts once).
    guesses: usize,
    /// Whether the search has turned hard (see [`HARD_AFTER`] and [`HARD_OPEN`]).
    hard: bool,
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

/// Goes on with the search of `state` in its hard part (see [`HARD_AFTER`]): kept out of line
/// so that the easy search's code is not shaped by it.
#[cold]
#[inline(never)]
fn harden<X: Record>(state: &State<X>, found: &mut Found) {
    search(&mut state.with_shapes(), found);
}

/// Depth-first search from `state`, stopping once `found.limit` solutions are counted. Every
/// alternative of a guess but the last runs on a copy of the state; the last one continues on
/// this one.
fn search<X: Stall>(state: &mut State<X>, found: &mut Found) {
    loop {
        if X::EASY && found.hard {
            return harden(state, found);
        }
        match state.propagate() {
            Err(Contradiction) => return,
            Ok(Next::Solved) => {
                found.count += 1;
                if found.first.is_none() {
                    found.first = Some(state.cand);
                }
                return;
            }
            Ok(Next::Cell { b, x }) => {
                if X::EASY && found.guesses == 0 && state.open_cells() >= HARD_OPEN {
                    // A puzzle this open at its first stall is a hard one from the start.
                    found.hard = true;
                    return harden(state, found);
                }
                // (`min(2)` keeps `b` as it is and lets the compiler drop the bounds checks.)
                let b = b.min(2);
                let mut digits: u32 = 0;
                for d in 0..9 {
                    digits |= u32::from(state.cand[3 * d + b] & x != 0) << d;
                }
                found.guesses += 1;
                found.hard |= found.guesses >= HARD_AFTER;
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
            Ok(Next::Layout { d, u, mut perms }) => {
                let d = d.min(8);
                found.guesses += 1;
                while perms & (perms - 1) != 0 {
                    let masks = State::layout_masks(u, perms.trailing_zeros() as usize);
                    perms &= perms - 1;
                    let mut child = *state;
                    for (b, mask) in masks.iter().enumerate() {
                        child.cand[3 * d + b] &= mask;
                    }
                    search(&mut child, found);
                    if found.count >= found.limit {
                        return;
                    }
                }
                let masks = State::layout_masks(u, perms.trailing_zeros() as usize);
                for (b, mask) in masks.iter().enumerate() {
                    state.cand[3 * d + b] &= mask;
                }
            }
        }
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
        hard: false,
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
    use super::tables::*;
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
        for m in (0..BAND).step_by(9973).chain([BAND, 0o700_070_007]) {
            let rows = SEG3[(m & 511) as usize]
                | SEG3[((m >> 9) & 511) as usize] << 3
                | SEG3[((m >> 18) & 511) as usize] << 6;
            assert_eq!(segments(m), transposed(rows as usize), "{m:o}");
            assert_eq!(
                u32::from(SHRUNK[segments(m)]),
                u32::from(SHRINK[rows as usize])
            );
        }
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
        let mut s = State::from_givens(&Grid::default()).unwrap().with_shapes();
        s.cand[1] &= !COLUMNS_TO_BAND;
        s.cand[2] &= !COLUMNS_TO_BAND;
        assert!(s.update_all().is_ok());
        assert!(matches!(s.deduce(), Ok(true)));
        assert_eq!(s.cand[0] & (0b111 * COLUMNS_TO_BAND), COLUMNS_TO_BAND);
        assert_eq!(
            s.cand[0] | (0b111 * COLUMNS_TO_BAND),
            BAND,
            "the other boxes keep it"
        );
        assert_eq!(s.cand[3], BAND, "the other digits keep theirs");
        assert!(s.update_all().is_ok());
        assert!(matches!(s.deduce(), Ok(false)), "nothing more to claim");
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
