//! The build-script entry points: [`compile`] for the common case and [`Config`] for options.
//! [`Config::generate`] does the work in memory (parse → validate → plan → emit);
//! [`Config::compile`] is the thin shell that talks to Cargo and writes `OUT_DIR`.

use crate::diagnostic::{Diagnostic, Rendered, Severity, SourceFile};
use crate::{emit, parse, plan, validate};
use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

/// Compiles `chart` (relative to the crate's `Cargo.toml`) into `$OUT_DIR/<chart stem>.rs`,
/// from a build script. Include the result with
/// `include!(concat!(env!("OUT_DIR"), "/<chart stem>.rs"));`.
///
/// # Errors
/// See [`Config::compile`].
pub fn compile(chart: impl AsRef<Path>) -> Result<PathBuf, Error> {
    Config::new().compile(chart)
}

/// The default of [`Config::state_enum_limit`].
pub const DEFAULT_STATE_ENUM_LIMIT: usize = 4096;

/// Options for compiling a chart. Every method is named for its effect and returns `&mut Self`.
#[derive(Debug, Clone)]
pub struct Config {
    out_dir: Option<PathBuf>,
    runtime_path: String,
    type_name: Option<String>,
    file_name: Option<String>,
    verbatim_state_names: bool,
    print_warnings: bool,
    invocable: Vec<(String, PathBuf)>,
    state_enum_limit: usize,
    /// `Some`: the user chose `State`'s form ([`Config::state_newtype`]).
    state_newtype: Option<bool>,
    large_output: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            out_dir: None,
            runtime_path: "::sudoku_scxmlc::runtime".to_owned(),
            type_name: None,
            file_name: None,
            verbatim_state_names: false,
            print_warnings: true,
            invocable: Vec::new(),
            state_enum_limit: DEFAULT_STATE_ENUM_LIMIT,
            state_newtype: None,
            large_output: LARGE_OUTPUT,
        }
    }
}

/// The output of [`Config::generate`].
#[derive(Debug, Clone)]
pub struct Generated {
    /// The formatted Rust source.
    pub code: String,
    /// Rendered warnings.
    pub warnings: Vec<String>,
    /// Files the chart pulled in (`<script src>`, `<data src>`).
    pub included_files: Vec<PathBuf>,
}

impl Config {
    /// Default options: output in `$OUT_DIR`, runtime at `::sudoku_scxmlc::runtime`, machine
    /// type named after `<scxml name>` (or the file stem).
    pub fn new() -> Self {
        Config::default()
    }

