//! Wings: short chains through bivalue cells.
//!
//! - **XY-Wing** (HoDoKu "XY-Wing", Sudoku Explainer 4.2): a pivot cell with candidates
//!   `{x,y}` sees two pincers `{x,z}` and `{y,z}`. Whatever the pivot is, one pincer is `z`, so
//!   a cell that sees both pincers loses `z`.
//! - **XYZ-Wing** (HoDoKu "XYZ-Wing", Sudoku Explainer 4.4): the pivot is `{x,y,z}` and sees
//!   pincers `{x,z}` and `{y,z}`. One of the three cells is `z`, so a cell that sees all three
//!   loses `z`.
//! - **W-Wing** (HoDoKu "W-Wing"): two cells `{x,y}` that do not see each other, and a house
//!   where `x` has exactly two places, one seeing each cell. If neither cell were `y`, both
//!   would be `x` and the link's two places would both lose `x`; so one cell is `y`, and a cell
//!   that sees both loses `y`.

use super::{
    digit_set, digits, elimination_step, join, peers, Board, Candidate, Cell, Step, Technique,
};

/// Empty cells with exactly `k` candidates, in reading order.
fn cells_with(board: &Board, k: u32) -> Vec<Cell> {
    (0..81u8)
        .map(Cell)
        .filter(|&c| board.cands(c).count_ones() == k)
        .collect()
}

