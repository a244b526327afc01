//! Rewrites every W3C test found (`txml/testNNN.txml`) into a chart for the `rust` (or
//! `null`) datamodel, compiles it with `sudoku-scxmlc` into `$OUT_DIR/w3c/`, and writes
//! `$OUT_DIR/w3c_cases.rs`: one module per compiled chart, one monomorphic `run_*` function
//! per chart and the table `CASES` that `tests/w3c.rs` walks.
//!
//! The tests folder is `$SCXML_W3C_DIR` when set (a relative path is taken from the workspace
//! root), else this crate's `testdata/` (the suite, checked into the repository). Whatever is in it is used: a missing
//! folder gives an empty table; `manifest.xml`, when there, supplies each test's spec section
//! and the `manual` flag. A test whose chart cannot be rewritten or compiled becomes a case
//! that fails with the located message, never a build failure.

#[path = "build/rewrite.rs"]
mod rewrite;
#[path = "build/rewrite_ecma.rs"]
mod rewrite_ecma;

use quick_xml::events::Event;
use quick_xml::Reader;
use scxml_conformance::{write_if_changed, SuiteDir};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What the manifest says of one test.
#[derive(Default, Clone)]
struct Manifest {
    specnum: String,
    mandatory: bool,
    manual: bool,
}

/// The datamodel a run rewrites the tests into.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavour {
    /// `build/rewrite.rs`: the rust datamodel (null tests stay null).
    Rust,
    /// `build/rewrite_ecma.rs`: the ecmascript datamodel (null tests stay null).
    Ecma,
}

impl Flavour {
    /// The folder of `$OUT_DIR` its charts are compiled from.
    fn dir(self) -> &'static str {
        match self {
            Flavour::Rust => "w3c",
            Flavour::Ecma => "w3c-ecma",
        }
    }

    /// The module of the generated table holding its charts.
    fn module(self) -> &'static str {
        match self {
            Flavour::Rust => "charts",
            Flavour::Ecma => "ecma_charts",
        }
    }

    /// The rewritten text of a test document, and whether it is a null-datamodel chart.
    fn rewrite(self, text: &str) -> Result<(String, bool), String> {
        match self {
            Flavour::Rust => {
                rewrite::rewrite(text).map(|r| (r.text, r.datamodel == rewrite::Datamodel::Null))
            }
            Flavour::Ecma => rewrite_ecma::rewrite(text).map(|t| {
                let null = t.contains("datamodel=\"null\"");
                (t, null)
            }),
        }
    }
}

/// How a test is run.
enum Kind {
    /// Compiled into `$OUT_DIR/w3c/<module>.rs`.
    Compiled { module: String, null: bool },
    /// The chart could not be rewritten or compiled: the message.
    Broken(String),
    /// Compilation failed, which is what the test asks for (a rejected document).
    Rejected(String),
    /// Out of scope: why.
    Skip(String),
}

struct Case {
    name: String,
    manifest: Manifest,
    kind: Kind,
}

/// Tests that pass when the document is rejected, with what the rejection must say: the
/// processor "may reject" it at load time (manifest: manual; a build-time compiler rejects it
/// at build time). test301's `<script src>` names a file that does not exist.
const REJECT_TESTS: &[(&str, &str)] = &[("test301", "cannot read")];

/// Manual tests whose verdict is still `pass` or `fail` reached by the chart: the manual flag
/// is there because a processor may instead reject the document (an illegal expression in
/// `<assign>`); sudoku-scxmlc compiles it and raises `error.execution`, which the chart checks.
const AUTOMATIC_MANUAL_TESTS: &[&str] = &["test313", "test314"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/rewrite.rs");
    println!("cargo:rerun-if-changed=build/rewrite_ecma.rs");
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env("OUT_DIR"));
    let workspace_root = manifest_dir.join("../..");
    let suite = SuiteDir::locate(
        "SCXML_W3C_DIR",
        &workspace_root,
        &manifest_dir.join("testdata"),
    );
    let dir = suite.path.clone();
    let txml = if dir.join("txml").is_dir() {
        dir.join("txml")
    } else {
        dir.clone()
    };
    println!("cargo:rerun-if-changed={}", txml.display());
    let found = txml.is_dir();
    let manifest = read_manifest(&dir.join("manifest.xml"));
    let mut tables = Vec::new();
    for flavour in [Flavour::Rust, Flavour::Ecma] {
        let charts_dir = out_dir.join(flavour.dir());
        std::fs::create_dir_all(&charts_dir).expect("create a charts folder in $OUT_DIR");
        let cases = if found {
            collect(&txml, &charts_dir, &manifest, flavour)
        } else {
            Vec::new()
        };
        tables.push((flavour, cases));
    }
    write_if_changed(
        &out_dir.join("w3c_cases.rs"),
        &emit_table(&suite, found, &tables),
    );
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run through Cargo"))
}

