//! Tells the build scripts of the crates that depend on this one (as the runtime of their
//! generated machines) which datamodels it was built with: `links = "sudoku_scxmlc"` in
//! Cargo.toml makes the metadata below reach them as `DEP_SUDOKU_SCXMLC_ECMASCRIPT`, which
//! the generator reads to refuse, with one located error, an ECMAScript chart whose runtime
//! lacks the `ecmascript` feature (the generated code would not compile).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let ecmascript = std::env::var_os("CARGO_FEATURE_ECMASCRIPT").is_some();
    println!("cargo:ecmascript={}", u8::from(ecmascript));
}
