//! Single-digit patterns built from conjugate pairs: a house where a digit has exactly two
//! places, so exactly one of them holds it (a *strong link*).
//!
//! - **Skyscraper** (HoDoKu "Skyscraper"): two parallel lines (rows, or columns) where the
//!   digit has two places each, with one end of each in the same cross line (the *base*). The
//!   two base cells cannot both hold the digit, so one of the two other ends (the *roof*) does,
//!   and a cell that sees both roof cells loses it.
//! - **Simple colouring** (HoDoKu "Simple Colors", Sudoku Explainer's "X-Chains" family): the
//!   conjugate pairs of one digit form chains; colour their cells alternately with two colours,
//!   so one colour holds the digit and the other does not. *Colour wrap*: two cells of one
//!   colour that see each other cannot both hold it, so that colour is false and its cells lose
//!   the digit. *Colour trap*: a cell outside the chain that sees both colours loses the digit.

use super::{cell_at, cells_of, elimination_step, join, Board, Candidate, Cell, Step, Technique};

/// The first Skyscraper: digits ascending, rows before columns.
pub fn skyscraper(board: &Board) -> Option<Step> {
    for digit in 1..=9 {
        for offset in [0usize, 9] {
            let lines: Vec<(usize, u16)> = (0..9)
                .map(|i| (offset + i, board.places(offset + i, digit)))
                .filter(|(_, p)| p.count_ones() == 2)
                .collect();
            for (i, &(l1, p1)) in lines.iter().enumerate() {
                for &(l2, p2) in &lines[i + 1..] {
                    let shared = p1 & p2;
                    if shared.count_ones() != 1 {
                        continue;
                    }
                    let s = shared.trailing_zeros() as usize;
                    let e1 = cell_at(l1, (p1 & !shared).trailing_zeros() as usize);
                    let e2 = cell_at(l2, (p2 & !shared).trailing_zeros() as usize);
                    let (b1, b2) = (cell_at(l1, s), cell_at(l2, s));
                    let eliminations = board
                        .seeing_all(&[e1, e2], digit)
                        .into_iter()
                        .map(|c| Candidate::new(c, digit))
                        .collect();
                    let (kind, cross) = if offset == 0 {
                        ("rows", "column")
                    } else {
                        ("columns", "row")
                    };
                    let cells = vec![b1, e1, b2, e2];
                    let step = elimination_step(
                        board,
                        Technique::Skyscraper,
                        cells.clone(),
                        cells.iter().map(|&c| Candidate::new(c, digit)).collect(),
                        eliminations,
                        |removed| {
                            format!(
                                "In {kind} {} and {}, {digit} has two places each ({}, {} and \
                                 {}, {}); {b1} and {b2} share a {cross}, so they are not both \
                                 {digit}, and one of {e1} and {e2} is. Cells that see both \
                                 lose {digit}: {removed}.",
                                l1 % 9 + 1,
                                l2 % 9 + 1,
                                b1,
                                e1,
                                b2,
                                e2
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

/// The two-colouring of one connected group of conjugate pairs.
struct Colouring {
    /// Cells of colour A and of colour B, in discovery order.
    colours: [Vec<Cell>; 2],
}

/// The groups of conjugate pairs of `digit` that hold at least one pair, each two-coloured.
/// A group whose links do not two-colour (an odd loop: impossible in a valid puzzle) is
/// skipped.
fn colourings(board: &Board, digit: u8) -> Vec<Colouring> {
    let mut links: Vec<Vec<Cell>> = vec![Vec::new(); 81];
    for house in 0..27 {
        let places = board.places(house, digit);
        if places.count_ones() == 2 {
            let pair = cells_of(house, places);
            links[pair[0].index()].push(pair[1]);
            links[pair[1].index()].push(pair[0]);
        }
    }
    let mut colour: [Option<usize>; 81] = [None; 81];
    let mut groups = Vec::new();
    for start in 0..81 {
        if links[start].is_empty() || colour[start].is_some() {
            continue;
        }
        let mut group = Colouring {
            colours: [Vec::new(), Vec::new()],
        };
        let mut consistent = true;
        let mut queue = vec![Cell(start as u8)];
        colour[start] = Some(0);
        while let Some(cell) = queue.pop() {
            let c = colour[cell.index()].unwrap_or(0);
            group.colours[c].push(cell);
            for &next in &links[cell.index()] {
                match colour[next.index()] {
                    None => {
                        colour[next.index()] = Some(1 - c);
                        queue.push(next);
                    }
                    Some(other) if other == c => consistent = false,
                    Some(_) => {}
                }
            }
        }
        if consistent {
            groups.push(group);
        }
    }
    groups
}

/// The first simple-colouring elimination: digits ascending; for each group, colour wrap
/// before colour trap.
pub fn simple_colouring(board: &Board) -> Option<Step> {
    for digit in 1..=9 {
        for group in colourings(board, digit) {
            let [a, b] = &group.colours;
            let all: Vec<Cell> = a.iter().chain(b).copied().collect();
            let mut sorted = [a.clone(), b.clone()];
            sorted.iter_mut().for_each(|v| v.sort());
            let candidates: Vec<Candidate> =
                all.iter().map(|&c| Candidate::new(c, digit)).collect();
            let names = format!(
                "colour A = {}; colour B = {}",
                join(&sorted[0]),
                join(&sorted[1])
            );
            // Colour wrap.
            for (k, cells) in sorted.iter().enumerate() {
                let clash = cells.iter().enumerate().find_map(|(i, &x)| {
                    cells[i + 1..].iter().find(|&&y| x.sees(y)).map(|&y| (x, y))
                });
                if let Some((x, y)) = clash {
                    let name = ["A", "B"][k];
                    let eliminations = cells.iter().map(|&c| Candidate::new(c, digit)).collect();
                    return elimination_step(
                        board,
                        Technique::SimpleColouring,
                        all.clone(),
                        candidates.clone(),
                        eliminations,
                        |removed| {
                            format!(
                                "Colouring the conjugate pairs of {digit} (houses where it \
                                 has two places) alternately gives {names}. {x} and {y} are \
                                 both colour {name} and see each other, so colour {name} is \
                                 not {digit} (colour wrap): {removed}."
                            )
                        },
                    );
                }
            }
            // Colour trap.
            let mut eliminations = Vec::new();
            let mut example = None;
            for cell in (0..81u8).map(Cell) {
                if !board.has(cell, digit) || all.contains(&cell) {
                    continue;
                }
                let sees_a = sorted[0].iter().find(|&&x| x.sees(cell));
                let sees_b = sorted[1].iter().find(|&&x| x.sees(cell));
                if let (Some(&x), Some(&y)) = (sees_a, sees_b) {
                    eliminations.push(Candidate::new(cell, digit));
                    example.get_or_insert((cell, x, y));
                }
            }
            if let Some((cell, x, y)) = example {
                return elimination_step(
                    board,
                    Technique::SimpleColouring,
                    all.clone(),
                    candidates,
                    eliminations,
                    |removed| {
                        format!(
                            "Colouring the conjugate pairs of {digit} (houses where it has two \
                             places) alternately gives {names}. One colour is {digit}. {cell} \
                             sees {x} (A) and {y} (B), so it is not {digit} (colour trap); \
                             likewise every cell that sees both colours: {removed}."
                        )
                    },
                );
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    /// Confines `digit` in `house` to the 1-based cells `keep`.
    fn link(b: &mut Board, digit: u8, house: House, keep: &[(usize, usize)]) {
        let cells: Vec<Cell> = house_cells(house).collect();
        let keep: Vec<Cell> = keep.iter().map(|&(r, c)| rc(r, c)).collect();
        remove_except(b, digit, &cells, &keep);
    }

    #[test]
    fn skyscraper_on_columns() {
        // 6 in column 1 only at r2c1, r8c1; in column 6 only at r3c6, r8c6. Base row 8, roof
        // r2c1 and r3c6.
        let mut b = custom(&[]);
        link(&mut b, 6, House::Column(0), &[(2, 1), (8, 1)]);
        link(&mut b, 6, House::Column(5), &[(3, 6), (8, 6)]);
        let step = skyscraper(&b).unwrap();
        assert_eq!(step.technique, Technique::Skyscraper);
        assert_eq!(step.cells, vec![rc(8, 1), rc(2, 1), rc(8, 6), rc(3, 6)]);
        // Cells seeing r2c1 and r3c6: r2c4..r2c6 (row 2, box 2) and r3c1..r3c3 (row 3,
        // box 1), less r2c6 and r3c1, which lost 6 to the two columns.
        assert_eq!(elims(&step), "r2c4<>6, r2c5<>6, r3c2<>6, r3c3<>6");
        assert!(step
            .explanation
            .starts_with("In columns 1 and 6, 6 has two places each (r8c1, r2c1 and r8c6, r3c6)"));
    }

    #[test]
    fn colour_trap() {
        // 1: r5c1 -col 1- r2c1 -row 2- r2c4 -box 2- r1c5. Colouring starts at r1c5, so
        // A = {r1c5, r2c1}, B = {r2c4, r5c1}; r5c5 sees r1c5 (A) and r5c1 (B).
        let mut b = custom(&[]);
        link(&mut b, 1, House::Column(0), &[(5, 1), (2, 1)]);
        link(&mut b, 1, House::Row(1), &[(2, 1), (2, 4)]);
        link(&mut b, 1, House::Box(1), &[(2, 4), (1, 5)]);
        assert_eq!(skyscraper(&b), None);
        let step = simple_colouring(&b).unwrap();
        assert_eq!(elims(&step), "r5c5<>1");
        assert_eq!(step.cells.len(), 4);
        assert!(
            step.explanation.contains("r5c5 sees r1c5 (A) and r5c1 (B)"),
            "{}",
            step.explanation
        );
    }

    #[test]
    fn colour_wrap() {
        // 1: r1c1 -row 1- r1c5 -col 5- r5c5 -row 5- r5c2 -col 2- r2c2; r1c1 and r2c2 are
        // both colour A and share box 1, so A is false.
        let mut b = custom(&[]);
        link(&mut b, 1, House::Row(0), &[(1, 1), (1, 5)]);
        link(&mut b, 1, House::Column(4), &[(1, 5), (5, 5)]);
        link(&mut b, 1, House::Row(4), &[(5, 5), (5, 2)]);
        link(&mut b, 1, House::Column(1), &[(5, 2), (2, 2)]);
        let step = simple_colouring(&b).unwrap();
        assert_eq!(elims(&step), "r1c1<>1, r2c2<>1, r5c5<>1");
        assert!(step.explanation.contains("colour wrap"));
    }
}
