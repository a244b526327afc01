//! The generator: random proper puzzles of a requested [`Level`].
//!
//! Each puzzle first chooses its *aim*: the techniques of the level that its hardest step
//! should be. At most levels that is one technique of the level drawn at random; at Hard it
//! is every Hard technique but XY-Wing (see below); for [`Level::Extreme`] it is search.
//! One attempt:
//! 1. fill an empty grid at random (randomised backtracking: the cell with the fewest
//!    candidates first, its candidates in a shuffled order);
//! 2. visit the cells in a shuffled order, grouped by the requested [`Symmetry`], and empty
//!    each group unless the puzzle would lose its unique solution
//!    (`count_solutions(.., 2) != 1`) or, below [`Level::Extreme`], would need a technique
//!    the aim does not allow ([`hardest_allowed_from`], the grader's solve without steps or
//!    explanations, cut short at the first step that needs such a technique);
//! 3. *steer*: once a removal gives a puzzle whose hardest technique is in the aim, it is
//!    kept there: later removals must keep the hardest technique in the aim. So an attempt
//!    succeeds as soon as the aim comes up once on the way down, instead of only when the
//!    final, minimal puzzle happens to need it;
//! 4. what is left is minimal for those rules; it is a match when its hardest technique is of
//!    the level.
//!
//! Attempts repeat, up to [`Options::max_attempts`], until one matches; otherwise the closest
//! grade found is returned with [`Generated::exact`] false. For the first [`aimed_attempts`]
//! attempts a match is a puzzle whose hardest technique is in the aim. With an aim of one
//! technique, a puzzle of the level with another hardest technique is kept aside (the first
//! one for each technique, with a count of how many attempts gave that technique), and when
//! the aimed attempts run out the kept puzzle whose technique came up least often is
//! returned: the techniques that aims miss are the rare ones, so the fallback leans toward
//! them instead of toward the common one. Later attempts aim at any technique of the level
//! (the level's hardest technique as the limit, kept at the level once reached).
//!
//! Hard's aim. Per attempt (1000 attempts aimed at XY-Wing, and 1000 at the other Hard
//! techniques together), removal reaches an XY-Wing as the hardest step about once in nine
//! attempts, an X-Wing about once in 110, a Naked Triple once in 200, a Hidden Triple once in
//! 500 and a quad almost never (most attempts, 59 %, end with a puzzle that needs singles only:
//! random removal down to a minimal puzzle mostly gives easy ones). With one drawn technique
//! per puzzle, 133 of 200 Hard puzzles had an XY-Wing as their hardest step: an aim at a triple
//! or an X-Wing missed in two thirds of the seeds and an aim at a quad in nearly all, and their
//! fallbacks are mostly XY-Wings. So [`common_techniques`] names XY-Wing, and a Hard puzzle
//! aims first at any other Hard technique (the removal refuses a puzzle whose path needs an
//! XY-Wing or anything harder than Hard, and locks on the first Naked Triple, X-Wing, Hidden
//! Triple or quad), which hits about once in 60 attempts; 70 aimed attempts find one for about
//! 60 % of the seeds, and the other 40 % are the XY-Wings. When they miss, the first refused
//! removal whose path needed a Hard technique outside the aim and that the Hard techniques
//! solve (a Hard puzzle, in practice an XY-Wing, not minimal) is kept as a *spare*, and the
//! next attempt goes on removing givens from it, at the level, instead of starting from a new
//! grid (the fallback took about nine new attempts: one attempt in nine reaches the level).
//!
//! Some techniques are rare for a structural reason, as the grader tries the easier ones
//! first: in a house with `n` empty cells a hidden subset of `k` digits and the naked subset
//! of the other `n - k` cells make the same eliminations, so a Hidden Triple is the easiest
//! step only in a house with 7 or more empty cells, a Naked Quad with 8 or more and a Hidden
//! Quad only in an empty house; the last two are almost never the hardest step of a
//! generated puzzle.
//!
//! Cost. The aimed attempts fit Hard's budget because an attempt costs about a quarter less
//! than it did (callgrind, the same 800 attempts over four aims: 1.77 to 1.29 G
//! instructions): `subsets_of` (of the techniques) walks only the subsets of its mask
//! instead of all 512 masks (naked and hidden subsets were 18 % of an attempt), the digits
//! of each house are kept up to date across removals instead of being recounted for each
//! `forced_back`, and each check reuses the solve of the last kept puzzle, which the new
//! puzzle's solve often reaches (see [`hardest_allowed_from`]; 5 %).
//!
//! Tried and left out (the `generation` example of `sudoku-bench`, and callgrind over fixed
//! attempts): emptying one house first (fewer hits for every aim); steering by looking at
//! the next three removals that keep the puzzle and taking the one that raises its hardest
//! technique most (Naked Triple hits twice as often, but XY-Wing half as often again and
//! each attempt costs 1.5 to 2.7 times as much); when an attempt is stuck below its aim,
//! putting one removed given back and trying the others again (no more hits per millisecond
//! than new attempts); removal orders other than a shuffle, taking next the given whose
//! houses hold the most givens, or whose digit is the most frequent, or that lies in the
//! fullest house (no more hits: 26, 29 and 33 XY-Wings in 300 attempts against 33, and
//! fewer of the others); giving an attempt up when the puzzle is down to 24, 26 or 28
//! givens and still needs singles only (95, 100 and 147 M instructions per hit against 97
//! M: as many hits are lost as time is saved); skipping the search for singles after an
//! elimination that leaves none around the cells it touched (1.3 % fewer instructions, not
//! worth the code).
//!
//! Extreme needs no aim: removal keeps uniqueness only, and the attempt matches when the
//! result needs search.
//!
//! Everything random comes from one ChaCha8 stream seeded with the seed, so the same seed,
//! level, symmetry and attempt limit always give the same puzzle, on every platform.
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use rand::Rng;

