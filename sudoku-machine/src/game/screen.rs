//! What the window was last sent, and what changed since: `updateGUI` carries a
//! [`ViewUpdate`] (the cells that changed and, when any of it changed, the panel) instead of
//! the whole [`View`], and Qt's two grids only with a full update. A tap on one cell then
//! sends that cell (and the cells whose marks it changed), not 81 cells and every text.
//!
//! The chart keeps a [`Screen`] (`<data id="screen">`); its `updateGUI` asks it for the
//! update from the view it just built ([`Screen::update`]). A window keeps a [`View`] and
//! applies each update to it ([`ViewUpdate::apply`]): the result is the view the machine
//! built, exactly (the tests of the game and of the window check this after every event).

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

use super::view::{CellView, Panel, View};
use crate::datamodel::Grid;

/// More changed cells than this and the update carries the whole view: a list of changes
/// would be as long as the board.
pub const FULL_ABOVE: usize = 40;

/// One changed cell of a [`ViewUpdate`]. Its JSON is the cell's with `at` added:
/// `{"at": 0, "value": 3, "editable": true}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellChange {
    /// The cell's index, row by row: `row * 9 + column` (`0..81`).
    pub at: u8,
    /// What it shows now.
    #[serde(flatten)]
    pub cell: CellView,
}

/// `updateGUI`'s `view`: what changed on screen since the last `updateGUI` or `view`.
///
/// A full update (`full`) replaces the screen: `cells` holds all 81 cells in order and
/// `panel` is there. Otherwise `cells` lists the cells that changed (in order, each with its
/// index) and `panel` is there only when something of the panel changed. JSON leaves out
/// `full` when false and `panel` when absent: a tap is
/// `{"cells": [{"at": 0, "value": 3, "editable": true}]}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewUpdate {
    /// Whether this update replaces the whole screen.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub full: bool,
    /// The cells that changed (all 81 in a full update).
    pub cells: Vec<CellChange>,
    /// The panel, when any of it changed (always in a full update).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub panel: Option<Box<Panel>>,
}

impl ViewUpdate {
    /// The whole of `view`, as a full update.
    pub fn full(view: &View) -> ViewUpdate {
        ViewUpdate {
            full: true,
            cells: changes(view, None),
            panel: Some(Box::new(view.panel.clone())),
        }
    }

    /// Applies this update to `view`, the screen as the last updates left it (a default
    /// [`View`] before the first). A full update replaces it; otherwise the listed cells and
    /// the panel, if any, are written over it. A change of a cell `view` does not have (an
    /// incremental update to a screen never given a full one) is ignored.
    pub fn apply(&self, view: &mut View) {
        if self.full {
            view.cells.clear();
            view.cells.resize(81, CellView::default());
        }
        for change in &self.cells {
            if let Some(cell) = view.cells.get_mut(usize::from(change.at)) {
                *cell = change.cell;
            }
        }
        if let Some(panel) = &self.panel {
            view.panel = (**panel).clone();
        }
    }

    /// Whether nothing changed (an update with no cells and no panel).
    pub fn is_empty(&self) -> bool {
        !self.full && self.cells.is_empty() && self.panel.is_none()
    }
}

/// The screen the chart last sent the window: the view it showed and the givens that came
/// with it. `<param>` expressions see the datamodel by shared reference, so it records the
/// view it is asked about through a `RefCell`.
///
/// It is not part of a snapshot (it serializes as `null`, and restores as nothing shown): a
/// machine restored from a save has shown nothing to the window that opens it, so its first
/// update is full. `forget` (the chart's `redraw` event) does the same for a window that
/// starts observing a machine that already ran.
#[derive(Debug, Default)]
pub struct Screen {
    shown: RefCell<Shown>,
}

/// What [`Screen`] remembers.
#[derive(Debug, Default)]
struct Shown {
    /// The last view sent, `None` before the first (or after `forget`).
    view: Option<View>,
    /// The givens sent with it.
    givens: Grid,
    /// Whether the last update was full.
    full: bool,
}

impl Screen {
    /// The update that takes the window from the last view sent to `view` (the givens are
    /// `givens`), and records `view` as sent. The update is full when nothing was sent yet,
    /// the givens or the phase changed, or more than [`FULL_ABOVE`] cells changed.
    pub fn update(&self, view: View, givens: &Grid) -> ViewUpdate {
        let mut shown = self.shown.borrow_mut();
        let update = match &shown.view {
            Some(old)
                if shown.givens == *givens
                    && old.phase == view.phase
                    && old.cells.len() == view.cells.len() =>
            {
                let cells = changes(&view, Some(old));
                if cells.len() > FULL_ABOVE {
                    ViewUpdate::full(&view)
                } else {
                    ViewUpdate {
                        full: false,
                        cells,
                        panel: (old.panel != view.panel).then(|| Box::new(view.panel.clone())),
                    }
                }
            }
            _ => ViewUpdate::full(&view),
        };
        shown.full = update.full;
        shown.givens = *givens;
        shown.view = Some(view);
        update
    }

