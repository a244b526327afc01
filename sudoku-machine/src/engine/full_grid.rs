//! Random complete grids, the generator's starting points: randomised backtracking over house
//! masks (see [`Fill::fill`]).

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::datamodel::Grid;

/// A random complete grid.
pub(crate) fn random_full_grid(rng: &mut ChaCha8Rng) -> Grid {
    let mut fill = Fill {
        cells: [0; 81],
        used: [0; 27],
    };
    let ok = fill.fill(rng);
    debug_assert!(ok, "an empty grid always completes");
    Grid(std::array::from_fn(|r| {
        std::array::from_fn(|c| fill.cells[r * 9 + c])
    }))
}

/// A grid being filled: the digits, and the digits used in each house as masks (rows
/// `0..9`, columns `9..18`, boxes `18..27`; digit `d` is bit `d - 1`).
pub(crate) struct Fill {
    cells: [u8; 81],
    used: [u16; 27],
}

impl Fill {
    /// The three houses of cell `i`.
    pub(crate) fn houses(i: usize) -> [usize; 3] {
        let (r, c) = (i / 9, i % 9);
        [r, 9 + c, 18 + r / 3 * 3 + c / 3]
    }

    /// Puts `d` in cell `i` (or takes it out again: the masks are toggled).
    fn toggle(&mut self, i: usize, d: u8) {
        for h in Self::houses(i) {
            self.used[h] ^= 1 << (d - 1);
        }
        self.cells[i] = if self.cells[i] == 0 { d } else { 0 };
    }

    /// Fills the empty cells by randomised backtracking: the empty cell with the fewest
    /// candidates first (the first such in reading order), its candidates in a shuffled
    /// order. False if it cannot.
    fn fill(&mut self, rng: &mut ChaCha8Rng) -> bool {
        let mut best: Option<(usize, u16)> = None;
        for i in 0..81 {
            if self.cells[i] != 0 {
                continue;
            }
            let [a, b, c] = Self::houses(i);
            let free = 0x1FF & !(self.used[a] | self.used[b] | self.used[c]);
            if best.map_or(true, |(_, m)| free.count_ones() < m.count_ones()) {
                best = Some((i, free));
                if free.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, free)) = best else {
            return true;
        };
        let mut options = [0u8; 9];
        let mut n = 0;
        for d in 1..=9u8 {
            if free & (1 << (d - 1)) != 0 {
                options[n] = d;
                n += 1;
            }
        }
        options[..n].shuffle(rng);
        for &d in &options[..n] {
            self.toggle(cell, d);
            if self.fill(rng) {
                return true;
            }
            self.toggle(cell, d);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datamodel::is_solved;
    use rand::SeedableRng;

    #[test]
    fn full_grids_are_valid_and_seeded() {
        let a = random_full_grid(&mut ChaCha8Rng::seed_from_u64(7));
        let b = random_full_grid(&mut ChaCha8Rng::seed_from_u64(7));
        let c = random_full_grid(&mut ChaCha8Rng::seed_from_u64(8));
        assert!(is_solved(&a));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
