//! The search as a stream of steps, for the animated solve.
//!
//! [`trace`] runs its own small solver, separate from the bitboard one of `solver.rs`, so the
//! plain [`solve`](super::solve) path carries no tracing cost at all (not even a branch on a
//! flag). This one keeps a 9-bit candidate mask per cell, which maps one to one onto the steps
//! a player can watch: placing a digit removes it from the cell's 20 peers (one
//! [`TraceStep::Eliminate`] each), a cell left with one candidate is a naked single, a digit
//! left with one cell in a house is a hidden single, and a digit confined to where a line
//! crosses a box leaves the rest of the line or box (locked candidates). When nothing applies
//! it guesses on the cell with the fewest candidates (minimum remaining values), trying its
//! digits in increasing order, and backtracks when a branch reaches a contradiction; each
//! contradiction is a [`TraceStep::DeadEnd`] saying where (a cell without candidates, a digit
//! without a place in a house, or two equal digits in a house).
//!
//! The iterator is lazy: each call to `next` does at most one guess and its propagation
//! (a few hundred steps at most, buffered), so a UI can pull steps at its own pace. It ends
//! after [`TraceStep::Solved`] (the first solution found) or [`TraceStep::Failed`].

use std::collections::VecDeque;

use super::solver::House;
use crate::datamodel::Grid;

/// The mask of all nine digits (digit `d` is bit `d - 1`).
const ALL: u16 = 0x1FF;

use super::techniques::HOUSES;

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

/// Why a digit was placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementReason {
    /// A given of the puzzle.
    Given,
    /// The cell had one candidate left.
    NakedSingle,
    /// The digit had one cell left in this house.
    HiddenSingle(House),
    /// A guess of the search (it follows the [`TraceStep::Guess`] that announces it).
    Guess,
}

/// Why a candidate was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EliminationReason {
    /// The digit was placed in this peer cell, `(row, column)` from 0.
    Peer((usize, usize)),
    /// In this house the digit is confined to where a row or column crosses a box, so the
    /// rest of the other house loses it: the house is the box for "pointing" and the row or
    /// column for "claiming".
    LockedCandidates(House),
}

/// Where a branch of the search (or the position itself) ran into a contradiction. Cells are
/// `(row, column)`, numbered from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadEnd {
    /// The empty cell has no candidate left.
    NoCandidate((usize, usize)),
    /// The digit has no place left in the house.
    NoPlace {
        /// The digit.
        digit: u8,
        /// The house.
        house: House,
    },
    /// The cell holds the digit that its peer holds too (digits of the searched position).
    Clash {
        /// The later cell in reading order.
        cell: (usize, usize),
        /// The earlier one.
        peer: (usize, usize),
        /// The digit.
        digit: u8,
    },
}

/// One step of the traced search. Cells are `(row, column)`, numbered from 0; digits `1..=9`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceStep {
    /// A digit goes into an empty cell.
    Place {
        /// The cell.
        cell: (usize, usize),
        /// The digit.
        digit: u8,
        /// Why.
        reason: PlacementReason,
    },
    /// A candidate leaves a cell.
    Eliminate {
        /// The cell.
        cell: (usize, usize),
        /// The candidate removed.
        digit: u8,
        /// Why.
        reason: EliminationReason,
    },
    /// The search tries a digit in a cell with several candidates; a `Place` with
    /// [`PlacementReason::Guess`] follows.
    Guess {
        /// The cell (one with the fewest candidates).
        cell: (usize, usize),
        /// The digit tried.
        digit: u8,
        /// How many guesses were open before this one (0 for the first level).
        depth: usize,
    },
    /// The guess `digit` in `cell` led to a contradiction and is undone, together with every
    /// step since it.
    Backtrack {
        /// The cell of the undone guess.
        cell: (usize, usize),
        /// The digit of the undone guess.
        digit: u8,
        /// Its depth, as in [`TraceStep::Guess`].
        depth: usize,
        /// The grid as it was just before the guess (givens and placed digits), to redraw.
        grid: Grid,
    },
    /// The branch (or, with no guess open, the position) reached a contradiction here; a
    /// `Backtrack` or `Failed` follows.
    DeadEnd(DeadEnd),
    /// The grid is complete: the first solution found. The last step.
    Solved(Grid),
    /// The givens have no solution (or clash, or hold a value above 9). The last step.
    Failed,
}