    /// Writes the output into `dir` instead of `$OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The path generated code uses for the runtime, for a crate that renames the dependency
    /// (default `::sudoku_scxmlc::runtime`).
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.runtime_path = path.into();
        self
    }

    /// Names the machine type (default: `<scxml name>` in `UpperCamelCase`, else the file stem).
    pub fn type_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.type_name = Some(name.into());
        self
    }

    /// Keeps state ids that are already Rust identifiers as the `State` variant names
    /// (`a` → `State::a`, `A` → `State::A`) instead of converting them to `UpperCamelCase`.
    /// Other ids are mangled as usual. (Ids that differ only in case compile either way:
    /// without this, `a` and `A` become `State::A` and `State::A_2`.)
    pub fn verbatim_state_names(&mut self, verbatim: bool) -> &mut Self {
        self.verbatim_state_names = verbatim;
        self
    }

    /// The most states (history states not counted; default [`DEFAULT_STATE_ENUM_LIMIT`],
    /// 4,096) a chart may have for `State` to be an enum when
    /// [`state_newtype`](Config::state_newtype) was not chosen. A larger chart is an error
    /// that asks for that choice, so that `State` never changes form behind the user's back
    /// (a `match` that lists every variant would stop compiling). rustc resolves each mention
    /// of an enum variant in time proportional to the variant's position, so an enum's cost
    /// grows with the square of its size: uSCXML's LCCA.256 (65,538 states) did not compile in
    /// 20 minutes as an enum.
    pub fn state_enum_limit(&mut self, n: usize) -> &mut Self {
        self.state_enum_limit = n;
        self
    }

    /// Chooses `State`'s form for every chart size: `true` gives a newtype over the state
    /// index with one associated constant per state, named like the enum's variants
    /// (`State::Idle` either way; a `match` on it needs a `_` arm); `false` an enum at any
    /// size (see [`state_enum_limit`](Config::state_enum_limit) for its cost). Without a
    /// choice, charts up to `state_enum_limit` states get the enum and larger ones are an
    /// error. (A chart without states always gets the newtype: Rust has no `#[repr(u32)]`
    /// enum without variants.)
    pub fn state_newtype(&mut self, newtype: bool) -> &mut Self {
        self.state_newtype = Some(newtype);
        self
    }

    /// Warns when the generated file is larger than `bytes` (default [`LARGE_OUTPUT`],
    /// 16 MB): rustc needs about a second and a half per megabyte of it in a debug build.
    pub fn large_output_warning(&mut self, bytes: u64) -> &mut Self {
        self.large_output = bytes;
        self
    }

    /// Whether [`Config::compile`] passes chart warnings on to Cargo as `cargo:warning=`
    /// (default `true`). [`Config::generate`] always returns them.
    pub fn print_warnings(&mut self, print: bool) -> &mut Self {
        self.print_warnings = print;
        self
    }

    /// Registers the chart file `chart` under `key` (a URI such as `file:child.scxml`) for
    /// `<invoke srcexpr="...">` and `<invoke><content expr="..."/>`, whose chart is chosen
    /// at run time (SCXML 1.0, 6.4): a chart that has such an `<invoke>` is compiled with
    /// every registered chart as a possible child, and the expression's value selects one by
    /// its key. A value that names no registered chart raises `error.execution`. A relative
    /// `chart` is resolved like the chart given to [`Config::compile`].
    pub fn invocable(&mut self, key: impl Into<String>, chart: impl Into<PathBuf>) -> &mut Self {
        let chart = chart.into();
        let chart = match std::env::var_os("CARGO_MANIFEST_DIR") {
            Some(dir) if chart.is_relative() => PathBuf::from(dir).join(chart),
            _ => chart,
        };
        self.invocable.push((key.into(), chart));
        self
    }

    /// Names the output file (default `<chart stem>.rs`).
    pub fn file_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.file_name = Some(name.into());
        self
    }

    /// Compiles a chart from a build script: resolves `chart` against `CARGO_MANIFEST_DIR`,
    /// prints `cargo:rerun-if-changed` for the chart and every file it pulls in, passes
    /// warnings on as `cargo:warning=`, and writes the output (only when it changed).
    /// Returns the path written.
    ///
    /// # Errors
    /// [`Error::NotCargo`] outside a build script without [`Config::out_dir`];
    /// [`Error::Io`] when the chart cannot be read or the output written;
    /// [`Error::Chart`] with every located diagnostic when the chart is wrong.
    pub fn compile(&self, chart: impl AsRef<Path>) -> Result<PathBuf, Error> {
        let chart = chart.as_ref();
        let path = match std::env::var_os("CARGO_MANIFEST_DIR") {
            Some(dir) if chart.is_relative() => PathBuf::from(dir).join(chart),
            _ => chart.to_path_buf(),
        };
        let out_dir = match (&self.out_dir, std::env::var_os("OUT_DIR")) {
            (Some(d), _) => d.clone(),
            (None, Some(d)) => PathBuf::from(d),
            (None, None) => return Err(Error::NotCargo),
        };
        println!("cargo:rerun-if-changed={}", path.display());
        let text = read_chart(&path)?;
        let file_name = self.file_name.clone().unwrap_or_else(|| {
            let stem = path
                .file_stem()
                .map_or("chart".into(), |s| s.to_string_lossy());
            format!("{stem}.rs")
        });
        let out = out_dir.join(file_name);
        // Written next to the output, then moved over it only when it differs, so that an
        // unchanged chart does not make rustc rebuild the crate.
        let fresh = out.with_extension("rs.partial");
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| Error::Io { path, source }
        };
        let file = std::fs::File::create(&fresh).map_err(io(&fresh))?;
        let mut writer = std::io::BufWriter::new(file);
        let features = runtime_from_env();
        let generated = match self.generate_checked(&path, text, &mut writer, features) {
            Ok(g) => g,
            Err(e) => {
                drop(writer);
                let _ = std::fs::remove_file(&fresh);
                return Err(e);
            }
        };
        writer
            .into_inner()
            .map_err(|e| e.into_error())
            .map_err(io(&fresh))?;
        if files_equal(&fresh, &out) {
            std::fs::remove_file(&fresh).map_err(io(&fresh))?;
        } else {
            std::fs::rename(&fresh, &out).map_err(io(&out))?;
        }
        for f in &generated.included_files {
            println!("cargo:rerun-if-changed={}", f.display());
        }
        if self.print_warnings {
            for w in &generated.warnings {
                for line in w.lines() {
                    println!("cargo:warning={line}");
                }
            }
        }
        Ok(out)
    }

    /// Compiles chart text in memory. `path` is what messages print and where `src`
    /// attributes are resolved from.
    ///
    /// # Errors
    /// [`Error::Chart`] with every located diagnostic when the chart is wrong.
    pub fn generate<'t>(
        &self,
        path: &Path,
        text: impl Into<Cow<'t, str>>,
    ) -> Result<Generated, Error> {
        let mut code = Vec::new();
        let written = self.generate_to(path, text, &mut code)?;
        Ok(Generated {
            code: String::from_utf8(code).expect("generated code is UTF-8"),
            warnings: written.warnings,
            included_files: written.included_files,
        })
    }

    /// [`Config::generate`], writing the code to `out` as it is made rather than returning
    /// it: the compiler then never holds the whole generated file (see `docs/scale.md`).
    /// `text` is borrowed (a `&str`) or taken (a `String`), never copied: diagnostics are
    /// rendered against it.
    ///
    /// # Errors
    /// [`Error::Chart`] with every located diagnostic when the chart is wrong (nothing is
    /// written then); [`Error::Io`] (with `path`) when writing to `out` fails.
    pub fn generate_to<'t>(
        &self,
        path: &Path,
        text: impl Into<Cow<'t, str>>,
        out: &mut dyn std::io::Write,
    ) -> Result<Written, Error> {
        self.generate_checked(path, text, out, RuntimeFeatures::default())
    }

    /// [`Config::generate_to`], refusing a chart that needs a datamodel the runtime
    /// dependency was built without (`features`, when known: see [`runtime_from_env`]).
    fn generate_checked<'t>(
        &self,
        path: &Path,
        text: impl Into<Cow<'t, str>>,
        out: &mut dyn std::io::Write,
        features: RuntimeFeatures,
    ) -> Result<Written, Error> {
        let src = SourceFile::new(path, text);
        let fail = |diagnostics| Error::chart(&src, diagnostics);
        let runtime: syn::Path = syn::parse_str(&self.runtime_path).map_err(|_| {
            fail(vec![Diagnostic::error(
                Default::default(),
                format!(
                    "`{}` is not a Rust path (Config::runtime_path)",
                    self.runtime_path
                ),
            )])
        })?;
        let document = parse::parse(src.text()).map_err(fail)?;
        let ecmascript_at = document
            .root
            .attr("datamodel")
            .filter(|a| a.value == "ecmascript")
            .map(|a| a.span);
        let (chart, diagnostics) =
            validate::validate(document, &src, path.parent(), &self.invocable, self.names());
        let Some(chart) = chart else {
            return Err(fail(diagnostics));
        };
        if let (Some(span), Some(false)) = (ecmascript_at, features.ecmascript) {
            // Generated anyway, the code would fail to build with one error per use of the
            // missing `runtime::ecmascript` module.
            return Err(fail(vec![Diagnostic::error(
                span,
                "the runtime this chart is built with has no ECMAScript datamodel",
            )
            .with_help(
                "enable the `ecmascript` feature of the sudoku-scxmlc dependency (the runtime) \
                 in Cargo.toml's [dependencies]: `sudoku-scxmlc = { default-features = false, \
                 features = [\"ecmascript\"] }`",
            )]));
        }
        let mut warnings = render_warnings(&src, &diagnostics, chart.omitted_warnings);
        let included_files = chart.included_files.clone();
        let plan = plan::plan(chart);
        let newtype = match self.state_newtype {
            Some(choice) => choice,
            None => {
                if let Some((name, n)) =
                    emit::largest_state_count(&plan).filter(|&(_, n)| n > self.state_enum_limit)
                {
                    return Err(fail(vec![Diagnostic::error(
                        Default::default(),
                        format!(
                            "chart `{name}` has {n} states, more than the {} up to which `State` is an enum by default (Config::state_enum_limit): choose its form with Config::state_newtype(true) (a newtype with one constant per state; a `match` on it needs a `_` arm) or Config::state_newtype(false) (an enum: rustc's time for one grows with the square of its variants), or raise the limit",
                            self.state_enum_limit
                        ),
                    )]));
                }
                false
            }
        };
        let bytes = emit::emit_to(&plan, &runtime, newtype, out).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if bytes > self.large_output {
            warnings.push(format!(
                "{}: warning: the generated file is {:.1} MB, large for rustc: a debug build compiles about {RUSTC_MB_PER_S} MB of it per second on a 2-core machine (docs/scale.md), so expect {} s or more\n  = help: split the chart into charts that `<invoke>` one another, or keep it in a crate of its own so that it is rebuilt only when it changes\n",
                path.display(),
                bytes as f64 / 1e6,
                (bytes as f64 / 1e6 / RUSTC_MB_PER_S).round()
            ));
        }
        Ok(Written {
            bytes,
            warnings,
            included_files,
        })
    }
}

