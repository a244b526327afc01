//! Kill -9 the game in the middle of play and check that every completed move comes back.
//!
//! The real `sudoku` binary runs in a real X window (Xvfb); `xdotool` types moves into it
//! (digits into the first puzzle's empty cell r1c1). A move is *completed* once the game has
//! written it to its journal. The test kills the process at random moments, sometimes right
//! after a key it has not seen written yet, restarts it on the same save folder, and reads
//! the game it restored (the snapshot a started game writes): every completed move must be
//! there, in order, and nothing else but moves that were typed.
//!
//! It needs `Xvfb` and `xdotool`. Without them it says so and passes, unless
//! `SUDOKU_REQUIRE_X11_TESTS` is set (CI sets it, and installs both).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Digits typed into r1c1 of "Nearly solved sudoku" (whose only empty cell it is); 4 would
/// solve it and end the game, so it is never typed.
const DIGITS: [u8; 8] = [1, 2, 3, 5, 6, 7, 8, 9];

fn have(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

struct Display {
    server: Child,
    name: String,
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// Starts Xvfb on a display number it picks itself (`-displayfd`): it prints the number
/// once it accepts connections.
fn start_display(log: &Path) -> Display {
    use std::io::BufRead as _;
    let mut server = Command::new("Xvfb")
        // -noreset: an X server resets when its last client leaves (a killed game), and
        // refuses connections meanwhile.
        .args([
            "-displayfd",
            "1",
            "-noreset",
            "-screen",
            "0",
            "1280x900x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).expect("a log file"))
        .spawn()
        .expect("Xvfb starts");
    let mut line = String::new();
    std::io::BufReader::new(server.stdout.take().expect("piped"))
        .read_line(&mut line)
        .expect("Xvfb says which display it took");
    let number = line.trim();
    assert!(!number.is_empty(), "Xvfb did not come up");
    Display {
        server,
        name: format!(":{number}"),
    }
}

fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
        .expect("xdotool runs");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

struct Game {
    child: Child,
}

impl Drop for Game {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the game on `display` with its save in `home`, and waits for its window.
#[allow(
    clippy::zombie_processes,
    reason = "the returned Game waits for it when dropped"
)]
fn start_game(display: &str, home: &Path) -> Game {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .env("DISPLAY", display)
        .env("SLINT_BACKEND", "winit-software")
        .env("XDG_DATA_HOME", home)
        .env("HOME", home)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(home.join("stderr.txt")).expect("a log file"))
        .spawn()
        .expect("the game starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // Mapped (viewable) windows only: X refuses to focus one that is not.
        let found = xdotool(display, &["search", "--onlyvisible", "--name", "^Sudoku"]);
        if let Some(window) = found.lines().next() {
            xdotool(display, &["mousemove", "2000", "2000"]);
            let focused = Command::new("xdotool")
                .args(["windowfocus", "--sync", window])
                .env("DISPLAY", display)
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if focused {
                return Game { child };
            }
        }
        if Instant::now() >= deadline {
            let status = child.try_wait();
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the game's window did not appear on {display} (process: {status:?}; windows: \
                 {:?}; stderr: {}; Xvfb: {})",
                xdotool(display, &["search", "--name", "Sudoku"]),
                std::fs::read_to_string(home.join("stderr.txt")).unwrap_or_default(),
                std::fs::read_to_string(home.join("xvfb.txt")).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn save_dir(home: &Path) -> PathBuf {
    home.join("sudoku")
}

/// Completed moves: digit entries written to the current journal.
fn journaled_digits(home: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(save_dir(home)) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("journal-"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .map(|text| {
            text.lines()
                .filter(|l| l.ends_with('}') && l.contains("\"event\":\"digit\""))
                .count()
        })
        .sum()
}

/// The restored game, as the started game's snapshot says: (moves made, r1c1's digit).
fn restored(home: &Path) -> (usize, u8) {
    let text = std::fs::read_to_string(save_dir(home).join("game.json")).expect("a snapshot");
    let saved: Value = serde_json::from_str(&text).expect("the snapshot is JSON");
    let play = &saved["machine"]["data"]["play"];
    let moves = play["history"]["undo"]
        .as_array()
        .expect("an undo list")
        .len();
    let digit = play["values"][0][0].as_u64().expect("a digit") as u8;
    (moves, digit)
}

/// Waits until the restarted game has written its snapshot (replayed and compacted).
fn wait_for_snapshot_after(home: &Path, since: std::time::SystemTime) {
    let path = save_dir(home).join("game.json");
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t > since)
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the restarted game wrote no snapshot");
}

#[test]
fn kill_minus_nine_loses_no_completed_move() {
    if !have("Xvfb") || !have("xdotool") {
        assert!(
            std::env::var_os("SUDOKU_REQUIRE_X11_TESTS").is_none(),
            "SUDOKU_REQUIRE_X11_TESTS is set but Xvfb or xdotool is missing"
        );
        eprintln!("skipped: the crash test needs Xvfb and xdotool (apt install xvfb xdotool)");
        return;
    }
    let home = std::env::temp_dir().join(format!("sudoku-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let display = start_display(&home.join("xvfb.txt"));

    // A simple deterministic stream of pseudo-random numbers for the kill moments.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15 ^ u64::from(std::process::id());
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };

    let mut typed = 0usize; // digits typed over all rounds
    let mut completed = 0usize; // of those, the ones seen written before a kill
    let mut game = start_game(&display.name, &home);
    xdotool(&display.name, &["key", "Down"]); // nothing selected yet: selects r1c1
    for round in 0..4 {
        let moves = 5 + next(10) as usize;
        let before = journaled_digits(&home);
        let mut confirmed = 0;
        for m in 0..moves {
            let digit = DIGITS[typed % DIGITS.len()];
            xdotool(&display.name, &["key", &digit.to_string()]);
            typed += 1;
            let last = m + 1 == moves;
            // Usually wait until the move is written; for the last key of some rounds, kill
            // at once (that move may or may not have completed).
            if !last || next(2) == 0 {
                let deadline = Instant::now() + Duration::from_secs(10);
                while journaled_digits(&home) < before + m + 1 {
                    assert!(
                        Instant::now() < deadline,
                        "round {round}: move {m} was never written"
                    );
                    std::thread::sleep(Duration::from_millis(5));
                }
                confirmed = m + 1;
            }
        }
        completed += confirmed;
        game.child.kill().expect("kill -9");
        game.child.wait().unwrap();

        let since = std::time::SystemTime::now();
        std::thread::sleep(Duration::from_millis(20));
        game = start_game(&display.name, &home);
        wait_for_snapshot_after(&home, since);
        let (moves_back, digit) = restored(&home);
        assert!(
            moves_back >= completed && moves_back <= typed,
            "round {round}: {moves_back} moves came back; {completed} were completed, {typed} typed"
        );
        assert_eq!(
            digit,
            DIGITS[(moves_back - 1) % DIGITS.len()],
            "round {round}: r1c1 holds the digit of the last move that came back"
        );
        eprintln!("round {round}: typed {typed}, completed {completed}, came back {moves_back}");
        // What came back is now the game: the next round types on from there.
        completed = moves_back;
        typed = moves_back;
        let bad = std::fs::read_dir(save_dir(&home))
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains(".bad-"));
        assert!(!bad, "round {round}: a save was set aside");
    }
    game.child.kill().unwrap();
    game.child.wait().unwrap();
    std::fs::remove_dir_all(&home).unwrap();
}
