//! `sudoku-scxmlc` compiles W3C SCXML state charts into typed Rust state machines at build
//! time, the way Qt's `qscxmlc` turns a chart into a C++ class.
//!
//! The compiler is a pipeline of four stages, each with its own module and product:
//! `parse` (quick-xml → `Document`), `validate` (→ `Chart`, every error located at the chart),
//! `plan` (→ `Plan`: document order, descendant ranges, transition domains, names) and `emit`
//! (→ Rust source via `quote` and `prettyplease`). The generated machine runs on
//! [`runtime`], which implements the SCXML 1.0 algorithm (Appendix D) over static tables and
//! holds no XML or `syn` code: a crate that only runs machines depends on this crate with
//! `default-features = false`.
//!
//! # Use from a build script
//!
//! ```toml
//! [dependencies]
//! sudoku-scxmlc = { version = "0.1", default-features = false }   # the runtime only
//! [build-dependencies]
//! sudoku-scxmlc = "0.1"                                           # the compiler (default feature)
//! ```
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     if let Err(e) = sudoku_scxmlc::compile("chart/traffic.scxml") {
//!         eprintln!("{e}"); // CHART:LINE:COL: error: ..., with the chart line and a caret
//!         std::process::exit(1);
//!     }
//! }
//! ```
//!
//! (`sudoku_scxmlc::compile(..).unwrap()` works too; the panic message then carries the same
//! located diagnostics.) Build scripts run unoptimised by default: for charts with thousands
//! of states, `[profile.dev.build-override] opt-level = 3` makes the compiler about ten times
//! faster.
//!
//! Rust type errors in chart code (a `cond` that is not a `bool`, an `expr` of the wrong type)
//! are found by rustc in the generated file, not by this compiler; every generated function
//! and statement names the chart line it came from (`// light.scxml:4: <script>`).
//!
//! ```ignore
//! // src/lib.rs
//! mod chart {
//!     include!(concat!(env!("OUT_DIR"), "/traffic.rs"));
//! }
//! let light = chart::Traffic::new();
//! light.connect_to_state(chart::State::Red, |active| println!("red: {active}"));
//! light.start();
//! light.submit_event(chart::events::SMASH, ());
//! ```
//!
//! A chart error fails the build with `CHART:LINE:COL: message`, the chart line and a caret.
//!
//! # The rust datamodel
//!
//! With `<scxml datamodel="rust" xmlns:rs="urn:sudoku-scxmlc:rust">`:
//! - `<data id="grid" rs:type="Grid" expr="Grid::default()"/>` is a field `grid: Grid` of the
//!   generated `<Name>Data` struct. Without `rs:type` the field is a `serde_json::Value`.
//!   Field types implement `Default`, `serde::Serialize` and `serde::de::DeserializeOwned`.
//! - `cond`, `expr`, `location`, `array` and `<script>` bodies are Rust, parsed at build time.
//!   They are compiled inside the module that includes the generated file, so its imports and
//!   functions are in scope. Each data item the code mentions is bound by name: as `&T` in
//!   conditions and expressions, as `&mut T` in scripts. `_event` (`&Event`), `_name`,
//!   `_sessionid` and `In("state id")` are in scope too.
//! - `?` works in every piece of code: any `std::error::Error` becomes `error.execution`, and
//!   so does a panic in chart code; neither reaches the caller.
//! - `<assign location="x" expr="..."/>` stores into the field (`serde_json::to_value` for an
//!   untyped field); a location such as `grid.0[1][2]` is a Rust place expression rooted in a
//!   data id.
//!
//! # Names
//!
//! State ids become variants of `enum State` and event names constants of `mod events`, by
//! rules that are predictable and documented:
//! - a state id becomes an `UpperCamelCase` variant; every run of characters that are not
//!   letters or digits splits words: `playing` → `State::Playing`, `b1.2` → `State::B12`,
//!   `wait-for-reply` → `State::WaitForReply`, `état` → `State::État`;
//! - an event name becomes a `SCREAMING_SNAKE_CASE` constant: `updateGUI` →
//!   `events::UPDATE_GUI`, `done.state.game` → `events::DONE_STATE_GAME`;
//! - a name starting with a digit gets a prefix (`S` for states, `E_` for events), a keyword
//!   gets a trailing `_` (`self` → `State::Self_`), a state without an id becomes
//!   `State::Anonymous<N>` (`N` = its document-order index);
//! - distinct ids always get distinct names: where ids would share one (`foo.bar`, `foo-bar`,
//!   `foo_bar`), the first in document order keeps it and the others get `_2`, `_3`, …
//!   (`FooBar`, `FooBar_2`, `FooBar_3`); event constants likewise (`valid`, `-valid-` →
//!   `VALID`, `VALID_2`);
//! - `<state id="wait-for-reply" rs:name="Waiting">` names the variant outright;
//!   [`Config::verbatim_state_names`] keeps ids that are already Rust identifiers as they are.
//!
//! `State::id()` and `State::from_id()` map back and forth; the machine type is named after
//! `<scxml name>` in `UpperCamelCase` (or the file stem), its datamodel struct `<Name>Data`.
#![warn(missing_docs)]

pub mod runtime;

#[cfg(feature = "compiler")]
mod chart;
#[cfg(feature = "compiler")]
mod config;
#[cfg(feature = "compiler")]
pub mod diagnostic;
#[cfg(feature = "compiler")]
mod dot;
#[cfg(feature = "compiler")]
mod emit;
#[cfg(feature = "compiler")]
mod ident;
#[cfg(feature = "compiler")]
mod parse;
#[cfg(feature = "compiler")]
mod plan;
#[cfg(feature = "compiler")]
mod validate;

#[cfg(feature = "compiler")]
pub use config::{
    compile, dot, read_chart, Checked, Config, Error, Generated, Written, DEFAULT_STATE_ENUM_LIMIT,
    LARGE_OUTPUT,
};
