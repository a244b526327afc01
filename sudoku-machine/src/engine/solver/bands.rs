//! The search state and its propagation within bands: the boards built from the givens, the
//! band update of one board, and the naked singles (see the [solver docs](super)).

use super::tables::*;
use super::Contradiction;
use crate::datamodel::Grid;

/// The search state: the candidate boards, the bookkeeping of the propagation and, in a hard
/// search, the [`Shapes`] of the boards (`X`). Copied for every alternative of a guess but the
/// last: 228 bytes with `X = ()`, 372 with shapes.
#[derive(Clone, Copy)]
pub(super) struct State<X = ()> {
    /// `cand[3 * d + b]`: where digit `d + 1` may still be in band `b` (27 bits, bit
    /// `9 * r + c` for row `3 * b + r`, column `c`).
    pub(super) cand: [u32; 27],
    /// Each board as its last band update left it: a board that differs needs an update.
    pub(super) seen: [u32; 27],
    /// The undecided cells of each band.
    pub(super) unsolved: [u32; 3],
    /// What the band updates record besides the boards.
    pub(super) shapes: X,
}

/// What a band update records of the board it leaves, besides the board: nothing (`()`, the
/// easy part of a search), or its [`Shapes`].
pub(super) trait Record: Copy {
    /// Whether a pass of band updates tests each digit's three boards together before it
    /// tests them one by one (see `update_all`).
    const BY_DIGIT: bool;
    /// Board `i` was left with segment pattern `segments` and columns `columns`.
    fn record(&mut self, i: usize, segments: u16, columns: u16);
}

impl Record for () {
    const BY_DIGIT: bool = true;
    #[inline(always)]
    fn record(&mut self, _: usize, _: u16, _: u16) {}
}

/// Each board's shape as its last band update left it, which at a stall is its shape now:
/// what the deductions and the layout branch of a hard search work on (see `deduce.rs` and
/// `branch.rs`). Kept out of the easy part of the search, where it would cost the serg
/// benchmark 11 % in instructions (the stores, and a state copied by a `memcpy` call).
///
/// A band update stores its board's shape as it is (two 16-bit stores: `segments[b][d]`,
/// `columns[b][d]`); [`Shapes::packed`] packs them for the rules at a stall. Packed in the
/// update itself (a read-modify-write of the digit's word per update), the hard search of
/// hardest_1106 took 520,000 instructions per puzzle instead of 510,000 (`cachegrind`).
#[derive(Clone, Copy)]
pub(super) struct Shapes {
    /// Per band and digit (padded to twelve digits, the padding 0), the segment pattern (9
    /// bits, as in [`SHRINK`]: bit `3 * r + k` when row `r` of the band meets box `k` in a
    /// candidate).
    segments: [[u16; 12]; 3],
    /// Per band and digit, the columns it uses (9 bits, bit `c` for column `c`).
    columns: [[u16; 12]; 3],
}

/// The shapes of the digits, a digit's three bands packed into one word (band `b` in bits
/// `9 * b..9 * b + 9`), so that the rules work on the three bands at once, and the words of
/// the nine digits side by side (padded to twelve, the padding 0), so that the compiler runs
/// them four digits to a vector register.
pub(super) struct Packed {
    /// Per digit, the segment patterns of its three bands.
    pub(super) segments: [u32; 12],
    /// Per digit, the columns it uses in its three bands.
    pub(super) columns: [u32; 12],
}

impl Shapes {
    /// The shapes packed by digit (see [`Packed`]).
    #[inline(always)]
    pub(super) fn packed(&self) -> Packed {
        let pack = |planes: &[[u16; 12]; 3]| -> [u32; 12] {
            std::array::from_fn(|d| {
                u32::from(planes[0][d])
                    | u32::from(planes[1][d]) << 9
                    | u32::from(planes[2][d]) << 18
            })
        };
        Packed {
            segments: pack(&self.segments),
            columns: pack(&self.columns),
        }
    }
}

