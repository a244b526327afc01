//! Grading: how hard a puzzle is for a person, by the hardest technique it needs.
//!
//! The puzzle is solved by [`HumanSolver`], which always applies the easiest technique that
//! works (in the order of [`Technique::ALL`]); the grade is the [`Level`] of the hardest
//! technique used on the way. A puzzle that no technique of the list finishes "needs search":
//! that is [`Level::Extreme`].
//!
//! | level | techniques (the hardest one needed) |
//! |---|---|
//! | [`Easy`](Level::Easy) | hidden single, naked single |
//! | [`Medium`](Level::Medium) | locked candidates (pointing, claiming), naked pair, hidden pair |
//! | [`Hard`](Level::Hard) | naked and hidden triples and quads, X-Wing, XY-Wing |
//! | [`Expert`](Level::Expert) | Skyscraper, Swordfish, XYZ-Wing, W-Wing, unique rectangle type 1, simple colouring, Jellyfish |
//! | [`Extreme`](Level::Extreme) | none of the above finishes it: it needs search (trial and error) |
//!
//! The split follows HoDoKu's levels (Easy: singles; Medium: locked candidates and subsets;
//! Hard: fish, wings and uniqueness; Unfair/Extreme beyond), moved a step so that only pairs are
//! Medium and the single-digit patterns and Jellyfish, which players find late, are Expert.
//! Sudoku Explainer's ratings give the same order: singles 1.2-2.3, locked candidates
//! 2.6-2.8, pairs 3.0-3.4, X-Wing 3.2, triples 3.6-4.0, XY-Wing 4.2, XYZ-Wing 4.4, quads and
//! Jellyfish 5.0-5.4.

use std::fmt;
use std::str::FromStr;

use super::techniques::{singles, Board, HumanSolver, SolvePath, Step, Technique};
use super::{classify, Clash, Classification};
use crate::datamodel::Grid;

/// A difficulty level, easiest first. See the [module docs](self) for the techniques of each.
/// Serializes as its lowercase [name](Level::name).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Singles only.
    Easy,
    /// Locked candidates and pairs.
    Medium,
    /// Triples, quads, X-Wing, XY-Wing.
    Hard,
    /// Swordfish, Jellyfish, XYZ-Wing, W-Wing, Skyscraper, simple colouring, unique rectangle.
    Expert,
    /// Needs search.
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];

    /// The level of a technique.
    pub fn of(technique: Technique) -> Level {
        match technique {
            Technique::HiddenSingle | Technique::NakedSingle => Level::Easy,
            Technique::Pointing
            | Technique::Claiming
            | Technique::NakedPair
            | Technique::HiddenPair => Level::Medium,
            Technique::NakedTriple
            | Technique::XWing
            | Technique::HiddenTriple
            | Technique::XyWing
            | Technique::NakedQuad
            | Technique::HiddenQuad => Level::Hard,
            Technique::Skyscraper
            | Technique::Swordfish
            | Technique::XyzWing
            | Technique::WWing
            | Technique::UniqueRectangle1
            | Technique::SimpleColouring
            | Technique::Jellyfish => Level::Expert,
            Technique::Search => Level::Extreme,
        }
    }

    /// The hardest technique of this level: a solver limited to it solves exactly the
    /// puzzles of this level or easier.
    pub fn hardest_technique(self) -> Technique {
        *Technique::ALL
            .iter()
            .rev()
            .find(|&&t| Level::of(t) == self)
            .unwrap_or(&Technique::Search)
    }

    /// The lowercase name: `easy`, `medium`, `hard`, `expert`, `extreme`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }

    /// The name as a heading shows it: `Easy`, `Medium`, `Hard`, `Expert`, `Extreme`.
    pub fn label(self) -> &'static str {
        match self {
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Hard => "Hard",
            Level::Expert => "Expert",
            Level::Extreme => "Extreme",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level `{0}`: expected easy, medium, hard, expert or extreme")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;
    /// Reads a level name, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel(s.to_owned()))
    }
}

