//! The ECMAScript datamodel (SCXML 1.0, appendix B.2) on an embedded QuickJS engine
//! ([`rquickjs`]); compiled only with the crate's `ecmascript` feature.
//!
//! A chart with `datamodel="ecmascript"` is compiled like any other: its states, transitions
//! and executable content become static tables and Rust functions. Only the chart's
//! ECMAScript (every `cond`, `expr`, `location`, `<script>`, ...) is left to run time. The
//! generated functions hand each piece, a [`Snippet`], to the machine's [`Js`] datamodel,
//! which compiles it on first use into a QuickJS function (a `<script>` into global code)
//! and afterwards only calls it.
//!
//! What the chart's code sees (B.2):
//! - one global variable per `<data id>`, declared (as `undefined`) when the machine is
//!   created and assigned by early or late binding;
//! - `_event` (`name`, `type`, `sendid`, `origin`, `origintype`, `invokeid`, `data`; a field
//!   without a value is `undefined`, inherited from one prototype, and so is `_event` before
//!   the first event),
//!   `_sessionid`, `_name` and `_ioprocessors`, all read-only: an `<assign>` to them raises
//!   `error.execution`;
//! - `In(id)`, whether the state `id` is active.
//!
//! An `<assign>` stores with strict-mode semantics, so assigning to a variable that does not
//! exist (or to a read-only one) fails with `error.execution`, as B.2.4 asks; `<foreach>`
//! creates its `item` and `index` variables when they do not exist (4.6). Values cross to
//! Rust (event data, `<send>` payloads, `<log>`, snapshots, `set_initial_values`) as
//! [`serde_json::Value`], converted by [`to_js`] and [`to_json`]; XML (inline in `<data>` or
//! `<content>`, or a `src` file) is a DOM document in ECMAScript and `{"$xml": markup}` in
//! JSON ([`dom`]).

mod convert;
pub mod dom;
mod event;

pub use convert::{to_js, to_json, MAX_DEPTH};

use event::{event_object, event_proto, new_object, EventTemplate, EVENT_FIELDS, EVENT_TYPES};

use super::{ChartEvent, Context, Envelope, EventKind, ExecError};
use rquickjs::{
    qjs, CatchResultExt, CaughtError, Ctx, Function, Persistent, Runtime, Type, Value as JsValue,
};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// One piece of chart ECMAScript, as generated code passes it: a `static`-promoted literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snippet {
    /// Its number in the chart (0, 1, ...): the slot its compiled form is kept in.
    pub id: u32,
    /// How it is compiled.
    pub kind: SnippetKind,
    /// The code as the chart spells it.
    pub text: &'static str,
    /// 1-based chart line of the code, for messages.
    pub line: u32,
}

/// What a [`Snippet`] is compiled into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnippetKind {
    /// An expression (`cond`, `expr`, `array`, `...expr`): a function returning its value.
    Expr,
    /// A `location` of `<assign>` or `idlocation`: a strict-mode function storing its
    /// argument there (an undeclared variable or a read-only one throws).
    Location,
    /// The `item` or `index` of a `<foreach>`: stores its argument, creating the global
    /// variable when there is none.
    NewVariable,
    /// A `<script>`: global code, run as a whole.
    Script,
}

