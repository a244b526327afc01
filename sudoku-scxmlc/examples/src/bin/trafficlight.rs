//! Qt's traffic light in a Slint window: `cargo run -p scxml-examples --bin trafficlight`.

fn main() -> Result<(), slint::PlatformError> {
    scxml_examples::window::run()
}
