//! Small, mostly well-formed charts built from a tiny grammar, so the fuzzer spends its time
//! in validate → plan → emit instead of in XML syntax errors: nested `<state>`, `<parallel>`,
//! `<final>` and `<history>` with ids from a small alphabet (some of which collide after name
//! mangling), transitions with events, targets and `In(...)` conditions, and a little
//! executable content. Every chart must compile or fail with a located error.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;
use std::path::Path;

/// State ids: plain, dotted, dashed, a keyword, a digit start, non-ASCII, and pairs that
/// mangle to one variant name (`a`/`A`, `x-y`/`x.y`).
const IDS: &[&str] = &[
    "a", "b", "c", "d", "p", "q", "h", "A", "x.y", "x-y", "self", "1st", "état", "_", "done",
];
const EVENTS: &[&str] = &[
    "e",
    "f",
    "e.f",
    "E",
    "*",
    "e.*",
    "done.state.a",
    "done.state.p",
    "error.execution",
    "error.*",
    "self",
    "1",
    "t-1",
    "",
];
const RUST_CONDS: &[&str] = &[
    "true",
    "false",
    "*n > 1",
    "n.is_positive()",
    "_event.name == \"e\"",
    "undefined_var",
];

#[derive(Arbitrary, Debug)]
struct Chart {
    rust: bool,
    name: Option<u8>,
    initial: Vec<u8>,
    states: Vec<StateNode>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind {
    State,
    Parallel,
    Final,
    Shallow,
    Deep,
}

#[derive(Arbitrary, Debug)]
struct StateNode {
    kind: Kind,
    id: Option<u8>,
    initial: Option<Vec<u8>>,
    initial_element: Option<Transition>,
    children: Vec<StateNode>,
    transitions: Vec<Transition>,
    onentry: Vec<Action>,
    onexit: Vec<Action>,
}

#[derive(Arbitrary, Debug)]
struct Transition {
    events: Vec<u8>,
    targets: Vec<u8>,
    cond: Option<Cond>,
    internal: bool,
    actions: Vec<Action>,
}

#[derive(Arbitrary, Debug)]
enum Cond {
    In(u8),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Rust(u8),
}

#[derive(Arbitrary, Debug)]
enum Action {
    Raise(u8),
    Send {
        event: u8,
        delay: Option<u8>,
        id: bool,
    },
    Cancel,
    Log(u8),
    If(Cond, Vec<Action>, Option<Cond>, Vec<Action>),
    Assign(u8),
}

const MAX_DEPTH: usize = 6;

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[i as usize % list.len()]
}

fn ids(list: &[u8]) -> String {
    let v: Vec<&str> = list.iter().take(4).map(|&i| pick(IDS, i)).collect();
    v.join(" ")
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('"', "&quot;")
}

fn cond(c: &Cond, rust: bool, depth: usize) -> String {
    match c {
        Cond::In(i) => format!("In(\"{}\")", pick(IDS, *i)),
        Cond::Not(c) if rust && depth < 4 => format!("!{}", cond(c, rust, depth + 1)),
        Cond::And(a, b) if rust && depth < 4 => {
            format!(
                "({} && {})",
                cond(a, rust, depth + 1),
                cond(b, rust, depth + 1)
            )
        }
        Cond::Rust(i) if rust => pick(RUST_CONDS, *i).to_owned(),
        Cond::Not(c) => cond(c, rust, depth + 4),
        Cond::And(a, _) => cond(a, rust, depth + 4),
        Cond::Rust(i) => format!("In('{}')", pick(IDS, *i)),
    }
}

fn actions(out: &mut String, list: &[Action], rust: bool, depth: usize) {
    for a in list.iter().take(4) {
        match a {
            Action::Raise(e) => {
                let _ = write!(out, "<raise event=\"{}\"/>", esc(pick(EVENTS, *e)));
            }
            Action::Send { event, delay, id } => {
                let _ = write!(out, "<send event=\"{}\"", esc(pick(EVENTS, *event)));
                if let Some(d) = delay {
                    let _ = write!(out, " delay=\"{}ms\"", d);
                }
                if *id {
                    out.push_str(" id=\"timer\"");
                }
                out.push_str("/>");
            }
            Action::Cancel => out.push_str("<cancel sendid=\"timer\"/>"),
            Action::Log(i) => {
                if rust {
                    let _ = write!(out, "<log label=\"l\" expr=\"{}\"/>", i);
                } else {
                    let _ = write!(out, "<log label=\"{}\"/>", i);
                }
            }
            Action::If(c, then, elif, els) if depth < 3 => {
                let _ = write!(out, "<if cond=\"{}\">", esc(&cond(c, rust, 0)));
                actions(out, then, rust, depth + 1);
                if let Some(e) = elif {
                    let _ = write!(out, "<elseif cond=\"{}\"/>", esc(&cond(e, rust, 0)));
                }
                out.push_str("<else/>");
                actions(out, els, rust, depth + 1);
                out.push_str("</if>");
            }
            Action::If(..) => {}
            Action::Assign(i) => {
                if rust {
                    let _ = write!(out, "<assign location=\"n\" expr=\"*n + {}\"/>", i);
                }
            }
        }
    }
}

