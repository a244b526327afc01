//! The constant tables of the band solver (see the [solver docs](super)): look-ups for the
//! band update, the cells' houses and bits, and masks that widen rows, boxes and columns to
//! band boards. All are computed at compile time.

/// The 27 bits of a full band board.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// For a 9-bit row of a band board, the 3-bit set of its three segments (one per box) that
/// hold a candidate.
pub(super) const SEG3: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut row = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            if (row >> (3 * k)) & 7 != 0 {
                t[row] |= 1 << k;
            }
            k += 1;
        }
        row += 1;
    }
    t
};

/// The six layouts of a band or stack as the box (or the stack's column) each of its three
/// rows (or bands) takes a digit in, in the order of [`PERMUTATIONS`].
pub(super) const LAYOUTS: [[u32; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Locked candidates in a band. The index is a 9-bit segment pattern (bit `3 * r + k`: row `r`
/// of the band meets box `k` in at least one candidate cell); the value is the union of the
/// patterns of the permutations `r -> k` that the pattern allows, or 0 when none does.
pub(super) const SHRINK: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut p = 0;
    while p < 512 {
        let mut i = 0;
        while i < 6 {
            let perm = LAYOUTS[i];
            let mask = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if p & mask == mask {
                t[p] |= mask as u16;
            }
            i += 1;
        }
        p += 1;
    }
    t
};

/// A segment pattern (as in [`SHRINK`]) widened to the 27-bit mask of its cells.
pub(super) const EXPAND: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut q = 0;
    while q < 512 {
        let mut s = 0;
        while s < 9 {
            if q & (1 << s) != 0 {
                t[q] |= 7 << (9 * (s / 3) + 3 * (s % 3));
            }
            s += 1;
        }
        q += 1;
    }
    t
};

/// A segment pattern with rows and boxes swapped: bit `3 * k + r` of the result is bit
/// `3 * r + k` of `p` (a 3x3 bit-matrix transpose, its own inverse). [`segments`] gathers a
/// board's pattern in this box-major order, and [`LOCKED_CELLS`], [`LONE_CELLS`] and
/// [`SHRUNK`] are indexed by it.
pub(super) const fn transposed(p: usize) -> usize {
    let mut t = 0;
    let mut i = 0;
    while i < 9 {
        if p & (1 << i) != 0 {
            t |= 1 << (3 * (i % 3) + i / 3);
        }
        i += 1;
    }
    t
}

/// The segment pattern of a band board in box-major order (bit `3 * k + r` when row `r` of
/// the band meets box `k` in a candidate; see [`transposed`]), without a table: the
/// segments' lowest bits (`9 * r + 3 * k`) are gathered into nine bits by one
/// multiplication, whose three shifted copies of the pattern never share a bit position (they
/// differ modulo 3), so it adds without carries. Against three [`SEG3`] look-ups (and the
/// row-major order), this took the band update from about 50 instructions to 45.
#[inline(always)]
pub(super) fn segments(m: u32) -> usize {
    let s = (m | m >> 1 | m >> 2) & 0o111_111_111;
    ((s.wrapping_mul(0x10101) >> 16) & 511) as usize
}

/// [`SHRINK`] indexed by a box-major pattern ([`segments`]); the value is row-major, as in
/// [`SHRINK`].
pub(super) const SHRUNK: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut p = 0;
    while p < 512 {
        t[p] = SHRINK[transposed(p)];
        p += 1;
    }
    t
};

/// For a segment pattern (box-major, as [`segments`] gives it), the cells of the segments it keeps: 0 when none.
pub(super) const LOCKED_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        t[p] = EXPAND[SHRINK[transposed(p)] as usize];
        p += 1;
    }
    t
};

/// For a segment pattern (box-major, as [`segments`] gives it), the cells of the segments it
/// keeps that are the only segment kept in their row.
pub(super) const LONE_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        let q = SHRINK[transposed(p)] as usize;
        let mut r = 0;
        while r < 3 {
            let row = (q >> (3 * r)) & 7;
            if row == 1 || row == 2 || row == 4 {
                t[p] |= EXPAND[row << (3 * r)];
            }
            r += 1;
        }
        p += 1;
    }
    t
};

/// For the 9-bit set of columns a band board uses, the cells of the band (27 bits) in the columns
/// that are the only column of their box: the digit of that box is in that column, so the other
/// bands lose it.
pub(super) const COL_SINGLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut f = 0;
    while f < 512 {
        let mut k = 0;
        while k < 3 {
            let seg = (f >> (3 * k)) & 7;
            if seg == 1 || seg == 2 || seg == 4 {
                t[f] |= (seg << (3 * k)) as u32 * COLUMNS_TO_BAND;
            }
            k += 1;
        }
        f += 1;
    }
    t
};

