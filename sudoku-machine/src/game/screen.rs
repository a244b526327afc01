//! What the window was last sent, and what changed since: `updateGUI` carries a
//! [`ViewUpdate`] (the cells that changed and, when any of it changed, the panel) instead of
//! the whole [`View`], and Qt's two grids only with a full update. A tap on one cell then
//! sends that cell (and the cells whose marks it changed), not 81 cells and every text.
//!
//! The chart keeps a [`Screen`] (`<data id="screen">`); its `updateGUI` asks it for the
//! update from its data items ([`Screen::show`], which builds only the cells whose inputs
//! changed; [`Screen::update`] takes a whole view). A window keeps a [`View`] and
//! applies each update to it ([`ViewUpdate::apply`]): the result is the view the machine
//! built, exactly (the tests of the game and of the window check this after every event).

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

use super::board::Board;
use super::draft::Draft;
use super::info::PuzzleInfo;
use super::panel;
use super::play::Play;
use super::search::Search;
use super::settings::{Pending, Settings};
use super::view::{self, CellView, Panel, Showing, View, Where};
use crate::datamodel::Grid;

/// More changed cells than this and the update carries the whole view: a list of changes
/// would be as long as the board.
pub const FULL_ABOVE: usize = 40;

/// One changed cell of a [`ViewUpdate`].
///
/// Its JSON is a short array of numbers, `[at, value, flags, notes, struck, hint, flash]`,
/// without its trailing zeros after `value` (the digit, `0` for none): a tapped cell of a
/// running game is `[0, 3, 2]`, an empty one `[0, 0, 2]`. `flags` holds the cell's
/// flags as bits: `1` given, `2` editable, `4` error, `8` selected, `16` related, `32` same,
/// `64` guessed, `128` answered; `notes` and `struck` are the pencil marks' masks (digit
/// `d` = bit `d - 1`),
/// `hint` and `flash` as in [`CellView`]. Every number fits JavaScript's 32-bit bit
/// operations (`flags & 2`). The object form of earlier versions,
/// `{"at": 0, "value": 3, "editable": true}` (a [`CellView`]'s JSON with `at`), is still
/// read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellChange {
    /// The cell's index, row by row: `row * 9 + column` (`0..81`).
    pub at: u8,
    /// What it shows now.
    pub cell: CellView,
}

/// The bits of a [`CellChange`]'s `flags`, in order: given, editable, error, selected,
/// related, same, guessed, answered.
const FLAGS: usize = 8;

impl CellChange {
    /// Its JSON's numbers, all seven.
    fn numbers(&self) -> [u16; 7] {
        let c = &self.cell;
        let flags = [
            c.given, c.editable, c.error, c.selected, c.related, c.same, c.guessed, c.answered,
        ]
        .iter()
        .enumerate()
        .fold(0u16, |bits, (i, &on)| bits | u16::from(on) << i);
        [
            u16::from(self.at),
            u16::from(c.value),
            flags,
            c.notes,
            c.struck,
            u16::from(c.hint),
            u16::from(c.flash),
        ]
    }

    /// The change its JSON's numbers describe (missing ones are `0`); `None` when one is out
    /// of range (`at` past 80, a digit past 9, an unknown flag, a mask past 9 bits).
    fn of_numbers(n: [u64; 7]) -> Option<CellChange> {
        let small = |v: u64, max: u64| (v <= max).then_some(v as u8);
        let mask = |v: u64| (v < 1 << 9).then_some(v as u16);
        let flags = small(n[2], (1 << FLAGS) - 1)?;
        let flag = |i: u32| flags & (1 << i) != 0;
        Some(CellChange {
            at: small(n[0], 80)?,
            cell: CellView {
                value: small(n[1], 9)?,
                given: flag(0),
                editable: flag(1),
                error: flag(2),
                selected: flag(3),
                related: flag(4),
                same: flag(5),
                guessed: flag(6),
                answered: flag(7),
                notes: mask(n[3])?,
                struck: mask(n[4])?,
                hint: small(n[5], 2)?,
                flash: small(n[6], 5)?,
            },
        })
    }
}

