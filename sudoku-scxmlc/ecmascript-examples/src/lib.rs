//! Charts in the `ecmascript` datamodel (SCXML 1.0, B.2), compiled at build time by
//! `sudoku-scxmlc` and run on its QuickJS-backed runtime (the runtime's `ecmascript`
//! feature):
//!
//! - [`calculator`]: Qt's calculator example, unchanged: it builds the expression as a
//!   string and computes it with `eval`;
//! - [`counter`]: one `cond` and one `<assign>` per event, the chart of the speed comparison
//!   with Qt's `qscxmlc` (`cargo run --release -p scxml-ecmascript-examples --bin
//!   ecmascript-bench`, which times Qt's Sudoku tap too, and Qt's own side of both when
//!   `QT_BENCH` names the program `qt-bench/build.sh` builds), and [`counter_rust`], the
//!   same chart in the rust datamodel;
//! - [`library`]: XML as a DOM document: a catalogue in `<data>`, changed by chart code, and
//!   a `<send>` whose `<content>` is XML;
//! - [`sudoku`]: Qt's original Sudoku example, unchanged: the chart with its helpers in
//!   `charts/sudoku.js`, read through `<script src>` at build time.

/// Qt's calculator (`charts/calculator.scxml`): events `DIGIT.0`…`DIGIT.9`, `POINT`,
/// `OPER.PLUS`, `OPER.MINUS`, `OPER.STAR`, `OPER.DIV`, `EQUALS`, `C`; the chart answers with
/// `updateDisplay` events whose data is `{"display": ...}`.
pub mod calculator {
    include!(concat!(env!("OUT_DIR"), "/calculator.rs"));
}

/// The ECMAScript counter (`charts/counter.scxml`).
pub mod counter {
    include!(concat!(env!("OUT_DIR"), "/counter.rs"));
}

/// The rust-datamodel counter (`charts/counter_rust.scxml`).
pub mod counter_rust {
    include!(concat!(env!("OUT_DIR"), "/counter_rust.rs"));
}

/// XML as a DOM (`charts/library.scxml`): `add {title, year}` appends a `<book>` to the
/// `catalogue` document and answers `titles {titles}`; `reset` assigns the catalogue a new
/// document from inline XML; `lend` sends itself `receipt`, whose data is an XML document,
/// and answers `due {due}` with the text of its `<due>`.
pub mod library {
    include!(concat!(env!("OUT_DIR"), "/library.rs"));
}

/// Qt's Sudoku (`charts/sudoku.scxml` with `charts/sudoku.js`): the GUI sends `setup
/// {initState}`, `start`, `stop`, `tap {x, y}` (row, column, 0-based) and `undo`; the chart
/// answers with `updateGUI {currentState, initState}`, both grids as 9 arrays of 9 numbers
/// (0 = empty). `initState` is set with `set_initial_values` before `start`.
pub mod sudoku {
    include!(concat!(env!("OUT_DIR"), "/sudoku.rs"));
}
