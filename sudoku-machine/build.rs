//! Compiles the game's state chart into `$OUT_DIR/sudoku.rs`.
fn main() {
    sudoku_scxmlc::compile("chart/sudoku.scxml").unwrap();
}
