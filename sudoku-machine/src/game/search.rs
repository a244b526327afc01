//! The animated solve (the chart's `search` data item): the engine's traced search
//! ([`crate::engine::trace`]) replayed a few steps per tick of a delayed `<send>`, with the
//! board it draws (digits and candidates), counts, and the last step.
//!
//! The set-up (each given placed, with the candidates it removes) is applied at once; the
//! animation shows the search itself, the same steps `sudoku solve --trace` prints. A search
//! longer than [`STEP_LIMIT`] steps is not animated: the puzzle is solved at once, or
//! reported as having several solutions or none.

use serde::{Deserialize, Serialize};

use super::play::Notes;
use crate::datamodel::Grid;
use crate::engine::techniques::{bit, house_cells, Cell, ALL};
use crate::engine::{classify, trace, Classification, DeadEnd, PlacementReason, TraceStep};

/// The longest search that is animated, in steps.
pub const STEP_LIMIT: usize = 20_000;

/// The speeds offered, in steps per second; the fastest ones show several steps per frame.
pub const SPEEDS: [u32; 9] = [1, 2, 5, 10, 30, 60, 120, 250, 1000];

/// Frames per second at most (a step every frame up to 60 steps a second).
const FRAMES_PER_SECOND: u32 = 60;

/// What the last step did, for the board's marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// Nothing yet.
    #[default]
    None,
    /// A digit placed by logic (a single).
    Place,
    /// A digit placed by a guess.
    Guess,
    /// A candidate removed.
    Eliminate,
    /// A guess undone.
    Backtrack,
    /// A contradiction: a cell without candidates, a digit without a place in a house, or
    /// two equal digits in a house.
    DeadEnd,
    /// The grid is complete.
    Solved,
    /// No solution.
    Failed,
}

/// How the search ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Still going.
    #[default]
    Searching,
    /// It found a solution.
    Solved,
    /// It found none.
    Failed,
    /// Too long to animate: solved at once.
    TooLongSolved,
    /// Too long to animate, and the puzzle has several solutions.
    TooLongMultiple,
    /// Too long to animate, and there is no solution.
    TooLongNone,
}

/// Counts of what the search did so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Steps shown.
    pub steps: usize,
    /// Digits placed by logic or guess.
    pub placements: usize,
    /// Candidates removed.
    pub eliminations: usize,
    /// Guesses made.
    pub guesses: usize,
    /// Guesses undone.
    pub backtracks: usize,
}

/// The chart's `search` data item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Search {
    /// The position searched (givens and, from a game, the player's entries).
    pub start: Grid,
    /// Whether it is the puzzle being typed in edit mode (not the game's position).
    pub of_draft: bool,
    /// Steps of the search shown so far (the set-up not counted).
    pub index: usize,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The digits on the board now.
    pub values: Grid,
    /// The candidates of its empty cells.
    pub candidates: Notes,
    /// Cells whose digit was placed inside a guess (drawn apart).
    pub guessed: Notes,
    /// The board before each open guess, by depth, to restore on a backtrack.
    pub saved: Vec<(Grid, Notes, Notes)>,
    /// What was done so far.
    pub counts: Counts,
    /// The last step: what it was, its cell, its digit, and its line (as `--trace` prints).
    pub last: (StepKind, Option<Cell>, u8, String),
    /// How it ended, or [`Outcome::Searching`].
    pub outcome: Outcome,
    /// The last word to the player.
    pub message: String,
    /// The cells of the last dead end, drawn red until the next step (after the last one,
    /// they stay): the cell without candidates, or the two clashing cells, or the empty
    /// cells of the house that has no place left for a digit.
    pub dead: Vec<Cell>,
    /// The last dead end in words: what the message names if the search then fails.
    why: Option<String>,
    /// The search steps after the set-up, at most `STEP_LIMIT`; recomputed from `start` when
    /// missing (the trace is deterministic), so snapshots stay small.
    #[serde(skip)]
    steps: Vec<TraceStep>,
}

impl Default for Search {
    /// No search yet, at 30 steps a second.
    fn default() -> Self {
        Search {
            start: Grid::default(),
            of_draft: false,
            index: 0,
            speed: 4,
            values: Grid::default(),
            candidates: Notes::default(),
            guessed: Notes::default(),
            saved: Vec::new(),
            counts: Counts::default(),
            last: Default::default(),
            outcome: Outcome::Searching,
            message: String::new(),
            dead: Vec::new(),
            why: None,
            steps: Vec::new(),
        }
    }
}

