//! Human solving techniques: a candidates board and one finder per technique, each returning a
//! [`Step`] that says in Sudoku terms what it uses, what it places and what it removes.
//!
//! The finders only look at the pencil marks of a [`Board`] (each empty cell's candidates,
//! computed from the placed digits and narrowed by earlier steps); none of them guesses. They
//! are tried in the order of [`Technique::ALL`], easiest first, which is also the order of the
//! grade levels (see [the grade module](mod@crate::engine::grade)). The names and definitions
//! follow the HoDoKu technique pages (<https://hodoku.sourceforge.net/en/techniques.php>) and Sudoku
//! Explainer's rating list; each technique's variant documents its pattern.
//!
//! Notation: `r4c7` is the cell in row 4, column 7 (1-based); `r4c7=5` is the candidate 5 of
//! that cell, `r4c7<>5` removes it. Houses are rows, columns and boxes; boxes are numbered 1 to
//! 9 in reading order.
//!
//! Families, one file each: [`singles`], [`intersections`] (locked candidates), [`subsets`]
//! (naked and hidden pairs, triples, quads), [`fish`] (X-Wing, Swordfish, Jellyfish),
//! [`wings`] (XY-Wing, XYZ-Wing, W-Wing), [`single_digit`] (Skyscraper, simple colouring) and
//! [`uniqueness`] (unique rectangle type 1).

use std::fmt;

use crate::datamodel::Grid;
pub use crate::engine::House;

pub mod fish;
pub mod intersections;
pub mod single_digit;
pub mod singles;
pub mod subsets;
pub mod uniqueness;
pub mod wings;

/// The mask of all nine digits: digit `d` is bit `d - 1`.
pub(crate) const ALL: u16 = 0x1FF;

/// The mask bit of a digit `1..=9`.
pub(crate) const fn bit(digit: u8) -> u16 {
    1 << (digit - 1)
}

/// The digits of a mask, ascending.
pub(crate) fn digits(mask: u16) -> impl Iterator<Item = u8> {
    (1..=9u8).filter(move |&d| mask & bit(d) != 0)
}

/// The 27 houses as cell indices (`row * 9 + column`): rows 0-8, columns 9-17, boxes 18-26.
pub(crate) const HOUSES: [[u8; 9]; 27] = {
    let mut houses = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            houses[i][j] = (i * 9 + j) as u8;
            houses[9 + i][j] = (j * 9 + i) as u8;
            houses[18 + i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    houses
};

/// A cell of the grid, by its index `row * 9 + column` (both 0-based). Displays as `r1c1`
/// (1-based), as in HoDoKu and Sudoku Explainer; serializes as the bare index.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Cell(pub u8);

impl Cell {
    /// The cell at a 0-based row and column (both `0..9`).
    pub fn new(row: usize, col: usize) -> Self {
        debug_assert!(row < 9 && col < 9);
        Cell((row * 9 + col) as u8)
    }
    /// The 0-based index `row * 9 + column`.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
    /// The 0-based row.
    pub fn row(self) -> usize {
        self.index() / 9
    }
    /// The 0-based column.
    pub fn col(self) -> usize {
        self.index() % 9
    }
    /// The 0-based box, in reading order.
    pub fn box_index(self) -> usize {
        self.row() / 3 * 3 + self.col() / 3
    }
    /// Whether two different cells share a row, column or box.
    pub fn sees(self, other: Cell) -> bool {
        self != other
            && (self.row() == other.row()
                || self.col() == other.col()
                || self.box_index() == other.box_index())
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// The house of an index into the 27 houses: rows `0..9`, columns `9..18`, boxes `18..27`.
pub fn house(index: usize) -> House {
    let i = (index % 9) as u8;
    match index / 9 {
        0 => House::Row(i),
        1 => House::Column(i),
        _ => House::Box(i),
    }
}

/// The index of a house among the 27 (inverse of [`house`]).
pub fn house_index(house: House) -> usize {
    match house {
        House::Row(i) => usize::from(i),
        House::Column(i) => 9 + usize::from(i),
        House::Box(i) => 18 + usize::from(i),
    }
}

/// The nine cells of a house, in reading order for rows and boxes, top to bottom for columns.
pub fn house_cells(house: House) -> impl Iterator<Item = Cell> {
    HOUSES[house_index(house)].into_iter().map(Cell)
}

/// A digit in a cell: a placement, or a pencil mark that a step uses or removes. Displays as
/// `r1c1=5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The cell.
    pub cell: Cell,
    /// The digit, `1..=9`.
    pub digit: u8,
}

impl Candidate {
    /// The candidate `digit` of `cell`.
    pub fn new(cell: Cell, digit: u8) -> Self {
        Candidate { cell, digit }
    }
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.cell, self.digit)
    }
}

