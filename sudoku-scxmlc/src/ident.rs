//! SCXML ids and event names → Rust identifiers.
//!
//! The mapping is predictable and documented:
//! - a state id becomes an `UpperCamelCase` enum variant: every run of characters that are not
//!   letters or digits (`.`, `-`, `:`, `_`, …) splits words, so `b1.2` → `B12`,
//!   `wait-for-reply` → `WaitForReply`, `état` → `État`;
//! - an event name becomes a `SCREAMING_SNAKE_CASE` constant: `updateGUI` → `UPDATE_GUI`,
//!   `done.state.game` → `DONE_STATE_GAME`;
//! - a name that would start with a digit gets a prefix (`S` for states, `E_` for events);
//!   a name that is a keyword (`Self`) gets a trailing `_`; a name with no letters or digits
//!   left becomes `State<N>` / `EVENT_<N>`;
//! - a state name that is one of `State`'s own items ([`STATE_ITEMS`]: `ALL`, `id`,
//!   `from_id`, which `a.l.l` or, with verbatim names, `id` would give) gets a trailing `_`
//!   too: as an enum variant it would hide the item, as a constant of the newtype `State` it
//!   would not compile;
//! - a state without an `id` becomes `Anonymous<N>`, `N` being its document-order index.
//!
//! These are the *pretty* names. Distinct ids always get distinct Rust names: where several
//! states (or events) would share a pretty name, the first in document order keeps it and the
//! others get `_2`, `_3`, … in document order, skipping names in use (`validate/names.rs`);
//! `rs:name` on a state chooses its name outright.

use heck::{ToShoutySnakeCase, ToUpperCamelCase};

/// The items of the generated `State` besides its variants: a state's Rust name must not be
/// one of them.
pub const STATE_ITEMS: &[&str] = &["ALL", "id", "from_id"];

/// `name` as a `State` variant: with a trailing `_` when it is one of [`STATE_ITEMS`].
pub fn avoid_state_items(name: String) -> String {
    if STATE_ITEMS.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// The enum variant for a state id.
pub fn state_variant(id: &str, index: usize, generated: bool) -> String {
    if generated {
        return format!("Anonymous{index}");
    }
    let words = split_words(id);
    let name = words.to_upper_camel_case();
    avoid_state_items(finish(name, "S", || format!("State{index}")))
}

/// The constant name for an event name.
pub fn event_const(name: &str, index: usize) -> String {
    let words = split_words(name);
    let name = words.to_shouty_snake_case();
    finish(name, "E_", || format!("EVENT_{index}"))
}

/// The variant of the generated `enum Event` for an event name (`updateGUI` → `UpdateGui`,
/// `notes.toggle` → `NotesToggle`).
pub fn event_variant(name: &str, index: usize) -> String {
    let words = split_words(name);
    finish(words.to_upper_camel_case(), "E", || format!("Event{index}"))
}

/// A Rust type name (`UpperCamelCase`) for a chart name such as `<scxml name="my chart">`.
pub fn type_name(name: &str) -> String {
    let words = split_words(name);
    finish(words.to_upper_camel_case(), "Chart", || "Chart".to_owned())
}

fn split_words(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect()
}

fn finish(name: String, digit_prefix: &str, empty: impl FnOnce() -> String) -> String {
    let name: String = name
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return empty();
    }
    let name = if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{digit_prefix}{name}")
    } else {
        name
    };
    if is_rust_ident(&name) {
        name
    } else {
        format!("{name}_")
    }
}

/// The words `syn` refuses as an identifier: the strict and reserved keywords of the Rust
/// reference (1.65), and `_`.
const KEYWORDS: &[&str] = &[
    "_", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "Self", "self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Whether `s` is exactly a Rust identifier that is not a keyword (what `syn` parses as an
/// `Ident`: Unicode XID start or `_`, then XID continue; raw identifiers are not). Checked
/// without a tokenizer: `proc-macro2`'s, with span locations on, keeps a copy of every string
/// it reads until the thread ends, and a chart has an id per state.
pub fn is_rust_ident(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first == '_' || unicode_ident::is_xid_start(first))
        && chars.all(unicode_ident::is_xid_continue)
        && !KEYWORDS.contains(&s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_ids_become_variants() {
        let cases = [
            ("game", "Game"),
            ("b1.2", "B12"),
            ("wait-for-reply", "WaitForReply"),
            ("s1_a", "S1A"),
            ("1st", "S1st"),
            ("Self", "Self_"),
            ("self", "Self_"),
            ("état", "État"),
            ("...", "State7"),
            ("a.l.l", "ALL_"),
            ("A-L-L", "ALL_"),
        ];
        for (id, want) in cases {
            assert_eq!(state_variant(id, 7, false), want, "{id}");
        }
        assert_eq!(state_variant("__state_3", 3, true), "Anonymous3");
    }

    #[test]
    fn event_names_become_constants() {
        let cases = [
            ("tap", "TAP"),
            ("updateGUI", "UPDATE_GUI"),
            ("done.state.game", "DONE_STATE_GAME"),
            ("reply.2xx", "REPLY_2XX"),
            ("2go", "E_2GO"),
        ];
        for (name, want) in cases {
            assert_eq!(event_const(name, 0), want, "{name}");
        }
    }
}
