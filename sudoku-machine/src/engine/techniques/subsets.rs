//! Naked and hidden subsets: pairs, triples and quads inside one house.
//!
//! - **Naked subset** (HoDoKu "Naked Pair/Triple/Quad", Sudoku Explainer 3.0 / 3.6 / 5.0): `n`
//!   empty cells of a house whose candidates together are exactly `n` digits. Those digits go
//!   in those cells, so the house's other cells lose them.
//! - **Hidden subset** (HoDoKu "Hidden Pair/Triple/Quad", Sudoku Explainer 3.4 / 4.0 / 5.4): `n`
//!   digits whose places in a house are together exactly `n` cells. Those cells hold those
//!   digits, so they lose every other candidate.
//!
//! Houses are searched rows, columns, then boxes; the first subset that removes something is
//! returned.

use super::{
    cell_at, cells_of, digit_set, digits, elimination_step, join, subsets_of, Board, Candidate,
    Step, Technique, ALL,
};

/// The technique of a naked (`hidden == false`) or hidden subset of size `n` (2..=4).
fn technique(n: u32, hidden: bool) -> Technique {
    match (n, hidden) {
        (2, false) => Technique::NakedPair,
        (3, false) => Technique::NakedTriple,
        (4, false) => Technique::NakedQuad,
        (2, true) => Technique::HiddenPair,
        (3, true) => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

/// The first naked subset of `n` cells (2 = pair, 3 = triple, 4 = quad).
pub fn naked(board: &Board, n: u32) -> Option<Step> {
    for house in 0..27 {
        // Empty cells with 2..=n candidates may form the subset.
        let mut open = 0u16;
        let mut members = 0u16;
        for pos in 0..9 {
            let k = board.cands(cell_at(house, pos)).count_ones();
            if k > 0 {
                open |= 1 << pos;
                if (2..=n).contains(&k) {
                    members |= 1 << pos;
                }
            }
        }
        if members.count_ones() < n {
            continue;
        }
        let cands: [u16; 9] = std::array::from_fn(|pos| board.cands(cell_at(house, pos)));
        for subset in subsets_of(members, n) {
            let union = (0..9)
                .filter(|&pos| subset & (1 << pos) != 0)
                .fold(0, |acc, pos| acc | cands[pos]);
            // (Nothing to remove when no other cell holds those digits.)
            if union.count_ones() != n
                || (0..9).all(|pos| subset & (1 << pos) != 0 || cands[pos] & union == 0)
            {
                continue;
            }
            let cells = cells_of(house, subset);
            let eliminations = cells_of(house, open & !subset)
                .into_iter()
                .flat_map(|c| digits(board.cands(c) & union).map(move |d| Candidate::new(c, d)))
                .collect();
            let h = super::house(house);
            let step = elimination_step(
                board,
                technique(n, false),
                cells.clone(),
                cells
                    .iter()
                    .flat_map(|&c| digits(board.cands(c)).map(move |d| Candidate::new(c, d)))
                    .collect(),
                eliminations,
                |removed| {
                    format!(
                        "In {h}, the cells {} hold only the digits {}, so those digits go \
                         there and the rest of {h} loses them: {removed}.",
                        join(&cells),
                        digit_set(union)
                    )
                },
            );
            if step.is_some() {
                return step;
            }
        }
    }
    None
}

/// The first hidden subset of `n` digits (2 = pair, 3 = triple, 4 = quad).
pub fn hidden(board: &Board, n: u32) -> Option<Step> {
    for house in 0..27 {
        let places: [u16; 10] = std::array::from_fn(|d| {
            if d == 0 {
                0
            } else {
                board.places(house, d as u8)
            }
        });
        // Digits not yet placed here, with 1..=n places, may form the subset.
        let members = (1..=9u8)
            .filter(|&d| (1..=n).contains(&places[usize::from(d)].count_ones()))
            .fold(0u16, |acc, d| acc | super::bit(d));
        if members.count_ones() < n {
            continue;
        }
        for subset in subsets_of(members, n) {
            let cells_mask = digits(subset).fold(0, |acc, d| acc | places[usize::from(d)]);
            // (Nothing to remove when those cells hold no other digit.)
            if cells_mask.count_ones() != n
                || (0..9).all(|pos| {
                    cells_mask & (1 << pos) == 0 || board.cands(cell_at(house, pos)) & !subset == 0
                })
            {
                continue;
            }
            let cells = cells_of(house, cells_mask);
            let eliminations = cells
                .iter()
                .flat_map(|&c| {
                    digits(board.cands(c) & (ALL & !subset)).map(move |d| Candidate::new(c, d))
                })
                .collect();
            let h = super::house(house);
            let step = elimination_step(
                board,
                technique(n, true),
                cells.clone(),
                cells
                    .iter()
                    .flat_map(|&c| {
                        digits(board.cands(c) & subset).map(move |d| Candidate::new(c, d))
                    })
                    .collect(),
                eliminations,
                |removed| {
                    format!(
                        "In {h}, the digits {} fit only in {}, so those cells hold them and \
                         lose their other candidates: {removed}.",
                        digit_set(subset),
                        join(&cells)
                    )
                },
            );
            if step.is_some() {
                return step;
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
    fn naked_pair_removes_its_digits() {
        let mut b = custom(&[(1, 2, "27"), (1, 7, "27")]);
        b.eliminate(rc(1, 5), 7);
        let step = naked(&b, 2).unwrap();
        assert_eq!(step.technique, Technique::NakedPair);
        assert_eq!(step.cells, vec![rc(1, 2), rc(1, 7)]);
        assert_eq!(
            elims(&step),
            "r1c1<>2, r1c1<>7, r1c3<>2, r1c3<>7, r1c4<>2, r1c4<>7, r1c5<>2, r1c6<>2, \
             r1c6<>7, r1c8<>2, r1c8<>7, r1c9<>2, r1c9<>7"
        );
        assert!(step.explanation.starts_with(
            "In row 1, the cells r1c2, r1c7 hold only the digits {2,7}, so those digits go"
        ));
        assert_eq!(naked(&b, 3), None, "no triple without a pair inside");
    }

    #[test]
    fn naked_triple_and_quad() {
        // Column 4: r2 {1,5}, r5 {5,8}, r8 {1,8}: a triple without any pair.
        let b = custom(&[(2, 4, "15"), (5, 4, "58"), (8, 4, "18")]);
        assert_eq!(naked(&b, 2), None);
        let step = naked(&b, 3).unwrap();
        assert_eq!(step.technique, Technique::NakedTriple);
        assert_eq!(step.cells, vec![rc(2, 4), rc(5, 4), rc(8, 4)]);
        assert_eq!(step.eliminations.len(), 6 * 3);
        assert!(elims(&step).starts_with("r1c4<>1, r1c4<>5, r1c4<>8, r3c4<>1"));

        let b = custom(&[(9, 1, "12"), (9, 3, "23"), (9, 5, "34"), (9, 9, "14")]);
        assert_eq!(naked(&b, 3), None);
        let step = naked(&b, 4).unwrap();
        assert_eq!(step.technique, Technique::NakedQuad);
        assert_eq!(step.eliminations.len(), 5 * 4);
    }

    #[test]
    fn hidden_pair_removes_other_digits() {
        // In box 5, 3 and 9 fit only in r4c4 and r6c6.
        let mut b = custom(&[]);
        let box5: Vec<_> = house_cells(House::Box(4)).collect();
        remove_except(&mut b, 3, &box5, &[rc(4, 4), rc(6, 6)]);
        remove_except(&mut b, 9, &box5, &[rc(4, 4), rc(6, 6)]);
        let step = hidden(&b, 2).unwrap();
        assert_eq!(step.technique, Technique::HiddenPair);
        assert_eq!(step.cells, vec![rc(4, 4), rc(6, 6)]);
        assert_eq!(
            elims(&step),
            "r4c4<>1, r4c4<>2, r4c4<>4, r4c4<>5, r4c4<>6, r4c4<>7, r4c4<>8, \
             r6c6<>1, r6c6<>2, r6c6<>4, r6c6<>5, r6c6<>6, r6c6<>7, r6c6<>8"
        );
        assert_eq!(
            step.explanation,
            format!(
                "In box 5, the digits {{3,9}} fit only in r4c4, r6c6, so those cells hold \
                 them and lose their other candidates: {}.",
                elims(&step)
            )
        );
    }

    #[test]
    fn hidden_triple_and_quad() {
        let mut b = custom(&[]);
        let row6: Vec<_> = house_cells(House::Row(5)).collect();
        remove_except(&mut b, 1, &row6, &[rc(6, 1), rc(6, 2)]);
        remove_except(&mut b, 2, &row6, &[rc(6, 2), rc(6, 3)]);
        remove_except(&mut b, 3, &row6, &[rc(6, 1), rc(6, 3)]);
        assert_eq!(hidden(&b, 2), None);
        let step = hidden(&b, 3).unwrap();
        assert_eq!(step.technique, Technique::HiddenTriple);
        assert_eq!(step.cells, vec![rc(6, 1), rc(6, 2), rc(6, 3)]);
        assert_eq!(step.eliminations.len(), 3 * 6);

        let mut b = custom(&[]);
        let col2: Vec<_> = house_cells(House::Column(1)).collect();
        let quad = [rc(1, 2), rc(3, 2), rc(5, 2), rc(9, 2)];
        for (d, keep) in [(4, [0, 1]), (5, [1, 2]), (6, [2, 3]), (7, [3, 0])] {
            remove_except(&mut b, d, &col2, &[quad[keep[0]], quad[keep[1]]]);
        }
        assert_eq!(hidden(&b, 3), None);
        let step = hidden(&b, 4).unwrap();
        assert_eq!(step.technique, Technique::HiddenQuad);
        assert_eq!(step.cells, quad.to_vec());
        assert_eq!(step.eliminations.len(), 4 * 5);
    }
}
