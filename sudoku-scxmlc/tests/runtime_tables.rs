//! The runtime interpreter over hand-written tables (no compiler involved).
//!
//! Most charts are described with a small builder that computes what the generator would
//! (descendant ranges, children, transition domains) and leaks the result into `'static`
//! tables. Every such chart is run twice: once with precomputed [`Domain::Static`] domains,
//! once with every domain [`Domain::Dynamic`], which exercises the interpreter's own
//! `getTransitionDomain`. Every state logs `+id` on entry and `-id` on exit through generated
//! style blocks, so the tests check exact Appendix D orderings.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{json, Value};
use sudoku_scxmlc::runtime::{
    event_names, Block, BlockIndex, Chart, Condition, Context, DataItem, Domain, DoneData, Event,
    EventKind, ExecError, FastPathCache, InitError, Machine, RuntimeError, SendRequest, StateIndex,
    StateInfo, StateKind, Tables, TransitionInfo, Untyped, NO_STATE,
};

// ---------------------------------------------------------------------------------------------
// The datamodel of the builder charts: a log and a counter.

#[derive(Debug, Default, Clone)]
pub struct Rec {
    pub log: Vec<String>,
    pub n: i64,
}

type BlockFn = fn(&mut Rec, &mut Context) -> Result<(), ExecError>;
type CondFn = fn(&Rec, &Context) -> Result<bool, ExecError>;

fn enter<const N: u32>(d: &mut Rec, _: &mut Context) -> Result<(), ExecError> {
    d.log.push(format!("+{N}"));
    Ok(())
}
fn exit<const N: u32>(d: &mut Rec, _: &mut Context) -> Result<(), ExecError> {
    d.log.push(format!("-{N}"));
    Ok(())
}
macro_rules! fn_table {
    ($f:ident; $($n:literal)*) => { [$($f::<$n> as BlockFn),*] };
}
const ENTER: [BlockFn; 24] =
    fn_table!(enter; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);
const EXIT: [BlockFn; 24] =
    fn_table!(exit; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);

/// A block that appends a fixed word to the log.
macro_rules! note {
    ($s:literal) => {
        (|d: &mut Rec, _: &mut Context| {
            d.log.push($s.to_owned());
            Ok(())
        }) as BlockFn
    };
}

// ---------------------------------------------------------------------------------------------
// The builder.

struct S {
    id: &'static str,
    kind: StateKind,
    parent: StateIndex,
    initial: Option<u32>,
    transitions: Vec<u32>,
    onentry: Vec<BlockIndex>,
    onexit: Vec<BlockIndex>,
    donedata: Option<u32>,
}

struct T {
    source: StateIndex,
    events: Vec<&'static str>,
    cond: Option<u32>,
    targets: Vec<&'static str>,
    internal: bool,
    content: Option<BlockIndex>,
    initial: bool,
}

#[derive(Default)]
struct Builder {
    states: Vec<S>,
    transitions: Vec<T>,
    blocks: Vec<Block<Rec>>,
    conditions: Vec<Condition<Rec>>,
    done_data: Vec<DoneData<Rec>>,
}

impl Builder {
    fn new() -> Self {
        let mut b = Builder::default();
        b.states.push(S {
            id: "__root",
            kind: StateKind::Root,
            parent: NO_STATE,
            initial: None,
            transitions: vec![],
            onentry: vec![],
            onexit: vec![],
            donedata: None,
        });
        b
    }

    fn ix(&self, id: &str) -> StateIndex {
        self.states
            .iter()
            .position(|s| s.id == id)
            .unwrap_or_else(|| panic!("no state {id}")) as StateIndex
    }

    fn block(&mut self, f: BlockFn) -> BlockIndex {
        self.blocks.push(Block {
            line: 100 + self.blocks.len() as u32,
            run: f,
        });
        (self.blocks.len() - 1) as BlockIndex
    }

    /// Adds a state under `parent` (call in document order, i.e. pre-order).
    fn state(&mut self, parent: &str, id: &'static str, kind: StateKind) -> &mut Self {
        let parent = self.ix(parent);
        let index = self.states.len();
        let mut s = S {
            id,
            kind,
            parent,
            initial: None,
            transitions: vec![],
            onentry: vec![],
            onexit: vec![],
            donedata: None,
        };
        if !kind.is_history() {
            s.onentry.push(self.block(ENTER[index]));
            s.onexit.push(self.block(EXIT[index]));
        }
        self.states.push(s);
        self
    }

    fn onentry(&mut self, id: &str, f: BlockFn) -> &mut Self {
        let b = self.block(f);
        let i = self.ix(id) as usize;
        self.states[i].onentry.push(b);
        self
    }

    fn onexit(&mut self, id: &str, f: BlockFn) -> &mut Self {
        let b = self.block(f);
        let i = self.ix(id) as usize;
        self.states[i].onexit.push(b);
        self
    }

    fn donedata(
        &mut self,
        id: &str,
        f: fn(&Rec, &Context) -> Result<Value, ExecError>,
    ) -> &mut Self {
        self.done_data.push(DoneData { line: 7, eval: f });
        let i = self.ix(id) as usize;
        self.states[i].donedata = Some((self.done_data.len() - 1) as u32);
        self
    }

    /// The initial transition of a compound state (or the default transition of a history
    /// state).
    fn initial(&mut self, id: &str, targets: &'static str, content: Option<BlockFn>) -> &mut Self {
        let source = self.ix(id);
        let content = content.map(|f| self.block(f));
        self.transitions.push(T {
            source,
            events: vec![],
            cond: None,
            targets: targets.split_whitespace().collect(),
            internal: false,
            content,
            initial: true,
        });
        self.states[source as usize].initial = Some((self.transitions.len() - 1) as u32);
        self
    }

    fn tr(&mut self, id: &str, events: &'static str, targets: &'static str) -> &mut Self {
        self.tr_full(id, events, targets, None, None, false)
    }

    fn tr_full(
        &mut self,
        id: &str,
        events: &'static str,
        targets: &'static str,
        cond: Option<CondFn>,
        content: Option<BlockFn>,
        internal: bool,
    ) -> &mut Self {
        let source = self.ix(id);
        let content = content.map(|f| self.block(f));
        let cond = cond.map(|f| {
            self.conditions.push(Condition { line: 50, eval: f });
            (self.conditions.len() - 1) as u32
        });
        self.transitions.push(T {
            source,
            events: events
                .split_whitespace()
                .map(sudoku_scxmlc::runtime::normalize_descriptor)
                .collect(),
            cond,
            targets: targets.split_whitespace().collect(),
            internal,
            content,
            initial: false,
        });
        let t = (self.transitions.len() - 1) as u32;
        self.states[source as usize].transitions.push(t);
        self
    }

