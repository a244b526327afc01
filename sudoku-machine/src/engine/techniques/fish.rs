//! Basic fish: X-Wing (2 lines), Swordfish (3) and Jellyfish (4).
//!
//! HoDoKu "Basic Fish", Sudoku Explainer 3.2 / 3.8 / 5.2: for one digit, take `n` base lines
//! (rows) in which the digit's places all lie within `n` cover lines (columns). Each base line
//! holds the digit once, in a cover line, so the `n` cover lines are filled by the base lines
//! and their other cells lose the digit. The same with rows and columns exchanged.

use super::{
    cell_at, cells_of, elimination_step, join, subsets_of, Board, Candidate, Step, Technique,
};

/// The first fish of size `n` (2 = X-Wing, 3 = Swordfish, 4 = Jellyfish): digits ascending,
/// rows as base lines before columns.
pub fn fish(board: &Board, n: u32) -> Option<Step> {
    let technique = match n {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    for digit in 1..=9 {
        for base_offset in [0usize, 9] {
            let cover_offset = 9 - base_offset;
            // Lines where the digit has 2..=n places may be base lines.
            let places: [u16; 9] = std::array::from_fn(|i| board.places(base_offset + i, digit));
            let candidates = (0..9)
                .filter(|&i| (2..=n).contains(&places[i].count_ones()))
                .fold(0u16, |acc, i| acc | 1 << i);
            for bases in subsets_of(candidates, n) {
                let covers = (0..9)
                    .filter(|&i| bases & (1 << i) != 0)
                    .fold(0u16, |acc, i| acc | places[i]);
                if covers.count_ones() != n {
                    continue;
                }
                let corners: Vec<_> = (0..9)
                    .filter(|&i| bases & (1 << i) != 0)
                    .flat_map(|i| cells_of(base_offset + i, places[i]))
                    .collect();
                let eliminations = (0..9)
                    .filter(|&c| covers & (1 << c) != 0)
                    .flat_map(|c| {
                        (0..9)
                            .filter(|&pos| bases & (1 << pos) == 0)
                            .map(move |pos| cell_at(cover_offset + c, pos))
                    })
                    .filter(|&cell| board.has(cell, digit))
                    .map(|cell| Candidate::new(cell, digit))
                    .collect();
                let (base_kind, cover_kind) = if base_offset == 0 {
                    ("rows", "columns")
                } else {
                    ("columns", "rows")
                };
                let list = |mask: u16| {
                    (0..9)
                        .filter(|&i| mask & (1 << i) != 0)
                        .map(|i| (i + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let step = elimination_step(
                    board,
                    technique,
                    corners.clone(),
                    corners.iter().map(|&c| Candidate::new(c, digit)).collect(),
                    eliminations,
                    |removed| {
                        format!(
                            "In {base_kind} {}, {digit} fits only in {cover_kind} {} ({}): \
                             each of those {base_kind} puts its {digit} in one of those \
                             {cover_kind}, so the rest of those {cover_kind} loses {digit}: \
                             {removed}.",
                            list(bases),
                            list(covers),
                            join(&corners)
                        )
                    },
                );
                if step.is_some() {
                    return step;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::super::Cell;
    use super::*;

    /// Confines `digit` in 1-based `row` to the 1-based `cols`.
    fn confine_row(b: &mut Board, digit: u8, row: usize, cols: &[usize]) {
        let cells: Vec<Cell> = house_cells(House::Row(row as u8 - 1)).collect();
        let keep: Vec<Cell> = cols.iter().map(|&c| rc(row, c)).collect();
        remove_except(b, digit, &cells, &keep);
    }

    #[test]
    fn x_wing_on_rows() {
        let mut b = custom(&[]);
        confine_row(&mut b, 5, 2, &[3, 8]);
        confine_row(&mut b, 5, 7, &[3, 8]);
        let step = fish(&b, 2).unwrap();
        assert_eq!(step.technique, Technique::XWing);
        assert_eq!(step.cells, vec![rc(2, 3), rc(2, 8), rc(7, 3), rc(7, 8)]);
        assert_eq!(
            elims(&step),
            "r1c3<>5, r1c8<>5, r3c3<>5, r3c8<>5, r4c3<>5, r4c8<>5, r5c3<>5, r5c8<>5, \
             r6c3<>5, r6c8<>5, r8c3<>5, r8c8<>5, r9c3<>5, r9c8<>5"
        );
        assert!(step
            .explanation
            .starts_with("In rows 2, 7, 5 fits only in columns 3, 8 (r2c3, r2c8, r7c3, r7c8)"));
    }

    #[test]
    fn swordfish_and_jellyfish() {
        let mut b = custom(&[]);
        confine_row(&mut b, 1, 1, &[1, 5]);
        confine_row(&mut b, 1, 4, &[5, 9]);
        confine_row(&mut b, 1, 8, &[1, 9]);
        assert_eq!(fish(&b, 2), None);
        let step = fish(&b, 3).unwrap();
        assert_eq!(step.technique, Technique::Swordfish);
        assert_eq!(step.cells.len(), 6);
        // Columns 1, 5, 9 lose 1 in the six other rows.
        assert_eq!(step.eliminations.len(), 18);
        assert!(step.eliminations.iter().all(|e| e.digit == 1
            && [0, 4, 8].contains(&e.cell.col())
            && ![0, 3, 7].contains(&e.cell.row())));

        let mut b = custom(&[]);
        confine_row(&mut b, 8, 2, &[1, 2]);
        confine_row(&mut b, 8, 3, &[2, 4]);
        confine_row(&mut b, 8, 5, &[4, 6]);
        confine_row(&mut b, 8, 9, &[6, 1]);
        assert_eq!(fish(&b, 3), None);
        let step = fish(&b, 4).unwrap();
        assert_eq!(step.technique, Technique::Jellyfish);
        assert_eq!(step.eliminations.len(), 4 * 5);
    }
}