impl Record for Shapes {
    const BY_DIGIT: bool = false;
    #[inline(always)]
    fn record(&mut self, i: usize, segments: u16, columns: u16) {
        let (d, b) = ((i / 3) % 9, i % 3);
        self.segments[b][d] = segments;
        self.columns[b][d] = columns;
    }
}

/// Calls `$state.update::<I>()?` for each board index `I`, unrolled so that each call is
/// specialised to its board (the neighbour indices become constants and the update has no
/// data-dependent branch). Sets `$any` when some board needed an update.
///
/// Each update is followed by [`std::hint::black_box`] on the state, which hides it from the
/// optimizer and costs one store. Without it the compiler keeps the boards it has read in
/// registers across the whole unrolled pass: it spills them, updates both copies and packs
/// them back into vectors for the naked singles, so a band update took up to 65 instructions
/// instead of 43 and the scan spilled too. With it every board is read and written in
/// memory where it is used (`solve` on hardest_1106: 264,000 instructions per puzzle down to
/// 227,000, `callgrind`). Only the generated code changes, not what is computed.
macro_rules! update_changed {
    ($state:ident, $any:ident, $($i:literal)*) => {
        $(
            if $state.cand[$i] != $state.seen[$i] {
                $any = true;
                $state.update::<$i>()?;
                std::hint::black_box(&mut *$state);
            }
        )*
    };
}

/// As [`update_changed`], but each digit's three boards are first tested together (one XOR
/// and OR of the three pairs) and one by one only when one of them differs: nine branches a
/// pass instead of 27 when few digits changed. It executes more instructions (serg
/// benchmark, counting to two: +8 % in the solver, `cachegrind`) but branches less on data
/// that no predictor knows, and took 4 % less CPU time on the serg benchmark, 3 % on the
/// 17-clue list (`profile_ours`, paired runs), which spend their time in the easy part of the
/// search; in the hard part (`X = Shapes`) it was 2-4 % slower on top1465 and hardest_1106,
/// so that part tests board by board.
macro_rules! update_digit {
    ($state:ident, $any:ident, $(($a:literal $b:literal $c:literal))*) => {
        $(
            if ($state.cand[$a] ^ $state.seen[$a]) | ($state.cand[$b] ^ $state.seen[$b]) | ($state.cand[$c] ^ $state.seen[$c]) != 0 {
                update_changed!($state, $any, $a $b $c);
            }
        )*
    };
}

/// What a pass of naked singles found.
pub(super) struct Singles {
    /// Whether a digit was placed (propagation goes on).
    pub(super) placed: bool,
    /// Per band, the undecided cells with exactly two candidates.
    pub(super) pairs: [u32; 3],
}

