//! The JSON files the window keeps beside the save ([`crate::library`]'s `library.json`,
//! [`crate::records`]'s `records.json`): read whole, a damaged one set aside so that the next
//! write does not lose it for good (the last [`KEPT_ASIDE`] damaged copies are kept), written atomically (a `.partial` file renamed over the
//! old one) so that a crash mid-write leaves the old file.

use std::io;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::os_message::OsMessage;

/// What reading a kept file found.
#[derive(Debug)]
pub enum Read<T> {
    /// No file yet: a first start.
    Missing,
    /// The file's contents.
    Loaded(T),
    /// The file could not be read (permissions, a folder in its place, ...).
    Unreadable(io::Error),
    /// The file is not what it should hold; it was moved to `aside` (`NAME.json.bad-N`, `N`
    /// one more than the last set aside), or could not be moved (`Err`).
    Damaged {
        /// What the JSON reader said.
        error: serde_json::Error,
        /// Where the damaged file went.
        aside: Result<PathBuf, io::Error>,
    },
}

/// What became of a damaged file ([`Read::Damaged`]'s `aside`), for the window: "it was
/// moved to F" or "it could not be moved aside (reason)".
pub fn fate(aside: &Result<PathBuf, io::Error>) -> String {
    match aside {
        Ok(bad) => format!("it was moved to {}", bad.display()),
        Err(error) => format!("it could not be moved aside ({})", OsMessage(error)),
    }
}

/// Damaged copies of one file kept: setting aside another deletes the oldest.
pub const KEPT_ASIDE: usize = 3;

/// Reads `file` as JSON of `T`; a file that is not is renamed `NAME.bad-N` (see
/// [`Read::Damaged`]).
pub fn read<T: DeserializeOwned>(file: &Path) -> Read<T> {
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Unreadable(e),
    };
    match serde_json::from_slice(&bytes) {
        Ok(value) => Read::Loaded(value),
        Err(error) => Read::Damaged {
            error,
            aside: set_aside(file),
        },
    }
}

/// Renames `file` to `NAME.bad-N`, `N` one more than the newest copy set aside, and deletes
/// all but the newest [`KEPT_ASIDE`] copies.
fn set_aside(file: &Path) -> io::Result<PathBuf> {
    let name = file
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    let prefix = format!("{name}.bad-");
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut copies: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let n = entry
                .file_name()
                .to_str()?
                .strip_prefix(&prefix)?
                .parse()
                .ok()?;
            Some((n, entry.path()))
        })
        .collect();
    copies.sort();
    let n = copies.last().map_or(1, |(n, _)| n + 1);
    let bad = file.with_file_name(format!("{prefix}{n}"));
    std::fs::rename(file, &bad)?;
    let excess = (copies.len() + 1).saturating_sub(KEPT_ASIDE);
    for (_, old) in &copies[..excess.min(copies.len())] {
        let _ = std::fs::remove_file(old);
    }
    Ok(bad)
}

/// Writes `value` to `file` as pretty JSON, creating its folder: first to `*.json.partial`,
/// then renamed over `file`.
///
/// # Errors
/// The I/O error of the folder, the write or the rename.
pub fn write<T: Serialize>(file: &Path, value: &T) -> io::Result<()> {
    let text = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
    let partial = file.with_extension("json.partial");
    file.parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&partial, text))
        .and_then(|()| std::fs::rename(&partial, file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_round_trips_and_a_damaged_one_is_set_aside() {
        let dir = std::env::temp_dir().join(format!("sudoku-store-{}", std::process::id()));
        let file = dir.join("kept.json");
        assert!(matches!(read::<Vec<u32>>(&file), Read::Missing));
        write(&file, &vec![1u32, 2]).unwrap();
        assert!(matches!(read::<Vec<u32>>(&file), Read::Loaded(v) if v == [1, 2]));
        std::fs::write(&file, "[1, oops").unwrap();
        let Read::Damaged { aside, .. } = read::<Vec<u32>>(&file) else {
            panic!("not seen as damaged")
        };
        let fate = fate(&aside);
        assert!(fate.starts_with("it was moved to ") && fate.ends_with("kept.json.bad-1"));
        assert!(!file.exists() && dir.join("kept.json.bad-1").exists());
        // Each damage keeps its copy, up to the last three.
        for n in 2..=5 {
            std::fs::write(&file, format!("damage {n}")).unwrap();
            assert!(matches!(read::<Vec<u32>>(&file), Read::Damaged { .. }));
        }
        let mut left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            ["kept.json.bad-3", "kept.json.bad-4", "kept.json.bad-5"]
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("kept.json.bad-5")).unwrap(),
            "damage 5"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