    fn finish(self, name: &'static str, dynamic: bool) -> &'static Tables<Rec> {
        let n = self.states.len();
        let mut end: Vec<StateIndex> = (1..=n as StateIndex).collect();
        for i in (1..n).rev() {
            let p = self.states[i].parent as usize;
            end[p] = end[p].max(end[i]);
        }
        let is_desc = |s: StateIndex, a: StateIndex| a < s && s < end[a as usize];
        let ix = |id: &str| self.ix(id);
        let transitions: Vec<TransitionInfo> = self
            .transitions
            .iter()
            .map(|t| {
                let targets: Vec<StateIndex> = t.targets.iter().map(|id| ix(id)).collect();
                let domain = if targets.is_empty() {
                    Domain::Targetless
                } else if t.initial {
                    Domain::Static(t.source)
                } else if dynamic
                    || targets
                        .iter()
                        .any(|&s| self.states[s as usize].kind.is_history())
                {
                    Domain::Dynamic
                } else if t.internal
                    && self.states[t.source as usize].kind.is_compound()
                    && targets.iter().all(|&s| is_desc(s, t.source))
                {
                    Domain::Static(t.source)
                } else {
                    let mut anc = self.states[t.source as usize].parent;
                    loop {
                        let k = self.states[anc as usize].kind;
                        if k.is_compound() && targets.iter().all(|&s| is_desc(s, anc)) {
                            break Domain::Static(anc);
                        }
                        anc = self.states[anc as usize].parent;
                    }
                };
                TransitionInfo {
                    source: t.source,
                    events: Box::leak(t.events.clone().into_boxed_slice()),
                    cond: t.cond,
                    targets: Box::leak(targets.into_boxed_slice()),
                    internal: t.internal,
                    content: t.content,
                    domain,
                    line: 10,
                }
            })
            .collect();
        let states: Vec<StateInfo> = self
            .states
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let children: Vec<StateIndex> = (0..n)
                    .filter(|&c| self.states[c].parent == i as StateIndex)
                    .map(|c| c as StateIndex)
                    .collect();
                let history: Vec<StateIndex> = children
                    .iter()
                    .copied()
                    .filter(|&c| self.states[c as usize].kind.is_history())
                    .collect();
                StateInfo {
                    id: s.id,
                    kind: s.kind,
                    parent: s.parent,
                    descendants_end: end[i],
                    children: Box::leak(children.into_boxed_slice()),
                    initial: s.initial,
                    transitions: Box::leak(s.transitions.clone().into_boxed_slice()),
                    onentry: Box::leak(s.onentry.clone().into_boxed_slice()),
                    onexit: Box::leak(s.onexit.clone().into_boxed_slice()),
                    donedata: s.donedata,
                    history: Box::leak(history.into_boxed_slice()),
                    line: i as u32 + 1,
                }
            })
            .collect();
        let transitions: &'static [TransitionInfo] = Box::leak(transitions.into_boxed_slice());
        let names = event_names(transitions.iter().flat_map(|t| t.events.iter().copied()));
        Box::leak(Box::new(Tables {
            name,
            file: "test.scxml",
            states: Box::leak(states.into_boxed_slice()),
            transitions,
            conditions: Box::leak(self.conditions.into_boxed_slice()),
            blocks: Box::leak(self.blocks.into_boxed_slice()),
            done_data: Box::leak(self.done_data.into_boxed_slice()),
            data: &DATA,
            script: None,
            invokes: &[],
            late_binding: false,
            event_names: Box::leak(names.into_boxed_slice()),
            fast_path: FastPathCache::new(),
        }))
    }
}

static DATA: [DataItem<Rec>; 1] = [DataItem {
    id: "n",
    state: 0,
    line: 3,
    init: |d, _| {
        d.n = 1;
        Ok(())
    },
    set: |d, v| {
        d.n = serde_json::from_value(v)?;
        Ok(())
    },
    get: |d| serde_json::to_value(d.n),
}];

/// Defines `mod $m { pub struct Static; pub struct Dynamic; }`, two charts built by `$build`.
macro_rules! charts {
    ($m:ident, $build:expr) => {
        mod $m {
            use super::*;
            fn build() -> Builder {
                #[allow(clippy::redundant_closure_call)]
                ($build)()
            }
            charts!(@chart Static, false, build);
            charts!(@chart Dynamic, true, build);
        }
    };
    (@chart $name:ident, $dynamic:expr, $build:ident) => {
        pub struct $name;
        impl Chart for $name {
            type State = StateIndex;
            type Data = Rec;
            type Event = Untyped;
    type Invoked = ();
            fn tables() -> &'static Tables<Rec> {
                static T: OnceLock<&'static Tables<Rec>> = OnceLock::new();
                T.get_or_init(|| $build().finish(stringify!($name), $dynamic))
            }
            fn new_data() -> Rec {
                Rec::default()
            }
            fn state(index: StateIndex) -> Option<StateIndex> {
                let k = Self::tables().states.get(index as usize)?.kind;
                (index != 0 && !k.is_history()).then_some(index)
            }
            fn index(state: StateIndex) -> StateIndex {
                state
            }
        }
    };
}

/// Runs a scenario for both domain modes of a chart module.
macro_rules! both {
    ($m:ident, $scenario:ident) => {
        $scenario::<$m::Static>();
        $scenario::<$m::Dynamic>();
    };
}

fn ix<C: Chart<Data = Rec>>(id: &str) -> StateIndex {
    C::tables()
        .states
        .iter()
        .position(|s| s.id == id)
        .unwrap_or_else(|| panic!("no state {id}")) as StateIndex
}

/// The log entries after `*seen`, with state indices replaced by ids; advances `*seen`.
fn log_since<C: Chart<Data = Rec>>(m: &Machine<C>, seen: &mut usize) -> Vec<String> {
    let states = C::tables().states;
    let all = m.with_data(|d| d.log.clone());
    let out = all[*seen..]
        .iter()
        .map(|e| match e.split_at(1) {
            (sign @ ("+" | "-"), n) if n.parse::<usize>().is_ok() => {
                format!("{sign}{}", states[n.parse::<usize>().unwrap()].id)
            }
            _ => e.clone(),
        })
        .collect();
    *seen = all.len();
    out
}