/// The techniques, easiest first: the order in which the solver tries them (roughly Sudoku
/// Explainer's ratings, grouped by grade level).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// A digit that has one place left in a house goes there.
    HiddenSingle,
    /// A cell that has one candidate left takes it.
    NakedSingle,
    /// Locked candidates type 1: when a digit's places in a box all lie in one row (column),
    /// the digit goes in that box, so the rest of the row (column) loses it.
    Pointing,
    /// Locked candidates type 2: when a digit's places in a row (column) all lie in one box,
    /// the rest of the box loses it.
    Claiming,
    /// Two cells of a house with the same two candidates: those digits go in those cells, so
    /// the house's other cells lose them.
    NakedPair,
    /// Two digits with the same two places in a house: those cells hold them, so they lose
    /// their other candidates.
    HiddenPair,
    /// Three cells of a house whose candidates together are three digits (naked pair,
    /// generalised): the house's other cells lose those digits.
    NakedTriple,
    /// A digit confined to the same two columns in two rows (or the same two rows in two
    /// columns): the rest of those columns (rows) lose it.
    XWing,
    /// Three digits whose places in a house are the same three cells: those cells lose their
    /// other candidates.
    HiddenTriple,
    /// A pivot cell `{x,y}` that sees pincers `{x,z}` and `{y,z}`: one pincer is `z`, so a cell
    /// that sees both pincers loses `z`.
    XyWing,
    /// Four cells of a house whose candidates together are four digits.
    NakedQuad,
    /// Four digits whose places in a house are the same four cells.
    HiddenQuad,
    /// A digit with two places in each of two parallel lines, one end of each in a shared
    /// cross line: one of the two other ends holds it, so cells seeing both lose it.
    Skyscraper,
    /// The X-Wing with three lines: a digit confined in three rows to three columns.
    Swordfish,
    /// A pivot `{x,y,z}` that sees pincers `{x,z}` and `{y,z}`: a cell that sees all three
    /// loses `z`.
    XyzWing,
    /// Two cells `{x,y}` that do not see each other, joined by a strong link on `x` (a house
    /// where `x` has two places, one seeing each cell): one of them is `y`, so a cell seeing
    /// both loses `y`.
    WWing,
    /// Unique rectangle type 1: three corners of a rectangle over two boxes hold only `{x,y}`;
    /// the fourth corner cannot be `x` or `y`, else the puzzle would have two solutions.
    UniqueRectangle1,
    /// Simple colouring of one digit's conjugate pairs (houses where it has two places) with
    /// two colours: two cells of one colour that see each other make that colour false (colour
    /// wrap); a cell that sees both colours loses the digit (colour trap).
    SimpleColouring,
    /// The X-Wing with four lines.
    Jellyfish,
    /// No technique above applies: the next digit comes from a search (trial and error).
    Search,
}

impl Technique {
    /// Every technique, easiest first: the order the solver tries them.
    pub const ALL: [Technique; 20] = [
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::XWing,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::NakedQuad,
        Technique::HiddenQuad,
        Technique::Skyscraper,
        Technique::Swordfish,
        Technique::XyzWing,
        Technique::WWing,
        Technique::UniqueRectangle1,
        Technique::SimpleColouring,
        Technique::Jellyfish,
        Technique::Search,
    ];

