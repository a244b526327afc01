//! The player's records across games: how many puzzles of each level were solved, how many
//! without help, the best and the average time, and how often the answer was shown.
//!
//! The chart tells the window how each game ended with the `game.over` event (a
//! [`GameOver`]: solved by the player or answer shown, the level, the time, the help taken).
//! The window keeps [`Records`] in a file and calls [`Records::add`]; what counts as help and
//! which time is a record is decided here, not in the window.
//!
//! Help is a hint taken, or the solution check ([`CheckMode::Solution`]) switched on at any
//! moment of the attempt: a best time is a time without help. Solving with help still
//! counts as solved.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::settings::CheckMode;
use super::view::clock_text;
use super::{Play, PuzzleInfo, Settings};
use crate::engine::Level;

/// How a game ended, as the chart's `game.over` event carries it (its `result` param).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOver {
    /// Solved by the player, or the answer shown.
    pub outcome: Ending,
    /// The puzzle's name, as the panel shows it.
    pub puzzle: String,
    /// Its grade; `None` for a puzzle without exactly one solution.
    pub level: Option<Level>,
    /// Time played, in whole seconds.
    pub seconds: u64,
    /// Hints taken.
    pub hints: u8,
    /// Whether the solution check was on at some moment of the attempt.
    pub solution_checked: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// The player's grid became a solution.
    Solved,
    /// The player asked for the answer (Show answer).
    Revealed,
}

impl GameOver {
    /// The game that has just ended with `outcome`, from the chart's data items.
    pub fn of(outcome: Ending, puzzle: &PuzzleInfo, play: &Play, settings: &Settings) -> Self {
        GameOver {
            outcome,
            puzzle: puzzle.name.clone(),
            level: puzzle.level,
            seconds: play.seconds(),
            hints: play.hints_used,
            solution_checked: play.solution_checked || settings.check == CheckMode::Solution,
        }
    }

    /// Whether the player solved it with no hint and without the solution check.
    pub fn unaided(&self) -> bool {
        self.outcome == Ending::Solved && self.hints == 0 && !self.solution_checked
    }
}

/// One level's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LevelRecord {
    /// The level; `None` for puzzles without a grade.
    pub level: Option<Level>,
    /// Games solved by the player, with or without help.
    pub solved: u32,
    /// Of those, solved without help.
    pub unaided: u32,
    /// The best time without help, in seconds.
    pub best: Option<u64>,
    /// The time of every solved game added up, in seconds (for the average).
    pub total_seconds: u64,
    /// Games whose answer was shown.
    pub revealed: u32,
}

impl LevelRecord {
    /// The average time of the solved games, in whole seconds (rounded down).
    pub fn average(&self) -> Option<u64> {
        (self.solved > 0).then(|| self.total_seconds / u64::from(self.solved))
    }
}

/// What a game did to the records, for the window's summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// Solved without help faster than ever at its level; `previous` is the best before,
    /// `None` for the level's first solve without help.
    NewBest {
        /// The best time before, in seconds.
        previous: Option<u64>,
    },
    /// Solved without help, not faster than `best`.
    NotBest {
        /// The level's best time, in seconds.
        best: u64,
    },
    /// Solved with help: it counts as solved, not for the best time.
    Helped,
    /// The answer was shown.
    Revealed,
}

/// The player's records, one [`LevelRecord`] per level played, easiest first (ungraded
/// puzzles last). Kept by the window as JSON: `{"levels": [{"level": "hard", "solved": 3,
/// ...}]}`; unknown fields are ignored and missing ones are zero.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Records {
    /// The levels played.
    pub levels: Vec<LevelRecord>,
}

impl Records {
    /// The record of `level`, if a game of it ended.
    pub fn level(&self, level: Option<Level>) -> Option<&LevelRecord> {
        self.levels.iter().find(|r| r.level == level)
    }

    /// Adds a game that ended, and says what it did to the records.
    pub fn add(&mut self, game: &GameOver) -> Recorded {
        let record = self.entry(game.level);
        if game.outcome == Ending::Revealed {
            record.revealed = record.revealed.saturating_add(1);
            return Recorded::Revealed;
        }
        record.solved = record.solved.saturating_add(1);
        record.total_seconds = record.total_seconds.saturating_add(game.seconds);
        if !game.unaided() {
            return Recorded::Helped;
        }
        record.unaided = record.unaided.saturating_add(1);
        match record.best {
            Some(best) if best <= game.seconds => Recorded::NotBest { best },
            previous => {
                record.best = Some(game.seconds);
                Recorded::NewBest { previous }
            }
        }
    }