fn errors_of<C: Chart>(m: &Machine<C>) -> Rc<RefCell<Vec<RuntimeError>>> {
    let errors = Rc::new(RefCell::new(Vec::new()));
    let e = errors.clone();
    m.connect_to_error(move |err| e.borrow_mut().push(err.clone()));
    errors
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

// ---------------------------------------------------------------------------------------------
// Compound state with an initial transition that has content.

charts!(compound, || {
    let mut b = Builder::new();
    b.state("__root", "s", StateKind::Compound)
        .state("s", "s1", StateKind::Atomic)
        .state("s", "s2", StateKind::Atomic)
        .state("__root", "t", StateKind::Atomic)
        .initial("__root", "s", None)
        .initial("s", "s2", Some(note!("init-s")))
        .tr("s2", "e", "s1")
        .tr("s", "go.*", "t")
        .tr("t", "back", "s");
    b
});

fn compound_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let mut seen = 0;
    assert!(!m.is_running());
    assert!(m.active_state_ids().is_empty());
    m.start();
    assert!(m.is_running());
    // onentry of s, then the initial transition's content, then s2.
    assert_eq!(log_since(&m, &mut seen), ["+s", "init-s", "+s2"]);
    assert_eq!(m.active_state_ids(), ["s", "s2"]);
    assert_eq!(m.active_states(), [ix::<C>("s"), ix::<C>("s2")]);
    m.start(); // idempotent
    assert!(log_since(&m, &mut seen).is_empty());
    m.submit_event("e", ());
    assert_eq!(log_since(&m, &mut seen), ["-s2", "+s1"]);
    m.submit_event("unknown", ());
    assert!(log_since(&m, &mut seen).is_empty());
    // `go.*` matches `go.now` but not `gone`.
    m.submit_event("gone", ());
    assert!(log_since(&m, &mut seen).is_empty());
    m.submit_event("go.now", json!({"x": 1}));
    assert_eq!(log_since(&m, &mut seen), ["-s1", "-s", "+t"]);
    assert_eq!(m.active_atomic_state_ids(), ["t"]);
    m.submit_event("back", ());
    assert_eq!(log_since(&m, &mut seen), ["-t", "+s", "init-s", "+s2"]);
    assert!(m.is_active(ix::<C>("s2")) && !m.is_active(ix::<C>("t")));
}

#[test]
fn compound_state_with_initial_content() {
    both!(compound, compound_scenario);
}

// ---------------------------------------------------------------------------------------------
// Parallel state with two regions, done.state.<region> with donedata, done.state.<parallel>.

fn log_event_data(d: &mut Rec, c: &mut Context) -> Result<(), ExecError> {
    d.log.push(format!("{}={}", c.event().name, c.event().data));
    Ok(())
}

charts!(parallel, || {
    let mut b = Builder::new();
    b.state("__root", "p", StateKind::Parallel)
        .state("p", "r1", StateKind::Compound)
        .state("r1", "a1", StateKind::Atomic)
        .state("r1", "f1", StateKind::Final)
        .state("p", "r2", StateKind::Compound)
        .state("r2", "a2", StateKind::Atomic)
        .state("r2", "f2", StateKind::Final)
        .state("__root", "done", StateKind::Atomic)
        .initial("__root", "p", None)
        .initial("r1", "a1", None)
        .initial("r2", "a2", None)
        .donedata("f1", |_, _| Ok(json!(42)))
        .tr("a1", "x", "f1")
        .tr("a2", "y", "f2")
        .tr_full("p", "done.state.r1", "", None, Some(log_event_data), false)
        .tr_full(
            "p",
            "done.state.p",
            "done",
            None,
            Some(log_event_data),
            false,
        );
    b
});

fn parallel_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let mut seen = 0;
    m.start();
    assert_eq!(log_since(&m, &mut seen), ["+p", "+r1", "+a1", "+r2", "+a2"]);
    m.submit_event("x", ());
    // done.state.r1 carries the donedata; the targetless transition exits nothing.
    assert_eq!(log_since(&m, &mut seen), ["-a1", "+f1", "done.state.r1=42"]);
    assert_eq!(m.active_atomic_state_ids(), ["a2", "f1"]);
    m.submit_event("y", ());
    // Exit in reverse document order, then done.state.p's transition content, then entry.
    assert_eq!(
        log_since(&m, &mut seen),
        [
            "-a2",
            "+f2",
            "-f2",
            "-r2",
            "-f1",
            "-r1",
            "-p",
            "done.state.p=null",
            "+done"
        ]
    );
    assert_eq!(m.active_state_ids(), ["done"]);
}

#[test]
fn parallel_regions_and_done_events() {
    both!(parallel, parallel_scenario);
}

// ---------------------------------------------------------------------------------------------
// Shallow and deep history, with default history content.

charts!(history, || {
    let mut b = Builder::new();
    b.state("__root", "out", StateKind::Atomic)
        .state("__root", "main", StateKind::Compound)
        .state("main", "hs", StateKind::ShallowHistory)
        .state("main", "hd", StateKind::DeepHistory)
        .state("main", "a", StateKind::Compound)
        .state("a", "a1", StateKind::Atomic)
        .state("a", "a2", StateKind::Atomic)
        .state("main", "b", StateKind::Atomic)
        .initial("__root", "out", None)
        .initial("main", "a", None)
        .initial("a", "a1", None)
        .initial("hs", "b", Some(note!("hs-default")))
        .initial("hd", "a2", None)
        .tr("a1", "next", "a2")
        .tr("main", "leave", "out")
        .tr("out", "back_s", "hs")
        .tr("out", "back_d", "hd")
        .tr("a", "tob", "b");
    b
});

