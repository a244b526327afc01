//! What the game knows about the puzzle being played: its name, its grade and its solution,
//! worked out once when it is loaded.

use serde::{Deserialize, Serialize};
use sudoku_scxmlc::runtime::{Event, ExecError};

use crate::datamodel::Grid;
use crate::engine::{classify, grade, Classification, Level};

/// How many solutions the givens have, and the solution when there is exactly one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "grid", rename_all = "lowercase")]
pub enum Solution {
    /// Not worked out yet (no puzzle loaded).
    #[default]
    Unknown,
    /// Exactly one solution: this grid.
    Unique(Grid),
    /// Two or more solutions.
    Multiple,
    /// No grid completes the givens.
    None,
}

impl Solution {
    /// The solution, when there is exactly one.
    pub fn grid(&self) -> Option<&Grid> {
        match self {
            Solution::Unique(grid) => Some(grid),
            _ => None,
        }
    }
}

/// The chart's `puzzle` data item. Every field may be left out of its JSON (the window sets
/// only `name` and `level` with `set_initial_values`; the rest is worked out at start).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PuzzleInfo {
    /// The name shown to the player (the chooser's entry); empty when unknown.
    pub name: String,
    /// The grade by this project's grader (`None` without a unique solution).
    pub level: Option<Level>,
    /// The solution.
    pub solution: Solution,
    /// The givens these facts are about.
    pub givens: Grid,
}

/// What a `load` event carries: `{"initState": Grid, "name": "...", "level": "hard"}`, the
/// level optional (it is graded when missing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadRequest {
    /// The givens.
    #[serde(rename = "initState")]
    pub givens: Grid,
    /// The name to show.
    #[serde(default)]
    pub name: String,
    /// The grade, if the sender knows it (a generated puzzle, a bundled one).
    #[serde(default)]
    pub level: Option<Level>,
}

impl LoadRequest {
    /// The request in a `load` or `generated` event.
    ///
    /// # Errors
    /// An [`ExecError`] (the chart's `error.execution`) when the data is not of that shape.
    pub fn of(event: &Event) -> Result<Self, ExecError> {
        serde_json::from_value(event.data.clone())
            .map_err(|e| ExecError::new(format!("event `{}`: {e}", event.name)))
    }

    /// Why these givens cannot be played at all (a value above 9, two equal givens in a
    /// house), or `None` when they can.
    pub fn problem(&self) -> Option<String> {
        match classify(&self.givens) {
            Classification::Invalid(clashes) if clashes.is_empty() => {
                Some("the puzzle has a cell that is not a digit".into())
            }
            Classification::Invalid(clashes) => Some(format!(
                "its givens clash: {}",
                clashes
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
            _ => None,
        }
    }
}

/// Whether the data of a `load` event is a puzzle that can be played (see
/// [`LoadRequest::problem`]); the chart refuses the others with a message.
pub fn is_loadable(event: &Event) -> bool {
    LoadRequest::of(event).is_ok_and(|request| request.problem().is_none())
}

/// The message for a `load` event that [`is_loadable`] refuses.
pub fn load_refusal(event: &Event) -> String {
    match LoadRequest::of(event) {
        Ok(request) => format!(
            "Cannot play {}: {}.",
            if request.name.is_empty() {
                "this puzzle".to_owned()
            } else {
                format!("“{}”", request.name)
            },
            request.problem().unwrap_or_default()
        ),
        Err(e) => format!("Cannot play this puzzle: {e}."),
    }
}

impl PuzzleInfo {
    /// Works out the facts about `givens`: the solution (by search) and, when there is
    /// exactly one and `level` is not given, the grade.
    pub fn analyse(name: String, level: Option<Level>, givens: &Grid) -> Self {
        let solution = match classify(givens) {
            Classification::Unique(grid) => Solution::Unique(grid),
            Classification::Multiple => Solution::Multiple,
            Classification::None | Classification::Invalid(_) => Solution::None,
        };
        let level = match &solution {
            Solution::Unique(_) => level.or_else(|| grade(givens).ok().map(|g| g.level)),
            _ => None,
        };
        PuzzleInfo {
            name,
            level,
            solution,
            givens: *givens,
        }
    }

    /// Takes the puzzle of a `load`/`generated` request: sets the givens and works out the
    /// facts.
    pub fn load(&mut self, init_state: &mut Grid, request: LoadRequest) {
        *init_state = request.givens;
        *self = Self::analyse(request.name, request.level, &request.givens);
    }

    /// Brings the facts up to date with `init_state` when it changed behind them (Qt's
    /// `setup` assigns `initState` directly; `set_initial_values` does too).
    pub fn sync(&mut self, init_state: &Grid) {
        if self.givens != *init_state || self.solution == Solution::Unknown {
            let name = std::mem::take(&mut self.name);
            let level = self.level.filter(|_| self.solution == Solution::Unknown);
            *self = Self::analyse(name, level, init_state);
        }
    }

    /// What the player should know before playing: a warning when the puzzle has several
    /// solutions or none, else nothing.
    pub fn warning(&self) -> String {
        match self.solution {
            Solution::Multiple => "This puzzle has more than one solution: any grid that keeps \
                 the rules counts as solved, and hints, Show answer and the check against the \
                 solution are off."
                .into(),
            Solution::None => "This puzzle has no solution: it cannot be completed, and hints \
                 and Show answer are off."
                .into(),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse;
    use serde_json::json;

    const QT: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    #[test]
    fn a_unique_puzzle_gets_its_solution_and_grade() {
        let g = parse(QT).unwrap();
        let info = PuzzleInfo::analyse("qt".into(), None, &g);
        assert!(info.solution.grid().is_some());
        assert_eq!(info.level, Some(Level::Easy));
        assert_eq!(info.warning(), "");
        let given = PuzzleInfo::analyse("qt".into(), Some(Level::Hard), &g);
        assert_eq!(given.level, Some(Level::Hard), "a level sent along is kept");
    }

    #[test]
    fn several_or_no_solutions_are_said() {
        let empty = PuzzleInfo::analyse(String::new(), None, &Grid::default());
        assert_eq!(
            (empty.solution.clone(), empty.level),
            (Solution::Multiple, None)
        );
        assert!(empty.warning().contains("more than one solution"));
        // r1c1..r1c8 hold 1-8 and r2c9 holds 9: r1c9 has no candidate.
        let mut none = Grid::default();
        for c in 0..8 {
            none.0[0][c] = c as u8 + 1;
        }
        none.0[1][8] = 9;
        let info = PuzzleInfo::analyse(String::new(), None, &none);
        assert_eq!(info.solution, Solution::None);
        assert!(info.warning().contains("no solution"));
    }

    #[test]
    fn load_requests_are_checked() {
        let g = parse(QT).unwrap();
        let ok = Event::new("load", json!({"initState": g, "name": "qt"}));
        assert!(is_loadable(&ok));
        let mut clash = g;
        clash.0[0][0] = 2; // row 1 has 2 at r1c4
        let bad = Event::new("load", json!({"initState": clash, "name": "mine"}));
        assert!(!is_loadable(&bad));
        assert_eq!(
            load_refusal(&bad),
            "Cannot play “mine”: its givens clash: 2 twice in row 1 (r1c1 and r1c4)."
        );
        let shapeless = Event::new("load", json!({"initState": "x"}));
        assert!(!is_loadable(&shapeless));
        assert!(load_refusal(&shapeless).starts_with("Cannot play this puzzle: event `load`"));
    }
}
