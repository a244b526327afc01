//! The command line of the `sudoku` binary. With no arguments the binary opens the game; with
//! a subcommand it works on puzzle files:
//!
//! ```text
//! sudoku solve [--count [--limit N]] FILE|-...   one line per puzzle: the solution (81 digits),
//!                                                `none`, `multiple` or `invalid: <reason>`;
//!                                                with --count, the number of solutions
//!                                                (`N+` when the limit is reached)
//! sudoku grade [--steps] FILE|-...               one line per puzzle: `<level> (<technique>)`
//!                                                or `none` / `multiple` / `invalid: <reason>`
//! sudoku generate [--level L] [-n N] [--seed S] [--symmetry none|rotational|mirror]
//!                                                N puzzles of level L, one line each
//! sudoku hint PUZZLE [--current POSITION]        the next hint, or the mistake to fix
//! ```
//!
//! Input files hold 81-character lines (`.` or `0` for an empty cell; anything after `:` or `|`
//! is ignored, `#` starts a comment) or one grid in Qt's `.data` form (9 lines of 9
//! comma-separated digits). `-` reads standard input.
//!
//! Exit status: 0 when every input line was read (an unsolvable or invalid puzzle is an answer,
//! not an error); 1 when a line could not be read as a puzzle (it is reported on standard error
//! as `FILE:LINE: reason` and the other lines are still processed), a file could not be
//! opened, `generate` could not reach the level (the closest puzzle is still printed), or
//! `hint` was given an improper puzzle; 2 for a usage error.

use std::io::{self, Read, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Parser, Subcommand};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::engine::{
    clashes, classify, count_solutions, generate_with, grade, hint, Classification, ImproperPuzzle,
    Level, Options, Symmetry,
};
use sudoku_machine::puzzle;

/// The command line: no subcommand opens the game.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku",
    version,
    about = "The Sudoku game; with a subcommand, a Sudoku solver, grader, generator and hinter",
    after_help = "With no subcommand, opens the game window.\n\n\
        Exit status: 0 on success; 1 if an input line could not be read (reported as \
        FILE:LINE: reason on stderr, the other lines are still processed), a file could not be \
        opened, generate missed the level, or hint got an improper puzzle; 2 for a usage error."
)]
pub struct Cli {
    /// What to do; none opens the game.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Open this puzzle file (81-character line or Qt .data grid) in the game window.
    #[arg(long, value_name = "FILE")]
    pub open: Option<std::path::PathBuf>,
}