/// Why a grid is not a proper puzzle (one with exactly one solution).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImproperPuzzle {
    /// Givens clash (the same digit twice in a house): every clash, as
    /// [`classify`](super::classify()) reports them.
    #[error("invalid: {}", describe_clashes(.0))]
    Invalid(Vec<Clash>),
    /// No grid completes the givens.
    #[error("no solution")]
    NoSolution,
    /// More than one grid completes the givens.
    #[error("more than one solution")]
    MultipleSolutions,
}

/// `5 twice in row 1 (r1c1 and r1c9); ...`, or a word about values above 9.
pub(crate) fn describe_clashes(clashes: &[Clash]) -> String {
    if clashes.is_empty() {
        return "a cell holds a value that is not a digit".to_owned();
    }
    clashes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The unique solution of `givens`, or why there is none.
pub fn unique_solution(givens: &Grid) -> Result<Grid, ImproperPuzzle> {
    match classify(givens) {
        Classification::Unique(solution) => Ok(solution),
        Classification::Multiple => Err(ImproperPuzzle::MultipleSolutions),
        Classification::None => Err(ImproperPuzzle::NoSolution),
        Classification::Invalid(clashes) => Err(ImproperPuzzle::Invalid(clashes)),
    }
}

/// A puzzle's grade and the human solving path behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grading {
    /// The level of the hardest technique used.
    pub level: Level,
    /// The hardest technique used; `None` for a grid with no empty cell.
    pub hardest: Option<Technique>,
    /// The steps of the easiest-first solve, up to and including the first
    /// [`Technique::Search`] step if the techniques ran out.
    pub steps: Vec<Step>,
    /// The unique solution.
    pub solution: Grid,
}

/// Grades a puzzle: solves it with [`HumanSolver`], easiest technique first, and takes the
/// level of the hardest technique it needed (see the [module docs](self)).
///
/// # Errors
/// [`ImproperPuzzle`] unless the puzzle has exactly one solution (unique rectangles and the
/// grade itself assume one).
pub fn grade(givens: &Grid) -> Result<Grading, ImproperPuzzle> {
    let solution = unique_solution(givens)?;
    let SolvePath { steps, .. } =
        HumanSolver::default().solve(Board::new(givens), Some(&solution), true);
    let hardest = steps.iter().map(|s| s.technique).max();
    Ok(Grading {
        level: hardest.map_or(Level::Easy, Level::of),
        hardest,
        steps,
        solution,
    })
}

/// The level and the hardest technique of a proper puzzle, exactly as [`grade`] finds them,
/// without the steps: nothing is explained or kept, so this is the cheap way to sort puzzles
/// by level (`sudoku grade` without `--steps`). `hardest` is `None` for a full grid.
///
/// # Errors
/// [`ImproperPuzzle`] unless the puzzle has exactly one solution.
pub fn grade_level(givens: &Grid) -> Result<(Level, Option<Technique>), ImproperPuzzle> {
    unique_solution(givens)?;
    let (hardest, solved) = hardest_within(givens, Technique::Jellyfish);
    let hardest = if solved {
        hardest
    } else {
        Some(Technique::Search)
    };
    Ok((hardest.map_or(Level::Easy, Level::of), hardest))
}

/// The easiest-first solve of `givens` with the techniques up to `max` (in [`Technique::ALL`]
/// order): the hardest technique it used (`None` when it needed none) and whether it solved
/// the puzzle. This is the path of `HumanSolver { max }` without a solution to fall back on,
/// so the answer is the one its steps give, but no step is made for a single (they are
/// placed in batches, see `singles::place_all`) and no explanation is written
/// ([`Board::quiet`]). Assumes a proper puzzle, as the unique rectangle deduction does.
pub fn hardest_within(givens: &Grid, max: Technique) -> (Option<Technique>, bool) {
    hardest_allowed(givens, TechniqueSet::up_to(max))
}

