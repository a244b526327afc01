//! The panel: everything the window shows but the cells ([`Panel`]), built whole
//! ([`panel`]) or written over the one sent last field by field ([`panel_into`]), and the
//! clock's text.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::draft::{Draft, Verdict};
use super::info::{self, PuzzleInfo};
use super::play::Play;
use super::search::{Outcome, Search, SPEEDS};
use super::settings::{Pending, Settings};
use super::view::{Controls, Phase, SearchView, Where};
use crate::datamodel::Grid;

/// Everything the window shows but the cells: the phase, the status line, the message and
/// the question, the clock, the puzzle's name and grade, the controls, the options and the
/// animated search.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Panel {
    /// Where the game is.
    pub phase: Phase,
    /// Notes mode: digits toggle pencil marks.
    pub pencil: bool,
    /// The status line.
    pub status: Cow<'static, str>,
    /// The last message to the player (a hint, a refusal, a warning); may be empty.
    pub message: String,
    /// The question to confirm while [`Phase::Confirming`]; empty otherwise.
    pub question: String,
    /// The question's title.
    pub question_title: Cow<'static, str>,
    /// The go-ahead button's label.
    pub confirm_label: Cow<'static, str>,
    /// The label of the button that goes back.
    pub cancel_label: Cow<'static, str>,
    /// Whether the panel shows edit mode's controls (typing a puzzle, or asking whether to
    /// leave edit mode) rather than the game's or the search's.
    pub edit_panel: bool,
    /// Time played, `m:ss` (or `h:mm:ss`).
    pub clock: String,
    /// Hints left in this attempt.
    pub hints_left: u8,
    /// The hints as the panel shows them: `3 hints left`, `1 hint left`, `No hints left`, or
    /// `No hints` for a puzzle without exactly one solution (the message says which).
    pub hints: Cow<'static, str>,
    /// Whether the panel shows the game's clock and hints: not for a puzzle being typed in
    /// edit mode, nor while the solver searches one.
    pub game_info: bool,
    /// The puzzle's name.
    pub puzzle: String,
    /// Its grade (`Hard`), or empty when unknown.
    pub level: Cow<'static, str>,
    /// The controls.
    pub can: Controls,
    /// The options.
    pub settings: Settings,
    /// The animated search, while [`Phase::Searching`].
    pub search: Option<SearchView>,
}

/// Time as the clock shows it: `m:ss`, or `h:mm:ss` from an hour on.
pub fn clock_text(seconds: u64) -> String {
    Clock::of(seconds).as_str().to_owned()
}

/// The panel: everything but the cells.
#[allow(
    clippy::too_many_arguments,
    reason = "the chart's data items, as `view` receives them"
)]
pub(super) fn panel(
    givens: &Grid,
    puzzle: &PuzzleInfo,
    play: &Play,
    settings: &Settings,
    pending: &Pending,
    draft: &Draft,
    search: &Search,
    at: Where,
) -> Panel {
    let mut panel = Panel::default();
    panel_into(
        &mut panel, givens, puzzle, play, settings, pending, draft, search, at,
    );
    panel
}

