//! An async host for the owned [`Core`]: a tokio task that runs the chart on the clock
//! (feature `tokio`).
//!
//! [`spawn`] gives a [`Driver`] (the future to run, e.g. with `tokio::spawn`) and a
//! [`Handle`] to submit events from anywhere. The driver sleeps until the next delayed event
//! of the chart is due or the next event is submitted, whichever comes first; each time it
//! wakes it moves the core's machine time to the clock (`tokio::time::Instant`, so tokio's
//! paused test time drives it too) and then processes what was submitted. It ends, handing
//! the core back, when the chart reaches a top-level `<final>`, when [`Handle::stop`] is
//! called, or when every handle is dropped. Observe it with the core's Send callbacks
//! ([`Core::on_state`], [`Core::observe`], ...), connected before spawning.

use super::{Chart, Core, Envelope, Event, EventKind, Meta};
use serde_json::Value;
use std::fmt;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// What a [`Handle`] sends the driver.
enum Command<E> {
    Typed(E),
    Plain(Event),
    Stop,
}

/// Submits events to a running [`Driver`] from any task or thread; cheap to clone.
pub struct Handle<E> {
    tx: mpsc::UnboundedSender<Command<E>>,
}

impl<E> Clone for Handle<E> {
    fn clone(&self) -> Self {
        Handle {
            tx: self.tx.clone(),
        }
    }
}

impl<E> fmt::Debug for Handle<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handle")
            .field("closed", &self.tx.is_closed())
            .finish()
    }
}

/// The driver has ended (the chart finished or was stopped); the event was not delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended;

impl fmt::Display for Ended {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the state machine's driver has ended")
    }
}

impl std::error::Error for Ended {}

impl<E> Handle<E> {
    /// Submits the chart's typed event; it is processed at the machine time it arrives.
    ///
    /// # Errors
    /// [`Ended`] once the driver has ended.
    pub fn submit(&self, event: E) -> Result<(), Ended> {
        self.tx.send(Command::Typed(event)).map_err(|_| Ended)
    }

    /// Submits the event `name` with JSON `data` (`()` for none), as Qt's `submitEvent`.
    ///
    /// # Errors
    /// [`Ended`] once the driver has ended.
    pub fn submit_event(&self, name: &str, data: impl Into<Value>) -> Result<(), Ended> {
        self.tx
            .send(Command::Plain(Event::new(name, data)))
            .map_err(|_| Ended)
    }

    /// Stops the machine ([`Core::stop`]) and ends the driver, after the events submitted
    /// before.
    ///
    /// # Errors
    /// [`Ended`] when it has ended already.
    pub fn stop(&self) -> Result<(), Ended> {
        self.tx.send(Command::Stop).map_err(|_| Ended)
    }
}

/// Runs a [`Core`] on the clock: see the [module docs](self). Await [`run`](Driver::run) (or
/// `tokio::spawn` it: it is `Send` when the core is).
pub struct Driver<C: Chart> {
    core: Core<C>,
    rx: mpsc::UnboundedReceiver<Command<C::Event>>,
}

impl<C: Chart> fmt::Debug for Driver<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Driver").field("core", &self.core).finish()
    }
}

/// A driver for `core` and a handle to submit events to it. The core is started when the
/// driver runs, unless it runs already (it may have been started, or restored from a
/// snapshot).
pub fn spawn<C: Chart>(core: Core<C>) -> (Driver<C>, Handle<C::Event>) {
    let (tx, rx) = mpsc::unbounded_channel();
    (Driver { core, rx }, Handle { tx })
}

impl<C: Chart> Driver<C> {
    /// Runs the machine until it reaches a top-level `<final>`, is stopped through a
    /// [`Handle`], or every handle is dropped; returns the core (to read its datamodel, or
    /// to take a snapshot).
    pub async fn run(mut self) -> Core<C> {
        if !self.core.is_running() {
            self.core.start();
        }
        let mut synced = Instant::now();
        loop {
            // Machine time catches up with the clock: delayed events due by now fire.
            let now = Instant::now();
            self.core
                .advance_time(now.saturating_duration_since(synced));
            synced = now;
            if !self.core.is_running() {
                break;
            }
            let command = match self.core.time_until_next() {
                Some(wait) => match tokio::time::timeout(wait, self.rx.recv()).await {
                    Ok(command) => command,
                    // The next delayed event is due.
                    Err(_) => continue,
                },
                None => self.rx.recv().await,
            };
            let now = Instant::now();
            self.core
                .advance_time(now.saturating_duration_since(synced));
            synced = now;
            // Refused or dropped events reach the core's error callbacks.
            match command {
                Some(Command::Typed(event)) => {
                    let event = Envelope::Typed(event, Meta::of(EventKind::External));
                    let _ = self.core.submit_envelope(event);
                }
                Some(Command::Plain(event)) => {
                    let _ = self.core.submit(event);
                }
                Some(Command::Stop) => {
                    self.core.stop();
                    break;
                }
                None => break,
            }
        }
        self.core
    }
}
