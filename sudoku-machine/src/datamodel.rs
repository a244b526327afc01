//! The chart's datamodel types and the helpers ported from `sudoku.js`, the script of Qt's
//! SCXML Sudoku example.
//!
//! Qt's chart keeps three ECMAScript variables, `initState` (the puzzle's givens),
//! `currentState` (the grid as the player sees it) and `undoStack` (the moves so far), and calls
//! six helpers from its transitions. Our chart keeps `initState` as a [`Grid`]; the player's grid,
//! notes and moves are [`crate::game::Play`], whose methods replace `restart()`,
//! `calculateCurrentState()` and `undo()` (with the same behaviour for Qt's `tap` and `undo`:
//! a tap cycles a cell 0, 1, ..., 9, 0; undo takes it back). The helpers that check a grid are
//! ported here: [`is_valid_position`], [`is_ok`] and [`is_solved`].
//!
//! Coordinates follow Qt: a tap is `{x, y}` with `x` the row and `y` the column, so the cell is
//! `grid.0[x][y]`, as in `initState[x][y]`.

use serde::{Deserialize, Serialize};
use sudoku_scxmlc::runtime::Event;

use crate::engine::techniques::Cell;

/// Side length of the grid: `initState.length` in the JavaScript helpers.
const SIZE: usize = 9;

/// A 9x9 Sudoku grid in row-major order: `grid.0[row][column]`, `0` for an empty cell and
/// `1..=9` for a digit.
///
/// It is the type of the chart's `initState` and of Qt's `currentState`. It serializes
/// transparently, as an array of 9 arrays of 9 integers, which is the JSON shape the Qt
/// example's script uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Grid(pub [[u8; 9]; 9]);

/// Whether a `tap` event names a cell the player may change: `event.data.x` (row) and
/// `event.data.y` (column) are integers in `0..9` and the cell is empty in `init_state`.
///
/// Ports `isValidPosition()`. Where JavaScript would compare `undefined` or a string, this is
/// stricter: a missing field, a non-integer (a string, `1.5`, `null`), a negative number or one
/// of 9 or more all give `false`. An integral float such as `3.0` counts as the integer `3`, as it
/// would in JavaScript.
pub fn is_valid_position(init_state: &Grid, event: &Event) -> bool {
    event_cell(event).is_some_and(|cell| init_state.0[cell.row()][cell.col()] == 0)
}

/// The cell an event names with `x` (row) and `y` (column), each an integer in `0..9` (see
/// [`is_valid_position`]); `None` for anything else. Qt's `tap` and the window's `click`
/// both name cells this way.
pub fn event_cell(event: &Event) -> Option<Cell> {
    Some(Cell::new(
        coordinate(event.data.get("x")?)?,
        coordinate(event.data.get("y")?)?,
    ))
}

/// Where Qt's `tap` event points, as the chart declares it (`<rs:event name="tap"
/// type="Position"/>`): `x` is the row and `y` the column; its JSON is Qt's `{"x": .., "y":
/// ..}`. Any integers are accepted, so that a tap outside the grid is ignored as in Qt rather
/// than refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// The row.
    pub x: i64,
    /// The column.
    pub y: i64,
}

impl Position {
    /// The cell, when both coordinates are in `0..9`.
    pub fn cell(&self) -> Option<Cell> {
        let index = |v: i64| usize::try_from(v).ok().filter(|&i| i < SIZE);
        Some(Cell::new(index(self.x)?, index(self.y)?))
    }
}

/// [`is_valid_position`] for a typed `tap`: the position is inside the grid and its cell is
/// empty in `init_state`.
pub fn is_valid_tap(init_state: &Grid, position: &Position) -> bool {
    position
        .cell()
        .is_some_and(|cell| init_state.0[cell.row()][cell.col()] == 0)
}