impl Search {
    /// A new search of `position` at the current speed: the set-up is applied, and a search
    /// longer than [`STEP_LIMIT`] steps is settled at once.
    pub fn start(&mut self, position: &Grid) {
        self.start_with_limit(position, STEP_LIMIT);
    }

    /// [`Search::start`] on the puzzle being typed in edit mode.
    pub fn start_draft(&mut self, position: &Grid) {
        self.start(position);
        self.of_draft = true;
    }

    fn start_with_limit(&mut self, position: &Grid, limit: usize) {
        *self = Search {
            start: *position,
            speed: self.speed,
            ..Search::default()
        };
        self.load(limit);
        if self.steps.len() > limit {
            self.settle_at_once(limit);
        } else {
            self.message = format!(
                "Watching the search: {} steps. Pause, step, change the speed, or stop to go back.",
                self.steps.len()
            );
        }
    }

    /// Computes the set-up (applied to a fresh board) and the steps, as [`Search::start`]
    /// does; the board is then replayed up to `index` when restoring.
    fn load(&mut self, limit: usize) {
        let mut traced = trace(&self.start);
        let setup = traced.take_setup();
        self.values = Grid::default();
        self.candidates = Notes([[ALL; 9]; 9]);
        self.guessed = Notes::default();
        self.saved.clear();
        for step in &setup {
            self.apply(step);
        }
        // The set-up is not part of what the search did.
        self.counts = Counts::default();
        self.steps = traced.take(limit + 1).collect();
    }

    /// Makes sure the steps are there (after a restore) without changing what is shown.
    fn ensure_steps(&mut self) {
        if self.steps.is_empty() && self.outcome == Outcome::Searching {
            let (index, counts, last) = (self.index, self.counts, self.last.clone());
            let shown = (
                self.values,
                self.candidates,
                self.guessed,
                self.saved.clone(),
                std::mem::take(&mut self.dead),
                self.why.take(),
            );
            self.load(STEP_LIMIT);
            self.index = index;
            self.counts = counts;
            self.last = last;
            (
                self.values,
                self.candidates,
                self.guessed,
                self.saved,
                self.dead,
                self.why,
            ) = shown;
        }
    }

    fn settle_at_once(&mut self, limit: usize) {
        let (outcome, message) = match classify(&self.start) {
            Classification::Unique(solution) => {
                self.values = solution;
                (
                    Outcome::TooLongSolved,
                    format!(
                        "This search takes more than {limit} steps, too long to watch: \
                         the solution is shown at once."
                    ),
                )
            }
            Classification::Multiple => (
                Outcome::TooLongMultiple,
                format!(
                    "This search takes more than {limit} steps, too long to watch, and \
                     the puzzle has more than one solution: it is not a proper puzzle."
                ),
            ),
            Classification::None | Classification::Invalid(_) => (
                Outcome::TooLongNone,
                format!(
                    "This search takes more than {limit} steps, too long to watch, and \
                     the position has no solution."
                ),
            ),
        };
        self.outcome = outcome;
        self.message = message;
        self.steps.clear();
    }

    /// Whether the search is over (solved, failed, or settled at once).
    pub fn is_done(&self) -> bool {
        self.outcome != Outcome::Searching
    }

    /// Steps per second at the current speed.
    pub fn steps_per_second(&self) -> u32 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// The delay between two ticks, as `<send delayexpr>` takes it (`"16ms"`).
    pub fn delay(&self) -> String {
        let rate = self.steps_per_second().min(FRAMES_PER_SECOND);
        format!("{}ms", 1000 / rate)
    }

    /// Steps to show per tick at the current speed.
    pub fn steps_per_tick(&self) -> usize {
        let per_second = self.steps_per_second();
        per_second.div_ceil(FRAMES_PER_SECOND).max(1) as usize
    }

    /// A `search.speed` event: `{"speed": index}` into [`SPEEDS`], or `{"faster": true}` /
    /// `{"slower": true}`.
    pub fn set_speed(&mut self, event: &sudoku_scxmlc::runtime::Event) {
        let last = SPEEDS.len() - 1;
        if let Some(index) = event.data.get("speed").and_then(|v| v.as_u64()) {
            self.speed = (index as usize).min(last);
        } else if event.data.get("faster").is_some() {
            self.speed = (self.speed + 1).min(last);
        } else if event.data.get("slower").is_some() {
            self.speed = self.speed.saturating_sub(1);
        }
    }

