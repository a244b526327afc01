//! The observers of a [`Machine`](super::Machine) (Qt's signals: `connectToState`,
//! `connectToEvent`, ...), held apart from the machine that calls them.
//!
//! The lists are copy-on-write behind one `Rc`: delivery works on a snapshot (one reference
//! count), so a callback may connect or disconnect observers while it runs. Disconnecting
//! marks its slot dead and tells the lists ([`Observers::take_stale`]), so the machine
//! recomputes what it must record ([`Watch`]) only after something was disconnected.

use super::{Event, RuntimeError, StateIndex};
use serde_json::Value;
use std::cell::{Cell, RefCell, UnsafeCell};
use std::fmt;
use std::rc::{Rc, Weak};

pub(crate) type StateSlot = Rc<Slot<dyn FnMut(bool)>>;
pub(crate) type EventSlot = Rc<Slot<dyn FnMut(&Event)>>;
pub(crate) type TypedSlot<E> = Rc<Slot<dyn FnMut(&E)>>;
pub(crate) type ErrorSlot = Rc<Slot<dyn FnMut(&RuntimeError)>>;
pub(crate) type LogSlot = Rc<Slot<dyn FnMut(&str, &Value)>>;

/// Every observer of one machine.
pub(crate) struct Observers<E> {
    /// State observers: the state and the callback.
    pub(crate) states: Vec<(StateIndex, StateSlot)>,
    /// Observers by descriptor: the normalized descriptors and the callback.
    pub(crate) events: Vec<(Vec<String>, EventSlot)>,
    /// Typed event observers.
    pub(crate) typed: Vec<TypedSlot<E>>,
    pub(crate) errors: Vec<ErrorSlot>,
    pub(crate) logs: Vec<LogSlot>,
    /// The states that `states` names (bit `s % 64`; [`state_bit`]), dead slots'
    /// states included until a connection drops them: a delivery walks `states` only for
    /// an exited or entered state that may be watched ([`may_watch`]).
    pub(crate) state_mask: u64,
    /// Set when a slot of these lists is disconnected (shared with every slot).
    stale: Rc<Cell<bool>>,
}

impl<E> Clone for Observers<E> {
    fn clone(&self) -> Self {
        Observers {
            states: self.states.clone(),
            events: self.events.clone(),
            typed: self.typed.clone(),
            errors: self.errors.clone(),
            logs: self.logs.clone(),
            state_mask: self.state_mask,
            stale: Rc::clone(&self.stale),
        }
    }
}

impl<E> Default for Observers<E> {
    fn default() -> Self {
        Observers {
            states: Vec::new(),
            events: Vec::new(),
            typed: Vec::new(),
            errors: Vec::new(),
            logs: Vec::new(),
            state_mask: 0,
            stale: Rc::default(),
        }
    }
}

/// The bit of state `s` in a mask of watched states: bit `s % 64`. States 64 apart share
/// a bit, so a mask may let through a state nobody watches (a walk that finds nothing),
/// never the other way round; one shift and one test, with no comparison for the larger
/// charts' states.
#[inline(always)]
pub(crate) fn state_bit(s: StateIndex) -> u64 {
    1 << (s % 64)
}

/// Whether state `s` may have an observer, by the `mask` of [`state_bit`]s of the states
/// observed.
#[inline(always)]
pub(crate) fn may_watch(mask: u64, s: StateIndex) -> bool {
    mask & state_bit(s) != 0
}

/// Which kinds of observer a machine has: what the interpreter must record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Watch {
    pub(crate) states: bool,
    pub(crate) events: bool,
    pub(crate) logs: bool,
}

impl<E> Observers<E> {
    /// What is observed now.
    pub(crate) fn watch(&self) -> Watch {
        Watch {
            states: self.observe_states(),
            events: self.observe_events(),
            logs: self.observe_logs(),
        }
    }

    /// Whether some state observer is connected.
    pub(crate) fn observe_states(&self) -> bool {
        self.states.iter().any(|(_, s)| s.is_live())
    }

    /// Whether some event observer (by descriptor or typed) is connected.
    pub(crate) fn observe_events(&self) -> bool {
        self.events.iter().any(|(_, s)| s.is_live()) || self.typed.iter().any(|s| s.is_live())
    }

    /// Whether some log observer is connected.
    pub(crate) fn observe_logs(&self) -> bool {
        self.logs.iter().any(|s| s.is_live())
    }

