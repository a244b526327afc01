//! The validated chart: what [`validate`](crate::validate) produces and [`plan`](crate::plan)
//! consumes. Ids are resolved to indices, states are in document order (index 0 is the
//! `<scxml>` root), and datamodel code has been parsed with `syn`.

use crate::diagnostic::Span;
use crate::runtime::StateKind;
use proc_macro2::TokenStream;
use std::path::PathBuf;
use std::time::Duration;

/// Which datamodel the chart uses (`<scxml datamodel>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DatamodelKind {
    /// SCXML 1.0, appendix B.1: no data, conditions are `In(id)` only.
    Null,
    /// Conditions, expressions and scripts are Rust; `<data>` items are typed fields.
    Rust,
    /// SCXML 1.0, appendix B.2: conditions, expressions, locations and scripts are
    /// ECMAScript (syntax-checked at build time, run by the runtime's QuickJS engine);
    /// `<data>` items are global variables.
    EcmaScript,
}

/// A validated chart.
#[derive(Debug, Clone)]
pub struct Chart {
    /// `<scxml name>`, or the file stem.
    pub name: String,
    /// The machine's Rust type name (`Sudoku`; `Invoked` for a child chart).
    pub type_name: String,
    /// A fingerprint of the source text the chart was read from (the emitter's placeholders
    /// carry it, so that chart code cannot spell one).
    pub source_hash: u64,
    /// The chart's file name as messages print it.
    pub file: String,
    /// The datamodel.
    pub datamodel: DatamodelKind,
    /// All states in document order; index 0 is the root.
    pub states: Vec<State>,
    /// All transitions in document order (initial and history default ones included).
    pub transitions: Vec<Transition>,
    /// `<data>` items in document order.
    pub data: Vec<Data>,
    /// Top-level `<script>` elements, merged into one block.
    pub script: Option<Block>,
    /// `binding="late"`: each `<data>` gets its value when its state is first entered
    /// (SCXML 1.0, 5.3).
    pub late_binding: bool,
    /// The `<invoke>` elements in document order.
    pub invokes: Vec<Invoke>,
    /// The charts this chart can invoke, each emitted into a module of its own.
    pub children: Vec<ChildChart>,
    /// Concrete event names the chart mentions, first occurrence first, with the 1-based line
    /// and span of that occurrence.
    pub event_names: Vec<(String, u32, Span)>,
    /// Per entry of `event_names`: its `events::` constant, distinct from every other.
    pub event_consts: Vec<String>,
    /// Per entry of `event_names`: its variant of the generated `enum Event`.
    pub event_variants: Vec<String>,
    /// The `<rs:event>` declarations: what events carry.
    pub declared_events: Vec<DeclaredEvent>,
    /// Per entry of `event_names`: what it carries (`validate::payloads`).
    pub event_payloads: Vec<Payload>,
    /// Files the chart pulls in (`<script src>`, `<data src>`), for `rerun-if-changed`.
    pub included_files: Vec<PathBuf>,
    /// Warnings found but not kept among the diagnostics, this chart's and its inline
    /// children's: past the first [`MAX_RENDERED`](crate::diagnostic::MAX_RENDERED) warnings
    /// only their number is rendered (`validate::reachability::Warnings`).
    pub omitted_warnings: usize,
}

/// The payload of one event's variant.
#[derive(Debug, Clone)]
pub enum Payload {
    /// Declared to carry nothing: a unit variant.
    Unit,
    /// Declared with `<rs:event type>`.
    Declared(TokenStream),
    /// The typed parameters of its `<send>`s: (parameter name, Rust type) in order.
    Fields(Vec<(String, TokenStream)>),
    /// Undeclared: a `serde_json::Value`.
    Json,
}

/// `<rs:event name="tap" type="Cell"/>`: the payload type of an event (none: it carries
/// nothing).
#[derive(Debug, Clone)]
pub struct DeclaredEvent {
    /// The event name.
    pub name: String,
    /// The payload type.
    pub ty: Option<TokenStream>,
    /// The type as written.
    pub ty_text: Option<String>,
    /// The element's span.
    pub span: Span,
}