impl State {
    /// The state of a grid's givens, or `None` when a value is above 9 or two givens of a house
    /// are equal.
    ///
    /// The boards are built in one pass rather than by placing the givens one by one: digit `d`
    /// may be in a cell when the cell holds no other given and no given `d` shares its row,
    /// column or box. The band updates of the first propagation then start from a grid where
    /// every consequence of the givens that a single placement has is already drawn. The grid
    /// is read eight cells at a time and only its givens are visited (SWAR byte tests).
    pub(super) fn from_givens(givens: &Grid) -> Option<State> {
        // Per digit: the houses that hold it (row `r` at bit `r`, column `c` at bit `9 + c`,
        // box `k` at bit `18 + k`), and the cells of each band that hold it.
        // (16 digit slots, 4 band slots and 128-entry tables, so that indices masked to
        // those sizes need no bounds checks.)
        let mut houses = [0u32; 16];
        let mut cells = [[0u32; 4]; 16];
        let mut filled = [0u32; 4];
        // Eight cells at a time, visiting only the givens: a branch per cell on whether it is
        // empty mispredicts often (about half the cells of a puzzle are givens, in no order).
        let mut bytes = [0u8; 88];
        bytes[..81].copy_from_slice(givens.0.as_flattened());
        for (k, chunk) in bytes.chunks_exact(8).enumerate() {
            // (Never `None`: the chunks are eight bytes long.)
            let word = u64::from_le_bytes(chunk.try_into().ok()?);
            // Bit 7 of each byte: set when the byte is not 0, and when it is above 9.
            let low = word & 0x7f7f_7f7f_7f7f_7f7f;
            let mut nonzero = ((low + 0x7f7f_7f7f_7f7f_7f7f) | word) & 0x8080_8080_8080_8080;
            if ((low + 0x7676_7676_7676_7676) | word) & 0x8080_8080_8080_8080 != 0 {
                return None;
            }
            while nonzero != 0 {
                let j = nonzero.trailing_zeros() / 8;
                nonzero &= nonzero - 1;
                let cell = (8 * k + j as usize) & 127;
                let d = usize::from((word >> (8 * j)) as u8 - 1) & 15;
                let h = CELL_HOUSES[cell];
                if houses[d] & h != 0 {
                    return None;
                }
                houses[d] |= h;
                let (b, x) = (usize::from(CELL_BAND[cell] & 3), CELL_BIT[cell]);
                cells[d][b] |= x;
                filled[b] |= x;
            }
        }
        let mut state = State {
            cand: [0; 27],
            seen: [0; 27],
            unsolved: [BAND & !filled[0], BAND & !filled[1], BAND & !filled[2]],
            shapes: (),
        };
        for d in 0..9 {
            let (rows, cols, boxes) = (houses[d], houses[d] >> 9, houses[d] >> 18);
            let free_cols = (!cols & 511) * COLUMNS_TO_BAND;
            for b in 0..3 {
                let free_rows = ROWS_TO_BAND[((!rows >> (3 * b)) & 7) as usize];
                let free_boxes = BOXES_TO_BAND[((!boxes >> (3 * b)) & 7) as usize];
                state.cand[3 * d + b] =
                    (free_rows & free_cols & free_boxes & !filled[b]) | cells[d][b];
            }
        }
        Some(state)
    }

    /// The grid of solved boards (each board holds exactly its digit's cells).
    pub(super) fn grid(boards: &[u32; 27]) -> Grid {
        // Band `b`, bit `x` of the band is `flat[32 * b + x]`: an index the compiler can see is
        // in bounds.
        let mut flat = [0u8; 96];
        for d in 0..9 {
            for b in 0..3 {
                let mut m = boards[3 * d + b];
                while m != 0 {
                    flat[32 * b + m.trailing_zeros() as usize] = d as u8 + 1;
                    m &= m - 1;
                }
            }
        }
        let mut grid = Grid::default();
        for (r, row) in grid.0.iter_mut().enumerate() {
            let start = 32 * (r / 3) + 9 * (r % 3);
            row.copy_from_slice(&flat[start..start + 9]);
        }
        grid
    }
}

impl<X: Record> State<X> {
    /// This state with its boards' shapes, for the hard part of a search. A board that is up
    /// to date is as its band update left it, so its shape is read off the board; one that is
    /// not gets its shape from the update that it is due.
    pub(super) fn with_shapes(&self) -> State<Shapes> {
        let mut shapes = Shapes {
            segments: [[0; 12]; 3],
            columns: [[0; 12]; 3],
        };
        for (i, &m) in self.cand.iter().enumerate() {
            shapes.record(
                i,
                (SEG3[(m & 511) as usize]
                    | SEG3[((m >> 9) & 511) as usize] << 3
                    | SEG3[((m >> 18) & 511) as usize] << 6) as u16,
                ((m | m >> 9 | m >> 18) & 511) as u16,
            );
        }
        State {
            cand: self.cand,
            seen: self.seen,
            unsolved: self.unsolved,
            shapes,
        }
    }

    /// How many cells are undecided.
    pub(super) fn open_cells(&self) -> u32 {
        self.unsolved.iter().map(|u| u.count_ones()).sum()
    }