/// The host half of `In()` and `_event`: the context of the evaluation running now.
struct Host {
    /// The `Context<E>` of the running evaluation, type-erased; null between evaluations.
    context: Cell<*const ()>,
    /// `Context::<E>::is_in_id` for the erased context.
    is_in: Cell<fn(*const (), &str) -> bool>,
    /// `Context::<E>::event_serial` for the erased context.
    serial: Cell<fn(*const ()) -> u64>,
    /// [`event_object`] (or `undefined` before the first event) for the erased context.
    build_event: Cell<BuildEvent>,
    /// The `_event` object last built, with the [`Context::event_serial`] it was built for:
    /// chart code that reads `_event` twice in one event sees one object.
    event_cache: RefCell<Option<(u64, Persistent<JsValue<'static>>)>>,
    /// The names of `_event`'s fields as atoms of the machine's runtime ([`EVENT_FIELDS`]),
    /// made once; freed by [`Js`]'s `drop`.
    atoms: Cell<[qjs::JSAtom; 7]>,
    /// The values of `_event.type` (`platform`, `internal`, `external`: [`EVENT_TYPES`]) as
    /// atoms, whose strings each `_event` shares; freed by [`Js`]'s `drop`.
    types: Cell<[qjs::JSAtom; 3]>,
    /// First the prototype of every `_event` ([`event_proto`]), then an empty plain object
    /// and objects with `_event`'s first 0, 1, 2, 3 own fields (`name`, `type`, `data`), kept
    /// so that QuickJS keeps the shapes (hidden classes) of those field lists: each new
    /// `_event` (and its data object) then finds them in its shape table instead of making
    /// (and freeing) its shapes per event.
    shapes: RefCell<Vec<Persistent<JsValue<'static>>>>,
    /// The getter of `_event`, to put back when the event changes; taken by [`Js`]'s `drop`
    /// (it holds this `Host`).
    getter: RefCell<Option<Persistent<Function<'static>>>>,
    /// The atom `_event`, freed by [`Js`]'s `drop`.
    event_atom: Cell<qjs::JSAtom>,
    /// The [`Context::event_serial`] for which `_event` is, for now, a plain read-only value
    /// (the object the getter built): later reads in that event skip the getter.
    plain_for: Cell<Option<u64>>,
}

/// Builds `_event` for an erased `Context<E>`.
type BuildEvent =
    for<'js> fn(*const (), &Ctx<'js>, &EventTemplate<'js>) -> Result<JsValue<'js>, ExecError>;

fn never_in(_: *const (), _: &str) -> bool {
    false
}

fn no_serial(_: *const ()) -> u64 {
    0
}

fn no_event<'js>(
    _: *const (),
    c: &Ctx<'js>,
    _: &EventTemplate<'js>,
) -> Result<JsValue<'js>, ExecError> {
    Ok(JsValue::new_undefined(c.clone()))
}

/// `Context::event_serial` of an erased `Context<E>`.
fn serial<E: ChartEvent>(context: *const ()) -> u64 {
    // SAFETY: as for `is_in`: called only inside an evaluation, while `Js::enter` keeps the
    // context borrowed.
    unsafe { &*context.cast::<Context<E>>() }.event_serial()
}

/// `_event` of an erased `Context<E>`: `undefined` before the first event.
fn build_event<'js, E: ChartEvent>(
    context: *const (),
    c: &Ctx<'js>,
    template: &EventTemplate<'js>,
) -> Result<JsValue<'js>, ExecError> {
    // SAFETY: as for `serial`.
    let context = unsafe { &*context.cast::<Context<E>>() };
    match context.current() {
        Envelope::Empty => Ok(JsValue::new_undefined(c.clone())),
        _ => event_object(c, context, template),
    }
}

