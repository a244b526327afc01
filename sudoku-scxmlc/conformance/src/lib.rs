//! What the two conformance suites of `sudoku-scxmlc` (`scxml-w3c-tests`, `scxml-scion-tests`)
//! share, so that they find their tests, count them and judge a run the same way:
//!
//! - for their build scripts: [`SuiteDir`], the tests folder (checked into the repository,
//!   or another one chosen with an environment variable), and [`write_if_changed`];
//! - for their test binaries: [`run_suite`], which filters the cases by the command-line
//!   arguments, runs each on a thread of its own ([`run_isolated`]), prints `PASS id`,
//!   `FAIL id: reason` or `SKIP id: reason` per case and `N passed, N failed, N skipped` at
//!   the end, and fails the run when a case fails unexpectedly or when no case ran.

mod driver;

pub use driver::{run_filtered, run_isolated, run_suite, Outcome, Suite, Tally};

use std::path::{Path, PathBuf};

/// A suite's tests folder, as a build script finds it.
#[derive(Debug, Clone)]
pub struct SuiteDir {
    /// The folder (canonical when it exists).
    pub path: PathBuf,
    /// Whether it exists.
    pub found: bool,
    /// The environment variable that can choose another folder (`SCXML_W3C_DIR`).
    pub env_var: &'static str,
}

impl SuiteDir {
    /// The folder named by `env_var` when it is set and not empty (a relative path is taken
    /// from `workspace_root`), else `default` (the copy checked into the repository).
    /// Prints the `cargo:rerun-if-*` lines for the variable and the folder.
    pub fn locate(env_var: &'static str, workspace_root: &Path, default: &Path) -> SuiteDir {
        println!("cargo:rerun-if-env-changed={env_var}");
        let path = match std::env::var_os(env_var) {
            Some(d) if !d.is_empty() => workspace_root.join(d),
            _ => default.to_path_buf(),
        };
        let path = path.canonicalize().unwrap_or(path);
        println!("cargo:rerun-if-changed={}", path.display());
        SuiteDir {
            found: path.is_dir(),
            path,
            env_var,
        }
    }

    /// Rust items for the generated case table: `pub const {prefix}_DIR: &str` (the folder)
    /// and `pub const {prefix}_DIR_FOUND: bool`, each with a doc comment.
    pub fn constants(&self, prefix: &str, what: &str) -> String {
        format!(
            "/// The {what} folder the table was built from (`{}` chooses another).\n\
             pub const {prefix}_DIR: &str = {:?};\n\
             /// Whether that folder existed at build time.\n\
             pub const {prefix}_DIR_FOUND: bool = {};\n",
            self.env_var,
            self.path.display().to_string(),
            self.found
        )
    }
}

/// Writes `contents` to `path` unless the file already holds exactly that, so that Cargo and
/// rustc see no change (and rebuild nothing) when a build script regenerates the same text.
///
/// # Panics
/// When the file cannot be written: a build script has no better way to fail.
pub fn write_if_changed(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return;
    }
    std::fs::write(path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}