/// A JSON number that is an integer in `0..SIZE`.
fn coordinate(value: &serde_json::Value) -> Option<usize> {
    let index = match value.as_u64() {
        Some(n) => n,
        None => {
            let f = value.as_f64()?;
            if f.fract() != 0.0 || !(0.0..SIZE as f64).contains(&f) {
                return None;
            }
            f as u64
        }
    };
    usize::try_from(index).ok().filter(|&i| i < SIZE)
}

/// Whether a row, column or box is complete: no zero and no digit twice.
///
/// Ports `isOK(numbers)`. Like the original, an empty slice is OK.
pub fn is_ok(numbers: &[u8]) -> bool {
    let mut seen = [false; 256];
    for &n in numbers {
        if n == 0 || seen[usize::from(n)] {
            return false;
        }
        seen[usize::from(n)] = true;
    }
    true
}

/// Whether the grid is solved: every row, column and 3x3 box passes [`is_ok`].
///
/// Ports `isSolved()`, which checks row `i`, column `i` and box `i` in one loop; box `i` is the
/// `i`-th box in reading order.
pub fn is_solved(current_state: &Grid) -> bool {
    let g = &current_state.0;
    (0..SIZE).all(|i| {
        let column: [u8; SIZE] = std::array::from_fn(|j| g[j][i]);
        let square: [u8; SIZE] = std::array::from_fn(|j| g[i / 3 * 3 + j / 3][i % 3 * 3 + j % 3]);
        is_ok(&g[i]) && is_ok(&column) && is_ok(&square)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Qt's `nearly-solved-sudoku.data`: only row 0, column 0 is empty; 4 solves it.
    const NEARLY_SOLVED: Grid = Grid([
        [0, 3, 5, 2, 6, 9, 7, 8, 1],
        [6, 8, 2, 5, 7, 1, 4, 9, 3],
        [1, 9, 7, 8, 3, 4, 5, 6, 2],
        [8, 2, 6, 1, 9, 5, 3, 4, 7],
        [3, 7, 4, 6, 8, 2, 9, 1, 5],
        [9, 5, 1, 7, 4, 3, 6, 2, 8],
        [5, 1, 9, 3, 2, 6, 8, 7, 4],
        [2, 4, 8, 9, 5, 7, 1, 3, 6],
        [7, 6, 3, 4, 1, 8, 2, 5, 9],
    ]);

    fn solved() -> Grid {
        let mut g = NEARLY_SOLVED;
        g.0[0][0] = 4;
        g
    }

    fn tap(x: impl Into<serde_json::Value>, y: impl Into<serde_json::Value>) -> Event {
        Event::new("tap", json!({ "x": x.into(), "y": y.into() }))
    }

    #[test]
    fn grid_serializes_as_nested_arrays() {
        let text = serde_json::to_string(&NEARLY_SOLVED).unwrap();
        assert!(text.starts_with("[[0,3,5,2,6,9,7,8,1],[6,8,2,"), "{text}");
        let back: Grid = serde_json::from_str(&text).unwrap();
        assert_eq!(back, NEARLY_SOLVED);
        assert!(serde_json::from_str::<Grid>("[[1,2,3]]").is_err());
    }

    #[test]
    fn valid_positions_are_empty_given_cells_inside_the_grid() {
        let init = NEARLY_SOLVED;
        assert!(is_valid_position(&init, &tap(0, 0)));
        assert!(is_valid_position(&init, &tap(0.0, 0)));
        // a given cell
        assert!(!is_valid_position(&init, &tap(0, 1)));
        assert!(!is_valid_position(&init, &tap(8, 8)));
        // outside the grid
        assert!(!is_valid_position(&init, &tap(-1, 0)));
        assert!(!is_valid_position(&init, &tap(0, 9)));
        assert!(!is_valid_position(&init, &tap(9, 0)));
        assert!(!is_valid_position(&init, &tap(u64::MAX, 0)));
        // not integers
        assert!(!is_valid_position(&init, &tap(0.5, 0)));
        assert!(!is_valid_position(&init, &tap("0", 0)));
        assert!(!is_valid_position(&init, &tap(serde_json::Value::Null, 0)));
        assert!(!is_valid_position(&init, &tap(f64::NAN, 0)));
        // missing fields
        assert!(!is_valid_position(
            &init,
            &Event::new("tap", json!({ "x": 0 }))
        ));
        assert!(!is_valid_position(
            &init,
            &Event::new("tap", json!({ "y": 0 }))
        ));
        assert!(!is_valid_position(
            &init,
            &Event::new("tap", serde_json::Value::Null)
        ));
        assert!(!is_valid_position(&init, &Event::new("tap", json!([0, 0]))));
        // every cell of an empty grid is valid
        assert!(is_valid_position(&Grid::default(), &tap(8, 8)));
        assert!(is_valid_position(&Grid::default(), &tap(3, 7)));
    }

    #[test]
    fn four_taps_solve_the_nearly_solved_puzzle() {
        let init = NEARLY_SOLVED;
        let mut play = crate::game::Play::default();
        play.restart(&init);
        for _ in 0..3 {
            assert!(play.tap(&init, &tap(0, 0)));
            assert!(!is_solved(&play.values));
        }
        assert!(play.tap(&init, &tap(0, 0)));
        assert_eq!(play.values.0[0][0], 4);
        assert!(is_solved(&play.values));
        assert!(!play.tap(&init, &tap(0, 1)), "a given");
    }

    #[test]
    fn typed_taps_are_valid_where_json_ones_are() {
        let init = NEARLY_SOLVED;
        let at = |x, y| Position { x, y };
        for (x, y) in [
            (0, 0),
            (0, 1),
            (8, 8),
            (-1, 0),
            (0, 9),
            (9, 0),
            (i64::MAX, 0),
        ] {
            assert_eq!(
                is_valid_tap(&init, &at(x, y)),
                is_valid_position(&init, &tap(x, y)),
                "({x}, {y})"
            );
        }
        assert_eq!(at(2, 7).cell(), Some(Cell::new(2, 7)));
        let json: Position = serde_json::from_value(json!({"x": 3, "y": 4})).unwrap();
        assert_eq!(json, at(3, 4));
    }

    #[test]
    fn is_ok_rejects_zeros_and_duplicates() {
        assert!(is_ok(&[1, 2, 3, 4, 5, 6, 7, 8, 9]));
        assert!(is_ok(&[9, 8, 7, 6, 5, 4, 3, 2, 1]));
        assert!(is_ok(&[]));
        assert!(!is_ok(&[1, 2, 3, 4, 0, 6, 7, 8, 9]));
        assert!(!is_ok(&[1, 2, 3, 4, 5, 6, 7, 8, 1]));
        assert!(!is_ok(&[5, 5]));
    }

    #[test]
    fn is_solved_checks_zeros_rows_columns_and_boxes() {
        assert!(is_solved(&solved()));
        assert!(!is_solved(&NEARLY_SOLVED), "a zero");
        assert!(!is_solved(&Grid::default()));

        // Same digits in every row: rows are fine, columns are not.
        let rows_only = Grid([[1, 2, 3, 4, 5, 6, 7, 8, 9]; 9]);
        assert!(!is_solved(&rows_only), "duplicate in a column");

        // Each row a shift of the one above by one: rows and columns are fine, boxes are not.
        let latin = Grid(std::array::from_fn(|r| {
            std::array::from_fn(|c| ((r + c) % 9 + 1) as u8)
        }));
        for i in 0..9 {
            assert!(is_ok(&latin.0[i]));
            assert!(is_ok(&std::array::from_fn::<u8, 9, _>(|j| latin.0[j][i])));
        }
        assert!(!is_solved(&latin), "duplicate in a box");

        // A duplicate in a row: swap two cells of one column.
        let mut g = solved();
        g.0[0][0] = g.0[0][1];
        assert!(!is_solved(&g), "duplicate in a row");
    }
}