/// The easiest-first solve of `givens` (as [`hardest_within`]) that gives up at the first
/// step whose easiest technique is not in `allowed`: the hardest technique used (that one
/// included, when it gave up) and whether it solved the puzzle. Singles are always allowed.
/// With `allowed` every technique up to some `max`, this is `hardest_within(givens, max)`;
/// with a gap (say, Hard without XY-Wing) it is the grader's path cut short where that path
/// needs a technique of the gap, so a puzzle it solves has the grade the grader gives it.
pub fn hardest_allowed(givens: &Grid, allowed: TechniqueSet) -> (Option<Technique>, bool) {
    let max = allowed.hardest().unwrap_or(Technique::NakedSingle);
    let mut board = Board::new(givens).quiet();
    let mut hardest = None;
    loop {
        hardest = hardest.max(singles::place_all(&mut board));
        if board.is_solved() {
            return (hardest, true);
        }
        if board.is_broken() {
            return (hardest, false);
        }
        let step = Technique::ALL[2..]
            .iter()
            .take_while(|&&t| t <= max)
            .find_map(|t| t.find(&board));
        let Some(step) = step else {
            return (hardest, false);
        };
        hardest = hardest.max(Some(step.technique));
        if !allowed.contains(step.technique) {
            return (hardest, false);
        }
        board.apply(&step);
    }
}

/// The positions of a solve that [`hardest_allowed_from`] found: each batch of singles'
/// end (the board, before the next technique), with the techniques the solve uses from there
/// to the end. Empty for a solve that failed (or has not been made).
#[derive(Clone, Debug, Default)]
pub struct Stages(Vec<Stage>);

impl Stages {
    /// Whether no position is known.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One position of [`Stages`].
#[derive(Clone, Debug)]
struct Stage {
    board: Board,
    /// How many cells `board` has filled (to compare only boards that can be equal).
    filled: u8,
    /// The techniques the solve uses from `board` on (singles included).
    rest: TechniqueSet,
}

/// [`hardest_allowed`], reusing the solve `known` of another puzzle (typically the puzzle
/// with one more given): as soon as this solve reaches a position of `known` (the same
/// digits and the same candidates), the rest of its path is `known`'s, as the solve is
/// deterministic from a position, so it is not made again. Also returns this solve's
/// [`Stages`] (empty when it did not solve the puzzle), to pass as `known` later. Exactly
/// [`hardest_allowed`]'s answer whatever `known` holds, as long as `known` came from this
/// function (any puzzle, any `allowed`).
pub fn hardest_allowed_from(
    givens: &Grid,
    allowed: TechniqueSet,
    known: &Stages,
) -> (Option<Technique>, bool, Stages) {
    let max = allowed.hardest().unwrap_or(Technique::NakedSingle);
    let singles_ok = TechniqueSet::up_to(Technique::NakedSingle);
    let mut board = Board::new(givens).quiet();
    let mut hardest = None;
    // This solve's positions, each with the techniques used right after it (the step and
    // the singles that follow it); `rest` is filled in at the end.
    let mut path: Vec<Stage> = Vec::new();
    hardest = hardest.max(singles::place_all(&mut board));
    loop {
        let filled = board.values.iter().filter(|&&v| v != 0).count() as u8;
        // (A known rest that needs a technique not allowed here is not taken: the answer
        // must name the first such step, which the solve finds on its own.)
        let reached = known.0.iter().position(|k| {
            k.filled == filled
                && k.rest.without(allowed.union(singles_ok)) == TechniqueSet::default()
                && k.board == board
        });
        // The path ends here (solved) or goes on as `known`'s does from `j`.
        let tail = match reached {
            Some(j) => Some(&known.0[j..]),
            None if board.is_solved() => Some(&known.0[..0]),
            None => None,
        };
        if let Some(tail) = tail {
            let tail_rest = tail.first().map_or(TechniqueSet::default(), |k| k.rest);
            hardest = hardest.max(tail_rest.hardest());
            let mut rest = tail_rest;
            for stage in path.iter_mut().rev() {
                rest = rest.union(stage.rest);
                stage.rest = rest;
            }
            path.extend(tail.iter().cloned());
            return (hardest, true, Stages(path));
        }
        if board.is_broken() {
            return (hardest, false, Stages::default());
        }
        let step = Technique::ALL[2..]
            .iter()
            .take_while(|&&t| t <= max)
            .find_map(|t| t.find(&board));
        let Some(step) = step else {
            return (hardest, false, Stages::default());
        };
        hardest = hardest.max(Some(step.technique));
        if !allowed.contains(step.technique) {
            return (hardest, false, Stages::default());
        }
        let mut after = TechniqueSet::one(step.technique);
        let position = board.clone();
        board.apply(&step);
        let batch = singles::place_all(&mut board);
        if let Some(t) = batch {
            after = after.with(t);
        }
        hardest = hardest.max(batch);
        path.push(Stage {
            board: position,
            filled,
            rest: after,
        });
    }
}

/// A set of techniques (technique `t` is bit `t as u32` of the mask).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TechniqueSet(pub u32);

impl TechniqueSet {
    /// The set of one technique.
    pub const fn one(t: Technique) -> Self {
        TechniqueSet(1 << t as u32)
    }

