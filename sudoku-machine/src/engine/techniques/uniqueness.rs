//! Uniqueness: deductions that hold only because a proper puzzle has one solution.
//!
//! **Unique rectangle type 1** (HoDoKu "Uniqueness Test 1", Sudoku Explainer 4.5): four cells
//! at the corners of a rectangle (two rows, two columns) that lie in exactly two boxes. If three
//! corners hold only `{x,y}` and the fourth held `x` or `y` too, the four corners could swap
//! `x` and `y` and the puzzle would have two solutions (a *deadly pattern*). So the fourth
//! corner loses `x` and `y`. Valid only for a puzzle known to have a unique solution, as the
//! grader and the generator ensure.

use super::{digit_set, digits, elimination_step, join, Board, Candidate, Cell, Step, Technique};

/// The first unique rectangle type 1: rows, then columns, in reading order.
pub fn unique_rectangle_1(board: &Board) -> Option<Step> {
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    // Exactly two boxes: same band xor same stack.
                    if (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3) {
                        continue;
                    }
                    let corners = [
                        Cell::new(r1, c1),
                        Cell::new(r1, c2),
                        Cell::new(r2, c1),
                        Cell::new(r2, c2),
                    ];
                    for odd in 0..4 {
                        let others: Vec<Cell> =
                            (0..4).filter(|&k| k != odd).map(|k| corners[k]).collect();
                        let pair = board.cands(others[0]);
                        if pair.count_ones() != 2 || others.iter().any(|&c| board.cands(c) != pair)
                        {
                            continue;
                        }
                        let target = corners[odd];
                        let t = board.cands(target);
                        if t & pair != pair || t == pair {
                            continue;
                        }
                        let eliminations =
                            digits(pair).map(|d| Candidate::new(target, d)).collect();
                        let candidates = corners
                            .iter()
                            .flat_map(|&c| digits(pair).map(move |d| Candidate::new(c, d)))
                            .collect();
                        return elimination_step(
                            board,
                            Technique::UniqueRectangle1,
                            corners.to_vec(),
                            candidates,
                            eliminations,
                            |removed| {
                                format!(
                                    "{} hold only {} and, with {target}, make a rectangle over \
                                     two boxes. If {target} were one of {} too, the four \
                                     corners could swap those digits and the puzzle would \
                                     have two solutions; it has one, so: {removed}.",
                                    join(&others),
                                    digit_set(pair),
                                    digit_set(pair)
                                )
                            },
                        );
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn unique_rectangle_type_1() {
        // r1c1, r1c7, r2c1 hold {3,8}; r2c7 {3,5,8}: boxes 1 and 3.
        let b = custom(&[(1, 1, "38"), (1, 7, "38"), (2, 1, "38"), (2, 7, "358")]);
        let step = unique_rectangle_1(&b).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangle1);
        assert_eq!(elims(&step), "r2c7<>3, r2c7<>8");
        assert_eq!(step.cells, vec![rc(1, 1), rc(1, 7), rc(2, 1), rc(2, 7)]);
    }

    #[test]
    fn four_boxes_is_no_rectangle() {
        let b = custom(&[(1, 1, "38"), (1, 7, "38"), (5, 1, "38"), (5, 7, "358")]);
        assert_eq!(unique_rectangle_1(&b), None);
    }
}
