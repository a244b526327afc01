//! Our command against its peers as whole processes, single-threaded, doing the same work:
//! `sudoku solve -j 1 FILE` beside `peer-tdoku FILE` (tdoku, built from
//! `../shared/peers/tdoku` with its `build.sh`) and `peer_sudoku FILE` (the `sudoku` crate,
//! this crate's example), each printing per puzzle the solution of a unique puzzle, else
//! `none` or `multiple`.
//!
//! `cargo run --release -p sudoku-bench --example whole_process [--runs N] [--cpu C]
//! [--baseline PROGRAM] [DATASET...]` builds what is missing (our binary and `peer_sudoku` with cargo, tdoku with
//! g++; without g++ the tdoku lines are skipped with a message), checks once that every peer
//! prints exactly our output, then runs each dataset's file `N` times (default 11) for each
//! peer in pairs, alternating which goes first, pinned to CPU `C` with `taskset` when given
//! and available. It prints one line per dataset and peer:
//!
//! ```text
//! DATASET PEER ratio=OURS/PEER (ours MS ms, peer MS ms, N pairs; cpu ratio=OURS/PEER)
//! ```
//!
//! where the ratio is the median of the per-pair ratios of wall time (below 1: we are faster)
//! and the times are the medians of each side; the cpu ratio is the same for the CPU time
//! (user and system) of the two processes, which a busy machine disturbs less: a run that
//! waits for a core loses wall time, not CPU time. `DATASET` filters by name (a substring).
//! `--baseline PROGRAM` adds a peer named `baseline`: another build of our command (say a copy
//! of `target/release/sudoku` from an earlier commit), run as `PROGRAM solve -j 1 FILE`, so
//! that a change to the solver is measured as the whole command in the same run as the
//! peers. The last dataset, `start`, is the first puzzle of top1465 alone, run ten times as
//! often: it measures what a process costs besides the solving (loading the binary and its
//! libraries, relocations, set-up).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use sudoku_bench::puzzle_dir;

/// The five datasets, whole files: name and file under `shared/testdata/puzzles`.
const FILES: [(&str, &str); 5] = [
    ("17-clue", "puzzles2_17_clue.txt"),
    ("top1465", "puzzles3_magictour_top1465.txt"),
    ("hardest_11+", "puzzles5_forum_hardest_1905_11+.txt"),
    ("hardest_1106", "puzzles6_forum_hardest_1106.txt"),
    ("serg", "puzzles7_serg_benchmark.txt"),
];

/// How many times as many runs the `start` line gets as a dataset: a one-puzzle run takes
/// about 2 ms, which the scheduler of a busy machine disturbs more.
const START_RUNS: usize = 10;

/// A command to time: a program and its arguments before the puzzle file.
#[derive(Clone)]
struct Runner {
    name: &'static str,
    program: PathBuf,
    args: Vec<String>,
}

impl Runner {
    /// The command for `file`, pinned to `cpu` with `taskset` when asked.
    fn command(&self, file: &Path, cpu: Option<usize>) -> Command {
        let mut command = match cpu {
            Some(cpu) => {
                let mut c = Command::new("taskset");
                c.arg("-c").arg(cpu.to_string()).arg(&self.program);
                c
            }
            None => Command::new(&self.program),
        };
        command.args(&self.args).arg(file);
        command
    }

    /// Its standard output on `file` (checked to exit successfully).
    fn output(&self, file: &Path) -> Result<Vec<u8>, String> {
        let out = self
            .command(file, None)
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("{}: {e}", self.program.display()))?;
        if !out.status.success() {
            return Err(format!(
                "{} on {} exited with {}",
                self.name,
                file.display(),
                out.status
            ));
        }
        Ok(out.stdout)
    }

    /// Wall seconds and CPU seconds (user and system) of one run on `file`, its output thrown
    /// away.
    fn time(&self, file: &Path, cpu: Option<usize>) -> (f64, f64) {
        let before = children_cpu();
        let start = Instant::now();
        let status = self
            .command(file, cpu)
            .stdout(Stdio::null())
            .status()
            .expect("the command ran once already");
        let seconds = start.elapsed().as_secs_f64();
        assert!(
            status.success(),
            "{} failed on {}",
            self.name,
            file.display()
        );
        (seconds, children_cpu() - before)
    }
}

