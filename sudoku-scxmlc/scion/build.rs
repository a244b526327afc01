//! Compiles every SCION chart found into `$OUT_DIR/scion/` and writes `$OUT_DIR/scion_cases.rs`:
//! one module per compiled chart, one monomorphic `run_*` function per chart, and the table
//! `CASES` the test `tests/scion.rs` walks.
//!
//! The tests folder is `$SCXML_SCION_DIR` when set (a relative path is taken from the workspace
//! root), else this crate's `testdata/` (the suite, checked into the repository). Whatever is in it is used: a
//! missing folder gives an empty table, a chart without its `.json` trace or with an error is a
//! failing case, never a build failure.

#[path = "build/ecmascript.rs"]
mod ecmascript;
#[path = "build/rewrite.rs"]
mod rewrite;

use scxml_conformance::{write_if_changed, SuiteDir};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Groups whose charts must all be translated: in them, ECMAScript outside the translated
/// subset is a failing case; in other groups (of another folder) it is a skip. A failing test
/// fails the run whatever its group (`tests/scion.rs`).
const REQUIRED_GROUPS: &[&str] = &[
    "basic",
    "hierarchy",
    "documentOrder",
    "parallel",
    "more-parallel",
    "parallel+interrupt",
    "history",
    "targetless-transition",
    "multiple-events-per-transition",
    "scxml-prefix-event-name-matching",
    "default-initial-state",
    "actionSend",
    "delayedSend",
];

/// Charts that compile and run but are not checked, because what they test is a property of
/// SCION's ECMAScript platform that SCXML leaves open: `group/name` → why. They stay in the
/// random walks of `tests/properties.rs`.
const NOT_CHECKED: &[(&str, &str)] = &[];

/// Charts with an ECMAScript syntax error, which SCION raises as `error.execution` when it
/// runs and sudoku-scxmlc refuses at build time, at the line and column (as it refuses every
/// syntax error in an ECMAScript chart): `group/name` → what the refusal must say. In the
/// ecmascript run they are skipped with the compiler's message; one that compiles fails.
/// The translated run keeps SCION's run-time semantics (the translation turns a syntax error
/// into an `ExecError`).
const REFUSED_AT_BUILD_TIME: &[(&str, &str)] = &[
    ("assign/assign_invalid", "invalid ECMAScript expression"),
    ("data/data_invalid", "invalid ECMAScript expression"),
];

/// What the test does with a chart.
enum Kind {
    /// Compiled into `$OUT_DIR/scion/<module>.rs`.
    Compiled {
        module: String,
        datamodel: rewrite::Datamodel,
        /// Why the run is not checked ([`NOT_CHECKED`]).
        unchecked: Option<&'static str>,
    },
    /// The chart could not be used: the located message.
    Broken(String),
    /// The chart is not run: why (ECMAScript outside the translated subset).
    Skip(String),
}

