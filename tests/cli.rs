//! The `sudoku` binary's command line, run as a user would: files in a temporary folder,
//! standard input, exit statuses.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use sudoku_machine::puzzle;

const QT_LINE: &str =
    "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";
const QT_SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";
const QT_DATA: &str = include_str!("../puzzles/sudoku.data");
/// Two 5s in row 1 (r1c1 and r1c9).
const CLASH: &str =
    "5.......5........................................................................";
const EMPTY: &str =
    ".................................................................................";
/// No clash, but r1c9 has no candidate (edge_cases.txt).
const NONE: &str =
    "..9.287..8.6..4..5..3.....46.........2.71345.........23.....5..9..4..8.7..125.3..";

/// A file with `text` in a fresh temporary folder.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn sudoku(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let input = stdin.unwrap_or("").to_owned();
    let mut pipe = child.stdin.take().unwrap();
    std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn solve_answers_each_line_and_reports_bad_ones() {
    let file = temp_file(
        "mixed.txt",
        &format!("# a comment\n{QT_LINE}\n{EMPTY}\nnot a puzzle\n{CLASH}\n{NONE}:0\n"),
    );
    let path = file.to_str().unwrap();
    let out = sudoku(&["solve", path], None);
    assert_eq!(out.status.code(), Some(1), "a bad line gives status 1");
    assert_eq!(
        text(&out.stdout),
        format!("{QT_SOLUTION}\nmultiple\ninvalid: 5 twice in row 1 (r1c1 and r1c9)\nnone\n")
    );
    assert_eq!(
        text(&out.stderr),
        format!("{path}:4: `n` (character 1) is not a digit or `.`\n")
    );
}

#[test]
fn solve_reads_stdin_and_qt_files() {
    let out = sudoku(&["solve", "-"], Some(&format!("{QT_LINE}\n{QT_LINE}\n")));
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n{QT_SOLUTION}\n"));

    let data = temp_file("qt.data", QT_DATA);
    let out = sudoku(&["solve", data.to_str().unwrap()], None);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));

    let bad = temp_file("bad.data", &QT_DATA.replace("7, 0, 3, 0", "7, 0, x, 0"));
    let out = sudoku(&["solve", bad.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).ends_with("bad.data:9: `x` is not a digit\n"));
}

/// A grid typed over nine lines (as the window's Open reads it) is one puzzle, framed or not,
/// from a file, from stdin and as an argument.
#[test]
fn the_grid_form_is_one_puzzle() {
    let rows: Vec<&str> = (0..9).map(|r| &QT_LINE[r * 9..r * 9 + 9]).collect();
    let plain = rows.join("\n") + "\n";
    let framed = puzzle::to_grid_form(&puzzle::parse(QT_LINE).unwrap());
    for grid in [&plain, &framed] {
        let file = temp_file("grid.txt", grid);
        let out = sudoku(&["solve", file.to_str().unwrap()], None);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));
        let out = sudoku(&["grade", "-"], Some(grid));
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let out = sudoku(&["hint", &plain], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A file of lines whose first line is a short mistake is still a file of lines.
    let file = temp_file("short-first.txt", &format!("bad line\n{QT_LINE}\n"));
    let out = sudoku(&["solve", file.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));
}

