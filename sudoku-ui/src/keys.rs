//! The keyboard: which key submits which event. This is input mapping, not game rules: the
//! chart decides what each event does in each state (a digit while paused does nothing,
//! Escape only cancels where there is something to cancel).

use serde_json::{json, Value};
use slint::platform::Key;
use sudoku_machine::events;

/// The event a key press submits, if it means anything: `text` is Slint's key text (a
/// character, or one of [`Key`]'s private-use characters), `control` and `shift` the
/// modifiers. `dialog` is whether the machine is asking something (then Enter confirms and
/// Escape cancels; otherwise they are left to the focused widget).
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
/// | Enter, Escape (while asked) | `confirm`, `cancel` |
pub fn event_for(
    text: &str,
    control: bool,
    shift: bool,
    dialog: bool,
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
    let direction = |d: &str| Some((events::MOVE, json!({ "direction": d })));
    match c {
        '1'..='9' => Some((events::DIGIT, json!({ "digit": c as u8 - b'0' }))),
        '0' => Some((events::CLEAR, Value::Null)),
        _ if c == char::from(Key::Delete) || c == char::from(Key::Backspace) => {
            Some((events::CLEAR, Value::Null))
        }
        _ if c == char::from(Key::UpArrow) => direction("up"),
        _ if c == char::from(Key::DownArrow) => direction("down"),
        _ if c == char::from(Key::LeftArrow) => direction("left"),
        _ if c == char::from(Key::RightArrow) => direction("right"),
        _ if dialog && c == char::from(Key::Return) => Some((events::CONFIRM, Value::Null)),
        _ if dialog && c == char::from(Key::Escape) => Some((events::CANCEL, Value::Null)),
        'n' | 'N' => Some((events::NOTES_TOGGLE, Value::Null)),
        'p' | 'P' => Some((events::PAUSE, Value::Null)),
        'h' | 'H' => Some((events::HINT, Value::Null)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: Key) -> String {
        char::from(k).to_string()
    }

    #[test]
    fn keys_map_to_events() {
        assert_eq!(
            event_for("5", false, false, false),
            Some((events::DIGIT, json!({"digit": 5})))
        );
        for k in [key(Key::Delete), key(Key::Backspace), "0".into()] {
            assert_eq!(
                event_for(&k, false, false, false),
                Some((events::CLEAR, Value::Null))
            );
        }
        assert_eq!(
            event_for(&key(Key::LeftArrow), false, false, false),
            Some((events::MOVE, json!({"direction": "left"})))
        );
        assert_eq!(event_for("z", true, false, false).unwrap().0, events::UNDO);
        assert_eq!(event_for("Z", true, true, false).unwrap().0, events::REDO);
        assert_eq!(event_for("y", true, false, false).unwrap().0, events::REDO);
        assert_eq!(
            event_for("n", false, false, false).unwrap().0,
            events::NOTES_TOGGLE
        );
        assert_eq!(event_for("x", false, false, false), None);
        assert_eq!(event_for("12", false, false, false), None);
        assert_eq!(event_for(&key(Key::Return), false, false, false), None);
        assert_eq!(
            event_for(&key(Key::Return), false, false, true).unwrap().0,
            events::CONFIRM
        );
        assert_eq!(
            event_for(&key(Key::Escape), false, false, true).unwrap().0,
            events::CANCEL
        );
    }
}
