//! The game in progress, kept across runs at a cost per move that does not grow with the game.
//!
//! A save is two files in the player's data folder: `game.json`, a full [`Snapshot`] of the
//! machine (configuration, datamodel with the grid, notes, undo and redo lists, time, hints
//! and options, pending timers) tagged with a generation number, and `journal-<generation>.jsonl`,
//! the events the window submitted since that snapshot, one line each ([`journal`]). A move
//! appends one line with one `write` call, so it costs the same at move 10 and move 10,000,
//! and a process killed at any moment (kill -9) loses no move whose line was written: a line
//! cut short by the kill is dropped when read. Restoring replays the journal on the snapshot;
//! the machine is deterministic, so it reaches the same configuration and datamodel.
//!
//! Compaction writes a new snapshot (generation + 1, atomically: written beside, then
//! renamed) once the journal has grown as large as the last snapshot (at least
//! [`MIN_COMPACT_BYTES`]), so its cost spread over the moves that caused it is constant
//! too. The old journal is deleted after the rename; a journal of another generation is
//! never replayed.
//!
//! A save that cannot be used is set aside (renamed with a `.bad-<n>` suffix) rather than
//! deleted, and at most [`KEPT_BAD`] such sets are kept. A journal damaged in the middle is
//! replayed up to the damage, and a copy of it is set aside.
//!
//! One window at a time owns the folder: [`Autosave::open`] takes an exclusive lock on
//! `lock` in it, held until the [`Autosave`] is dropped, so a second copy of the game cannot
//! delete the journal the first one is writing.

pub mod journal;

use std::fs::{self, File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sudoku_scxmlc::runtime::Snapshot;

pub use journal::Entry;

/// The snapshot file's name.
pub const SNAPSHOT: &str = "game.json";
/// The save of earlier versions (a snapshot of another chart), set aside when found.
pub const LEGACY: &str = "autosave.json";
/// A journal is compacted once it is as large as the snapshot, and at least this large.
pub const MIN_COMPACT_BYTES: u64 = 64 * 1024;
/// Set-aside saves kept.
pub const KEPT_BAD: usize = 3;

/// What `game.json` holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Format version of this file.
    pub version: u32,
    /// The generation: which journal belongs to this snapshot.
    pub generation: u64,
    /// The machine.
    pub machine: Snapshot,
}

/// The current format version.
const VERSION: u32 = 2;

/// Why a save could not be used or written.
#[derive(Debug, thiserror::Error)]
pub enum AutosaveError {
    /// A file could not be read or written.
    #[error("{}: {}", path.display(), crate::os_message::OsMessage(source))]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// Another copy of the game holds the save folder.
    #[error("{} is in use by another Sudoku window", path.display())]
    Busy {
        /// The save folder.
        path: PathBuf,
    },
    /// A file is not a save of this game (damaged, or written by another version).
    #[error("{}: not a saved game: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl AutosaveError {
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> AutosaveError + '_ {
        move |source| AutosaveError::Io {
            path: path.to_owned(),
            source,
        }
    }

    /// An [`AutosaveError::Invalid`] about `path`.
    pub fn invalid(path: &Path, message: impl Into<String>) -> Self {
        AutosaveError::Invalid {
            path: path.to_owned(),
            message: message.into(),
        }
    }
}

/// A save as read back: the snapshot and the events to replay on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Restored {
    /// The machine at the last compaction.
    pub snapshot: Snapshot,
    /// The events since, in order (up to the damage, if any).
    pub journal: Vec<Entry>,
    /// Where the journal is damaged: the file, the 1-based line and what is wrong. The
    /// entries after it are lost; [`Autosave::keep_damaged_journal`] sets a copy aside.
    pub damage: Option<(PathBuf, usize, String)>,
}

/// The save folder in use: appends to the current journal, compacts, sets aside.
#[derive(Debug)]
pub struct Autosave {
    dir: PathBuf,
    /// Held open for its lock.
    _lock: Option<File>,
    generation: u64,
    journal: Option<File>,
    journal_bytes: u64,
    snapshot_bytes: u64,
    /// A write failed, so the journal may end in a torn line: nothing more is appended to
    /// it, and the next compaction starts a clean one.
    torn: bool,
}

