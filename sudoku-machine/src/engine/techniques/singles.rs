//! Singles: the two ways a digit is placed without removing candidates first.
//!
//! - **Hidden single** (HoDoKu "Hidden Single", Sudoku Explainer rating 1.2-1.5): a digit that
//!   has one place left in a house goes there. Boxes are searched first, then rows, then
//!   columns, as players usually scan.
//! - **Naked single** (rating 2.3): a cell with one candidate left takes it.

use super::{bit, cell_at, digits, Board, Candidate, Cell, Step, Technique, HOUSES};

/// The houses in the order [`hidden_single`] searches them: boxes, rows, columns.
const SCAN_ORDER: [usize; 27] = {
    let mut t = [0; 27];
    let mut i = 0;
    while i < 27 {
        t[i] = (i + 18) % 27;
        i += 1;
    }
    t
};

/// Places singles until none is left, as [`HumanSolver`](super::HumanSolver) would step by
/// step, but without making steps: hidden singles until there are none, then the naked
/// singles of that position, then hidden singles again, and so on. Returns the harder of
/// the two techniques it used (`None` when it placed nothing).
///
/// The position it stops in is the one the step-by-step solve reaches before it needs a
/// harder technique: placing a single never takes another single away (on a board whose
/// candidates are consistent), so the order of placements does not change where they end,
/// and a naked single is used exactly when a position without hidden singles has one. Stops
/// early on a broken board (a cell or a digit of a house without a place).
pub(crate) fn place_all(board: &mut Board) -> Option<Technique> {
    let mut used = None;
    loop {
        let mut placed = false;
        for house in SCAN_ORDER {
            let cells = &HOUSES[house];
            // Digits with at least one place, and with two or more.
            let (mut once, mut twice, mut filled) = (0u16, 0u16, 0u16);
            for &c in cells {
                let m = board.cands[usize::from(c)];
                twice |= once & m;
                once |= m;
                filled |= board.values[usize::from(c)]
                    .checked_sub(1)
                    .map_or(0, |d| 1 << d);
            }
            if (once | filled) != super::ALL {
                return used;
            }
            let mut hidden = once & !twice;
            while hidden != 0 {
                let b = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                if let Some(&c) = cells
                    .iter()
                    .find(|&&c| board.cands[usize::from(c)] & b != 0)
                {
                    board.place(Cell(c), b.trailing_zeros() as u8 + 1);
                    placed = true;
                }
            }
        }
        if placed {
            used = used.max(Some(Technique::HiddenSingle));
            continue;
        }
        for i in 0..81 {
            let m = board.cands[i];
            if board.values[i] == 0 {
                if m == 0 {
                    return used;
                }
                if m & (m - 1) == 0 {
                    board.place(Cell(i as u8), m.trailing_zeros() as u8 + 1);
                    placed = true;
                }
            }
        }
        if !placed {
            return used;
        }
        used = Some(Technique::NakedSingle);
    }
}

/// The first hidden single: boxes, then rows, then columns; digits ascending.
pub fn hidden_single(board: &Board) -> Option<Step> {
    for house in (18..27).chain(0..18) {
        for digit in 1..=9 {
            let places = board.places(house, digit);
            if places.count_ones() == 1 {
                let cell = cell_at(house, places.trailing_zeros() as usize);
                let h = super::house(house);
                return Some(Step {
                    technique: Technique::HiddenSingle,
                    cells: vec![cell],
                    candidates: vec![Candidate::new(cell, digit)],
                    placements: vec![Candidate::new(cell, digit)],
                    eliminations: Vec::new(),
                    explanation: if board.explain {
                        format!(
                            "In {h}, {digit} fits only in {cell}: hidden single, {cell}={digit}."
                        )
                    } else {
                        String::new()
                    },
                });
            }
        }
    }
    None
}

/// The first naked single in reading order.
pub fn naked_single(board: &Board) -> Option<Step> {
    (0..81u8).map(Cell).find_map(|cell| {
        let cands = board.cands(cell);
        if cands.count_ones() != 1 {
            return None;
        }
        let digit = digits(cands).next()?;
        debug_assert_eq!(cands, bit(digit));
        Some(Step {
            technique: Technique::NakedSingle,
            cells: vec![cell],
            candidates: vec![Candidate::new(cell, digit)],
            placements: vec![Candidate::new(cell, digit)],
            eliminations: Vec::new(),
            explanation: if board.explain {
                format!("{cell} has one candidate left, {digit}: naked single, {cell}={digit}.")
            } else {
                String::new()
            },
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn hidden_single_in_a_box() {
        let mut b = custom(&[]);
        let box5: Vec<Cell> = house_cells(House::Box(4)).collect();
        remove_except(&mut b, 7, &box5, &[rc(5, 6)]);
        let step = hidden_single(&b).unwrap();
        assert_eq!(step.placements, vec![Candidate::new(rc(5, 6), 7)]);
        assert_eq!(
            step.explanation,
            "In box 5, 7 fits only in r5c6: hidden single, r5c6=7."
        );
    }

    #[test]
    fn hidden_single_in_a_row() {
        let mut b = custom(&[]);
        let row3: Vec<Cell> = house_cells(House::Row(2)).collect();
        remove_except(&mut b, 2, &row3, &[rc(3, 9)]);
        let step = hidden_single(&b).unwrap();
        assert_eq!(step.placements, vec![Candidate::new(rc(3, 9), 2)]);
        assert!(step
            .explanation
            .starts_with("In row 3, 2 fits only in r3c9"));
    }

    #[test]
    fn naked_single_on_a_real_puzzle() {
        // The Qt example's nearly solved grid: r1c1 is the one empty cell.
        let b = board(
            ".35269781682571493197834562826195347374682915951743628519326874248957136763418259",
        );
        let step = naked_single(&b).unwrap();
        assert_eq!(step.placements, vec![Candidate::new(rc(1, 1), 4)]);
        assert_eq!(step.technique, Technique::NakedSingle);
        assert_eq!(
            step.explanation,
            "r1c1 has one candidate left, 4: naked single, r1c1=4."
        );
        assert!(hidden_single(&b).is_some(), "also a hidden single in box 1");
    }
}