/// `testNNN` → what `manifest.xml` says of it (empty when there is no manifest).
fn read_manifest(path: &Path) -> BTreeMap<String, Manifest> {
    let mut out = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(path) else {
        return out;
    };
    println!("cargo:rerun-if-changed={}", path.display());
    let mut reader = Reader::from_str(&text);
    let mut specnum = String::new();
    loop {
        match reader.read_event() {
            Ok(Event::Eof) | Err(_) => break,
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let attr = |k: &str| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.as_ref() == k.as_bytes())
                        .map(|a| String::from_utf8_lossy(&a.value).into_owned())
                };
                match e.name().as_ref() {
                    b"assert" => specnum = attr("specnum").unwrap_or_default(),
                    b"test" => {
                        if let Some(id) = attr("id") {
                            out.insert(
                                format!("test{id}"),
                                Manifest {
                                    specnum: specnum.clone(),
                                    mandatory: attr("conformance").as_deref() == Some("mandatory"),
                                    manual: attr("manual").as_deref() == Some("true"),
                                },
                            );
                        }
                    }
                    _ => {}
                }
            }
            Ok(_) => {}
        }
    }
    out
}

/// Whether `stem` names a test (`test144`, `test403a`), not a sub-document (`test226sub1`).
fn is_test(stem: &str) -> bool {
    stem.strip_prefix("test")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()) && !rest.contains("sub"))
}

fn collect(
    dir: &Path,
    charts_dir: &Path,
    manifest: &BTreeMap<String, Manifest>,
    flavour: Flavour,
) -> Vec<Case> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort_by_key(|p| {
        let stem = stem(p);
        let digits: String = stem
            .chars()
            .skip(4)
            .take_while(char::is_ascii_digit)
            .collect();
        (digits.parse::<u32>().unwrap_or(u32::MAX), stem)
    });
    // Sub-documents (`testNNNsub1.txml`, named by `src="file:testNNNsub1.scxml"`) are
    // rewritten, and data files (`testNNN.txt`) copied, into the folder the charts are
    // compiled from, so that `src` attributes resolve there.
    // They are also what `<invoke srcexpr>` can select at run time, by the URI the tests use.
    let mut invocable = Vec::new();
    // Nothing of an earlier run may stand in for a file the folder no longer has.
    for old in std::fs::read_dir(charts_dir)
        .into_iter()
        .flatten()
        .flatten()
    {
        let p = old.path();
        if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("scxml" | "txt")
        ) {
            let _ = std::fs::remove_file(&p);
        }
    }
    for path in &entries {
        let name = stem(path);
        match path.extension().and_then(|e| e.to_str()) {
            Some("txml") if !is_test(&name) => {
                println!("cargo:rerun-if-changed={}", path.display());
                match std::fs::read_to_string(path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| flavour.rewrite(&text))
                {
                    Ok((text, _)) => {
                        let sub = charts_dir.join(format!("{name}.scxml"));
                        write_if_changed(&sub, &text);
                        invocable.push((format!("file:{name}.scxml"), sub));
                    }
                    Err(e) => println!(
                        "cargo:warning=sub-document {} was not rewritten: {e}",
                        path.display()
                    ),
                }
            }
            Some("txt") => {
                if let Ok(text) = std::fs::read_to_string(path) {
                    std::fs::write(charts_dir.join(format!("{name}.txt")), text)
                        .expect("write a data file into $OUT_DIR/w3c");
                }
            }
            _ => {}
        }
    }
    let mut cases = Vec::new();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("txml") || !is_test(&stem(&path)) {
            continue;
        }
        let name = stem(&path);
        let m = manifest.get(&name).cloned().unwrap_or_default();
        let kind = classify(&name, &path, &m, charts_dir, &invocable, flavour);
        cases.push(Case {
            name,
            manifest: m,
            kind,
        });
    }
    cases
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