/// What the runtime dependency of the crate being built was compiled with, when known.
#[derive(Debug, Clone, Copy, Default)]
struct RuntimeFeatures {
    /// Its `ecmascript` feature; `None` when unknown.
    ecmascript: Option<bool>,
}

/// The runtime's features as its build script told the build scripts of the crates that
/// depend on it (`links = "sudoku_scxmlc"`, metadata `ecmascript=0|1`, read as
/// `DEP_SUDOKU_SCXMLC_ECMASCRIPT`). Unknown when the crate does not depend on
/// `sudoku-scxmlc` directly (say, it reaches the runtime through a re-export).
fn runtime_from_env() -> RuntimeFeatures {
    RuntimeFeatures {
        ecmascript: match std::env::var("DEP_SUDOKU_SCXMLC_ECMASCRIPT").as_deref() {
            Ok("1") => Some(true),
            Ok("0") => Some(false),
            _ => None,
        },
    }
}

/// The default of [`Config::large_output_warning`]: above this many bytes of generated code
/// the build warns that rustc will take long.
pub const LARGE_OUTPUT: u64 = 16_000_000;

/// About how many megabytes of generated code rustc compiles per second in a debug build on
/// the project's 2-core machine (LCCA.256: 32.9 MB in 53.5 s; Transitions.256: 10.5 MB in
/// 18.6 s; docs/scale.md).
const RUSTC_MB_PER_S: f64 = 0.6;

