//! The command line of the `sudoku` binary. With no arguments the binary opens the game; with
//! a subcommand it works on puzzle files:
//!
//! ```text
//! sudoku solve [--count [--limit N]] [-j N] FILE|-...
//!                                                one line per puzzle: the solution (81 digits),
//!                                                `none`, `multiple` or `invalid: <reason>`;
//!                                                with --count, the number of solutions
//!                                                (`N+` when the limit is reached)
//! sudoku solve --trace PUZZLE...                 the steps of the traced search, one per line
//!                                                (what the game's animated search shows); a
//!                                                blank line between puzzles
//! sudoku grade [--steps] [-j N] FILE|-...        one line per puzzle: `<level> (<technique>)`
//!                                                or `none` / `multiple` / `invalid: <reason>`
//! sudoku generate [--level L] [-n N] [--seed S] [--symmetry none|rotational|mirror] [-j N]
//!                                                N puzzles of level L, one line each
//! sudoku hint PUZZLE [--current POSITION]        the next hint, or the mistake to fix
//! ```
//!
//! Input files hold 81-character lines (`.` or `0` for an empty cell; anything after `:` or `|`
//! is ignored, `#` starts a comment) or one grid over 9 lines: Qt's `.data` form (9
//! comma-separated digits a line) or the grid form (9 cells a line, spaces, tabs and `|`
//! between them allowed, `---+---+---` lines skipped). `-` reads standard input, and an argument that names no file but
//! is a puzzle written out (81 cells) is read as that puzzle. A UTF-8 byte order mark at the
//! start is skipped. Lines are read as bytes: a line that is not UTF-8 text is a bad line like
//! any other, and so is one longer than 64 KiB (reported, not kept in memory). An input is read
//! 32 KB at a time and its answers are printed a block of puzzles at a time, so output starts
//! before a long input has been read to its end; a trace goes out as it is made.
//!
//! `-j N` (`--jobs`, 1 to 256) answers on N threads (default: every core); the output keeps the input's
//! order whatever N is, and `-j 1` runs on the calling thread alone.
//!
//! Exit status: 0 when every input line was read (an unsolvable or invalid puzzle is an answer,
//! not an error); 1 when a line could not be read as a puzzle (it is reported on standard error
//! as `FILE:LINE: reason` and the other lines are still processed), an input held no puzzle, a
//! file could not be opened or read, `generate` could not reach the level (the closest puzzle
//! is still printed), or `hint` was given an improper puzzle or a position that changes its
//! givens; 2 for a usage error.

use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Parser, Subcommand};
use rayon::prelude::*;
use sudoku_machine::datamodel::Grid;
use sudoku_machine::engine::grade::grade_level;
use sudoku_machine::engine::{
    clashes, classify, count_solutions, generate_with, grade, hint, Classification, ImproperPuzzle,
    Level, Options, Symmetry,
};
use sudoku_machine::puzzle;
use sudoku_ui::os_message::OsMessage;

mod input;
use input::{loose_line, loose_qt, open_source, read_items, stream_items, Item};

/// The command line: no subcommand opens the game.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku",
    version,
    about = "The Sudoku game; with a subcommand, a Sudoku solver, grader, generator and hinter",
    after_help = "With no subcommand, opens the game window.\n\n\
        Exit status: 0 on success; 1 if an input line could not be read (reported as \
        FILE:LINE: reason on stderr, the other lines are still processed), a file could not be \
        opened or held no puzzle, generate missed the level, or hint got an improper puzzle or a \
        position that changes its givens; 2 for a usage error."
)]
pub struct Cli {
    /// What to do; none opens the game.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Open this puzzle file (an 81-character line, a Qt .data grid or nine lines of nine cells) in the game window.
    #[arg(long, value_name = "FILE")]
    pub open: Option<std::path::PathBuf>,
}