/// The CPU seconds (user and system) of this process's children that have been waited for,
/// so far (`getrusage(RUSAGE_CHILDREN)`): a run's is the difference before and after it.
/// Unlike wall time it leaves out the time a run waits for a core on a busy machine.
fn children_cpu() -> f64 {
    // SAFETY: `getrusage` fills the struct it is given; an all-zero `rusage` is a valid value.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The median of some numbers.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Runs `cargo build --release` with `args`, from the workspace.
fn cargo_build(args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args(["build", "--release", "-q"])
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .status()
        .map_err(|e| format!("cargo: {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or(format!("cargo build {args:?} failed"))
}

/// `peer-tdoku` in `dir`, built with `build.sh` unless it is there already; `None` with a
/// message when it cannot be built (no g++, no `shared/`).
fn tdoku(dir: &Path) -> Option<PathBuf> {
    let peer = dir.join("peer-tdoku");
    if peer.is_file() {
        return Some(peer);
    }
    let script = puzzle_dir().join("../../peers/tdoku/build.sh");
    if Command::new("g++").arg("--version").output().is_err() {
        println!(
            "SKIPPED tdoku: g++ is not installed (needed to build {})",
            script.display()
        );
        return None;
    }
    match Command::new("bash").arg(&script).arg(dir).status() {
        Ok(s) if s.success() && peer.is_file() => Some(peer),
        other => {
            println!("SKIPPED tdoku: {} failed ({other:?})", script.display());
            None
        }
    }
}

fn main() {
    let mut runs = 11;
    let mut cpu = None;
    let mut baseline = None;
    let mut only = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |what: &str| -> usize {
            args.next()
                .and_then(|a| a.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a number"))
        };
        match arg.as_str() {
            "--runs" => runs = number("--runs").max(1),
            "--cpu" => cpu = Some(number("--cpu")),
            "--baseline" => {
                let program = args.next().expect("--baseline needs a program");
                baseline = Some(PathBuf::from(program));
            }
            _ => only.push(arg),
        }
    }
    if !puzzle_dir().is_dir() {
        println!(
            "SKIPPED: {} is absent, nothing to run",
            puzzle_dir().display()
        );
        return;
    }
    if let Err(e) = cargo_build(&["--bin", "sudoku"])
        .and_then(|()| cargo_build(&["-p", "sudoku-bench", "--example", "peer_sudoku"]))
    {
        eprintln!("whole_process: {e}");
        std::process::exit(1);
    }
    // This example runs from `target/release/examples`.
    let exe = std::env::current_exe().expect("the running example has a path");
    let examples = exe.parent().expect("examples/").to_path_buf();
    let release = examples.parent().expect("release/").to_path_buf();
    if cpu.is_some() && Command::new("taskset").arg("-V").output().is_err() {
        println!("note: taskset is missing, runs are not pinned");
        cpu = None;
    }
    let ours = Runner {
        name: "ours",
        program: release.join("sudoku"),
        args: vec!["solve".into(), "-j".into(), "1".into()],
    };
    let mut peers = vec![];
    if let Some(program) = tdoku(&release.join("peer-tdoku-build")) {
        peers.push(Runner {
            name: "tdoku",
            program,
            args: vec![],
        });
    }
    peers.push(Runner {
        name: "sudoku-crate",
        program: examples.join("peer_sudoku"),
        args: vec![],
    });
    if let Some(program) = baseline {
        peers.push(Runner {
            name: "baseline",
            program,
            args: ours.args.clone(),
        });
    }
    println!(
        "# {runs} pairs per dataset and peer, wall time{}, `sudoku solve -j 1` against each peer",
        cpu.map_or(String::new(), |c| format!(", pinned to cpu {c}"))
    );
    // The process start: one puzzle (the first of top1465), in a file of its own, run
    // `START_RUNS` times as many times as a dataset.
    let start = release.join("whole_process_start.txt");
    let first = std::fs::read_to_string(puzzle_dir().join(FILES[1].1))
        .ok()
        .and_then(|text| text.lines().next().map(|l| format!("{l}\n")));
    if let Err(e) = first
        .ok_or_else(|| "no first puzzle in top1465".to_owned())
        .and_then(|line| std::fs::write(&start, line).map_err(|e| e.to_string()))
    {
        eprintln!("whole_process: {}: {e}", start.display());
        std::process::exit(1);
    }
    let datasets = FILES
        .iter()
        .map(|&(name, file)| (name, puzzle_dir().join(file), runs))
        .chain([("start", start, runs * START_RUNS)]);
    for (name, path, runs) in datasets {
        if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
            continue;
        }
        let file = path.display();
        let expected = match ours.output(&path) {
            Ok(out) => out,
            Err(e) => {
                eprintln!("whole_process: {e}");
                std::process::exit(1);
            }
        };
        for peer in &peers {
            match peer.output(&path) {
                Ok(out) if out == expected => {}
                Ok(_) => {
                    eprintln!("whole_process: {} and ours disagree on {file}", peer.name);
                    std::process::exit(1);
                }
                Err(e) => {
                    eprintln!("whole_process: {e}");
                    std::process::exit(1);
                }
            }
            let (mut ratios, mut cpu_ratios, mut a, mut b) = (vec![], vec![], vec![], vec![]);
            for k in 0..runs {
                let (t_ours, t_peer) = if k % 2 == 0 {
                    let o = ours.time(&path, cpu);
                    (o, peer.time(&path, cpu))
                } else {
                    let p = peer.time(&path, cpu);
                    (ours.time(&path, cpu), p)
                };
                ratios.push(t_ours.0 / t_peer.0);
                cpu_ratios.push(t_ours.1 / t_peer.1);
                a.push(t_ours.0);
                b.push(t_peer.0);
            }
            println!(
                "{name} {} ratio={:.2} (ours {:.1} ms, {} {:.1} ms, {runs} pairs; cpu ratio={:.2})",
                peer.name,
                median(ratios),
                median(a) * 1e3,
                peer.name,
                median(b) * 1e3,
                median(cpu_ratios),
            );
        }
    }
}