    fn entry(&mut self, level: Option<Level>) -> &mut LevelRecord {
        // Easiest first, ungraded last: `None` sorts after every level.
        let key = |l: Option<Level>| (l.is_none(), l);
        let at = match self
            .levels
            .binary_search_by_key(&key(level), |r| key(r.level))
        {
            Ok(at) => at,
            Err(at) => {
                self.levels.insert(
                    at,
                    LevelRecord {
                        level,
                        ..LevelRecord::default()
                    },
                );
                at
            }
        };
        &mut self.levels[at]
    }

    /// Puts the levels back in their order, merges repeated ones and drops what no played
    /// game could have left: a file written by hand or by another version is read as well
    /// as it can be. A best time needs a game solved without help and is at most the total
    /// time; no game is counted longer than [`LONGEST_GAME`].
    pub fn tidy(&mut self) {
        let levels = std::mem::take(&mut self.levels);
        for r in levels {
            let into = self.entry(r.level);
            into.solved = into.solved.saturating_add(r.solved);
            into.unaided = into.unaided.saturating_add(r.unaided).min(into.solved);
            into.total_seconds = into.total_seconds.saturating_add(r.total_seconds);
            into.revealed = into.revealed.saturating_add(r.revealed);
            into.best = match (into.best, r.best) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        for r in &mut self.levels {
            r.total_seconds = r
                .total_seconds
                .min(u64::from(r.solved).saturating_mul(LONGEST_GAME));
            let possible = r.total_seconds.min(LONGEST_GAME);
            if r.unaided == 0 || r.best.is_some_and(|best| best > possible) {
                r.best = None;
            }
        }
    }
}

/// The longest time, in seconds, that the records take from a file for one game (100 days
/// of play): a larger one was not played but written there.
pub const LONGEST_GAME: u64 = 100 * 24 * 3600;

/// What the window says about a game that ended: "Solved in 4:05 without help: a new best
/// time for Hard (was 5:12)."
pub fn summary(game: &GameOver, recorded: Recorded) -> String {
    let level = game.level.map_or("ungraded puzzles", Level::label);
    let time = clock_text(game.seconds);
    let mut text = String::new();
    match recorded {
        Recorded::NewBest { previous: None } => {
            let _ = write!(
                text,
                "Solved in {time} without help: your first best time for {level}."
            );
        }
        Recorded::NewBest {
            previous: Some(previous),
        } => {
            let _ = write!(
                text,
                "Solved in {time} without help: a new best time for {level} (was {}).",
                clock_text(previous)
            );
        }
        Recorded::NotBest { best } => {
            let _ = write!(
                text,
                "Solved in {time} without help. Your best for {level} is {}.",
                clock_text(best)
            );
        }
        Recorded::Helped => {
            let help = match (game.hints, game.solution_checked) {
                (0, _) => "the solution check".to_owned(),
                (1, false) => "a hint".to_owned(),
                (n, false) => format!("{n} hints"),
                (1, true) => "a hint and the solution check".to_owned(),
                (n, true) => format!("{n} hints and the solution check"),
            };
            let _ = write!(
                text,
                "Solved in {time} with {help}: it counts as solved, not for the best time."
            );
        }
        Recorded::Revealed => {
            let _ = write!(text, "The answer was shown after {time}.");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(level: Option<Level>, seconds: u64, hints: u8) -> GameOver {
        GameOver {
            outcome: Ending::Solved,
            puzzle: "p".into(),
            level,
            seconds,
            hints,
            solution_checked: false,
        }
    }

    #[test]
    fn a_best_time_is_a_time_without_help() {
        let mut records = Records::default();
        let hard = Some(Level::Hard);
        assert_eq!(
            records.add(&game(hard, 300, 0)),
            Recorded::NewBest { previous: None }
        );
        assert_eq!(records.add(&game(hard, 200, 1)), Recorded::Helped);
        let checked = GameOver {
            solution_checked: true,
            ..game(hard, 100, 0)
        };
        assert_eq!(records.add(&checked), Recorded::Helped);
        assert_eq!(
            records.add(&game(hard, 400, 0)),
            Recorded::NotBest { best: 300 }
        );
        assert_eq!(
            records.add(&game(hard, 250, 0)),
            Recorded::NewBest {
                previous: Some(300)
            }
        );
        let revealed = GameOver {
            outcome: Ending::Revealed,
            ..game(hard, 50, 0)
        };
        assert_eq!(records.add(&revealed), Recorded::Revealed);
        let r = records.level(hard).unwrap();
        assert_eq!(
            (r.solved, r.unaided, r.best, r.revealed),
            (5, 3, Some(250), 1)
        );
        assert_eq!(r.average(), Some((300 + 200 + 100 + 400 + 250) / 5));
        assert_eq!(records.level(Some(Level::Easy)), None);
    }

    #[test]
    fn levels_are_kept_easiest_first_and_ungraded_last() {
        let mut records = Records::default();
        for level in [
            None,
            Some(Level::Extreme),
            Some(Level::Easy),
            Some(Level::Hard),
        ] {
            records.add(&game(level, 10, 0));
        }
        let order: Vec<_> = records.levels.iter().map(|r| r.level).collect();
        assert_eq!(
            order,
            [
                Some(Level::Easy),
                Some(Level::Hard),
                Some(Level::Extreme),
                None
            ]
        );
    }

    #[test]
    fn a_hand_written_file_is_tidied() {
        let mut records: Records = serde_json::from_str(
            r#"{"levels": [
                {"level": "hard", "solved": 2, "unaided": 5, "best": 90},
                {"level": "easy", "solved": 1, "future_field": true},
                {"level": "hard", "solved": 1, "unaided": 1, "best": 80, "total_seconds": 80}
            ]}"#,
        )
        .unwrap();
        records.tidy();
        assert_eq!(records.levels.len(), 2);
        assert_eq!(records.levels[0].level, Some(Level::Easy));
        let hard = records.level(Some(Level::Hard)).unwrap();
        assert_eq!((hard.solved, hard.unaided, hard.best), (3, 3, Some(80)));
        let back: Records =
            serde_json::from_str(&serde_json::to_string(&records).unwrap()).unwrap();
        assert_eq!(back, records);
    }

    #[test]
    fn what_no_game_could_leave_is_dropped() {
        let mut records: Records = serde_json::from_str(
            r#"{"levels": [
                {"level": "easy", "solved": 0, "unaided": 0, "best": 5},
                {"level": "medium", "solved": 1, "unaided": 1, "best": 500, "total_seconds": 60},
                {"level": "hard", "solved": 2, "unaided": 1,
                 "best": 18446744073709551615, "total_seconds": 18446744073709551615},
                {"level": "expert", "solved": 2, "unaided": 1, "best": 70, "total_seconds": 200}
            ]}"#,
        )
        .unwrap();
        records.tidy();
        let best = |level| records.level(Some(level)).unwrap().best;
        assert_eq!(best(Level::Easy), None, "no game solved without help");
        assert_eq!(best(Level::Medium), None, "longer than all games together");
        assert_eq!(best(Level::Hard), None, "longer than any game");
        assert_eq!(best(Level::Expert), Some(70), "a possible record stays");
        let hard = records.level(Some(Level::Hard)).unwrap();
        assert_eq!(hard.total_seconds, 2 * LONGEST_GAME);
        assert_eq!(records.level(Some(Level::Easy)).unwrap().total_seconds, 0);
    }

    #[test]
    fn the_summary_names_the_time_the_level_and_the_help() {
        let hard = Some(Level::Hard);
        let g = game(hard, 245, 0);
        assert_eq!(
            summary(
                &g,
                Recorded::NewBest {
                    previous: Some(312)
                }
            ),
            "Solved in 4:05 without help: a new best time for Hard (was 5:12)."
        );
        assert_eq!(
            summary(&g, Recorded::NewBest { previous: None }),
            "Solved in 4:05 without help: your first best time for Hard."
        );
        assert_eq!(
            summary(&g, Recorded::NotBest { best: 200 }),
            "Solved in 4:05 without help. Your best for Hard is 3:20."
        );
        let helped = GameOver {
            solution_checked: true,
            ..game(None, 61, 2)
        };
        assert_eq!(
            summary(&helped, Recorded::Helped),
            "Solved in 1:01 with 2 hints and the solution check: it counts as solved, not for \
             the best time."
        );
    }
}