use super::count_solutions;
use super::full_grid::{random_full_grid, Fill};
use super::grade::{
    grade, hardest_allowed_from, hardest_within, Grading, Level, Stages, TechniqueSet,
};
use super::techniques::{Technique, HOUSES};
use crate::datamodel::Grid;

/// How many attempts aim at the chosen techniques before any technique of the level will do
/// (see the [module docs](self)): more where the level has time to spare or needs them.
/// Measured with the `generation` example of `sudoku-bench` (200 seeds, one pinned core):
/// Expert, p95 21 ms with 40, against a 200 ms budget, so it gets five times as many; Hard
/// 70, against a 20 ms budget for Easy to Hard, as its aim hits about once in 60 attempts
/// (with 60, 93 of 200 puzzles were XY-Wings; with 80, 73, at 1.35 times the p95 of 70).
/// Extreme has no aim.
pub fn aimed_attempts(level: Level) -> usize {
    match level {
        Level::Hard => 70,
        Level::Expert => 200,
        _ => 40,
    }
}

/// The techniques of `level` that attempts reach far more often than the level's others:
/// Hard's XY-Wing (about one attempt in nine, against one in 110 to 500 for an X-Wing, a
/// Naked Triple or a Hidden Triple). A level with such techniques aims first at all its
/// other techniques together, and the common ones come from the fallback; a level without
/// them aims at one of its techniques drawn at random (see the [module docs](self)).
pub fn common_techniques(level: Level) -> TechniqueSet {
    match level {
        Level::Hard => TechniqueSet::one(Technique::XyWing),
        _ => TechniqueSet::default(),
    }
}