/// A subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles: print each one's solution, `none`, `multiple` or `invalid: <reason>`.
    Solve {
        /// Print the number of solutions instead (`N+` when the limit is reached).
        #[arg(long, conflicts_with = "trace")]
        count: bool,
        /// Print the steps of the traced search instead, one per line, as the game's animated
        /// search shows them (`place r1c1=4 (naked single)`, `eliminate ...`, `guess ...`,
        /// `backtrack ...`, then `solved` or `failed`); the arguments may also be puzzles
        /// written out (81 characters).
        #[arg(long)]
        trace: bool,
        /// The most solutions --count counts.
        #[arg(long, default_value_t = 1000, requires = "count",
              value_parser = at_least_one)]
        limit: usize,
        /// Threads to answer on (default: every core); the output keeps the input order.
        #[arg(short = 'j', long, value_name = "N", value_parser = thread_count)]
        jobs: Option<usize>,
        /// Files of puzzles (81-character lines, or one grid over nine lines); `-` for standard input,
        /// or a puzzle written out (81 characters).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Grade puzzles by the hardest human technique they need: easy, medium, hard, expert,
    /// extreme.
    Grade {
        /// Also print every step of the human solve, one per line, indented.
        #[arg(long)]
        steps: bool,
        /// Threads to answer on (default: every core); the output keeps the input order.
        #[arg(short = 'j', long, value_name = "N", value_parser = thread_count)]
        jobs: Option<usize>,
        /// Files of puzzles; `-` for standard input, or a puzzle written out (81 characters).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Generate puzzles with a unique solution at a difficulty level.
    Generate {
        /// easy, medium, hard, expert or extreme.
        #[arg(long, default_value = "medium")]
        level: Level,
        /// How many puzzles.
        #[arg(short = 'n', long = "count", default_value_t = 1, value_parser = at_least_one)]
        n: usize,
        /// Seed of puzzle 1 (puzzle k uses seed + k - 1); the same seed gives the same
        /// puzzles. Without it a seed is taken from the clock and printed on stderr.
        #[arg(long)]
        seed: Option<u64>,
        /// none, rotational (180°) or mirror (left-right).
        #[arg(long, default_value = "none")]
        symmetry: Symmetry,
        /// Attempts per puzzle before settling for the closest level (at least 1).
        #[arg(long, default_value_t = Options::DEFAULT_ATTEMPTS,
              value_parser = at_least_one)]
        max_attempts: usize,
        /// Threads to answer on (default: every core); the output keeps the input order.
        #[arg(short = 'j', long, value_name = "N", value_parser = thread_count)]
        jobs: Option<usize>,
    },
    /// Give the next hint for a puzzle: a mistake to fix, or the easiest technique step.
    Hint {
        /// The puzzle: an 81-character line, or a file holding one (line or Qt .data form).
        puzzle: String,
        /// The player's position (givens plus entries), in the same forms; default: the
        /// puzzle itself.
        #[arg(long)]
        current: Option<String>,
    },
}

/// Reads a count that must be at least 1 (`--count`, `--limit`, `--jobs`, `--max-attempts`):
/// clap's ranged parser would name the range `1..18446744073709551615`.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("must be at most {}", usize::MAX))
        }
        Err(_) => Err("expected a whole number, at least 1".to_owned()),
    }
}

/// The most threads `--jobs` takes: more than any machine this runs on has cores (each
/// thread costs a stack and its start; `-j 5000` took minutes before answering one puzzle).
const MAX_JOBS: usize = 256;

/// Reads `--jobs`: 1 to [`MAX_JOBS`].
fn thread_count(text: &str) -> Result<usize, String> {
    match at_least_one(text)? {
        n if n > MAX_JOBS => Err(format!("must be at most {MAX_JOBS}")),
        n => Ok(n),
    }
}

/// How many puzzles are read before they are answered and printed together: one `write` per
/// block, and on several threads one hand-out of work per block.
const BLOCK: usize = 4096;