    /// Whether a slot was disconnected since the last call.
    #[inline]
    pub(crate) fn take_stale(&self) -> bool {
        // Written only when set: every delivery asks, and almost every answer is `false`.
        let stale = self.stale.get();
        if stale {
            self.stale.set(false);
        }
        stale
    }

    /// Takes the disconnected slots out of every list (and their states out of
    /// `state_mask`). They are returned, not dropped: dropping the last handle of a slot
    /// drops its callback, which is user code ([`ObserverCell::connect`] drops them after
    /// it let go of the lists).
    fn prune(&mut self) -> Pruned<E> {
        let pruned = Pruned {
            states: take_dead(&mut self.states, |(_, s)| s.is_live()),
            events: take_dead(&mut self.events, |(_, s)| s.is_live()),
            typed: take_dead(&mut self.typed, |s| s.is_live()),
            errors: take_dead(&mut self.errors, |s| s.is_live()),
            logs: take_dead(&mut self.logs, |s| s.is_live()),
        };
        self.state_mask = self
            .states
            .iter()
            .fold(0, |mask, &(s, _)| mask | state_bit(s));
        pruned
    }
}

/// The dead slots [`Observers::prune`] took out, dropped by its caller.
#[allow(dead_code, reason = "held only to be dropped where user code may run")]
struct Pruned<E> {
    states: Vec<(StateIndex, StateSlot)>,
    events: Vec<(Vec<String>, EventSlot)>,
    typed: Vec<TypedSlot<E>>,
    errors: Vec<ErrorSlot>,
    logs: Vec<LogSlot>,
}

/// The items of `list` that are not `live`, taken out in order (no allocation when there
/// are none).
fn take_dead<T>(list: &mut Vec<T>, live: impl Fn(&T) -> bool) -> Vec<T> {
    if list.iter().all(&live) {
        return Vec::new();
    }
    let (keep, dead) = std::mem::take(list).into_iter().partition(live);
    *list = keep;
    dead
}

/// The observers of a machine, copy-on-write behind one `Rc`, in a cell without a borrow
/// flag: a delivery takes a [`snapshot`](Self::snapshot) (one reference count), a
/// connection changes the lists ([`connect`](Self::connect)), and neither runs user code
/// while it reaches into the cell, so no callback can come upon the lists while they are
/// being read or changed.
pub(crate) struct ObserverCell<E> {
    lists: UnsafeCell<Rc<Observers<E>>>,
}

impl<E> Default for ObserverCell<E> {
    fn default() -> Self {
        ObserverCell {
            lists: UnsafeCell::new(Rc::default()),
        }
    }
}

impl<E> ObserverCell<E> {
    /// The lists as they are now, for a delivery: a connection made while it is held (from a
    /// callback) changes a copy ([`Rc::make_mut`]), not the lists the delivery walks.
    #[inline(always)]
    pub(crate) fn snapshot(&self) -> Rc<Observers<E>> {
        self.with(Rc::clone)
    }

    /// Runs `f` on the lists (to read them). `f` runs no user code: it is the crate's own
    /// (the cell is crate-private), and it only reads flags and counts or clones the `Rc`.
    #[inline(always)]
    pub(crate) fn with<R>(&self, f: impl FnOnce(&Rc<Observers<E>>) -> R) -> R {
        // SAFETY: the only `&mut` into the cell is made in `connect`, which runs no user code
        // while it lives (the closures it calls are the crate's own and only push an `Rc`
        // and set a bit; what they drop is kept alive by `connect`'s own handles, so no
        // callback is dropped in there, not even on unwinding). The cell is not `Sync`
        // (`UnsafeCell`) and `Shared` holds `Cell`s: nothing else runs meanwhile. So no
        // `&mut` is alive while this `&` is, and `f` does not call `connect` either.
        f(unsafe { &*self.lists.get() })
    }