/// A subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles: print each one's solution, `none`, `multiple` or `invalid: <reason>`.
    Solve {
        /// Print the number of solutions instead (`N+` when the limit is reached).
        #[arg(long)]
        count: bool,
        /// The most solutions --count counts.
        #[arg(long, default_value_t = 1000, requires = "count",
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
        limit: usize,
        /// Files of puzzles (81-character lines or a Qt .data grid); `-` for standard input.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Grade puzzles by the hardest human technique they need: easy, medium, hard, expert,
    /// extreme.
    Grade {
        /// Also print every step of the human solve, one per line, indented.
        #[arg(long)]
        steps: bool,
        /// Files of puzzles; `-` for standard input.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Generate puzzles with a unique solution at a difficulty level.
    Generate {
        /// easy, medium, hard, expert or extreme.
        #[arg(long, default_value = "medium")]
        level: Level,
        /// How many puzzles.
        #[arg(short = 'n', long = "count", default_value_t = 1)]
        n: usize,
        /// Seed of puzzle 1 (puzzle k uses seed + k - 1); the same seed gives the same
        /// puzzles. Without it a seed is taken from the clock and printed on stderr.
        #[arg(long)]
        seed: Option<u64>,
        /// none, rotational (180°) or mirror (left-right).
        #[arg(long, default_value = "none")]
        symmetry: Symmetry,
        /// Attempts per puzzle before settling for the closest level.
        #[arg(long, default_value_t = Options::DEFAULT_ATTEMPTS)]
        max_attempts: usize,
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

/// One puzzle read from an input, or why its line is not one.
enum Item {
    /// A well-formed grid (its givens may still clash: see [`Item::Invalid`]).
    Grid(Grid),
    /// A well-formed grid whose givens clash: an answer (`invalid: ...`), not a bad line.
    Invalid(String),
    /// A line that is not a puzzle: `(line number, reason)`.
    Bad(usize, String),
}

/// Runs a subcommand and returns the process exit status.
pub fn run(command: Command) -> i32 {
    match command {
        Command::Solve {
            count,
            limit,
            files,
        } => for_each_puzzle(&files, |grid, out| {
            if count {
                let n = count_solutions(grid, limit);
                if n >= limit {
                    writeln!(out, "{limit}+")
                } else {
                    writeln!(out, "{n}")
                }
            } else {
                match classify(grid) {
                    Classification::Unique(solution) => {
                        writeln!(out, "{}", puzzle::to_line(&solution))
                    }
                    Classification::Multiple => writeln!(out, "multiple"),
                    Classification::None => writeln!(out, "none"),
                    Classification::Invalid(found) => {
                        writeln!(out, "{}", ImproperPuzzle::Invalid(found))
                    }
                }
            }
        }),
        Command::Grade { steps, files } => for_each_puzzle(&files, |grid, out| match grade(grid) {
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
        }),
        Command::Generate {
            level,
            n,
            seed,
            symmetry,
            max_attempts,
        } => generate_cmd(level, n, seed, symmetry, max_attempts),
        Command::Hint { puzzle, current } => hint_cmd(&puzzle, current.as_deref()),
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

/// Reads each file (or stdin for `-`), calls `answer` for each puzzle, prints `invalid:` for
/// clashing givens and reports bad lines on stderr. Returns the exit status.
fn for_each_puzzle(
    files: &[String],
    mut answer: impl FnMut(&Grid, &mut dyn Write) -> io::Result<()>,
) -> i32 {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut status = 0;
    for file in files {
        let (label, text) = match read_source(file) {
            Ok(read) => read,
            Err(e) => {
                eprintln!("{file}: {e}");
                status = 1;
                continue;
            }
        };
        for item in read_items(&text) {
            let written = match item {
                Item::Grid(grid) => answer(&grid, &mut out),
                Item::Invalid(reason) => writeln!(out, "invalid: {reason}"),
                Item::Bad(line, reason) => {
                    // Keep stdout and stderr in order when both go to one terminal.
                    let _ = out.flush();
                    eprintln!("{label}:{line}: {reason}");
                    status = 1;
                    Ok(())
                }
            };
            if written.is_err() {
                // A closed pipe (`| head`): stop quietly.
                return status;
            }
        }
    }
    status
}

/// The text of a file, or of stdin for `-`, with the name to report errors under.
fn read_source(file: &str) -> io::Result<(String, String)> {
    if file == "-" {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text)?;
        Ok(("<stdin>".to_owned(), text))
    } else {
        Ok((file.to_owned(), std::fs::read_to_string(file)?))
    }
}

/// The puzzles of a text: one per content line, or one Qt `.data` grid
/// ([`puzzle::is_qt_data`]).
fn read_items(text: &str) -> Vec<Item> {
    if puzzle::is_qt_data(text) {
        return vec![match puzzle::parse(text) {
            Ok(grid) => Item::Grid(grid),
            Err(e) => invalid_or_bad(loose_qt(text), e),
        }];
    }
    let lines: Vec<&str> = text.lines().collect();
    puzzle::parse_lines(text)
        .into_iter()
        .map(|result| match result {
            Ok(grid) => Item::Grid(grid),
            Err(e) => {
                let line = lines.get(e.line.wrapping_sub(1)).copied().unwrap_or("");
                invalid_or_bad(loose_line(line), e)
            }
        })
        .collect()
}

/// After a parse error: `invalid: <clashes>` when the text is a well-formed grid whose givens
/// clash (an answer), else the error as a bad line.
fn invalid_or_bad(loose: Option<Grid>, e: puzzle::PuzzleError) -> Item {
    let found = loose.map(|grid| clashes(&grid)).unwrap_or_default();
    if found.is_empty() {
        return Item::Bad(e.line, e.message);
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
fn loose_line(line: &str) -> Option<Grid> {
    let cells = line.split([':', '|']).next()?.trim();
    let values: Vec<u8> = cells
        .chars()
        .map(|ch| match ch {
            '.' | '0' => Some(0),
            '1'..='9' => Some(ch as u8 - b'0'),
            _ => None,
        })
        .collect::<Option<_>>()?;
    to_grid(&values)
}

/// A Qt `.data` grid read without the clash check.
fn loose_qt(text: &str) -> Option<Grid> {
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
    to_grid(&values)
}

/// 81 values in reading order as a grid.
fn to_grid(values: &[u8]) -> Option<Grid> {
    (values.len() == 81).then(|| {
        Grid(std::array::from_fn(|r| {
            std::array::from_fn(|c| values[r * 9 + c])
        }))
    })
}

/// `sudoku generate`.
fn generate_cmd(
    level: Level,
    n: usize,
    seed: Option<u64>,
    symmetry: Symmetry,
    max_attempts: usize,
) -> i32 {
    let seed = seed.unwrap_or_else(|| {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("sudoku: seed {now}");
        now
    });
    let mut status = 0;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for k in 0..n {
        let options = Options {
            level,
            seed: seed.wrapping_add(k as u64),
            symmetry,
            max_attempts,
        };
        let generated = generate_with(&options);
        if !generated.exact {
            let _ = out.flush();
            eprintln!(
                "sudoku: puzzle {} (seed {}): no {level} puzzle in {} attempts; printing the \
                 closest, which is {}",
                k + 1,
                options.seed,
                generated.attempts,
                generated.grading.level
            );
            status = 1;
        }
        if writeln!(out, "{}", puzzle::to_line(&generated.puzzle)).is_err() {
            break;
        }
    }
    status
}

/// A grid from an 81-character line or a file holding one (line or Qt form).
fn read_grid(arg: &str) -> Result<Grid, String> {
    if Path::new(arg).is_file() {
        let text = std::fs::read_to_string(arg).map_err(|e| format!("{arg}: {e}"))?;
        return puzzle::parse(&text).map_err(|e| format!("{arg}:{}: {}", e.line, e.message));
    }
    match puzzle::parse(arg) {
        Ok(grid) => Ok(grid),
        // A position may clash: that is a mistake for `hint` to point at, not a reading error.
        Err(e) => loose_line(arg.trim()).ok_or(format!("puzzle: {}", e.message)),
    }
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