    /// The technique's usual name, as in HoDoKu (`X-Wing`, `Hidden Pair`).
    pub fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingle => "Hidden Single",
            Technique::NakedSingle => "Naked Single",
            Technique::Pointing => "Locked Candidates (Pointing)",
            Technique::Claiming => "Locked Candidates (Claiming)",
            Technique::NakedPair => "Naked Pair",
            Technique::HiddenPair => "Hidden Pair",
            Technique::NakedTriple => "Naked Triple",
            Technique::XWing => "X-Wing",
            Technique::HiddenTriple => "Hidden Triple",
            Technique::XyWing => "XY-Wing",
            Technique::NakedQuad => "Naked Quad",
            Technique::HiddenQuad => "Hidden Quad",
            Technique::Skyscraper => "Skyscraper",
            Technique::Swordfish => "Swordfish",
            Technique::XyzWing => "XYZ-Wing",
            Technique::WWing => "W-Wing",
            Technique::UniqueRectangle1 => "Unique Rectangle Type 1",
            Technique::SimpleColouring => "Simple Colouring",
            Technique::Jellyfish => "Jellyfish",
            Technique::Search => "Search",
        }
    }

    /// What the technique does, in one or two sentences for players (the glossary of the
    /// game's help). The definitions follow HoDoKu's technique pages, as the variants' own
    /// documentation does.
    pub fn description(self) -> &'static str {
        match self {
            Technique::HiddenSingle => {
                "A digit that has only one place left in a row, column or box goes there."
            }
            Technique::NakedSingle => {
                "A cell whose peers already hold eight different digits takes the ninth."
            }
            Technique::Pointing => {
                "When a digit's places in a box all lie in one row or column, the digit is in \
                 that line inside the box, so the rest of the line loses it."
            }
            Technique::Claiming => {
                "When a digit's places in a row or column all lie in one box, the rest of that \
                 box loses it."
            }
            Technique::NakedPair => {
                "Two cells of a house with the same two candidates hold those two digits, so \
                 the other cells of the house lose them."
            }
            Technique::HiddenPair => {
                "Two digits that fit only in the same two cells of a house are in those cells, \
                 so those cells lose every other candidate."
            }
            Technique::NakedTriple => {
                "Three cells of a house whose candidates together are three digits hold them; \
                 the house's other cells lose those digits."
            }
            Technique::XWing => {
                "A digit confined to the same two columns in two rows (or the same two rows in \
                 two columns) forms a rectangle: the rest of those columns (rows) lose it."
            }
            Technique::HiddenTriple => {
                "Three digits that fit only in the same three cells of a house fill them; \
                 those cells lose their other candidates."
            }
            Technique::XyWing => {
                "A pivot cell {x,y} sees two pincers {x,z} and {y,z}: one pincer must be z, \
                 so a cell that sees both pincers cannot be z."
            }
            Technique::NakedQuad => {
                "Four cells of a house whose candidates together are four digits; the house's \
                 other cells lose those digits."
            }
            Technique::HiddenQuad => {
                "Four digits that fit only in the same four cells of a house; those cells lose \
                 their other candidates."
            }
            Technique::Skyscraper => {
                "A digit with two places in each of two parallel lines, one end of each in a \
                 shared cross line: one of the two other ends holds it, so cells that see both \
                 lose it."
            }
            Technique::Swordfish => {
                "The X-Wing with three lines: a digit confined in three rows to three columns \
                 is removed from the rest of those columns."
            }
            Technique::XyzWing => {
                "A pivot {x,y,z} sees pincers {x,z} and {y,z}: a cell that sees all three \
                 cannot be z."
            }
            Technique::WWing => {
                "Two cells {x,y} that do not see each other, joined by a house where x has only \
                 two places, one seen by each: one of them is y, so a cell seeing both loses y."
            }
            Technique::UniqueRectangle1 => {
                "Three corners of a rectangle over two boxes hold only {x,y}: the fourth cannot \
                 be x or y, or the puzzle would have two solutions."
            }
            Technique::SimpleColouring => {
                "Colour a digit's conjugate pairs (houses where it has two places) in two \
                 colours: one colour is true. Two cells of one colour that see each other make \
                 that colour false; a cell that sees both colours loses the digit."
            }
            Technique::Jellyfish => {
                "The X-Wing with four lines: a digit confined in four rows to four columns."
            }
            Technique::Search => {
                "No technique of this solver applies: the next digit is found by trying each \
                 candidate of a cell and following it until it fails (trial and error)."
            }
        }
    }

    /// Looks for this technique on `board`; the first instance found, if any.
    ///
    /// [`Technique::Search`] needs the solution and is never found here: see
    /// [`HumanSolver`], which falls back to it.
    pub fn find(self, board: &Board) -> Option<Step> {
        match self {
            Technique::HiddenSingle => singles::hidden_single(board),
            Technique::NakedSingle => singles::naked_single(board),
            Technique::Pointing => intersections::pointing(board),
            Technique::Claiming => intersections::claiming(board),
            Technique::NakedPair => subsets::naked(board, 2),
            Technique::HiddenPair => subsets::hidden(board, 2),
            Technique::NakedTriple => subsets::naked(board, 3),
            Technique::XWing => fish::fish(board, 2),
            Technique::HiddenTriple => subsets::hidden(board, 3),
            Technique::XyWing => wings::xy_wing(board),
            Technique::NakedQuad => subsets::naked(board, 4),
            Technique::HiddenQuad => subsets::hidden(board, 4),
            Technique::Skyscraper => single_digit::skyscraper(board),
            Technique::Swordfish => fish::fish(board, 3),
            Technique::XyzWing => wings::xyz_wing(board),
            Technique::WWing => wings::w_wing(board),
            Technique::UniqueRectangle1 => uniqueness::unique_rectangle_1(board),
            Technique::SimpleColouring => single_digit::simple_colouring(board),
            Technique::Jellyfish => fish::fish(board, 4),
            Technique::Search => None,
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One deduction: the technique, the pattern it found, and what it changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique that found it.
    pub technique: Technique,
    /// The cells that make the pattern (the pair, the wing's pivot and pincers, the fish's
    /// corners...), without the cells that only lose candidates.
    pub cells: Vec<Cell>,
    /// The pattern's candidates that the reasoning uses.
    pub candidates: Vec<Candidate>,
    /// Digits placed by this step (singles and search place one).
    pub placements: Vec<Candidate>,
    /// Candidates removed by this step.
    pub eliminations: Vec<Candidate>,
    /// The reasoning in Sudoku terms, e.g. `In box 1, 5 fits only in r2c3 (hidden single).`
    pub explanation: String,
}

impl Step {
    /// The eliminations in HoDoKu's notation: `r1c2<>5, r1c3<>5`.
    pub fn eliminations_text(&self) -> String {
        self.eliminations
            .iter()
            .map(|c| format!("{}<>{}", c.cell, c.digit))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.technique, self.explanation)
    }
}

