//! Puzzle files: reading and writing the text forms of a Sudoku grid.
//!
//! - **Qt's `.data` form**, used by the bundled puzzles and Qt's example: 9 lines of 9
//!   comma-separated digits, `0` for an empty cell, spaces allowed around each digit.
//! - **The line form** of the public puzzle collections: 81 characters in reading order, a digit
//!   `1`-`9` for a given and `.` or `0` for an empty cell.
//! - **The grid form** that people type and books print: 9 lines of 9 cells (a digit, `.` or
//!   `0`), with any spaces or tabs between cells, `|` between boxes and lines such as
//!   `------+-------+------` between bands or around the grid (skipped).
//!
//! [`parse`] tells them apart by the first line that holds anything: a comma means the `.data`
//! form; a line of `-`, `+` and `|`, one of at most 9 cells, or one with spaces or `|` between
//! its cells the grid form; else the line form. In all forms blank lines and lines starting
//! with `#` (comments) are skipped. Errors carry the 1-based line they were found on, and
//! givens that clash (the same digit twice in a row, column or box) are rejected, naming the
//! house and both cells. Parsing never panics.

use crate::datamodel::Grid;
use thiserror::Error;

/// A named puzzle: what the game's puzzle chooser lists. Serializes as
/// `{"name": ..., "givens": [[...]], "level": "hard"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Puzzle {
    /// The name shown to the player; for a bundled puzzle, its file stem
    /// (`nearly-solved-sudoku`).
    pub name: String,
    /// The givens, `0` for a cell the player fills in.
    pub givens: Grid,
    /// Its grade by this project's grader, when known (the bundled puzzles are graded at
    /// build time; `None` for a puzzle without a unique solution).
    #[serde(default)]
    pub level: Option<crate::engine::Level>,
}

/// Why a text is not a puzzle. Displays as `line N: message`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct PuzzleError {
    /// The 1-based line of the text where the problem is.
    pub line: usize,
    /// What is wrong, in lowercase, naming the offending text in backticks.
    pub message: String,
}

impl PuzzleError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        PuzzleError {
            line,
            message: message.into(),
        }
    }
}

/// Lines that carry content: `(1-based line number, trimmed text)`, without blank lines and
/// `#` comments.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    // A byte order mark (Windows Notepad writes one) is not content.
    text.strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// Whether a content line is a row of the Qt `.data` form: it has a comma before any `:` or
/// `|` (a line-form note such as `|multiple|6,670,903,752,021,072,936,960 grids` may hold
/// commas of its own).
fn is_qt_row(line: &str) -> bool {
    line.split([':', '|'])
        .next()
        .is_some_and(|cells| cells.contains(','))
}

/// Whether `text` is in the Qt `.data` form (its first content line is a comma-separated row)
/// rather than the line form.
pub fn is_qt_data(text: &str) -> bool {
    content_lines(text)
        .next()
        .is_some_and(|(_, first)| is_qt_row(first))
}

/// Whether `text` starts like the grid form: its first content line is a row of exactly 9
/// cells (digits or `.`), with any spaces, tabs or `|` between them. (A single-puzzle reader
/// such as [`parse`] takes any first line of at most 9 cells for a row; this stricter test
/// lets a file of one puzzle per line whose first line is a short mistake stay a file of
/// lines.)
pub fn is_grid_form(text: &str) -> bool {
    let mut rows = content_lines(text).filter(|(_, line)| !is_band_separator(line));
    rows.next().is_some_and(|(_, first)| {
        let mut cells = grid_row_cells(first);
        cells
            .by_ref()
            .take(9)
            .filter(|c| matches!(c, '0'..='9' | '.'))
            .count()
            == 9
            && cells.next().is_none()
    })
}

/// Reads a puzzle in any of the forms (see the [module docs](self)).
///
/// In the line form only the first content line is read; use [`parse_lines`] for a file with
/// one puzzle per line.
///
/// # Errors
/// A [`PuzzleError`] naming the line: no puzzle at all, the wrong number of rows or cells, a
/// character that is not a digit, or two equal givens in one row, column or box.
pub fn parse(text: &str) -> Result<Grid, PuzzleError> {
    let mut lines = content_lines(text).peekable();
    match lines.peek() {
        None => Err(PuzzleError::new(
            text.lines().count().max(1),
            "no puzzle found: the text has no digits",
        )),
        Some((_, first)) if is_qt_row(first) => parse_qt_data(lines),
        Some((_, first))
            if is_band_separator(first)
                || grid_row_cells(first).count() <= 9
                || first.contains(|c: char| c.is_whitespace() || c == '|') =>
        {
            parse_grid(lines)
        }
        Some(&(number, first)) => parse_line(number, first),
    }
}

