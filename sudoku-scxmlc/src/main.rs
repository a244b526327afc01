//! The `sudoku-scxmlc` command: compile a chart to Rust, check charts, or draw one as
//! Graphviz DOT. It runs the same stages as the build-script API.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Compiles W3C SCXML state charts into typed Rust state machines.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compiles a chart into a Rust file.
    Compile {
        /// The chart.
        chart: PathBuf,
        /// The Rust file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// The machine type's name (default: `<scxml name>` or the file stem).
        #[arg(long)]
        type_name: Option<String>,
        /// The path generated code uses for the runtime.
        #[arg(long, default_value = "::sudoku_scxmlc::runtime")]
        runtime_path: String,
        /// Without --state-newtype or --state-enum, a chart with more states than this is an
        /// error (rustc's time for an enum grows with its size squared).
        #[arg(long, default_value_t = sudoku_scxmlc::DEFAULT_STATE_ENUM_LIMIT)]
        state_enum_limit: usize,
        /// `State` as a newtype with one constant per state, at any chart size.
        #[arg(long, conflicts_with = "state_enum")]
        state_newtype: bool,
        /// `State` as an enum, at any chart size.
        #[arg(long)]
        state_enum: bool,
    },
    /// Checks charts and prints every diagnostic; exits 1 if any chart has an error.
    Check {
        /// The charts.
        #[arg(required = true)]
        charts: Vec<PathBuf>,
    },
    /// Prints a chart as a Graphviz DOT digraph.
    Dot {
        /// The chart.
        chart: PathBuf,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn read(path: &std::path::Path) -> Result<String, String> {
    sudoku_scxmlc::read_chart(path).map_err(|e| e.to_string())
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Compile {
            chart,
            output,
            type_name,
            runtime_path,
            state_enum_limit,
            state_newtype,
            state_enum,
        } => {
            let text = read(&chart)?;
            let mut config = sudoku_scxmlc::Config::new();
            config
                .runtime_path(runtime_path)
                .state_enum_limit(state_enum_limit);
            if state_newtype || state_enum {
                config.state_newtype(state_newtype);
            }
            if let Some(name) = type_name {
                config.type_name(name);
            }
            // Written as it is generated; a chart with errors leaves no file behind.
            let file =
                std::fs::File::create(&output).map_err(|e| format!("{}: {e}", output.display()))?;
            let mut writer = std::io::BufWriter::new(file);
            let result = config.generate_to(&chart, text, &mut writer);
            let flushed = writer.into_inner().map_err(|e| e.into_error());
            match (result, flushed) {
                (Ok(written), Ok(_)) => {
                    for w in &written.warnings {
                        eprint!("{w}");
                    }
                    Ok(())
                }
                (Err(e), _) => {
                    let _ = std::fs::remove_file(&output);
                    Err(e.to_string())
                }
                (Ok(_), Err(e)) => Err(format!("{}: {e}", output.display())),
            }
        }
        Command::Check { charts } => {
            let (mut failed, mut warnings) = (0, 0);
            for chart in &charts {
                let result = read(chart).and_then(|text| {
                    sudoku_scxmlc::Config::new()
                        .check(chart, text)
                        .map_err(|e| e.to_string())
                });
                match result {
                    Ok(checked) => {
                        for w in &checked.warnings {
                            eprint!("{w}");
                        }
                        warnings += checked.warning_count;
                    }
                    Err(e) => {
                        eprintln!("{e}");
                        failed += 1;
                    }
                }
            }
            let summary = check_summary(charts.len(), failed, warnings);
            if failed == 0 {
                eprintln!("{summary}");
                Ok(())
            } else {
                Err(summary)
            }
        }
        Command::Dot { chart } => {
            let text = read(&chart)?;
            let dot = sudoku_scxmlc::dot(&chart, &text).map_err(|e| e.to_string())?;
            print!("{dot}");
            Ok(())
        }
    }
}

/// The last line of `check`: how many of the `charts` checked `failed`, or that none did and
/// how many `warnings` they have.
fn check_summary(charts: usize, failed: usize, warnings: usize) -> String {
    if failed > 0 {
        let verb = if failed == 1 { "has" } else { "have" };
        return format!("{failed} of {charts} charts {verb} errors");
    }
    let warnings = match warnings {
        0 => String::new(),
        1 => ", 1 warning".to_owned(),
        w => format!(", {w} warnings"),
    };
    let s = if charts == 1 { "" } else { "s" };
    format!("{charts} chart{s} checked, no errors{warnings}")
}

#[cfg(test)]
mod tests {
    use super::check_summary;

    #[test]
    fn the_summary_agrees_in_number() {
        assert_eq!(check_summary(1, 1, 0), "1 of 1 charts has errors");
        assert_eq!(check_summary(3, 2, 5), "2 of 3 charts have errors");
        assert_eq!(check_summary(1, 0, 0), "1 chart checked, no errors");
        assert_eq!(
            check_summary(1, 0, 1),
            "1 chart checked, no errors, 1 warning"
        );
        assert_eq!(
            check_summary(2, 0, 2),
            "2 charts checked, no errors, 2 warnings"
        );
    }
}