fn history_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let mut seen = 0;
    m.start();
    assert_eq!(log_since(&m, &mut seen), ["+out"]);
    // No history yet: the default transition, its content after main's onentry.
    m.submit_event("back_s", ());
    assert_eq!(
        log_since(&m, &mut seen),
        ["-out", "+main", "hs-default", "+b"]
    );
    m.submit_event("leave", ());
    assert_eq!(m.active_state_ids(), ["out"]);
    // Shallow history remembers b.
    m.submit_event("back_s", ());
    log_since(&m, &mut seen);
    assert_eq!(m.active_state_ids(), ["main", "b"]);
    m.submit_event("leave", ());
    // Deep history recorded b too (b is atomic).
    m.submit_event("back_d", ());
    assert_eq!(m.active_state_ids(), ["main", "b"]);
    // A fresh machine: the deep history's default transition targets a2 (and so enters a).
    let m2 = Machine::<C>::new();
    m2.start();
    m2.submit_event("back_d", ());
    assert_eq!(m2.active_state_ids(), ["main", "a", "a2"]);
    m2.submit_event("leave", ());
    m2.submit_event("back_d", ());
    // Deep: the atomic descendant a2 is restored.
    assert_eq!(m2.active_state_ids(), ["main", "a", "a2"]);
    m2.submit_event("leave", ());
    m2.submit_event("back_s", ());
    // Shallow: only the child a is restored, which then takes its initial a1.
    assert_eq!(m2.active_state_ids(), ["main", "a", "a1"]);
    let mut seen2 = 0;
    log_since(&m2, &mut seen2);
    m2.submit_event("next", ());
    m2.submit_event("leave", ());
    assert_eq!(
        log_since(&m2, &mut seen2),
        ["-a1", "+a2", "-a2", "-a", "-main", "+out"]
    );
    m2.submit_event("back_d", ());
    assert_eq!(log_since(&m2, &mut seen2), ["-out", "+main", "+a", "+a2"]);
}

#[test]
fn shallow_and_deep_history() {
    both!(history, history_scenario);
}

fn history_snapshot_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    m.start();
    m.submit_event("back_d", ());
    m.submit_event("leave", ());
    let snapshot = m.snapshot().unwrap();
    assert_eq!(snapshot.history["hd"], ["a2"]);
    assert_eq!(snapshot.history["hs"], ["a"]);
    let json = serde_json::to_value(&snapshot).unwrap();
    let r = Machine::<C>::restore(&serde_json::from_value(json).unwrap()).unwrap();
    assert_eq!(r.active_state_ids(), ["out"]);
    // The restored history values are used: deep restores a2, shallow restores a (then a1).
    r.submit_event("back_d", ());
    assert_eq!(r.active_state_ids(), ["main", "a", "a2"]);
    r.submit_event("leave", ());
    r.submit_event("back_s", ());
    assert_eq!(r.active_state_ids(), ["main", "a", "a1"]);
}

#[test]
fn history_values_survive_a_snapshot() {
    both!(history, history_snapshot_scenario);
}

// ---------------------------------------------------------------------------------------------
// Conflicting transitions in parallel regions.

charts!(conflicts, || {
    let mut b = Builder::new();
    b.state("__root", "p", StateKind::Parallel)
        .state("p", "r1", StateKind::Compound)
        .state("r1", "a1", StateKind::Atomic)
        .state("r1", "a2", StateKind::Atomic)
        .state("p", "r2", StateKind::Compound)
        .state("r2", "b1", StateKind::Atomic)
        .state("r2", "b2", StateKind::Atomic)
        .state("__root", "x", StateKind::Atomic)
        .state("__root", "y", StateKind::Atomic)
        .initial("__root", "p", None)
        .initial("r1", "a1", None)
        .initial("r2", "b1", None)
        // e: no conflict, both regions move.
        .tr_full("a1", "e", "a2", None, Some(note!("t-a")), false)
        .tr_full("b1", "e", "b2", None, Some(note!("t-b")), false)
        // f: both leave, document order wins.
        .tr("a1", "f", "x")
        .tr("b1", "f", "y")
        // g: a1's own transition preempts the ancestor p's, selected for b1.
        .tr("a1", "g", "a2")
        // h: selected first for a1 via p, then b1's descendant transition preempts it.
        .tr("b1", "h", "b2")
        .tr("p", "g h", "x")
        .tr("x", "reset", "p")
        .tr("y", "reset", "p");
    b
});

fn conflicts_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let mut seen = 0;
    m.start();
    log_since(&m, &mut seen);
    m.submit_event("e", ());
    // Exits in reverse document order, contents in selection order, entries in document order.
    assert_eq!(
        log_since(&m, &mut seen),
        ["-b1", "-a1", "t-a", "t-b", "+a2", "+b2"]
    );
    m.submit_event("e", ());
    assert!(log_since(&m, &mut seen).is_empty());

    let m = Machine::<C>::new();
    m.start();
    m.submit_event("f", ());
    assert_eq!(m.active_state_ids(), ["x"]);

    let m = Machine::<C>::new();
    m.start();
    m.submit_event("g", ());
    assert_eq!(m.active_atomic_state_ids(), ["a2", "b1"]);

    let m = Machine::<C>::new();
    m.start();
    m.submit_event("h", ());
    assert_eq!(m.active_atomic_state_ids(), ["a1", "b2"]);
    m.submit_event("h", ());
    // b2 has no h: p's transition is selected for both atoms, once.
    assert_eq!(m.active_state_ids(), ["x"]);
}

#[test]
fn conflicting_transitions_in_parallel_regions() {
    both!(conflicts, conflicts_scenario);
}

// ---------------------------------------------------------------------------------------------
// Internal vs external transitions, targetless transitions, observed with connect_to_state.

charts!(internal, || {
    let mut b = Builder::new();
    b.state("__root", "s", StateKind::Compound)
        .state("s", "s1", StateKind::Atomic)
        .state("s", "s2", StateKind::Atomic)
        .state("__root", "atom", StateKind::Atomic)
        .initial("__root", "s", None)
        .initial("s", "s1", None)
        .tr_full("s", "ext", "s2", None, None, false)
        .tr_full("s", "int", "s1", None, None, true)
        .tr_full("s", "self", "s", None, None, true)
        .tr_full("s", "none", "", None, Some(note!("targetless")), false)
        .tr_full("s", "toatom", "atom", None, None, false)
        // internal on an atomic source behaves like external
        .tr_full("atom", "again", "atom", None, None, true);
    b
});

fn internal_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let seen_states = Rc::new(RefCell::new(Vec::new()));
    for id in ["s", "s1", "s2", "atom"] {
        let log = seen_states.clone();
        m.connect_to_state(ix::<C>(id), move |on| {
            log.borrow_mut()
                .push(format!("{}{id}", if on { "+" } else { "-" }));
        });
    }
    let take = || std::mem::take(&mut *seen_states.borrow_mut());
    m.start();
    assert_eq!(take(), ["+s", "+s1"]);
    m.submit_event("ext", ());
    assert_eq!(take(), ["-s1", "-s", "+s", "+s2"]);
    m.submit_event("int", ());
    assert_eq!(take(), ["-s2", "+s1"]);
    // Internal transition targeting its own compound source is external-like (s is not a
    // proper descendant of itself): s is exited and entered.
    m.submit_event("self", ());
    assert_eq!(take(), ["-s1", "-s", "+s", "+s1"]);
    let mut seen = 0;
    log_since(&m, &mut seen);
    m.submit_event("none", ());
    assert!(take().is_empty());
    assert_eq!(log_since(&m, &mut seen), ["targetless"]);
    m.submit_event("toatom", ());
    m.submit_event("again", ());
    assert_eq!(take(), ["-s1", "-s", "+atom", "-atom", "+atom"]);
}