    /// Adds the callback `callback` with `add` (which pushes the slot onto a list and may set
    /// a bit of `state_mask`), and drops the disconnected slots. Returns its
    /// [`Connection`]. `add` must run no user code (see [`with`](Self::with)): it is the
    /// crate's own. A dropped callback may connect observers itself: read what is observed
    /// ([`Observers::watch`]) afterwards, not inside.
    pub(crate) fn connect<F: ?Sized + 'static>(
        &self,
        callback: Box<F>,
        add: impl FnOnce(&mut Observers<E>, Rc<Slot<F>>),
    ) -> Connection {
        let stale = self.with(|lists| Rc::clone(&lists.stale));
        let slot = Rc::new(Slot {
            connected: Cell::new(true),
            stale,
            callback: RefCell::new(callback),
        });
        let connection = Connection {
            slot: Rc::downgrade(&slot) as Weak<dyn SlotControl>,
        };
        // Held until the lists are let go: should `add` unwind, dropping its slot only
        // counts down, and never drops the callback while the lists are borrowed.
        let keep = Rc::clone(&slot);
        let pruned = {
            // SAFETY: no `&` or `&mut` into the cell is alive: `with` lends one only to the
            // crate's own closures, which do not call `connect`, and this is not reached from
            // inside `connect` (no user code runs below: `make_mut` clones lists of `Rc`s
            // and strings, `prune` moves the dead slots out without dropping them, and `add`
            // is the crate's own). The `&mut` ends with this block, before anything is
            // dropped that could run user code.
            let lists = unsafe { &mut *self.lists.get() };
            let lists = Rc::make_mut(lists);
            // `add` first: should it unwind, nothing taken out is on the way to be dropped.
            add(lists, slot);
            lists.prune()
        };
        // The callbacks of dead slots (user code) are dropped here, outside the cell: they
        // may connect observers of this machine.
        drop(pruned);
        drop(keep);
        connection
    }
}

/// One observer's callback.
pub(crate) struct Slot<F: ?Sized> {
    connected: Cell<bool>,
    /// The lists' flag, set on disconnecting.
    stale: Rc<Cell<bool>>,
    callback: RefCell<Box<F>>,
}

impl<F: ?Sized> Slot<F> {
    #[inline]
    pub(crate) fn is_live(&self) -> bool {
        self.connected.get()
    }

    /// Calls the callback unless disconnected or already running (a callback never runs
    /// inside itself).
    #[inline]
    pub(crate) fn call(&self, f: impl FnOnce(&mut F)) {
        if !self.connected.get() {
            return;
        }
        if let Ok(mut cb) = self.callback.try_borrow_mut() {
            f(&mut cb);
        }
    }
}

trait SlotControl {
    fn disconnect(&self);
    fn is_connected(&self) -> bool;
}

impl<F: ?Sized> SlotControl for Slot<F> {
    fn disconnect(&self) {
        if self.connected.replace(false) {
            self.stale.set(true);
        }
    }
    fn is_connected(&self) -> bool {
        self.connected.get()
    }
}

/// The handle of one observer registered with `connect_to_*`.
///
/// Like a Qt connection, dropping it does **not** disconnect the observer: keep it only if
/// you want to [`disconnect`](Connection::disconnect) later. The observer lives as long as the
/// machine unless disconnected.
#[derive(Clone)]
pub struct Connection {
    slot: Weak<dyn SlotControl>,
}

impl Connection {
    /// Stops the observer from being called (also from within the observer itself). Calling
    /// it again, or after the machine was dropped, does nothing.
    pub fn disconnect(&self) {
        if let Some(slot) = self.slot.upgrade() {
            slot.disconnect();
        }
    }

    /// Whether the observer is still connected: not disconnected and the machine alive.
    pub fn is_connected(&self) -> bool {
        self.slot.upgrade().is_some_and(|s| s.is_connected())
    }
}

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("connected", &self.is_connected())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::{may_watch, state_bit};

    #[test]
    fn the_state_mask_lets_every_watched_state_through() {
        let mask = state_bit(0) | state_bit(5) | state_bit(63) | state_bit(900);
        assert_eq!(mask, 1 | 1 << 4 | 1 << 5 | 1 << 63);
        for s in [0, 5, 63, 900] {
            assert!(may_watch(mask, s), "{s}");
        }
        // States 64 apart share a bit: let through, never left out.
        for s in [64, 68, 127, 964] {
            assert!(may_watch(mask, s), "{s}");
        }
        for s in [1, 3, 6, 62, 65, 126, u32::MAX - 1] {
            assert!(!may_watch(mask, s), "{s}");
        }
        assert!(may_watch(mask, u32::MAX));
        assert!(!may_watch(0, 0) && !may_watch(0, 64));
    }
}