/// [`panel`] written over `out` field by field, assigning only what differs (no string
/// built when the old one holds the same text); whether anything changed.
#[allow(
    clippy::too_many_arguments,
    reason = "the chart's data items, as `view` receives them"
)]
pub(super) fn panel_into(
    out: &mut Panel,
    givens: &Grid,
    puzzle: &PuzzleInfo,
    play: &Play,
    settings: &Settings,
    pending: &Pending,
    draft: &Draft,
    search: &Search,
    at: Where,
) -> bool {
    let Where {
        phase,
        pencil,
        search_paused,
        ..
    } = at;
    let running = phase == Phase::Running;
    let hidden = phase.hides_board();
    let solution = puzzle.solution.grid();
    let leaving_edit = phase == Phase::Confirming && pending.is_leave_edit();
    let idle = matches!(phase, Phase::Unsolved | Phase::Solved | Phase::Revealed);
    let playing = matches!(phase, Phase::Running | Phase::Paused | Phase::Hidden);
    let editing = matches!(phase, Phase::Editing | Phase::Reviewed);
    // The panel is about the puzzle being typed, in edit mode and while it is searched.
    let about_draft = editing || leaving_edit || (phase == Phase::Searching && search.of_draft);
    let hints_left = settings.hint_limit.saturating_sub(play.hints_used);
    let clock = Clock::of(play.seconds());
    let reviewed = phase == Phase::Reviewed;
    let can = Controls {
        edit: running,
        erase: running || editing,
        undo: (running && play.can_undo()) || (editing && draft.can_undo()),
        redo: (running && play.can_redo()) || (editing && draft.can_redo()),
        fill: running,
        hint: running && solution.is_some() && (play.hint.is_some() || hints_left > 0),
        answer: running && solution.is_some(),
        pause: playing,
        pause_label: Cow::Borrowed(if phase.hides_board() {
            "Resume"
        } else {
            "Pause"
        }),
        start_stop: idle || playing,
        // Behind a question about the game in progress, the button reads as it did before
        // (Start only when the question is about starting a stopped game over).
        start_stop_label: Cow::Borrowed(
            if playing || (phase == Phase::Confirming && pending.interrupts_game()) {
                "Stop"
            } else {
                "Start"
            },
        ),
        start_stop_event: Cow::Borrowed(if playing { "end" } else { "start" }),
        new_game: idle || playing,
        enter_edit: idle || running,
        check: phase == Phase::Editing,
        play_draft: reviewed && draft.is_proper(),
        solve_draft: reviewed && draft.is_proper() && !draft.solved,
        change_draft: reviewed,
        leave_edit: editing,
        options: phase != Phase::Confirming,
        watch: idle || running || editing,
    };
    let status: Cow<'static, str> = match phase {
        Phase::Unsolved if play.has_progress(givens) => "Stopped: press Start to play again".into(),
        Phase::Unsolved => "Press Start to play".into(),
        Phase::Solved => format!("Solved in {}", clock.as_str()).into(),
        Phase::Revealed => "Answer shown: not solved by you".into(),
        Phase::Running if pencil => "Notes: digits set pencil marks".into(),
        Phase::Running => "Playing".into(),
        Phase::Paused => "Paused".into(),
        Phase::Hidden => "Paused".into(),
        Phase::Confirming => "Waiting for your answer".into(),
        Phase::Generating => format!("Generating a new {} puzzle…", pending.level()).into(),
        Phase::Editing => "Edit mode: type the givens".into(),
        Phase::Reviewed => match &draft.verdict {
            Some(Verdict::Invalid { .. }) => "Not a valid puzzle".into(),
            Some(Verdict::NoSolution) => "No solution".into(),
            Some(Verdict::Multiple) => "Several solutions".into(),
            Some(Verdict::Unique { level, .. }) => {
                format!("A proper puzzle: {}", level.label()).into()
            }
            None => "Edit mode".into(),
        },
        Phase::Searching => match search.outcome {
            Outcome::Searching if search_paused => "Search paused".into(),
            Outcome::Searching => "Watching the search".into(),
            Outcome::Solved | Outcome::TooLongSolved => "Search: solved".into(),
            Outcome::Failed | Outcome::TooLongNone => "Search: no solution".into(),
            Outcome::TooLongMultiple => "Search: several solutions".into(),
        },
    };
    let message: &str = match phase {
        Phase::Editing | Phase::Reviewed => &draft.message,
        // Behind the question about leaving edit mode the panel is still about the draft.
        _ if leaving_edit => &draft.message,
        Phase::Searching => &search.message,
        // What the game said is about the hidden board too (a hint names its cell).
        _ if hidden => "",
        _ => &play.message,
    };
    let search_view = (phase == Phase::Searching).then(|| SearchView {
        paused: search_paused,
        done: search.is_done(),
        speed: search.speed,
        speed_label: match SPEEDS[search.speed.min(SPEEDS.len() - 1)] {
            1 => "1 step/s".to_owned(),
            n => format!("{n} steps/s"),
        },
        can_slower: search.speed > 0,
        can_faster: search.speed + 1 < SPEEDS.len(),
        counts: search.counts,
        last: search.last.3.clone(),
    });

    let mut changed = set(&mut out.phase, phase);
    changed |= set(&mut out.pencil, pencil);
    changed |= set(&mut out.status, status);
    changed |= set_str(&mut out.message, message);
    changed |= if leaving_edit {
        set(&mut out.question, pending.question(&draft.what_is_lost()))
    } else if phase == Phase::Confirming {
        set(
            &mut out.question,
            pending.question(&play.what_is_lost(givens)),
        )
    } else {
        set_str(&mut out.question, "")
    };
    changed |= set(&mut out.question_title, pending.title().into());
    changed |= set(&mut out.confirm_label, pending.confirm_label().into());
    changed |= set(&mut out.cancel_label, pending.cancel_label().into());
    changed |= set(&mut out.edit_panel, editing || leaving_edit);
    changed |= set_str(&mut out.clock, clock.as_str());
    changed |= set(&mut out.hints_left, hints_left);
    let hints: Cow<'static, str> = match (&puzzle.solution, hints_left) {
        // The message says why (no solution, or several).
        (info::Solution::Multiple | info::Solution::None, _) => "No hints".into(),
        (_, 0) => "No hints left".into(),
        (_, 1) => "1 hint left".into(),
        (_, 2) => "2 hints left".into(),
        (_, 3) => "3 hints left".into(),
        (_, n) => format!("{n} hints left").into(),
    };
    changed |= set(&mut out.hints, hints);
    changed |= set(&mut out.game_info, !about_draft);
    // In edit mode the panel is about the puzzle being typed: its grade once checked.
    changed |= if about_draft && draft.start != Grid::default() && draft.start == *givens {
        // Started from the current puzzle: the heading says which one.
        set(&mut out.puzzle, format!("Editing “{}”", puzzle.name))
    } else if about_draft {
        set_str(&mut out.puzzle, "Your puzzle")
    } else {
        set_str(&mut out.puzzle, &puzzle.name)
    };
    let level: Cow<'static, str> = match (&draft.verdict, about_draft) {
        (Some(Verdict::Unique { level, .. }), true) => level.label().into(),
        (_, true) => Cow::Borrowed(""),
        (_, false) => puzzle.level.map_or(Cow::Borrowed(""), |l| l.label().into()),
    };
    changed |= set(&mut out.level, level);
    changed |= set(&mut out.can, can);
    changed |= set(&mut out.settings, *settings);
    changed |= set(&mut out.search, search_view);
    changed
}