/// [`BLOCK`] on one thread (`-j 1`), where a block needs only be long enough that a `write`
/// carries many answers: the block and its text (about 40 KB) are reused from the heap
/// instead of being faulted in page by page (4,096 puzzles took about 700 KB).
const SERIAL_BLOCK: usize = 256;

/// The most puzzles one thread takes at a time when answering a block on several threads
/// (fewer when the block is small, so that a few slow puzzles, as `grade` has, still spread
/// over every thread).
const CHUNK: usize = 64;

/// The threads for `--jobs`: `None` means answer on this thread (`-j 1`, or a single core).
fn thread_pool(jobs: Option<usize>) -> Option<rayon::ThreadPool> {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs <= 1 {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .ok()
}

/// Runs a subcommand and returns the process exit status.
pub fn run(command: Command) -> i32 {
    match command {
        Command::Solve {
            trace: true, files, ..
        } => trace_cmd(&files),
        Command::Solve {
            count,
            limit,
            jobs,
            files,
            ..
        } => {
            let pool = thread_pool(jobs);
            if count {
                for_each_puzzle(&files, pool.as_ref(), |grid, out| {
                    let n = count_solutions(grid, limit);
                    if n == 0 {
                        let found = clashes(grid);
                        if !found.is_empty() {
                            let _ = writeln!(out, "{}", ImproperPuzzle::Invalid(found));
                            return;
                        }
                    }
                    let _ = if n >= limit {
                        writeln!(out, "{limit}+")
                    } else {
                        writeln!(out, "{n}")
                    };
                })
            } else {
                for_each_puzzle(&files, pool.as_ref(), |grid, out| match classify(grid) {
                    Classification::Unique(solution) => {
                        out.extend(solution.0.as_flattened().iter().map(|&d| b'0' + d));
                        out.push(b'\n');
                    }
                    Classification::Multiple => out.extend_from_slice(b"multiple\n"),
                    Classification::None => out.extend_from_slice(b"none\n"),
                    Classification::Invalid(found) => {
                        let _ = writeln!(out, "{}", ImproperPuzzle::Invalid(found));
                    }
                })
            }
        }
        Command::Grade { steps, jobs, files } => {
            let pool = thread_pool(jobs);
            for_each_puzzle(&files, pool.as_ref(), |grid, out| {
                let _ = grade_line(grid, steps, out);
            })
        }
        Command::Generate {
            level,
            n,
            seed,
            symmetry,
            max_attempts,
            jobs,
        } => generate_cmd(
            level,
            n,
            seed,
            symmetry,
            max_attempts,
            thread_pool(jobs).as_ref(),
        ),
        Command::Hint { puzzle, current } => hint_cmd(&puzzle, current.as_deref()),
    }
}

/// The `grade` answer for one puzzle: `<level> (<technique>)`, and with `steps` every step
/// indented below it; `none` / `multiple` / `invalid: ...` for an improper puzzle. Without
/// `steps` the quick grading is used: the same answer, without making or explaining steps.
fn grade_line(grid: &Grid, steps: bool, out: &mut Vec<u8>) -> io::Result<()> {
    if !steps {
        return match grade_level(grid) {
            Ok((level, Some(t))) => writeln!(out, "{level} ({t})"),
            Ok((level, None)) => writeln!(out, "{level} (solved already)"),
            Err(e) => writeln!(out, "{}", improper_word(&e)),
        };
    }
    match grade(grid) {
        Ok(g) => {
            match g.hardest {
                Some(t) => writeln!(out, "{} ({t})", g.level)?,
                None => writeln!(out, "{} (solved already)", g.level)?,
            }
            if steps {
                for step in &g.steps {
                    writeln!(out, "  {step}")?;
                }
            }
            Ok(())
        }
        Err(e) => writeln!(out, "{}", improper_word(&e)),
    }
}

/// `none`, `multiple` or `invalid: <reason>`: the solve command's words for an improper puzzle.
fn improper_word(e: &ImproperPuzzle) -> String {
    match e {
        ImproperPuzzle::NoSolution => "none".to_owned(),
        ImproperPuzzle::MultipleSolutions => "multiple".to_owned(),
        ImproperPuzzle::Invalid(_) => e.to_string(),
    }
}

/// Reads each file (or stdin for `-`), answers each puzzle with `answer` (which appends its
/// output to the buffer), prints `invalid:` for clashing givens and reports bad lines and
/// inputs without a puzzle on stderr. Answers are printed in input order, a block at a time,
/// on the threads of `pool` when there is one. Returns the exit status.
fn for_each_puzzle(
    files: &[String],
    pool: Option<&rayon::ThreadPool>,
    answer: impl Fn(&Grid, &mut Vec<u8>) + Sync,
) -> i32 {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut status = 0;
    let block_len = if pool.is_some() { BLOCK } else { SERIAL_BLOCK };
    let mut block = Vec::with_capacity(block_len);
    let mut text = Vec::new();
    for file in files {
        let (label, mut reader) = match open_source(file) {
            Ok(opened) => opened,
            Err(e) => {
                let _ = out.flush();
                eprintln!("{file}: {}", OsMessage(&e));
                status = 1;
                continue;
            }
        };
        let mut puzzles = 0usize;
        let mut closed = false;
        let read = stream_items(&mut reader, |item| {
            if closed {
                return;
            }
            puzzles += 1;
            match item {
                Item::Bad(line, reason) => {
                    closed = print_block(&mut block, pool, &answer, &mut text, &mut out).is_err();
                    // Keep stdout and stderr in order when both go to one terminal.
                    let _ = out.flush();
                    eprintln!("{label}:{line}: {reason}");
                    status = 1;
                }
                item => {
                    block.push(item);
                    if block.len() == block_len {
                        closed =
                            print_block(&mut block, pool, &answer, &mut text, &mut out).is_err();
                    }
                }
            }
        });
        if closed || print_block(&mut block, pool, &answer, &mut text, &mut out).is_err() {
            // A closed pipe (`| head`): stop quietly.
            return status;
        }
        if let Err(e) = read {
            let _ = out.flush();
            eprintln!("{label}: {}", OsMessage(&e));
            status = 1;
        } else if puzzles == 0 {
            let _ = out.flush();
            eprintln!(
                "{label}: no puzzles: the input is empty or holds only blank lines and comments"
            );
            status = 1;
        }
    }
    status
}

/// Answers the puzzles of `block` in order and writes them with one `write`, then empties
/// the block. `text` is a reused buffer.
fn print_block(
    block: &mut Vec<Item>,
    pool: Option<&rayon::ThreadPool>,
    answer: &(impl Fn(&Grid, &mut Vec<u8>) + Sync),
    text: &mut Vec<u8>,
    out: &mut impl Write,
) -> io::Result<()> {
    if block.is_empty() {
        return Ok(());
    }
    let render = |items: &[Item], text: &mut Vec<u8>| {
        for item in items {
            match item {
                Item::Grid(grid) => answer(grid, text),
                Item::Invalid(reason) => {
                    text.extend_from_slice(b"invalid: ");
                    text.extend_from_slice(reason.as_bytes());
                    text.push(b'\n');
                }
                Item::Bad(..) => unreachable!("bad lines are reported, never queued"),
            }
        }
    };
    text.clear();
    match pool {
        Some(pool) if block.len() > 1 => {
            let chunk = (block.len() / (4 * pool.current_num_threads())).clamp(1, CHUNK);
            let parts: Vec<Vec<u8>> = pool.install(|| {
                block
                    .par_chunks(chunk)
                    .map(|items| {
                        let mut part = Vec::with_capacity(items.len() * 82);
                        render(items, &mut part);
                        part
                    })
                    .collect()
            });
            parts.iter().for_each(|part| text.extend_from_slice(part));
        }
        _ => render(block, text),
    }
    block.clear();
    out.write_all(text)
}

/// `sudoku generate`: puzzles are made on the threads of `pool` (each from its own seed, so
/// the output does not depend on the threads) and printed in order.
fn generate_cmd(
    level: Level,
    n: usize,
    seed: Option<u64>,
    symmetry: Symmetry,
    max_attempts: usize,
    pool: Option<&rayon::ThreadPool>,
) -> i32 {
    let seed = seed.unwrap_or_else(|| {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("sudoku: seed {now}");
        now
    });
    let options = |k: usize| Options {
        level,
        seed: seed.wrapping_add(k as u64),
        symmetry,
        max_attempts,
    };
    let mut status = 0;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    // Enough puzzles per round to keep every thread busy, few enough to print steadily.
    let round = pool.map_or(1, |p| 4 * p.current_num_threads());
    let mut k = 0;
    while k < n {
        let ks = k..n.min(k + round);
        let made: Vec<_> = match pool {
            Some(pool) => pool.install(|| {
                ks.clone()
                    .into_par_iter()
                    .map(|k| generate_with(&options(k)))
                    .collect()
            }),
            None => ks.clone().map(|k| generate_with(&options(k))).collect(),
        };
        for (k, generated) in ks.zip(made) {
            if !generated.exact {
                let _ = out.flush();
                eprintln!(
                    "sudoku: puzzle {} (seed {}): no {level} puzzle in {} attempt{}; printing \
                     the closest, which is {}",
                    k + 1,
                    options(k).seed,
                    generated.attempts,
                    if generated.attempts == 1 { "" } else { "s" },
                    generated.grading.level
                );
                status = 1;
            }
            if writeln!(out, "{}", puzzle::to_line(&generated.puzzle)).is_err() {
                return status;
            }
        }
        k += round;
    }
    status
}

/// How much of a trace is kept before it is written out.
const TRACE_FLUSH: usize = 64 * 1024;

/// `solve --trace`: each puzzle's search steps (after the givens are set up), one per line,
/// a blank line between puzzles; after `solved`, a last line says when the puzzle has other
/// solutions. An argument is a file of puzzles (every puzzle in it is traced), `-` for
/// standard input, or a puzzle written out; clashing givens are answered `invalid: ...` as
/// `solve` answers them, and bad lines are reported as `solve` reports them.
fn trace_cmd(args: &[String]) -> i32 {
    let traced = std::sync::atomic::AtomicBool::new(false);
    let closed = std::sync::atomic::AtomicBool::new(false);
    let answer = |grid: &Grid, out: &mut Vec<u8>| {
        if closed.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        if traced.swap(true, std::sync::atomic::Ordering::Relaxed) {
            out.push(b'\n');
        }
        let found = clashes(grid);
        if !found.is_empty() {
            let _ = writeln!(out, "{}", ImproperPuzzle::Invalid(found));
            return;
        }
        let mut solved = false;
        for line in sudoku_machine::game::trace_text(grid) {
            let _ = writeln!(out, "{line}");
            solved = line == "solved";
            // A long search (one without a solution can take millions of steps) goes out as
            // it is made: `out` is the whole output so far (one thread, in input order).
            if out.len() >= TRACE_FLUSH {
                let mut stdout = io::stdout().lock();
                if stdout.write_all(out).is_err() {
                    // A closed pipe: `for_each_puzzle` stops at its next write.
                    closed.store(true, std::sync::atomic::Ordering::Relaxed);
                    return;
                }
                out.clear();
            }
        }
        // As the window says after the same steps.
        if solved && matches!(classify(grid), Classification::Multiple) {
            let _ = writeln!(
                out,
                "not unique: this is one solution, the puzzle has others"
            );
        }
    };
    let mut status = 0;
    for arg in args {
        let path = Path::new(arg);
        if arg == "-" || path.exists() {
            status = status.max(for_each_puzzle(std::slice::from_ref(arg), None, answer));
            continue;
        }
        match read_grid(arg) {
            Ok(grid) => {
                let mut text = Vec::new();
                answer(&grid, &mut text);
                let mut out = io::stdout().lock();
                if out.write_all(&text).and_then(|()| out.flush()).is_err() {
                    return status;
                }
            }
            Err(e) => {
                eprintln!("{e}");
                status = 1;
            }
        }
    }
    status
}

/// A grid from an 81-character line, a grid written over nine lines, or a file holding one (any
/// form). A position may
/// clash (that is a mistake for `hint` to point at, not a reading error).
fn read_grid(arg: &str) -> Result<Grid, String> {
    let path = Path::new(arg);
    if path.is_dir() {
        return Err(format!(
            "{arg}: is a directory, not a puzzle or a puzzle file"
        ));
    }
    // Any other thing that exists is read as a file (a device such as /dev/null, a pipe).
    if path.exists() {
        let bytes = std::fs::read(arg).map_err(|e| format!("{arg}: {}", OsMessage(&e)))?;
        let mut found = None;
        read_items(&bytes, |item| {
            found.get_or_insert(item);
        });
        return match found {
            Some(Item::Grid(grid)) => Ok(grid),
            Some(Item::Bad(line, reason)) => Err(format!("{arg}:{line}: {reason}")),
            // (Only a Qt grid is read as `Invalid`: a line with clashing givens is a grid.)
            Some(Item::Invalid(reason)) => loose_qt(&String::from_utf8_lossy(&bytes))
                .ok_or(format!("{arg}: invalid: {reason}")),
            None => Err(format!(
                "{arg}: no puzzle found: the file is empty or holds only blank lines and comments"
            )),
        };
    }
    // Written on one line, the argument is the line form (and a mistake in it is reported
    // as one); over several, any form.
    let parsed = match puzzle::parse_lines(arg).into_iter().next() {
        Some(line) if !arg.trim().contains('\n') => line,
        _ => puzzle::parse(arg),
    };
    match parsed {
        Ok(grid) => Ok(grid),
        Err(e) => loose_line(arg.trim()).ok_or_else(|| {
            if arg.contains(['/', '\\']) || arg.ends_with(".data") || arg.ends_with(".txt") {
                format!("{arg}: no such file, and not an 81-cell puzzle")
            } else {
                format!("puzzle: {}", e.message)
            }
        }),
    }
}

/// The givens of `givens` that `current` changes or leaves out, as `r1c4 holds 5, the given is
/// 2` / `r1c5 is empty, the given is 6`, in reading order.
fn changed_givens(givens: &Grid, current: &Grid) -> Vec<String> {
    let mut changed = Vec::new();
    for (i, (&g, &c)) in givens
        .0
        .as_flattened()
        .iter()
        .zip(current.0.as_flattened())
        .enumerate()
    {
        if g != 0 && c != g {
            let cell = format!("r{}c{}", i / 9 + 1, i % 9 + 1);
            changed.push(if c == 0 {
                format!("{cell} is empty, the given is {g}")
            } else {
                format!("{cell} holds {c}, the given is {g}")
            });
        }
    }
    changed
}

/// `sudoku hint`.
fn hint_cmd(puzzle_arg: &str, current: Option<&str>) -> i32 {
    let givens = match read_grid(puzzle_arg) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("sudoku: {e}");
            return 1;
        }
    };
    let current = match current.map(read_grid).transpose() {
        Ok(c) => c.unwrap_or(givens),
        Err(e) => {
            eprintln!("sudoku: --current: {e}");
            return 1;
        }
    };
    let changed = changed_givens(&givens, &current);
    if !changed.is_empty() {
        eprintln!(
            "sudoku: --current changes the puzzle's givens ({}): it must keep every given of \
             the puzzle",
            changed.join("; ")
        );
        return 1;
    }
    match hint(&givens, &current) {
        Ok(h) => {
            println!("{h}");
            0
        }
        Err(e) => {
            eprintln!("sudoku: not a proper puzzle: {e}");
            1
        }
    }
}
