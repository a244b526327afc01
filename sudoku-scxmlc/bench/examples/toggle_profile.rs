//! 100 000 toggle events through the generated machine, for profilers
//! (`valgrind --tool=callgrind target/release/examples/toggle_profile`).
fn main() {
    let m = scxml_bench::toggle::Toggle::new();
    m.start();
    for _ in 0..100_000 {
        m.submit_event(scxml_bench::toggle::events::TOGGLE, ());
    }
    println!("{}", m.is_active(scxml_bench::toggle::State::On));
}