#[test]
fn internal_external_and_targetless_transitions() {
    both!(internal, internal_scenario);
}

// ---------------------------------------------------------------------------------------------
// Eventless transitions, raised events and the macrostep bound.

fn raise_go(_: &mut Rec, c: &mut Context) -> Result<(), ExecError> {
    c.raise("go", Value::Null);
    Ok(())
}

charts!(loops, || {
    let mut b = Builder::new();
    b.state("__root", "idle", StateKind::Atomic)
        .state("__root", "a", StateKind::Atomic)
        .state("__root", "b", StateKind::Atomic)
        .state("__root", "r", StateKind::Atomic)
        .state("__root", "c1", StateKind::Atomic)
        .state("__root", "c2", StateKind::Atomic)
        .state("__root", "c3", StateKind::Atomic)
        .initial("__root", "idle", None)
        .tr("idle", "spin", "a")
        .tr("a", "", "b")
        .tr("b", "", "a")
        .tr("idle", "raise", "r")
        .onentry("r", raise_go)
        .tr("r", "go", "r")
        .tr("a", "stop", "idle")
        .tr("r", "stop", "idle")
        // eventless transitions run before the raised event
        .tr("idle", "chain", "c1")
        .onentry("c1", raise_go)
        .tr("c1", "", "c2")
        .tr("c2", "go", "c3")
        .tr("c1", "go", "idle");
    b
});

fn loops_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let errors = errors_of(&m);
    m.set_max_microsteps(50);
    m.start();
    m.submit_event("spin", ());
    assert_eq!(
        errors.borrow().as_slice(),
        [RuntimeError::MacrostepLimit {
            chart: C::tables().name.to_owned(),
            microsteps: 50,
            event: String::new(),
            cycle: vec![
                "a → b (test.scxml:10)".to_owned(),
                "b → a (test.scxml:10)".to_owned()
            ],
        }]
    );
    assert!(
        errors.borrow()[0]
            .to_string()
            .contains("50 microsteps without ending (on eventless transitions)"),
        "{}",
        errors.borrow()[0]
    );
    // 1 external-event microstep + 49 eventless ones: ends in b.
    assert_eq!(m.active_state_ids(), ["b"]);
    assert!(m.is_running());
    // The next event resumes the loop (and hits the bound again) — the machine stays usable.
    m.submit_event("stop", ());
    assert_eq!(errors.borrow().len(), 2);

    let m = Machine::<C>::new();
    let errors = errors_of(&m);
    m.set_max_microsteps(10);
    m.start();
    m.submit_event("raise", ());
    match &errors.borrow()[..] {
        [RuntimeError::MacrostepLimit {
            microsteps, event, ..
        }] => assert_eq!((*microsteps, event.as_str()), (10, "go")),
        other => panic!("{other:?}"),
    }
    assert_eq!(m.active_state_ids(), ["r"]);
    // The internal queue was cleared: a stop event is handled normally.
    m.submit_event("stop", ());
    assert_eq!(m.active_state_ids(), ["idle"]);

    let m = Machine::<C>::new();
    m.start();
    m.submit_event("chain", ());
    assert_eq!(m.active_state_ids(), ["c3"]);
}

#[test]
fn eventless_loops_hit_the_microstep_bound() {
    both!(loops, loops_scenario);
}

#[test]
fn default_bound_stops_an_endless_loop() {
    let m = Machine::<loops::Static>::new();
    let errors = errors_of(&m);
    m.start();
    m.submit_event("spin", ());
    assert!(matches!(
        errors.borrow()[..],
        [RuntimeError::MacrostepLimit {
            microsteps: 100_000,
            ..
        }]
    ));
}

// ---------------------------------------------------------------------------------------------
// Delayed sends, cancel and virtual time.

fn send_delayed(_: &mut Rec, c: &mut Context) -> Result<(), ExecError> {
    c.send(SendRequest {
        event: "tick".into(),
        id: Some("t1".into()),
        delay: ms(100),
        ..SendRequest::default()
    })?;
    c.send(SendRequest {
        event: "tock".into(),
        delay: ms(50),
        data: json!("late"),
        ..SendRequest::default()
    })?;
    Ok(())
}

fn log_now(d: &mut Rec, c: &mut Context) -> Result<(), ExecError> {
    d.log
        .push(format!("{}@{}", c.event().name, c.now().as_millis()));
    Ok(())
}

charts!(timers, || {
    let mut b = Builder::new();
    b.state("__root", "a", StateKind::Atomic)
        .state("__root", "b", StateKind::Atomic)
        .state("__root", "c", StateKind::Atomic)
        .initial("__root", "a", None)
        .onentry("a", send_delayed)
        .tr_full("a", "tock", "b", None, Some(log_now), false)
        .tr_full("a", "tick", "c", None, Some(log_now), false)
        .tr_full("b", "tick", "c", None, Some(log_now), false)
        .tr_full(
            "b",
            "cancel",
            "",
            None,
            Some(|_, c| {
                c.cancel("t1");
                Ok(())
            }),
            false,
        );
    b
});

fn timers_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let mut seen = 0;
    assert_eq!(m.next_deadline(), None);
    m.advance_time(ms(10)); // before start: nothing
    assert_eq!(m.now(), Duration::ZERO);
    m.start();
    log_since(&m, &mut seen);
    assert_eq!(m.next_deadline(), Some(ms(50)));
    m.advance_time(ms(30));
    assert_eq!(m.now(), ms(30));
    assert_eq!(m.time_until_next(), Some(ms(20)));
    assert!(log_since(&m, &mut seen).is_empty());
    m.advance_time(ms(30));
    assert_eq!(log_since(&m, &mut seen), ["-a", "tock@50", "+b"]);
    assert_eq!(m.now(), ms(60));
    assert_eq!(m.next_deadline(), Some(ms(100)));
    m.submit_event("cancel", ());
    assert_eq!(m.next_deadline(), None);
    m.advance_time(ms(1000));
    assert!(log_since(&m, &mut seen).is_empty());
    assert_eq!(m.active_state_ids(), ["b"]);

    // Without cancel both fire, in deadline order, in one advance.
    let m = Machine::<C>::new();
    let mut seen = 0;
    let events = Rc::new(RefCell::new(Vec::new()));
    let ev = events.clone();
    m.connect_to_event("*", move |e| {
        ev.borrow_mut().push((e.name.clone(), e.data.clone()))
    });
    m.start();
    log_since(&m, &mut seen);
    m.advance_time(ms(500));
    assert_eq!(
        log_since(&m, &mut seen),
        ["-a", "tock@50", "+b", "-b", "tick@100", "+c"]
    );
    assert_eq!(m.now(), ms(500));
    assert_eq!(
        *events.borrow(),
        [
            ("tock".to_owned(), json!("late")),
            ("tick".to_owned(), Value::Null)
        ]
    );
}

