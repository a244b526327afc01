//! Clashing givens: two equal digits in a row, column or box, named by house and cells.

use std::fmt;

use crate::datamodel::Grid;

/// A row, column or box, numbered from 0 (rows top to bottom, columns left to right, boxes in
/// reading order). [`fmt::Display`] numbers them from 1, as players do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum House {
    /// Row `0..9`.
    Row(u8),
    /// Column `0..9`.
    Column(u8),
    /// Box `0..9`: `row / 3 * 3 + column / 3`.
    Box(u8),
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(n) => write!(f, "row {}", n + 1),
            House::Column(n) => write!(f, "column {}", n + 1),
            House::Box(n) => write!(f, "box {}", n + 1),
        }
    }
}

/// Two givens with the same digit in one house.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clash {
    /// The repeated digit, `1..=9`.
    pub digit: u8,
    /// The house both cells are in (a pair in one row and box is reported once per house).
    pub house: House,
    /// The two cells as `(row, column)`, numbered from 0, in reading order.
    pub cells: [(usize, usize); 2],
}

impl fmt::Display for Clash {
    /// E.g. `5 twice in row 1 (r1c1 and r1c9)`, numbered from 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [(r0, c0), (r1, c1)] = self.cells;
        write!(
            f,
            "{} twice in {} (r{}c{} and r{}c{})",
            self.digit,
            self.house,
            r0 + 1,
            c0 + 1,
            r1 + 1,
            c1 + 1
        )
    }
}

/// Every pair of equal givens in a row, column or box, rows first, then columns, then boxes,
/// each in reading order. A digit three times in a house gives the pairs (first, second) and
/// (first, third). Values above 9 are ignored here.
pub fn clashes(givens: &Grid) -> Vec<Clash> {
    let mut out = Vec::new();
    /// How to name house `h`, and its `k`-th cell as `(row, column)`.
    type HouseShape = (fn(u8) -> House, fn(usize, usize) -> (usize, usize));
    let houses: [HouseShape; 3] = [
        (House::Row, |h, k| (h, k)),
        (House::Column, |h, k| (k, h)),
        (House::Box, |h, k| (h / 3 * 3 + k / 3, h % 3 * 3 + k % 3)),
    ];
    for (make, cell) in houses {
        for h in 0..9 {
            let mut first = [None; 10];
            for k in 0..9 {
                let (r, c) = cell(h, k);
                let d = givens.0[r][c];
                if !(1..=9).contains(&d) {
                    continue;
                }
                match first[usize::from(d)] {
                    None => first[usize::from(d)] = Some((r, c)),
                    Some(earlier) => out.push(Clash {
                        digit: d,
                        house: make(h as u8),
                        cells: [earlier, (r, c)],
                    }),
                }
            }
        }
    }
    out
}