fn transition(out: &mut String, t: &Transition, rust: bool) {
    out.push_str("<transition");
    if !t.events.is_empty() {
        let ev: Vec<&str> = t.events.iter().take(3).map(|&e| pick(EVENTS, e)).collect();
        let _ = write!(out, " event=\"{}\"", esc(&ev.join(" ")));
    }
    if !t.targets.is_empty() {
        let _ = write!(out, " target=\"{}\"", esc(&ids(&t.targets)));
    }
    if let Some(c) = &t.cond {
        let _ = write!(out, " cond=\"{}\"", esc(&cond(c, rust, 0)));
    }
    if t.internal {
        out.push_str(" type=\"internal\"");
    }
    out.push('>');
    actions(out, &t.actions, rust, 0);
    out.push_str("</transition>");
}

fn state(out: &mut String, s: &StateNode, rust: bool, depth: usize) {
    let tag = match s.kind {
        Kind::State => "state",
        Kind::Parallel => "parallel",
        Kind::Final => "final",
        Kind::Shallow | Kind::Deep => "history",
    };
    let _ = write!(out, "<{tag}");
    if let Some(id) = s.id {
        let _ = write!(out, " id=\"{}\"", esc(pick(IDS, id)));
    }
    match s.kind {
        Kind::Shallow => out.push_str(" type=\"shallow\""),
        Kind::Deep => out.push_str(" type=\"deep\""),
        _ => {}
    }
    if let Some(initial) = &s.initial {
        let _ = write!(out, " initial=\"{}\"", esc(&ids(initial)));
    }
    out.push('>');
    if let Some(t) = &s.initial_element {
        out.push_str("<initial>");
        transition(out, t, rust);
        out.push_str("</initial>");
    }
    if !s.onentry.is_empty() {
        out.push_str("<onentry>");
        actions(out, &s.onentry, rust, 0);
        out.push_str("</onentry>");
    }
    if !s.onexit.is_empty() {
        out.push_str("<onexit>");
        actions(out, &s.onexit, rust, 0);
        out.push_str("</onexit>");
    }
    for t in s.transitions.iter().take(4) {
        transition(out, t, rust);
    }
    if depth < MAX_DEPTH {
        for c in s.children.iter().take(5) {
            state(out, c, rust, depth + 1);
        }
    }
    let _ = write!(out, "</{tag}>");
}

fn render(c: &Chart) -> String {
    let mut out = String::from(
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:rs=\"urn:sudoku-scxmlc:rust\" version=\"1.0\"",
    );
    if c.rust {
        out.push_str(" datamodel=\"rust\"");
    }
    if let Some(n) = c.name {
        let _ = write!(out, " name=\"{}\"", esc(pick(IDS, n)));
    }
    if !c.initial.is_empty() {
        let _ = write!(out, " initial=\"{}\"", esc(&ids(&c.initial)));
    }
    out.push('>');
    if c.rust {
        out.push_str("<datamodel><data id=\"n\" rs:type=\"i64\" expr=\"0\"/></datamodel>");
    }
    for s in c.states.iter().take(6) {
        state(&mut out, s, c.rust, 1);
    }
    out.push_str("</scxml>");
    out
}

fuzz_target!(|chart: Chart| {
    let text = render(&chart);
    match sudoku_scxmlc::Config::new().generate(Path::new("fuzz.scxml"), &text) {
        Ok(_) => {}
        Err(e) => {
            let shown = e.to_string();
            assert!(
                shown.starts_with("fuzz.scxml:"),
                "unlocated error: {shown}\n{text}"
            );
        }
    }
});