/// What [`Config::generate_to`] wrote.
#[derive(Debug, Clone)]
pub struct Written {
    /// Bytes of Rust source written.
    pub bytes: u64,
    /// Rendered warnings (one of them when the file is large for rustc).
    pub warnings: Vec<String>,
    /// Files the chart pulled in (`<script src>`, `<data src>`).
    pub included_files: Vec<PathBuf>,
}

/// What [`Config::check`] found in a chart without errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// Rendered warnings, in source order (at most `MAX_RENDERED`, then one line counting the
    /// others).
    pub warnings: Vec<String>,
    /// How many warnings the chart has, rendered or not.
    pub warning_count: usize,
}

impl Config {
    /// Checks chart text in memory without generating code: parses and validates it (every
    /// user error is found there) and returns the rendered warnings. What `sudoku-scxmlc
    /// check` runs; it costs a fraction of [`Config::generate`]'s time and memory. `text` is
    /// borrowed (a `&str`) or taken (a `String`), never copied.
    ///
    /// # Errors
    /// [`Error::Chart`] with every located diagnostic when the chart is wrong.
    pub fn check<'t>(&self, path: &Path, text: impl Into<Cow<'t, str>>) -> Result<Checked, Error> {
        let src = SourceFile::new(path, text);
        let document = parse::parse(src.text()).map_err(|d| Error::chart(&src, d))?;
        let (chart, diagnostics) =
            validate::validate(document, &src, path.parent(), &self.invocable, self.names());
        match chart {
            Some(chart) => Ok(Checked {
                warnings: render_warnings(&src, &diagnostics, chart.omitted_warnings),
                warning_count: diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Warning)
                    .count()
                    + chart.omitted_warnings,
            }),
            None => Err(Error::chart(&src, diagnostics)),
        }
    }

    fn names(&self) -> validate::NameOptions<'_> {
        validate::NameOptions {
            verbatim_state_names: self.verbatim_state_names,
            type_name: self.type_name.as_deref(),
        }
    }
}