impl Host {
    /// The value of `_event` now: the cached object when the event has not changed since it
    /// was built, else a new one (cached); between evaluations, the last one built.
    fn event_value<'js>(&self, c: &Ctx<'js>) -> rquickjs::Result<JsValue<'js>> {
        let context = self.context.get();
        if context.is_null() {
            return match &*self.event_cache.borrow() {
                Some((_, v)) => v.clone().restore(c),
                None => Ok(JsValue::new_undefined(c.clone())),
            };
        }
        let serial = (self.serial.get())(context);
        if let Some((cached, v)) = &*self.event_cache.borrow() {
            if *cached == serial {
                return v.clone().restore(c);
            }
        }
        let proto = match self.shapes.borrow().first() {
            Some(p) => p.clone().restore(c)?,
            None => JsValue::new_null(c.clone()),
        };
        let template = EventTemplate {
            atoms: self.atoms.get(),
            types: self.types.get(),
            proto,
        };
        let value = (self.build_event.get())(context, c, &template)
            .map_err(|e| rquickjs::Exception::throw_internal(c, &e.to_string()))?;
        *self.event_cache.borrow_mut() = Some((serial, Persistent::save(c, value.clone())));
        self.make_plain(c, &value, serial);
        Ok(value)
    }

    /// Makes `_event` the read-only value `value` until the event changes (when
    /// [`Js::enter`] puts the getter back), so that further reads in event `serial` cost a
    /// property read, not a call into Rust.
    fn make_plain(&self, c: &Ctx<'_>, value: &JsValue<'_>, serial: u64) {
        let p = c.as_raw().as_ptr();
        // SAFETY: the global object is a new reference, freed here; `JS_DefinePropertyValue`
        // takes over the new reference of `value` it is given.
        let done = unsafe {
            let global = qjs::JS_GetGlobalObject(p);
            let done = qjs::JS_DefinePropertyValue(
                p,
                global,
                self.event_atom.get(),
                qjs::JS_DupValue(p, value.as_raw()),
                (qjs::JS_PROP_CONFIGURABLE | qjs::JS_PROP_ENUMERABLE) as i32,
            );
            qjs::JS_FreeValue(p, global);
            done
        };
        if done >= 0 {
            self.plain_for.set(Some(serial));
        } else {
            // Left as the accessor: only slower. The exception is no chart error.
            drop(c.catch());
        }
    }

    /// Puts the getter of `_event` back if `_event` is the value of another event than
    /// `serial`.
    fn refresh(&self, c: &Ctx<'_>, serial: u64) -> Result<(), ExecError> {
        match self.plain_for.get() {
            Some(s) if s != serial => {}
            _ => return Ok(()),
        }
        let getter = self.getter.borrow();
        let Some(getter) = getter.as_ref() else {
            return Ok(());
        };
        let getter = getter.clone().restore(c).map_err(engine)?;
        let p = c.as_raw().as_ptr();
        let flags = qjs::JS_PROP_HAS_GET
            | qjs::JS_PROP_HAS_SET
            | qjs::JS_PROP_HAS_CONFIGURABLE
            | qjs::JS_PROP_CONFIGURABLE
            | qjs::JS_PROP_HAS_ENUMERABLE
            | qjs::JS_PROP_ENUMERABLE;
        // SAFETY: the global object is a new reference, freed here; `JS_DefineProperty`
        // takes none of its arguments over.
        let done = unsafe {
            let global = qjs::JS_GetGlobalObject(p);
            let done = qjs::JS_DefineProperty(
                p,
                global,
                self.event_atom.get(),
                qjs::JS_UNDEFINED,
                getter.as_raw(),
                qjs::JS_UNDEFINED,
                flags as i32,
            );
            qjs::JS_FreeValue(p, global);
            done
        };
        if done < 0 {
            return Err(thrown(CaughtError::from_error(
                c,
                rquickjs::Error::Exception,
            )));
        }
        self.plain_for.set(None);
        Ok(())
    }
}

/// The getter of `_event` (a closure typed for every context lifetime).
fn event_getter(host: Rc<Host>) -> impl for<'js> Fn(Ctx<'js>) -> rquickjs::Result<JsValue<'js>> {
    move |c| host.event_value(&c)
}

/// `In(id)` on an erased `Context<E>`.
fn is_in<E: ChartEvent>(context: *const (), id: &str) -> bool {
    // SAFETY: `Js::enter` stores a `&Context<E>` of this `E` that outlives the evaluation,
    // and clears it before the borrow ends; `In` only runs inside an evaluation.
    let context = unsafe { &*context.cast::<Context<E>>() };
    context.is_in_id(id)
}

/// The datamodel of an ECMAScript chart: one QuickJS runtime and global scope per machine,
/// and every [`Snippet`] it has run, compiled. The generated `Chart::Data` of such a chart.
///
/// Fields drop in declaration order: the compiled snippets before the context and runtime
/// that own them.
pub struct Js {
    compiled: RefCell<Vec<Option<Persistent<JsValue<'static>>>>>,
    /// `(name, value) => Object.defineProperty(globalThis, name, {value, writable: false})`.
    define: Persistent<Function<'static>>,
    host: Rc<Host>,
    /// Whether `_sessionid`, `_name` and `_ioprocessors` are defined.
    system: Cell<bool>,
    context: rquickjs::Context,
    _runtime: Runtime,
}

impl std::fmt::Debug for Js {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Js")
            .field("compiled", &self.compiled.borrow().len())
            .finish_non_exhaustive()
    }
}

impl Default for Js {
    fn default() -> Self {
        Js::new(&[])
    }
}

