//! Qt's SCXML example charts, compiled by `sudoku-scxmlc` from this crate's `build.rs`:
//!
//! - [`trafficlight`]: Qt's traffic light, unchanged (null datamodel, delayed `<send>`s), with
//!   a Slint window in [`window`] (`cargo run -p scxml-examples --bin trafficlight`);
//! - [`mediaplayer`]: Qt's media player, ported to the rust datamodel;
//! - [`ftpclient`]: Qt's simple FTP client, ported to the rust datamodel (ids with dots,
//!   prefix event descriptors, `eventexpr`);
//! - [`microwave`]: a small chart of our own that `sudoku-scxmlc/GUIDE.md` teaches the rust
//!   datamodel with.
//!
//! The charts are in `charts/`; each port opens with a comment saying what changed. Their
//! behaviour is pinned by the tests in `tests/`, and `sudoku-scxmlc/GUIDE.md` walks through
//! the generated API with them.

pub mod ftpclient;
pub mod mediaplayer;
pub mod microwave;
pub mod trafficlight;
pub mod window;

// Every Rust example of the guide runs as a doctest of this crate.
#[cfg(doctest)]
#[doc = include_str!("../../GUIDE.md")]
struct GuideDoctests;