/// A line-form file whose first note holds commas is still read line by line (the walkthrough
/// found `edge_cases.txt` taken for one Qt grid).
#[test]
fn notes_with_commas_do_not_make_a_qt_file() {
    let file = temp_file(
        "notes.txt",
        &format!("{EMPTY}|multiple|empty grid (6,670,903,752,021,072,936,960 completions)\n{QT_LINE}:1\n"),
    );
    let out = sudoku(&["solve", file.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("multiple\n{QT_SOLUTION}\n"));
}

#[test]
fn a_count_limit_of_zero_is_a_usage_error() {
    let out = sudoku(&["solve", "--count", "--limit", "0", "-"], Some(QT_LINE));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--limit"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn solve_count_counts_up_to_the_limit() {
    // One puzzle of tdoku's list with 3 solutions.
    let three = "8.........95.......67.........472968...913245...856137....9.716...6.8492......583";
    let out = sudoku(
        &["solve", "--count", "--limit", "50", "-"],
        Some(&format!("{QT_LINE}\n{three}\n{EMPTY}\n{NONE}\n{CLASH}\n")),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "1\n3\n50+\n0\ninvalid: 5 twice in row 1 (r1c1 and r1c9)\n"
    );
}

#[test]
fn generate_is_reproducible_and_graded() {
    let args = ["generate", "--level", "hard", "-n", "3", "--seed", "11"];
    let a = sudoku(&args, None);
    let b = sudoku(&args, None);
    assert!(a.status.success(), "{}", text(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "same seed, same puzzles");
    let puzzles = text(&a.stdout);
    assert_eq!(puzzles.lines().count(), 3);
    assert!(puzzles.lines().all(|l| l.len() == 81));

    let graded = sudoku(&["grade", "-"], Some(&puzzles));
    assert!(graded.status.success());
    for line in text(&graded.stdout).lines() {
        assert!(line.starts_with("hard ("), "{line}");
    }
    let other = sudoku(
        &["generate", "--level", "hard", "-n", "3", "--seed", "12"],
        None,
    );
    assert_ne!(other.stdout, a.stdout);

    let symmetric = sudoku(
        &[
            "generate",
            "--level",
            "easy",
            "--seed",
            "5",
            "--symmetry",
            "rotational",
        ],
        None,
    );
    let line = text(&symmetric.stdout);
    let cells: Vec<char> = line.trim().chars().collect();
    assert!((0..81).all(|i| (cells[i] == '.') == (cells[80 - i] == '.')));
}

#[test]
fn grade_names_level_and_technique() {
    let file = temp_file("grade.txt", &format!("{QT_LINE}\n{EMPTY}\n"));
    let out = sudoku(&["grade", "--steps", file.to_str().unwrap()], None);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("easy (Hidden Single)"));
    assert!(lines
        .next()
        .unwrap()
        .starts_with("  Hidden Single: In box "));
    assert_eq!(stdout.lines().last(), Some("multiple"));
}

#[test]
fn hint_gives_a_step_or_the_mistake() {
    let out = sudoku(&["hint", QT_LINE], None);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with("Hidden Single: In box "),
        "{}",
        text(&out.stdout)
    );

    let mistake = format!("2{}", &QT_LINE[1..]);
    let out = sudoku(&["hint", QT_LINE, "--current", &mistake], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "Mistake at r1c1: 2 is already in row 1, at r1c4.\n"
    );

    let out = sudoku(&["hint", EMPTY], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("more than one solution"));
}

