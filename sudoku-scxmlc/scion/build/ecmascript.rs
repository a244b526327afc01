//! A translator from the ECMAScript subset SCION charts use to rust-datamodel code.
//!
//! Values are dynamically typed as in ECMAScript: every `<data>` is a `serde_json::Value`
//! field, and the generated code calls the helpers of the test crate's `js` module
//! (`crate::js::add`, `crate::js::strict_eq`, ...), which give the operators their ECMAScript
//! meaning. The subset:
//!
//! * literals (numbers, strings, `true`/`false`, `null`/`undefined`), object literals
//!   `{p: 'v'}` and array literals;
//! * identifiers: a `<data>` id (a `&Value`, `&mut Value` in a `<script>`), a local (`var`,
//!   function parameter), `_event`, `_sessionid`, `_name`; any other name is a
//!   `ReferenceError` at run time, as in ECMAScript;
//! * operators `+ - * / %`, `=== !== == !=`, `< <= > >=`, `! && ||`, unary `- +`, `typeof`,
//!   `?:`, member access `a.b` and `a[b]`;
//! * calls: `In('id')`, `JSON.stringify`, `Math.pow`, `isNaN`, and the chart's own
//!   `function` declarations (from any `<script>`), inlined at each call as a Rust closure;
//! * statements: `var`/`let`/`const`, assignment (`=`, `+=`, `-=`, `*=`, `/=`, `%=`, `++`,
//!   `--`) to a data id or a local, `if`/`else`, `return`, blocks, expression statements.
//!
//! Code that does not parse is a `SyntaxError` when it runs (its translation fails with
//! `error.execution`, as an ECMAScript interpreter would); valid ECMAScript outside the subset
//! is a translation error, and the chart is skipped with that reason.

use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Why a piece of ECMAScript has no translation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsError {
    /// Not ECMAScript at all: evaluating it raises a `SyntaxError`.
    Syntax(String),
    /// Valid ECMAScript the translator does not handle.
    Unsupported(String),
}

type Result<T> = std::result::Result<T, JsError>;

fn unsupported<T>(what: impl Into<String>) -> Result<T> {
    Err(JsError::Unsupported(what.into()))
}

fn syntax<T>(what: impl Into<String>) -> Result<T> {
    Err(JsError::Syntax(what.into()))
}

// ---------------------------------------------------------------------------------------------
// Tokens

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Str(String),
    Ident(String),
    Punct(&'static str),
    Eof,
}

const PUNCTS: &[&str] = &[
    "===", "!==", "**", "=>", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=",
    "/=", "%=", "+", "-", "*", "/", "%", "<", ">", "!", "=", "(", ")", "{", "}", "[", "]", ",",
    ";", ".", ":", "?", "&", "|", "^", "~",
];

/// Tokens, each with whether a line break came before it (for automatic semicolons).
fn lex(src: &str) -> Result<Vec<(Tok, bool)>> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut newline = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            newline = true;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            let rest: String = chars[i + 2..].iter().collect();
            let Some(end) = rest.find("*/") else {
                return syntax("unterminated comment");
            };
            newline |= rest[..end].contains('\n');
            i += 2 + rest[..end].chars().count() + 2;
            continue;
        }
        let tok = if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            match text.parse::<f64>() {
                Ok(n) => Tok::Num(n),
                Err(_) => return unsupported(format!("number literal `{text}`")),
            }
        } else if c == '\'' || c == '"' {
            let mut s = String::new();
            i += 1;
            loop {
                let Some(&d) = chars.get(i) else {
                    return syntax("unterminated string literal");
                };
                i += 1;
                match d {
                    _ if d == c => break,
                    '\n' => return syntax("unterminated string literal"),
                    '\\' => {
                        let Some(&e) = chars.get(i) else {
                            return syntax("unterminated string literal");
                        };
                        i += 1;
                        s.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            'r' => '\r',
                            '0' => '\0',
                            'u' | 'x' => return unsupported("\\u and \\x escapes"),
                            other => other,
                        });
                    }
                    _ => s.push(d),
                }
            }
            Tok::Str(s)
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            Tok::Ident(chars[start..i].iter().collect())
        } else {
            let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
            let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) else {
                return syntax(format!("unexpected character `{c}`"));
            };
            i += p.len();
            Tok::Punct(p)
        };
        out.push((tok, newline));
        newline = false;
    }
    out.push((Tok::Eof, newline));
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Syntax tree