const DEFINE_GETTER: &str = "(function (name, get) { Object.defineProperty(globalThis, name, \
                             { get: get, enumerable: true, configurable: true }); })";

impl Drop for Js {
    fn drop(&mut self) {
        // The cached `_event` must go before the runtime that owns it.
        self.host.event_cache.borrow_mut().take();
        self.host.shapes.borrow_mut().clear();
        self.host.getter.borrow_mut().take();
        let atoms = self.host.atoms.get();
        self.context.with(|c| {
            let types = self.host.types.get();
            for atom in atoms
                .into_iter()
                .chain(types)
                .chain([self.host.event_atom.get()])
            {
                // SAFETY: each atom was made by `JS_NewAtomLen` in `new`, freed once here.
                unsafe { qjs::JS_FreeAtom(c.as_raw().as_ptr(), atom) };
            }
        });
    }
}

const DEFINE: &str = "(function (name, value) { Object.defineProperty(globalThis, name, \
                      { value: value, writable: false, enumerable: true, configurable: true }); })";

impl Js {
    /// A fresh global scope with the variables `ids` (the chart's `<data id>`s) declared and
    /// `undefined`, `_event` undefined and `In()` defined.
    ///
    /// # Panics
    /// When QuickJS cannot allocate its runtime (out of memory).
    pub fn new(ids: &[&str]) -> Self {
        let runtime = Runtime::new().expect("QuickJS runtime (out of memory?)");
        let context = rquickjs::Context::full(&runtime).expect("QuickJS context (out of memory?)");
        let host = Rc::new(Host {
            context: Cell::new(std::ptr::null()),
            is_in: Cell::new(never_in),
            serial: Cell::new(no_serial),
            build_event: Cell::new(no_event),
            event_cache: RefCell::new(None),
            atoms: Cell::new([0; 7]),
            types: Cell::new([0; 3]),
            shapes: RefCell::new(Vec::new()),
            getter: RefCell::new(None),
            event_atom: Cell::new(0),
            plain_for: Cell::new(None),
        });
        let define = context.with(|c| {
            let raw = c.as_raw().as_ptr();
            // SAFETY: NUL-free ASCII names; each atom is a new reference, freed in `drop`.
            host.atoms.set(EVENT_FIELDS.map(|name| unsafe {
                qjs::JS_NewAtomLen(raw, name.as_ptr().cast(), name.len() as _)
            }));
            // SAFETY: as for the field atoms.
            host.types.set(EVENT_TYPES.map(|name| unsafe {
                qjs::JS_NewAtomLen(raw, name.as_ptr().cast(), name.len() as _)
            }));
            let atoms = host.atoms.get();
            if let Ok(proto) = event_proto(&c, &atoms) {
                let own = [atoms[0], atoms[1], atoms[6]];
                // From no field on: the empty shapes, of `_event` and of a plain object (the
                // start of every object `_event.data` is made of), are kept too.
                // SAFETY: `JS_NewObject` returns a new reference (or the exception marker).
                let plain = unsafe { JsValue::from_raw(c.clone(), qjs::JS_NewObject(raw)) };
                let shapes: Vec<_> = (0..=own.len())
                    .filter_map(|n| {
                        let fields = own[..n]
                            .iter()
                            .map(|&a| (a, JsValue::new_undefined(c.clone())));
                        new_object(&c, &proto, fields).ok()
                    })
                    .collect();
                *host.shapes.borrow_mut() = [proto, plain]
                    .into_iter()
                    .chain(shapes)
                    .map(|o| Persistent::save(&c, o))
                    .collect();
            }
            let globals = c.globals();
            for id in ids {
                // A `var`: a property of the global object that `delete` cannot remove.
                let _ = c.eval::<(), _>(format!("var {id};"));
            }
            let h = Rc::clone(&host);
            let in_fn = Function::new(c.clone(), move |id: rquickjs::Coerced<String>| -> bool {
                let context = h.context.get();
                !context.is_null() && (h.is_in.get())(context, &id.0)
            })
            .expect("QuickJS function");
            globals.set("In", in_fn).expect("define In");
            let define: Function = c.eval(DEFINE).expect("QuickJS compiles its helper");
            // `_event`: an accessor without a setter (read-only: a strict-mode store throws),
            // whose getter builds the object only when chart code reads it.
            let h = Rc::clone(&host);
            let getter = Function::new(c.clone(), event_getter(h)).expect("QuickJS function");
            *host.getter.borrow_mut() = Some(Persistent::save(&c, getter.clone()));
            // SAFETY: as for the field atoms.
            host.event_atom
                .set(unsafe { qjs::JS_NewAtomLen(raw, c"_event".as_ptr(), 6) });
            let define_getter: Function =
                c.eval(DEFINE_GETTER).expect("QuickJS compiles its helper");
            define_getter
                .call::<_, ()>(("_event", getter))
                .expect("define _event");
            Persistent::save(&c, define)
        });
        Js {
            compiled: RefCell::new(Vec::new()),
            define,
            host,
            system: Cell::new(false),
            context,
            _runtime: runtime,
        }
    }