#[test]
fn delayed_send_cancel_and_advance_time() {
    both!(timers, timers_scenario);
}

/// `start` and `advance_time` called inside a `with_data` closure run once it returns, as an
/// event submitted there does, not at the next call that happens to process events (which
/// would also process that call's event before the requested advance).
fn with_data_requests_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let mut seen = 0;
    m.with_data(|_| m.start());
    assert!(m.is_running());
    assert_eq!(log_since(&m, &mut seen), ["+a"]);
    m.with_data(|_| m.advance_time(ms(60)));
    assert_eq!(m.now(), ms(60));
    assert_eq!(log_since(&m, &mut seen), ["-a", "tock@50", "+b"]);
    // Advance, then `cancel`: `tick` fires at 100 ms, before the cancel.
    m.with_data(|_| m.advance_time(ms(60)));
    m.submit_event("cancel", ());
    assert_eq!(log_since(&m, &mut seen), ["-b", "tick@100", "+c"]);
}

#[test]
fn start_and_advance_time_inside_with_data() {
    both!(timers, with_data_requests_scenario);
}

// ---------------------------------------------------------------------------------------------
// Re-entrant observers.

charts!(reentrant, || {
    let mut b = Builder::new();
    b.state("__root", "a", StateKind::Atomic)
        .state("__root", "b", StateKind::Atomic)
        .state("__root", "c", StateKind::Atomic)
        .state("__root", "d", StateKind::Atomic)
        .initial("__root", "a", None)
        .tr("a", "next", "b")
        .tr("b", "next", "c")
        .tr("c", "next", "d");
    b
});

fn reentrant_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let trace = Rc::new(RefCell::new(Vec::<String>::new()));
    let weak = m.downgrade();
    let t = trace.clone();
    // On entering b: query the machine, submit two events, connect a new observer.
    let conn_b = m.connect_to_state(ix::<C>("b"), move |on| {
        let m = weak.upgrade().unwrap();
        t.borrow_mut()
            .push(format!("b {on} active={}", m.is_active(ix::<C>("b"))));
        if on {
            m.submit_event("next", ());
            m.submit_event("next", ());
            // Still in b: the nested submit only queued.
            t.borrow_mut()
                .push(format!("after submit {:?}", m.active_state_ids()));
            let t2 = t.clone();
            m.connect_to_state(ix::<C>("d"), move |on| {
                t2.borrow_mut().push(format!("d {on}"))
            });
            let n = m.with_data(|d| d.log.len());
            t.borrow_mut().push(format!("log {n}"));
        }
    });
    let t = trace.clone();
    let weak = m.downgrade();
    let conn_e = m.connect_to_event("next", move |e| {
        t.borrow_mut().push(format!("event {}", e.name));
        // Submit an event no transition and no observer wants, from inside the callback.
        if t.borrow().iter().filter(|s| s.starts_with("event")).count() == 2 {
            weak.upgrade().unwrap().submit_event("ignored-by-chart", ());
        }
    });
    m.start();
    m.submit_event("next", ());
    assert_eq!(
        *trace.borrow(),
        [
            "event next",
            "b true active=true",
            "after submit [\"b\"]",
            "log 3",
            "event next",
            "b false active=false",
            "event next",
            "d true",
        ]
    );
    assert_eq!(m.active_state_ids(), ["d"]);
    assert!(conn_b.is_connected() && conn_e.is_connected());
    conn_e.disconnect();
    assert!(!conn_e.is_connected());
    drop(m);
    assert!(!conn_b.is_connected());
}

#[test]
fn observers_may_reenter_the_machine() {
    both!(reentrant, reentrant_scenario);
}

#[test]
fn a_panicking_observer_does_not_wedge_the_machine() {
    let m = Machine::<reentrant::Static>::new();
    let conn = m.connect_to_state(ix::<reentrant::Static>("b"), |_| panic!("observer bug"));
    m.start();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| m.submit_event("next", ())));
    assert!(r.is_err());
    conn.disconnect();
    m.submit_event("next", ());
    assert_eq!(m.active_state_ids(), ["c"]);
}

#[test]
fn disconnected_and_dropped_connections() {
    let m = Machine::<reentrant::Static>::new();
    let hits = Rc::new(RefCell::new(0));
    let h = hits.clone();
    // Dropping the connection does not disconnect.
    drop(m.connect_to_state(ix::<reentrant::Static>("b"), move |_| *h.borrow_mut() += 1));
    let h = hits.clone();
    let c = m.connect_to_state(ix::<reentrant::Static>("c"), move |_| {
        *h.borrow_mut() += 100
    });
    c.disconnect();
    c.disconnect();
    m.start();
    m.submit_event("next", ());
    m.submit_event("next", ());
    assert_eq!(*hits.borrow(), 2); // b entered and exited; c's observer silent
}

// ---------------------------------------------------------------------------------------------
// Top-level final state stops the machine.

charts!(finals, || {
    let mut b = Builder::new();
    b.state("__root", "a", StateKind::Compound)
        .state("a", "a1", StateKind::Atomic)
        .state("__root", "fin", StateKind::Final)
        .initial("__root", "a", None)
        .initial("a", "a1", None)
        .onexit("fin", note!("fin-onexit-2"))
        .tr("a1", "end", "fin");
    b
});

fn finals_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let fin = Rc::new(RefCell::new(Vec::new()));
    let f = fin.clone();
    m.connect_to_state(ix::<C>("fin"), move |on| f.borrow_mut().push(on));
    let mut seen = 0;
    m.start();
    m.submit_event("end", ());
    assert!(!m.is_running());
    // exitInterpreter ran fin's onexit blocks (each separately) and emptied the configuration.
    assert_eq!(
        log_since(&m, &mut seen),
        ["+a", "+a1", "-a1", "-a", "+fin", "-fin", "fin-onexit-2"]
    );
    assert_eq!(*fin.borrow(), [true, false]);
    assert!(m.active_state_ids().is_empty());
    m.submit_event("end", ());
    m.advance_time(ms(10));
    assert!(log_since(&m, &mut seen).is_empty());
    assert!(!m.is_running());
}