struct Case {
    group: String,
    name: String,
    required: bool,
    trace: Option<PathBuf>,
    /// The chart translated to the rust datamodel (or the null one).
    kind: Kind,
    /// The chart with its own ECMAScript, in the ecmascript datamodel.
    ecma: Kind,
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/rewrite.rs");
    println!("cargo:rerun-if-changed=build/ecmascript.rs");
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env("OUT_DIR"));
    let workspace_root = manifest_dir.join("../..");
    let suite = SuiteDir::locate(
        "SCXML_SCION_DIR",
        &workspace_root,
        &manifest_dir.join("testdata"),
    );
    let dir = suite.path.clone();

    let charts_dir = out_dir.join("scion");
    std::fs::create_dir_all(&charts_dir).expect("create $OUT_DIR/scion");
    let found = dir.is_dir();
    let cases = if found {
        collect(&dir, &charts_dir)
    } else {
        Vec::new()
    };
    let table = emit_table(&suite, found, &cases);
    write_if_changed(&out_dir.join("scion_cases.rs"), &table);

    // The compiler's feature chart (whose generated code is a golden snapshot) is compiled and
    // run here too, by tests/features.rs.
    sudoku_scxmlc::Config::new()
        .out_dir(&out_dir)
        .compile(manifest_dir.join("../tests/golden/features.scxml"))
        .unwrap();
    // A chart that keeps sending itself events (tests/limits.rs).
    sudoku_scxmlc::Config::new()
        .out_dir(&out_dir)
        .compile(manifest_dir.join("charts/livelock.scxml"))
        .unwrap();
    // The same chart with `State` as a newtype, as `Config::state_newtype(true)` chooses
    // it (tests/state_newtype.rs).
    sudoku_scxmlc::Config::new()
        .out_dir(&out_dir)
        .file_name("features_newtype.rs")
        .state_newtype(true)
        .compile(manifest_dir.join("../tests/golden/features.scxml"))
        .unwrap();
    // State ids that are the names of `State`'s own items, verbatim, with `State` as an enum
    // and as a newtype (tests/item_names.rs).
    for (file, newtype) in [
        ("item_names_enum.rs", false),
        ("item_names_newtype.rs", true),
    ] {
        sudoku_scxmlc::Config::new()
            .out_dir(&out_dir)
            .file_name(file)
            .verbatim_state_names(true)
            .state_newtype(newtype)
            .compile(manifest_dir.join("tests/charts/item_names.scxml"))
            .unwrap();
    }
    // Typed events and payloads (tests/typed_events.rs).
    sudoku_scxmlc::Config::new()
        .out_dir(&out_dir)
        .compile(manifest_dir.join("tests/charts/typed_events.scxml"))
        .unwrap();
    // Late binding, driven through the quiet path and the full interpreter
    // (tests/late_binding.rs).
    sudoku_scxmlc::Config::new()
        .out_dir(&out_dir)
        .compile(manifest_dir.join("tests/charts/late_binding.scxml"))
        .unwrap();
    // Charts Qt compiles that SCXML allows (tests/qt_compat.rs); their warnings are the
    // point, so they are not printed to Cargo.
    for chart in [
        "qt_names",
        "history_without_default",
        "empty",
        "lifecycle",
        "panics",
    ] {
        sudoku_scxmlc::Config::new()
            .out_dir(&out_dir)
            .print_warnings(false)
            .compile(manifest_dir.join(format!("tests/charts/{chart}.scxml")))
            .unwrap();
    }
    // Qt's compiler-test chart that invokes three children (tests/qt_compat.rs).
    sudoku_scxmlc::Config::new()
        .out_dir(&out_dir)
        .compile(manifest_dir.join("../tests/charts/qt/compiled/topmachine.scxml"))
        .unwrap();
    // done.state of <parallel> states nested three levels deep (tests/nested_parallel.rs).
    sudoku_scxmlc::Config::new()
        .out_dir(&out_dir)
        .compile(manifest_dir.join("tests/charts/nested_parallel_done.scxml"))
        .unwrap();
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run through Cargo"))
}

/// Every `group/NAME.scxml` of `dir`, in sorted order, compiled or classified.
fn collect(dir: &Path, charts_dir: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    for group_dir in sorted_entries(dir).into_iter().filter(|p| p.is_dir()) {
        let group = file_name(&group_dir);
        let required = REQUIRED_GROUPS.contains(&group.as_str());
        for chart in sorted_entries(&group_dir) {
            if chart.extension().and_then(|e| e.to_str()) != Some("scxml") {
                continue;
            }
            let name = chart
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let trace = chart.with_extension("json");
            let module = format!("c{:03}_{}_{}", cases.len(), snake(&group), snake(&name));
            let (kind, ecma, trace) = if trace.is_file() {
                let kind = classify(&group, &name, &chart, required, charts_dir, &module);
                let ecma = classify_ecmascript(&group, &name, &chart, charts_dir, &module);
                (kind, ecma, Some(trace))
            } else {
                let msg = format!("no trace: {} is missing", trace.display());
                (Kind::Broken(msg.clone()), Kind::Broken(msg), None)
            };
            cases.push(Case {
                group: group.clone(),
                name,
                required,
                trace,
                kind,
                ecma,
            });
        }
    }
    cases
}