/// A state (or the root, or a history pseudo-state). Its indices take four bytes and its
/// lists are boxed slices at their length or ranges: a chart may have hundreds of thousands
/// of states, all alive with the parsed document (docs/scale.md, "Compiler memory").
#[derive(Debug, Clone)]
pub struct State {
    /// The `id`, or a generated `__state_N`.
    pub id: Box<str>,
    /// Whether `id` was generated.
    pub generated_id: bool,
    /// What kind of state.
    pub kind: StateKind,
    /// Parent index; none for the root.
    pub parent: Link,
    /// Initial transition (root, compound) or default transition (history).
    pub initial: Link,
    /// Outgoing `<transition>`s in document order: consecutive in [`Chart::transitions`].
    pub transitions: Consecutive,
    /// Children (history included) in document order.
    pub children: Box<[usize]>,
    /// One block per `<onentry>`.
    pub onentry: Box<[Block]>,
    /// What few states have, when it has any: `<onexit>`, done data, a comment (boxed
    /// together: a chart may have hundreds of thousands of states).
    pub extras: Option<Box<StateExtras>>,
    /// Its `State` name, distinct from every other state's; `None` for the root and history
    /// states.
    pub rust_name: Option<Box<str>>,
    /// 1-based line.
    pub line: u32,
    /// The element name's span.
    pub span: Span,
}

/// An optional index (of a state or a transition) in four bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link(u32);

impl Link {
    /// No index.
    pub const NONE: Link = Link(u32::MAX);

    /// `index`, if any.
    ///
    /// # Panics
    /// For an index of 2^32 - 1 or more (a chart has at most 64 MB).
    pub fn new(index: Option<usize>) -> Link {
        index.map_or(Link::NONE, |i| {
            Link(
                u32::try_from(i)
                    .ok()
                    .filter(|&i| i != u32::MAX)
                    .expect("an index below 2^32 - 1"),
            )
        })
    }

    /// The index, if any.
    pub fn get(self) -> Option<usize> {
        (self != Link::NONE).then_some(self.0 as usize)
    }
}

/// Consecutive indices `start..end` (of transitions) in eight bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Consecutive {
    start: u32,
    end: u32,
}

