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
    let config = slint_build::CompilerConfiguration::new().with_debug_info(true);
    slint_build::compile_with_config("ui/window.slint", config)
        .expect("ui/window.slint should compile");
}
