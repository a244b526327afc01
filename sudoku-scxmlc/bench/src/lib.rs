//! Machines for the benchmarks in `benches/machines.rs`: charts compiled by `sudoku-scxmlc`
//! and, for comparison, the toggle machine written by hand as an enum and a `match`.

/// `charts/toggle.scxml`, compiled.
pub mod toggle {
    include!(concat!(env!("OUT_DIR"), "/toggle.rs"));
}

/// `charts/deep_toggle.scxml` (the toggle nested 16 states deep), compiled.
pub mod deep_toggle {
    include!(concat!(env!("OUT_DIR"), "/deep_toggle.rs"));
}

/// `charts/targetless.scxml`, compiled.
pub mod targetless {
    include!(concat!(env!("OUT_DIR"), "/targetless.rs"));
}

/// `charts/counter.scxml` (one `cond` and one `<assign>` per event), compiled.
pub mod counter {
    include!(concat!(env!("OUT_DIR"), "/counter.rs"));
}

pub mod twins;

/// Runs a benchmark chart for a number of microsteps; returns the entries of `mark`.
pub type Runner = fn(usize) -> usize;

/// uSCXML's benchmark charts, compiled (sizes from `SCXML_BENCH_SIZES`).
pub mod uscxml {
    use super::{run, Runner};
    include!(concat!(env!("OUT_DIR"), "/uscxml.rs"));
}

use sudoku_scxmlc::runtime::{Chart, Machine};

/// Runs a uSCXML benchmark chart for `microsteps` microsteps (its spontaneous loop never
/// ends; the macrostep bound stops it) and returns how many times it entered `mark`.
pub fn run<C: Chart>(microsteps: usize) -> usize {
    let machine = Machine::<C>::new();
    machine.set_max_microsteps(microsteps);
    let mark = C::tables()
        .states
        .iter()
        .position(|s| s.id == "mark")
        .and_then(|i| C::state(i as u32))
        .expect("benchmark charts have a state `mark`");
    let entries = std::rc::Rc::new(std::cell::Cell::new(0));
    let counter = entries.clone();
    machine.connect_to_state(mark, move |entered| {
        if entered {
            counter.set(counter.get() + 1);
        }
    });
    machine.connect_to_error(|_| {});
    machine.start();
    entries.get()
}

/// A started toggle machine with one state observer (counting entries of `on`): every
/// macrostep records its exits and entries and delivers them. Returns the machine and the
/// count.
pub fn observed_toggle() -> (toggle::Toggle, std::rc::Rc<std::cell::Cell<u64>>) {
    let m = toggle::Toggle::new();
    let entries = std::rc::Rc::new(std::cell::Cell::new(0u64));
    let counter = entries.clone();
    m.connect_to_state(toggle::State::On, move |entered| {
        counter.set(counter.get() + u64::from(entered));
    });
    m.start();
    (m, entries)
}

/// The toggle chart written by hand: what the generated machine is measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HandToggle {
    /// `off`.
    #[default]
    Off,
    /// `on`.
    On,
}

impl HandToggle {
    /// Handles one event by name, as `submit_event` does.
    pub fn submit(&mut self, event: &str) {
        if event == "toggle" {
            *self = match self {
                HandToggle::Off => HandToggle::On,
                HandToggle::On => HandToggle::Off,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_and_hand_written_toggles_agree() {
        let generated = toggle::Toggle::new();
        generated.start();
        let mut hand = HandToggle::default();
        for _ in 0..5 {
            generated.submit_event(toggle::events::TOGGLE, ());
            hand.submit("toggle");
            assert_eq!(
                generated.is_active(toggle::State::On),
                hand == HandToggle::On
            );
        }
    }

    #[test]
    fn the_deep_toggle_toggles_inside_its_sixteen_ancestors() {
        let m = deep_toggle::DeepToggle::new();
        m.start();
        for i in 0..5 {
            m.submit_event(deep_toggle::events::TOGGLE, ());
            assert_eq!(m.is_active(deep_toggle::State::On), i % 2 == 0);
            assert_eq!(m.active_state_ids().len(), 17);
        }
    }

    #[test]
    fn uscxml_charts_enter_mark_repeatedly() {
        for (name, run) in uscxml::USCXML {
            let entries = run(1000);
            assert!(
                entries > 10,
                "{name}: {entries} entries of mark in 1000 microsteps"
            );
        }
    }
}