#[test]
fn top_level_final_stops_the_machine() {
    both!(finals, finals_scenario);
}

// ---------------------------------------------------------------------------------------------
// Errors in executable content, conditions and donedata.

fn failing(_: &mut Rec, _: &mut Context) -> Result<(), ExecError> {
    Err(ExecError::new("boom"))
}
fn panicking(_: &mut Rec, _: &mut Context) -> Result<(), ExecError> {
    panic!("kaboom")
}

charts!(errors, || {
    let mut b = Builder::new();
    b.state("__root", "a", StateKind::Atomic)
        .state("__root", "err", StateKind::Atomic)
        .state("__root", "ok", StateKind::Atomic)
        .state("__root", "c", StateKind::Compound)
        .state("c", "cf", StateKind::Final)
        .initial("__root", "a", None)
        .initial("c", "cf", None)
        .onentry("a", failing)
        // the second onentry block still runs
        .onentry("a", note!("second"))
        .tr_full(
            "a",
            "error.execution",
            "err",
            None,
            Some(log_event_data),
            false,
        )
        .tr("err", "panic", "ok")
        .onexit("err", panicking)
        .tr_full("ok", "error", "", None, Some(log_event_data), false)
        .tr_full(
            "ok",
            "cond",
            "err",
            Some(|_, _| Err(ExecError::new("bad cond"))),
            None,
            false,
        )
        .tr_full(
            "ok",
            "cond",
            "a",
            Some(|d, c| Ok(d.n == 1 && c.is_in_id("ok") && !c.is_in_id("nope"))),
            None,
            false,
        )
        .tr("ok", "toc", "c")
        .donedata("cf", |_, _| Err(ExecError::new("bad donedata")))
        .tr_full(
            "c",
            "error.execution done.state.c",
            "",
            None,
            Some(log_event_data),
            false,
        );
    b
});

fn errors_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    let errors = errors_of(&m);
    let mut seen = 0;
    m.start();
    assert_eq!(
        log_since(&m, &mut seen),
        [
            "+a",
            "second",
            "-a",
            "error.execution={\"column\":0,\"file\":\"test.scxml\",\"line\":110,\"reason\":\"boom\",\"tagname\":\"executable content\"}",
            "+err"
        ]
    );
    // Block lines are 100 + block index; a's failing block is the 5th block (after the
    // entry and exit loggers of a and err).
    assert_eq!(
        errors.borrow()[0],
        RuntimeError::Execution {
            file: "test.scxml".into(),
            line: 100 + 10,
            // A hand-written block reports no finer site than its own line.
            column: 0,
            element: "executable content".into(),
            message: "boom".into()
        }
    );
    m.submit_event("panic", ());
    let log = log_since(&m, &mut seen);
    assert_eq!(log[0], "-err");
    assert_eq!(log[1], "+ok");
    assert!(
        log[2].contains("\"reason\":\"chart code panicked at ")
            && log[2].contains("runtime_tables.rs:")
            && log[2].contains(": kaboom"),
        "{log:?}"
    );
    assert_eq!(errors.borrow().len(), 2);
    // A failing condition is false and raises error.execution; the next transition (to a)
    // is taken. a's onentry fails again; the first queued error.execution (the condition's)
    // then takes a to err, the second is unhandled there.
    m.submit_event("cond", ());
    log_since(&m, &mut seen);
    let errs = errors.borrow();
    assert_eq!(errs.len(), 4);
    assert!(
        matches!(&errs[2], RuntimeError::Execution { line: 50, message, .. } if message == "bad cond"),
        "{errs:?}"
    );
    assert!(matches!(&errs[3], RuntimeError::Execution { message, .. } if message == "boom"));
    drop(errs);
    assert_eq!(m.active_state_ids(), ["err"]);

    let m = Machine::<C>::new();
    let mut seen = 0;
    m.start();
    m.submit_event("panic", ());
    log_since(&m, &mut seen);
    m.submit_event("toc", ());
    // Donedata failure: error.execution first, then done.state.c with null data.
    assert_eq!(
        log_since(&m, &mut seen),
        [
            "-ok",
            "+c",
            "+cf",
            "error.execution={\"column\":0,\"file\":\"test.scxml\",\"line\":7,\"reason\":\"bad donedata\",\"tagname\":\"donedata\"}",
            "done.state.c=null"
        ]
    );
}

#[test]
fn execution_errors_become_error_execution() {
    both!(errors, errors_scenario);
}

// ---------------------------------------------------------------------------------------------
// Initial values, data access, pre-start events, event observers and _event.

fn store_event(d: &mut Rec, c: &mut Context) -> Result<(), ExecError> {
    d.n += c.event().param::<i64>("add")?;
    Ok(())
}

fn send_self(_: &mut Rec, c: &mut Context) -> Result<(), ExecError> {
    let own = format!("#_scxml_{}", c.session_id());
    c.send(SendRequest {
        event: "echo.one".into(),
        target: Some(own),
        ..SendRequest::default()
    })?;
    c.send(SendRequest {
        event: "inner".into(),
        target: Some("#_internal".into()),
        ..SendRequest::default()
    })?;
    c.send(SendRequest {
        event: "x".into(),
        type_: Some("http://example.com/other".into()),
        ..SendRequest::default()
    })?;
    Ok(())
}

charts!(datamodel, || {
    let mut b = Builder::new();
    b.state("__root", "a", StateKind::Atomic)
        .state("__root", "b", StateKind::Atomic)
        .initial("__root", "a", None)
        .tr_full("a", "add", "", None, Some(store_event), false)
        .tr_full("a", "send", "", None, Some(send_self), false)
        .tr_full("a", "inner", "", None, Some(note!("inner")), false)
        .tr_full("a", "echo", "b", None, Some(log_event_data), false)
        .tr_full(
            "b",
            "error.execution",
            "",
            None,
            Some(note!("send-error")),
            false,
        );
    b
});