    /// Runs `f` inside the engine with `_event` and the system variables up to date for
    /// `ctx`, and `In()` answering for it.
    fn enter<E: ChartEvent, R>(
        &self,
        ctx: &Context<E>,
        f: impl for<'js> FnOnce(&Ctx<'js>) -> Result<R, ExecError>,
    ) -> Result<R, ExecError> {
        let previous = self.host.context.replace((ctx as *const Context<E>).cast());
        self.host.is_in.set(is_in::<E>);
        self.host.serial.set(serial::<E>);
        self.host.build_event.set(build_event::<E>);
        let result = self.context.with(|c| {
            self.mirror(&c, ctx)?;
            self.host.refresh(&c, ctx.event_serial())?;
            f(&c)
        });
        self.host.context.set(previous);
        result
    }

    /// Defines the system variables once (`_event` is built by its getter when read).
    fn mirror<E: ChartEvent>(&self, c: &Ctx<'_>, ctx: &Context<E>) -> Result<(), ExecError> {
        if !self.system.get() {
            let define = self.define.clone().restore(c).map_err(engine)?;
            self.system.set(true);
            let io = to_js(c, ctx.io_processors()).map_err(engine)?;
            define
                .call::<_, ()>(("_sessionid", ctx.session_id()))
                .catch(c)
                .map_err(thrown)?;
            define
                .call::<_, ()>(("_name", ctx.name()))
                .catch(c)
                .map_err(thrown)?;
            define
                .call::<_, ()>(("_ioprocessors", io))
                .catch(c)
                .map_err(thrown)?;
        }
        Ok(())
    }

    /// The compiled form of `s`, compiled now if it is the first use.
    fn compiled<'js>(&self, c: &Ctx<'js>, s: &Snippet) -> Result<JsValue<'js>, ExecError> {
        let slot = s.id as usize;
        if let Some(Some(p)) = self.compiled.borrow().get(slot) {
            return p.clone().restore(c).map_err(engine);
        }
        let value = compile(c, s)?;
        let mut cache = self.compiled.borrow_mut();
        if cache.len() <= slot {
            cache.resize_with(slot + 1, || None);
        }
        cache[slot] = Some(Persistent::save(c, value.clone()));
        Ok(value)
    }

    /// Evaluates the expression `s`.
    fn eval<'js>(&self, c: &Ctx<'js>, s: &Snippet) -> Result<JsValue<'js>, ExecError> {
        let f = self.compiled(c, s)?;
        call(c, &f, &mut []).ok_or_else(|| not_compiled(s))?
    }

    /// Stores `value` at the location (or new variable) `s`.
    fn store<'js>(&self, c: &Ctx<'js>, s: &Snippet, value: JsValue<'js>) -> Result<(), ExecError> {
        let f = self.compiled(c, s)?;
        call(c, &f, &mut [value.as_raw()]).ok_or_else(|| not_compiled(s))??;
        Ok(())
    }

    /// A `cond`: the expression's value converted by ECMAScript's ToBoolean.
    ///
    /// # Errors
    /// What the expression throws: the condition is then false and the interpreter raises
    /// `error.execution`.
    pub fn cond<E: ChartEvent>(&self, ctx: &Context<E>, s: &Snippet) -> Result<bool, ExecError> {
        self.enter(ctx, |c| Ok(truthy(&self.eval(c, s)?)))
    }

    /// An expression's value as JSON (`<param>`, `<content expr>`, `<log expr>`,
    /// `<donedata>`).
    ///
    /// # Errors
    /// What the expression throws, or a value JSON cannot hold (nested too deeply).
    pub fn json<E: ChartEvent>(&self, ctx: &Context<E>, s: &Snippet) -> Result<Value, ExecError> {
        self.enter(ctx, |c| to_json(&self.eval(c, s)?).map_err(ExecError::new))
    }

    /// An expression's value converted by ECMAScript's ToString (`eventexpr`, `targetexpr`,
    /// `delayexpr`, `sendidexpr`, ...).
    ///
    /// # Errors
    /// What the expression (or the conversion) throws.
    pub fn string<E: ChartEvent>(
        &self,
        ctx: &Context<E>,
        s: &Snippet,
    ) -> Result<String, ExecError> {
        self.enter(ctx, |c| {
            let v = self.eval(c, s)?;
            let text: rquickjs::Coerced<String> = v.get().catch(c).map_err(thrown)?;
            Ok(text.0)
        })
    }

    /// `<assign location expr>`: evaluates `expr` and stores it at `location`.
    ///
    /// # Errors
    /// What either throws: an undeclared variable, a read-only system variable, a property of
    /// `undefined`, ...
    pub fn assign<E: ChartEvent>(
        &self,
        ctx: &Context<E>,
        location: &Snippet,
        expr: &Snippet,
    ) -> Result<(), ExecError> {
        self.enter(ctx, |c| {
            let v = self.eval(c, expr)?;
            self.store(c, location, v)
        })
    }

    /// Stores a JSON value at `location` (`idlocation`, `<assign>` of inline content).
    ///
    /// # Errors
    /// As [`assign`](Self::assign).
    pub fn assign_json<E: ChartEvent>(
        &self,
        ctx: &Context<E>,
        location: &Snippet,
        value: &Value,
    ) -> Result<(), ExecError> {
        self.enter(ctx, |c| {
            let v = to_js(c, value).map_err(engine)?;
            self.store(c, location, v)
        })
    }

    /// Runs a `<script>` in the global scope.
    ///
    /// # Errors
    /// What the script throws.
    pub fn script<E: ChartEvent>(&self, ctx: &Context<E>, s: &Snippet) -> Result<(), ExecError> {
        self.enter(ctx, |c| {
            let code = self.compiled(c, s)?;
            // A script that declares nothing was compiled into a function (see `compile`).
            if let Some(result) = call(c, &code, &mut []) {
                return result.map(drop);
            }
            let raw = c.as_raw().as_ptr();
            // SAFETY: `code` is the bytecode `compile` made in this context; JS_EvalFunction
            // consumes the reference it is given, so it gets a new one.
            let result = unsafe {
                let f = qjs::JS_DupValue(raw, code.as_raw());
                JsValue::from_raw(c.clone(), qjs::JS_EvalFunction(raw, f))
            };
            if result.is_exception() {
                return Err(thrown(CaughtError::from_error(
                    c,
                    rquickjs::Error::Exception,
                )));
            }
            Ok(())
        })
    }

    /// `<foreach array item index>` (SCXML 1.0, 4.6): evaluates `array`, which must be an
    /// array, and runs `body` once per element of a shallow copy of it, in order, with
    /// `item` set to the element and `index` to its position (both created when missing).
    ///
    /// # Errors
    /// `array` throwing or not being an array (before any iteration), storing into `item` or
    /// `index` failing, or what `body` returns (which ends the loop).
    pub fn foreach<E: ChartEvent>(
        &self,
        ctx: &mut Context<E>,
        array: &Snippet,
        item: &Snippet,
        index: Option<&Snippet>,
        mut body: impl FnMut(&Self, &mut Context<E>) -> Result<(), ExecError>,
    ) -> Result<(), ExecError> {
        let copy = self.enter(ctx, |c| {
            let v = self.eval(c, array)?;
            let Some(a) = v.as_array() else {
                return Err(ExecError::new(format!(
                    "`{}` is not an array (it is {})",
                    array.text,
                    type_name(&v)
                )));
            };
            let copy: Vec<Persistent<JsValue<'static>>> = a
                .iter::<JsValue>()
                .map(|x| x.map(|x| Persistent::save(c, x)))
                .collect::<rquickjs::Result<_>>()
                .map_err(engine)?;
            Ok(copy)
        })?;
        for (i, element) in copy.into_iter().enumerate() {
            self.enter(ctx, |c| {
                let element = element.restore(c).map_err(engine)?;
                self.store(c, item, element)?;
                if let Some(index) = index {
                    let n = JsValue::new_number(c.clone(), i as f64);
                    self.store(c, index, n)?;
                }
                Ok(())
            })?;
            body(self, ctx)?;
        }
        Ok(())
    }

    /// Early (or late) binding of `<data id expr>`: evaluates `expr` into the variable `id`.
    ///
    /// # Errors
    /// What the expression throws; the variable stays `undefined`.
    pub fn init<E: ChartEvent>(
        &self,
        ctx: &Context<E>,
        id: &str,
        expr: &Snippet,
    ) -> Result<(), ExecError> {
        self.enter(ctx, |c| {
            let v = self.eval(c, expr)?;
            c.globals().set(id, v).catch(c).map_err(thrown)
        })
    }

    /// Sets the variable `id` to a JSON value (inline `<data>` content, `src`,
    /// `set_initial_values`, invoke parameters, restoring a snapshot).
    ///
    /// # Errors
    /// When the engine cannot store it (out of memory).
    pub fn set_json(&self, id: &str, value: &Value) -> Result<(), serde_json::Error> {
        self.context.with(|c| {
            let v = to_js(&c, value).map_err(de_error)?;
            c.globals().set(id, v).map_err(de_error)
        })
    }

    /// The variable `id` as JSON (`undefined` is `null`).
    ///
    /// # Errors
    /// A value JSON cannot hold (nested deeper than [`MAX_DEPTH`], cyclic).
    pub fn get_json(&self, id: &str) -> Result<Value, serde_json::Error> {
        self.context.with(|c| {
            let v: JsValue = c.globals().get(id).map_err(de_error)?;
            to_json(&v).map_err(<serde_json::Error as serde::de::Error>::custom)
        })
    }
}