/// Reads a file with one puzzle per line in the line form, as in the public collections:
/// one result per content line (blank lines and `#` comments are skipped). Anything after the
/// 81 cells that starts with `:` or `|` is ignored, so `puzzle:count` and
/// `puzzle|expected|note` lines read too; errors carry the line number within `text`.
pub fn parse_lines(text: &str) -> Vec<Result<Grid, PuzzleError>> {
    content_lines(text)
        .map(|(number, line)| {
            let cells = line.split([':', '|']).next().unwrap_or_default().trim();
            parse_line(number, cells)
        })
        .collect()
}

/// The Qt `.data` form, from the already-filtered content lines.
fn parse_qt_data<'a>(lines: impl Iterator<Item = (usize, &'a str)>) -> Result<Grid, PuzzleError> {
    parse_rows(lines, |number, line| {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 9 {
            return Err(PuzzleError::new(
                number,
                format!("expected 9 comma-separated digits, found {}", fields.len()),
            ));
        }
        let mut row = [0; 9];
        for (column, field) in fields.into_iter().enumerate() {
            row[column] = match field.as_bytes() {
                [digit @ b'0'..=b'9'] => digit - b'0',
                [] => {
                    return Err(PuzzleError::new(
                        number,
                        format!("column {} is empty, expected a digit", column + 1),
                    ))
                }
                _ => {
                    return Err(PuzzleError::new(
                        number,
                        format!("`{}` is not a digit", shorten(field)),
                    ))
                }
            };
        }
        Ok(row)
    })
}

/// The characters of a grid-form row that stand for cells: everything but spaces, tabs and the
/// `|` between boxes.
fn grid_row_cells(line: &str) -> impl Iterator<Item = char> + '_ {
    line.chars().filter(|&ch| !ch.is_whitespace() && ch != '|')
}

/// Whether a content line of the grid form only separates bands (`------+------+------`).
fn is_band_separator(line: &str) -> bool {
    grid_row_cells(line).all(|ch| matches!(ch, '-' | '+' | '=' | '_'))
}

/// The grid form, from the already-filtered content lines: 9 rows of 9 cells.
fn parse_grid<'a>(lines: impl Iterator<Item = (usize, &'a str)>) -> Result<Grid, PuzzleError> {
    let rows = lines.filter(|(_, line)| !is_band_separator(line));
    parse_rows(rows, |number, line| {
        let mut row = [0; 9];
        let mut columns = 0;
        for ch in grid_row_cells(line) {
            let Some(value) = cell_value(ch) else {
                return Err(PuzzleError::new(
                    number,
                    format!("`{}` is not a digit or `.`", ch.escape_debug()),
                ));
            };
            if let Some(cell) = row.get_mut(columns) {
                *cell = value;
            }
            columns += 1;
        }
        if columns != 9 {
            return Err(PuzzleError::new(
                number,
                format!("expected a row of 9 cells (digits, `.` for empty), found {columns}"),
            ));
        }
        Ok(row)
    })
}

/// A grid written one row per content line (the `.data` and grid forms): exactly 9 rows, each
/// read by `read_row(line number, text)`, then the givens checked for clashes.
fn parse_rows<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    read_row: impl Fn(usize, &str) -> Result<[u8; 9], PuzzleError>,
) -> Result<Grid, PuzzleError> {
    let mut grid = Grid::default();
    let mut row_lines = [0usize; 9];
    let mut rows = 0;
    let mut last_line = 1;
    for (number, line) in lines {
        if rows == 9 {
            return Err(PuzzleError::new(
                number,
                "expected 9 rows, found a 10th (the puzzle ended on the line before)",
            ));
        }
        grid.0[rows] = read_row(number, line)?;
        row_lines[rows] = number;
        rows += 1;
        last_line = number;
    }
    if rows < 9 {
        return Err(PuzzleError::new(
            last_line,
            format!("expected 9 rows, found {rows} (the text ends here)"),
        ));
    }
    check_givens(&grid, |row| row_lines[row])?;
    Ok(grid)
}

/// A cell's character in the line and grid forms: `1`-`9` a given, `.` or `0` an empty cell.
fn cell_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        _ => None,
    }
}

