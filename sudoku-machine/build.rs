//! Compiles the game's state chart into `$OUT_DIR/sudoku.rs`.
fn main() {
    if let Err(e) = sudoku_scxmlc::compile("chart/sudoku.scxml") {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
