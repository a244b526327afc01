//! Graphviz DOT of a chart: compound and parallel states as clusters (parallel ones dashed),
//! atomic states as rounded boxes, final states as double circles, history states as `H` /
//! `H*` circles, the initial state of each compound state marked by a filled dot, and
//! transitions as edges labelled `event [cond]`.

use crate::chart::{Chart, Cond};
use crate::runtime::StateKind;
use std::fmt::Write;

/// Renders a validated chart as a DOT digraph.
pub fn dot(chart: &Chart) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", quote(&chart.name));
    out.push_str("  compound=true;\n  rankdir=LR;\n  node [fontname=\"Helvetica\" fontsize=11];\n  edge [fontname=\"Helvetica\" fontsize=10];\n");
    state(chart, 0, 1, &mut out);
    for t in &chart.transitions {
        let src = &chart.states[t.source];
        let initial = src
            .initial
            .get()
            .is_some_and(|i| std::ptr::eq(&chart.transitions[i], t));
        let from = if initial && !src.kind.is_history() {
            format!("init_{}", t.source)
        } else {
            node_id(chart, t.source)
        };
        let mut label = t.event_text().unwrap_or_default().to_owned();
        if let Some(c) = t.cond() {
            let c = match c {
                Cond::In(s) => format!("In({})", chart.states[*s].id),
                Cond::Rust(code) => code.text.clone(),
            };
            label.push_str(&format!(" [{c}]"));
        }
        if t.targets.is_empty() {
            let _ = writeln!(
                out,
                "  {from} -> {from} [label={} style=dotted];",
                quote(label.trim())
            );
        }
        for &target in &t.targets {
            let mut attrs = vec![format!("label={}", quote(label.trim()))];
            if let Some(cluster) = cluster_anchor(chart, t.source) {
                if from != format!("init_{}", t.source) {
                    attrs.push(format!("ltail=cluster_{cluster}"));
                }
            }
            if chart.states[target].kind.is_compound()
                || chart.states[target].kind == StateKind::Parallel
            {
                attrs.push(format!("lhead=cluster_{target}"));
            }
            if t.internal && !initial {
                attrs.push("style=dashed".to_owned());
            }
            let _ = writeln!(
                out,
                "  {from} -> {} [{}];",
                node_id(chart, target),
                attrs.join(" ")
            );
        }
    }
    out.push_str("}\n");
    out
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn is_cluster(chart: &Chart, s: usize) -> bool {
    matches!(
        chart.states[s].kind,
        StateKind::Compound | StateKind::Parallel | StateKind::Root
    )
}

fn cluster_anchor(chart: &Chart, s: usize) -> Option<usize> {
    (s != 0 && is_cluster(chart, s)).then_some(s)
}

/// The node an edge attaches to: a state's own node, or for a cluster an invisible anchor.
fn node_id(chart: &Chart, s: usize) -> String {
    if is_cluster(chart, s) {
        format!("anchor_{s}")
    } else {
        format!("s{s}")
    }
}

fn state(chart: &Chart, s: usize, depth: usize, out: &mut String) {
    let st = &chart.states[s];
    let pad = "  ".repeat(depth);
    let label = quote(&st.id);
    match st.kind {
        StateKind::Atomic => {
            let _ = writeln!(out, "{pad}s{s} [label={label} shape=box style=rounded];");
        }
        StateKind::Final => {
            let _ = writeln!(out, "{pad}s{s} [label={label} shape=doublecircle];");
        }
        StateKind::ShallowHistory | StateKind::DeepHistory => {
            let h = if st.kind == StateKind::DeepHistory {
                "H*"
            } else {
                "H"
            };
            let _ = writeln!(
                out,
                "{pad}s{s} [label=\"{h}\" shape=circle tooltip={label}];"
            );
        }
        StateKind::Compound | StateKind::Parallel | StateKind::Root => {
            if s != 0 {
                let _ = writeln!(out, "{pad}subgraph cluster_{s} {{");
                let style = if st.kind == StateKind::Parallel {
                    "dashed,rounded"
                } else {
                    "rounded"
                };
                let _ = writeln!(out, "{pad}  label={label}; style=\"{style}\";");
            }
            let _ = writeln!(out, "{pad}  anchor_{s} [shape=point style=invis];");
            if st.initial.get().is_some() {
                let _ = writeln!(out, "{pad}  init_{s} [shape=point width=0.12 label=\"\"];");
            }
            for &c in &st.children {
                state(chart, c, depth + 1, out);
            }
            if s != 0 {
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }
}