/// The default save folder: the player's data folder (`~/.local/share/sudoku` on Linux);
/// `None` when the platform has no home folder.
pub fn default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "sudoku").map(|d| d.data_dir().to_owned())
}

fn journal_name(generation: u64) -> String {
    format!("journal-{generation}.jsonl")
}

impl Autosave {
    /// The save folder `dir` (created when needed), ready to write generation 0.
    fn new(dir: &Path) -> Self {
        Autosave {
            dir: dir.to_owned(),
            _lock: None,
            generation: 0,
            journal: None,
            journal_bytes: 0,
            snapshot_bytes: 0,
            torn: false,
        }
    }

    /// Opens the save folder `dir` (created if needed), takes its lock, and reads the save in
    /// it, if any. Nothing else is written: the caller restores the machine, then calls
    /// [`Autosave::compact`] with its snapshot, which starts a fresh journal.
    ///
    /// # Errors
    /// [`AutosaveError::Busy`] when another window holds the folder (then no `Autosave` is
    /// returned: this window must not write there), [`AutosaveError::Io`] when the folder
    /// cannot be created or locked. Otherwise the store is returned with the result of
    /// reading the save: a problem there leaves the store usable, and the caller may
    /// [`Autosave::set_aside`] the save and start a new game.
    #[allow(
        clippy::type_complexity,
        reason = "the store, and apart from it the outcome of reading what it holds"
    )]
    pub fn open(
        dir: &Path,
    ) -> Result<(Autosave, Result<Option<Restored>, AutosaveError>), AutosaveError> {
        let mut save = Autosave::new(dir);
        save.lock()?;
        let result = save.read();
        Ok((save, result))
    }

    fn lock(&mut self) -> Result<(), AutosaveError> {
        fs::create_dir_all(&self.dir).map_err(AutosaveError::io(&self.dir))?;
        let path = self.path("lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(AutosaveError::io(&path))?;
        match file.try_lock() {
            Ok(()) => {
                self._lock = Some(file);
                Ok(())
            }
            Err(fs::TryLockError::WouldBlock) => Err(AutosaveError::Busy {
                path: self.dir.clone(),
            }),
            Err(fs::TryLockError::Error(source)) => Err(AutosaveError::Io { path, source }),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn read(&mut self) -> Result<Option<Restored>, AutosaveError> {
        let path = self.path(SNAPSHOT);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let legacy = self.path(LEGACY);
                if legacy.exists() {
                    return Err(AutosaveError::invalid(
                        &legacy,
                        "it was saved by an earlier version of the game, whose games this \
                         version cannot continue",
                    ));
                }
                return Ok(None);
            }
            Err(source) => return Err(AutosaveError::Io { path, source }),
        };
        let saved: SavedGame = serde_json::from_slice(&bytes)
            .map_err(|e| AutosaveError::invalid(&path, e.to_string()))?;
        if saved.version != VERSION {
            return Err(AutosaveError::invalid(
                &path,
                format!(
                    "format version {} (this game writes {VERSION})",
                    saved.version
                ),
            ));
        }
        if saved.generation == u64::MAX {
            return Err(AutosaveError::invalid(
                &path,
                "the generation is out of range",
            ));
        }
        self.generation = saved.generation;
        self.snapshot_bytes = bytes.len() as u64;
        let journal_path = self.path(&journal_name(saved.generation));
        let (journal, damage) = match fs::read(&journal_path) {
            Ok(bytes) => {
                // A journal of moves is text; a byte that is not is damage like any other.
                let text = String::from_utf8_lossy(&bytes);
                let parsed = journal::parse(&text);
                let damage = parsed
                    .damage
                    .map(|(line, reason)| (journal_path.clone(), line, reason));
                (parsed.entries, damage)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Vec::new(), None),
            Err(source) => {
                return Err(AutosaveError::Io {
                    path: journal_path,
                    source,
                })
            }
        };
        Ok(Some(Restored {
            snapshot: saved.machine,
            journal,
            damage,
        }))
    }

    /// Sets a copy of the damaged journal aside (as a set of its own), before the next
    /// compaction deletes it. Returns where the copy went.
    ///
    /// # Errors
    /// When the copy cannot be written.
    pub fn keep_damaged_journal(&mut self) -> Result<PathBuf, AutosaveError> {
        let name = journal_name(self.generation);
        let from = self.path(&name);
        let n = self.bad_sets().last().map_or(1, |(n, _)| n + 1);
        let to = self.path(&format!("{name}.bad-{n}"));
        fs::copy(&from, &to).map_err(AutosaveError::io(&from))?;
        self.forget_old_bad_sets();
        Ok(to)
    }

    /// Appends an event submitted at machine time `now`.
    ///
    /// # Errors
    /// When the journal cannot be written (the move stays in the game, but is not saved).
    pub fn record(&mut self, now: Duration, name: &str, data: &Value) -> Result<(), AutosaveError> {
        self.append(&Entry::event(now, name, data.clone()))
    }

    /// Appends that the machine's clock reached `now`.
    ///
    /// # Errors
    /// When the journal cannot be written.
    pub fn record_time(&mut self, now: Duration) -> Result<(), AutosaveError> {
        self.append(&Entry::time(now))
    }

    fn append(&mut self, entry: &Entry) -> Result<(), AutosaveError> {
        if self.torn {
            // The compaction that follows the event writes it in the snapshot.
            return Ok(());
        }
        let result = self.append_line(entry);
        if result.is_err() {
            self.torn = true;
            self.journal = None;
        }
        result
    }

    fn append_line(&mut self, entry: &Entry) -> Result<(), AutosaveError> {
        let path = self.path(&journal_name(self.generation));
        if self.journal.is_none() {
            fs::create_dir_all(&self.dir).map_err(AutosaveError::io(&self.dir))?;
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(AutosaveError::io(&path))?;
            self.journal = Some(file);
        }
        let line = entry.line();
        let file = self.journal.as_mut().expect("opened above");
        // One write call per line: the kernel has the whole line or a prefix of it.
        file.write_all(line.as_bytes())
            .map_err(AutosaveError::io(&path))?;
        self.journal_bytes += line.len() as u64;
        Ok(())
    }

    /// Whether the journal has grown enough that [`Autosave::compact`] should run.
    pub fn wants_compaction(&self) -> bool {
        self.torn || self.journal_bytes >= self.snapshot_bytes.max(MIN_COMPACT_BYTES)
    }

    /// Bytes appended to the current journal.
    pub fn journal_bytes(&self) -> u64 {
        self.journal_bytes
    }

    /// Writes `snapshot` as the next generation and starts its empty journal; the previous
    /// journal is deleted. Written beside and renamed, so a crash leaves the old snapshot
    /// and journal whole.
    ///
    /// # Errors
    /// When the folder or file cannot be written; the old save is then still in place.
    pub fn compact(&mut self, snapshot: &Snapshot) -> Result<(), AutosaveError> {
        let next = self.generation.saturating_add(1);
        let saved = SavedGame {
            version: VERSION,
            generation: next,
            machine: snapshot.clone(),
        };
        let text = serde_json::to_vec(&saved).expect("a snapshot always serializes");
        fs::create_dir_all(&self.dir).map_err(AutosaveError::io(&self.dir))?;
        let path = self.path(SNAPSHOT);
        let partial = self.path("game.json.partial");
        fs::write(&partial, &text).map_err(AutosaveError::io(&partial))?;
        fs::rename(&partial, &path).map_err(AutosaveError::io(&path))?;
        self.journal = None;
        self.generation = next;
        self.snapshot_bytes = text.len() as u64;
        self.journal_bytes = 0;
        self.torn = false;
        // Journals of other generations are never replayed; remove them (the old one, and
        // any left by a crash between a rename and this).
        if let Ok(entries) = fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.starts_with("journal-")
                    && name.ends_with(".jsonl")
                    && name != journal_name(next)
                {
                    let _ = fs::remove_file(entry.path());
                }
            }
        }
        Ok(())
    }

    /// Moves the save out of the way so that nothing overwrites what the player might want
    /// back: `game.json` and every journal (or an earlier version's `autosave.json`) get a
    /// `.bad-<n>` suffix, `n` one more than the last set aside; only the last [`KEPT_BAD`]
    /// sets are kept. Returns the snapshot's new path (or the journal's, when only that
    /// existed).
    ///
    /// # Errors
    /// When a file cannot be moved (a read-only folder); it stays where it is.
    pub fn set_aside(&mut self) -> Result<Option<PathBuf>, AutosaveError> {
        let bad = self.bad_sets();
        let n = bad.last().map_or(1, |(n, _)| n + 1);
        let mut moved = None;
        // The snapshot, an earlier version's save, and every journal: a journal of a
        // generation the damaged snapshot did not name may still hold the player's moves.
        let mut names = vec![SNAPSHOT.to_owned(), LEGACY.to_owned()];
        if let Ok(entries) = fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with("journal-") && name.ends_with(".jsonl") {
                    names.push(name);
                }
            }
        }
        for name in names {
            let from = self.path(&name);
            if !from.exists() {
                continue;
            }
            let to = self.path(&format!("{name}.bad-{n}"));
            fs::rename(&from, &to).map_err(AutosaveError::io(&from))?;
            if moved.is_none() || name == SNAPSHOT {
                moved = Some(to);
            }
        }
        self.journal = None;
        self.journal_bytes = 0;
        self.forget_old_bad_sets();
        Ok(moved)
    }

    /// Keeps the newest [`KEPT_BAD`] sets of set-aside files.
    fn forget_old_bad_sets(&self) {
        let bad = self.bad_sets();
        if bad.len() > KEPT_BAD {
            for (_, paths) in &bad[..bad.len() - KEPT_BAD] {
                for p in paths {
                    let _ = fs::remove_file(p);
                }
            }
        }
    }

    /// The set-aside files, grouped by their number, oldest first.
    fn bad_sets(&self) -> Vec<(u64, Vec<PathBuf>)> {
        let mut sets: std::collections::BTreeMap<u64, Vec<PathBuf>> = Default::default();
        if let Ok(entries) = fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Some((_, n)) = name.rsplit_once(".bad-") {
                    if let Ok(n) = n.parse::<u64>() {
                        sets.entry(n).or_default().push(entry.path());
                    }
                }
            }
        }
        sets.into_iter().collect()
    }

    /// The save folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sudoku-autosave-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn snapshot(note: &str) -> Snapshot {
        serde_json::from_value(json!({
            "chart": note, "configuration": [], "history": {}, "data": {}, "now": {"secs": 0, "nanos": 0},
            "pending": [], "queued": [], "running": true, "next_send_id": 1
        }))
        .unwrap()
    }

    #[test]
    fn snapshot_and_journal_round_trip_and_compaction_starts_a_new_journal() {
        let dir = temp("round-trip");
        let (mut save, found) = Autosave::open(&dir).unwrap();
        assert!(matches!(found, Ok(None)));
        save.compact(&snapshot("a")).unwrap();
        save.record(Duration::from_millis(10), "digit", &json!({"digit": 3}))
            .unwrap();
        save.record_time(Duration::from_secs(5)).unwrap();
        drop(save); // the window closes (or the process dies)
        let (mut save, found) = Autosave::open(&dir).unwrap();
        let restored = found.unwrap().unwrap();
        assert_eq!(restored.snapshot.chart, "a");
        assert_eq!(restored.journal.len(), 2);
        assert_eq!(restored.journal[0].event.as_deref(), Some("digit"));
        save.compact(&snapshot("b")).unwrap();
        drop(save);
        let (_, found) = Autosave::open(&dir).unwrap();
        let restored = found.unwrap().unwrap();
        assert_eq!(
            (restored.snapshot.chart.as_str(), restored.journal.len()),
            ("b", 0)
        );
        let journals: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("journal-"))
            .collect();
        assert!(journals.len() <= 1, "the old journal is gone");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_journal_of_another_generation_is_not_replayed() {
        let dir = temp("generation");
        let (mut save, _) = Autosave::open(&dir).unwrap();
        save.compact(&snapshot("a")).unwrap();
        fs::write(
            dir.join("journal-7.jsonl"),
            Entry::time(Duration::ZERO).line(),
        )
        .unwrap();
        drop(save);
        let (_, found) = Autosave::open(&dir).unwrap();
        assert!(found.unwrap().unwrap().journal.is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_saves_are_set_aside_and_only_a_few_kept() {
        let dir = temp("damaged");
        fs::create_dir_all(&dir).unwrap();
        for round in 1..=5u64 {
            fs::write(dir.join(SNAPSHOT), "{ not json").unwrap();
            let (mut save, found) = Autosave::open(&dir).unwrap();
            assert!(matches!(found, Err(AutosaveError::Invalid { .. })));
            let moved = save.set_aside().unwrap().unwrap();
            assert_eq!(moved, dir.join(format!("game.json.bad-{round}")));
        }
        let left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        let bad: Vec<_> = left.iter().filter(|n| n.contains(".bad-")).collect();
        assert_eq!(bad.len(), KEPT_BAD, "{left:?}");
        assert!(left.contains(&"game.json.bad-5".to_owned()));
        // An earlier version's save is reported and set aside too.
        fs::write(dir.join(LEGACY), "{}").unwrap();
        let (mut save, found) = Autosave::open(&dir).unwrap();
        assert!(found.unwrap_err().to_string().contains("earlier version"));
        assert_eq!(
            save.set_aside().unwrap(),
            Some(dir.join("autosave.json.bad-6"))
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_window_at_a_time_owns_the_folder() {
        let dir = temp("lock");
        let (first, _) = Autosave::open(&dir).unwrap();
        assert!(matches!(
            Autosave::open(&dir),
            Err(AutosaveError::Busy { .. })
        ));
        drop(first);
        assert!(
            Autosave::open(&dir).is_ok(),
            "the lock goes with the window"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_journal_damaged_in_the_middle_gives_its_prefix_and_a_copy_is_kept() {
        let dir = temp("damaged-journal");
        let (mut save, _) = Autosave::open(&dir).unwrap();
        save.compact(&snapshot("a")).unwrap();
        save.record(Duration::from_millis(10), "digit", &json!({"digit": 3}))
            .unwrap();
        let journal = dir.join("journal-1.jsonl");
        let mut text = fs::read_to_string(&journal).unwrap();
        text.push_str("garbage\n");
        text.push_str(&Entry::time(Duration::from_secs(9)).line());
        fs::write(&journal, text).unwrap();
        drop(save);
        let (mut save, found) = Autosave::open(&dir).unwrap();
        let restored = found.unwrap().unwrap();
        assert_eq!(restored.journal.len(), 1);
        let (path, line, _) = restored.damage.unwrap();
        assert_eq!((path, line), (journal.clone(), 2));
        let kept = save.keep_damaged_journal().unwrap();
        assert!(fs::read_to_string(kept).unwrap().contains("garbage"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn compaction_is_due_once_the_journal_outgrows_the_snapshot() {
        let dir = temp("due");
        let (mut save, _) = Autosave::open(&dir).unwrap();
        save.compact(&snapshot("a")).unwrap();
        assert!(!save.wants_compaction());
        let data = json!({"digit": 1});
        while save.journal_bytes() < MIN_COMPACT_BYTES {
            assert!(!save.wants_compaction());
            save.record(Duration::ZERO, "digit", &data).unwrap();
        }
        assert!(save.wants_compaction());
        fs::remove_dir_all(&dir).unwrap();
    }
}
