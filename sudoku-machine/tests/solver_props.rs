//! Property tests of the solver: whatever the givens, `solve` returns a valid completion
//! exactly when `count_solutions` finds one, and `classify` agrees with both; and the counts
//! and the solution of a unique puzzle are those of a plain reference solver (`Reference`).

use proptest::prelude::*;
use sudoku_machine::datamodel::{is_solved, Grid};
use sudoku_machine::engine::{clashes, classify, count_solutions, solve, Classification};

/// A full grid to carve puzzles from (a relabelling of it is again a full grid).
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// `SOLUTION` with its digits relabelled by `perm` and only the cells of `keep` kept.
fn carve(perm: &[u8], keep: &[bool]) -> Grid {
    let bytes = SOLUTION.as_bytes();
    Grid(std::array::from_fn(|r| {
        std::array::from_fn(|c| {
            let i = r * 9 + c;
            if keep[i] {
                perm[usize::from(bytes[i] - b'1')]
            } else {
                0
            }
        })
    }))
}

/// A plain reference solver sharing nothing with the engine's: cell-by-cell backtracking
/// over 9-bit candidate sets of rows, columns and boxes, on the empty cell with the fewest
/// candidates (the first such in reading order), counting solutions up to a limit. A node
/// where some digit has no place left in a house is a dead end (without that test, random
/// sparse givens with no solution could take it hours).
struct Reference {
    cells: [u8; 81],
    rows: [u16; 9],
    columns: [u16; 9],
    boxes: [u16; 9],
    count: usize,
    limit: usize,
    first: Option<[u8; 81]>,
    /// Nodes left before the search gives up.
    budget: u64,
}

/// The most nodes [`Reference`] visits for one count (a few seconds in a debug build).
const REFERENCE_NODES: u64 = 2_000_000;

impl Reference {
    /// `(min(solutions, limit), the first solution found)`; 0 for clashing givens or values
    /// above 9; `None` when the search needed more than [`REFERENCE_NODES`] nodes.
    fn count(givens: &Grid, limit: usize) -> Option<(usize, Option<[u8; 81]>)> {
        let mut r = Reference {
            cells: [0; 81],
            rows: [0; 9],
            columns: [0; 9],
            boxes: [0; 9],
            count: 0,
            limit,
            first: None,
            budget: REFERENCE_NODES,
        };
        for (i, &v) in givens.0.iter().flatten().enumerate() {
            if v == 0 {
                continue;
            }
            if v > 9 || r.candidates(i) & (1 << (v - 1)) == 0 {
                return Some((0, None));
            }
            r.set(i, v);
        }
        r.search();
        (r.budget > 0).then_some((r.count, r.first))
    }

    /// Whether every digit missing from a house still has a cell of it that can take it.
    fn houses_can_be_filled(&self) -> bool {
        let mut rows = self.rows;
        let mut columns = self.columns;
        let mut boxes = self.boxes;
        for i in (0..81).filter(|&i| self.cells[i] == 0) {
            let (r, c, b) = Self::houses(i);
            let can = self.candidates(i);
            rows[r] |= can;
            columns[c] |= can;
            boxes[b] |= can;
        }
        rows.iter()
            .chain(&columns)
            .chain(&boxes)
            .all(|&h| h == 0x1ff)
    }

    fn houses(i: usize) -> (usize, usize, usize) {
        (i / 9, i % 9, i / 27 * 3 + i % 9 / 3)
    }

    fn candidates(&self, i: usize) -> u16 {
        let (r, c, b) = Self::houses(i);
        !(self.rows[r] | self.columns[c] | self.boxes[b]) & 0x1ff
    }

    fn set(&mut self, i: usize, v: u8) {
        let (r, c, b) = Self::houses(i);
        let bit = 1 << (v - 1);
        self.rows[r] ^= bit;
        self.columns[c] ^= bit;
        self.boxes[b] ^= bit;
        self.cells[i] = v;
    }

    fn clear(&mut self, i: usize) {
        let v = self.cells[i];
        self.set(i, v);
        self.cells[i] = 0;
    }