/// Which givens are removed together, so that the puzzle keeps a symmetric shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry: cells are removed one at a time.
    #[default]
    None,
    /// 180° rotation about the centre: `rXcY` goes with `r(10-X)c(10-Y)`.
    Rotational,
    /// Mirror about the vertical centre line: `rXcY` goes with `rXc(10-Y)`.
    Mirror,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 3] = [Symmetry::None, Symmetry::Rotational, Symmetry::Mirror];

    /// The lowercase name: `none`, `rotational`, `mirror`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The cell (index `row * 9 + column`) that goes with `cell` (itself on the axis).
    pub fn partner(self, cell: usize) -> usize {
        let (r, c) = (cell / 9, cell % 9);
        match self {
            Symmetry::None => cell,
            Symmetry::Rotational => (8 - r) * 9 + (8 - c),
            Symmetry::Mirror => r * 9 + (8 - c),
        }
    }

    /// Whether the empty cells of `grid` have this symmetry.
    pub fn holds(self, grid: &Grid) -> bool {
        let flat: Vec<u8> = grid.0.iter().flatten().copied().collect();
        (0..81).all(|i| (flat[i] == 0) == (flat[self.partner(i)] == 0))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a symmetry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown symmetry `{0}`: expected none, rotational or mirror")]
pub struct UnknownSymmetry(pub String);

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;
    /// Reads a symmetry name, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Symmetry::ALL
            .into_iter()
            .find(|y| y.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownSymmetry(s.to_owned()))
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The requested level.
    pub level: Level,
    /// The seed of the random stream.
    pub seed: u64,
    /// The shape of the givens.
    pub symmetry: Symmetry,
    /// How many full attempts before giving up with the closest grade (at least 1).
    pub max_attempts: usize,
}

impl Options {
    /// Options for `level` and `seed`, no symmetry, [`Options::DEFAULT_ATTEMPTS`] attempts.
    pub fn new(level: Level, seed: u64) -> Self {
        Options {
            level,
            seed,
            symmetry: Symmetry::None,
            max_attempts: Self::DEFAULT_ATTEMPTS,
        }
    }

    /// The default attempt limit: enough for every level with almost every seed (over seeds 1
    /// to 200, no level missed; the most attempts any needed on average was 82, at Expert,
    /// which aims for 200 attempts before taking any technique of the level).
    pub const DEFAULT_ATTEMPTS: usize = 500;
}

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The givens, `0` for an empty cell.
    pub puzzle: Grid,
    /// Its grade (with the unique solution).
    pub grading: Grading,
    /// Whether the grade is the requested level. When false, this is the attempt whose grade
    /// came closest (ties go to the earlier attempt).
    pub exact: bool,
    /// How many attempts were made (1-based).
    pub attempts: usize,
}

/// Generates a puzzle of `level` from `seed` with `symmetry` and the default attempt limit.
/// See [`generate_with`].
pub fn generate(level: Level, seed: u64, symmetry: Symmetry) -> Generated {
    generate_with(&Options {
        symmetry,
        ..Options::new(level, seed)
    })
}

/// Generates a proper puzzle (exactly one solution) as the [module docs](self) describe:
/// attempts until the grade is `options.level`, else the closest grade with `exact: false`.
/// Deterministic in `options`.
pub fn generate_with(options: &Options) -> Generated {
    generate_cancellable(options, &AtomicBool::new(false))
        .expect("a generation nobody cancels always ends with a puzzle")
}