/// A grid with pencil marks: each cell's digit (`0` if empty) and each empty cell's candidates
/// (a mask, digit `d` = bit `d - 1`; `0` for a filled cell).
///
/// Two boards are equal when their digits and candidates are; whether the finders explain
/// their steps on it (see [`Board::quiet`]) is not compared.
#[derive(Clone, Debug)]
pub struct Board {
    pub(crate) values: [u8; 81],
    pub(crate) cands: [u16; 81],
    /// Whether the finders write [`Step::explanation`] (grading and generation need only the
    /// technique and the changes, and formatting was an eighth of their time).
    pub(crate) explain: bool,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values && self.cands == other.cands
    }
}

impl Eq for Board {}

impl Board {
    /// The board of a grid: the candidates of an empty cell are the digits that none of its
    /// peers holds. Values above 9 are treated as empty.
    pub fn new(grid: &Grid) -> Self {
        let mut board = Board {
            values: [0; 81],
            cands: [ALL; 81],
            explain: true,
        };
        for (i, &v) in grid.0.iter().flatten().enumerate() {
            if (1..=9).contains(&v) {
                board.place(Cell(i as u8), v);
            }
        }
        board
    }

    /// The same board on which the finders leave [`Step::explanation`] empty: for callers that
    /// only use the technique, the cells and the changes of each step (grading, generation).
    pub fn quiet(mut self) -> Self {
        self.explain = false;
        self
    }

