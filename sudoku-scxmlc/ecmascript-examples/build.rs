//! Compiles the example charts into `$OUT_DIR/<chart stem>.rs`.

fn main() {
    for chart in [
        "charts/calculator.scxml",
        "charts/counter.scxml",
        "charts/counter_rust.scxml",
        "charts/library.scxml",
        "charts/sudoku.scxml",
    ] {
        if let Err(e) = sudoku_scxmlc::compile(chart) {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