/// Compiles a snippet (SyntaxErrors were reported at build time; one here is an error of
/// the evaluation).
fn compile<'js>(c: &Ctx<'js>, s: &Snippet) -> Result<JsValue<'js>, ExecError> {
    let source = match s.kind {
        SnippetKind::Expr => format!("(function () {{ return (\n{}\n); }})", s.text),
        SnippetKind::Location => format!(
            "(function (__scxml_value) {{ \"use strict\"; (\n{}\n) = __scxml_value; }})",
            s.text
        ),
        SnippetKind::NewVariable => {
            format!(
                "(function (__scxml_value) {{ (\n{}\n) = __scxml_value; }})",
                s.text
            )
        }
        SnippetKind::Script if declares_nothing(s.text) => {
            format!("(function () {{\n{}\n}})", s.text)
        }
        SnippetKind::Script => return compile_global(c, s.text, s.line),
    };
    c.eval::<JsValue, _>(source).catch(c).map_err(thrown)
}

/// Whether the global code `text` runs the same as the body of a sloppy-mode function
/// called with `this` undefined (which is then the global object): true when none of its
/// words is one that declares (`var`, `let`, `const`, `function`, `class`), or that means
/// something else inside a function (`this`, `arguments`, `return`, a direct `eval`).
/// Words inside strings and comments count too, which only ever answers false. Such a
/// `<script>` is compiled into a function once and called, instead of instantiating its global
/// code again on every run.
fn declares_nothing(text: &str) -> bool {
    const WORDS: [&str; 9] = [
        "var",
        "let",
        "const",
        "function",
        "class",
        "this",
        "arguments",
        "return",
        "eval",
    ];
    text.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '$'))
        .all(|word| !WORDS.contains(&word))
}

