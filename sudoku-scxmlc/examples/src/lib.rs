//! Qt's SCXML example charts, compiled by `sudoku-scxmlc` from this crate's `build.rs`:
//!
//! - [`trafficlight`]: Qt's traffic light, unchanged (null datamodel, delayed `<send>`s), with
//!   a Slint window in [`window`] (`cargo run -p scxml-examples --bin trafficlight`);
//! - [`mediaplayer`]: Qt's media player, ported to the rust datamodel;
//! - [`ftpclient`]: Qt's simple FTP client, ported to the rust datamodel (ids with dots,
//!   prefix event descriptors, `eventexpr`);
//! - [`microwave`]: a small chart of our own that `sudoku-scxmlc/GUIDE.md` teaches the rust
//!   datamodel with;
//! - [`invoke`]: Qt's invoke example, unchanged (a state that invokes an inline child chart),
//!   and [`invoke_routing`], a chart of our own that sends events between a session and the
//!   child it invokes.
//!
//! The charts are in `charts/`; each port opens with a comment saying what changed. The one
//! design decision: this crate uses `sudoku-scxmlc` exactly as any user crate would (a build
//! script, `include!`, the generated API and nothing else), so its tests in `tests/` pin the
//! charts' behaviour as users see it, and `sudoku-scxmlc/GUIDE.md` is built on them.

pub mod ftpclient;
pub mod invoke;
pub mod invoke_routing;
pub mod mediaplayer;
pub mod microwave;
pub mod trafficlight;
pub mod window;

// Every Rust example of the guide runs as a doctest of this crate.
#[cfg(doctest)]
#[doc = include_str!("../../GUIDE.md")]
struct GuideDoctests;