impl Consecutive {
    /// `range`.
    ///
    /// # Panics
    /// For indices of 2^32 or more (a chart has at most 64 MB).
    pub fn new(range: std::ops::Range<usize>) -> Consecutive {
        let index = |i: usize| u32::try_from(i).expect("an index below 2^32");
        Consecutive {
            start: index(range.start),
            end: index(range.end),
        }
    }
    /// The indices in increasing order.
    pub fn iter(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
    /// How many.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }
    /// The first `n`.
    pub fn first(self, n: usize) -> Consecutive {
        Consecutive {
            start: self.start,
            end: self.start + u32::try_from(n.min(self.len())).unwrap_or(0),
        }
    }
}

/// What few [`State`]s hold.
#[derive(Debug, Clone, Default)]
pub struct StateExtras {
    /// One block per `<onexit>`.
    pub onexit: Box<[Block]>,
    /// `<donedata>` of a final state (boxed: fewer still have one).
    pub donedata: Option<Box<DoneData>>,
    /// The XML comment before the element.
    pub comment: Option<Box<str>>,
}

impl State {
    /// One block per `<onexit>`.
    pub fn onexit(&self) -> &[Block] {
        self.extras.as_ref().map_or(&[], |x| &x.onexit)
    }
    /// The XML comment before the element.
    pub fn comment(&self) -> Option<&str> {
        self.extras.as_ref().and_then(|x| x.comment.as_deref())
    }
    /// The extras, made when the state gets its first one.
    pub fn extras_mut(&mut self) -> &mut StateExtras {
        self.extras.get_or_insert_with(Box::default)
    }
}

/// A transition. What some have (events, `cond`, content) is boxed apart: a chart may have
/// hundreds of thousands of initial transitions, which have none of it (docs/scale.md,
/// "Compiler memory").
#[derive(Debug, Clone)]
pub struct Transition {
    /// Source state index.
    pub source: usize,
    /// Target state indices.
    pub targets: Box<[usize]>,
    /// `type="internal"` (initial transitions count as internal).
    pub internal: bool,
    /// 1-based line.
    pub line: u32,
    /// The element's span.
    pub span: Span,
    /// Its events, `cond` and content, if it has any.
    parts: Option<Box<TransitionParts>>,
}

/// What some [`Transition`]s have.
#[derive(Debug, Clone, Default)]
pub struct TransitionParts {
    /// Normalized descriptors (`foo.*` → `foo`); empty for eventless.
    pub events: Box<[String]>,
    /// The `event` attribute as written.
    pub event_text: Option<Box<str>>,
    /// The `cond`.
    pub cond: Option<Cond>,
    /// Executable content (none when empty).
    pub content: Option<Block>,
}

impl Transition {
    /// A transition from `source` to `targets` with `parts` (boxed only when it has any).
    pub fn new(
        source: usize,
        targets: Box<[usize]>,
        internal: bool,
        line: u32,
        span: Span,
        parts: TransitionParts,
    ) -> Transition {
        let some = !parts.events.is_empty()
            || parts.event_text.is_some()
            || parts.cond.is_some()
            || parts.content.is_some();
        Transition {
            source,
            targets,
            internal,
            line,
            span,
            parts: some.then(|| Box::new(parts)),
        }
    }
    /// Normalized descriptors (`foo.*` → `foo`); empty for eventless.
    pub fn events(&self) -> &[String] {
        self.parts.as_ref().map_or(&[], |p| &p.events)
    }
    /// The `event` attribute as written.
    pub fn event_text(&self) -> Option<&str> {
        self.parts.as_ref().and_then(|p| p.event_text.as_deref())
    }
    /// The `cond`.
    pub fn cond(&self) -> Option<&Cond> {
        self.parts.as_ref().and_then(|p| p.cond.as_ref())
    }
    /// Executable content.
    pub fn content(&self) -> Option<&Block> {
        self.parts.as_ref().and_then(|p| p.content.as_ref())
    }
    /// Takes the `cond` out (the planner moves it into its tables).
    pub fn take_cond(&mut self) -> Option<Cond> {
        self.parts.as_mut().and_then(|p| p.cond.take())
    }
    /// Takes the content out (the planner moves it into its tables).
    pub fn take_content(&mut self) -> Option<Block> {
        self.parts.as_mut().and_then(|p| p.content.take())
    }
}

/// A block of executable content.
#[derive(Debug, Clone)]
pub struct Block {
    /// 1-based line of the element holding it.
    pub line: u32,
    /// What holds it, e.g. ``<onentry> of `game` ``.
    pub owner: Box<str>,
    /// The elements.
    pub body: Vec<Exec>,
}

/// A condition.
#[derive(Debug, Clone)]
pub enum Cond {
    /// Null datamodel `In(id)`: true when the state is active.
    In(usize),
    /// An expression of the chart's datamodel: Rust (a `bool`) or ECMAScript (converted by
    /// ToBoolean).
    Rust(Code),
}

/// Rust code from the chart, parsed at build time: a box around [`CodeParts`] (one pointer,
/// so that executable content, conditions and values holding code stay small; a chart of
/// 20,000 blocks holds as many). Its fields are read and written through `Deref`.
#[derive(Debug, Clone)]
pub struct Code(Box<CodeParts>);

/// What [`Code`] holds.
#[derive(Debug, Clone)]
pub struct CodeParts {
    /// As written.
    pub text: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (of the attribute value or element text holding it).
    pub column: u32,
    /// The parsed tokens (an expression, or statements for scripts).
    pub tokens: TokenStream,
    /// Identifiers the code mentions (to bind only the data it uses).
    pub idents: Vec<String>,
}

impl Code {
    /// Boxes `parts`.
    pub fn new(parts: CodeParts) -> Self {
        Code(Box::new(parts))
    }
    /// Unboxes the parts.
    pub fn into_parts(self) -> CodeParts {
        *self.0
    }
}

impl std::ops::Deref for Code {
    type Target = CodeParts;
    fn deref(&self) -> &CodeParts {
        &self.0
    }
}

impl std::ops::DerefMut for Code {
    fn deref_mut(&mut self) -> &mut CodeParts {
        &mut self.0
    }
}

/// A literal attribute or its `*expr` twin.
#[derive(Debug, Clone)]
pub enum Value {
    /// `event="x"`.
    Literal(String),
    /// `eventexpr="..."`.
    Expr(Code),
}

/// A location of `<assign>`, `idlocation`, `<foreach item>`.
#[derive(Debug, Clone)]
pub struct Location {
    /// The place expression.
    pub code: Code,
    /// The `<data>` index at its root.
    pub data: LocationRoot,
    /// Whether the location is the bare data id.
    pub bare: bool,
}

/// What a location's root names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocationRoot {
    /// A `<data>` item.
    Data(usize),
    /// A read-only system variable (`_event`, `_name`, ...): assigning raises `error.execution`.
    SystemVariable,
    /// A name that is not a `<data>` id: using the location raises `error.execution` at run
    /// time (SCXML 1.0, 5.4), and the build warns.
    Undeclared,
}