impl Serialize for CellChange {
    /// `[at, value, flags, ...]` without trailing zeros after `value`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let numbers = self.numbers();
        let len = 2 + numbers[2..]
            .iter()
            .rposition(|&n| n != 0)
            .map_or(0, |i| i + 1);
        let mut seq = serializer.serialize_seq(Some(len))?;
        for n in &numbers[..len] {
            seq.serialize_element(n)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for CellChange {
    /// The array form (see [`CellChange`]), or the object form of earlier versions.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<CellChange, D::Error> {
        struct Numbers;
        impl<'de> serde::de::Visitor<'de> for Numbers {
            type Value = CellChange;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a changed cell: [at, value, flags, notes, struck, hint, flash]")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<CellChange, A::Error> {
                let mut n = [0u64; 7];
                let mut len = 0;
                while let Some(v) = seq.next_element::<u64>()? {
                    if len == n.len() {
                        return Err(serde::de::Error::invalid_length(len + 1, &self));
                    }
                    n[len] = v;
                    len += 1;
                }
                if len < 2 {
                    return Err(serde::de::Error::invalid_length(len, &self));
                }
                CellChange::of_numbers(n).ok_or_else(|| {
                    serde::de::Error::invalid_value(serde::de::Unexpected::Seq, &self)
                })
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<CellChange, A::Error> {
                /// The object form: a cell's JSON with `at`.
                #[derive(Deserialize)]
                struct Object {
                    at: u8,
                    #[serde(flatten)]
                    cell: CellView,
                }
                let o = Object::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(CellChange {
                    at: o.at,
                    cell: o.cell,
                })
            }
        }
        deserializer.deserialize_any(Numbers)
    }
}

/// `updateGUI`'s `view`: what changed on screen since the last `updateGUI` or `view`.
///
/// A full update (`full`) replaces the screen: `cells` holds all 81 cells in order and
/// `panel` is there. Otherwise `cells` lists the cells that changed (in order, each with its
/// index) and `panel` is there only when something of the panel changed. JSON leaves out
/// `full` when false and `panel` when absent: a tap is `{"cells": [[0, 3, 2]]}` (cell 0
/// shows a 3 and is editable, see [`CellChange`]).
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
    /// The game's board the cells of `view` were built from, when they were built from one
    /// by [`Screen::show`] (the view's cells are then exactly `board.cells()`).
    board: Option<Board>,
}

impl Screen {
    /// The update that takes the window from the last view sent to `view` (the givens are
    /// `givens`), and records `view` as sent. The update is full when nothing was sent yet,
    /// the givens or the phase changed, or more than [`FULL_ABOVE`] cells changed.
    pub fn update(&self, view: View, givens: &Grid) -> ViewUpdate {
        let mut shown = self.shown.borrow_mut();
        shown.board = None;
        record(&mut shown, view, givens)
    }