    /// Shows the next `n` steps (fewer at the end). Returns whether the search is over.
    pub fn advance(&mut self, n: usize) -> bool {
        self.ensure_steps();
        for _ in 0..n {
            if self.is_done() {
                break;
            }
            let Some(step) = self.steps.get(self.index).cloned() else {
                self.outcome = Outcome::Failed;
                break;
            };
            self.index += 1;
            self.counts.steps += 1;
            self.apply(&step);
            self.last = (
                self.kind_of(&step),
                cell_of(&step),
                digit_of(&step),
                step.to_string(),
            );
            match step {
                TraceStep::Solved(_) => self.finish_solved(),
                TraceStep::Failed => {
                    self.outcome = Outcome::Failed;
                    let why = self.why.take();
                    self.message = match why {
                        Some(why) if self.counts.guesses == 0 => {
                            format!("No solution: {why}.")
                        }
                        Some(why) => format!(
                            "The search failed: this position has no solution. Every guess \
                             ran into a dead end; the last one: {why}."
                        ),
                        None => "The search failed: this position has no solution.".into(),
                    };
                }
                _ => {}
            }
        }
        self.is_done()
    }

    /// One tick's worth of steps.
    pub fn tick(&mut self) -> bool {
        let n = self.steps_per_tick();
        self.advance(n)
    }

    fn finish_solved(&mut self) {
        self.outcome = Outcome::Solved;
        let c = self.counts;
        self.message = format!(
            "Solved in {}: {} placed, {} removed, {}, {}.",
            plural(c.steps, "step", "steps"),
            plural(c.placements, "digit", "digits"),
            plural(c.eliminations, "candidate", "candidates"),
            plural(c.guesses, "guess", "guesses"),
            plural(c.backtracks, "backtrack", "backtracks"),
        );
        if matches!(classify(&self.start), Classification::Multiple) {
            self.message
                .push_str(" This is one solution: the puzzle has others.");
        }
    }

    fn kind_of(&self, step: &TraceStep) -> StepKind {
        match step {
            TraceStep::Place {
                reason: PlacementReason::Guess,
                ..
            }
            | TraceStep::Guess { .. } => StepKind::Guess,
            TraceStep::Place { .. } => StepKind::Place,
            TraceStep::Eliminate { .. } => StepKind::Eliminate,
            TraceStep::Backtrack { .. } => StepKind::Backtrack,
            TraceStep::DeadEnd(_) => StepKind::DeadEnd,
            TraceStep::Solved(_) => StepKind::Solved,
            TraceStep::Failed => StepKind::Failed,
        }
    }

    /// Applies one step to the board and the counts.
    fn apply(&mut self, step: &TraceStep) {
        if !matches!(step, TraceStep::Failed) {
            self.dead.clear();
        }
        match *step {
            TraceStep::Place {
                cell: (r, c),
                digit,
                reason,
            } => {
                self.values.0[r][c] = digit;
                self.candidates.0[r][c] = 0;
                if reason != PlacementReason::Given {
                    self.counts.placements += 1;
                }
                if !self.saved.is_empty() {
                    self.guessed.0[r][c] = 1;
                }
            }
            TraceStep::Eliminate {
                cell: (r, c),
                digit,
                ..
            } => {
                self.candidates.0[r][c] &= !bit(digit);
                self.counts.eliminations += 1;
            }
            TraceStep::Guess { depth, .. } => {
                self.saved.truncate(depth);
                self.saved
                    .push((self.values, self.candidates, self.guessed));
                self.counts.guesses += 1;
            }
            TraceStep::Backtrack { depth, .. } => {
                if let Some(&(values, candidates, guessed)) = self.saved.get(depth) {
                    (self.values, self.candidates, self.guessed) = (values, candidates, guessed);
                }
                self.saved.truncate(depth);
                self.counts.backtracks += 1;
            }
            TraceStep::DeadEnd(dead) => {
                self.dead = self.cells_of(&dead);
                self.why = Some(explain(&dead));
            }
            TraceStep::Solved(grid) => self.values = grid,
            TraceStep::Failed => {}
        }
    }

    /// The cells a dead end is drawn on.
    fn cells_of(&self, dead: &DeadEnd) -> Vec<Cell> {
        match *dead {
            DeadEnd::NoCandidate((r, c)) => vec![Cell::new(r, c)],
            DeadEnd::Clash { cell, peer, .. } => {
                vec![Cell::new(cell.0, cell.1), Cell::new(peer.0, peer.1)]
            }
            DeadEnd::NoPlace { house, .. } => house_cells(house)
                .filter(|cell| self.values.0[cell.row()][cell.col()] == 0)
                .collect(),
        }
    }