fn classify(
    group: &str,
    name: &str,
    chart: &Path,
    required: bool,
    charts_dir: &Path,
    module: &str,
) -> Kind {
    let text = match std::fs::read_to_string(chart) {
        Ok(t) => t,
        Err(e) => return Kind::Broken(format!("{}: {e}", chart.display())),
    };
    // `<script src>` is relative to the chart.
    let load = |src: &str| {
        chart
            .parent()
            .and_then(|dir| std::fs::read_to_string(dir.join(src)).ok())
    };
    let rewritten = match rewrite::rewrite_with(&format!("{group}/{name}"), &text, &load) {
        Ok(r) => r,
        Err(reason) if required => {
            return Kind::Broken(format!(
                "{}: needs ECMAScript and is not ported: {reason}",
                chart.display()
            ))
        }
        Err(reason) => return Kind::Skip(format!("ECMAScript not translated ({reason})")),
    };
    let generated = sudoku_scxmlc::Config::new()
        .type_name("Machine")
        .verbatim_state_names(true)
        .runtime_path("::sudoku_scxmlc::runtime")
        .generate(chart, &rewritten.text);
    match generated {
        Ok(g) => {
            write_if_changed(&charts_dir.join(format!("{module}.rs")), &g.code);
            let key = format!("{group}/{name}");
            Kind::Compiled {
                module: module.to_owned(),
                datamodel: rewritten.datamodel,
                unchecked: NOT_CHECKED
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, why)| *why),
            }
        }
        Err(e) => Kind::Broken(e.to_string()),
    }
}

/// The chart as SCION runs it: its own ECMAScript in the ecmascript datamodel, compiled into
/// `$OUT_DIR/scion/e<module>.rs`.
fn classify_ecmascript(
    group: &str,
    name: &str,
    chart: &Path,
    charts_dir: &Path,
    module: &str,
) -> Kind {
    let text = match std::fs::read_to_string(chart) {
        Ok(t) => t,
        Err(e) => return Kind::Broken(format!("{}: {e}", chart.display())),
    };
    let load = |src: &str| {
        chart
            .parent()
            .and_then(|dir| std::fs::read_to_string(dir.join(src)).ok())
    };
    let rewritten = match rewrite::for_ecmascript(&format!("{group}/{name}"), &text, &load) {
        Ok(r) => r,
        Err(reason) => return Kind::Broken(format!("{}: {reason}", chart.display())),
    };
    let generated = sudoku_scxmlc::Config::new()
        .type_name("Machine")
        .verbatim_state_names(true)
        .runtime_path("::sudoku_scxmlc::runtime")
        .generate(chart, &rewritten.text);
    let module = format!("e{module}");
    let key = format!("{group}/{name}");
    let refused = REFUSED_AT_BUILD_TIME
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, why)| *why);
    match (generated, refused) {
        (Err(e), Some(why)) if e.to_string().contains(why) => {
            let message = e.to_string();
            let first = message.lines().next().unwrap_or_default();
            let at = first
                .strip_prefix(&format!("{}:", chart.display()))
                .unwrap_or(first);
            Kind::Skip(format!(
                "refused at build time ({at}); SCION raises error.execution for it at run time"
            ))
        }
        (Ok(_), Some(why)) => Kind::Broken(format!(
            "{}: should be refused at build time (`{why}`), but it compiled",
            chart.display()
        )),
        (generated, _) => {
            classify_generated(generated, charts_dir, module, &key, rewritten.datamodel)
        }
    }
}