/// The warnings among `diagnostics`, rendered (at most `MAX_RENDERED`, then a count).
/// The first `MAX_RENDERED` warnings among `diagnostics`, rendered, and a line counting the
/// others (`omitted` more were found and not kept: `Chart::omitted_warnings`).
fn render_warnings(src: &SourceFile, diagnostics: &[Diagnostic], omitted: usize) -> Vec<String> {
    let all: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect();
    let mut warnings: Vec<String> = all
        .iter()
        .take(crate::diagnostic::MAX_RENDERED)
        .map(|d| src.render(d))
        .collect();
    let total = all.len() + omitted;
    if total > crate::diagnostic::MAX_RENDERED {
        warnings.push(format!(
            "{}: … and {} more warnings not shown\n",
            src.path().display(),
            total - crate::diagnostic::MAX_RENDERED
        ));
    }
    warnings
}

/// The plan of a chart that must be valid, for unit tests of the later stages.
#[cfg(test)]
pub(crate) fn plan_for_tests(text: &str) -> plan::Plan {
    let path = Path::new("test.scxml");
    let document = parse::parse(text.trim_start_matches('\u{FEFF}')).expect("the chart parses");
    let (chart, diagnostics) = validate::validate(
        document,
        &SourceFile::new(path, text),
        None,
        &[],
        Default::default(),
    );
    let chart = chart.unwrap_or_else(|| panic!("the chart is valid: {diagnostics:?}"));
    plan::plan(chart)
}

/// Reads a chart file as UTF-8 text.
///
/// # Errors
/// [`Error::Io`] when the file cannot be read; [`Error::Chart`] located at the first byte that
/// is not UTF-8.
pub fn read_chart(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bad = e.as_bytes()[at];
        let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
        // Offsets into the lossy text line up with the bytes before the first bad one.
        let src = SourceFile::new(path, text);
        let diagnostics = vec![Diagnostic::error(
            crate::diagnostic::Span::new(at, at + 1),
            format!("the chart is not UTF-8 text (byte 0x{bad:02X})"),
        )
        .with_help("save the chart as UTF-8")];
        Error::chart(&src, diagnostics)
    })
}