/// Calls the compiled snippet `f` with `args` (borrowed) and `this` undefined: `None` when `f`
/// is no function, else its result or what it threw.
fn call<'js>(
    c: &Ctx<'js>,
    f: &JsValue<'js>,
    args: &mut [qjs::JSValue],
) -> Option<Result<JsValue<'js>, ExecError>> {
    if !f.is_function() {
        return None;
    }
    let p = c.as_raw().as_ptr();
    // SAFETY: `f` and `args` are live values of this context, borrowed for the call;
    // `JS_Call` returns a new reference (or the exception marker), which `from_raw` takes over.
    let result = unsafe {
        JsValue::from_raw(
            c.clone(),
            qjs::JS_Call(
                p,
                f.as_raw(),
                qjs::JS_UNDEFINED,
                args.len() as i32,
                args.as_mut_ptr(),
            ),
        )
    };
    Some(if result.is_exception() {
        Err(thrown(CaughtError::from_error(
            c,
            rquickjs::Error::Exception,
        )))
    } else {
        Ok(result)
    })
}

/// Global code compiled but not run (`JS_EVAL_FLAG_COMPILE_ONLY`): its bytecode.
fn compile_global<'js>(c: &Ctx<'js>, text: &str, line: u32) -> Result<JsValue<'js>, ExecError> {
    let source = std::ffi::CString::new(text)
        .map_err(|_| ExecError::new("a <script> holds a NUL character"))?;
    let name = std::ffi::CString::new(format!("script at line {line}")).unwrap_or_default();
    let flags = (qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_COMPILE_ONLY) as i32;
    // SAFETY: both strings are NUL-terminated and outlive the call; the result is a new
    // reference that `from_raw` takes over.
    let value = unsafe {
        JsValue::from_raw(
            c.clone(),
            qjs::JS_Eval(
                c.as_raw().as_ptr(),
                source.as_ptr(),
                text.len() as _,
                name.as_ptr(),
                flags,
            ),
        )
    };
    if value.is_exception() {
        return Err(thrown(CaughtError::from_error(
            c,
            rquickjs::Error::Exception,
        )));
    }
    Ok(value)
}