/// An ECMAScript expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A number literal.
    Num(f64),
    /// A string literal.
    Str(String),
    /// `true` / `false`.
    Bool(bool),
    /// `null` / `undefined`.
    Null,
    /// A name.
    Ident(String),
    /// `{k: v, ...}`.
    Object(Vec<(String, Expr)>),
    /// `[a, b, ...]`.
    Array(Vec<Expr>),
    /// `a.b`.
    Member(Box<Expr>, String),
    /// `a[b]`.
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)`.
    Call(Box<Expr>, Vec<Expr>),
    /// A prefix operator: `!`, `-`, `+`, `typeof`.
    Unary(&'static str, Box<Expr>),
    /// A binary operator (`&&` and `||` included).
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `target op value` with op `=`, `+=`, ...; `x++` is `x += 1`.
    Assign(&'static str, Box<Expr>, Box<Expr>),
}

/// An ECMAScript statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// An expression statement.
    Expr(Expr),
    /// `var a = 1, b;`.
    Var(Vec<(String, Option<Expr>)>),
    /// `if (c) a else b`.
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `return e;`.
    Return(Option<Expr>),
    /// `{ ... }`.
    Block(Vec<Stmt>),
    /// `function name(params) { body }` (hoisted: collected by [`functions`]).
    Function(Function),
}

/// A function declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Its parameters.
    pub params: Vec<String>,
    /// Its body.
    pub body: Vec<Stmt>,
}

struct Parser {
    toks: Vec<(Tok, bool)>,
    at: usize,
}

const RESERVED_UNSUPPORTED: &[&str] = &[
    "for",
    "while",
    "do",
    "switch",
    "try",
    "throw",
    "new",
    "this",
    "delete",
    "in",
    "instanceof",
    "break",
    "continue",
    "class",
    "void",
    "with",
    "yield",
    "await",
    "catch",
    "finally",
];

impl Parser {
    fn new(src: &str) -> Result<Parser> {
        Ok(Parser {
            toks: lex(src)?,
            at: 0,
        })
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.at].0
    }

    fn next(&mut self) -> Tok {
        let t = self.toks[self.at].0.clone();
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(q) if q == w)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.next();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Result<()> {
        if self.eat(p) {
            Ok(())
        } else {
            syntax(format!("expected `{p}`, found {}", describe(self.peek())))
        }
    }

    fn ident(&mut self) -> Result<String> {
        match self.next() {
            Tok::Ident(s) => Ok(s),
            t => syntax(format!("expected a name, found {}", describe(&t))),
        }
    }

    fn program(&mut self) -> Result<Vec<Stmt>> {
        let mut out = Vec::new();
        while *self.peek() != Tok::Eof {
            out.push(self.statement()?);
        }
        Ok(out)
    }

    /// `;`, or a line break / `}` / end before the next token (automatic semicolon).
    fn end_statement(&mut self) -> Result<()> {
        if self.eat(";") || self.is("}") || *self.peek() == Tok::Eof || self.toks[self.at].1 {
            Ok(())
        } else {
            syntax(format!("expected `;`, found {}", describe(self.peek())))
        }
    }

    fn block(&mut self) -> Result<Vec<Stmt>> {
        self.expect("{")?;
        let mut out = Vec::new();
        while !self.is("}") {
            if *self.peek() == Tok::Eof {
                return syntax("unexpected end of input, expected `}`");
            }
            out.push(self.statement()?);
        }
        self.next();
        Ok(out)
    }

    fn statement(&mut self) -> Result<Stmt> {
        if self.is("{") {
            return Ok(Stmt::Block(self.block()?));
        }
        if self.eat(";") {
            return Ok(Stmt::Block(Vec::new()));
        }
        if let Tok::Ident(w) = self.peek().clone() {
            match w.as_str() {
                "var" | "let" | "const" => {
                    self.next();
                    let mut decls = Vec::new();
                    loop {
                        let name = self.ident()?;
                        let init = if self.eat("=") {
                            Some(self.assignment()?)
                        } else {
                            None
                        };
                        decls.push((name, init));
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.end_statement()?;
                    return Ok(Stmt::Var(decls));
                }
                "if" => {
                    self.next();
                    self.expect("(")?;
                    let cond = self.expression()?;
                    self.expect(")")?;
                    let then = self.body()?;
                    let otherwise = if self.is_word("else") {
                        self.next();
                        self.body()?
                    } else {
                        Vec::new()
                    };
                    return Ok(Stmt::If(cond, then, otherwise));
                }
                "return" => {
                    self.next();
                    let value = if self.is(";")
                        || self.is("}")
                        || *self.peek() == Tok::Eof
                        || self.toks[self.at].1
                    {
                        None
                    } else {
                        Some(self.expression()?)
                    };
                    self.end_statement()?;
                    return Ok(Stmt::Return(value));
                }
                "function" => {
                    self.next();
                    let name = self.ident()?;
                    self.expect("(")?;
                    let mut params = Vec::new();
                    while !self.eat(")") {
                        params.push(self.ident()?);
                        if !self.is(")") {
                            self.expect(",")?;
                        }
                    }
                    let body = self.block()?;
                    return Ok(Stmt::Function(Function { name, params, body }));
                }
                w if RESERVED_UNSUPPORTED.contains(&w) => {
                    return unsupported(format!("`{w}`"));
                }
                _ => {}
            }
        }
        let e = self.expression()?;
        self.end_statement()?;
        Ok(Stmt::Expr(e))
    }

    /// The body of an `if`/`else`: a block or one statement.
    fn body(&mut self) -> Result<Vec<Stmt>> {
        match self.statement()? {
            Stmt::Block(b) => Ok(b),
            s => Ok(vec![s]),
        }
    }

    fn expression(&mut self) -> Result<Expr> {
        let e = self.assignment()?;
        if self.is(",") {
            return unsupported("the comma operator");
        }
        Ok(e)
    }

    fn assignment(&mut self) -> Result<Expr> {
        let target = self.conditional()?;
        for op in ["=", "+=", "-=", "*=", "/=", "%="] {
            if self.eat(op) {
                if !matches!(target, Expr::Ident(_) | Expr::Member(..) | Expr::Index(..)) {
                    return syntax("invalid assignment target");
                }
                let value = self.assignment()?;
                return Ok(Expr::Assign(op, Box::new(target), Box::new(value)));
            }
        }
        if self.is("=>") {
            return unsupported("arrow functions");
        }
        Ok(target)
    }

    fn conditional(&mut self) -> Result<Expr> {
        let c = self.binary(0)?;
        if self.eat("?") {
            let a = self.assignment()?;
            self.expect(":")?;
            let b = self.assignment()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }

    fn binary(&mut self, min: u8) -> Result<Expr> {
        let mut left = self.unary()?;
        loop {
            let (op, prec) = match self.peek() {
                Tok::Punct(p) => match *p {
                    "||" => ("||", 1),
                    "&&" => ("&&", 2),
                    "===" | "!==" | "==" | "!=" => (*p, 3),
                    "<" | ">" | "<=" | ">=" => (*p, 4),
                    "+" | "-" => (*p, 5),
                    "*" | "/" | "%" => (*p, 6),
                    "&" | "|" | "^" | "**" => return unsupported(format!("the `{p}` operator")),
                    _ => break,
                },
                Tok::Ident(w) if w == "in" || w == "instanceof" => {
                    return unsupported(format!("`{w}`"))
                }
                _ => break,
            };
            if prec <= min {
                break;
            }
            self.next();
            let right = self.binary(prec)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr> {
        for op in ["!", "-", "+"] {
            if self.eat(op) {
                let e = self.unary()?;
                return Ok(match (op, e) {
                    ("-", Expr::Num(n)) => Expr::Num(-n),
                    (_, e) => Expr::Unary(op, Box::new(e)),
                });
            }
        }
        if self.is_word("typeof") {
            self.next();
            return Ok(Expr::Unary("typeof", Box::new(self.unary()?)));
        }
        for (op, bin) in [("++", "+="), ("--", "-=")] {
            if self.eat(op) {
                let target = self.unary()?;
                return Ok(Expr::Assign(
                    bin,
                    Box::new(target),
                    Box::new(Expr::Num(1.0)),
                ));
            }
        }
        if self.is("~") {
            return unsupported("the `~` operator");
        }
        let e = self.postfix()?;
        for (op, bin) in [("++", "+="), ("--", "-=")] {
            if !self.toks[self.at].1 && self.eat(op) {
                return Ok(Expr::Assign(bin, Box::new(e), Box::new(Expr::Num(1.0))));
            }
        }
        Ok(e)
    }

    fn postfix(&mut self) -> Result<Expr> {
        let mut e = self.primary()?;
        loop {
            if self.eat(".") {
                let name = self.ident()?;
                e = Expr::Member(Box::new(e), name);
            } else if self.eat("[") {
                let i = self.expression()?;
                self.expect("]")?;
                e = Expr::Index(Box::new(e), Box::new(i));
            } else if self.eat("(") {
                let mut args = Vec::new();
                while !self.eat(")") {
                    args.push(self.assignment()?);
                    if !self.is(")") {
                        self.expect(",")?;
                    }
                }
                e = Expr::Call(Box::new(e), args);
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr> {
        match self.next() {
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::Ident(w) => match w.as_str() {
                "true" => Ok(Expr::Bool(true)),
                "false" => Ok(Expr::Bool(false)),
                "null" | "undefined" => Ok(Expr::Null),
                "function" => unsupported("function expressions"),
                w if RESERVED_UNSUPPORTED.contains(&w) => unsupported(format!("`{w}`")),
                "var" | "let" | "const" | "if" | "else" | "return" | "typeof" => {
                    syntax(format!("unexpected `{w}`"))
                }
                _ => Ok(Expr::Ident(w)),
            },
            Tok::Punct("(") => {
                let e = self.expression()?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Punct("[") => {
                let mut items = Vec::new();
                while !self.eat("]") {
                    items.push(self.assignment()?);
                    if !self.is("]") {
                        self.expect(",")?;
                    }
                }
                Ok(Expr::Array(items))
            }
            Tok::Punct("{") => {
                let mut entries = Vec::new();
                while !self.eat("}") {
                    let key = match self.next() {
                        Tok::Ident(k) | Tok::Str(k) => k,
                        Tok::Num(n) => format_number_key(n),
                        t => {
                            return syntax(format!(
                                "expected a property name, found {}",
                                describe(&t)
                            ))
                        }
                    };
                    self.expect(":")?;
                    entries.push((key, self.assignment()?));
                    if !self.is("}") {
                        self.expect(",")?;
                    }
                }
                Ok(Expr::Object(entries))
            }
            Tok::Punct("/") => unsupported("regular expressions"),
            t => syntax(format!("unexpected {}", describe(&t))),
        }
    }
}

fn format_number_key(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        n.to_string()
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Eof => "end of input".to_owned(),
        Tok::Num(n) => format!("number {n}"),
        Tok::Str(s) => format!("string {s:?}"),
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Punct(p) => format!("`{p}`"),
    }
}

/// Parses a script (a `<script>` body or file).
///
/// # Errors
/// A syntax error, or a construct outside the subset.
pub fn parse_script(src: &str) -> Result<Vec<Stmt>> {
    Parser::new(src)?.program()
}

/// Parses one expression (an attribute value).
///
/// # Errors
/// A syntax error, or a construct outside the subset.
pub fn parse_expression(src: &str) -> Result<Expr> {
    let mut p = Parser::new(src)?;
    let e = p.expression()?;
    if *p.peek() != Tok::Eof {
        return syntax(format!("unexpected {}", describe(p.peek())));
    }
    Ok(e)
}

/// The function declarations of a script, at any nesting (ECMAScript hoists them).
pub fn functions(stmts: &[Stmt]) -> Vec<Function> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::Function(f) => out.push(f.clone()),
            Stmt::Block(b) => out.extend(functions(b)),
            Stmt::If(_, a, b) => {
                out.extend(functions(a));
                out.extend(functions(b));
            }
            _ => {}
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Rust code

/// What the chart declares that code may refer to.
#[derive(Debug, Clone, Default)]
pub struct Globals {
    /// The `<data>` ids.
    pub data: Vec<String>,
    /// The function declarations of all the chart's scripts.
    pub functions: Vec<Function>,
}

/// What a translated expression must evaluate to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// A `serde_json::Value` (`expr`).
    Value,
    /// A `bool` (`cond`).
    Bool,
    /// A `String` (`eventexpr`, `delayexpr`, ...).
    String,
}

const JS: &str = "crate::js";

/// A translated expression.
#[derive(Debug, Clone)]
enum R {
    /// An owned `Value`.
    Val(String),
    /// A `&Value` (or `&mut Value`) place.
    Ref(String),
    /// A `bool`; `prec` 0 is atomic, 1 an `||` chain, 2 an `&&` chain.
    Bool(String, u8),
}

fn as_ref(r: R) -> String {
    match r {
        R::Ref(s) => s,
        R::Val(s) => format!("&{s}"),
        R::Bool(s, _) => format!("&{JS}::Value::Bool({s})"),
    }
}

fn as_val(r: R) -> String {
    match r {
        R::Ref(s) => format!("{JS}::Value::clone({s})"),
        R::Val(s) => s,
        R::Bool(s, _) => format!("{JS}::Value::Bool({s})"),
    }
}

fn as_bool(r: R) -> (String, u8) {
    match r {
        R::Bool(s, p) => (s, p),
        r => (format!("{JS}::truthy({})", as_ref(r)), 0),
    }
}

fn rust_str(s: &str) -> String {
    format!("{s:?}")
}

fn throw(message: &str) -> String {
    format!("{JS}::throw({})?", rust_str(message))
}

/// A name the Rust code may not use as is.
fn check_name(name: &str) -> Result<()> {
    const RUST_KEYWORDS: &[&str] = &[
        "as", "async", "await", "box", "crate", "dyn", "enum", "extern", "fn", "impl", "loop",
        "match", "mod", "move", "mut", "priv", "pub", "ref", "self", "Self", "static", "struct",
        "super", "trait", "type", "unsafe", "use", "where", "abstract", "become", "final", "macro",
        "override", "typeof", "unsized", "virtual", "gen", "try",
    ];
    if name.contains('$') || RUST_KEYWORDS.contains(&name) || name.starts_with("__") {
        return unsupported(format!("the name `{name}` in Rust"));
    }
    Ok(())
}

struct Gen<'a> {
    globals: &'a Globals,
    /// Data may be assigned (a `<script>`, or a function inlined into one).
    mutable: bool,
    /// Locals in scope (function parameters, `var`s).
    locals: Vec<String>,
    /// Locals assigned after their declaration (declared `let mut`).
    reassigned: BTreeSet<String>,
    /// Functions being inlined (to refuse recursion).
    calling: Vec<String>,
    /// Whether `return` is allowed.
    in_function: bool,
    /// Data ids this code reads or writes.
    data_used: BTreeSet<String>,
    /// Whether this code assigns data.
    assigns_data: bool,
    /// `var`s whose block has ended (Rust's `let` is block-scoped, ECMAScript's `var` is not).
    out_of_scope: BTreeSet<String>,
    /// The call being translated is a whole statement, `var` initialiser or right-hand side
    /// of `=`, where a function that assigns data may run (it borrows the data mutably).
    whole_call: bool,
}

impl<'a> Gen<'a> {
    fn new(globals: &'a Globals, mutable: bool) -> Self {
        Gen {
            globals,
            mutable,
            locals: Vec::new(),
            reassigned: BTreeSet::new(),
            calling: Vec::new(),
            in_function: false,
            data_used: BTreeSet::new(),
            assigns_data: false,
            out_of_scope: BTreeSet::new(),
            whole_call: false,
        }
    }

    fn is_data(&self, name: &str) -> bool {
        !self.locals.iter().any(|l| l == name) && self.globals.data.iter().any(|d| d == name)
    }

    fn expr(&mut self, e: &Expr) -> Result<R> {
        Ok(match e {
            Expr::Num(n) => R::Val(number(*n)),
            Expr::Str(s) => R::Val(format!("{JS}::Value::from({})", rust_str(s))),
            Expr::Bool(b) => R::Bool(b.to_string(), 0),
            Expr::Null => R::Val(format!("{JS}::Value::Null")),
            Expr::Ident(name) => self.ident(name)?,
            Expr::Object(entries) => {
                let mut parts = Vec::new();
                for (k, v) in entries {
                    let v = self.expr(v)?;
                    parts.push(format!("({}, {})", rust_str(k), as_val(v)));
                }
                R::Val(format!("{JS}::object([{}])", parts.join(", ")))
            }
            Expr::Array(items) => {
                let mut parts = Vec::new();
                for v in items {
                    let v = self.expr(v)?;
                    parts.push(as_val(v));
                }
                R::Val(format!("{JS}::array(vec![{}])", parts.join(", ")))
            }
            Expr::Member(obj, key) => {
                let o = self.expr(obj)?;
                R::Val(format!("{JS}::get({}, {})?", as_ref(o), rust_str(key)))
            }
            Expr::Index(obj, key) => {
                let o = self.expr(obj)?;
                let k = self.expr(key)?;
                R::Val(format!("{JS}::index({}, {})?", as_ref(o), as_ref(k)))
            }
            Expr::Call(callee, args) => self.call(callee, args)?,
            Expr::Unary("!", a) => {
                let (s, p) = not(self.cond(a)?);
                R::Bool(s, p)
            }
            Expr::Unary(op, a) => {
                let a = self.expr(a)?;
                match *op {
                    "!" => {
                        let (s, p) = not(as_bool(a));
                        R::Bool(s, p)
                    }
                    "-" => R::Val(format!("{JS}::neg({})", as_ref(a))),
                    "+" => R::Val(format!("{JS}::num({JS}::to_number({}))", as_ref(a))),
                    _ => R::Val(format!("{JS}::type_of({})", as_ref(a))),
                }
            }
            Expr::Binary(op, a, b) => self.binary(op, a, b)?,
            Expr::Cond(c, a, b) => {
                let (c, _) = self.cond(c)?;
                let a = as_val(self.expr(a)?);
                let b = as_val(self.expr(b)?);
                R::Val(format!("(if {c} {{ {a} }} else {{ {b} }})"))
            }
            Expr::Assign(..) => {
                return unsupported("an assignment inside an expression");
            }
        })
    }

    /// An expression whose truthiness is all that matters (`cond`, `if`, `!`): `&&`, `||`
    /// and `!` stay Rust's boolean operators whatever their operands.
    fn cond(&mut self, e: &Expr) -> Result<(String, u8)> {
        match e {
            Expr::Binary(op @ ("&&" | "||"), a, b) => {
                let x = self.cond(a)?;
                let y = self.cond(b)?;
                Ok(logical(op, x, y))
            }
            Expr::Unary("!", a) => Ok(not(self.cond(a)?)),
            e => Ok(as_bool(self.expr(e)?)),
        }
    }

    fn ident(&mut self, name: &str) -> Result<R> {
        self.check_in_scope(name)?;
        if self.locals.iter().any(|l| l == name) {
            check_name(name)?;
            return Ok(R::Ref(format!("&{name}")));
        }
        if self.is_data(name) {
            check_name(name)?;
            self.data_used.insert(name.to_owned());
            return Ok(R::Ref(name.to_owned()));
        }
        Ok(match name {
            "_event" => R::Val(format!("{JS}::event(_event)?")),
            "_sessionid" | "_name" => R::Val(format!("{JS}::Value::from({name})")),
            "_ioprocessors" | "_x" => return unsupported(format!("`{name}`")),
            "NaN" => R::Val(format!("{JS}::num(f64::NAN)")),
            _ if self.globals.functions.iter().any(|f| f.name == name) => {
                return unsupported(format!("the function `{name}` as a value"))
            }
            _ => R::Val(throw(&format!("ReferenceError: {name} is not defined"))),
        })
    }

    /// Refuses a `var` used after the block that declares it.
    fn check_in_scope(&self, name: &str) -> Result<()> {
        if self.out_of_scope.contains(name) && !self.locals.iter().any(|l| l == name) {
            return unsupported(format!("`{name}` used outside the block that declares it"));
        }
        Ok(())
    }

    /// An expression in a position where a call may assign data (see [`Gen::whole_call`]).
    fn whole(&mut self, e: &Expr) -> Result<R> {
        self.whole_call = matches!(e, Expr::Call(..));
        let r = self.expr(e);
        self.whole_call = false;
        r
    }

    fn call(&mut self, callee: &Expr, args: &[Expr]) -> Result<R> {
        let whole = std::mem::take(&mut self.whole_call);
        let mut arg_refs = Vec::new();
        let mut arg_vals = Vec::new();
        for a in args {
            let r = self.expr(a)?;
            arg_vals.push(as_val(r.clone()));
            arg_refs.push(as_ref(r));
        }
        let undefined = format!("&{JS}::Value::Null");
        let arg = |i: usize| {
            arg_refs
                .get(i)
                .cloned()
                .unwrap_or_else(|| undefined.clone())
        };
        match callee {
            Expr::Ident(f) if f == "In" && !self.is_data(f) => {
                let id = match args.first() {
                    Some(Expr::Str(s)) => rust_str(s),
                    _ => format!("&{JS}::to_string({})", arg(0)),
                };
                Ok(R::Bool(format!("In({id})"), 0))
            }
            Expr::Ident(f) if f == "isNaN" && !self.is_data(f) => {
                Ok(R::Bool(format!("{JS}::is_nan({})", arg(0)), 0))
            }
            Expr::Member(obj, m)
                if matches!(&**obj, Expr::Ident(o) if o == "JSON") && m == "stringify" =>
            {
                Ok(R::Val(format!("{JS}::stringify({})", arg(0))))
            }
            Expr::Member(obj, m)
                if matches!(&**obj, Expr::Ident(o) if o == "Math") && m == "pow" =>
            {
                Ok(R::Val(format!("{JS}::pow({}, {})", arg(0), arg(1))))
            }
            Expr::Ident(f) if self.locals.iter().any(|l| l == f) || self.is_data(f) => {
                unsupported(format!("calling the value `{f}`"))
            }
            Expr::Ident(f) => {
                let Some(func) = self.globals.functions.iter().find(|g| &g.name == f) else {
                    return Ok(R::Val(throw(&format!(
                        "ReferenceError: {f} is not defined"
                    ))));
                };
                self.inline(func, arg_vals, whole)
            }
            _ => unsupported("calling a method"),
        }
    }

    /// A call of a chart function: the arguments evaluated, then a closure defined and
    /// called in place. `whole`: the call is the whole statement or right-hand side, so the
    /// function may assign data.
    fn inline(&mut self, f: &Function, args: Vec<String>, whole: bool) -> Result<R> {
        if self.calling.contains(&f.name) {
            return unsupported(format!("the recursive function `{}`", f.name));
        }
        check_name(&f.name)?;
        let mut inner = Gen::new(self.globals, self.mutable);
        inner.calling = self.calling.clone();
        inner.calling.push(f.name.clone());
        inner.in_function = true;
        for p in &f.params {
            check_name(p)?;
        }
        inner.locals = f.params.clone();
        inner.reassigned = assigned_names(&f.body);
        let body = inner.stmts(&f.body)?;
        if inner.assigns_data && !self.mutable {
            return unsupported(format!(
                "`{}` assigns data, which only a <script> may do here",
                f.name
            ));
        }
        if inner.assigns_data && !whole {
            return unsupported(format!(
                "`{}` assigns data, so only a whole statement or `x = {}(..)` may call it",
                f.name, f.name
            ));
        }
        if let Some(shadowed) = inner.data_used.iter().find(|d| self.locals.contains(d)) {
            return unsupported(format!(
                "`{}` uses data `{shadowed}`, which a local of the caller hides",
                f.name
            ));
        }
        self.data_used.extend(inner.data_used.iter().cloned());
        self.assigns_data |= inner.assigns_data;
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| {
                let m = if inner.reassigned.contains(p) {
                    "mut "
                } else {
                    ""
                };
                format!("{m}{p}: {JS}::Value")
            })
            .collect();
        // ECMAScript evaluates every argument before the call, extra ones included.
        let mut lets = String::new();
        for (i, a) in args.iter().enumerate() {
            let _ = write!(lets, "let __a{i} = {a}; ");
        }
        let passed: Vec<String> = (0..f.params.len())
            .map(|i| {
                if i < args.len() {
                    format!("__a{i}")
                } else {
                    format!("{JS}::Value::Null")
                }
            })
            .collect();
        let m = if inner.assigns_data { "mut " } else { "" };
        Ok(R::Val(format!(
            "{{ {lets}let {m}{name} = |{params}| -> {JS}::JsResult {{ {body}::core::result::Result::Ok({JS}::Value::Null) }}; {name}({passed})? }}",
            name = f.name,
            params = params.join(", "),
            passed = passed.join(", "),
        )))
    }

    fn binary(&mut self, op: &str, a: &Expr, b: &Expr) -> Result<R> {
        let ra = self.expr(a)?;
        let rb = self.expr(b)?;
        if op == "&&" || op == "||" {
            return Ok(match (ra, rb) {
                (R::Bool(x, px), R::Bool(y, py)) => {
                    let (s, p) = logical(op, (x, px), (y, py));
                    R::Bool(s, p)
                }
                (x, y) => {
                    let (x, y) = (as_val(x), as_val(y));
                    let (then, otherwise) = if op == "&&" {
                        (y, "__a".to_owned())
                    } else {
                        ("__a".to_owned(), y)
                    };
                    R::Val(format!(
                        "{{ let __a = {x}; if {JS}::truthy(&__a) {{ {then} }} else {{ {otherwise} }} }}"
                    ))
                }
            });
        }
        let (x, y) = (as_ref(ra), as_ref(rb));
        Ok(match op {
            "+" => R::Val(format!("{JS}::add({x}, {y})")),
            "-" => R::Val(format!("{JS}::sub({x}, {y})")),
            "*" => R::Val(format!("{JS}::mul({x}, {y})")),
            "/" => R::Val(format!("{JS}::div({x}, {y})")),
            "%" => R::Val(format!("{JS}::rem({x}, {y})")),
            "===" => R::Bool(format!("{JS}::strict_eq({x}, {y})"), 0),
            "!==" => R::Bool(format!("!{JS}::strict_eq({x}, {y})"), 0),
            "==" => R::Bool(format!("{JS}::loose_eq({x}, {y})"), 0),
            "!=" => R::Bool(format!("!{JS}::loose_eq({x}, {y})"), 0),
            "<" => R::Bool(format!("{JS}::lt({x}, {y})"), 0),
            "<=" => R::Bool(format!("{JS}::le({x}, {y})"), 0),
            ">" => R::Bool(format!("{JS}::gt({x}, {y})"), 0),
            ">=" => R::Bool(format!("{JS}::ge({x}, {y})"), 0),
            _ => return unsupported(format!("the `{op}` operator")),
        })
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> Result<String> {
        let depth = self.locals.len();
        let mut out = String::new();
        for s in stmts {
            out.push_str(&self.stmt(s)?);
        }
        let ended: Vec<String> = self.locals.drain(depth..).collect();
        self.out_of_scope.extend(ended);
        Ok(out)
    }

    fn stmt(&mut self, s: &Stmt) -> Result<String> {
        Ok(match s {
            Stmt::Function(f) if self.in_function => {
                return unsupported(format!("the nested function `{}`", f.name))
            }
            Stmt::Function(_) => String::new(), // hoisted: inlined where called
            Stmt::Block(b) => format!("{{ {}}} ", self.stmts(b)?),
            Stmt::Var(decls) => {
                let mut out = String::new();
                for (name, init) in decls {
                    check_name(name)?;
                    let v = match init {
                        Some(e) => as_val(self.whole(e)?),
                        None => format!("{JS}::Value::Null"),
                    };
                    let m = if self.reassigned.contains(name) {
                        "mut "
                    } else {
                        ""
                    };
                    let _ = write!(out, "let {m}{name}: {JS}::Value = {v}; ");
                    self.locals.push(name.clone());
                }
                out
            }
            Stmt::If(c, a, b) => {
                let (c, _) = self.cond(c)?;
                let a = self.stmts(a)?;
                if b.is_empty() {
                    format!("if {c} {{ {a}}} ")
                } else {
                    let b = self.stmts(b)?;
                    format!("if {c} {{ {a}}} else {{ {b}}} ")
                }
            }
            Stmt::Return(v) => {
                if !self.in_function {
                    return syntax("`return` outside a function");
                }
                let v = match v {
                    Some(e) => as_val(self.whole(e)?),
                    None => format!("{JS}::Value::Null"),
                };
                format!("return ::core::result::Result::Ok({v}); ")
            }
            Stmt::Expr(Expr::Assign(op, target, value)) => self.assign(op, target, value)?,
            Stmt::Expr(e) => {
                let r = self.whole(e)?;
                match r {
                    R::Bool(s, _) => format!("let _: bool = {s}; "),
                    r => format!("let _ = {}; ", as_val(r)),
                }
            }
        })
    }

    fn assign(&mut self, op: &str, target: &Expr, value: &Expr) -> Result<String> {
        let Expr::Ident(name) = target else {
            return unsupported("assigning to a property");
        };
        let v = if op == "=" {
            self.whole(value)?
        } else {
            self.expr(value)?
        };
        let v = match op {
            "=" => as_val(v),
            _ => {
                let f = match op {
                    "+=" => "add",
                    "-=" => "sub",
                    "*=" => "mul",
                    "/=" => "div",
                    _ => "rem",
                };
                let current = as_ref(self.ident(name)?);
                format!("{JS}::{f}({current}, {})", as_ref(v))
            }
        };
        if self.locals.iter().any(|l| l == name) {
            return Ok(format!("{name} = {v}; "));
        }
        if self.is_data(name) {
            if !self.mutable {
                return unsupported(format!("assigning `{name}` outside a <script>"));
            }
            check_name(name)?;
            self.data_used.insert(name.clone());
            self.assigns_data = true;
            return Ok(format!("*{name} = {v}; "));
        }
        unsupported(format!("assigning the undeclared name `{name}`"))
    }
}

/// `x && y` / `x || y` of two Rust booleans with their precedence (see [`R::Bool`]).
fn logical(op: &str, (x, px): (String, u8), (y, py): (String, u8)) -> (String, u8) {
    let (prec, paren) = if op == "&&" { (2, 1) } else { (1, 0) };
    let wrap = |s: String, p: u8| {
        if p != 0 && p <= paren {
            format!("({s})")
        } else {
            s
        }
    };
    (format!("{} {op} {}", wrap(x, px), wrap(y, py)), prec)
}

/// `!x` of a Rust boolean.
fn not((s, p): (String, u8)) -> (String, u8) {
    if p == 0 {
        (format!("!{s}"), 0)
    } else {
        (format!("!({s})"), 0)
    }
}

/// The names a body assigns (so their `let` is `mut`).
fn assigned_names(stmts: &[Stmt]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for s in stmts {
        match s {
            Stmt::Expr(Expr::Assign(_, t, _)) => {
                if let Expr::Ident(n) = &**t {
                    out.insert(n.clone());
                }
            }
            Stmt::If(_, a, b) => {
                out.extend(assigned_names(a));
                out.extend(assigned_names(b));
            }
            Stmt::Block(b) => out.extend(assigned_names(b)),
            _ => {}
        }
    }
    out
}

fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        format!("{JS}::Value::from({n:.0}_i64)")
    } else if n.is_finite() {
        format!("{JS}::num({n:?})")
    } else {
        format!("{JS}::num(f64::NAN)")
    }
}

/// Translates an expression attribute into Rust of type `want`. ECMAScript that does not
/// parse becomes code that fails with a `SyntaxError` when evaluated.
///
/// # Errors
/// A construct outside the subset.
pub fn expression(src: &str, globals: &Globals, want: Want) -> std::result::Result<String, String> {
    let r = parse_expression(src).and_then(|e| {
        let mut g = Gen::new(globals, false);
        if want == Want::Bool {
            g.cond(&e).map(|(s, p)| R::Bool(s, p))
        } else {
            g.expr(&e)
        }
    });
    let r = match r {
        Ok(r) => r,
        Err(JsError::Syntax(msg)) => R::Val(throw(&format!("SyntaxError: {msg}"))),
        Err(JsError::Unsupported(what)) => return Err(format!("{what} is not translated")),
    };
    Ok(match want {
        Want::Value => match r {
            R::Ref(s) => s,
            r => as_val(r),
        },
        Want::Bool => as_bool(r).0,
        Want::String => format!("{JS}::to_string({})", as_ref(r)),
    })
}

/// Translates a `<script>` into Rust statements (function declarations are left out: they
/// are inlined where called). ECMAScript that does not parse becomes a statement that fails
/// with a `SyntaxError`.
///
/// # Errors
/// A construct outside the subset.
pub fn script(src: &str, globals: &Globals) -> std::result::Result<String, String> {
    let stmts = match parse_script(src) {
        Ok(s) => s,
        Err(JsError::Syntax(msg)) => {
            return Ok(format!("{};", throw(&format!("SyntaxError: {msg}"))))
        }
        Err(JsError::Unsupported(what)) => return Err(format!("{what} is not translated")),
    };
    let mut g = Gen::new(globals, true);
    g.reassigned = assigned_names(&stmts);
    match g.stmts(&stmts) {
        Ok(code) => Ok(code.trim_end().to_owned()),
        Err(JsError::Syntax(msg)) => Ok(format!("{};", throw(&format!("SyntaxError: {msg}")))),
        Err(JsError::Unsupported(what)) => Err(format!("{what} is not translated")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn globals() -> Globals {
        Globals {
            data: vec!["x".to_owned(), "i".to_owned()],
            functions: functions(
                &parse_script("function foo() { x = 100; } function ok(a) { return a === 1; }")
                    .unwrap(),
            ),
        }
    }

    fn value(src: &str) -> String {
        expression(src, &globals(), Want::Value).unwrap()
    }

    fn cond(src: &str) -> String {
        expression(src, &globals(), Want::Bool).unwrap()
    }

    #[test]
    fn conditions() {
        assert_eq!(
            cond("x === 99"),
            "crate::js::strict_eq(x, &crate::js::Value::from(99_i64))"
        );
        assert_eq!(
            cond("i &lt; 100".replace("&lt;", "<").as_str()),
            "crate::js::lt(i, &crate::js::Value::from(100_i64))"
        );
        assert_eq!(cond("true"), "true");
        assert_eq!(cond("!In('e2')"), "!In(\"e2\")");
        assert_eq!(
            cond("In('a') || In('b') && !In('c')"),
            "In(\"a\") || In(\"b\") && !In(\"c\")"
        );
        assert_eq!(
            cond("(In('a') || In('b')) && x"),
            "(In(\"a\") || In(\"b\")) && crate::js::truthy(x)"
        );
        assert_eq!(cond("x"), "crate::js::truthy(x)");
    }

    #[test]
    fn values() {
        assert_eq!(value("x"), "x");
        assert_eq!(value("-1"), "crate::js::Value::from(-1_i64)");
        assert_eq!(
            value("x + 1"),
            "crate::js::add(x, &crate::js::Value::from(1_i64))"
        );
        assert_eq!(
            value("'b, x:' + x"),
            "crate::js::add(&crate::js::Value::from(\"b, x:\"), x)"
        );
        assert_eq!(
            value("{p1: 'v1'}"),
            "crate::js::object([(\"p1\", crate::js::Value::from(\"v1\"))])"
        );
        assert_eq!(
            value("_event.data.foo"),
            "crate::js::get(&crate::js::get(&crate::js::event(_event)?, \"data\")?, \"foo\")?"
        );
        assert_eq!(
            value("y"),
            "crate::js::throw(\"ReferenceError: y is not defined\")?"
        );
        assert!(value("{p1: 'v1'").starts_with("crate::js::throw(\"SyntaxError: "));
        assert_eq!(
            expression("'s1'", &globals(), Want::String).unwrap(),
            "crate::js::to_string(&crate::js::Value::from(\"s1\"))"
        );
    }

    #[test]
    fn scripts() {
        let g = globals();
        assert_eq!(
            script("x *= 2;", &g).unwrap(),
            "*x = crate::js::mul(x, &crate::js::Value::from(2_i64));"
        );
        assert_eq!(
            script("\n  x = x + 1\n  i++\n", &g).unwrap(),
            "*x = crate::js::add(x, &crate::js::Value::from(1_i64)); *i = crate::js::add(i, &crate::js::Value::from(1_i64));"
        );
        let foo = script("foo();", &g).unwrap();
        assert!(
            foo.starts_with("let _ = { let mut foo = || -> crate::js::JsResult { *x = "),
            "{foo}"
        );
        assert!(script("undefinedFunction();", &g)
            .unwrap()
            .contains("ReferenceError"));
        assert!(script("x = ;", &g).unwrap().contains("SyntaxError"));
    }

    #[test]
    fn unsupported_constructs_are_errors() {
        let g = globals();
        assert!(script("for (;;) {}", &g).is_err());
        assert!(script("o.p = 1;", &g).is_err());
        assert!(expression("x = 1", &g, Want::Value).is_err());
        assert!(expression("foo()", &g, Want::Value).is_err()); // assigns data in a cond
        assert!(expression("a.b()", &g, Want::Value).is_err());
        assert!(expression("ok(1)", &g, Want::Bool).is_ok());
        assert!(script("x = 1 + foo();", &g).is_err()); // foo borrows x mutably
        assert!(script("x = foo();", &g).is_ok());
        assert!(script("if (true) { var t = 1; } x = t;", &g).is_err());
        let nested = "function f() { function g() {} g(); } f();";
        let with_f = Globals {
            data: Vec::new(),
            functions: functions(&parse_script(nested).unwrap()),
        };
        assert!(script(nested, &with_f).is_err());
    }

    #[test]
    fn calls_evaluate_arguments_first() {
        let g = globals();
        assert_eq!(
            cond("ok(x, 2)"),
            "crate::js::truthy(&{ let __a0 = crate::js::Value::clone(x); let __a1 = crate::js::Value::from(2_i64); let ok = |a: crate::js::Value| -> crate::js::JsResult { return ::core::result::Result::Ok(crate::js::Value::Bool(crate::js::strict_eq(&a, &crate::js::Value::from(1_i64)))); ::core::result::Result::Ok(crate::js::Value::Null) }; ok(__a0)? })"
        );
        assert!(expression("ok()", &g, Want::Value)
            .unwrap()
            .contains("ok(crate::js::Value::Null)?"));
    }
}