/// The value an `<assign>` stores (SCXML 1.0, 5.4).
#[derive(Debug, Clone)]
pub enum AssignValue {
    /// `expr`, or the element's text evaluated as an expression.
    Expr(Code),
    /// Inline XML (ECMAScript datamodel): its markup. The location gets a new DOM document
    /// each time the `<assign>` runs, as `<data>` with inline XML does (B.2.2).
    #[cfg_attr(not(feature = "ecmascript"), allow(dead_code))]
    Xml(String),
}

/// One element of executable content (SCXML 1.0, section 4).
#[derive(Debug, Clone)]
pub enum Exec {
    /// `<raise event>`.
    Raise {
        /// Event name.
        event: String,
        /// 1-based line.
        line: u32,
        /// 1-based column of the element.
        column: u32,
    },
    /// `<send>`.
    Send(Box<Send>),
    /// `<cancel>`.
    Cancel {
        /// `sendid` or `sendidexpr`.
        sendid: Value,
        /// 1-based line.
        line: u32,
        /// 1-based column of the element.
        column: u32,
    },
    /// `<assign>`.
    Assign {
        /// Where.
        location: Location,
        /// What: `expr`, the element's text as an expression, or inline XML.
        value: AssignValue,
        /// 1-based line.
        line: u32,
        /// 1-based column of the element.
        column: u32,
    },
    /// `<if>`/`<elseif>`/`<else>`.
    If {
        /// Conditions (`None` for `<else>`) with their bodies.
        branches: Vec<(Option<Cond>, Vec<Exec>)>,
        /// 1-based line.
        line: u32,
        /// 1-based column of the element.
        column: u32,
    },
    /// `<foreach>`.
    Foreach {
        /// The collection.
        array: Code,
        /// The `<data>` item receiving each element.
        item: usize,
        /// The `<data>` item receiving the index.
        index: Option<usize>,
        /// The body.
        body: Vec<Exec>,
        /// 1-based line.
        line: u32,
        /// 1-based column of the element.
        column: u32,
    },
    /// `<log>`.
    Log {
        /// `label`.
        label: String,
        /// `expr`.
        expr: Option<Code>,
        /// 1-based line.
        line: u32,
        /// 1-based column of the element.
        column: u32,
    },
    /// `<script>`.
    Script {
        /// The statements.
        code: Code,
        /// 1-based line.
        line: u32,
        /// 1-based column of the element.
        column: u32,
    },
}

/// A `<send>` element.
#[derive(Debug, Clone)]
pub struct Send {
    /// `event`/`eventexpr`.
    pub event: Option<Value>,
    /// `target`/`targetexpr`.
    pub target: Option<Value>,
    /// `type`/`typeexpr`.
    pub type_: Option<Value>,
    /// `id`.
    pub id: Option<String>,
    /// `idlocation`.
    pub idlocation: Option<Location>,
    /// `delay` (parsed) or `delayexpr`.
    pub delay: Option<Delay>,
    /// `namelist` data indices.
    pub namelist: Vec<usize>,
    /// Why evaluating `namelist` must fail at run time (a name that is not a `<data>` id).
    pub namelist_error: Option<String>,
    /// `<param>` children.
    pub params: Vec<Param>,
    /// `<content>` child.
    pub content: Option<Content>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column of the element.
    pub column: u32,
}

/// A delay.
#[derive(Debug, Clone)]
pub enum Delay {
    /// `delay="1s"`, parsed at build time.
    Fixed(Duration),
    /// `delayexpr`.
    Expr(Code),
}