    /// Whether the digit of `cell` was placed by the search inside a guess.
    pub fn is_guessed(&self, cell: Cell) -> bool {
        self.guessed.0[cell.row()][cell.col()] != 0
    }

    /// Whether the digit of `cell` is one of the searched position's.
    pub fn is_start(&self, cell: Cell) -> bool {
        self.start.0[cell.row()][cell.col()] != 0
    }
}

fn cell_of(step: &TraceStep) -> Option<Cell> {
    match step {
        TraceStep::Place { cell, .. }
        | TraceStep::Eliminate { cell, .. }
        | TraceStep::Guess { cell, .. }
        | TraceStep::Backtrack { cell, .. }
        | TraceStep::DeadEnd(DeadEnd::NoCandidate(cell) | DeadEnd::Clash { cell, .. }) => {
            Some(Cell::new(cell.0, cell.1))
        }
        TraceStep::DeadEnd(DeadEnd::NoPlace { .. }) | TraceStep::Solved(_) | TraceStep::Failed => {
            None
        }
    }
}

fn digit_of(step: &TraceStep) -> u8 {
    match step {
        TraceStep::Place { digit, .. }
        | TraceStep::Eliminate { digit, .. }
        | TraceStep::Guess { digit, .. }
        | TraceStep::Backtrack { digit, .. }
        | TraceStep::DeadEnd(DeadEnd::NoPlace { digit, .. } | DeadEnd::Clash { digit, .. }) => {
            *digit
        }
        TraceStep::DeadEnd(DeadEnd::NoCandidate(_)) | TraceStep::Solved(_) | TraceStep::Failed => 0,
    }
}

/// `1 guess`, `3 guesses`.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A dead end in words, for the player: "r1c3 has no candidate left".
fn explain(dead: &DeadEnd) -> String {
    let at = |(r, c): (usize, usize)| format!("r{}c{}", r + 1, c + 1);
    match *dead {
        DeadEnd::NoCandidate(cell) => format!(
            "{} has no candidate left (each digit is already in its row, column or box)",
            at(cell)
        ),
        DeadEnd::NoPlace { digit, house } => format!("{digit} has no place left in {house}"),
        DeadEnd::Clash { cell, peer, digit } => {
            format!("{} and {} both hold {digit}", at(peer), at(cell))
        }
    }
}

/// The steps the animation shows for `position`, one line each: what `sudoku solve --trace`
/// prints. See [`trace_text`] for the same lines one at a time.
pub fn trace_lines(position: &Grid) -> Vec<String> {
    trace_text(position).collect()
}

