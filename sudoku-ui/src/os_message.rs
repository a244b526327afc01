//! The operating system's message for an I/O error as a player reads it.
//!
//! `std::io::Error`'s `Display` ends with Rust's code for the error ("No such file or
//! directory (os error 2)"); the window shows the words only, as a clause ("no such file or
//! directory").

use std::fmt;
use std::io;

/// Shows `error` without the trailing `" (os error N)"` that `io::Error` adds to an error
/// the operating system reported, its first word in lower case; any other error is shown as
/// it is.
pub struct OsMessage<'a>(pub &'a io::Error);

impl fmt::Display for OsMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        let words = match (self.0.raw_os_error(), text.rfind(" (os error ")) {
            (Some(_), Some(at)) if text.ends_with(')') => &text[..at],
            _ => return f.write_str(&text),
        };
        // The window puts the words after a colon or in brackets: "cannot read x: no such
        // file or directory" (a word in capitals, such as an acronym, is left as it is).
        let mut chars = words.chars();
        match (chars.next(), chars.next()) {
            (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => {
                write!(f, "{}{}", first.to_lowercase(), &words[first.len_utf8()..])
            }
            _ => f.write_str(words),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_the_os_code() {
        let missing = io::Error::from_raw_os_error(2);
        assert!(missing.to_string().ends_with("(os error 2)"));
        let shown = OsMessage(&missing).to_string();
        assert!(!shown.contains("os error"), "{shown}");
        assert!(shown.starts_with(|c: char| c.is_lowercase()), "{shown}");
    }

    #[test]
    fn keeps_other_errors_whole() {
        let custom = io::Error::other("disk full (os error 28)");
        assert_eq!(OsMessage(&custom).to_string(), "disk full (os error 28)");
    }
}