    /// `grid` if the last update was full (Qt's `currentState` and `initState` go with a
    /// full update only; an incremental one carries the changed cells' digits).
    pub fn with_full(&self, grid: &Grid) -> Option<Box<Grid>> {
        self.shown.borrow().full.then(|| Box::new(*grid))
    }

    /// Forgets what was sent: the next update is full.
    pub fn forget(&mut self) {
        *self.shown.get_mut() = Shown::default();
    }
}

impl Clone for Screen {
    /// A copy remembers nothing sent: it has shown nothing to anybody.
    fn clone(&self) -> Screen {
        Screen::default()
    }
}

impl PartialEq for Screen {
    /// Screens are all alike: what a machine showed is not part of its state.
    fn eq(&self, _: &Screen) -> bool {
        true
    }
}

impl Serialize for Screen {
    /// `null`: what was shown is not saved.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl<'de> Deserialize<'de> for Screen {
    /// Any value: nothing shown.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Screen, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer)?;
        Ok(Screen::default())
    }
}

/// The cells of `view` that differ from `old` (all of them without `old`), with their
/// indices.
fn changes(view: &View, old: Option<&View>) -> Vec<CellChange> {
    let all = view.cells.iter().enumerate();
    match old {
        None => all
            .map(|(at, &cell)| CellChange { at: at as u8, cell })
            .collect(),
        Some(old) => all
            .zip(&old.cells)
            .filter(|((_, new), old)| new != old)
            .map(|((at, &cell), _)| CellChange { at: at as u8, cell })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Phase;

    fn board(f: impl Fn(usize) -> u8) -> View {
        View {
            cells: (0..81)
                .map(|i| CellView {
                    value: f(i),
                    ..CellView::default()
                })
                .collect(),
            panel: Panel {
                phase: Phase::Running,
                ..Panel::default()
            },
        }
    }

    #[test]
    fn the_first_update_is_full_and_the_next_carry_what_changed() {
        let screen = Screen::default();
        let givens = Grid::default();
        let first = screen.update(board(|_| 0), &givens);
        assert!(first.full && first.cells.len() == 81 && first.panel.is_some());
        assert_eq!(screen.with_full(&givens).as_deref(), Some(&givens));
        let mut window = View::default();
        first.apply(&mut window);
        assert_eq!(window, board(|_| 0));

        let next = board(|i| u8::from(i == 4) * 7);
        let update = screen.update(next.clone(), &givens);
        assert!(!update.full && update.panel.is_none());
        assert_eq!(
            update.cells,
            [CellChange {
                at: 4,
                cell: next.cells[4]
            }]
        );
        assert_eq!(screen.with_full(&givens), None);
        update.apply(&mut window);
        assert_eq!(window, next);

        let mut texts = next.clone();
        texts.panel.message = "Well done".into();
        let update = screen.update(texts.clone(), &givens);
        assert!(update.cells.is_empty() && update.panel.is_some());
        update.apply(&mut window);
        assert_eq!(window, texts);
        assert!(screen.update(texts.clone(), &givens).is_empty());
    }

    #[test]
    fn a_new_phase_new_givens_or_a_changed_board_is_sent_whole() {
        let screen = Screen::default();
        let givens = Grid::default();
        screen.update(board(|_| 0), &givens);
        let mut paused = board(|_| 0);
        paused.panel.phase = Phase::Paused;
        assert!(screen.update(paused, &givens).full, "the phase changed");
        screen.update(board(|_| 0), &givens);
        let mut other = givens;
        other.0[0][0] = 5;
        assert!(screen.update(board(|_| 0), &other).full, "new givens");
        assert!(screen.update(board(|_| 1), &other).full, "81 cells changed");
        let mut forgetful = Screen::default();
        forgetful.update(board(|_| 0), &givens);
        forgetful.forget();
        assert!(forgetful.update(board(|_| 0), &givens).full);
    }

    #[test]
    fn a_tap_s_json_names_the_cells_it_changed_and_nothing_at_its_default() {
        let mut cell = CellView {
            value: 3,
            editable: true,
            ..CellView::default()
        };
        let update = ViewUpdate {
            full: false,
            cells: vec![CellChange { at: 4, cell }],
            panel: None,
        };
        let json = serde_json::to_value(&update).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"cells": [{"at": 4, "value": 3, "editable": true}]})
        );
        assert_eq!(serde_json::from_value::<ViewUpdate>(json).unwrap(), update);
        cell.notes = 0b101;
        let back: CellChange =
            serde_json::from_value(serde_json::to_value(CellChange { at: 80, cell }).unwrap())
                .unwrap();
        assert_eq!((back.at, back.cell), (80, cell));
    }

    #[test]
    fn the_screen_is_not_saved() {
        let screen = Screen::default();
        screen.update(board(|_| 0), &Grid::default());
        assert_eq!(
            serde_json::to_value(&screen).unwrap(),
            serde_json::Value::Null
        );
        let back: Screen = serde_json::from_value(serde_json::json!({"x": 1})).unwrap();
        assert!(back.update(board(|_| 0), &Grid::default()).full);
    }
}