/// `value` assigned to `slot` if it differs; whether it did.
fn set<T: PartialEq>(slot: &mut T, value: T) -> bool {
    let differs = *slot != value;
    if differs {
        *slot = value;
    }
    differs
}

/// `value` copied into `slot`'s buffer if it differs; whether it did.
fn set_str(slot: &mut String, value: &str) -> bool {
    let differs = slot != value;
    if differs {
        slot.clear();
        slot.push_str(value);
    }
    differs
}

/// [`clock_text`] on the stack: compared with the panel's clock before any string is built.
struct Clock {
    /// The text's bytes (ASCII digits and colons).
    bytes: [u8; 32],
    /// How many of them are used.
    len: usize,
}

impl Clock {
    /// The clock showing `seconds`.
    fn of(seconds: u64) -> Clock {
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
        let mut clock = Clock {
            bytes: [0; 32],
            len: 0,
        };
        if h > 0 {
            let mut digits = [0u8; 20];
            let (mut n, mut k) = (h, digits.len());
            while n > 0 {
                k -= 1;
                digits[k] = b'0' + (n % 10) as u8;
                n /= 10;
            }
            for &d in &digits[k..] {
                clock.push(d);
            }
            clock.push(b':');
            clock.two(m);
        } else if m >= 10 {
            clock.two(m);
        } else {
            clock.push(b'0' + m as u8);
        }
        clock.push(b':');
        clock.two(s);
        clock
    }

    fn push(&mut self, byte: u8) {
        self.bytes[self.len] = byte;
        self.len += 1;
    }

    fn two(&mut self, n: u64) {
        self.push(b'0' + (n / 10) as u8);
        self.push(b'0' + (n % 10) as u8);
    }

    /// The text.
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("ASCII digits and colons")
    }
}
