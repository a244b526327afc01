//! The JSON files the window keeps beside the save ([`crate::library`]'s `library.json`,
//! [`crate::records`]'s `records.json`): read whole, a damaged one set aside so that the next
//! write does not lose it for good, written atomically (a `.partial` file renamed over the
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
    /// The file is not what it should hold; it was moved to `aside` (`NAME.json.bad`,
    /// replacing an older one), or could not be moved (`Err`).
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

/// Reads `file` as JSON of `T`; a file that is not is renamed `*.json.bad`.
pub fn read<T: DeserializeOwned>(file: &Path) -> Read<T> {
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Unreadable(e),
    };
    match serde_json::from_slice(&bytes) {
        Ok(value) => Read::Loaded(value),
        Err(error) => {
            let bad = file.with_extension("json.bad");
            let aside = std::fs::rename(file, &bad).map(|()| bad);
            Read::Damaged { error, aside }
        }
    }
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
        assert!(fate.starts_with("it was moved to ") && fate.ends_with("kept.json.bad"));
        assert!(!file.exists() && dir.join("kept.json.bad").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