/// Like [`generate_with`], but gives up and returns `None` soon after `cancelled` becomes
/// true (it is checked before each attempt and before each given is tried for removal, so
/// at most one uniqueness check and one grading run late). Meant for a generation on a
/// worker thread that the player may cancel; an uncancelled run gives exactly what
/// [`generate_with`] gives.
pub fn generate_cancellable(options: &Options, cancelled: &AtomicBool) -> Option<Generated> {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let level = options.level;
    let techniques: Vec<Technique> = Technique::ALL
        .into_iter()
        .filter(|&t| Level::of(t) == level)
        .collect();
    let common = common_techniques(level);
    let aimed_at = if common == TechniqueSet::default() {
        Aim::technique(techniques[rng.random_range(0..techniques.len())])
    } else {
        Aim::among(level, TechniqueSet::of_level(level).without(common))
    };
    let aimed = aimed_attempts(level);
    let mut kept = Kept::default();
    // A puzzle of the level that an aimed attempt refused, with its solution (see
    // `remove_givens`).
    let mut spare: Option<(Start, Grid)> = None;
    // The closest attempt so far: (distance to the level, puzzle).
    let mut best: Option<(u8, Grid)> = None;
    let attempts = options.max_attempts.max(1);
    let found = |puzzle: Grid, attempts: usize| {
        Some(Generated {
            grading: grade(&puzzle).expect("removal keeps exactly one solution"),
            puzzle,
            exact: true,
            attempts,
        })
    };
    for attempt in 1..=attempts {
        if cancelled.load(Ordering::Relaxed) {
            return None;
        }
        let aim = if level == Level::Extreme {
            Aim::Search
        } else if attempt <= aimed && techniques.len() > 1 {
            aimed_at
        } else {
            Aim::level(level)
        };
        // Once the aimed attempts are over, a spare of the level goes on where a new
        // attempt would start from a full grid.
        let (start, solution) = match spare.take().filter(|_| attempt > aimed) {
            Some(found) => found,
            None => {
                let solution = random_full_grid(&mut rng);
                let start = Start {
                    puzzle: solution,
                    hardest: None,
                };
                (start, solution)
            }
        };
        let wanted = (aim == aimed_at && common != TechniqueSet::default()).then_some(level);
        let descent = remove_givens(start, &solution, options, aim, &mut rng, cancelled, wanted)?;
        let (puzzle, hardest) = (descent.puzzle, descent.hardest);
        if spare.is_none() {
            spare = descent.spare.map(|s| (s, solution));
        }
        if aim.hit(hardest) {
            return found(puzzle, attempt);
        }
        let got = hardest.map_or(Level::Easy, Level::of);
        if let Some(t) = hardest.filter(|_| got == level) {
            kept.add(t, puzzle);
        }
        if attempt == aimed {
            if let Some(puzzle) = kept.rarest() {
                return found(puzzle, attempt);
            }
        }
        let distance = (got as i8 - level as i8).unsigned_abs();
        if best.as_ref().map_or(true, |&(d, _)| distance < d) {
            best = Some((distance, puzzle));
        }
    }
    if let Some(puzzle) = kept.rarest() {
        return found(puzzle, attempts);
    }
    let (_, puzzle) = best.expect("at least one attempt");
    Some(Generated {
        grading: grade(&puzzle).expect("removal keeps exactly one solution"),
        puzzle,
        exact: false,
        attempts,
    })
}

/// The puzzles of the level whose hardest technique missed the aim: for each technique, how
/// many attempts gave it and the first puzzle that did (see the [module docs](self)).
#[derive(Default)]
struct Kept(Vec<(Technique, usize, Grid)>);

impl Kept {
    /// Counts an attempt whose puzzle has `technique` as its hardest, keeping the puzzle if it
    /// is the first with it.
    fn add(&mut self, technique: Technique, puzzle: Grid) {
        match self.0.iter_mut().find(|(t, _, _)| *t == technique) {
            Some((_, n, _)) => *n += 1,
            None => self.0.push((technique, 1, puzzle)),
        }
    }

    /// The kept puzzle whose technique the attempts gave least often (of those, the technique
    /// found first); `None` before any.
    fn rarest(&self) -> Option<Grid> {
        self.0
            .iter()
            .min_by_key(|&&(_, n, _)| n)
            .map(|&(_, _, puzzle)| puzzle)
    }
}

/// What the removal of one attempt steers toward (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Aim {
    /// A kept puzzle needs only techniques of `allowed`, and once its hardest technique is in
    /// `lock` it stays in `lock`.
    Among {
        /// The techniques a kept puzzle may need.
        allowed: TechniqueSet,
        /// The hardest techniques the attempt looks for.
        lock: TechniqueSet,
    },
    /// A puzzle that needs search: removal keeps uniqueness only.
    Search,
}

impl Aim {
    /// This technique as the hardest step: nothing harder, and kept once reached.
    fn technique(t: Technique) -> Self {
        Aim::Among {
            allowed: TechniqueSet::up_to(t),
            lock: TechniqueSet::one(t),
        }
    }