impl TraceStep {
    /// Applies the step to a displayed grid, the way an animation redraws it: a placement
    /// fills its cell, a backtrack restores the grid from before the guess, `Solved` shows the
    /// solution; eliminations, guesses and `Failed` leave the digits as they are.
    pub fn apply(&self, grid: &mut Grid) {
        match self {
            TraceStep::Place {
                cell: (r, c),
                digit,
                ..
            } => grid.0[*r][*c] = *digit,
            TraceStep::Backtrack { grid: before, .. } => *grid = *before,
            TraceStep::Solved(solution) => *grid = *solution,
            TraceStep::Eliminate { .. }
            | TraceStep::Guess { .. }
            | TraceStep::DeadEnd(_)
            | TraceStep::Failed => {}
        }
    }
}

impl std::fmt::Display for TraceStep {
    /// One line per step, as `sudoku solve --trace` prints it and the animation shows it;
    /// cells are 1-based (`r4c7`):
    ///
    /// ```text
    /// place r1c1=4 (hidden single in box 1)
    /// eliminate r1c2<>4 (peer r1c1)
    /// guess r4c4=3 (level 1)
    /// dead end r2c5 (no candidate left)
    /// backtrack r4c4=3 (level 1)
    /// solved
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cell = |(r, c): (usize, usize)| format!("r{}c{}", r + 1, c + 1);
        match self {
            TraceStep::Place {
                cell: at,
                digit,
                reason,
            } => {
                write!(f, "place {}={digit} (", cell(*at))?;
                match reason {
                    PlacementReason::Given => write!(f, "given)"),
                    PlacementReason::NakedSingle => write!(f, "naked single)"),
                    PlacementReason::HiddenSingle(house) => write!(f, "hidden single in {house})"),
                    PlacementReason::Guess => write!(f, "guess)"),
                }
            }
            TraceStep::Eliminate {
                cell: at,
                digit,
                reason,
            } => {
                write!(f, "eliminate {}<>{digit} (", cell(*at))?;
                match reason {
                    EliminationReason::Peer(peer) => write!(f, "peer {})", cell(*peer)),
                    EliminationReason::LockedCandidates(house) => {
                        write!(f, "locked candidates in {house})")
                    }
                }
            }
            TraceStep::Guess {
                cell: at,
                digit,
                depth,
            } => write!(f, "guess {}={digit} (level {})", cell(*at), depth + 1),
            TraceStep::Backtrack {
                cell: at,
                digit,
                depth,
                ..
            } => write!(f, "backtrack {}={digit} (level {})", cell(*at), depth + 1),
            TraceStep::DeadEnd(DeadEnd::NoCandidate(at)) => {
                write!(f, "dead end {} (no candidate left)", cell(*at))
            }
            TraceStep::DeadEnd(DeadEnd::NoPlace { digit, house }) => {
                write!(f, "dead end {digit} (no place left in {house})")
            }
            TraceStep::DeadEnd(DeadEnd::Clash {
                cell: at,
                peer,
                digit,
            }) => {
                write!(
                    f,
                    "dead end {}={digit} (also in {})",
                    cell(*at),
                    cell(*peer)
                )
            }
            TraceStep::Solved(_) => write!(f, "solved"),
            TraceStep::Failed => write!(f, "failed"),
        }
    }
}

/// The cell coordinates of a cell index.
fn rc(i: usize) -> (usize, usize) {
    (i / 9, i % 9)
}

/// The house of an index into [`HOUSES`].
fn house(h: usize) -> House {
    match h {
        0..=8 => House::Row(h as u8),
        9..=17 => House::Column((h - 9) as u8),
        _ => House::Box((h - 18) as u8),
    }
}