    /// The update that takes the window from the last view sent to the view of the chart's
    /// data items (`is_in` is the chart's `In()`), as [`Screen::update`] of [`view()`] would
    /// give it (the same update, and the same view recorded), but cheaper when a game's board
    /// is on screen: only the cells whose inputs changed since the last update are built
    /// ([`Board::refresh`] brings the board sent last up to date and names them: a tap builds
    /// its cell and the peers that hold a digit whose doubling it changed), and compared
    /// with what the window shows, instead of building all 81.
    ///
    /// [`view()`]: super::view()
    #[allow(
        clippy::too_many_arguments,
        reason = "one argument per data item of the chart, as `view()` takes them"
    )]
    pub fn show(
        &self,
        givens: &Grid,
        puzzle: &PuzzleInfo,
        play: &Play,
        settings: &Settings,
        pending: &Pending,
        draft: &Draft,
        search: &Search,
        is_in: impl Fn(&str) -> bool,
    ) -> ViewUpdate {
        let at = Where::of(play, pending, is_in);
        let panel = || panel::panel(givens, puzzle, play, settings, pending, draft, search, at);
        let mut shown = self.shown.borrow_mut();
        let Showing::Game { running, revealed } = at.board else {
            shown.board = None;
            let cells = view::cells(at.board, givens, puzzle, play, settings, draft, search);
            let panel = panel();
            return record(&mut shown, View { cells, panel }, givens);
        };
        let shown = &mut *shown;
        // The board sent last brought up to date in place (the cells that can differ), or
        // built anew.
        let dirty = match (&shown.view, &mut shown.board) {
            (Some(old), Some(board)) if shown.givens == *givens && old.phase == at.phase => {
                board.refresh(givens, puzzle, play, settings, running, revealed)
            }
            (_, board) => {
                *board = Some(Board::of(
                    givens,
                    puzzle,
                    play,
                    settings,
                    running,
                    revealed,
                    board.as_ref(),
                ));
                None
            }
        };
        let Some(board) = &shown.board else {
            unreachable!("refreshed or built above")
        };
        let (Some(dirty), Some(old)) = (dirty, shown.view.as_mut()) else {
            let cells = board.cells();
            let panel = panel();
            return record(shown, View { cells, panel }, givens);
        };
        let mut cells = Vec::with_capacity(dirty.count_ones() as usize);
        let mut rest = dirty;
        while rest != 0 {
            let at = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let cell = board.cell(at / 9, at % 9);
            if old.cells[at] != cell {
                old.cells[at] = cell;
                cells.push(CellChange { at: at as u8, cell });
            }
        }
        debug_assert_eq!(
            old.cells,
            board.cells(),
            "the cells left out did not change"
        );
        let panel_changed = panel::panel_into(
            &mut old.panel,
            givens,
            puzzle,
            play,
            settings,
            pending,
            draft,
            search,
            at,
        );
        debug_assert_eq!(old.panel, panel(), "the panel written over the last one");
        let update = if cells.len() > FULL_ABOVE {
            ViewUpdate::full(old)
        } else {
            ViewUpdate {
                full: false,
                cells,
                panel: panel_changed.then(|| Box::new(old.panel.clone())),
            }
        };
        shown.full = update.full;
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

/// The update from what `shown` holds to `view` (the givens are `givens`), and `view`
/// recorded as sent (see [`Screen::update`]).
fn record(shown: &mut Shown, view: View, givens: &Grid) -> ViewUpdate {
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
        assert_eq!(json, serde_json::json!({"cells": [[4, 3, 2]]}));
        let object = serde_json::json!({"cells": [{"at": 4, "value": 3, "editable": true}]});
        assert_eq!(
            serde_json::from_value::<ViewUpdate>(object).unwrap(),
            update
        );
        assert_eq!(serde_json::from_value::<ViewUpdate>(json).unwrap(), update);
        cell.notes = 0b101;
        cell.hint = 1;
        let json = serde_json::to_value(CellChange { at: 80, cell }).unwrap();
        assert_eq!(json, serde_json::json!([80, 3, 2, 5, 0, 1]));
        let back: CellChange = serde_json::from_value(json).unwrap();
        assert_eq!((back.at, back.cell), (80, cell));
        let every = CellView {
            notes: 0x1ff,
            struck: 1,
            value: 9,
            given: true,
            editable: true,
            error: true,
            selected: true,
            related: true,
            same: true,
            hint: 2,
            flash: 5,
            guessed: true,
            answered: true,
        };
        let json = serde_json::to_value(CellChange { at: 7, cell: every }).unwrap();
        assert_eq!(json, serde_json::json!([7, 9, 255, 511, 1, 2, 5]));
        assert_eq!(
            serde_json::from_value::<CellChange>(json).unwrap().cell,
            every
        );
        for bad in [
            serde_json::json!([81, 0]),
            serde_json::json!([0, 10]),
            serde_json::json!([0]),
            serde_json::json!([0, 0, 256]),
            serde_json::json!([0, 0, 0, 0, 0, 0, 0, 0]),
        ] {
            assert!(
                serde_json::from_value::<CellChange>(bad.clone()).is_err(),
                "{bad}"
            );
        }
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