fn classify(
    name: &str,
    path: &Path,
    manifest: &Manifest,
    charts_dir: &Path,
    invocable: &[(String, PathBuf)],
    flavour: Flavour,
) -> Kind {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return Kind::Broken(format!("{}: {e}", path.display())),
    };
    if let Some(reason) = out_of_scope(&text, flavour) {
        return Kind::Skip(reason);
    }
    let reject = REJECT_TESTS
        .iter()
        .find(|(t, _)| *t == name)
        .map(|(_, why)| *why);
    if manifest.manual && reject.is_none() && !AUTOMATIC_MANUAL_TESTS.contains(&name) {
        return Kind::Skip("manual test (the manifest marks it manual=\"true\")".to_owned());
    }
    let (rewritten, null) = match flavour.rewrite(&text) {
        Ok(r) => r,
        Err(e) => {
            return Kind::Broken(format!("{}: the conf: rewrite failed: {e}", path.display()))
        }
    };
    let module = name.to_owned();
    // The rewritten chart is compiled from `$OUT_DIR/w3c/`, beside its rewritten
    // sub-documents and data files.
    let chart_path = charts_dir.join(format!("{module}.scxml"));
    write_if_changed(&chart_path, &rewritten);
    let mut config = sudoku_scxmlc::Config::new();
    for (key, sub) in invocable {
        config.invocable(key, sub);
    }
    let generated = config
        .type_name("Machine")
        .verbatim_state_names(true)
        .runtime_path("::sudoku_scxmlc::runtime")
        .generate(&chart_path, &rewritten);
    match generated {
        Ok(g) if reject.is_some() => Kind::Broken(format!(
            "the document should have been rejected, but it compiled ({} bytes of Rust)",
            g.code.len()
        )),
        Ok(g) => {
            write_if_changed(&charts_dir.join(format!("{module}.rs")), &g.code);
            Kind::Compiled { module, null }
        }
        Err(e) => match reject {
            Some(why) if e.to_string().contains(why) => Kind::Rejected(first_line(&e.to_string())),
            Some(why) => Kind::Broken(format!(
                "rejected, but not because of what the test checks (`{why}`): {e}"
            )),
            None => Kind::Broken(e.to_string()),
        },
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_owned()
}

/// Why a test cannot apply to the flavour's datamodel (and `null`), if it cannot.
fn out_of_scope(text: &str, flavour: Flavour) -> Option<String> {
    if flavour == Flavour::Rust && text.contains("datamodel=\"ecmascript\"") {
        return Some("ECMAScript-only (written for datamodel=\"ecmascript\")".to_owned());
    }
    if text.contains("datamodel=\"xpath\"") {
        return Some("XPath-only (written for datamodel=\"xpath\")".to_owned());
    }
    if text.contains("basichttp") || text.contains("conf:basicHTTPAccessURITarget") {
        return Some("needs the Basic HTTP event I/O processor".to_owned());
    }
    None
}

fn emit_table(suite: &SuiteDir, found: bool, tables: &[(Flavour, Vec<Case>)]) -> String {
    let dir = &suite.path;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// @generated by scxml-w3c-tests/build.rs from {:?}.\n",
        dir.display().to_string()
    );
    let mut found_suite = suite.clone();
    found_suite.found = found;
    out.push_str(&found_suite.constants("W3C", "W3C tests"));
    out.push('\n');
    for (flavour, cases) in tables {
        let (module, folder) = (flavour.module(), flavour.dir());
        let (language, table) = match flavour {
            Flavour::Rust => ("rust", "CASES"),
            Flavour::Ecma => ("ecmascript", "ECMA_CASES"),
        };
        let _ = writeln!(
            out,
            "/// One module per chart compiled for the {language} run.\n#[doc(hidden)]\npub mod {module} {{"
        );
        for case in cases {
            if let Kind::Compiled { module: m, null } = &case.kind {
                let dm = if *null { "null" } else { language };
                let _ = writeln!(
                    out,
                    "    /// `{}.txml` ({dm} datamodel).\n    pub mod {m} {{\n        #[allow(unused_imports)]\n        use crate::conf;\n        include!(concat!(env!(\"OUT_DIR\"), \"/{folder}/{m}.rs\"));\n    }}",
                    case.name
                );
            }
        }
        let _ = writeln!(
            out,
            "}}\n\n/// Every test of the folder rewritten for the {language} datamodel, in number order.\npub static {table}: &[crate::TestCase] = &["
        );
        for case in cases {
            let run = match &case.kind {
                Kind::Compiled { module: m, .. } => {
                    format!("crate::Runner::Chart(crate::run::<{module}::{m}::MachineChart>)")
                }
                Kind::Broken(msg) => format!("crate::Runner::Broken({msg:?})"),
                Kind::Rejected(msg) => format!("crate::Runner::Rejected({msg:?})"),
                Kind::Skip(msg) => format!("crate::Runner::Skip({msg:?})"),
            };
            let _ = writeln!(
                out,
                "    crate::TestCase {{ name: {:?}, specnum: {:?}, mandatory: {}, run: {run} }},",
                case.name, case.manifest.specnum, case.manifest.mandatory
            );
        }
        out.push_str("];\n\n");
    }
    out
}
