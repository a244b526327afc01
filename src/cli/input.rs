//! Reading puzzles for the command line: files or standard input as bytes, one puzzle per
//! line (an 81-cell fast path, then the general rules of [`puzzle`] for the error message) or
//! one Qt `.data` grid, with the line of every problem.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use sudoku_machine::datamodel::Grid;
use sudoku_machine::engine::clashes;
use sudoku_machine::puzzle;

/// One puzzle read from an input, or why its line is not one.
pub(super) enum Item {
    /// A grid of 81 values `0..=9` (its givens may still clash: the answer says so).
    Grid(Grid),
    /// A well-formed grid whose givens clash: an answer (`invalid: ...`), not a bad line.
    Invalid(String),
    /// A line that is not a puzzle: `(line number, reason)`.
    Bad(usize, String),
}

/// How many bytes [`stream_items`] reads at a time: enough that reading costs few system
/// calls, small enough that the buffer is reused from the heap rather than faulted in page by
/// page (reading a 4 MB file whole cost a page fault per 4 KB, about 1,000 of them).
const PIECE: usize = 32 * 1024;

/// The UTF-8 byte order mark that some editors (Windows Notepad) write first: not content.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The longest line [`stream_items`] reads as a puzzle (a puzzle line is 81 cells and a note):
/// a longer one is reported and skipped without being kept in memory.
const MAX_LINE: usize = 64 * 1024;

/// An input to read puzzles from, opened: a file, stdin for `-`, or the argument itself when
/// it is a puzzle written out (81 cells) and no file has that name; with the name to report
/// errors under. A directory is refused by name.
pub(super) fn open_source(file: &str) -> io::Result<(String, Box<dyn Read>)> {
    if file == "-" {
        return Ok(("<stdin>".to_owned(), Box::new(io::stdin().lock())));
    }
    if Path::new(file).is_dir() {
        return Err(io::Error::other("is a directory, not a file of puzzles"));
    }
    // A puzzle written out (81 cells) that names no file is read as itself.
    if loose_line(file).is_some() && !Path::new(file).exists() {
        return Ok((
            "<argument>".to_owned(),
            Box::new(io::Cursor::new(file.as_bytes().to_vec())),
        ));
    }
    Ok((file.to_owned(), Box::new(File::open(file)?)))
}

/// Appends the next `more` bytes of `reader` to `buf`, or what is left of it; true when the
/// input has ended.
fn fill(reader: &mut dyn Read, buf: &mut Vec<u8>, more: usize) -> io::Result<bool> {
    buf.reserve(more);
    let got = reader.take(more as u64).read_to_end(buf)?;
    Ok(got < more)
}

/// Calls `each` with the puzzles of an input as [`read_items`] does with the whole input, but
/// reads it [`PIECE`] bytes at a time, answering the lines of each piece before reading the
/// next (a Qt `.data` grid is read whole). Errors are those of reading.
pub(super) fn stream_items(reader: &mut dyn Read, mut each: impl FnMut(Item)) -> io::Result<()> {
    let mut buf = Vec::new();
    let mut end = fill(reader, &mut buf, PIECE)?;
    if buf.starts_with(BOM) {
        buf.drain(..BOM.len());
    }
    // Whether the input is a Qt grid is told by its first line with content: read until
    // that line is whole (looking again only once a newline came, so a long first line is
    // read in linear time), or [`MAX_LINE`] bytes.
    let mut checked = 0;
    while !end && buf.len() <= MAX_LINE {
        if buf[checked..].contains(&b'\n')
            && first_content_line(&buf).is_some_and(|(_, whole)| whole)
        {
            break;
        }
        checked = buf.len();
        end = fill(reader, &mut buf, PIECE)?;
    }
    if is_one_grid(&buf) {
        reader.read_to_end(&mut buf)?;
        read_items(&buf, each);
        return Ok(());
    }
    let mut number = 0;
    // The bytes at the start of `buf` known to hold no newline.
    let mut scanned = 0;
    // Inside a line longer than [`MAX_LINE`], already reported: dropped up to its end.
    let mut skipping = false;
    loop {
        if skipping {
            match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    buf.drain(..=i);
                    skipping = false;
                    scanned = 0;
                }
                None => {
                    buf.clear();
                    if end {
                        return Ok(());
                    }
                    end = fill(reader, &mut buf, PIECE)?;
                    continue;
                }
            }
        }
        let lines = if end {
            buf.len()
        } else {
            buf[scanned..]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| scanned + i + 1)
        };
        read_lines(&buf[..lines], &mut number, &mut each);
        if end {
            return Ok(());
        }
        buf.drain(..lines);
        if buf.len() > MAX_LINE {
            number += 1;
            each(Item::Bad(
                number,
                format!(
                    "the line is longer than {} KiB: not a puzzle",
                    MAX_LINE / 1024
                ),
            ));
            buf.clear();
            skipping = true;
        }
        scanned = buf.len();
        end = fill(reader, &mut buf, PIECE)?;
    }
}

