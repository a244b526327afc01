//! Generated macrosteps: what the code the generator writes for a chart without `<parallel>`
//! or `<invoke>` (`Chart::STEP`) calls to process an event without the generic interpreter's
//! selection: every external event it covers, and every internal event (`<raise>`,
//! `error.execution`, `done.state.*`) that the macrostep's loop takes off the internal queue.
//!
//! The generated code matches the event's variant and the active atomic state, evaluates the
//! candidate transitions' conditions in document order (calling the same `cond_N` functions
//! the interpreter's tables hold), runs the content of a targetless transition itself (the
//! same `block_N`), and hands a transition with targets to the interpreter's own microstep
//! for exactly that transition. The rest of the macrostep (eventless transitions, internal
//! events raised on the way) is the interpreter's loop, as for any event. The random walks of
//! `scxml-scion-tests` compare every such step with the full interpreter
//! (`Machine::set_precomputed_steps(false)`).

use super::envelope::{ChartEvent, Envelope};
use super::interpreter::Interpreter;
use super::{Context, ExecError, StateIndex, TransitionIndex};

/// The generated macrostep of a chart: processes `event` and returns `Ok`, or gives it back
/// untouched (`Err`) when the chart's generated code does not cover it.
pub type StepFn<D, E> = fn(&mut Stepper<'_, D, E>, Envelope<E>) -> Result<(), Envelope<E>>;

/// What a generated macrostep reaches of the interpreter (for generated code only).
#[doc(hidden)]
pub struct Stepper<'a, D: 'static, E: 'static> {
    interp: &'a mut Interpreter<D, E>,
    /// The event is an internal one, taken off the internal queue inside a macrostep.
    internal: bool,
}

impl<'a, D: 'static, E: ChartEvent> Stepper<'a, D, E> {
    /// A stepper for an external event: it starts a macrostep and finishes it.
    pub(crate) fn new(interp: &'a mut Interpreter<D, E>) -> Self {
        Stepper {
            interp,
            internal: false,
        }
    }

    /// A stepper for an internal event, inside the macrostep's loop (which goes on after it).
    pub(crate) fn internal(interp: &'a mut Interpreter<D, E>) -> Self {
        Stepper {
            interp,
            internal: true,
        }
    }

    /// The active atomic state (the chart has no `<parallel>`: there is one).
    #[inline]
    pub fn leaf(&self) -> StateIndex {
        self.interp.leaf()
    }

    /// Starts processing `event`: it becomes `_event`; observers will hear an external one.
    #[inline]
    pub fn begin(&mut self, event: Envelope<E>) {
        if self.internal {
            self.begin_internal(event);
        } else {
            self.interp.begin_external(event);
        }
    }

    /// [`begin`](Self::begin) for an internal event, out of line: the external event's path
    /// stays short.
    #[inline(never)]
    fn begin_internal(&mut self, event: Envelope<E>) {
        self.interp.set_internal_event(event);
    }

    /// Evaluates a transition's `cond`: an `Err` makes it false and raises
    /// `error.execution` (SCXML 1.0, 5.9), as the interpreter's `conditionMatch` does.
    #[inline]
    pub fn cond(&mut self, f: fn(&D, &Context<E>) -> Result<bool, ExecError>, line: u32) -> bool {
        match f(&self.interp.data, &self.interp.ctx) {
            Ok(b) => b,
            Err(e) => {
                self.interp.report_execution_error("transition", line, e);
                false
            }
        }
    }

    /// Runs the content of the targetless transition `t` (a microstep that exits and enters
    /// nothing): `f` is its block.
    #[inline]
    pub fn content(
        &mut self,
        t: TransitionIndex,
        f: fn(&mut D, &mut Context<E>) -> Result<(), ExecError>,
        line: u32,
    ) {
        self.interp.note_microstep(t);
        if let Err(e) = f(&mut self.interp.data, &mut self.interp.ctx) {
            self.interp
                .report_execution_error("executable content", line, e);
        }
        self.interp.flush_logs();
    }

    /// The interpreter's microstep for the selected transition `t` (exits, content,
    /// entries, history).
    #[inline]
    pub fn microstep(&mut self, t: TransitionIndex) {
        self.interp.microstep_of(t);
    }

    /// Ends the event's processing: for an external event, the rest of the macrostep
    /// (eventless transitions and internal events, by the interpreter), after `microsteps`
    /// microsteps; for an internal one, nothing (the macrostep's loop goes on).
    #[inline]
    pub fn finish(&mut self, microsteps: usize) {
        if !self.internal {
            self.interp.finish_external(microsteps);
        }
    }
}
