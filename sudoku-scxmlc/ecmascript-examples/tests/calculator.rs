//! Qt's calculator chart, unchanged, computes: keys go in as Qt's example window sends them,
//! the display is what the chart's `updateDisplay` events say.

use scxml_ecmascript_examples::calculator::CalculatorStateMachine;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// A running calculator and the last display it sent.
struct Calculator {
    machine: CalculatorStateMachine,
    display: Rc<RefCell<String>>,
    _connection: sudoku_scxmlc::runtime::Connection,
}

impl Calculator {
    fn new() -> Self {
        let machine = CalculatorStateMachine::new();
        let display = Rc::new(RefCell::new(String::new()));
        let sink = Rc::clone(&display);
        let connection = machine.connect_to_event("updateDisplay", move |e| {
            *sink.borrow_mut() = match &e.data["display"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
        });
        machine.start();
        Calculator {
            machine,
            display,
            _connection: connection,
        }
    }

    /// Presses the keys of `keys` (`0`-`9`, `.`, `+`, `-`, `*`, `/`, `=`, `C`) and returns
    /// the display.
    fn type_keys(&self, keys: &str) -> String {
        for key in keys.chars() {
            let event = match key {
                '0'..='9' => format!("DIGIT.{key}"),
                '.' => "POINT".to_owned(),
                '+' => "OPER.PLUS".to_owned(),
                '-' => "OPER.MINUS".to_owned(),
                '*' => "OPER.STAR".to_owned(),
                '/' => "OPER.DIV".to_owned(),
                '=' => "EQUALS".to_owned(),
                'C' => "C".to_owned(),
                other => panic!("no key {other}"),
            };
            self.machine.submit_event(&event, Value::Null);
        }
        self.display.borrow().clone()
    }
}

#[test]
fn starts_at_zero() {
    assert_eq!(Calculator::new().display.borrow().as_str(), "0");
}

#[test]
fn shows_what_is_typed() {
    let c = Calculator::new();
    assert_eq!(c.type_keys("12"), "12");
    assert_eq!(c.type_keys(".5"), "12.5");
}

#[test]
fn computes() {
    let c = Calculator::new();
    assert_eq!(c.type_keys("12+3="), "15");
    assert_eq!(c.type_keys("C7*6="), "42");
    assert_eq!(c.type_keys("C1.5/4="), "0.375");
    // Precedence is ECMAScript's: the chart `eval`s the whole expression.
    assert_eq!(c.type_keys("C2+3*4="), "14");
    assert_eq!(c.type_keys("C-8+2="), "-6");
}

#[test]
fn clear_starts_over() {
    let c = Calculator::new();
    c.type_keys("99+1");
    assert_eq!(c.type_keys("C"), "0");
    assert_eq!(c.type_keys("5-7="), "-2");
}