/// For each of the 27 cells of a band, the other cells of the band in its row, box or column
/// (32 entries, so that an index masked to 5 bits needs no bounds check).
pub(super) const PEERS_IN_BAND: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut x = 0;
    while x < 27 {
        let (r, c) = (x / 9, x % 9);
        let mut y = 0;
        while y < 27 {
            let (r2, c2) = (y / 9, y % 9);
            if y != x && (r == r2 || c == c2 || c / 3 == c2 / 3) {
                t[x] |= 1 << y;
            }
            y += 1;
        }
        x += 1;
    }
    t
};

/// For each of the 27 cells of a band, its peers in the band (as [`PEERS_IN_BAND`]) in the
/// low 32 bits and its column (bits `c`, `c + 9`, `c + 18`) in the high 32 bits. In
/// `State::busiest_pair`, `near & mask` is the undecided peers in the band and in the column
/// of one other band, and `far & mask << 1` those of the third band's column (one bit higher,
/// so that the two never share a bit). 32 entries as in [`PEERS_IN_BAND`].
pub(super) const PEERS_AND_COLUMN: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut x = 0;
    while x < 27 {
        t[x] = PEERS_IN_BAND[x] as u64 | ((COLUMNS_TO_BAND << (x % 9)) as u64) << 32;
        x += 1;
    }
    t
};

/// For each cell in reading order (`9 * r + c`; 128 entries, the last 47 unused), its row,
/// column and box as bits `r`, `9 + c` and `18 + r / 3 * 3 + c / 3`.
pub(super) const CELL_HOUSES: [u32; 128] = {
    let mut t = [0u32; 128];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        t[i] = 1 << r | 1 << (9 + c) | 1 << (18 + r / 3 * 3 + c / 3);
        i += 1;
    }
    t
};

/// For each cell in reading order (as [`CELL_HOUSES`]), its band.
pub(super) const CELL_BAND: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 81 {
        t[i] = (i / 27) as u8;
        i += 1;
    }
    t
};

/// For each cell in reading order (as [`CELL_HOUSES`]), its bit in its band's boards.
pub(super) const CELL_BIT: [u32; 128] = {
    let mut t = [0u32; 128];
    let mut i = 0;
    while i < 81 {
        t[i] = 1 << (i % 27);
        i += 1;
    }
    t
};

/// The two other bands of each band.
pub(super) const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// Multiplying a 9-bit column set by this repeats it in the three rows of a band.
pub(super) const COLUMNS_TO_BAND: u32 = 1 | 1 << 9 | 1 << 18;

/// A 3-bit set of the rows of a band widened to the 27-bit mask of their cells.
pub(super) const ROWS_TO_BAND: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        let mut r = 0;
        while r < 3 {
            if i & (1 << r) != 0 {
                t[i] |= 511 << (9 * r);
            }
            r += 1;
        }
        i += 1;
    }
    t
};

/// A 3-bit set of the boxes of a band widened to the 27-bit mask of their cells.
pub(super) const BOXES_TO_BAND: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        let mut k = 0;
        while k < 3 {
            if i & (1 << k) != 0 {
                t[i] |= (7 << (3 * k)) * COLUMNS_TO_BAND;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// The six permutations of a band as segment patterns (as in [`SHRINK`]): row `r` of the band
/// in box `perm[r]`. For a stack (see `branch.rs`), band `b` in column `perm[b]` of the stack.
/// Padded to eight so that an index masked to 3 bits needs no bounds check.
pub(super) const PERMUTATIONS: [u16; 8] = [
    0b100_010_001,
    0b010_100_001,
    0b100_001_010,
    0b001_100_010,
    0b010_001_100,
    0b001_010_100,
    0,
    0,
];

/// For a segment pattern (as in [`SHRINK`]): bits 0..6 the permutations (indices into
/// [`PERMUTATIONS`]) whose segments it holds, bits 8.. how many there are.
pub(super) const PERMS_OF: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut p = 0;
    while p < 512 {
        let mut k = 0;
        let mut n = 0;
        while k < 6 {
            if p as u16 & PERMUTATIONS[k] == PERMUTATIONS[k] {
                t[p] |= 1 << k;
                n += 1;
            }
            k += 1;
        }
        t[p] |= n << 8;
        p += 1;
    }
    t
};