    /// Puts digit `d` in cell `x` (a bit) of band `b`: its board in the band keeps no other cell
    /// of the row, box or column. The band update does the rest. False when the digit had
    /// already left that cell.
    #[inline(always)]
    pub(super) fn place(&mut self, d: usize, b: usize, x: u32) -> bool {
        let i = 3 * d + b;
        if self.cand[i] & x == 0 {
            return false;
        }
        self.cand[i] &= !PEERS_IN_BAND[x.trailing_zeros() as usize];
        true
    }

    /// The band update of board `I` (see the module documentation).
    #[inline(always)]
    fn update<const I: usize>(&mut self) -> Result<(), Contradiction> {
        // (The `& 511` on every index lets the compiler drop the bounds checks.)
        let m = self.cand[I];
        let p = segments(m);
        let m = m & LOCKED_CELLS[p];
        if m == 0 {
            return Err(Contradiction);
        }
        let (d, b) = (I / 3, I % 3);

        // Boxes confined to one column clear it from the other bands.
        let columns = (m | m >> 9 | m >> 18) & 511;
        let keep = !COL_SINGLE[columns as usize];
        let [b1, b2] = OTHER_BANDS[b];
        self.cand[3 * d + b1] &= keep;
        self.cand[3 * d + b2] &= keep;

        // A row left with one segment (after SHRINK its box has no other row's segment) whose box
        // keeps one column holds one cell: that cell is solved.
        let single = LONE_CELLS[p] & !keep & m;
        // Clear them from all nine boards of the band, this one included (a cell solved earlier
        // is already clear in the others), then store this one.
        self.unsolved[b] &= !single;
        let mut j = b;
        while j < 27 {
            self.cand[j] &= !single;
            j += 3;
        }
        self.cand[I] = m;
        self.seen[I] = m;
        self.shapes.record(I, SHRUNK[p], columns as u16);
        Ok(())
    }

    /// Band updates until no board changes.
    #[inline(always)]
    pub(super) fn update_all(&mut self) -> Result<(), Contradiction> {
        loop {
            let mut any = false;
            if X::BY_DIGIT {
                update_digit!(self, any, (0 1 2) (3 4 5) (6 7 8) (9 10 11) (12 13 14) (15 16 17) (18 19 20) (21 22 23) (24 25 26));
            } else {
                update_changed!(self, any, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            }
            if !any {
                return Ok(());
            }
        }
    }

    /// Places the naked singles (cells with one candidate left) and finds the cells with two;
    /// a cell with none is a contradiction.
    ///
    /// The cells with at least one, two and three candidates are counted for the three bands
    /// in one sweep over the boards, before any test, which lets the compiler work on the
    /// counters of several bands at once in vector registers (a digit's three boards are
    /// adjacent). A sweep per band, each with its own early exit, cost 8 % more instructions
    /// in all (`solve` on hardest_1106).
    #[inline(always)]
    pub(super) fn naked_singles(&mut self) -> Result<Singles, Contradiction> {
        let (mut once, mut twice, mut thrice) = ([0u32; 3], [0u32; 3], [0u32; 3]);
        for c in self.cand.chunks_exact(3) {
            for b in 0..3 {
                thrice[b] |= twice[b] & c[b];
                twice[b] |= once[b] & c[b];
                once[b] |= c[b];
            }
        }
        let mut pairs = [0u32; 3];
        let mut placed = false;
        #[allow(clippy::needless_range_loop)] // `b` indexes the boards too
        for b in 0..3 {
            let u = self.unsolved[b];
            if u & !once[b] != 0 {
                return Err(Contradiction);
            }
            let mut singles = u & !twice[b];
            placed |= singles != 0;
            while singles != 0 {
                let x = singles & singles.wrapping_neg();
                singles &= singles - 1;
                let Some(d) = (0..9).find(|&d| self.cand[3 * d + b] & x != 0) else {
                    return Err(Contradiction);
                };
                self.place(d, b, x);
            }
            pairs[b] = u & twice[b] & !thrice[b];
        }
        Ok(Singles { placed, pairs })
    }
}