/// The line form: exactly 81 cells on one line.
fn parse_line(number: usize, line: &str) -> Result<Grid, PuzzleError> {
    let mut grid = Grid::default();
    let mut count = 0;
    for (i, ch) in line.chars().enumerate() {
        let Some(value) = cell_value(ch) else {
            return Err(PuzzleError::new(
                number,
                // Escaped: a control character would act on the terminal it is shown in.
                format!(
                    "`{}` (character {}) is not a digit or `.`",
                    ch.escape_debug(),
                    i + 1
                ),
            ));
        };
        if i < 81 {
            grid.0[i / 9][i % 9] = value;
        }
        count += 1;
    }
    if count != 81 {
        return Err(PuzzleError::new(
            number,
            format!("expected 81 cells (digits, `.` for empty), found {count}"),
        ));
    }
    check_givens(&grid, |_| number)?;
    Ok(grid)
}

/// A field cut to a readable length for an error message.
fn shorten(field: &str) -> String {
    const MAX: usize = 20;
    let shown: String = field
        .chars()
        .take(MAX)
        .flat_map(char::escape_debug)
        .collect();
    if field.chars().count() <= MAX {
        shown
    } else {
        shown + "..."
    }
}

/// Rejects givens that clash. Cells are checked in reading order, so the error names the
/// first cell that repeats an earlier given, on that cell's line (`line_of(row)`).
fn check_givens(grid: &Grid, line_of: impl Fn(usize) -> usize) -> Result<(), PuzzleError> {
    // Where each digit was first seen in each house: (row, column), 1-based when reported.
    let mut in_row = [[None::<usize>; 10]; 9];
    let mut in_column = [[None::<usize>; 10]; 9];
    let mut in_box = [[None::<(usize, usize)>; 10]; 9];
    for (r, row) in grid.0.iter().enumerate() {
        for (c, &d) in row.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let d_index = usize::from(d.min(9));
            let b = r / 3 * 3 + c / 3;
            let clash = |message: String| Err(PuzzleError::new(line_of(r), message));
            if let Some(c0) = in_row[r][d_index] {
                return clash(format!(
                    "row {} has the given {d} twice (columns {} and {})",
                    r + 1,
                    c0 + 1,
                    c + 1
                ));
            }
            if let Some(r0) = in_column[c][d_index] {
                return clash(format!(
                    "column {} has the given {d} twice (rows {} and {})",
                    c + 1,
                    r0 + 1,
                    r + 1
                ));
            }
            if let Some((r0, c0)) = in_box[b][d_index] {
                return clash(format!(
                    "box {} has the given {d} twice (row {} column {} and row {} column {})",
                    b + 1,
                    r0 + 1,
                    c0 + 1,
                    r + 1,
                    c + 1
                ));
            }
            in_row[r][d_index] = Some(c);
            in_column[c][d_index] = Some(r);
            in_box[b][d_index] = Some((r, c));
        }
    }
    Ok(())
}

/// Writes a grid in the line form: 81 characters, `.` for an empty cell, no newline.
pub fn to_line(grid: &Grid) -> String {
    grid.0
        .iter()
        .flatten()
        .map(|&d| digit_char(d, '.'))
        .collect()
}

/// Writes a grid in Qt's `.data` form, as Qt's files are laid out: 9 lines of 9 digits
/// separated by `", "`, `0` for an empty cell, each line ending in a newline.
pub fn to_qt_data(grid: &Grid) -> String {
    let mut out = String::with_capacity(9 * 26);
    for row in &grid.0 {
        for (i, &d) in row.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push(digit_char(d, '0'));
        }
        out.push('\n');
    }
    out
}

/// Writes a grid in the grid form, framed as books print it: 9 rows of cells separated by
/// spaces, `|` between boxes, a `+-------+-------+-------+` line around each band, `.` for an
/// empty cell, each line ending in a newline.
pub fn to_grid_form(grid: &Grid) -> String {
    const BORDER: &str = "+-------+-------+-------+\n";
    let mut out = String::with_capacity(13 * 26);
    out.push_str(BORDER);
    for (r, row) in grid.0.iter().enumerate() {
        for (c, &d) in row.iter().enumerate() {
            if c % 3 == 0 {
                out.push_str("| ");
            }
            out.push(digit_char(d, '.'));
            out.push(' ');
        }
        out.push_str("|\n");
        if r % 3 == 2 {
            out.push_str(BORDER);
        }
    }
    out
}

