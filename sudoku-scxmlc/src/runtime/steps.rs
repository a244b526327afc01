//! Generated macrosteps: what the code the generator writes for a chart without `<parallel>`
//! or `<invoke>` (`Chart::step`) calls to process an external event without the generic
//! interpreter's selection.
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
}

impl<'a, D: 'static, E: ChartEvent> Stepper<'a, D, E> {
    pub(crate) fn new(interp: &'a mut Interpreter<D, E>) -> Self {
        Stepper { interp }
    }

    /// The active atomic state (the chart has no `<parallel>`: there is one).
    #[inline]
    pub fn leaf(&self) -> StateIndex {
        self.interp.leaf()
    }

    /// Starts processing the external event `event`: it becomes `_event`, and observers will
    /// hear it.
    #[inline]
    pub fn begin(&mut self, event: Envelope<E>) {
        self.interp.begin_external(event);
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

    /// Ends the event's processing: the rest of the macrostep (eventless transitions and
    /// internal events, by the interpreter), after `microsteps` microsteps.
    #[inline]
    pub fn finish(&mut self, microsteps: usize) {
        self.interp.finish_external(microsteps);
    }
}