/// A branch ended, and where.
struct Contradiction(DeadEnd);

/// A partly filled grid with the candidates of its empty cells.
#[derive(Clone, Copy)]
struct Board {
    /// `0` for empty, else the digit, indexed `row * 9 + column`.
    cells: [u8; 81],
    /// The digits each empty cell can still take; `0` for a filled cell.
    candidates: [u16; 81],
}

/// The result of propagation.
enum Next {
    Solved,
    Branch(usize),
}

impl Board {
    fn grid(&self) -> Grid {
        Grid(std::array::from_fn(|r| {
            std::array::from_fn(|c| self.cells[r * 9 + c])
        }))
    }

    /// The peer of `i` holding `digit`, if any.
    fn holder(&self, i: usize, digit: u8) -> Option<usize> {
        PEERS[i]
            .iter()
            .map(|&p| usize::from(p))
            .find(|&p| self.cells[p] == digit)
    }

    /// A digit of the searched position: placed with its eliminations as [`Board::assign`]
    /// does, but a peer left without candidates does not stop it (every given is placed
    /// before the position is judged). A digit that a peer holds already is placed too (its
    /// other peers lose it) and returned as a clash.
    fn place_given(
        &mut self,
        i: usize,
        digit: u8,
        out: &mut VecDeque<TraceStep>,
    ) -> Option<DeadEnd> {
        let clash = self.holder(i, digit).map(|peer| DeadEnd::Clash {
            cell: rc(i),
            peer: rc(peer),
            digit,
        });
        self.place(i, digit, PlacementReason::Given, out);
        clash
    }

    /// Places `digit` in the empty cell `i` and removes it from the peers, step by step.
    fn assign(
        &mut self,
        i: usize,
        digit: u8,
        reason: PlacementReason,
        out: &mut VecDeque<TraceStep>,
    ) -> Result<(), Contradiction> {
        let bit = 1u16 << (digit - 1);
        if self.cells[i] != 0 || self.candidates[i] & bit == 0 {
            // Singles and guesses take their digit from the candidates: not reached.
            return Err(Contradiction(match self.holder(i, digit) {
                Some(peer) => DeadEnd::Clash {
                    cell: rc(i),
                    peer: rc(peer),
                    digit,
                },
                None => DeadEnd::NoCandidate(rc(i)),
            }));
        }
        match self.place(i, digit, reason, out) {
            Some(peer) => Err(Contradiction(DeadEnd::NoCandidate(rc(peer)))),
            None => Ok(()),
        }
    }

    /// Puts `digit` in cell `i` and removes it from the peers, one step each; returns the
    /// first peer left without candidates (the eliminations stop there).
    fn place(
        &mut self,
        i: usize,
        digit: u8,
        reason: PlacementReason,
        out: &mut VecDeque<TraceStep>,
    ) -> Option<usize> {
        let bit = 1u16 << (digit - 1);
        let stop_at_empty = reason != PlacementReason::Given;
        let mut emptied = None;
        self.cells[i] = digit;
        self.candidates[i] = 0;
        out.push_back(TraceStep::Place {
            cell: rc(i),
            digit,
            reason,
        });
        for &peer in &PEERS[i] {
            let peer = usize::from(peer);
            if self.candidates[peer] & bit != 0 {
                self.candidates[peer] &= !bit;
                out.push_back(TraceStep::Eliminate {
                    cell: rc(peer),
                    digit,
                    reason: EliminationReason::Peer(rc(i)),
                });
                if self.candidates[peer] == 0 && emptied.is_none() {
                    emptied = Some(peer);
                    if stop_at_empty {
                        break;
                    }
                }
            }
        }
        emptied
    }

