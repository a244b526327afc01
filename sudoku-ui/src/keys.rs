//! The keyboard: which key submits which event. This is input mapping, not game rules: the
//! chart decides what each event does in each state (a digit while paused does nothing,
//! Escape only cancels where there is something to cancel). The phase only chooses what
//! Enter, Escape and the search's keys mean, as a dialog's default buttons would.

use serde_json::{json, Value};
use slint::platform::Key;
use sudoku_machine::events;
use sudoku_machine::game::Phase;

/// The event a key press submits, if it means anything: `text` is Slint's key text (a
/// character, or one of [`Key`]'s private-use characters), `control` and `shift` the
/// modifiers, `phase` where the game is.
///
/// | key | event |
/// |---|---|
/// | 1–9 | `digit {digit}` |
/// | Delete, Backspace, 0 | `clear` |
/// | arrows | `move {direction}` |
/// | N | `notes.toggle` |
/// | P | `pause` |
/// | H | `hint` |
/// | Ctrl+Z | `undo` |
/// | Ctrl+Y, Ctrl+Shift+Z | `redo` |
/// | Enter | `confirm` in a question, `edit.check` while typing a puzzle, `edit.play` once checked |
/// | Escape | `cancel` in a question, while generating and in edit mode; `search.stop` while searching |
/// | Space, S, +, − (searching) | `search.pause`, `search.step`, `search.speed` faster, slower |
pub fn event_for(
    text: &str,
    control: bool,
    shift: bool,
    phase: Phase,
) -> Option<(&'static str, Value)> {
    let mut chars = text.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    if control {
        return match c.to_ascii_lowercase() {
            'z' if shift => Some((events::REDO, Value::Null)),
            'z' => Some((events::UNDO, Value::Null)),
            'y' => Some((events::REDO, Value::Null)),
            _ => None,
        };
    }
    let none = |event| Some((event, Value::Null));
    let (enter, escape) = (char::from(Key::Return), char::from(Key::Escape));
    match phase {
        Phase::Confirming | Phase::Generating if c == enter => return none(events::CONFIRM),
        Phase::Confirming | Phase::Generating | Phase::Editing | Phase::Reviewed if c == escape => {
            return none(events::CANCEL)
        }
        Phase::Editing if c == enter => return none(events::EDIT_CHECK),
        Phase::Reviewed if c == enter => return none(events::EDIT_PLAY),
        Phase::Searching => {
            return match c {
                ' ' | 'p' | 'P' => none(events::SEARCH_PAUSE),
                's' | 'S' => none(events::SEARCH_STEP),
                '+' | '=' => Some((events::SEARCH_SPEED, json!({ "faster": true }))),
                '-' | '_' => Some((events::SEARCH_SPEED, json!({ "slower": true }))),
                _ if c == escape => none(events::SEARCH_STOP),
                _ => None,
            }
        }
        _ => {}
    }
    let direction = |d: &str| Some((events::MOVE, json!({ "direction": d })));
    match c {
        '1'..='9' => Some((events::DIGIT, json!({ "digit": c as u8 - b'0' }))),
        '0' => none(events::CLEAR),
        _ if c == char::from(Key::Delete) || c == char::from(Key::Backspace) => none(events::CLEAR),
        _ if c == char::from(Key::UpArrow) => direction("up"),
        _ if c == char::from(Key::DownArrow) => direction("down"),
        _ if c == char::from(Key::LeftArrow) => direction("left"),
        _ if c == char::from(Key::RightArrow) => direction("right"),
        'n' | 'N' => none(events::NOTES_TOGGLE),
        'p' | 'P' => none(events::PAUSE),
        'h' | 'H' => none(events::HINT),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: Key) -> String {
        char::from(k).to_string()
    }

    fn ev(text: &str, phase: Phase) -> Option<&'static str> {
        event_for(text, false, false, phase).map(|(e, _)| e)
    }

    #[test]
    fn keys_map_to_events() {
        let p = Phase::Running;
        assert_eq!(
            event_for("5", false, false, p),
            Some((events::DIGIT, json!({"digit": 5})))
        );
        for k in [key(Key::Delete), key(Key::Backspace), "0".into()] {
            assert_eq!(ev(&k, p), Some(events::CLEAR));
        }
        assert_eq!(
            event_for(&key(Key::LeftArrow), false, false, p),
            Some((events::MOVE, json!({"direction": "left"})))
        );
        assert_eq!(event_for("z", true, false, p).unwrap().0, events::UNDO);
        assert_eq!(event_for("Z", true, true, p).unwrap().0, events::REDO);
        assert_eq!(event_for("y", true, false, p).unwrap().0, events::REDO);
        assert_eq!(ev("n", p), Some(events::NOTES_TOGGLE));
        assert_eq!(ev("x", p), None);
        assert_eq!(ev("12", p), None);
        assert_eq!(ev(&key(Key::Return), p), None, "left to the focused widget");
    }

    #[test]
    fn enter_escape_and_the_search_keys_follow_the_phase() {
        assert_eq!(
            ev(&key(Key::Return), Phase::Confirming),
            Some(events::CONFIRM)
        );
        assert_eq!(
            ev(&key(Key::Escape), Phase::Confirming),
            Some(events::CANCEL)
        );
        assert_eq!(
            ev(&key(Key::Escape), Phase::Generating),
            Some(events::CANCEL)
        );
        assert_eq!(
            ev(&key(Key::Return), Phase::Editing),
            Some(events::EDIT_CHECK)
        );
        assert_eq!(
            ev(&key(Key::Return), Phase::Reviewed),
            Some(events::EDIT_PLAY)
        );
        assert_eq!(ev(&key(Key::Escape), Phase::Editing), Some(events::CANCEL));
        assert_eq!(
            ev("7", Phase::Editing),
            Some(events::DIGIT),
            "typing givens"
        );
        assert_eq!(ev(" ", Phase::Searching), Some(events::SEARCH_PAUSE));
        assert_eq!(ev("s", Phase::Searching), Some(events::SEARCH_STEP));
        assert_eq!(ev("+", Phase::Searching), Some(events::SEARCH_SPEED));
        assert_eq!(
            ev(&key(Key::Escape), Phase::Searching),
            Some(events::SEARCH_STOP)
        );
        assert_eq!(ev("5", Phase::Searching), None);
    }
}