/// ECMAScript's ToBoolean.
fn truthy(v: &JsValue<'_>) -> bool {
    match v.type_of() {
        Type::Uninitialized | Type::Undefined | Type::Null => false,
        Type::Bool => v.as_bool().unwrap_or(false),
        Type::Int => v.as_int() != Some(0),
        Type::Float => v.as_float().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Type::String => v
            .as_string()
            .and_then(|s| s.to_string().ok())
            .is_some_and(|s| !s.is_empty()),
        Type::BigInt => v.as_big_int().and_then(|b| b.clone().to_i64().ok()) != Some(0),
        _ => true,
    }
}

/// `typeof`-like name of a value, for messages.
fn type_name(v: &JsValue<'_>) -> &'static str {
    match v.type_of() {
        Type::Undefined | Type::Uninitialized => "undefined",
        Type::Null => "null",
        Type::Bool => "a boolean",
        Type::Int | Type::Float => "a number",
        Type::String => "a string",
        Type::Function | Type::Constructor => "a function",
        _ => "an object",
    }
}

/// A thrown ECMAScript value as an [`ExecError`]: `TypeError: x is undefined`.
fn thrown(e: CaughtError<'_>) -> ExecError {
    match e {
        CaughtError::Exception(x) => {
            let name = x
                .get::<_, String>("name")
                .unwrap_or_else(|_| "Error".into());
            let message = x.message().unwrap_or_default();
            ExecError::new(format!("{name}: {message}"))
        }
        CaughtError::Value(v) => {
            let text = v
                .get::<rquickjs::Coerced<String>>()
                .map_or_else(|_| "a value".to_owned(), |s| s.0);
            ExecError::new(format!("uncaught {text}"))
        }
        CaughtError::Error(e) => engine(e),
    }
}

/// An engine failure (allocation, a value of the wrong type) as an [`ExecError`].
fn engine(e: rquickjs::Error) -> ExecError {
    ExecError::new(format!("ECMAScript engine: {e}"))
}

fn not_compiled(s: &Snippet) -> ExecError {
    ExecError::new(format!("`{}` did not compile into a function", s.text))
}

fn de_error(e: rquickjs::Error) -> serde_json::Error {
    <serde_json::Error as serde::de::Error>::custom(format!("ECMAScript engine: {e}"))
}