    /// Every technique up to `max` in [`Technique::ALL`] order, `max` included.
    pub const fn up_to(max: Technique) -> Self {
        TechniqueSet((2 << max as u32) - 1)
    }

    /// The techniques of `level`.
    pub fn of_level(level: Level) -> Self {
        Technique::ALL
            .into_iter()
            .filter(|&t| Level::of(t) == level)
            .fold(TechniqueSet::default(), |s, t| s.with(t))
    }

    /// The techniques of both sets.
    pub const fn union(self, other: Self) -> Self {
        TechniqueSet(self.0 | other.0)
    }

    /// The techniques of `self` that are not in `other`.
    pub const fn without(self, other: Self) -> Self {
        TechniqueSet(self.0 & !other.0)
    }

    /// The set with `t` added.
    pub const fn with(self, t: Technique) -> Self {
        TechniqueSet(self.0 | 1 << t as u32)
    }

    /// Whether `t` is in the set.
    pub const fn contains(self, t: Technique) -> bool {
        self.0 & 1 << t as u32 != 0
    }

    /// The hardest technique of the set (last in [`Technique::ALL`] order); `None` if empty.
    pub fn hardest(self) -> Option<Technique> {
        Technique::ALL.into_iter().rev().find(|&t| self.contains(t))
    }
}

/// Whether the techniques of `level` and easier solve `givens` without search: that is,
/// whether a proper puzzle's grade is at most `level`. Cheaper than [`grade`] (no solution
/// count, no harder technique tried, no steps: see [`hardest_within`]). Assumes a proper
/// puzzle: the unique rectangle deduction (Expert) is sound only then.
pub fn solvable_within(givens: &Grid, level: Level) -> bool {
    level == Level::Extreme || hardest_within(givens, level.hardest_technique()).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse;

    #[test]
    fn levels_parse_and_map() {
        assert_eq!("Hard".parse::<Level>(), Ok(Level::Hard));
        assert!("harder".parse::<Level>().is_err());
        assert_eq!(Level::Easy.hardest_technique(), Technique::NakedSingle);
        assert_eq!(Level::Medium.hardest_technique(), Technique::HiddenPair);
        assert_eq!(Level::Hard.hardest_technique(), Technique::HiddenQuad);
        assert_eq!(Level::Expert.hardest_technique(), Technique::Jellyfish);
        assert_eq!(Level::Extreme.hardest_technique(), Technique::Search);
        // Levels never go down along the technique order.
        for pair in Technique::ALL.windows(2) {
            assert!(Level::of(pair[0]) <= Level::of(pair[1]), "{pair:?}");
        }
    }

    #[test]
    fn grades_of_known_puzzles() {
        // Qt's example puzzle: singles only.
        let qt = parse(
            "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...",
        )
        .unwrap();
        let g = grade(&qt).unwrap();
        assert_eq!(g.level, Level::Easy);
        assert!(g.steps.iter().all(|s| s.placements.len() == 1));
        assert!(solvable_within(&qt, Level::Easy));

        // The first of the forum's "hardest 1106": needs search.
        let hardest = parse(
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        )
        .unwrap();
        let g = grade(&hardest).unwrap();
        assert_eq!(g.level, Level::Extreme);
        assert_eq!(g.hardest, Some(Technique::Search));
        assert!(!solvable_within(&hardest, Level::Expert));

        // A solved grid needs nothing.
        let g = grade(&g.solution.clone()).unwrap();
        assert_eq!((g.level, g.hardest), (Level::Easy, None));
    }

    #[test]
    fn technique_sets() {
        let hard = TechniqueSet::of_level(Level::Hard);
        assert_eq!(hard.hardest(), Some(Technique::HiddenQuad));
        assert!(hard.contains(Technique::XyWing) && !hard.contains(Technique::HiddenPair));
        let up_to_pairs = TechniqueSet::up_to(Technique::HiddenPair);
        assert_eq!(
            up_to_pairs.union(hard),
            TechniqueSet::up_to(Technique::HiddenQuad)
        );
        let gap = hard.without(TechniqueSet::one(Technique::XyWing));
        assert!(!gap.contains(Technique::XyWing) && gap.contains(Technique::NakedQuad));
        assert_eq!(TechniqueSet::default().hardest(), None);
        assert_eq!(
            TechniqueSet::one(Technique::Search).hardest(),
            Some(Technique::Search)
        );
    }

    /// A gap in the allowed techniques stops the solve where the grader's path needs one of
    /// them, and the answer names it; without the gap the same solve goes on.
    #[test]
    fn a_solve_stops_at_a_technique_it_may_not_use() {
        let g = (0..40)
            .map(|seed| crate::engine::generate(Level::Hard, seed, Default::default()))
            .find(|g| g.grading.hardest == Some(Technique::XyWing))
            .expect("an XY-Wing puzzle among 40 Hard ones");
        let all_hard = TechniqueSet::up_to(Technique::HiddenQuad);
        assert_eq!(
            hardest_allowed(&g.puzzle, all_hard),
            (Some(Technique::XyWing), true)
        );
        let gap = all_hard.without(TechniqueSet::one(Technique::XyWing));
        assert_eq!(
            hardest_allowed(&g.puzzle, gap),
            (Some(Technique::XyWing), false)
        );
        let (h, solved, stages) = hardest_allowed_from(&g.puzzle, all_hard, &Stages::default());
        assert_eq!((h, solved), (Some(Technique::XyWing), true));
        assert!(!stages.is_empty());
        // The same solve reuses the known positions; with the gap it makes its own.
        let again = hardest_allowed_from(&g.puzzle, all_hard, &stages);
        assert_eq!((again.0, again.1), (Some(Technique::XyWing), true));
        let stopped = hardest_allowed_from(&g.puzzle, gap, &stages);
        assert_eq!((stopped.0, stopped.1), (Some(Technique::XyWing), false));
        assert!(stopped.2.is_empty());
    }

    #[test]
    fn improper_puzzles_are_refused() {
        assert_eq!(
            grade(&Grid::default()),
            Err(ImproperPuzzle::MultipleSolutions)
        );
        let clash = parse(
            ".4.1..35.............2.5......4.89..26.....12.5.3....7..4...16.6....7....1..8..2.",
        );
        // The parser refuses clashing givens, so build the grid by hand.
        assert!(clash.is_err());
        let mut g = Grid::default();
        g.0[0][0] = 5;
        g.0[0][8] = 5;
        let e = grade(&g).unwrap_err();
        assert_eq!(e.to_string(), "invalid: 5 twice in row 1 (r1c1 and r1c9)");
    }
}