    /// Any technique of `level` as the hardest step: kept at the level once reached.
    fn level(level: Level) -> Self {
        Aim::Among {
            allowed: TechniqueSet::up_to(level.hardest_technique()),
            lock: TechniqueSet::of_level(level),
        }
    }

    /// Any of `techniques` (all of one level) as the hardest step, and no other technique
    /// of their level or above: kept among them once reached.
    fn among(level: Level, techniques: TechniqueSet) -> Self {
        let below = match Level::ALL.iter().position(|&l| l == level) {
            Some(0) | None => TechniqueSet::default(),
            Some(i) => TechniqueSet::up_to(Level::ALL[i - 1].hardest_technique()),
        };
        Aim::Among {
            allowed: below.union(techniques),
            lock: techniques,
        }
    }

    /// The techniques a kept puzzle may need (everything for [`Aim::Search`]).
    #[cfg(test)]
    fn allowed(self) -> TechniqueSet {
        match self {
            Aim::Among { allowed, .. } => allowed,
            Aim::Search => TechniqueSet(u32::MAX),
        }
    }

    /// Whether a puzzle whose hardest technique is `hardest` is on the aim.
    fn hit(self, hardest: Option<Technique>) -> bool {
        match self {
            Aim::Among { lock, .. } => hardest.is_some_and(|t| lock.contains(t)),
            Aim::Search => hardest == Some(Technique::Search),
        }
    }
}

/// Where a removal starts: a proper puzzle of the solution and its hardest technique (the
/// solution itself and `None` for a new attempt).
#[derive(Clone, Copy, Debug)]
struct Start {
    puzzle: Grid,
    hardest: Option<Technique>,
}

/// What [`remove_givens`] made: the puzzle and its hardest technique ([`Technique::Search`]
/// when it needs search), and the spare it was asked for, if it found one.
struct Descent {
    puzzle: Grid,
    hardest: Option<Technique>,
    spare: Option<Start>,
}