#[test]
fn usage_errors_exit_2() {
    let out = sudoku(&["generate", "--level", "impossible"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown level"));
}

/// The answers do not depend on the number of threads, and keep the input order: a file of
/// more puzzles than one block (4,096), with bad lines among them, answered with `-j 1`,
/// `-j 3` and the default.
#[test]
fn jobs_keep_the_input_order() {
    let puzzles = [QT_LINE, EMPTY, CLASH, NONE];
    let mut input = String::new();
    for k in 0..4500 {
        input.push_str(puzzles[k % 4]);
        input.push('\n');
        if k % 1500 == 7 {
            input.push_str("bad line\n");
        }
    }
    let file = temp_file("many.txt", &input);
    let path = file.to_str().unwrap();
    let one = sudoku(&["solve", "-j", "1", path], None);
    assert_eq!(one.status.code(), Some(1));
    let answers: Vec<String> = text(&one.stdout).lines().map(str::to_owned).collect();
    assert_eq!(answers.len(), 4500);
    let expected = [
        QT_SOLUTION,
        "multiple",
        "invalid: 5 twice in row 1 (r1c1 and r1c9)",
        "none",
    ];
    for (k, line) in answers.iter().enumerate() {
        assert_eq!(line, expected[k % 4], "answer {k}");
    }
    assert_eq!(text(&one.stderr).lines().count(), 3);
    for args in [&["solve", "-j", "3", path][..], &["solve", path][..]] {
        let many = sudoku(args, None);
        assert_eq!(many.status.code(), Some(1));
        assert_eq!(many.stdout, one.stdout, "{args:?}");
        assert_eq!(many.stderr, one.stderr, "{args:?}");
    }
    let counted = sudoku(&["solve", "--count", "-j", "2", path], None);
    assert_eq!(text(&counted.stdout).lines().nth(1), Some("1000+"));
    assert_eq!(text(&counted.stdout).lines().count(), 4500);
    let out = sudoku(&["solve", "-j", "0", path], None);
    assert_eq!(out.status.code(), Some(2), "no threads is a usage error");
}

#[test]
fn generate_with_jobs_gives_the_same_puzzles() {
    let args = ["generate", "--level", "medium", "-n", "5", "--seed", "3"];
    let one = sudoku(&[&args[..], &["-j", "1"]].concat(), None);
    let two = sudoku(&[&args[..], &["-j", "2"]].concat(), None);
    assert!(one.status.success(), "{}", text(&one.stderr));
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(text(&one.stdout).lines().count(), 5);
}

#[test]
fn an_input_without_puzzles_is_an_error() {
    let out = sudoku(&["solve", "-"], Some(""));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"");
    assert!(
        text(&out.stderr).starts_with("<stdin>: no puzzles"),
        "{}",
        text(&out.stderr)
    );
    let comments = temp_file("comments.txt", "# nothing here\n\n   \n");
    let path = comments.to_str().unwrap();
    let out = sudoku(&["grade", path], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with(&format!("{path}: no puzzles")));
    // The other inputs are still answered.
    let out = sudoku(&["solve", path, "-"], Some(QT_LINE));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));
}