/// The lines of [`trace_lines`], made as they are pulled: a search of a position without a
/// solution may take millions of steps, which need not be held at once.
pub fn trace_text(position: &Grid) -> impl Iterator<Item = String> {
    let mut traced = trace(position);
    traced.take_setup();
    traced.map(|step| step.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::unique_solution;
    use crate::puzzle::parse;

    /// top1465 #1: a hard puzzle whose search guesses and backtracks.
    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn the_animation_ends_on_the_solution_with_its_counts_and_lines() {
        let g = parse(HARD).unwrap();
        let mut s = Search::default();
        s.start(&g);
        assert!(!s.is_done());
        let mut lines = Vec::new();
        while !s.advance(1) {
            lines.push(s.last.3.clone());
        }
        lines.push(s.last.3.clone());
        assert_eq!(s.outcome, Outcome::Solved);
        assert_eq!(s.values, unique_solution(&g).unwrap());
        assert!(
            s.counts.guesses > 0 && s.counts.backtracks > 0,
            "{:?}",
            s.counts
        );
        assert_eq!(
            lines,
            trace_lines(&g),
            "the animation shows what --trace prints"
        );
        assert_eq!(lines.last().unwrap(), "solved");
    }

    #[test]
    fn a_backtrack_restores_the_board_and_its_candidates() {
        let g = parse(HARD).unwrap();
        let mut s = Search::default();
        s.start(&g);
        // The board just before the latest guess at each depth.
        let mut before: Vec<(Grid, Notes)> = Vec::new();
        let mut backtracks = 0;
        while !s.is_done() {
            let next = s.steps[s.index].clone();
            if let TraceStep::Guess { depth, .. } = next {
                before.truncate(depth);
                before.push((s.values, s.candidates));
            }
            s.advance(1);
            if let TraceStep::Backtrack { depth, grid, .. } = next {
                assert_eq!(s.values, grid, "the grid from before the guess");
                assert_eq!(
                    (s.values, s.candidates),
                    before[depth],
                    "and its candidates"
                );
                backtracks += 1;
            }
        }
        assert!(backtracks > 0);
    }

    #[test]
    fn too_long_searches_are_settled_at_once() {
        let g = parse(HARD).unwrap();
        let mut s = Search::default();
        s.start_with_limit(&g, 10);
        assert_eq!(s.outcome, Outcome::TooLongSolved);
        assert_eq!(s.values, unique_solution(&g).unwrap());
        assert!(s
            .message
            .starts_with("This search takes more than 10 steps"));
        s.start_with_limit(&Grid::default(), 10);
        assert_eq!(s.outcome, Outcome::TooLongMultiple);
        assert!(s.message.contains("more than one solution"));
        // r1c1..r1c8 hold 1-8 and r2c9 holds 9: no solution.
        let mut none = Grid::default();
        for c in 0..8 {
            none.0[0][c] = c as u8 + 1;
        }
        none.0[1][8] = 9;
        s.start_with_limit(&none, 0);
        assert_eq!(s.outcome, Outcome::TooLongNone);
        // Within the limit, the same position fails where it runs out.
        s.start(&none);
        while !s.advance(1) {}
        assert_eq!(s.outcome, Outcome::Failed);
        assert_eq!(s.last.3, "failed");
    }

    #[test]
    fn a_position_without_solution_shows_its_candidates_and_where_it_fails() {
        // Puzzle 01 with a 2 in r1c1: r1c3, whose only candidate was 2, has none left.
        let g = parse(
            "25..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4",
        )
        .unwrap();
        let mut s = Search::default();
        s.start(&g);
        // Every digit is placed before the position is judged: the candidates are right.
        assert_eq!(s.values, g);
        assert_eq!(s.candidates.0[3][0] & bit(1), 0, "r9c1 holds 1");
        assert_eq!(s.candidates.0[0][2], 0, "r1c3 has no candidate");
        assert!(!s.advance(1));
        assert_eq!(s.last.0, StepKind::DeadEnd);
        assert_eq!(s.last.1, Some(Cell::new(0, 2)));
        assert_eq!(s.dead, [Cell::new(0, 2)]);
        assert!(s.advance(1));
        assert_eq!(s.outcome, Outcome::Failed);
        assert_eq!(s.dead, [Cell::new(0, 2)], "the dead end stays drawn");
        assert_eq!(
            s.message,
            "No solution: r1c3 has no candidate left (each digit is already in its row, \
             column or box)."
        );
    }

    #[test]
    fn a_search_that_fails_after_guesses_names_its_last_dead_end() {
        // top1465 #1 with a 5 in r1c2: no solution, found after 124 guesses.
        let g = parse(
            "45..3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .unwrap();
        let mut s = Search::default();
        s.start(&g);
        while !s.advance(100) {}
        assert_eq!(s.outcome, Outcome::Failed);
        assert!(s.counts.guesses > 0);
        assert_eq!(
            s.message,
            "The search failed: this position has no solution. Every guess ran into a dead \
             end; the last one: 2 has no place left in row 4."
        );
    }

    #[test]
    fn speeds_go_from_one_step_a_second_to_many_per_frame() {
        let mut s = Search::default();
        assert_eq!(s.steps_per_second(), 30, "the default");
        s.speed = 0;
        assert_eq!((s.delay().as_str(), s.steps_per_tick()), ("1000ms", 1));
        let speed = |data| sudoku_scxmlc::runtime::Event::new("search.speed", data);
        s.set_speed(&speed(serde_json::json!({"speed": 8})));
        assert_eq!((s.delay().as_str(), s.steps_per_tick()), ("16ms", 17));
        s.set_speed(&speed(serde_json::json!({"faster": true})));
        assert_eq!(s.steps_per_second(), 1000, "the fastest stays the fastest");
        s.set_speed(&speed(serde_json::json!({"slower": true})));
        assert_eq!(s.steps_per_second(), 250);
    }

    #[test]
    fn restoring_recomputes_the_steps_and_goes_on_where_it_was() {
        let g = parse(HARD).unwrap();
        let mut s = Search::default();
        s.start(&g);
        s.advance(500);
        let json = serde_json::to_string(&s).unwrap();
        let mut back: Search = serde_json::from_str(&json).unwrap();
        assert!(back.steps.is_empty(), "steps are not saved");
        s.advance(300);
        back.advance(300);
        assert_eq!(
            (back.values, back.candidates, back.counts),
            (s.values, s.candidates, s.counts)
        );
    }
}