/// Removes givens from `start` (in a shuffled order, each given once) while the puzzle stays
/// unique and within the aim, kept on the aim once it reaches it (see the [module
/// docs](self)); `None` once `cancelled` is set (checked before each removal). With
/// `spare_level`, the first removal refused because the grader's path needs a technique of
/// that level outside the aim, and which that level's techniques solve, is returned as a
/// spare: a puzzle of that level (not minimal) to go on from when the aim is missed.
fn remove_givens(
    start: Start,
    solution: &Grid,
    options: &Options,
    aim: Aim,
    rng: &mut ChaCha8Rng,
    cancelled: &AtomicBool,
    spare_level: Option<Level>,
) -> Option<Descent> {
    let mut order: Vec<usize> = (0..81)
        .filter(|&i| options.symmetry.partner(i) >= i && start.puzzle.0[i / 9][i % 9] != 0)
        .collect();
    order.shuffle(rng);
    let mut puzzle = start.puzzle;
    let mut hardest = start.hardest;
    let mut on_aim = aim.hit(hardest);
    let mut spare = None;
    // The solve of the last puzzle kept by a full check, reused by the next check (see
    // `hardest_allowed_from`); still right for a puzzle kept by `forced_back`, whose solve
    // reaches the same positions once its singles are placed.
    let mut known = Stages::default();
    // The digits of each house of `puzzle`, kept up to date (see `house_digits`).
    let mut used = house_digits(&puzzle);
    let toggle = |used: &mut [u16; 27], cell: usize, digit: u8| {
        for h in Fill::houses(cell) {
            used[h] ^= 1 << (digit - 1);
        }
    };
    for i in order {
        if cancelled.load(Ordering::Relaxed) {
            return None;
        }
        let j = options.symmetry.partner(i);
        let saved = (puzzle.0[i / 9][i % 9], puzzle.0[j / 9][j % 9]);
        puzzle.0[i / 9][i % 9] = 0;
        puzzle.0[j / 9][j % 9] = 0;
        toggle(&mut used, i, saved.0);
        if j != i {
            toggle(&mut used, j, saved.1);
        }
        let put_back = |puzzle: &mut Grid, used: &mut [u16; 27]| {
            puzzle.0[i / 9][i % 9] = saved.0;
            puzzle.0[j / 9][j % 9] = saved.1;
            toggle(used, i, saved.0);
            if j != i {
                toggle(used, j, saved.1);
            }
        };
        // A removed given that comes straight back as a single changes nothing but the
        // singles used (see `forced_back`): no search and no solve needed.
        if let Some(single) = forced_back_with(&mut puzzle, &mut used, solution, i, j) {
            let h = hardest.max(Some(single));
            if single == Technique::HiddenSingle || hardest >= Some(Technique::NakedSingle) {
                if !on_aim || aim.hit(h) {
                    hardest = h;
                    on_aim = aim.hit(h);
                } else {
                    put_back(&mut puzzle, &mut used);
                }
                continue;
            }
        }
        // (The search first: most removals late in an attempt lose uniqueness, and the
        // search tells that in microseconds, where a solve tries every technique first.)
        let keep = count_solutions(&puzzle, 2) == 1
            && (aim == Aim::Search || {
                let (h, solved, stages) = match aim {
                    Aim::Among { allowed, .. } => hardest_allowed_from(&puzzle, allowed, &known),
                    Aim::Search => unreachable!("checked above"),
                };
                let keep = solved && (!on_aim || aim.hit(h));
                if keep {
                    hardest = h;
                    on_aim = aim.hit(h);
                    known = stages;
                } else if let Some(level) = spare_level.filter(|_| spare.is_none()) {
                    let of_level = h.is_some_and(|t| Level::of(t) == level);
                    if !solved && of_level {
                        let (h, solved) = hardest_within(&puzzle, level.hardest_technique());
                        if solved && h.is_some_and(|t| Level::of(t) == level) {
                            spare = Some(Start { puzzle, hardest: h });
                        }
                    }
                }
                keep
            });
        if !keep {
            put_back(&mut puzzle, &mut used);
        }
    }
    debug_assert_eq!(used, house_digits(&puzzle));
    if aim == Aim::Search {
        let (h, solved) = hardest_within(&puzzle, Technique::Jellyfish);
        hardest = if solved { h } else { Some(Technique::Search) };
    }
    Some(Descent {
        puzzle,
        hardest,
        spare,
    })
}

/// Whether the givens removed at cells `i` and `j` (the same cell without symmetry) of
/// `puzzle` come straight back as singles, one after the other, in either order: the
/// harder single technique that takes, or `None`. `puzzle` is left as it was.
///
/// When they do, the removal keeps the puzzle unique, and its easiest-first solve is the
/// one of the puzzle before the removal once those singles are placed: batched singles
/// reach the same position whatever their order (see `singles::place_all`), so the
/// hardest technique is the old one or this single, whichever is harder. (Exactly so for a
/// hidden single; a naked single that a later hidden single would have found too is
/// ambiguous, which the caller settles with a full solve.)
#[cfg(test)]
fn forced_back(puzzle: &mut Grid, solution: &Grid, i: usize, j: usize) -> Option<Technique> {
    forced_back_with(puzzle, &mut house_digits(puzzle), solution, i, j)
}

/// The digits of each house of `grid` (rows, columns, boxes, as in [`Fill`]), as masks.
fn house_digits(grid: &Grid) -> [u16; 27] {
    let mut used = [0u16; 27];
    for (k, &v) in grid.0.as_flattened().iter().enumerate() {
        if v != 0 {
            for h in Fill::houses(k) {
                used[h] |= 1 << (v - 1);
            }
        }
    }
    used
}