/// The cell value of each byte of the line form: `0` for `.` and `0`, the digit for `1`-`9`,
/// `0x80` for any other byte.
const CELL_VALUE: [u8; 256] = {
    let mut t = [0x80u8; 256];
    t[b'.' as usize] = 0;
    let mut d = 0;
    while d <= 9 {
        t[(b'0' + d) as usize] = d;
        d += 1;
    }
    t
};

/// The grid of exactly 81 cell bytes (`.` or `0` for empty, `1`-`9`), or `None`.
fn fast_grid(cells: &[u8]) -> Option<Grid> {
    let cells: &[u8; 81] = cells.try_into().ok()?;
    let mut grid = Grid::default();
    let mut bad = 0;
    for (value, &byte) in grid.0.as_flattened_mut().iter_mut().zip(cells) {
        let v = CELL_VALUE[usize::from(byte)];
        bad |= v;
        *value = v;
    }
    (bad & 0x80 == 0).then_some(grid)
}

/// Calls `each` with the puzzles of an input, in order: one per content line (blank lines and
/// `#` comments are skipped; anything after `:` or `|` is a note), or one grid over several
/// lines (a Qt `.data` grid or the grid form, [`puzzle::is_qt_data`], [`puzzle::is_grid_form`]).
/// Most lines are exactly 81 cell bytes before a newline or a note;
/// those are read without any other test. A line that is not UTF-8 is a bad line, and so is a
/// Qt file that is not.
pub(super) fn read_items(bytes: &[u8], mut each: impl FnMut(Item)) {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if is_one_grid(bytes) {
        each(match std::str::from_utf8(bytes) {
            Ok(text) => match puzzle::parse(text) {
                Ok(grid) => Item::Grid(grid),
                Err(e) => invalid_or_bad(loose_qt(text), e.line, e.message),
            },
            Err(e) => {
                let line = 1 + bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                Item::Bad(line, not_utf8(bytes, e.valid_up_to()))
            }
        });
        return;
    }
    read_lines(bytes, &mut 0, &mut each);
}

/// Whether an input is one grid over several lines, a Qt `.data` grid or the grid form (nine
/// rows of nine cells, maybe framed by `---+---` lines), told by its first lines with content.
fn is_one_grid(bytes: &[u8]) -> bool {
    let Some((first, _)) = first_content_line(bytes) else {
        return false;
    };
    // The first lines of content are enough to tell; a grid's rows are short.
    let start = first.as_ptr() as usize - bytes.as_ptr() as usize;
    let head = &bytes[start..bytes.len().min(start + 4096)];
    let head = String::from_utf8_lossy(head);
    puzzle::is_qt_data(&head) || puzzle::is_grid_form(&head)
}