/// Validates a chart and renders it as a Graphviz DOT digraph: clusters for compound and
/// (dashed) parallel states, double circles for final states, `H`/`H*` for history.
///
/// # Errors
/// [`Error::Chart`] when the chart has errors.
pub fn dot(path: &Path, text: &str) -> Result<String, Error> {
    let src = SourceFile::new(path, text);
    let fail = |diagnostics| Error::chart(&src, diagnostics);
    let document = parse::parse(src.text()).map_err(fail)?;
    match validate::validate(document, &src, path.parent(), &[], Default::default()) {
        (Some(chart), _) => Ok(crate::dot::dot(&chart)),
        (None, diagnostics) => Err(fail(diagnostics)),
    }
}

/// Whether two files hold the same bytes (false when either cannot be read), read in chunks.
fn files_equal(a: &Path, b: &Path) -> bool {
    use std::io::Read;
    let (Ok(fa), Ok(fb)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    let (Ok(la), Ok(lb)) = (
        fa.metadata().map(|m| m.len()),
        fb.metadata().map(|m| m.len()),
    ) else {
        return false;
    };
    if la != lb {
        return false;
    }
    let (mut fa, mut fb) = (fa, fb);
    let (mut ba, mut bb) = (vec![0; 64 * 1024], vec![0; 64 * 1024]);
    let mut left = la;
    while left > 0 {
        let n = left.min(ba.len() as u64) as usize;
        if fa.read_exact(&mut ba[..n]).is_err() || fb.read_exact(&mut bb[..n]).is_err() {
            return false;
        }
        if ba[..n] != bb[..n] {
            return false;
        }
        left -= n as u64;
    }
    true
}

/// Why a chart did not compile.
#[non_exhaustive]
pub enum Error {
    /// Neither `OUT_DIR` (set by Cargo for build scripts) nor [`Config::out_dir`] was given.
    NotCargo,
    /// The chart has errors; `rendered` shows each one as `CHART:LINE:COL: message` with the
    /// chart line and a caret.
    Chart {
        /// The chart.
        path: PathBuf,
        /// Every diagnostic, rendered.
        rendered: String,
        /// Every diagnostic.
        diagnostics: Vec<Diagnostic>,
    },
    /// Reading the chart or writing the output failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
}

impl Error {
    /// The error for a chart's diagnostics, rendered against its text.
    fn chart(src: &SourceFile, diagnostics: Vec<Diagnostic>) -> Self {
        Error::Chart {
            path: src.path().to_path_buf(),
            rendered: Rendered(src, &diagnostics).to_string(),
            diagnostics,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotCargo => f.write_str(
                "OUT_DIR is not set: call sudoku_scxmlc::compile from a build script, or set Config::out_dir",
            ),
            Error::Chart { path, rendered, diagnostics } => {
                let n = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
                write!(
                    f,
                    "{rendered}could not compile `{}`: {n} error{}",
                    path.display(),
                    if n == 1 { "" } else { "s" }
                )
            }
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

/// Shows the same text as `Display`, so `compile(..).unwrap()` in a build script prints the
/// located diagnostics rather than a struct dump.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

#[cfg(all(test, feature = "ecmascript"))]
mod tests {
    use super::*;

    const CHART: &str = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"\n       datamodel=\"ecmascript\"><state id=\"a\"/></scxml>";

    fn generate(ecmascript: Option<bool>) -> Result<Written, Error> {
        let runtime = RuntimeFeatures { ecmascript };
        Config::new().generate_checked(Path::new("web.scxml"), CHART, &mut Vec::new(), runtime)
    }

    #[test]
    fn a_runtime_without_ecmascript_is_one_located_error() {
        let message = generate(Some(false)).unwrap_err().to_string();
        assert!(
            message.contains("web.scxml:2:19: error: the runtime this chart is built with has no ECMAScript datamodel"),
            "{message}"
        );
        assert!(message.contains("features = [\"ecmascript\"]"), "{message}");
        assert!(
            message.ends_with("could not compile `web.scxml`: 1 error"),
            "{message}"
        );
        assert!(generate(Some(true)).is_ok());
        assert!(generate(None).is_ok(), "unknown: generated as before");
    }
}
