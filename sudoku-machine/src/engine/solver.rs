//! A backtracking solver over per-cell candidate masks: singles and locked-candidates
//! propagation, then two-way or minimum-remaining-values branching.
//!
//! Digit `d` is bit `d - 1` of a `u16` mask; [`ALL`] is the nine digits. Each empty cell keeps
//! the mask of digits no peer holds. Placing a digit removes it from the cell's 20 peers; a peer
//! left with one candidate is queued as a naked single, one left with none ends the branch. The
//! board is small (about 250 bytes), so each branch works on its own copy and nothing is undone.

use crate::datamodel::Grid;

/// The mask of all nine digits.
const ALL: u16 = 0x1FF;

/// The 27 houses as cell indices (`row * 9 + column`): rows, then columns, then boxes.
const HOUSES: [[u8; 9]; 27] = {
    let mut houses = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            houses[i][j] = (i * 9 + j) as u8;
            houses[9 + i][j] = (j * 9 + i) as u8;
            houses[18 + i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    houses
};

/// The 20 peers of each cell: the other cells of its row, column and box.
const PEERS: [[u8; 20]; 81] = {
    let mut peers = [[0u8; 20]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        let mut other = 0;
        while other < 81 {
            let (r2, c2) = (other / 9, other % 9);
            let same_box = r / 3 == r2 / 3 && c / 3 == c2 / 3;
            if other != cell && (r == r2 || c == c2 || same_box) {
                peers[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
};

/// The mask bit of a digit `1..=9`.
const fn bit(digit: u8) -> u16 {
    1 << (digit - 1)
}

/// A branch ended: a cell has no candidate, or a digit has no place in a house.
struct Contradiction;

/// Cells whose candidates went down to one, waiting to be filled.
struct Singles {
    cells: [u8; 81],
    len: usize,
}

impl Singles {
    fn new() -> Self {
        Singles {
            cells: [0; 81],
            len: 0,
        }
    }

    fn push(&mut self, cell: usize) {
        // A cell is queued at most once (when it goes from two candidates to one), so 81 slots
        // suffice; `min` only keeps an impossible overflow from panicking.
        self.cells[self.len.min(80)] = cell as u8;
        self.len = (self.len + 1).min(81);
    }

    fn pop(&mut self) -> Option<usize> {
        self.len = self.len.checked_sub(1)?;
        Some(usize::from(self.cells[self.len]))
    }
}

/// A partly filled grid with the candidates of its empty cells.
#[derive(Clone, Copy)]
struct Board {
    /// `0` for empty, else the digit, indexed `row * 9 + column`.
    cells: [u8; 81],
    /// The digits each empty cell can still take; `0` for a filled cell.
    candidates: [u16; 81],
    /// How many cells hold a digit.
    filled: u8,
}

/// What the search tries next, one child board per alternative.
enum Branch {
    /// Each candidate of this cell.
    Cell(usize),
    /// Each cell of `HOUSES[house]` where the single-bit mask `digit` fits.
    Digit { house: usize, digit: u16 },
}

impl Board {
    /// The board of a grid's givens with its pending singles, or `None` when the givens have no
    /// solution for a reason seen at once: two givens clash, a value is above 9, or a cell is
    /// left without candidates.
    fn from_givens(givens: &Grid) -> Option<(Board, Singles)> {
        let mut board = Board {
            cells: [0; 81],
            candidates: [ALL; 81],
            filled: 0,
        };
        let mut singles = Singles::new();
        for (i, &d) in givens.0.iter().flatten().enumerate() {
            match d {
                0 => {}
                // A given missing from its own cell's candidates repeats a peer's given.
                1..=9 if board.candidates[i] & bit(d) != 0 => {
                    board.assign(i, bit(d), &mut singles).ok()?
                }
                _ => return None,
            }
        }
        Some((board, singles))
    }

    /// Puts the single-bit mask `digit` in the empty cell `i` and removes it from the peers,
    /// queueing the peers it leaves with one candidate.
    fn assign(&mut self, i: usize, digit: u16, singles: &mut Singles) -> Result<(), Contradiction> {
        self.cells[i] = digit.trailing_zeros() as u8 + 1;
        self.candidates[i] = 0;
        self.filled += 1;
        for &peer in &PEERS[i] {
            let peer = usize::from(peer);
            let before = self.candidates[peer];
            if before & digit != 0 {
                let after = before & !digit;
                self.candidates[peer] = after;
                match after.count_ones() {
                    0 => return Err(Contradiction),
                    1 => singles.push(peer),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Fills the queued singles, then every naked and hidden single until none is left.
    /// Returns what to branch on, or `None` when the grid is full.
    fn propagate(&mut self, singles: &mut Singles) -> Result<Option<Branch>, Contradiction> {
        loop {
            // Naked singles.
            while let Some(i) = singles.pop() {
                if self.cells[i] == 0 {
                    self.assign(i, self.candidates[i], singles)?;
                }
            }
            if self.filled == 81 {
                return Ok(None);
            }

            // Hidden singles: a digit that fits only one cell of a house. Filled cells have no
            // candidates and their digits are gone from their peers, so a house's digits are
            // `placed` plus those of `once`, and every digit must be one or the other.
            let mut progress = false;
            let mut pair = None;
            for (h, house) in HOUSES.iter().enumerate() {
                let (mut once, mut twice, mut thrice, mut placed) = (0u16, 0u16, 0u16, 0u16);
                for &i in house {
                    let i = usize::from(i);
                    let c = self.candidates[i];
                    thrice |= twice & c;
                    twice |= once & c;
                    once |= c;
                    if self.cells[i] != 0 {
                        placed |= bit(self.cells[i]);
                    }
                }
                if once | placed != ALL {
                    return Err(Contradiction);
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let digit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    // An earlier single of this house may have taken the only cell.
                    let cell = house
                        .iter()
                        .map(|&i| usize::from(i))
                        .find(|&i| self.candidates[i] & digit != 0);
                    let Some(i) = cell else {
                        return Err(Contradiction);
                    };
                    self.assign(i, digit, singles)?;
                    progress = true;
                }
                let pairs = twice & !thrice;
                if pair.is_none() && pairs != 0 {
                    pair = Some(Branch::Digit {
                        house: h,
                        digit: pairs & pairs.wrapping_neg(),
                    });
                }
            }
            if progress || self.locked_candidates(singles)? {
                continue;
            }

            // Nothing more to fill: a two-way branch is best, a cell with two candidates or a
            // digit with two places in a house, else the cell with the fewest candidates.
            let mut best: Option<(usize, u32)> = None;
            for (i, &c) in self.candidates.iter().enumerate() {
                if self.cells[i] == 0 {
                    let n = c.count_ones();
                    if best.map_or(u32::MAX, |(_, fewest)| fewest) > n {
                        best = Some((i, n));
                        if n == 2 {
                            break;
                        }
                    }
                }
            }
            return Ok(match best {
                Some((i, 2)) => Some(Branch::Cell(i)),
                Some((i, _)) => pair.or(Some(Branch::Cell(i))),
                None => pair,
            });
        }
    }
}

impl Board {
    /// Removes the digits of `mask` from the empty cell `i`, queueing it when one candidate
    /// is left. Returns whether anything was removed.
    fn eliminate(
        &mut self,
        i: usize,
        mask: u16,
        singles: &mut Singles,
    ) -> Result<bool, Contradiction> {
        let before = self.candidates[i];
        if before & mask == 0 {
            return Ok(false);
        }
        let after = before & !mask;
        self.candidates[i] = after;
        match after.count_ones() {
            0 => Err(Contradiction),
            1 => {
                singles.push(i);
                Ok(true)
            }
            _ => Ok(true),
        }
    }

    /// Locked candidates, for rows and columns alike. Where a line crosses a box, the three
    /// shared cells form a segment. A digit of a segment that the box holds nowhere else must be
    /// in that segment, so it leaves the rest of the line ("pointing"); one that the line holds
    /// nowhere else leaves the rest of the box ("claiming"). Returns whether any candidate went.
    fn locked_candidates(&mut self, singles: &mut Singles) -> Result<bool, Contradiction> {
        let mut changed = false;
        // `cell(line, k)` is the k-th cell of a row (or, transposed, of a column).
        for transposed in [false, true] {
            let cell = |line: usize, k: usize| {
                if transposed {
                    k * 9 + line
                } else {
                    line * 9 + k
                }
            };
            // segments[line][s]: candidates of cells 3s..3s+3 of the line.
            let mut segments = [[0u16; 3]; 9];
            for (line, segment) in segments.iter_mut().enumerate() {
                for (s, mask) in segment.iter_mut().enumerate() {
                    *mask = (3 * s..3 * s + 3).fold(0, |m, k| m | self.candidates[cell(line, k)]);
                }
            }
            for line in 0..9 {
                let band = line / 3 * 3;
                for s in 0..3 {
                    let here = segments[line][s];
                    let [a, b] = [(s + 1) % 3, (s + 2) % 3];
                    // Pointing: only in this segment within the box.
                    let [l1, l2] = [band + (line + 1) % 3, band + (line + 2) % 3];
                    let pointing = here & !(segments[l1][s] | segments[l2][s]);
                    // Claiming: only in this segment within the line.
                    let claiming = here & !(segments[line][a] | segments[line][b]);
                    if pointing != 0 {
                        for k in (3 * a..3 * a + 3).chain(3 * b..3 * b + 3) {
                            changed |= self.eliminate(cell(line, k), pointing, singles)?;
                        }
                    }
                    if claiming != 0 {
                        for other in [l1, l2] {
                            for k in 3 * s..3 * s + 3 {
                                changed |= self.eliminate(cell(other, k), claiming, singles)?;
                            }
                        }
                    }
                }
            }
            if changed {
                // The segments are stale now; let the singles run first.
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// What a search has found so far.
struct Found {
    count: usize,
    limit: usize,
    first: Option<Board>,
}

/// Depth-first search from `board` with its pending `singles`, stopping once `found.limit`
/// solutions are counted.
fn search(mut board: Board, mut singles: Singles, found: &mut Found) {
    let Ok(next) = board.propagate(&mut singles) else {
        return;
    };
    // Tries `digit` in cell `i` on a copy; true when the search is done.
    let mut try_child = |i: usize, digit: u16| {
        let mut child = board;
        let mut singles = Singles::new();
        if child.assign(i, digit, &mut singles).is_ok() {
            search(child, singles, found);
        }
        found.count >= found.limit
    };
    match next {
        None => {
            found.count += 1;
            found.first.get_or_insert(board);
        }
        Some(Branch::Cell(i)) => {
            let mut candidates = board.candidates[i];
            while candidates != 0 {
                let digit = candidates & candidates.wrapping_neg();
                candidates &= candidates - 1;
                if try_child(i, digit) {
                    return;
                }
            }
        }
        Some(Branch::Digit { house, digit }) => {
            for &i in &HOUSES[house] {
                let i = usize::from(i);
                if board.candidates[i] & digit != 0 && try_child(i, digit) {
                    return;
                }
            }
        }
    }
}

/// Runs the search; `None` when the givens have no solution at first sight or `limit` is 0.
fn run(givens: &Grid, limit: usize) -> Option<Found> {
    if limit == 0 {
        return None;
    }
    let (board, singles) = Board::from_givens(givens)?;
    let mut found = Found {
        count: 0,
        limit,
        first: None,
    };
    search(board, singles, &mut found);
    Some(found)
}

/// Counts the solutions of `givens`, stopping at `limit`: the result is `min(solutions, limit)`.
///
/// `count_solutions(g, 2) == 1` is the uniqueness test. Givens that clash (the same digit twice
/// in a row, column or box) or hold a value above 9 have no solution and give 0, as does
/// `limit == 0`. The hardest puzzles of the public collections take about a millisecond or less
/// in a release build, and sparse grids (even an empty one) are quick for small limits, since
/// the search stops at `limit`.
pub fn count_solutions(givens: &Grid, limit: usize) -> usize {
    run(givens, limit).map_or(0, |found| found.count)
}

/// A solution of `givens`, or `None` when there is none (including clashing givens).
///
/// When the puzzle has several solutions this returns the first one the search finds; use
/// [`count_solutions`] to know whether it is the only one.
pub fn solve(givens: &Grid) -> Option<Grid> {
    let board = run(givens, 1)?.first?;
    Some(Grid(std::array::from_fn(|r| {
        std::array::from_fn(|c| board.cells[r * 9 + c])
    })))
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
    fn houses_cover_each_cell_three_times() {
        let mut seen = [0; 81];
        for house in &HOUSES {
            for &i in house {
                seen[usize::from(i)] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 3));
        assert_eq!(HOUSES[18 + 4], [30, 31, 32, 39, 40, 41, 48, 49, 50]);
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let empty = Grid::default();
        assert_eq!(count_solutions(&empty, 2), 2);
        assert_eq!(count_solutions(&empty, 100), 100);
        assert_completes(&empty, &solve(&empty).unwrap());
    }

    #[test]
    fn seventeen_clues_are_unique() {
        let g = grid(SEVENTEEN);
        assert_eq!(count_solutions(&g, 2), 1);
        let s = solve(&g).unwrap();
        assert_completes(&g, &s);
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
        let mut g = Grid::default();
        g.0[4][4] = 10;
        assert_eq!(count_solutions(&g, 2), 0);
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
    }
}
