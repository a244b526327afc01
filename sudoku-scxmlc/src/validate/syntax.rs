//! The syntax of the chart's tokens: event descriptors and names (SCXML 1.0, 3.12.1), state
//! ids (XML `NCName`), `In(id)` predicates of the null datamodel and the system variables.

/// `In(id)`, `In('id')` or `In("id")` → `id`.
pub(super) fn parse_in_predicate(s: &str) -> Option<&str> {
    let inner = s
        .trim()
        .strip_prefix("In")?
        .trim_start()
        .strip_prefix('(')?
        .strip_suffix(')')?
        .trim();
    let id = inner
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| inner.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
        .unwrap_or(inner);
    (!id.is_empty() && !id.chars().any(char::is_whitespace)).then_some(id)
}

/// Whether a token is a valid event descriptor (SCXML 1.0, 3.12.1): `*`, or dot-separated
/// non-empty names without `*`, optionally ending in `.*` or `.`.
pub fn is_event_descriptor(token: &str) -> bool {
    if token == "*" || token == ".*" {
        return true;
    }
    let body = token
        .strip_suffix(".*")
        .or_else(|| token.strip_suffix('.'))
        .unwrap_or(token);
    is_event_name(body)
}

/// Whether a string is a valid event name (SCXML 1.0, 3.12.1): dot-separated non-empty tokens
/// of letters, digits, `_`, `-` and `:` (`error.execution`, `reply.2xx`, `done.invoke.a-b`).
pub fn is_event_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ':'))
        })
}

/// Whether `s` is an XML `NCName`, the lexical space of an SCXML `id` (XML Schema `ID`): a
/// letter or `_` first, then letters, digits, `.`, `-`, `_`, `·` and combining marks.
pub fn is_xml_id(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_alphabetic() || first == '_')
        && chars.all(|c| {
            c.is_alphanumeric()
                || matches!(c, '.' | '-' | '_' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
        })
}

/// System variables of SCXML 1.0, section 5.10.
pub fn is_system_variable(name: &str) -> bool {
    matches!(name, "_event" | "_name" | "_sessionid" | "_ioprocessors")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_descriptor_syntax() {
        for ok in ["*", "a", "a.b", "a.*", "a.", "error.execution", "reply.2xx"] {
            assert!(is_event_descriptor(ok), "{ok}");
        }
        for bad in ["a..b", ".a", "a*", "*.a", "a.**", "", "o!", "a b", "x/y"] {
            assert!(!is_event_descriptor(bad), "{bad}");
        }
    }

    #[test]
    fn ids_are_xml_names() {
        for ok in [
            "a",
            "_",
            "__valid",
            "foo.bar",
            "foo-bar",
            "näl",
            "q\u{ff}\u{300}i",
            "S1",
        ] {
            assert!(is_xml_id(ok), "{ok}");
        }
        for bad in ["", "1", "1st", "o]erand1", "anyp\\ace", "a:b", "-a", ".a"] {
            assert!(!is_xml_id(bad), "{bad}");
        }
    }

    #[test]
    fn in_predicate_forms() {
        assert_eq!(parse_in_predicate("In(s1)"), Some("s1"));
        assert_eq!(parse_in_predicate(" In( 's1' ) "), Some("s1"));
        assert_eq!(parse_in_predicate("In(\"a.b\")"), Some("a.b"));
        assert_eq!(parse_in_predicate("x > 1"), None);
    }
}