    fn search(&mut self) {
        if self.budget == 0 || !self.houses_can_be_filled() {
            return;
        }
        self.budget -= 1;
        let mut best: Option<(u32, usize)> = None;
        for i in (0..81).filter(|&i| self.cells[i] == 0) {
            let n = self.candidates(i).count_ones();
            if best.map_or(true, |(m, _)| n < m) {
                best = Some((n, i));
            }
        }
        let Some((_, i)) = best else {
            self.count += 1;
            self.first.get_or_insert(self.cells);
            return;
        };
        let mut left = self.candidates(i);
        while left != 0 && self.count < self.limit {
            let v = left.trailing_zeros() as u8 + 1;
            left &= left - 1;
            self.set(i, v);
            self.search();
            self.clear(i);
        }
    }
}

/// Checks `count_solutions` for limits 1 to 3 and the solution of a unique puzzle against
/// [`Reference`].
fn check_reference(givens: &Grid) -> Result<(), TestCaseError> {
    for limit in 1..=3 {
        // A grid the reference cannot count in its budget is left to the other properties.
        let Some((count, first)) = Reference::count(givens, limit) else {
            return Ok(());
        };
        prop_assert_eq!(count_solutions(givens, limit), count, "limit {}", limit);
        if limit == 2 && count == 1 {
            let solution = solve(givens).map(|s| *s.0.as_flattened().first_chunk::<81>().unwrap());
            prop_assert_eq!(solution, first);
        }
    }
    Ok(())
}

/// Checks the agreement of `solve`, `count_solutions` and `classify` on any grid.
fn check(givens: &Grid) -> Result<(), TestCaseError> {
    let count = count_solutions(givens, 2);
    let solution = solve(givens);
    prop_assert_eq!(solution.is_some(), count > 0);
    if let Some(s) = solution {
        prop_assert!(is_solved(&s), "not a solved grid: {:?}", s);
        for (g, v) in givens.0.iter().flatten().zip(s.0.iter().flatten()) {
            prop_assert!(*g == 0 || g == v, "the solution changes a given");
        }
        prop_assert!(count_solutions(&s, 2) == 1);
    }
    match (classify(givens), count) {
        (Classification::Unique(s), 1) => prop_assert_eq!(Some(s), solution),
        (Classification::Multiple, 2) => {}
        (Classification::None, 0) => prop_assert!(clashes(givens).is_empty()),
        (Classification::Invalid(found), 0) => prop_assert!(!found.is_empty()),
        (class, count) => prop_assert!(false, "{:?} with {} solutions", class, count),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Givens taken from a real solution (always solvable; unique or not by chance).
    #[test]
    fn carved_puzzles_are_solved(
        perm in Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        keep in prop::collection::vec(prop::bool::weighted(0.35), 81),
    ) {
        let givens = carve(&perm, &keep);
        prop_assert!(count_solutions(&givens, 1) == 1);
        check(&givens)?;
        check_reference(&givens)?;
    }

    /// Random digits in random cells: mostly clashing or unsolvable, sometimes solvable.
    #[test]
    fn random_givens_agree(
        cells in prop::collection::vec((0..81usize, 1..=9u8), 0..30),
    ) {
        let mut givens = Grid::default();
        for (i, d) in cells {
            givens.0[i / 9][i % 9] = d;
        }
        check(&givens)?;
        check_reference(&givens)?;
    }

    /// A solution with a few wrong digits planted: no solution or a clash, never a panic.
    #[test]
    fn corrupted_solutions_agree(
        keep in prop::collection::vec(prop::bool::weighted(0.5), 81),
        wrong in prop::collection::vec((0..81usize, 1..=9u8), 1..4),
    ) {
        let mut givens = carve(&(1..=9).collect::<Vec<_>>(), &keep);
        for (i, d) in wrong {
            givens.0[i / 9][i % 9] = d;
        }
        check(&givens)?;
        check_reference(&givens)?;
    }

    /// Carved puzzles near the edge of uniqueness (about 25 givens): unique, several
    /// solutions or, with a changed given, none; the counts and the solution agree with the
    /// reference solver.
    #[test]
    fn sparse_puzzles_agree_with_the_reference(
        perm in Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        keep in prop::collection::vec(prop::bool::weighted(0.3), 81),
        change in prop::option::of((0..81usize, 1..=9u8)),
    ) {
        let mut givens = carve(&perm, &keep);
        if let Some((i, d)) = change {
            givens.0[i / 9][i % 9] = d;
        }
        check_reference(&givens)?;
    }
}