/// [`forced_back`] with the digits of each house of `puzzle` (see [`house_digits`]) kept
/// by the caller: `used` is left as it was.
fn forced_back_with(
    puzzle: &mut Grid,
    used: &mut [u16; 27],
    solution: &Grid,
    i: usize,
    j: usize,
) -> Option<Technique> {
    let mut try_order = |first: usize, second: usize| {
        let a = single_at(puzzle, used, solution, first)?;
        if first == second {
            return Some(a);
        }
        let digit = solution.0[first / 9][first % 9];
        puzzle.0[first / 9][first % 9] = digit;
        for h in Fill::houses(first) {
            used[h] ^= 1 << (digit - 1);
        }
        let b = single_at(puzzle, used, solution, second);
        puzzle.0[first / 9][first % 9] = 0;
        for h in Fill::houses(first) {
            used[h] ^= 1 << (digit - 1);
        }
        Some(a.max(b?))
    };
    try_order(i, j).or_else(|| try_order(j, i))
}

/// Whether the empty cell `i` of `puzzle` (whose houses hold the digits `used`, as in
/// [`forced_back`]) holds a single of its solution digit straight from the givens:
/// [`Technique::HiddenSingle`] when the digit has no other place in one of its houses, else
/// [`Technique::NakedSingle`] when the cell has no other candidate.
fn single_at(puzzle: &Grid, used: &[u16; 27], solution: &Grid, i: usize) -> Option<Technique> {
    let blocked = |k: usize| {
        let [a, b, c] = Fill::houses(k);
        used[a] | used[b] | used[c]
    };
    let digit = 1u16 << (solution.0[i / 9][i % 9] - 1);
    let flat = puzzle.0.as_flattened();
    let hidden = Fill::houses(i).into_iter().any(|h| {
        HOUSES[h].iter().all(|&k| {
            let k = usize::from(k);
            k == i || flat[k] != 0 || blocked(k) & digit != 0
        })
    });
    if hidden {
        Some(Technique::HiddenSingle)
    } else if blocked(i) | digit == 0x1FF {
        Some(Technique::NakedSingle)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grade::hardest_allowed;

    #[test]
    fn easy_puzzle_is_unique_easy_and_reproducible() {
        let a = generate(Level::Easy, 42, Symmetry::None);
        assert!(a.exact);
        assert_eq!(a.grading.level, Level::Easy);
        assert_eq!(count_solutions(&a.puzzle, 2), 1);
        assert_eq!(generate(Level::Easy, 42, Symmetry::None), a);
    }

    #[test]
    fn symmetry_is_kept() {
        for symmetry in [Symmetry::Rotational, Symmetry::Mirror] {
            let g = generate(Level::Medium, 3, symmetry);
            assert!(symmetry.holds(&g.puzzle), "{symmetry}");
            assert_eq!(count_solutions(&g.puzzle, 2), 1);
        }
        assert_eq!("Mirror".parse(), Ok(Symmetry::Mirror));
        assert!("diagonal".parse::<Symmetry>().is_err());
    }

    #[test]
    fn a_cancelled_generation_stops_and_an_uncancelled_one_matches() {
        let options = Options::new(Level::Medium, 11);
        let done = generate_cancellable(&options, &AtomicBool::new(false));
        assert_eq!(done, Some(generate_with(&options)));
        assert_eq!(generate_cancellable(&options, &AtomicBool::new(true)), None);
    }

    /// The shortcut of `remove_givens` gives what a full solve gives: along random removal
    /// paths (with and without symmetry), whenever the removed givens come back as singles,
    /// the old hardest technique combined with that single is the new one.
    #[test]
    fn givens_that_come_back_as_singles_keep_the_grade() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut checked = 0;
        for (k, symmetry) in [Symmetry::None, Symmetry::Rotational]
            .into_iter()
            .enumerate()
        {
            for _ in 0..3 {
                let solution = random_full_grid(&mut rng);
                let mut order: Vec<usize> = (0..81).filter(|&i| symmetry.partner(i) >= i).collect();
                order.shuffle(&mut rng);
                let mut puzzle = solution;
                let mut hardest = None;
                for i in order {
                    let j = symmetry.partner(i);
                    puzzle.0[i / 9][i % 9] = 0;
                    puzzle.0[j / 9][j % 9] = 0;
                    let single = forced_back(&mut puzzle, &solution, i, j);
                    let unique = count_solutions(&puzzle, 2) == 1;
                    let (h, solved) = hardest_within(&puzzle, Technique::Jellyfish);
                    if let Some(single) = single {
                        assert!(unique, "{k}");
                        assert!(solved || hardest == Some(Technique::Search));
                        let exact = single == Technique::HiddenSingle
                            || hardest >= Some(Technique::NakedSingle);
                        if exact && solved {
                            assert_eq!(h, hardest.max(Some(single)), "cells {i} and {j}");
                            checked += 1;
                        }
                    }
                    if unique {
                        hardest = if solved { h } else { Some(Technique::Search) };
                    } else {
                        puzzle.0[i / 9][i % 9] = solution.0[i / 9][i % 9];
                        puzzle.0[j / 9][j % 9] = solution.0[j / 9][j % 9];
                    }
                }
            }
        }
        assert!(checked > 50, "{checked}");
    }

    /// Reusing the solve of the last kept puzzle changes no answer: along random removal
    /// paths, `hardest_allowed_from` with the stages of the last kept puzzle gives what
    /// `hardest_allowed` gives, for several sets of allowed techniques.
    #[test]
    fn reused_solves_give_the_grade_of_a_fresh_solve() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let hard = TechniqueSet::of_level(Level::Hard);
        let sets = [
            TechniqueSet::up_to(Technique::Jellyfish),
            TechniqueSet::up_to(Technique::XWing),
            Aim::among(
                Level::Hard,
                hard.without(TechniqueSet::one(Technique::XyWing)),
            )
            .allowed(),
        ];
        let mut reused = 0;
        for allowed in sets {
            for _ in 0..4 {
                let solution = random_full_grid(&mut rng);
                let mut order: Vec<usize> = (0..81).collect();
                order.shuffle(&mut rng);
                let mut puzzle = solution;
                let mut known = Stages::default();
                for i in order {
                    puzzle.0[i / 9][i % 9] = 0;
                    let fresh = hardest_allowed(&puzzle, allowed);
                    reused += usize::from(!known.is_empty());
                    let (h, solved, stages) = hardest_allowed_from(&puzzle, allowed, &known);
                    assert_eq!((h, solved), fresh, "cell {i}");
                    if count_solutions(&puzzle, 2) == 1 && solved {
                        known = stages;
                    } else {
                        puzzle.0[i / 9][i % 9] = solution.0[i / 9][i % 9];
                    }
                }
            }
        }
        assert!(reused > 100, "{reused}");
    }

    #[test]
    fn hard_puzzles_vary_in_their_hardest_technique() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..12 {
            let g = generate(Level::Hard, seed, Symmetry::None);
            assert_eq!(g.grading.level, Level::Hard);
            seen.insert(g.grading.hardest);
        }
        assert!(seen.len() >= 3, "{seen:?}");
    }

    #[test]
    fn a_missed_aim_falls_back_on_the_rarest_technique_found() {
        let grid = |v: u8| {
            let mut g = Grid::default();
            g.0[0][0] = v;
            g
        };
        let mut kept = Kept::default();
        assert_eq!(kept.rarest(), None);
        for (t, v) in [
            (Technique::XyWing, 1),
            (Technique::XWing, 2),
            (Technique::XyWing, 3),
            (Technique::NakedTriple, 4),
            (Technique::XWing, 5),
        ] {
            kept.add(t, grid(v));
        }
        // X-Wing and XY-Wing came twice (the first puzzle of each is kept), Naked Triple once.
        assert_eq!(kept.rarest(), Some(grid(4)));
        kept.add(Technique::NakedTriple, grid(6));
        assert_eq!(
            kept.rarest(),
            Some(grid(1)),
            "ties go to the first technique found"
        );
    }

    #[test]
    fn closest_grade_is_flagged() {
        // One attempt cannot always hit Extreme; whatever comes back is honest about it.
        let g = generate_with(&Options {
            max_attempts: 1,
            ..Options::new(Level::Extreme, 1)
        });
        assert_eq!(g.exact, g.grading.level == Level::Extreme);
        assert_eq!(g.attempts, 1);
    }
}