    /// Singles and locked candidates to a fixed point.
    fn propagate(&mut self, out: &mut VecDeque<TraceStep>) -> Result<Next, Contradiction> {
        'outer: loop {
            // Naked singles, one at a time in reading order.
            if let Some(i) = (0..81).find(|&i| self.candidates[i].count_ones() == 1) {
                let digit = self.candidates[i].trailing_zeros() as u8 + 1;
                self.assign(i, digit, PlacementReason::NakedSingle, out)?;
                continue;
            }
            if self.cells.iter().all(|&d| d != 0) {
                return Ok(Next::Solved);
            }
            // Hidden singles; a digit with no place in a house is a contradiction.
            for (h, cells) in HOUSES.iter().enumerate() {
                let mut placed = 0u16;
                for &i in cells {
                    let d = self.cells[usize::from(i)];
                    if d != 0 {
                        placed |= 1 << (d - 1);
                    }
                }
                for digit in 1..=9u8 {
                    let bit = 1u16 << (digit - 1);
                    if placed & bit != 0 {
                        continue;
                    }
                    let mut places = cells
                        .iter()
                        .map(|&i| usize::from(i))
                        .filter(|&i| self.candidates[i] & bit != 0);
                    match (places.next(), places.next()) {
                        (None, _) => {
                            return Err(Contradiction(DeadEnd::NoPlace {
                                digit,
                                house: house(h),
                            }))
                        }
                        (Some(i), None) => {
                            self.assign(i, digit, PlacementReason::HiddenSingle(house(h)), out)?;
                            continue 'outer;
                        }
                        _ => {}
                    }
                }
            }
            if self.locked_candidates(out)? {
                continue;
            }
            let best = (0..81)
                .filter(|&i| self.cells[i] == 0)
                .min_by_key(|&i| self.candidates[i].count_ones());
            return Ok(best.map_or(Next::Solved, Next::Branch));
        }
    }

    /// One round of locked candidates: where a box meets a row or column, a digit of the
    /// box (or line) found only in the shared cells leaves the rest of the line (or box).
    fn locked_candidates(&mut self, out: &mut VecDeque<TraceStep>) -> Result<bool, Contradiction> {
        let fold = |candidates: &[u16; 81], cells: &[u8]| {
            cells
                .iter()
                .fold(0u16, |m, &i| m | candidates[usize::from(i)])
        };
        for meet in &MEETS {
            let in_shared = fold(&self.candidates, &meet.shared);
            // Pointing: the box holds these only in the shared cells; claiming: the line does.
            let pointing = in_shared & !fold(&self.candidates, &meet.box_rest);
            let claiming = in_shared & !fold(&self.candidates, &meet.line_rest);
            for (mask, from, to) in [
                (pointing, meet.bx, &meet.line_rest),
                (claiming, meet.line, &meet.box_rest),
            ] {
                let mut changed = false;
                for &i in to {
                    let i = usize::from(i);
                    let hit = self.candidates[i] & mask;
                    if hit == 0 {
                        continue;
                    }
                    changed = true;
                    self.candidates[i] &= !hit;
                    for digit in (1..=9u8).filter(|d| hit & (1 << (d - 1)) != 0) {
                        out.push_back(TraceStep::Eliminate {
                            cell: rc(i),
                            digit,
                            reason: EliminationReason::LockedCandidates(house(from)),
                        });
                    }
                    if self.candidates[i] == 0 {
                        return Err(Contradiction(DeadEnd::NoCandidate(rc(i))));
                    }
                }
                if changed {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// Where a box meets a row or a column: three shared cells, and the six other cells of each.
#[derive(Clone, Copy)]
struct Meet {
    /// The box, as an index into [`HOUSES`].
    bx: usize,
    /// The row or column, as an index into [`HOUSES`].
    line: usize,
    shared: [u8; 3],
    box_rest: [u8; 6],
    line_rest: [u8; 6],
}

/// The 54 meetings of a box with a row or column (each box meets three rows and three
/// columns).
const MEETS: [Meet; 54] = {
    let empty = Meet {
        bx: 0,
        line: 0,
        shared: [0; 3],
        box_rest: [0; 6],
        line_rest: [0; 6],
    };
    let mut meets = [empty; 54];
    let mut n = 0;
    let mut bx = 18;
    while bx < 27 {
        let mut line = 0;
        while line < 18 {
            let mut meet = Meet {
                bx,
                line,
                shared: [0; 3],
                box_rest: [0; 6],
                line_rest: [0; 6],
            };
            let (mut s, mut b, mut l) = (0, 0, 0);
            let mut k = 0;
            while k < 9 {
                let cell = HOUSES[bx][k];
                let mut in_line = false;
                let mut j = 0;
                while j < 9 {
                    in_line |= HOUSES[line][j] == cell;
                    j += 1;
                }
                if in_line {
                    meet.shared[s] = cell;
                    s += 1;
                } else if b < 6 {
                    meet.box_rest[b] = cell;
                    b += 1;
                }
                k += 1;
            }
            if s == 3 {
                let mut j = 0;
                while j < 9 {
                    let cell = HOUSES[line][j];
                    if cell != meet.shared[0] && cell != meet.shared[1] && cell != meet.shared[2] {
                        meet.line_rest[l] = cell;
                        l += 1;
                    }
                    j += 1;
                }
                meets[n] = meet;
                n += 1;
            }
            line += 1;
        }
        bx += 1;
    }
    meets
};

/// An open guess: the board before it, its cell, and the digits not tried yet.
struct Frame {
    board: Board,
    cell: usize,
    untried: u16,
    tried: Option<u8>,
}

/// The steps of a traced search; see the module documentation and [`trace`].
pub struct Trace {
    pending: VecDeque<TraceStep>,
    stack: Vec<Frame>,
    finished: bool,
}

/// The steps of a backtracking search of `givens` (row-major, `0` for empty): first one
/// `Place` per given (with the eliminations it causes), then the propagation and the guesses,
/// ending with [`TraceStep::Solved`] or [`TraceStep::Failed`]. Every given is placed before
/// the position is judged: two equal digits in a house, or an empty cell left without
/// candidates, is then a [`TraceStep::DeadEnd`] before `Failed`.
///
/// Replaying the `Place` steps, and restoring [`TraceStep::Backtrack`]'s grid on each
/// backtrack, ends on the solution. This is a separate, simpler solver than
/// [`solve`](super::solve), so tracing never slows the plain solve.
pub fn trace(givens: &Grid) -> Trace {
    let mut trace = Trace {
        pending: VecDeque::new(),
        stack: Vec::new(),
        finished: true,
    };
    let mut board = Board {
        cells: [0; 81],
        candidates: [ALL; 81],
    };
    let mut clash = None;
    for (i, &v) in givens.0.iter().flatten().enumerate() {
        match v {
            0 => {}
            1..=9 => {
                if let Some(c) = board.place_given(i, v, &mut trace.pending) {
                    clash.get_or_insert(c);
                }
            }
            _ => {
                trace.pending.push_back(TraceStep::Failed);
                return trace;
            }
        }
    }
    let dead = clash.or_else(|| {
        (0..81)
            .find(|&i| board.cells[i] == 0 && board.candidates[i] == 0)
            .map(|i| DeadEnd::NoCandidate(rc(i)))
    });
    if let Some(dead) = dead {
        trace.pending.push_back(TraceStep::DeadEnd(dead));
        trace.pending.push_back(TraceStep::Failed);
        return trace;
    }
    match board.propagate(&mut trace.pending) {
        Err(Contradiction(dead)) => {
            trace.pending.push_back(TraceStep::DeadEnd(dead));
            trace.pending.push_back(TraceStep::Failed);
        }
        Ok(Next::Solved) => trace.pending.push_back(TraceStep::Solved(board.grid())),
        Ok(Next::Branch(cell)) => {
            trace.finished = false;
            trace.stack.push(Frame {
                board,
                cell,
                untried: board.candidates[cell],
                tried: None,
            });
        }
    }
    trace
}

impl Trace {
    /// Undoes the last guess of the top frame, if any, and tries its next digit.
    fn advance(&mut self) {
        let depth = self.stack.len().saturating_sub(1);
        let Some(frame) = self.stack.last_mut() else {
            self.finished = true;
            self.pending.push_back(TraceStep::Failed);
            return;
        };
        let cell = rc(frame.cell);
        if let Some(digit) = frame.tried.take() {
            self.pending.push_back(TraceStep::Backtrack {
                cell,
                digit,
                depth,
                grid: frame.board.grid(),
            });
        }
        if frame.untried == 0 {
            self.stack.pop();
            return;
        }
        let digit = frame.untried.trailing_zeros() as u8 + 1;
        frame.untried &= frame.untried - 1;
        frame.tried = Some(digit);
        let mut board = frame.board;
        let i = frame.cell;
        self.pending
            .push_back(TraceStep::Guess { cell, digit, depth });
        let result = board
            .assign(i, digit, PlacementReason::Guess, &mut self.pending)
            .and_then(|()| board.propagate(&mut self.pending));
        match result {
            Err(Contradiction(dead)) => self.pending.push_back(TraceStep::DeadEnd(dead)),
            Ok(Next::Solved) => {
                self.finished = true;
                self.pending.push_back(TraceStep::Solved(board.grid()));
            }
            Ok(Next::Branch(cell)) => self.stack.push(Frame {
                board,
                cell,
                untried: board.candidates[cell],
                tried: None,
            }),
        }
    }
}

impl Trace {
    /// Takes the set-up off the front of the trace: the `Place` of each given with the
    /// eliminations it causes, up to the first step of the search itself (a single, a locked
    /// candidate, a guess, or the end). An animation applies these at once and shows the rest;
    /// `sudoku solve --trace` prints the rest. A grid whose givens clash has no set-up to
    /// skip past its `Failed`.
    pub fn take_setup(&mut self) -> Vec<TraceStep> {
        let mut setup = Vec::new();
        while let Some(step) = self.next() {
            let is_setup = matches!(
                step,
                TraceStep::Place {
                    reason: PlacementReason::Given,
                    ..
                }
            ) || matches!(&step, TraceStep::Eliminate { reason: EliminationReason::Peer((r, c)), .. }
                if setup.iter().any(|s| matches!(s, TraceStep::Place { cell, reason: PlacementReason::Given, .. } if cell == &(*r, *c))));
            if !is_setup {
                self.pending.push_front(step);
                break;
            }
            setup.push(step);
        }
        setup
    }
}

impl Iterator for Trace {
    type Item = TraceStep;

    fn next(&mut self) -> Option<TraceStep> {
        loop {
            if let Some(step) = self.pending.pop_front() {
                return Some(step);
            }
            if self.finished {
                return None;
            }
            self.advance();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse;

    /// Replays a trace; returns the final grid and the number of guesses and backtracks.
    fn replay(givens: &Grid) -> (Option<Grid>, usize, usize) {
        let mut grid = Grid::default();
        let (mut guesses, mut backtracks) = (0, 0);
        for step in trace(givens) {
            match &step {
                TraceStep::Place { cell: (r, c), .. } => {
                    assert_eq!(grid.0[*r][*c], 0, "placed twice");
                }
                TraceStep::Guess { .. } => guesses += 1,
                TraceStep::Backtrack { .. } => backtracks += 1,
                TraceStep::Solved(g) => {
                    assert_eq!(*g, grid, "the replayed grid is the solution");
                    return (Some(*g), guesses, backtracks);
                }
                TraceStep::Failed => return (None, guesses, backtracks),
                TraceStep::Eliminate { .. } | TraceStep::DeadEnd(_) => {}
            }
            step.apply(&mut grid);
        }
        panic!("the trace ended without Solved or Failed");
    }

    #[test]
    fn hard_puzzle_replays_to_its_solution() {
        // From the forum's hardest list: needs guesses and backtracking.
        let g = parse(
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        )
        .unwrap();
        let (solution, guesses, backtracks) = replay(&g);
        assert_eq!(solution, super::super::solve(&g));
        assert!(guesses > 0 && backtracks > 0, "{guesses} {backtracks}");
    }

    #[test]
    fn empty_grid_and_failures() {
        let (solution, _, _) = replay(&Grid::default());
        assert!(crate::datamodel::is_solved(&solution.unwrap()));
        let mut g = Grid::default();
        g.0[0][0] = 5;
        g.0[0][8] = 5;
        assert_eq!(replay(&g).0, None);
        let mut g = Grid::default();
        g.0[0] = [1, 2, 3, 4, 5, 6, 7, 8, 0];
        g.0[5][8] = 9;
        assert_eq!(trace(&g).last(), Some(TraceStep::Failed));
    }

    /// Puzzle 01 with a 2 in r1c1: it breaks no rule, but r1c3 (whose only candidate was 2)
    /// is left without candidates.
    const NO_CANDIDATE_FOR_R1C3: &str =
        "25..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";

    #[test]
    fn a_position_without_solution_is_judged_after_every_digit_is_placed() {
        let g = parse(NO_CANDIDATE_FOR_R1C3).unwrap();
        let mut traced = trace(&g);
        let setup = traced.take_setup();
        let placed = setup
            .iter()
            .filter(|s| matches!(s, TraceStep::Place { .. }))
            .count();
        assert_eq!(placed, g.0.iter().flatten().filter(|&&d| d != 0).count());
        let rest: Vec<TraceStep> = traced.collect();
        assert_eq!(
            rest,
            [
                TraceStep::DeadEnd(DeadEnd::NoCandidate((0, 2))),
                TraceStep::Failed
            ]
        );
        assert_eq!(rest[0].to_string(), "dead end r1c3 (no candidate left)");
    }

    #[test]
    fn a_clash_is_a_dead_end_naming_both_cells() {
        let mut g = Grid::default();
        g.0[0][0] = 5;
        g.0[0][8] = 5;
        g.0[8][8] = 1;
        let mut traced = trace(&g);
        let setup = traced.take_setup();
        assert_eq!(
            setup
                .iter()
                .filter(|s| matches!(s, TraceStep::Place { .. }))
                .count(),
            3,
            "every digit is placed, the clashing one too"
        );
        let dead = TraceStep::DeadEnd(DeadEnd::Clash {
            cell: (0, 8),
            peer: (0, 0),
            digit: 5,
        });
        assert_eq!(dead.to_string(), "dead end r1c9=5 (also in r1c1)");
        // The clashing digit's other peers lose it as well: column 9 offers no 5.
        assert!(setup.iter().any(|s| matches!(
            s,
            TraceStep::Eliminate {
                cell: (4, 8),
                digit: 5,
                ..
            }
        )));
        assert_eq!(traced.collect::<Vec<_>>(), [dead, TraceStep::Failed]);
    }

    #[test]
    fn every_backtrack_follows_the_dead_end_that_caused_it() {
        let g = parse(
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        )
        .unwrap();
        let steps: Vec<TraceStep> = trace(&g).collect();
        let mut backtracks = 0;
        for (i, step) in steps.iter().enumerate() {
            if matches!(step, TraceStep::Backtrack { .. }) {
                backtracks += 1;
                // Undoing a guess whose branch was exhausted follows another backtrack.
                assert!(
                    matches!(
                        steps[i - 1],
                        TraceStep::DeadEnd(_) | TraceStep::Backtrack { .. }
                    ),
                    "step {i}: {} after {}",
                    step,
                    steps[i - 1]
                );
            }
        }
        assert!(backtracks > 0);
    }

    #[test]
    fn steps_have_reasons() {
        let g = parse(
            ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
        )
        .unwrap();
        let steps: Vec<TraceStep> = trace(&g).collect();
        let givens = steps
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    TraceStep::Place {
                        reason: PlacementReason::Given,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(givens, 17);
        assert!(steps.iter().any(|s| matches!(
            s,
            TraceStep::Place {
                reason: PlacementReason::HiddenSingle(_),
                ..
            }
        )));
        assert!(matches!(steps.last(), Some(TraceStep::Solved(_))));
    }
}
