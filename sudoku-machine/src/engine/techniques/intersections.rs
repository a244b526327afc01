//! Locked candidates: a digit confined to where a box and a line (row or column) cross.
//!
//! - **Pointing** (HoDoKu "Locked Candidates Type 1", Sudoku Explainer 2.6): a digit's places in
//!   a box all lie in one row (column); the digit is in that part of the line, so the line's
//!   cells outside the box lose it.
//! - **Claiming** (HoDoKu "Locked Candidates Type 2", Sudoku Explainer 2.8): a digit's places
//!   in a row (column) all lie in one box; the box's cells outside the line lose it.

use super::{cells_of, elimination_step, Board, Candidate, Cell, House, Step, Technique, HOUSES};

/// The line houses (rows `0..9`, columns `9..18`) that cross box `b` (`0..9`).
fn lines_through_box(b: usize) -> [usize; 6] {
    let (r0, c0) = (b / 3 * 3, b % 3 * 3);
    [r0, r0 + 1, r0 + 2, 9 + c0, 9 + c0 + 1, 9 + c0 + 2]
}

/// Cells of house `house` holding `digit`, split by whether they are in house `other` too.
fn split(board: &Board, house: usize, other: usize, digit: u8) -> (Vec<Cell>, Vec<Cell>) {
    let inside: Vec<u8> = HOUSES[other].to_vec();
    cells_of(house, board.places(house, digit))
        .into_iter()
        .partition(|c| inside.contains(&c.0))
}

/// `SHARED[house][other]`: the positions (`0..9` within `house`, as a mask) of the cells of
/// house `house` that are also in house `other` (houses numbered as in [`HOUSES`]).
const SHARED: [[u16; 27]; 27] = {
    let mut t = [[0u16; 27]; 27];
    let mut h = 0;
    while h < 27 {
        let mut o = 0;
        while o < 27 {
            let mut pos = 0;
            while pos < 9 {
                let mut k = 0;
                while k < 9 {
                    if HOUSES[h][pos] == HOUSES[o][k] {
                        t[h][o] |= 1 << pos;
                    }
                    k += 1;
                }
                pos += 1;
            }
            o += 1;
        }
        h += 1;
    }
    t
};

/// The positions (`0..9` within the house, as a mask) of the cells of house `house` that are
/// also in house `other`.
fn shared_positions(house: usize, other: usize) -> u16 {
    SHARED[house][other]
}

/// The first pointing pattern: boxes in order, digits ascending, rows before columns.
pub fn pointing(board: &Board) -> Option<Step> {
    for b in 0..9 {
        for digit in 1..=9 {
            let places = board.places(18 + b, digit);
            if places == 0 {
                continue;
            }
            for line in lines_through_box(b) {
                // The box's places all in the line, and the line has places outside the box.
                if places & !shared_positions(18 + b, line) != 0
                    || board.places(line, digit) & !shared_positions(line, 18 + b) == 0
                {
                    continue;
                }
                let (locked, _) = split(board, 18 + b, line, digit);
                let (_, targets) = split(board, line, 18 + b, digit);
                let (bx, ln) = (House::Box(b as u8), super::house(line));
                let step = elimination_step(
                    board,
                    Technique::Pointing,
                    locked.clone(),
                    locked.iter().map(|&c| Candidate::new(c, digit)).collect(),
                    targets.iter().map(|&c| Candidate::new(c, digit)).collect(),
                    |removed| {
                        format!(
                            "In {bx}, {digit} fits only in {ln} ({}), so {digit} is in {ln} \
                             inside {bx} and the rest of {ln} loses it: {removed}.",
                            super::join(&locked)
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

/// The first claiming pattern: rows, then columns; digits ascending.
pub fn claiming(board: &Board) -> Option<Step> {
    for line in 0..18 {
        for digit in 1..=9 {
            let mask = board.places(line, digit);
            if mask == 0 {
                continue;
            }
            let first = super::cell_at(line, mask.trailing_zeros() as usize);
            let b = first.box_index();
            // All in the first place's box, and the box has places outside the line.
            if mask & !shared_positions(line, 18 + b) != 0
                || board.places(18 + b, digit) & !shared_positions(18 + b, line) == 0
            {
                continue;
            }
            let places = cells_of(line, mask);
            let (_, targets) = split(board, 18 + b, line, digit);
            let (bx, ln) = (House::Box(b as u8), super::house(line));
            let step = elimination_step(
                board,
                Technique::Claiming,
                places.clone(),
                places.iter().map(|&c| Candidate::new(c, digit)).collect(),
                targets.iter().map(|&c| Candidate::new(c, digit)).collect(),
                |removed| {
                    format!(
                        "In {ln}, {digit} fits only in {bx} ({}), so {digit} is in {bx} \
                         on {ln} and the rest of {bx} loses it: {removed}.",
                        super::join(&places)
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
    fn pointing_removes_from_the_row() {
        // In box 1, 4 only in r2c1 and r2c3: row 2 outside box 1 loses 4.
        let mut b = custom(&[]);
        let box1: Vec<Cell> = house_cells(House::Box(0)).collect();
        remove_except(&mut b, 4, &box1, &[rc(2, 1), rc(2, 3)]);
        // r2c5 already lacks 4: it must not be listed.
        b.eliminate(rc(2, 5), 4);
        let step = pointing(&b).unwrap();
        assert_eq!(step.cells, vec![rc(2, 1), rc(2, 3)]);
        assert_eq!(elims(&step), "r2c4<>4, r2c6<>4, r2c7<>4, r2c8<>4, r2c9<>4");
        assert_eq!(
            step.explanation,
            "In box 1, 4 fits only in row 2 (r2c1, r2c3), so 4 is in row 2 inside box 1 and \
             the rest of row 2 loses it: r2c4<>4, r2c6<>4, r2c7<>4, r2c8<>4, r2c9<>4."
        );
    }

    #[test]
    fn pointing_removes_from_the_column() {
        let mut b = custom(&[]);
        let box9: Vec<Cell> = house_cells(House::Box(8)).collect();
        remove_except(&mut b, 9, &box9, &[rc(7, 8), rc(9, 8)]);
        let step = pointing(&b).unwrap();
        assert_eq!(
            elims(&step),
            "r1c8<>9, r2c8<>9, r3c8<>9, r4c8<>9, r5c8<>9, r6c8<>9"
        );
    }

    #[test]
    fn claiming_removes_from_the_box() {
        // In column 5, 6 only in r4c5 and r6c5 (box 5): the rest of box 5 loses 6.
        let mut b = custom(&[]);
        let col5: Vec<Cell> = house_cells(House::Column(4)).collect();
        remove_except(&mut b, 6, &col5, &[rc(4, 5), rc(6, 5)]);
        assert_eq!(pointing(&b), None);
        let step = claiming(&b).unwrap();
        assert_eq!(step.technique, Technique::Claiming);
        assert_eq!(
            elims(&step),
            "r4c4<>6, r4c6<>6, r5c4<>6, r5c6<>6, r6c4<>6, r6c6<>6"
        );
    }
}
