//! Compiles the example charts into `$OUT_DIR/<chart stem>.rs` and the traffic light's window
//! (`ui/window.slint`) into Rust.

fn main() {
    for chart in [
        "charts/trafficlight.scxml",
        "charts/mediaplayer.scxml",
        "charts/simpleftp.scxml",
        "charts/microwave.scxml",
        "charts/invoke.scxml",
        "charts/invoke_routing.scxml",
    ] {
        if let Err(e) = sudoku_scxmlc::compile(chart) {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
    // Debug info records element names in the generated code; the headless test needs it to
    // find the buttons and lamps through `ElementHandle`.
    // The live chart view is a component of its own crate, imported as `@chart-view`.
    let chart_view =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../chart-view/ui/chart-view.slint");
    let config = slint_build::CompilerConfiguration::new()
        .with_debug_info(true)
        .with_library_paths([("chart-view".to_owned(), chart_view)].into());
    slint_build::compile_with_config("ui/window.slint", config)
        .expect("ui/window.slint should compile");
}
