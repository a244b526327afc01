//! The player's options (the chart's `settings`) and the action waiting for the player's
//! confirmation (the chart's `pending`).

use serde::{Deserialize, Serialize};
use sudoku_scxmlc::runtime::{Event, ExecError};

use super::info::LoadRequest;
use crate::engine::{classify, Classification, Level};

/// Which entries are marked as mistakes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckMode {
    /// Entries that repeat a digit of a peer, and the peers they clash with (the seed MFC
    /// game's red digits).
    #[default]
    Conflicts,
    /// Those, and also entries that differ from the solution though they break no rule yet.
    Solution,
}

/// The window's colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Follow the desktop's light or dark setting where the window can tell.
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

/// The chart's `settings` data item: kept with the game, changed by `settings.*` events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Which entries are marked as mistakes.
    pub check: CheckMode,
    /// Hints per attempt (the seed MFC game allows 3).
    pub hint_limit: u8,
    /// The window's colours.
    pub theme: Theme,
    /// The level New game makes puzzles at (the window's level chooser).
    pub level: Level,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            check: CheckMode::default(),
            hint_limit: 3,
            theme: Theme::default(),
            level: Level::Medium,
        }
    }
}

impl Settings {
    /// Applies a `settings` event: its data may hold `check`, `hint_limit`, `theme` and `level`;
    /// fields it does not name keep their values.
    ///
    /// # Errors
    /// An [`ExecError`] (`error.execution`) when a field has a value it cannot take; then
    /// nothing changes.
    pub fn update(&mut self, event: &Event) -> Result<(), ExecError> {
        let mut merged = serde_json::to_value(*self)?;
        let (Some(fields), Some(into)) = (event.data.as_object(), merged.as_object_mut()) else {
            return Err(ExecError::new(format!(
                "event `{}` needs an object of settings",
                event.name
            )));
        };
        for (key, value) in fields {
            if !into.contains_key(key) {
                return Err(ExecError::new(format!("there is no setting `{key}`")));
            }
            into.insert(key.clone(), value.clone());
        }
        *self = serde_json::from_value(merged)
            .map_err(|e| ExecError::new(format!("event `{}`: {e}", event.name)))?;
        Ok(())
    }
}

/// What happens once the player confirms that the game in progress may be discarded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// Nothing is waiting.
    #[default]
    None,
    /// Start the puzzle over (Qt's `start` after `stop`).
    Start,
    /// Play another puzzle.
    Load(LoadRequest),
    /// Generate a new puzzle of this level.
    Generate(Level),
    /// End the game in progress (the Stop button).
    Stop,
    /// Show the answer, which ends the game as not solved by the player.
    Reveal,
    /// Leave edit mode, losing the puzzle being typed.
    LeaveEdit,
}

impl Pending {
    /// The question to ask before this action, under its [`title`](Self::title) (so it does
    /// not repeat it): it discards the game in progress (`lost` says what would be lost, as
    /// [`Play::what_is_lost`](super::Play::what_is_lost) or, for leaving edit mode,
    /// [`Draft::what_is_lost`](super::Draft::what_is_lost) words it), or ends it.
    pub fn question(&self, lost: &str) -> String {
        let what = match self {
            Pending::None => return String::new(),
            Pending::Stop => {
                return "The game cannot be continued afterwards: Start plays the \
                        puzzle again from the beginning."
                    .into()
            }
            Pending::Reveal => {
                return "The solution is filled in and the game ends, not \
                        solved by you."
                    .into()
            }
            Pending::LeaveEdit if lost.is_empty() => {
                return "The puzzle you are typing is lost.".into()
            }
            Pending::LeaveEdit => return format!("The puzzle you are typing is lost: {lost}."),
            Pending::Start => "start this puzzle over".to_owned(),
            Pending::Load(request) => {
                let what = if request.name.is_empty() {
                    "play another puzzle".to_owned()
                } else {
                    format!("play “{}”", request.name)
                };
                // Said before the game is discarded for it, not only after.
                match classify(&request.givens) {
                    Classification::None | Classification::Invalid(_) => {
                        format!("{what}, which has no solution")
                    }
                    Classification::Multiple => format!("{what}, which has several solutions"),
                    Classification::Unique(_) => what,
                }
            }
            Pending::Generate(level) => format!("start a new {level} puzzle"),
        };
        if lost.is_empty() {
            format!("Discard the game in progress and {what}?")
        } else {
            format!("Discard the game in progress and {what}? Lost: {lost}.")
        }
    }