    /// The digit in a cell, `0` if empty.
    pub fn value(&self, cell: Cell) -> u8 {
        self.values[cell.index()]
    }

    /// The candidate mask of a cell (`0` when it is filled).
    pub fn cands(&self, cell: Cell) -> u16 {
        self.cands[cell.index()]
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: Cell, digit: u8) -> bool {
        self.cands[cell.index()] & bit(digit) != 0
    }

    /// The grid of placed digits.
    pub fn grid(&self) -> Grid {
        Grid(std::array::from_fn(|r| {
            std::array::from_fn(|c| self.values[r * 9 + c])
        }))
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Whether an empty cell has no candidate left (the position is contradictory).
    pub fn is_broken(&self) -> bool {
        (0..81).any(|i| self.values[i] == 0 && self.cands[i] == 0)
    }

    /// Places `digit` in `cell` and removes it from the candidates of the cell's peers.
    pub fn place(&mut self, cell: Cell, digit: u8) {
        let i = cell.index();
        self.values[i] = digit;
        self.cands[i] = 0;
        for &peer in &PEERS[i] {
            self.cands[usize::from(peer)] &= !bit(digit);
        }
    }

    /// Removes `digit` from the candidates of `cell`.
    pub fn eliminate(&mut self, cell: Cell, digit: u8) {
        self.cands[cell.index()] &= !bit(digit);
    }

    /// Applies a step's placements and eliminations.
    pub fn apply(&mut self, step: &Step) {
        for p in &step.placements {
            self.place(p.cell, p.digit);
        }
        for e in &step.eliminations {
            self.eliminate(e.cell, e.digit);
        }
    }

    /// The places of `digit` in house `house` (index `0..27`) as a 9-bit mask of positions
    /// within the house.
    pub(crate) fn places(&self, house: usize, digit: u8) -> u16 {
        let mut mask = 0;
        for (pos, &cell) in HOUSES[house].iter().enumerate() {
            if self.cands[usize::from(cell)] & bit(digit) != 0 {
                mask |= 1 << pos;
            }
        }
        mask
    }

    /// The empty cells that see every cell of `cells` and hold candidate `digit`, outside
    /// `cells`: where a pattern that puts `digit` in one of `cells` removes it.
    pub(crate) fn seeing_all(&self, cells: &[Cell], digit: u8) -> Vec<Cell> {
        (0..81u8)
            .map(Cell)
            .filter(|&c| {
                self.has(c, digit) && !cells.contains(&c) && cells.iter().all(|&p| p.sees(c))
            })
            .collect()
    }
}

/// For each cell index, its 20 peers in increasing order.
pub(crate) const PEERS: [[u8; 20]; 81] = {
    let mut t = [[0u8; 20]; 81];
    let mut i = 0;
    while i < 81 {
        let mut k = 0;
        let mut j = 0;
        while j < 81 {
            let same_box = i / 27 == j / 27 && i % 9 / 3 == j % 9 / 3;
            if j != i && (i / 9 == j / 9 || i % 9 == j % 9 || same_box) {
                t[i][k] = j as u8;
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The 20 peers of a cell: the other cells of its row, column and box, in reading order.
pub(crate) fn peers(cell: Cell) -> impl Iterator<Item = Cell> {
    PEERS[cell.index()].into_iter().map(Cell)
}

/// The cell at position `pos` (`0..9`) of house `house` (`0..27`).
pub(crate) fn cell_at(house: usize, pos: usize) -> Cell {
    Cell(HOUSES[house][pos])
}

/// The cells of a 9-bit position mask within a house.
pub(crate) fn cells_of(house: usize, mask: u16) -> Vec<Cell> {
    (0..9)
        .filter(|&p| mask & (1 << p) != 0)
        .map(|p| cell_at(house, p))
        .collect()
}

/// Comma-joined display of a list (`r1c1, r1c2`).
pub(crate) fn join<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Digits of a mask written together (`{2,7}`).
pub(crate) fn digit_set(mask: u16) -> String {
    let ds: Vec<String> = digits(mask).map(|d| d.to_string()).collect();
    format!("{{{}}}", ds.join(","))
}

/// All `k`-element subsets of the 9-bit mask `of`, as masks, in increasing order.
/// (Walks only the subsets of `of`, in increasing order: the next subset after `m` is
/// `(m - of) & of`, the carry skipping the bits outside `of`.)
pub(crate) fn subsets_of(of: u16, k: u32) -> impl Iterator<Item = u16> {
    // `None` once every subset has been seen; the empty set comes first.
    let mut next = Some(0u16);
    std::iter::from_fn(move || loop {
        let m = next?;
        let after = m.wrapping_sub(of) & of;
        next = (after != 0).then_some(after);
        if m.count_ones() == k {
            return Some(m);
        }
    })
}

/// Builds an elimination step, or `None` when it removes nothing. The explanation is written
/// only on a board that explains (see [`Board::quiet`]).
pub(crate) fn elimination_step(
    board: &Board,
    technique: Technique,
    cells: Vec<Cell>,
    candidates: Vec<Candidate>,
    mut eliminations: Vec<Candidate>,
    explain: impl FnOnce(&str) -> String,
) -> Option<Step> {
    if eliminations.is_empty() {
        return None;
    }
    eliminations.sort();
    eliminations.dedup();
    let explanation = if board.explain {
        let removed = eliminations
            .iter()
            .map(|c| format!("{}<>{}", c.cell, c.digit))
            .collect::<Vec<_>>()
            .join(", ");
        explain(&removed)
    } else {
        String::new()
    };
    Some(Step {
        technique,
        cells,
        candidates,
        placements: Vec::new(),
        explanation,
        eliminations,
    })
}

/// The result of solving with human techniques: the steps taken and how far they got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvePath {
    /// Every step, in order. When the techniques run out, [`Technique::Search`] steps place
    /// digits of the solution (if one was given) and the techniques resume.
    pub steps: Vec<Step>,
    /// The board after the last step: solved unless the techniques got stuck and no solution
    /// was given for the search fallback.
    pub board: Board,
}

impl SolvePath {
    /// The hardest technique used, or `None` when no step was needed.
    pub fn hardest(&self) -> Option<Technique> {
        self.steps.iter().map(|s| s.technique).max()
    }
}

/// Applies the easiest applicable technique, step by step.
#[derive(Clone, Debug)]
pub struct HumanSolver {
    /// Only techniques up to this one (in [`Technique::ALL`] order) are tried.
    pub max: Technique,
}

impl Default for HumanSolver {
    fn default() -> Self {
        HumanSolver {
            max: Technique::Jellyfish,
        }
    }
}

impl HumanSolver {
    /// The first step of the easiest technique (up to `self.max`) that applies to `board`.
    pub fn next_step(&self, board: &Board) -> Option<Step> {
        Technique::ALL
            .iter()
            .take_while(|&&t| t <= self.max)
            .find_map(|t| t.find(board))
    }

    /// Solves `board` step by step. When no technique applies and `solution` is given, a
    /// [`Technique::Search`] step places the solution's digit in the empty cell with the fewest
    /// candidates, and the techniques go on; without a solution the path stops there.
    /// `stop_at_search` stops after the first search step (enough for grading).
    pub fn solve(
        &self,
        mut board: Board,
        solution: Option<&Grid>,
        stop_at_search: bool,
    ) -> SolvePath {
        let mut steps = Vec::new();
        while !board.is_solved() && !board.is_broken() {
            let step = match self.next_step(&board) {
                Some(step) => step,
                None => match solution.and_then(|s| search_step(&board, s)) {
                    Some(step) => step,
                    None => break,
                },
            };
            board.apply(&step);
            let search = step.technique == Technique::Search;
            steps.push(step);
            if search && stop_at_search {
                break;
            }
        }
        SolvePath { steps, board }
    }
}

/// The fallback step: the solution's digit in the empty cell with the fewest candidates.
pub fn search_step(board: &Board, solution: &Grid) -> Option<Step> {
    let cell = (0..81u8)
        .map(Cell)
        .filter(|&c| board.value(c) == 0)
        .min_by_key(|&c| board.cands(c).count_ones())?;
    let digit = solution.0[cell.row()][cell.col()];
    if digit == 0 {
        return None;
    }
    Some(Step {
        technique: Technique::Search,
        cells: vec![cell],
        candidates: digits(board.cands(cell))
            .map(|d| Candidate::new(cell, d))
            .collect(),
        placements: vec![Candidate::new(cell, digit)],
        eliminations: Vec::new(),
        explanation: if board.explain {
            format!(
                "No technique of this solver applies. {cell} has candidates {}; trying each \
                 (search) shows that only {digit} leads to the solution, so {cell}={digit}.",
                digit_set(board.cands(cell))
            )
        } else {
            String::new()
        },
    })
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::*;
    pub use super::{house_cells, Cell, House};
    use crate::puzzle;

    /// A board from an 81-character line.
    pub fn board(line: &str) -> Board {
        Board::new(&puzzle::parse(line).expect("test puzzle parses"))
    }

    /// A board where every cell has all nine candidates, except the listed 1-based
    /// `(row, column, marks)`: `"27"` sets the candidates, `"=5"` places a digit (peers are
    /// left as they are, so a test controls every mark).
    pub fn custom(marks: &[(usize, usize, &str)]) -> Board {
        let mut b = Board {
            values: [0; 81],
            cands: [ALL; 81],
            explain: true,
        };
        for &(r, c, m) in marks {
            let i = rc(r, c).index();
            if let Some(v) = m.strip_prefix('=') {
                b.values[i] = v.parse().unwrap();
                b.cands[i] = 0;
            } else {
                b.cands[i] = m
                    .chars()
                    .fold(0, |acc, ch| acc | bit(ch.to_digit(10).unwrap() as u8));
            }
        }
        b
    }

    /// Removes `digit` from every cell of `house_cells` except those in `keep`.
    pub fn remove_except(b: &mut Board, digit: u8, house_cells: &[Cell], keep: &[Cell]) {
        for &c in house_cells {
            if !keep.contains(&c) {
                b.eliminate(c, digit);
            }
        }
    }

    /// `"r1c2<>5, ..."` of a step, for exact assertions.
    pub fn elims(step: &Step) -> String {
        step.eliminations_text()
    }

    /// The cell `r{row}c{col}`, 1-based.
    pub fn rc(row: usize, col: usize) -> Cell {
        Cell::new(row - 1, col - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::*;
    use super::*;

    #[test]
    fn cells_and_houses_display_one_based() {
        assert_eq!(rc(1, 1).to_string(), "r1c1");
        assert_eq!(Cell::new(8, 3).to_string(), "r9c4");
        assert_eq!(Cell::new(4, 4).box_index(), 4);
        assert_eq!(house(20).to_string(), "box 3");
        assert_eq!(house(9).to_string(), "column 1");
        assert_eq!(house_cells(House::Row(2)).count(), 9);
        for i in 0..27 {
            assert_eq!(house_index(house(i)), i);
        }
        assert_eq!(peers(rc(5, 5)).count(), 20);
    }

    #[test]
    fn subsets_come_in_increasing_order() {
        for of in [0u16, 1, 0b1_0110_1001, 0x1FF] {
            for k in 0..=9 {
                let expected: Vec<u16> = (0u16..512)
                    .filter(|&m| m & !of == 0 && m.count_ones() == k)
                    .collect();
                assert_eq!(
                    subsets_of(of, k).collect::<Vec<_>>(),
                    expected,
                    "{of:b} {k}"
                );
            }
        }
    }

    #[test]
    fn technique_order_is_the_declaration_order() {
        let mut sorted = Technique::ALL;
        sorted.sort();
        assert_eq!(sorted, Technique::ALL);
    }
}
