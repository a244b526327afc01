//! Compiles the benchmark charts: the toggle, deep toggle, targetless and counter charts of `charts/`, and uSCXML's
//! `Transitions.N` and `LCCA.N` from `../shared/testdata/charts/uscxml-benchmarks` for the
//! sizes in `SCXML_BENCH_SIZES` (default `4,16,64`; the 256 charts add about a minute of rustc and 4 GB).
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    for chart in ["toggle", "deep_toggle", "targetless", "counter"] {
        sudoku_scxmlc::compile(format!("charts/{chart}.scxml")).unwrap();
    }
    println!("cargo:rerun-if-env-changed=SCXML_BENCH_SIZES");
    let sizes = std::env::var("SCXML_BENCH_SIZES").unwrap_or_else(|_| "4,16,64".into());
    let dir = manifest.join("../../../shared/testdata/charts/uscxml-benchmarks");
    let mut modules = String::new();
    let mut runners = String::new();
    for size in sizes.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        for kind in ["Transitions", "LCCA"] {
            let chart = dir.join(format!("{kind}.{size}.scxml"));
            if !chart.exists() {
                println!(
                    "cargo:warning=benchmark chart {} not found; skipped",
                    chart.display()
                );
                continue;
            }
            let module = format!("{}_{size}", kind.to_lowercase());
            sudoku_scxmlc::Config::new()
                .type_name("Benchmark")
                // The charts are made of transitions that shadow each other on purpose.
                .print_warnings(false)
                .file_name(format!("{module}.rs"))
                .compile(&chart)
                .unwrap();
            modules.push_str(&format!(
                "/// `{kind}.{size}.scxml`.\npub mod {module} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\"));\n}}\n"
            ));
            runners.push_str(&format!(
                "    (\"{kind}.{size}\", run::<{module}::BenchmarkChart>),\n"
            ));
        }
    }
    modules.push_str(&format!(
        "/// Each compiled uSCXML chart with its runner.\npub const USCXML: &[(&str, Runner)] = &[\n{runners}];\n"
    ));
    std::fs::write(out.join("uscxml.rs"), modules).unwrap();
}
