//! `peer_sudoku FILE`: the `sudoku` crate (JCZSolve family) doing the work of `sudoku solve
//! -j 1`, as a whole process: for each 81-character line of FILE (`#` lines and blank lines
//! skipped), the solution of a unique puzzle, else `none` or `multiple` (`invalid` for a line
//! the crate cannot read). Output is buffered, the file is read at once: the peer the
//! `whole_process` example times our command against.

use std::io::{self, BufWriter, Write};

use sudoku::Sudoku;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: peer_sudoku FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut solutions = [[0u8; 81]; 2];
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let written = match line.get(..81).map(Sudoku::from_str_line) {
            Some(Ok(sudoku)) => match sudoku.solutions_up_to_buffer(&mut solutions, 2) {
                0 => out.write_all(b"none\n"),
                1 => {
                    let mut row = [b'\n'; 82];
                    for (byte, digit) in row.iter_mut().zip(solutions[0]) {
                        *byte = b'0' + digit;
                    }
                    out.write_all(&row)
                }
                _ => out.write_all(b"multiple\n"),
            },
            _ => out.write_all(b"invalid\n"),
        };
        if written.is_err() {
            return;
        }
    }
    let _ = out.flush();
}
