//! Compiles `ui/app.slint`, and the files it imports, into Rust (see `slint::include_modules!`).

fn main() {
    // Debug info records element names in the generated code; the headless tests need it to
    // find widgets through `ElementHandle`. It costs a few string tables, so it is always on
    // rather than keyed to an environment variable that would make tests and builds differ.
    // The live chart view is a component of its own crate, imported as `@chart-view`.
    let chart_view = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sudoku-scxmlc/chart-view/ui/chart-view.slint");
    let config = slint_build::CompilerConfiguration::new()
        .with_debug_info(true)
        .with_library_paths([("chart-view".to_owned(), chart_view)].into());
    slint_build::compile_with_config("ui/app.slint", config).expect("ui/app.slint should compile");
}