/// The character for a cell value: `empty` for 0, the digit for 1..=9, `?` for anything else.
fn digit_char(d: u8, empty: char) -> char {
    match d {
        0 => empty,
        1..=9 => char::from(b'0' + d),
        _ => '?',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QT_SUDOKU: &str = include_str!("../../puzzles/sudoku.data");
    const QT_SUDOKU_LINE: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    fn err(text: &str) -> PuzzleError {
        parse(text).expect_err("should not parse")
    }

    #[test]
    fn both_forms_read_the_same_grid() {
        let a = parse(QT_SUDOKU).unwrap();
        let b = parse(QT_SUDOKU_LINE).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.0[0], [0, 0, 0, 2, 6, 0, 7, 0, 1]);
        assert_eq!(a.0[8], [7, 0, 3, 0, 1, 8, 0, 0, 0]);
        assert_eq!(parse(&QT_SUDOKU_LINE.replace('.', "0")).unwrap(), a);
    }

    #[test]
    fn the_grid_form_reads_as_people_type_it() {
        let want = parse(QT_SUDOKU).unwrap();
        let rows: Vec<String> = QT_SUDOKU_LINE
            .as_bytes()
            .chunks(9)
            .map(|row| String::from_utf8(row.to_vec()).unwrap())
            .collect();
        // Nine plain lines, as a text editor holds them.
        assert_eq!(parse(&rows.join("\n")), Ok(want));
        // Tab-separated, zeros for empty cells (a spreadsheet's copy).
        let tabs: Vec<String> = rows
            .iter()
            .map(|row| {
                let cells: Vec<String> = row.replace('.', "0").chars().map(String::from).collect();
                cells.join("\t")
            })
            .collect();
        assert_eq!(parse(&tabs.join("\r\n")), Ok(want));
        // Boxes and bands drawn, as books print them.
        let drawn = "\
            . . . | 2 6 . | 7 . 1
            6 8 . | . 7 . | . 9 .
            1 9 . | . . 4 | 5 . .
            ------+-------+------
            8 2 . | 1 . . | . 4 .
            . . 4 | 6 . 2 | 9 . .
            . 5 . | . . 3 | . 2 8
            ------+-------+------
            . . 9 | 3 . . | . 7 4
            . 4 . | . 5 . | . 3 6
            7 . 3 | . 1 8 | . . .";
        assert_eq!(parse(drawn), Ok(want));
        // With a border all round.
        let framed = to_grid_form(&want);
        assert!(framed.starts_with("+-------+-------+-------+\n| . . . | 2 6 . | 7 . 1 |\n"));
        assert_eq!(framed.lines().count(), 13);
        assert!(is_grid_form(&framed));
        assert_eq!(parse(&framed), Ok(want));
    }

    #[test]
    fn the_grid_form_is_told_by_its_first_row() {
        assert!(is_grid_form("# a comment\n53..7.... \n"));
        assert!(is_grid_form("5 3 . | . 7 . | . . .\n"));
        assert!(!is_grid_form("bad line\n"), "7 cells");
        assert!(!is_grid_form("53..7....1\n"), "10 cells");
        assert!(!is_grid_form("53..x....\n"), "not a cell");
        assert!(!is_grid_form(QT_SUDOKU) && !is_grid_form(QT_SUDOKU_LINE) && !is_grid_form(""));
    }

    #[test]
    fn grid_form_errors_name_the_line() {
        let rows: Vec<&str> = (0..9).map(|r| &QT_SUDOKU_LINE[r * 9..r * 9 + 9]).collect();
        let short = rows[..8].join("\n");
        assert_eq!(
            parse(&short).unwrap_err().to_string(),
            "line 8: expected 9 rows, found 8 (the text ends here)"
        );
        let mut bad = rows.clone();
        bad[3] = "82.1...4";
        assert_eq!(
            parse(&bad.join("\n")).unwrap_err().to_string(),
            "line 4: expected a row of 9 cells (digits, `.` for empty), found 8"
        );
        bad[3] = "82.1x..4.";
        assert_eq!(
            parse(&bad.join("\n")).unwrap_err().to_string(),
            "line 4: `x` is not a digit or `.`"
        );
        let mut clash = rows.clone();
        clash[1] = "68.6.....";
        let e = parse(&clash.join("\n")).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("row 2 has the given 6 twice"), "{e}");
        // Spaced out, a row of 10 is a row of the grid form that is too long.
        assert_eq!(
            parse("1 2 3 4 5 6 7 8 9 0\n").unwrap_err().to_string(),
            "line 1: expected a row of 9 cells (digits, `.` for empty), found 10"
        );
        let mut ten = rows.clone();
        ten.push(".........");
        assert!(parse(&ten.join("\n"))
            .unwrap_err()
            .to_string()
            .starts_with("line 10: expected 9 rows, found a 10th"));
    }

    #[test]
    fn writers_round_trip() {
        let g = parse(QT_SUDOKU).unwrap();
        assert_eq!(to_line(&g), QT_SUDOKU_LINE);
        assert_eq!(to_qt_data(&g), QT_SUDOKU, "byte for byte as Qt's file");
        assert_eq!(parse(&to_qt_data(&g)).unwrap(), g);
        assert_eq!(parse(&to_line(&g)).unwrap(), g);
    }

    #[test]
    fn whitespace_blank_lines_and_comments_are_ignored() {
        let spaced = QT_SUDOKU.replace(", ", " ,\t").replace('\n', "\r\n\n  ");
        let text = format!("# a comment\n\n{spaced}\n\n");
        assert_eq!(parse(&text).unwrap(), parse(QT_SUDOKU).unwrap());
        let compact = QT_SUDOKU.replace(", ", ",");
        assert_eq!(parse(&compact).unwrap(), parse(QT_SUDOKU).unwrap());
        let line = format!("\n  {QT_SUDOKU_LINE}  \nignored second line\n");
        assert_eq!(parse(&line).unwrap(), parse(QT_SUDOKU).unwrap());
    }

    #[test]
    fn a_byte_order_mark_is_not_content() {
        let plain = parse(QT_SUDOKU).unwrap();
        assert_eq!(parse(&format!("\u{feff}{QT_SUDOKU}")), Ok(plain));
        let line = to_line(&plain);
        assert_eq!(parse(&format!("\u{feff}{line}\n")), Ok(plain));
        assert_eq!(parse_lines(&format!("\u{feff}{line}\n{line}")).len(), 2);
        // Only at the start: elsewhere it is a character that is not a digit, shown escaped.
        assert!(parse(&format!("{line}\u{feff}")).is_err());
        let escape = format!("\u{1b}{}", &line[1..]);
        assert_eq!(
            parse(&escape).unwrap_err().to_string(),
            "line 1: `\\u{1b}` (character 1) is not a digit or `.`"
        );
    }

    #[test]
    fn qt_form_errors_name_the_line() {
        let short_row =
            QT_SUDOKU.replacen("6, 8, 0, 0, 7, 0, 0, 9, 0", "6, 8, 0, 0, 7, 0, 0, 9", 1);
        let e = err(&short_row);
        assert_eq!(e.line, 2);
        assert_eq!(
            e.to_string(),
            "line 2: expected 9 comma-separated digits, found 8"
        );

        let letter = QT_SUDOKU.replacen("0, 4, 0, 0, 5", "0, 4, x, 0, 5", 1);
        assert_eq!(err(&letter).to_string(), "line 8: `x` is not a digit");

        let two_digits = QT_SUDOKU.replacen("7, 0, 3", "7, 10, 3", 1);
        assert_eq!(err(&two_digits).to_string(), "line 9: `10` is not a digit");

        let empty_field = QT_SUDOKU.replacen("1, 9, 0", "1, , 0", 1);
        assert_eq!(
            err(&empty_field).to_string(),
            "line 3: column 2 is empty, expected a digit"
        );

        let eight_rows: String = QT_SUDOKU
            .lines()
            .take(8)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            err(&eight_rows).to_string(),
            "line 8: expected 9 rows, found 8 (the text ends here)"
        );

        let ten_rows = format!("{QT_SUDOKU}\n0,0,0,0,0,0,0,0,0\n");
        let e = err(&ten_rows);
        assert_eq!(e.line, 11);
        assert!(
            e.message.starts_with("expected 9 rows, found a 10th"),
            "{e}"
        );

        assert_eq!(
            err("").to_string(),
            "line 1: no puzzle found: the text has no digits"
        );
        assert_eq!(err("\n\n# only a comment\n").line, 3);
    }

    #[test]
    fn line_form_errors_name_the_character() {
        let short = &QT_SUDOKU_LINE[1..];
        assert_eq!(
            err(short).to_string(),
            "line 1: expected 81 cells (digits, `.` for empty), found 80"
        );
        let long = format!("\n\n{QT_SUDOKU_LINE}.");
        assert_eq!(err(&long).line, 3);
        let bad = QT_SUDOKU_LINE.replacen('.', "x", 1);
        assert_eq!(
            err(&bad).to_string(),
            "line 1: `x` (character 1) is not a digit or `.`"
        );
    }

    #[test]
    fn clashing_givens_are_rejected() {
        // row 3 (line 3) gets a second 5 in column 7... it has one in column 7 already: use 4.
        let row = QT_SUDOKU.replacen("1, 9, 0, 0, 0, 4, 5, 0, 0", "1, 9, 0, 0, 0, 4, 5, 4, 0", 1);
        assert_eq!(
            err(&row).to_string(),
            "line 3: row 3 has the given 4 twice (columns 6 and 8)"
        );

        // column 1: 8 in row 4, put another 8 in row 9 of column 1? Row 9 has 7 there; use row 5.
        let column =
            QT_SUDOKU.replacen("0, 0, 4, 6, 0, 2, 9, 0, 0", "8, 0, 4, 6, 0, 2, 9, 0, 0", 1);
        let e = err(&column);
        assert_eq!(
            e.to_string(),
            "line 5: column 1 has the given 8 twice (rows 4 and 5)"
        );

        // box 1: 6 at row 2 column 1; another 6 at row 1 column 3 is caught there, in box 1.
        let b = QT_SUDOKU.replacen("0, 0, 0, 2, 6", "0, 0, 5, 2, 6", 1);
        assert!(
            parse(&b).is_ok(),
            "5 in row 1 column 3 clashes with nothing"
        );
        let b = QT_SUDOKU.replacen("1, 9, 0, 0, 0, 4", "1, 9, 8, 0, 0, 4", 1);
        assert_eq!(
            err(&b).to_string(),
            "line 3: box 1 has the given 8 twice (row 2 column 2 and row 3 column 3)"
        );

        let line = format!("11{}", &QT_SUDOKU_LINE[2..]);
        assert_eq!(
            err(&line).to_string(),
            "line 1: row 1 has the given 1 twice (columns 1 and 2)"
        );
    }

    #[test]
    fn parse_lines_reads_collections() {
        let text = format!(
            "# header\n{QT_SUDOKU_LINE}:1:whatever\n\n{QT_SUDOKU_LINE}|unique|note\nnonsense\n"
        );
        let results = parse_lines(&text);
        assert_eq!(results.len(), 3);
        assert_eq!(results[0], parse(QT_SUDOKU));
        assert_eq!(results[1], parse(QT_SUDOKU));
        assert_eq!(results[2].as_ref().unwrap_err().line, 5);
    }

    /// A small deterministic generator (xorshift64*), so the garbage test needs no dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn garbage_never_panics() {
        const ALPHABET: &[&str] = &[
            "0", "1", "5", "9", ".", ",", ", ", " ", "\n", "\r\n", "#", ":", "|", "x", "é", "10",
            "\t", "",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let seeds = [QT_SUDOKU, QT_SUDOKU_LINE, ""];
        for i in 0..20_000 {
            let text: String = if i % 2 == 0 {
                // pure noise
                (0..rng.below(200))
                    .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                    .collect()
            } else {
                // a valid puzzle with a few characters replaced, removed or inserted
                let mut chars: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
                for _ in 0..=rng.below(4) {
                    let pos = rng.below(chars.len() + 1);
                    let piece: Vec<char> = ALPHABET[rng.below(ALPHABET.len())].chars().collect();
                    match rng.below(3) {
                        0 if pos < chars.len() => {
                            chars.remove(pos);
                        }
                        _ => chars.splice(pos..pos, piece).for_each(drop),
                    }
                }
                chars.into_iter().collect()
            };
            if let Ok(g) = parse(&text) {
                // Whatever parses is a well-formed grid that writes and reads back the same.
                assert!(g.0.iter().flatten().all(|&d| d <= 9));
                assert_eq!(parse(&to_line(&g)), Ok(g));
                assert_eq!(parse(&to_qt_data(&g)), Ok(g));
                assert_eq!(parse(&to_grid_form(&g)), Ok(g));
            } else {
                let e = parse(&text).unwrap_err();
                assert!(
                    e.line >= 1 && e.line <= text.lines().count().max(1),
                    "{e:?} in {text:?}"
                );
            }
            let _ = parse_lines(&text);
        }
    }
}
