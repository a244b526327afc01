//! Arbitrary bytes through the whole compiler front end: parse → validate → plan → emit.
//! Every input must come back as `Ok` or as a located chart error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match sudoku_scxmlc::Config::new().generate(Path::new("fuzz.scxml"), text) {
        Ok(_) => {}
        Err(e) => {
            let shown = e.to_string();
            assert!(shown.starts_with("fuzz.scxml:"), "unlocated error: {shown}");
        }
    }
});
