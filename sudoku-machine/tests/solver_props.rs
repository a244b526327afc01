//! Property tests of the solver: whatever the givens, `solve` returns a valid completion
//! exactly when `count_solutions` finds one, and `classify` agrees with both.

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
    }
}