fn datamodel_scenario<C: Chart<Data = Rec, State = StateIndex>>() {
    let m = Machine::<C>::new();
    assert!(matches!(
        m.set_initial_values(json!([1])),
        Err(InitError::NotAnObject)
    ));
    assert!(matches!(
        m.set_initial_values(json!({"zzz": 1})),
        Err(InitError::UnknownData(id)) if id == "zzz"
    ));
    assert!(matches!(
        m.set_initial_values(json!({"n": "text"})),
        Err(InitError::WrongType { id, .. }) if id == "n"
    ));
    m.set_initial_values(json!({"n": 40})).unwrap();
    // Events submitted before start wait.
    m.submit_event("add", json!({"add": 2}));
    assert_eq!(m.data_value("n"), Some(json!(0)));
    let events = Rc::new(RefCell::new(Vec::<Event>::new()));
    let ev = events.clone();
    m.connect_to_event("echo send", move |e| ev.borrow_mut().push(e.clone()));
    m.start();
    assert_eq!(m.data_value("n"), Some(json!(42)));
    assert_eq!(m.data_value("missing"), None);
    assert!(matches!(
        m.set_initial_values(json!({"n": 1})),
        Err(InitError::AlreadyStarted)
    ));
    // A missing param is an error.execution (no handler in a), n unchanged.
    let errors = errors_of(&m);
    m.submit_event("add", json!({}));
    assert_eq!(m.with_data(|d| d.n), 42);
    assert_eq!(errors.borrow().len(), 1);
    let mut seen = 0;
    log_since(&m, &mut seen);
    m.submit_event("send", ());
    // The internal send is handled in the same macrostep; the unsupported type raised
    // error.execution (unhandled in a); the self-send is an external event processed next.
    assert_eq!(
        log_since(&m, &mut seen),
        ["inner", "-a", "echo.one=null", "+b"]
    );
    let evs = events.borrow();
    assert_eq!(evs.len(), 2);
    assert_eq!(evs[0].name, "send");
    assert_eq!(evs[0].kind, EventKind::External);
    assert_eq!(evs[1].name, "echo.one");
    // Sent without `id` or `idlocation`: `_event.sendid` is blank (SCXML 1.0, 5.10.1).
    assert_eq!(evs[1].sendid, None);
    assert_eq!(
        evs[1].origintype.as_deref(),
        Some("http://www.w3.org/TR/scxml/#SCXMLEventProcessor")
    );
    assert!(evs[1]
        .origin
        .as_deref()
        .unwrap()
        .starts_with("#_scxml_sudoku-scxmlc-"));
}

#[test]
fn initial_values_data_and_sends() {
    both!(datamodel, datamodel_scenario);
}

// ---------------------------------------------------------------------------------------------
// A chart written as `static` tables, the way the generator emits them (null datamodel).

struct Toggle;

static TOGGLE_STATES: [StateInfo; 3] = [
    StateInfo {
        id: "__root",
        kind: StateKind::Root,
        parent: NO_STATE,
        descendants_end: 3,
        children: &[1, 2],
        initial: Some(0),
        transitions: &[],
        onentry: &[],
        onexit: &[],
        donedata: None,
        history: &[],
        line: 1,
    },
    StateInfo {
        id: "off",
        kind: StateKind::Atomic,
        parent: 0,
        descendants_end: 2,
        children: &[],
        initial: None,
        transitions: &[1],
        onentry: &[],
        onexit: &[],
        donedata: None,
        history: &[],
        line: 2,
    },
    StateInfo {
        id: "on",
        kind: StateKind::Atomic,
        parent: 0,
        descendants_end: 3,
        children: &[],
        initial: None,
        transitions: &[2, 3],
        onentry: &[0],
        onexit: &[],
        donedata: None,
        history: &[],
        line: 5,
    },
];

static TOGGLE_TRANSITIONS: [TransitionInfo; 4] = [
    TransitionInfo {
        source: 0,
        events: &[],
        cond: None,
        targets: &[1],
        internal: false,
        content: None,
        domain: Domain::Static(0),
        line: 1,
    },
    TransitionInfo {
        source: 1,
        events: &["toggle"],
        cond: None,
        targets: &[2],
        internal: false,
        content: None,
        domain: Domain::Static(0),
        line: 3,
    },
    TransitionInfo {
        source: 2,
        events: &["toggle"],
        cond: Some(0),
        targets: &[1],
        internal: false,
        content: None,
        domain: Domain::Static(0),
        line: 6,
    },
    TransitionInfo {
        source: 2,
        events: &["*"],
        cond: None,
        targets: &[],
        internal: false,
        content: None,
        domain: Domain::Targetless,
        line: 7,
    },
];

static TOGGLE: Tables<()> = Tables {
    name: "toggle",
    file: "toggle.scxml",
    states: &TOGGLE_STATES,
    transitions: &TOGGLE_TRANSITIONS,
    conditions: &[Condition {
        line: 6,
        eval: |_, c| Ok(c.is_in(2) && c.event().data != json!("stay")),
    }],
    blocks: &[Block {
        line: 5,
        run: |_, c| {
            c.log("entered on", &json!(c.now().as_millis() as u64));
            Ok(())
        },
    }],
    done_data: &[],
    data: &[],
    script: None,
    invokes: &[],
    late_binding: false,
    event_names: &["toggle"],
    fast_path: FastPathCache::new(),
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum ToggleState {
    Off,
    On,
}

impl Chart for Toggle {
    type State = ToggleState;
    type Data = ();
    type Event = Untyped;
    type Invoked = ();
    fn tables() -> &'static Tables<()> {
        &TOGGLE
    }
    fn new_data() {}
    fn state(index: StateIndex) -> Option<ToggleState> {
        match index {
            1 => Some(ToggleState::Off),
            2 => Some(ToggleState::On),
            _ => None,
        }
    }
    fn index(state: ToggleState) -> StateIndex {
        match state {
            ToggleState::Off => 1,
            ToggleState::On => 2,
        }
    }
}

#[test]
fn static_tables_with_the_null_datamodel() {
    let m = Machine::<Toggle>::default();
    m.start();
    assert_eq!(m.active_states(), [ToggleState::Off]);
    m.submit_event("toggle", ());
    assert!(m.is_active(ToggleState::On));
    m.submit_event("toggle", "stay");
    assert_eq!(m.active_states(), [ToggleState::On]);
    let clone = m.clone();
    clone.submit_event("toggle", ());
    assert_eq!(m.active_states(), [ToggleState::Off]);
    assert!(m.with_data(|()| true));
    assert!(format!("{m:?}").contains("off"));
    let weak = m.downgrade();
    drop((m, clone));
    assert!(weak.upgrade().is_none());
}