/// A `<param>`.
#[derive(Debug, Clone)]
pub struct Param {
    /// `name`.
    pub name: String,
    /// `expr`, or `location` read as an expression.
    pub expr: Code,
    /// Why evaluating it must fail at run time (a `location` that is not a `<data>` id).
    pub error: Option<String>,
    /// `rs:type`: the Rust type of the value, which makes the event typed.
    pub ty: Option<TokenStream>,
}

/// A `<content>`.
#[derive(Debug, Clone)]
pub enum Content {
    /// `expr`.
    Expr(Code),
    /// Inline text (JSON when it parses as JSON, otherwise a string).
    Text(String),
    /// Inline XML (ECMAScript datamodel): its markup. The value is the XML value
    /// `{"$xml": markup}`, a DOM document in chart code (B.2.3).
    #[cfg_attr(not(feature = "ecmascript"), allow(dead_code))]
    Xml(String),
}

/// A `<donedata>`.
#[derive(Debug, Clone)]
pub struct DoneData {
    /// 1-based line.
    pub line: u32,
    /// `<content>`.
    pub content: Option<Content>,
    /// `<param>`s.
    pub params: Vec<Param>,
}

/// A `<data>` item.
#[derive(Debug, Clone)]
pub struct Data {
    /// The id (a Rust identifier).
    pub id: String,
    /// `rs:type`, if given; otherwise a dynamic `serde_json::Value`.
    pub ty: Option<TokenStream>,
    /// The type as written.
    pub ty_text: Option<String>,
    /// How it is initialised.
    pub init: DataInit,
    /// The state whose `<datamodel>` declares it (0: the `<scxml>` root).
    pub state: usize,
    /// 1-based line.
    pub line: u32,
}

/// How a `<data>` gets its first value.
#[derive(Debug, Clone)]
pub enum DataInit {
    /// The type's default.
    Default,
    /// `expr`.
    Expr(Code),
    /// Inline content or `src` file: JSON text.
    Json(String),
}

/// An `<invoke>` of an SCXML child chart known at build time (SCXML 1.0, 6.4).
#[derive(Debug, Clone)]
pub struct Invoke {
    /// The invoking state.
    pub state: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column of the element.
    pub column: u32,
    /// `type` / `typeexpr`.
    pub type_: Option<Value>,
    /// `id`.
    pub id: Option<String>,
    /// `idlocation`.
    pub idlocation: Option<Location>,
    /// `namelist` data indices.
    pub namelist: Vec<usize>,
    /// Why evaluating `namelist` must fail at run time.
    pub namelist_error: Option<String>,
    /// `<param>` children.
    pub params: Vec<Param>,
    /// `autoforward="true"`.
    pub autoforward: bool,
    /// `<finalize>`.
    pub finalize: Option<Block>,
    /// Which chart it starts.
    pub source: InvokeSource,
}

/// What an `<invoke>` starts.
#[derive(Debug, Clone)]
pub enum InvokeSource {
    /// Inline `<content><scxml>` or `src`: this index into [`Chart::children`].
    Child(usize),
    /// `srcexpr` or `<content expr>`: evaluated at run time, its value must be the key of a
    /// keyed entry of [`Chart::children`] (a URI registered with `Config::invocable`, or
    /// the key of an inline chart held in the datamodel).
    Expr(Code),
}

/// A chart compiled along with this one, because this one can invoke it.
#[derive(Debug, Clone)]
pub struct ChildChart {
    /// The module its code is emitted into (`invoke_0`, ...).
    pub module: String,
    /// 1-based line of the element that holds or names it.
    pub line: u32,
    /// For charts a run-time expression selects: the key that selects it.
    pub key: Option<String>,
    /// The validated chart; taken out by the planner.
    pub chart: Option<Box<Chart>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chart may have hundreds of thousands of states and transitions, built while the
    /// parsed document is alive: their records stay small (docs/scale.md, "Compiler
    /// memory").
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn records_stay_small() {
        use std::mem::size_of;
        assert_eq!(size_of::<State>(), 104);
        assert_eq!(size_of::<Transition>(), 48);
        assert_eq!(size_of::<Block>(), 48);
    }
}
