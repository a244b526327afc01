//! [`Observer`]: what a [`Core`](super::Core) tells its typed observer, chosen at compile
//! time (a type parameter of the core, not a list of boxed callbacks), so that a call to it
//! inlines where the core runs the macrostep.

use crate::runtime::Chart;

/// The typed observer of a [`Core`](super::Core): it hears every external event of the
/// chart's names that the machine dequeues (after the macrostep the event started) and every
/// state entry and exit (after the macrostep in which it happened), in the order the boxed
/// callbacks of the core hear them (`observe`, `on_state`), after them.
///
/// `()` observes nothing; [`Events`] and [`States`] turn closures into observers, and a pair
/// `(A, B)` tells `A`, then `B`. The constants [`EVENTS`](Observer::EVENTS) and
/// [`STATES`](Observer::STATES) say what the observer listens to: the machine records
/// nothing for an observer that does not listen (a `false` constant is checked at compile
/// time and costs nothing).
///
/// `sudoku-scxmlc/GUIDE.md` ("The owned core") shows one at work, as a doctest.
pub trait Observer<C: Chart> {
    /// Whether [`event`](Observer::event) wants to hear events.
    const EVENTS: bool = true;
    /// Whether [`state`](Observer::state) wants to hear entries and exits.
    const STATES: bool = true;

    /// An external event of the chart's names, after the macrostep it started.
    #[inline(always)]
    fn event(&mut self, event: &C::Event) {
        let _ = event;
    }

    /// `state` was entered (`true`) or exited (`false`), after the macrostep in which it
    /// happened; exits in exit order, then entries in entry order (SCXML 1.0, 3.13).
    #[inline(always)]
    fn state(&mut self, state: C::State, entered: bool) {
        let _ = (state, entered);
    }
}

/// Observes nothing.
impl<C: Chart> Observer<C> for () {
    const EVENTS: bool = false;
    const STATES: bool = false;
}

/// A closure `FnMut(&C::Event)` as an [`Observer`] of events.
#[derive(Debug, Clone, Copy, Default)]
pub struct Events<F>(pub F);

impl<C: Chart, F: FnMut(&C::Event)> Observer<C> for Events<F> {
    const STATES: bool = false;

    #[inline(always)]
    fn event(&mut self, event: &C::Event) {
        (self.0)(event);
    }
}

/// A closure `FnMut(C::State, bool)` as an [`Observer`] of state entries (`true`) and exits.
#[derive(Debug, Clone, Copy, Default)]
pub struct States<F>(pub F);

impl<C: Chart, F: FnMut(C::State, bool)> Observer<C> for States<F> {
    const EVENTS: bool = false;

    #[inline(always)]
    fn state(&mut self, state: C::State, entered: bool) {
        (self.0)(state, entered);
    }
}

/// Both observers: `A` hears each event and state change first, then `B`.
impl<C: Chart, A: Observer<C>, B: Observer<C>> Observer<C> for (A, B) {
    const EVENTS: bool = A::EVENTS || B::EVENTS;
    const STATES: bool = A::STATES || B::STATES;

    #[inline(always)]
    fn event(&mut self, event: &C::Event) {
        if A::EVENTS {
            self.0.event(event);
        }
        if B::EVENTS {
            self.1.event(event);
        }
    }

    #[inline(always)]
    fn state(&mut self, state: C::State, entered: bool) {
        if A::STATES {
            self.0.state(state, entered);
        }
        if B::STATES {
            self.1.state(state, entered);
        }
    }
}