/// A chart of the ecmascript run that generated (or failed to), written out.
fn classify_generated(
    generated: Result<sudoku_scxmlc::Generated, sudoku_scxmlc::Error>,
    charts_dir: &Path,
    module: String,
    key: &str,
    datamodel: rewrite::Datamodel,
) -> Kind {
    match generated {
        Ok(g) => {
            write_if_changed(&charts_dir.join(format!("{module}.rs")), &g.code);
            Kind::Compiled {
                module,
                datamodel,
                unchecked: NOT_CHECKED
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, why)| *why),
            }
        }
        Err(e) => Kind::Broken(e.to_string()),
    }
}

fn emit_table(suite: &SuiteDir, found: bool, cases: &[Case]) -> String {
    let dir = &suite.path;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// @generated by scxml-scion-tests/build.rs from {:?}.\n",
        dir.display().to_string()
    );
    let mut found_suite = suite.clone();
    found_suite.found = found;
    out.push_str(&found_suite.constants("SCION", "SCION tests"));
    out.push('\n');
    let _ = writeln!(
        out,
        "/// One module per compiled chart.\n#[doc(hidden)]\npub mod charts {{"
    );
    for case in cases {
        for kind in [&case.kind, &case.ecma] {
            if let Kind::Compiled {
                module, datamodel, ..
            } = kind
            {
                let _ = writeln!(
                out,
                "    /// `{}/{}.scxml` ({datamodel:?} datamodel).\n    pub mod {module} {{\n        include!(concat!(env!(\"OUT_DIR\"), \"/scion/{module}.rs\"));\n    }}",
                case.group, case.name
            );
            }
        }
    }
    out.push_str("}\n\n");
    for case in cases {
        for kind in [&case.kind, &case.ecma] {
            if let Kind::Compiled {
                module,
                unchecked: None,
                ..
            } = kind
            {
                let _ = writeln!(
                out,
                "fn run_{module}(trace: &crate::Trace) -> ::core::result::Result<(), String> {{\n    crate::check(charts::{module}::Machine::new(), trace)\n}}"
            );
            }
        }
    }
    out.push_str("\n/// A random-walk checker for every compiled chart (see `crate::walk`).\npub static WALKS: &[(&str, crate::WalkFn)] = &[\n");
    for case in cases {
        if let Kind::Compiled { module, .. } = &case.kind {
            let _ = writeln!(
                out,
                "    (\"{}/{}\", crate::walk::<charts::{module}::MachineChart>),",
                case.group, case.name
            );
        }
    }
    out.push_str("];\n");
    for (table, doc, ecma) in [
        ("CASES", "Every chart of the folder, in group and name order, translated to the rust datamodel (or the null one when it has no expressions).", false),
        ("ECMA_CASES", "Every chart of the folder, in group and name order, with its own ECMAScript in the ecmascript datamodel.", true),
    ] {
        let _ = writeln!(out, "\n/// {doc}\npub static {table}: &[crate::TestCase] = &[");
        for case in cases {
            let trace_json = match &case.trace {
                Some(p) => format!("include_str!({:?})", p.display().to_string()),
                None => "\"\"".to_owned(),
            };
            let kind = if ecma { &case.ecma } else { &case.kind };
            let runner = match kind {
                Kind::Compiled {
                    unchecked: Some(why),
                    ..
                } => format!("crate::Runner::Skip({why:?})"),
                Kind::Compiled { module, .. } => format!("crate::Runner::Chart(run_{module})"),
                Kind::Broken(msg) => format!("crate::Runner::Broken({msg:?})"),
                Kind::Skip(msg) => format!("crate::Runner::Skip({msg:?})"),
            };
            let _ = writeln!(
                out,
                "    crate::TestCase {{\n        group: {:?},\n        name: {:?},\n        required: {},\n        trace_json: {trace_json},\n        run: {runner},\n    }},",
                case.group, case.name, case.required
            );
        }
        out.push_str("];\n");
    }
    out
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// `parallel+interrupt` → `parallel_interrupt`, `documentOrder0` → `documentorder0`.
fn snake(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_owned()
}