#[test]
fn a_file_that_is_not_utf8_is_read_line_by_line() {
    let dir = temp_file("placeholder", "");
    let path = dir.with_file_name("latin1.txt");
    let mut bytes = format!("{QT_LINE}\n").into_bytes();
    bytes.extend_from_slice(b"caf\xe9 au lait\n");
    bytes.extend_from_slice(format!("{NONE}\n").as_bytes());
    std::fs::write(&path, bytes).unwrap();
    let p = path.to_str().unwrap();
    let out = sudoku(&["solve", p], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\nnone\n"));
    assert_eq!(
        text(&out.stderr),
        format!(
            "{p}:2: byte 0xE9 (byte 4 of the line) is not UTF-8 text: the line is not a puzzle\n"
        )
    );
    // Windows line ends read too.
    let crlf = temp_file("crlf.txt", &format!("{QT_LINE}\r\n{NONE}\r\n"));
    let out = sudoku(&["solve", crlf.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\nnone\n"));
}

#[test]
fn a_file_longer_than_a_read_is_answered_in_order() {
    // The command reads 32 KB at a time: lines cross the pieces' edges, a comment is longer
    // than a piece, and the line numbers of bad lines count on across pieces.
    let mut input = format!("#{}\n", "x".repeat(40_000));
    let mut expected = String::new();
    for k in 0..1_000 {
        let (line, answer) = if k % 3 == 0 {
            (NONE, "none")
        } else {
            (QT_LINE, QT_SOLUTION)
        };
        input.push_str(&format!("{line}\n"));
        expected.push_str(&format!("{answer}\n"));
    }
    input.push_str("12345");
    let file = temp_file("long.txt", &input);
    let path = file.to_str().unwrap();
    let out = sudoku(&["solve", "-j", "1", path], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), expected);
    assert_eq!(
        text(&out.stderr),
        format!("{path}:1002: expected 81 cells (digits, `.` for empty), found 5\n")
    );
    // The same from stdin, on several threads.
    let out = sudoku(&["solve", "-j", "2", "-"], Some(&input));
    assert_eq!(text(&out.stdout), expected);
    // A Qt grid after a comment longer than a piece is still one grid.
    let qt = temp_file("long.data", &format!("#{}\n{QT_DATA}", "y".repeat(40_000)));
    let out = sudoku(&["solve", qt.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));
}

#[test]
fn a_directory_is_named_as_one() {
    let dir = std::env::temp_dir();
    let d = dir.to_str().unwrap();
    let out = sudoku(&["hint", d], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!("sudoku: {d}: is a directory, not a puzzle or a puzzle file\n")
    );
    let out = sudoku(&["solve", d], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!("{d}: is a directory, not a file of puzzles\n")
    );
}

/// A file that exists but cannot be read: the system's words, without Rust's error code.
#[cfg(target_os = "linux")]
#[test]
fn a_read_error_is_said_in_words() {
    // Reading a process's memory file from its start fails (nothing is mapped at 0).
    let file = "/proc/self/mem";
    let out = sudoku(&["solve", file], None);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(said.starts_with(&format!("{file}: ")), "{said}");
    assert!(!said.contains("os error"), "{said}");
    let out = sudoku(&["hint", file], None);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(said.starts_with(&format!("sudoku: {file}: ")), "{said}");
    assert!(!said.contains("os error"), "{said}");
}

/// A device that reads as empty is an empty file, not a missing one.
#[cfg(unix)]
#[test]
fn hint_reads_a_device_as_a_file() {
    let out = sudoku(&["hint", "/dev/null"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "sudoku: /dev/null: no puzzle found: the file is empty or holds only blank lines and \
         comments\n"
    );
}

#[test]
fn hint_refuses_a_position_that_changes_the_givens() {
    // r1c4 is the given 2: changed to 5, then removed.
    let changed = format!("{}5{}", &QT_LINE[..3], &QT_LINE[4..]);
    let out = sudoku(&["hint", QT_LINE, "--current", &changed], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "sudoku: --current changes the puzzle's givens (r1c4 holds 5, the given is 2): it \
         must keep every given of the puzzle\n"
    );
    let removed = format!("{}.{}", &QT_LINE[..3], &QT_LINE[4..]);
    let out = sudoku(&["hint", QT_LINE, "--current", &removed], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("(r1c4 is empty, the given is 2)"));
    // Entries in empty cells are the player's: fine.
    let entry = format!("4{}", &QT_LINE[1..]);
    let out = sudoku(&["hint", QT_LINE, "--current", &entry], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn generate_needs_at_least_one_attempt() {
    let out = sudoku(&["generate", "--max-attempts", "0"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("--max-attempts"), "{err}");
    assert!(err.contains("must be at least 1"), "{err}");
    assert!(!err.contains("18446744073709551615"), "{err}");
    // Nor can it make no puzzles: `-n 0` is refused rather than printing nothing.
    let out = sudoku(&["generate", "-n", "0"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("--count") && err.contains("must be at least 1"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    // One attempt at Extreme rarely hits: the message counts it in the singular.
    let out = sudoku(
        &[
            "generate",
            "--level",
            "extreme",
            "--max-attempts",
            "1",
            "--seed",
            "1",
        ],
        None,
    );
    let stderr = text(&out.stderr);
    if out.status.code() == Some(1) {
        assert!(stderr.contains("in 1 attempt;"), "{stderr}");
    } else {
        assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    }
}

/// `grade` without `--steps` takes the quick path (no steps made or explained): its lines are
/// the headlines of `grade --steps`, for puzzles of every level and improper ones.
#[test]
fn grade_without_steps_agrees_with_the_steps() {
    let levels = ["easy", "medium", "hard", "expert", "extreme"];
    let mut puzzles = String::new();
    for level in levels {
        let out = sudoku(
            &["generate", "--level", level, "-n", "2", "--seed", "9"],
            None,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        puzzles.push_str(&text(&out.stdout));
    }
    puzzles.push_str(&format!("{EMPTY}\n{CLASH}\n{NONE}\n{QT_SOLUTION}\n"));
    let quick = sudoku(&["grade", "-j", "2", "-"], Some(&puzzles));
    let full = sudoku(&["grade", "--steps", "-"], Some(&puzzles));
    assert!(quick.status.success() && full.status.success());
    let full = text(&full.stdout);
    let headlines: Vec<&str> = full.lines().filter(|l| !l.starts_with("  ")).collect();
    let quick = text(&quick.stdout);
    let lines: Vec<&str> = quick.lines().collect();
    assert_eq!(lines, headlines);
    for (k, level) in levels.iter().enumerate() {
        assert!(
            lines[2 * k].starts_with(&format!("{level} (")),
            "{}",
            lines[2 * k]
        );
    }
    assert_eq!(
        &lines[10..],
        [
            "multiple",
            "invalid: 5 twice in row 1 (r1c1 and r1c9)",
            "none",
            "easy (solved already)"
        ]
    );
}

/// The animation and the command line show the same search: the chart's `searching` state,
/// stepped with `search.step` on a hard puzzle (top1465 #1, which guesses and backtracks),
/// shows one after the other the lines `sudoku solve --trace` prints.
#[test]
fn solve_trace_prints_the_steps_the_animation_shows() {
    use sudoku_machine::game::ViewUpdate;
    use sudoku_machine::{events, puzzle, State, Sudoku};

    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let out = sudoku(&["solve", "--trace", HARD], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    let printed: Vec<&str> = printed.lines().collect();

    let machine = Sudoku::new();
    machine
        .set_initial_values(serde_json::json!({
            "initState": puzzle::parse(HARD).unwrap(),
            "autoplay": true,
        }))
        .unwrap();
    let last = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
    let l = last.clone();
    machine.connect_to_event("updateGUI view", move |e| {
        // The search's panel comes with every update that changes it (each step counts).
        let update: ViewUpdate = e.param("view").unwrap();
        if let Some(search) = update.panel.and_then(|panel| panel.search) {
            *l.borrow_mut() = search.last;
        }
    });
    machine.start();
    machine.submit_event(events::WATCH, serde_json::Value::Null);
    machine.submit_event(events::SEARCH_PAUSE, serde_json::Value::Null);
    let mut shown = Vec::new();
    while machine.is_active(State::SearchPaused) {
        machine.submit_event(events::SEARCH_STEP, serde_json::Value::Null);
        shown.push(last.borrow().clone());
    }
    assert!(machine.is_active(State::SearchDone));
    assert!(
        printed.len() > 900,
        "a long search: {} steps",
        printed.len()
    );
    assert!(printed.iter().any(|l| l.starts_with("guess ")));
    assert!(printed.iter().any(|l| l.starts_with("backtrack ")));
    assert_eq!(shown, printed);
}

#[test]
fn solve_trace_says_where_a_position_fails_and_when_a_puzzle_is_not_unique() {
    // Puzzle 01 with a 2 in r1c1: r1c3 has no candidate left.
    let out = sudoku(
        &[
            "solve",
            "--trace",
            "25..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "dead end r1c3 (no candidate left)\nfailed\n"
    );
    // One given: a solution is found, and the puzzle has others.
    let one = format!("1{}", ".".repeat(80));
    let out = sudoku(&["solve", "--trace", &one], None);
    let printed = text(&out.stdout);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "solved",
            "not unique: this is one solution, the puzzle has others"
        ]
    );
}

#[test]
fn solve_trace_traces_every_puzzle_of_a_file_and_of_stdin() {
    let dead_end =
        "25..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    let clash = format!("11{}", ".".repeat(79));
    let file = temp_file(
        "trace-two.txt",
        &format!("{dead_end}\n# a comment\nnot a puzzle\n{clash}\n"),
    );
    let out = sudoku(&["solve", "--trace", file.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1), "a bad line is an error");
    assert_eq!(
        text(&out.stdout),
        "dead end r1c3 (no candidate left)\nfailed\n\n\
         invalid: 1 twice in row 1 (r1c1 and r1c2); 1 twice in box 1 (r1c1 and r1c2)\n"
    );
    assert!(
        text(&out.stderr).contains("trace-two.txt:3: "),
        "{}",
        text(&out.stderr)
    );
    // `-` is standard input, as for `solve`.
    let out = sudoku(&["solve", "--trace", "-"], Some(&format!("{dead_end}\n")));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "dead end r1c3 (no candidate left)\nfailed\n"
    );
}

#[test]
fn a_byte_order_mark_is_skipped_in_files_and_on_stdin() {
    let out = sudoku(&["solve", "-"], Some(&format!("\u{feff}{QT_LINE}\n")));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));
    let file = temp_file("bom.data", &format!("\u{feff}{QT_DATA}"));
    let out = sudoku(&["solve", file.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));
    let out = sudoku(&["hint", file.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn an_over_long_line_is_reported_and_the_next_lines_are_answered() {
    let input = format!("{}\n{QT_LINE}\n", "1".repeat(200_000));
    let out = sudoku(&["solve", "-j", "1", "-"], Some(&input));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:1: the line is longer than 64 KiB"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_puzzle_written_out_is_solved_and_graded_as_itself() {
    let out = sudoku(&["solve", QT_LINE], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{QT_SOLUTION}\n"));
    let out = sudoku(&["grade", QT_LINE], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("easy"),
        "{}",
        text(&out.stdout)
    );
    // Not a puzzle and not a file: still the file's error.
    let out = sudoku(&["solve", "no-such-file.txt"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no-such-file.txt"));
}

#[test]
fn jobs_are_at_most_256() {
    let out = sudoku(&["solve", "-j", "5000", "-"], Some(QT_LINE));
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("must be at most 256"), "{err}");
    let out = sudoku(&["solve", "-j", "256", "-"], Some(QT_LINE));
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// A position without a solution that fails only after many guesses: its trace goes out as
/// it is made (it is not collected first), and is the library's trace line for line.
#[test]
fn a_long_trace_of_a_position_without_solution_is_streamed_whole() {
    use sudoku_machine::engine::{clashes, count_solutions};
    use sudoku_machine::{game::trace_lines, puzzle};

    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let puzzle = puzzle::parse(HARD).unwrap();
    // The first wrong digit that clashes with no given and needs a long search to refute: the
    // position has no solution, but only a search finds that out.
    let solution = sudoku_machine::engine::solve(&puzzle).unwrap();
    let grid = (0..81)
        .filter(|&i| puzzle.0[i / 9][i % 9] == 0)
        .flat_map(|i| (1..=9).map(move |d| (i, d)))
        .filter(|&(i, d)| d != solution.0[i / 9][i % 9])
        .map(|(i, d)| {
            let mut g = puzzle;
            g.0[i / 9][i % 9] = d;
            g
        })
        .find(|g| {
            clashes(g).is_empty() && count_solutions(g, 1) == 0 && trace_lines(g).len() > 3000
        })
        .expect("a wrong digit with a long refutation");
    let line = puzzle::to_line(&grid);
    let expected = trace_lines(&grid);
    let out = sudoku(&["solve", "--trace", &line], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.len() > 64 * 1024, "{} bytes", printed.len());
    assert_eq!(printed.lines().collect::<Vec<_>>(), expected);
    assert_eq!(expected.last().map(String::as_str), Some("failed"));
}
