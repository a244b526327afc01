//! Panics in chart code. Every call of generated code runs under [`guarded`] (and each block
//! of executable content under [`run_chart_code`] too, so that the statement that panicked is
//! known): a panic becomes an [`ExecError`], hence `error.execution`, and never reaches the
//! caller of `submit_event`.
//!
//! A panic that is caught this way is not printed: the first guarded call installs a panic
//! hook that stays silent while chart code runs on the current thread (it only notes where
//! the panic happened, for the error's message) and hands every other panic to the hook that
//! was installed before. This holds with `panic = "unwind"`, the default; with
//! `panic = "abort"` a panic cannot be caught, and one in chart code aborts the process.

use super::ExecError;
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// How many guarded calls of chart code are running on this thread.
    static IN_CHART_CODE: Cell<u32> = const { Cell::new(0) };
    /// Where the last panic in chart code happened (`file:line`).
    static LAST_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

static INSTALL_HOOK: Once = Once::new();

/// Installs the hook that keeps caught panics of chart code quiet (once per process; every
/// machine calls it when it is made, so that running chart code costs no check).
pub(crate) fn install_hook() {
    INSTALL_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_CHART_CODE.with(Cell::get) > 0 {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()));
                LAST_LOCATION.with(|l| *l.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

/// Marks chart code as running on this thread while it lives.
struct InChartCode;

impl InChartCode {
    #[inline]
    fn enter() -> Self {
        IN_CHART_CODE.with(|c| c.set(c.get().wrapping_add(1)));
        InChartCode
    }
}

impl Drop for InChartCode {
    #[inline]
    fn drop(&mut self) {
        // Balanced with `enter` (drop runs on unwinding too), so this undoes its `+ 1`
        // exactly: around chart code that cannot panic the two fold away.
        IN_CHART_CODE.with(|c| c.set(c.get().wrapping_sub(1)));
    }
}

/// The message of a panic payload, with where it happened when the hook saw it.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let msg = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_owned()
    };
    match LAST_LOCATION.with(|l| l.borrow_mut().take()) {
        Some(at) => format!("chart code panicked at {at}: {msg}"),
        None => format!("chart code panicked: {msg}"),
    }
}

/// Runs generated code, turning a panic into an [`ExecError`] (without printing it).
#[inline]
pub(crate) fn guarded<R>(f: impl FnOnce() -> Result<R, ExecError>) -> Result<R, ExecError> {
    let _running = InChartCode::enter();
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(ExecError::new(panic_message(&*payload))),
    }
}

/// Runs the body of a block of executable content or a condition, as generated code calls
/// it: a panic becomes an [`ExecError`] here, so that the caller can still say which element
/// was running (`ExecError::at` with the element's site).
#[inline]
pub fn run_chart_code<R>(f: impl FnOnce() -> Result<R, ExecError>) -> Result<R, ExecError> {
    guarded(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_in_chart_code_become_errors() {
        install_hook();
        let r: Result<(), ExecError> = guarded(|| panic!("oops {}", 1));
        let message = r.unwrap_err().message().to_owned();
        assert!(message.starts_with("chart code panicked at "), "{message}");
        assert!(message.contains("src/runtime/panic.rs:"), "{message}");
        assert!(message.ends_with(": oops 1"), "{message}");
        let r: Result<(), ExecError> = guarded(|| std::panic::panic_any(5u8));
        assert!(r.unwrap_err().message().ends_with("unknown panic payload"));
        assert_eq!(guarded(|| Ok(3)), Ok(3));
        assert_eq!(IN_CHART_CODE.with(Cell::get), 0);
    }
}
