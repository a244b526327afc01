//! What each event of the chart carries, as a Rust type: the payload of its variant of the
//! generated `enum Event`.
//!
//! - `<rs:event name="tap" type="Cell"/>` declares it (no `type`: nothing);
//! - otherwise the chart's `<send event="...">`s of that name say it, when every one of them
//!   builds its data from the same `<param>`s and `namelist` items, each with a known type:
//!   `rs:type` on the `<param>`, or the `rs:type` of the `<data>` its `expr` (or `location`)
//!   names; the payload is then a generated struct with one field per parameter;
//! - anything else (no such `<send>`, `<content>`, untyped parameters, sends that disagree,
//!   a `<raise>` of the name, which carries no data) carries JSON, as before.

use super::code::is_rust_ident;
use crate::chart::{Chart, DatamodelKind, Exec, Payload, Send, Value};
use crate::diagnostic::Diagnostic;
use proc_macro2::TokenStream;

/// The fields a `<send>` builds its data from, typed; `None` when one is not typed (or the
/// send has `<content>`, or a parameter name is not a Rust identifier).
fn send_fields(chart: &Chart, send: &Send) -> Option<Vec<(String, TokenStream)>> {
    if send.content.is_some() || send.namelist_error.is_some() {
        return None;
    }
    let mut fields = Vec::new();
    for &d in &send.namelist {
        let data = &chart.data[d];
        fields.push((data.id.clone(), data.ty.clone()?));
    }
    for p in &send.params {
        if p.error.is_some() || !is_rust_ident(&p.name) {
            return None;
        }
        let ty = match &p.ty {
            Some(t) => t.clone(),
            None => {
                let id = p.expr.text.trim();
                chart.data.iter().find(|d| d.id == id)?.ty.clone()?
            }
        };
        fields.push((p.name.clone(), ty));
    }
    let mut names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    (names.len() == fields.len() && !fields.is_empty()).then_some(fields)
}

/// What a chart's executable content does with one event name.
#[derive(Default)]
struct Uses {
    /// The field lists of its literal `<send>`s (`None` for an untyped one).
    sends: Vec<Option<Vec<(String, TokenStream)>>>,
    /// Lines of its `<raise>`s.
    raises: Vec<u32>,
    /// Lines of its `<send>`s with parameters or content.
    sends_with_data: Vec<u32>,
}

fn walk(chart: &Chart, list: &[Exec], name: &str, uses: &mut Uses) {
    for e in list {
        match e {
            Exec::Raise { event, line, .. } if event == name => uses.raises.push(*line),
            Exec::Send(send) => {
                if matches!(&send.event, Some(Value::Literal(n)) if n == name) {
                    uses.sends.push(send_fields(chart, send));
                    if !send.params.is_empty()
                        || send.content.is_some()
                        || !send.namelist.is_empty()
                    {
                        uses.sends_with_data.push(send.line);
                    }
                }
            }
            Exec::If { branches, .. } => {
                for (_, body) in branches {
                    walk(chart, body, name, uses);
                }
            }
            Exec::Foreach { body, .. } => walk(chart, body, name, uses),
            _ => {}
        }
    }
}

/// Every block of executable content of the chart.
fn blocks(chart: &Chart) -> impl Iterator<Item = &[Exec]> {
    let states = chart.states.iter().flat_map(|s| {
        s.onentry
            .iter()
            .chain(s.onexit())
            .map(|b| b.body.as_slice())
    });
    let transitions = chart
        .transitions
        .iter()
        .filter_map(|t| t.content().map(|b| b.body.as_slice()));
    let script = chart.script.iter().map(|b| b.body.as_slice());
    let finalize = chart
        .invokes
        .iter()
        .filter_map(|i| i.finalize.as_ref().map(|b| b.body.as_slice()));
    states.chain(transitions).chain(script).chain(finalize)
}

/// The payload of each of `chart.event_names`, and the errors: a `<raise>` of an event
/// declared with a type, or a `<send>` with data of one declared to carry nothing.
pub fn payloads(chart: &Chart) -> (Vec<Payload>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    if chart.datamodel != DatamodelKind::Rust {
        let payloads = chart
            .event_names
            .iter()
            .map(|(name, _, _)| {
                if chart.declared_events.iter().any(|d| &d.name == name) {
                    Payload::Unit
                } else {
                    Payload::Json
                }
            })
            .collect();
        return (payloads, diags);
    }
    let payloads = chart
        .event_names
        .iter()
        .map(|(name, _, _)| {
            let mut uses = Uses::default();
            for list in blocks(chart) {
                walk(chart, list, name, &mut uses);
            }
            if let Some(d) = chart.declared_events.iter().find(|d| &d.name == name) {
                match &d.ty {
                    Some(ty) => {
                        if let Some(line) = uses.raises.first() {
                            diags.push(Diagnostic::error(
                                d.span,
                                format!(
                                    "event `{name}` is declared to carry `{}`, but the `<raise>` at line {line} sends it without data",
                                    d.ty_text.as_deref().unwrap_or("")
                                ),
                            ).with_help("declare it without `type`, or send it with `<send>` and its data"));
                        }
                        return Payload::Declared(ty.clone());
                    }
                    None => {
                        if let Some(line) = uses.sends_with_data.first() {
                            diags.push(Diagnostic::error(
                                d.span,
                                format!(
                                    "event `{name}` is declared to carry nothing, but the `<send>` at line {line} gives it data"
                                ),
                            ).with_help("declare its `type`, or remove the `<send>`'s data"));
                        }
                        return Payload::Unit;
                    }
                }
            }
            if !uses.raises.is_empty() || uses.sends.is_empty() {
                return Payload::Json;
            }
            let first = uses.sends[0].clone();
            let same = |a: &Option<Vec<(String, TokenStream)>>| match (a, &first) {
                (Some(a), Some(b)) => {
                    a.len() == b.len()
                        && a.iter()
                            .zip(b)
                            .all(|((n1, t1), (n2, t2))| n1 == n2 && t1.to_string() == t2.to_string())
                }
                _ => false,
            };
            match &first {
                Some(fields) if uses.sends.iter().all(same) => Payload::Fields(fields.clone()),
                _ => Payload::Json,
            }
        })
        .collect();
    (payloads, diags)
}