/// Calls `each` with the puzzles of whole lines of the line form (the last one may lack its
/// newline), one per content line; `number` is the number of the line before them, and is
/// left at the last one's.
fn read_lines(bytes: &[u8], number: &mut usize, each: &mut impl FnMut(Item)) {
    let mut at = 0;
    while at < bytes.len() {
        *number += 1;
        // The common case: 81 cells, then the end of the line or a note.
        if let (Some(grid), Some(&next)) = (
            bytes.get(at..at + 81).and_then(fast_grid),
            bytes.get(at + 81),
        ) {
            if next == b'\n' {
                each(Item::Grid(grid));
                at += 82;
                continue;
            }
            if next == b'\r' && bytes.get(at + 82) == Some(&b'\n') {
                each(Item::Grid(grid));
                at += 83;
                continue;
            }
            if next == b':' || next == b'|' {
                each(Item::Grid(grid));
                at = line_end(bytes, at + 81);
                continue;
            }
        }
        let end = memchr_newline(bytes, at);
        let line = &bytes[at..end];
        at = end + 1;
        if let Some(item) = read_line(*number, line) {
            each(item);
        }
    }
}

/// The index just past the newline that ends the line holding `from` (or the length).
fn line_end(bytes: &[u8], from: usize) -> usize {
    memchr_newline(bytes, from) + 1
}

/// The index of the first newline at or after `from`, or the length.
fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| from + i)
}

/// The first line with content: its trimmed bytes, and whether a newline ends it.
fn first_content_line(bytes: &[u8]) -> Option<(&[u8], bool)> {
    let mut lines = bytes.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let line = line.trim_ascii();
        if !line.is_empty() && !line.starts_with(b"#") {
            return Some((line, lines.peek().is_some()));
        }
    }
    None
}

/// One line of the line form by the general rules, `None` for a blank or comment line.
fn read_line(number: usize, line: &[u8]) -> Option<Item> {
    let line = line.trim_ascii();
    if line.is_empty() || line.starts_with(b"#") {
        return None;
    }
    let cells = line
        .split(|&b| b == b':' || b == b'|')
        .next()
        .unwrap_or_default()
        .trim_ascii();
    if let Some(grid) = fast_grid(cells) {
        return Some(Item::Grid(grid));
    }
    Some(match std::str::from_utf8(cells) {
        Ok(text) => match puzzle::parse_lines(text).pop() {
            Some(Err(e)) => Item::Bad(number, e.message),
            // (Cannot happen: 81 valid cells were read above.)
            Some(Ok(grid)) => Item::Grid(grid),
            None => Item::Bad(
                number,
                "expected 81 cells (digits, `.` for empty), found 0".to_owned(),
            ),
        },
        Err(e) => Item::Bad(number, not_utf8(cells, e.valid_up_to())),
    })
}

/// The reason for a line whose byte `at` starts an invalid UTF-8 sequence.
fn not_utf8(bytes: &[u8], at: usize) -> String {
    let column = bytes[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .count();
    format!(
        "byte 0x{:02X} (byte {} of the line) is not UTF-8 text: the line is not a puzzle",
        bytes[at],
        column + 1
    )
}

/// After a parse error of a Qt grid: `invalid: <clashes>` when the text is a well-formed grid
/// whose givens clash (an answer), else the error as a bad line.
fn invalid_or_bad(loose: Option<Grid>, line: usize, message: String) -> Item {
    let found = loose.map(|grid| clashes(&grid)).unwrap_or_default();
    if found.is_empty() {
        return Item::Bad(line, message);
    }
    Item::Invalid(
        found
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "),
    )
}

/// An 81-cell line read without the clash check (the part before `:` or `|`).
pub(super) fn loose_line(line: &str) -> Option<Grid> {
    fast_grid(line.split([':', '|']).next()?.trim().as_bytes())
}

/// A Qt `.data` grid read without the clash check.
pub(super) fn loose_qt(text: &str) -> Option<Grid> {
    let values: Vec<u8> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let fields: Vec<&str> = l.split(',').map(str::trim).collect();
            (fields.len() == 9).then_some(fields)
        })
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .flatten()
        .map(|f| match f.as_bytes() {
            [d @ b'0'..=b'9'] => Some(d - b'0'),
            _ => None,
        })
        .collect::<Option<_>>()?;
    fast_grid(&values.iter().map(|&v| b'0' + v).collect::<Vec<_>>())
}