    /// The question's title.
    pub fn title(&self) -> &'static str {
        match self {
            Pending::None => "",
            Pending::Stop => "Stop this game?",
            Pending::Reveal => "Show the answer?",
            Pending::LeaveEdit => "Leave edit mode?",
            _ => "Discard this game?",
        }
    }

    /// What the button that goes ahead says.
    pub fn confirm_label(&self) -> &'static str {
        match self {
            Pending::Stop => "Stop",
            Pending::Reveal => "Show answer",
            Pending::LeaveEdit => "Leave",
            _ => "Discard",
        }
    }

    /// What the button that goes back says.
    pub fn cancel_label(&self) -> &'static str {
        match self {
            Pending::LeaveEdit => "Keep typing",
            _ => "Keep my game",
        }
    }

    /// Whether the question interrupts a game in progress, as its words say ("Discard the
    /// game in progress", "Stop this game?", "Show the answer?"): every action but starting a
    /// stopped game over, leaving edit mode and nothing.
    pub fn interrupts_game(&self) -> bool {
        !matches!(self, Pending::None | Pending::Start | Pending::LeaveEdit)
    }

    /// Whether the pending action is [`Pending::Stop`].
    pub fn is_stop(&self) -> bool {
        matches!(self, Pending::Stop)
    }

    /// Whether the pending action is [`Pending::Reveal`].
    pub fn is_reveal(&self) -> bool {
        matches!(self, Pending::Reveal)
    }

    /// Whether the pending action is [`Pending::LeaveEdit`].
    pub fn is_leave_edit(&self) -> bool {
        matches!(self, Pending::LeaveEdit)
    }

    /// Whether the pending action is [`Pending::Start`].
    pub fn is_start(&self) -> bool {
        matches!(self, Pending::Start)
    }

    /// Whether the pending action is a [`Pending::Load`].
    pub fn is_load(&self) -> bool {
        matches!(self, Pending::Load(_))
    }

    /// Whether the pending action is a [`Pending::Generate`].
    pub fn is_generate(&self) -> bool {
        matches!(self, Pending::Generate(_))
    }

    /// The level a generation is for (Easy when none is pending).
    pub fn level(&self) -> Level {
        match self {
            Pending::Generate(level) => *level,
            _ => Level::Easy,
        }
    }

    /// The load request waiting, if any.
    pub fn load_request(&self) -> Option<&LoadRequest> {
        match self {
            Pending::Load(request) => Some(request),
            _ => None,
        }
    }

    /// Takes the load request out (leaving nothing pending).
    ///
    /// # Errors
    /// An [`ExecError`] when no load is pending (a chart that calls this in the wrong state).
    pub fn take_load(&mut self) -> Result<LoadRequest, ExecError> {
        match std::mem::take(self) {
            Pending::Load(request) => Ok(request),
            other => {
                *self = other;
                Err(ExecError::new("no puzzle is waiting to be loaded"))
            }
        }
    }
}

/// The level a `generate` event asks for: `{"level": "hard"}`.
///
/// # Errors
/// An [`ExecError`] (`error.execution`) when the event names no level.
pub fn requested_level(event: &Event) -> Result<Level, ExecError> {
    event.param("level")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_change_field_by_field_and_refuse_nonsense_whole() {
        let mut s = Settings::default();
        assert_eq!(s.hint_limit, 3);
        s.update(&Event::new("settings", json!({"check": "solution"})))
            .unwrap();
        assert_eq!(s.check, CheckMode::Solution);
        s.update(&Event::new(
            "settings",
            json!({"theme": "dark", "hint_limit": 5}),
        ))
        .unwrap();
        assert_eq!(
            (s.theme, s.hint_limit, s.check),
            (Theme::Dark, 5, CheckMode::Solution)
        );
        let before = s;
        assert!(s
            .update(&Event::new(
                "settings",
                json!({"check": "maybe", "theme": "light"})
            ))
            .is_err());
        assert!(s
            .update(&Event::new("settings", json!({"volume": 3})))
            .is_err());
        assert!(s.update(&Event::new("settings", json!(7))).is_err());
        assert_eq!(s, before);
    }

    #[test]
    fn questions_name_what_would_happen() {
        assert_eq!(Pending::None.question("3 entries"), "");
        assert_eq!(
            Pending::Generate(Level::Hard).question("3 entries and 2:00 of play"),
            "Discard the game in progress and start a new hard puzzle? Lost: 3 entries and \
             2:00 of play."
        );
        let mut p = Pending::Load(LoadRequest {
            givens: Default::default(),
            name: "mine".into(),
            level: None,
        });
        assert_eq!(
            p.question(""),
            "Discard the game in progress and play “mine”, which has several solutions?",
            "an empty grid"
        );
        assert_eq!(p.take_load().unwrap().name, "mine");
        // r1c1..r1c8 hold 1-8 and r2c9 holds 9: no solution, said before the game goes.
        let mut none = crate::datamodel::Grid::default();
        for c in 0..8 {
            none.0[0][c] = c as u8 + 1;
        }
        none.0[1][8] = 9;
        let nosol = Pending::Load(LoadRequest {
            givens: none,
            name: "nosol".into(),
            level: None,
        });
        assert_eq!(
            nosol.question("1 entry"),
            "Discard the game in progress and play “nosol”, which has no solution? Lost: 1 \
             entry."
        );
        assert_eq!(p, Pending::None);
        assert!(p.take_load().is_err());
    }
}
