//! Puzzle generation off the UI thread.
//!
//! The chart asks with `generate.request {level}` and may take it back with
//! `generate.cancel`; the worker runs [`engine::generate_cancellable`] on its own thread with
//! a fresh random seed and a cancel flag, and the result comes back to the UI thread through
//! a channel that a Slint timer polls, as a `generated` event. Whether the game still wants
//! it is the chart's business (a result that arrives after a cancel is ignored there).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use slint::{Timer, TimerMode};
use sudoku_machine::engine::{self, Level, Options, Symmetry};

/// How often the UI thread looks for a finished puzzle.
const POLL: Duration = Duration::from_millis(25);

/// A finished generation: the `generated` event's data.
type Done = serde_json::Value;

struct Job {
    cancel: Arc<AtomicBool>,
    done: Receiver<Option<Done>>,
}

/// The generator thread's handle on the UI thread.
#[derive(Clone, Default)]
pub struct Worker {
    job: Rc<RefCell<Option<Job>>>,
    timer: Rc<Timer>,
}

impl Worker {
    /// Starts generating a puzzle of `level` (cancelling one under way); `deliver` gets the
    /// `generated` event's data on the UI thread.
    pub fn request(&self, level: Level, deliver: impl Fn(Done) + 'static) {
        self.cancel();
        let cancel = Arc::new(AtomicBool::new(false));
        let (send, done) = channel();
        let flag = cancel.clone();
        let seed: u64 = rand::random();
        std::thread::spawn(move || {
            let options = Options {
                symmetry: Symmetry::Rotational,
                ..Options::new(level, seed)
            };
            let made = engine::generate_cancellable(&options, &flag).map(|generated| {
                json!({
                    "initState": generated.puzzle,
                    "name": format!("Generated #{:05}", seed % 100_000),
                    "level": generated.grading.level,
                })
            });
            let _ = send.send(made);
        });
        *self.job.borrow_mut() = Some(Job { cancel, done });
        let job = self.job.clone();
        self.timer.start(TimerMode::Repeated, POLL, {
            let timer = Rc::downgrade(&self.timer);
            move || {
                let result = match job.borrow().as_ref().map(|j| j.done.try_recv()) {
                    Some(Err(TryRecvError::Empty)) => return,
                    Some(Ok(made)) => made,
                    Some(Err(TryRecvError::Disconnected)) | None => None,
                };
                job.borrow_mut().take();
                if let Some(timer) = timer.upgrade() {
                    timer.stop();
                }
                if let Some(made) = result {
                    deliver(made);
                }
            }
        });
    }

    /// Stops the generation under way, if any; its result is dropped.
    pub fn cancel(&self) {
        if let Some(job) = self.job.borrow_mut().take() {
            job.cancel.store(true, Ordering::Relaxed);
        }
        self.timer.stop();
    }

    /// Whether a generation is under way.
    pub fn busy(&self) -> bool {
        self.job.borrow().is_some()
    }
}
