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
    fn the_handles_lane_queues_what_observers_submit_and_hears_new_observers() {
        use std::cell::RefCell;
        use std::rc::Rc;
        // The counter's lane ends its macrostep with nothing recorded: the handle looks at
        // nothing after it but its observers. An observer that submits from its callback
        // is queued: the event it submits is heard after the one being delivered, and the
        // count it reads is the configuration's and datamodel's of that moment.
        let m = counter::Counter::new();
        let heard = Rc::new(RefCell::new(Vec::new()));
        let (h, weak) = (heard.clone(), m.downgrade());
        m.observe(move |_| {
            let m = weak.upgrade().expect("the machine lives");
            let count = m.with_data(|d| d.count);
            h.borrow_mut().push(count);
            if count % 2 == 1 {
                m.submit(counter::Event::Inc);
                // Queued, not run inside this callback.
                assert_eq!(m.with_data(|d| d.count), count);
            }
        });
        m.start();
        for _ in 0..3 {
            m.submit(counter::Event::Inc);
        }
        assert_eq!(*heard.borrow(), [1, 2, 3, 4, 5, 6]);
        assert_eq!(m.with_data(|d| d.count), 6);

        // The toggle's lane moves by precomputed lists: a state observer connected from
        // another observer's callback hears the events after it, and accessors called
        // from a callback see the configuration after the macrostep.
        let m = toggle::Toggle::new();
        let entries = Rc::new(RefCell::new(Vec::new()));
        let (e, weak) = (entries.clone(), m.downgrade());
        let connected = Rc::new(std::cell::Cell::new(false));
        m.connect_to_state(toggle::State::On, move |entered| {
            let m = weak.upgrade().expect("the machine lives");
            assert_eq!(m.is_active(toggle::State::On), entered);
            e.borrow_mut().push(("on", entered));
            if !connected.replace(true) {
                let e = e.clone();
                m.connect_to_state(toggle::State::Off, move |entered| {
                    e.borrow_mut().push(("off", entered));
                });
            }
        });
        m.start();
        for _ in 0..3 {
            m.submit(toggle::Event::Toggle);
        }
        assert_eq!(
            *entries.borrow(),
            [
                ("on", true),
                ("on", false),
                ("off", true),
                ("off", false),
                ("on", true)
            ]
        );
    }

    #[test]
    fn callbacks_dropped_when_a_connection_prunes_them_may_connect_observers() {
        use std::cell::RefCell;
        use std::rc::Rc;
        use sudoku_scxmlc::runtime::WeakMachine;
        type Heard = Rc<RefCell<Vec<(&'static str, bool)>>>;
        // Owned by the first observer's callback: dropping it connects an observer of `off`
        // to the machine. It is dropped when a later connection takes the disconnected slot
        // out of the lists; the observer lists are let go by then.
        struct ConnectOnDrop(WeakMachine<toggle::ToggleChart>, Heard);
        impl Drop for ConnectOnDrop {
            fn drop(&mut self) {
                if let Some(m) = self.0.upgrade() {
                    let heard = self.1.clone();
                    m.connect_to_state(toggle::State::Off, move |entered| {
                        heard.borrow_mut().push(("off", entered));
                    });
                }
            }
        }
        let m = toggle::Toggle::new();
        let heard: Heard = Rc::default();
        let guard = ConnectOnDrop(m.downgrade(), heard.clone());
        let h = heard.clone();
        let connection = Rc::new(RefCell::new(None::<sudoku_scxmlc::runtime::Connection>));
        let c = connection.clone();
        let first = m.connect_to_state(toggle::State::On, move |entered| {
            let _owned = &guard;
            h.borrow_mut().push(("on", entered));
            if !entered {
                // Disconnected from inside its own callback, during the lane's delivery.
                c.borrow().as_ref().expect("connected").disconnect();
            }
        });
        *connection.borrow_mut() = Some(first.clone());
        m.start();
        for _ in 0..3 {
            m.submit(toggle::Event::Toggle);
        }
        assert!(!first.is_connected());
        // Connecting an event observer takes the dead slot out and drops its callback, whose
        // guard connects the observer of `off`, which hears the events from then on; the
        // lane still runs for both.
        let h = heard.clone();
        m.observe(move |_| h.borrow_mut().push(("event", true)));
        for _ in 0..2 {
            m.submit(toggle::Event::Toggle);
        }
        assert_eq!(
            *heard.borrow(),
            [
                ("on", true),
                ("on", false),
                ("event", true),
                ("off", true),
                ("event", true),
                ("off", false),
            ]
        );
        assert!(m.is_active(toggle::State::On));
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