/// XY-Wing (`pivot_size == 2`) or XYZ-Wing (`pivot_size == 3`).
fn wing(board: &Board, pivot_size: u32) -> Option<Step> {
    let technique = if pivot_size == 2 {
        Technique::XyWing
    } else {
        Technique::XyzWing
    };
    for pivot in cells_with(board, pivot_size) {
        let p = board.cands(pivot);
        let pincers: Vec<Cell> = peers(pivot)
            .filter(|&c| {
                let m = board.cands(c);
                m.count_ones() == 2
                    && if pivot_size == 2 {
                        (m & p).count_ones() == 1
                    } else {
                        m & !p == 0
                    }
            })
            .collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (ma, mb) = (board.cands(a), board.cands(b));
                if ma == mb {
                    continue;
                }
                let z = ma & mb;
                if z.count_ones() != 1 {
                    continue;
                }
                if pivot_size == 2 && (z & p != 0 || (ma | mb) & !z != p) {
                    continue;
                }
                if pivot_size == 3 && ma | mb != p {
                    continue;
                }
                let zd = digits(z).next()?;
                let mut pattern = vec![a, b];
                if pivot_size == 3 {
                    pattern.push(pivot);
                }
                let eliminations = board
                    .seeing_all(&pattern, zd)
                    .into_iter()
                    .filter(|&c| c != pivot)
                    .map(|c| Candidate::new(c, zd))
                    .collect();
                let cells = vec![pivot, a, b];
                let candidates = cells
                    .iter()
                    .flat_map(|&c| digits(board.cands(c)).map(move |d| Candidate::new(c, d)))
                    .collect();
                let step = elimination_step(
                    board,
                    technique,
                    cells,
                    candidates,
                    eliminations,
                    |removed| {
                        if pivot_size == 2 {
                            format!(
                                "The pivot {pivot} {} sees the pincers {a} {} and {b} {}: \
                             whichever digit the pivot takes, one pincer is {zd}, so cells \
                             that see both pincers lose {zd}: {removed}.",
                                digit_set(p),
                                digit_set(ma),
                                digit_set(mb)
                            )
                        } else {
                            format!(
                                "The pivot {pivot} {} sees the pincers {a} {} and {b} {}: one of \
                             the three cells is {zd}, so cells that see all three lose {zd}: \
                             {removed}.",
                                digit_set(p),
                                digit_set(ma),
                                digit_set(mb)
                            )
                        }
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

/// The first XY-Wing: pivots in reading order.
pub fn xy_wing(board: &Board) -> Option<Step> {
    wing(board, 2)
}

/// The first XYZ-Wing: pivots in reading order.
pub fn xyz_wing(board: &Board) -> Option<Step> {
    wing(board, 3)
}

/// The first W-Wing: pairs of bivalue cells in reading order, then the linking digit and house.
pub fn w_wing(board: &Board) -> Option<Step> {
    let bivalue = cells_with(board, 2);
    for (i, &a) in bivalue.iter().enumerate() {
        for &b in &bivalue[i + 1..] {
            let m = board.cands(a);
            if board.cands(b) != m || a.sees(b) {
                continue;
            }
            for x in digits(m) {
                let y = digits(m & !super::bit(x)).next()?;
                for house in 0..27 {
                    let places = board.places(house, x);
                    if places.count_ones() != 2 {
                        continue;
                    }
                    let link = super::cells_of(house, places);
                    let (p, q) = (link[0], link[1]);
                    if [p, q].contains(&a) || [p, q].contains(&b) {
                        continue;
                    }
                    let (pa, qb) = if p.sees(a) && q.sees(b) {
                        (p, q)
                    } else if q.sees(a) && p.sees(b) {
                        (q, p)
                    } else {
                        continue;
                    };
                    let eliminations = board
                        .seeing_all(&[a, b], y)
                        .into_iter()
                        .map(|c| Candidate::new(c, y))
                        .collect();
                    let h = super::house(house);
                    let cells = vec![a, b, pa, qb];
                    let candidates = vec![
                        Candidate::new(a, x),
                        Candidate::new(a, y),
                        Candidate::new(b, x),
                        Candidate::new(b, y),
                        Candidate::new(pa, x),
                        Candidate::new(qb, x),
                    ];
                    let step = elimination_step(
                        board,
                        Technique::WWing,
                        cells,
                        candidates,
                        eliminations,
                        |removed| {
                            format!(
                                "{a} and {b} both hold only {}, and in {h} {x} fits only in \
                                 {} (seen by {a} and {b}): if neither were {y}, both would be \
                                 {x} and {h} would have no place for {x}. So one of them is \
                                 {y}, and cells that see both lose {y}: {removed}.",
                                digit_set(m),
                                join(&[pa, qb]),
                            )
                        },
                    );
                    if step.is_some() {
                        return step;
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
    fn xy_wing_removes_z() {
        // Pivot r1c1 {1,2}; pincers r1c5 {1,3} (row 1) and r3c2 {2,3} (box 1).
        // Cells seeing both pincers: r1c2, r1c3 (row 1 + box 1), r3c4..r3c6 (row 3 + box 2).
        let b = custom(&[(1, 1, "12"), (1, 5, "13"), (3, 2, "23")]);
        let step = xy_wing(&b).unwrap();
        assert_eq!(step.cells, vec![rc(1, 1), rc(1, 5), rc(3, 2)]);
        assert_eq!(elims(&step), "r1c2<>3, r1c3<>3, r3c4<>3, r3c5<>3, r3c6<>3");
        assert_eq!(
            step.explanation,
            "The pivot r1c1 {1,2} sees the pincers r1c5 {1,3} and r3c2 {2,3}: whichever digit \
             the pivot takes, one pincer is 3, so cells that see both pincers lose 3: r1c2<>3, \
             r1c3<>3, r3c4<>3, r3c5<>3, r3c6<>3."
        );
    }

    #[test]
    fn xyz_wing_removes_z() {
        // Pivot r5c5 {1,2,3}; pincers r5c8 {1,3} (row 5) and r4c4 {2,3} (box 5).
        // Cells seeing all three: r5c4, r5c6 (row 5 and box 5 and... r5c4 sees r4c4 by box).
        let b = custom(&[(5, 5, "123"), (5, 8, "13"), (4, 4, "23")]);
        assert_eq!(xy_wing(&b), None);
        let step = xyz_wing(&b).unwrap();
        assert_eq!(step.technique, Technique::XyzWing);
        assert_eq!(elims(&step), "r5c4<>3, r5c6<>3");
    }

    #[test]
    fn w_wing_removes_y() {
        // r1c1 {4,7} and r9c9 {4,7}; in column 5, 7 fits only in r1c5 and r9c5.
        let mut b = custom(&[(1, 1, "47"), (9, 9, "47")]);
        let col5: Vec<_> = house_cells(House::Column(4)).collect();
        remove_except(&mut b, 7, &col5, &[rc(1, 5), rc(9, 5)]);
        let step = w_wing(&b).unwrap();
        assert_eq!(step.technique, Technique::WWing);
        // Cells that see r1c1 and r9c9: r1c9 and r9c1.
        assert_eq!(elims(&step), "r1c9<>4, r9c1<>4");
        assert_eq!(step.cells, vec![rc(1, 1), rc(9, 9), rc(1, 5), rc(9, 5)]);
    }
}
