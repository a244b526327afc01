//! Files a chart names with `src` (`<script src>`, `<data src>`, `<invoke src>`): which local
//! file a `src` value means, and reading it.

use super::Validator;
use crate::diagnostic::Diagnostic;
use crate::parse::Attribute;
use std::path::PathBuf;

/// The local file a `src` value names, relative to the chart's folder unless absolute: a bare
/// path (`child.scxml`, `/abs/child.scxml`) or a `file:` URI (`file:child.scxml` as the W3C
/// tests write it, `file:///abs/child.scxml`, `file://localhost/abs/child.scxml`), with
/// `%XX` escapes decoded.
///
/// # Errors
/// A URI of another scheme (`http:`, …) or a `file:` URI naming another host: only local
/// files can be compiled in.
pub(crate) fn local_path(value: &str) -> Result<PathBuf, String> {
    let Some((scheme, rest)) = uri_scheme(value) else {
        return Ok(PathBuf::from(value));
    };
    if !scheme.eq_ignore_ascii_case("file") {
        return Err(format!(
            "`{value}` is not a local file: only local files can be compiled in, not `{scheme}:` URIs"
        ));
    }
    let path = match rest.strip_prefix("//") {
        Some(authority_and_path) => {
            let (host, path) = authority_and_path
                .find('/')
                .map_or((authority_and_path, ""), |i| authority_and_path.split_at(i));
            if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
                return Err(format!(
                    "`{value}` names a file on the host `{host}`: only local files can be compiled in"
                ));
            }
            path
        }
        None => rest,
    };
    Ok(PathBuf::from(percent_decode(path)))
}

/// `scheme` and the rest of `value` when it starts with a URI scheme (RFC 3986: a letter,
/// then letters, digits, `+`, `-`, `.`, then `:`). A single letter is a Windows drive
/// (`C:\charts`), not a scheme.
fn uri_scheme(value: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = value.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && scheme.len() > 1
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some((scheme, rest))
}

/// `%XX` escapes decoded (invalid ones kept as written).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Validator<'_> {
    /// Reads a file named by a `src` attribute, relative to the chart.
    pub(super) fn read_included(&mut self, src: &Attribute) -> Option<String> {
        let Some(base) = self.base_dir else {
            self.error(
                src.span,
                "`src` needs the chart's folder; compile the chart from a file",
            );
            return None;
        };
        let path = match local_path(&src.value) {
            Ok(p) => base.join(p),
            Err(why) => {
                self.diags.push(Diagnostic::error(src.span, why).with_help(
                    "charts and the files they include are compiled in at build time: name a file beside the chart (`child.scxml`, `file:child.scxml`) or by its absolute path (`file:///abs/child.scxml`)",
                ));
                return None;
            }
        };
        match std::fs::metadata(&path) {
            Ok(m) if !m.is_file() => {
                self.error(
                    src.span,
                    format!("`{}` is not a regular file", path.display()),
                );
                return None;
            }
            Ok(m) if m.len() > crate::parse::MAX_SIZE as u64 => {
                let max = crate::parse::MAX_SIZE;
                self.error(
                    src.span,
                    format!("`{}` is larger than {max} bytes", path.display()),
                );
                return None;
            }
            _ => {}
        }
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                self.included_files.push(path);
                Some(text)
            }
            Err(e) => {
                self.error(src.span, format!("cannot read `{}`: {e}", path.display()));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn src_values_name_local_files() {
        let ok = |v: &str| local_path(v).unwrap();
        assert_eq!(ok("child.scxml"), PathBuf::from("child.scxml"));
        assert_eq!(ok("file:test552.txt"), PathBuf::from("test552.txt"));
        assert_eq!(
            ok("file:///abs/child.scxml"),
            PathBuf::from("/abs/child.scxml")
        );
        assert_eq!(
            ok("file://localhost/abs/a%20b.scxml"),
            PathBuf::from("/abs/a b.scxml")
        );
        assert_eq!(
            ok("C:\\charts\\c.scxml"),
            PathBuf::from("C:\\charts\\c.scxml")
        );
        let err = local_path("http://example.com/c.scxml").unwrap_err();
        assert_eq!(
            err,
            "`http://example.com/c.scxml` is not a local file: only local files can be compiled in, not `http:` URIs"
        );
        assert!(local_path("file://server/share/c.scxml")
            .unwrap_err()
            .contains("host `server`"));
    }
}
