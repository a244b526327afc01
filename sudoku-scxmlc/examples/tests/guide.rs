//! `sudoku-scxmlc/GUIDE.md` shows real charts: every ```xml block is a verbatim excerpt of a
//! chart this crate compiles, and every local link points at a file that exists. (Its Rust
//! blocks run as doctests of this crate's library.)

use std::path::{Path, PathBuf};

const GUIDE: &str = include_str!("../../GUIDE.md");
const CHARTS: &[(&str, &str)] = &[
    ("trafficlight", include_str!("../charts/trafficlight.scxml")),
    ("mediaplayer", include_str!("../charts/mediaplayer.scxml")),
    ("simpleftp", include_str!("../charts/simpleftp.scxml")),
    ("microwave", include_str!("../charts/microwave.scxml")),
    ("invoke", include_str!("../charts/invoke.scxml")),
];

/// The bodies of the fenced blocks whose info string is `lang`.
fn blocks<'a>(text: &'a str, lang: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    let fence = format!("```{lang}\n");
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("```").expect("fenced block is closed");
        out.push(&body[..end]);
        rest = &body[end + 3..];
    }
    out
}

#[test]
fn every_chart_excerpt_is_part_of_a_compiled_chart() {
    let excerpts = blocks(GUIDE, "xml");
    assert!(excerpts.len() >= 8, "the guide shows chart code");
    for excerpt in excerpts {
        assert!(
            CHARTS.iter().any(|(_, chart)| chart.contains(excerpt)),
            "this excerpt of GUIDE.md is in no chart of charts/:\n{excerpt}"
        );
    }
}

#[test]
fn the_guide_has_runnable_rust_examples() {
    // Plain ```rust blocks run as doctests; the build-script blocks are `no_run`, and the
    // `!Send` one and the misspelt typed event are `compile_fail`.
    assert!(blocks(GUIDE, "rust").len() >= 10);
    assert_eq!(blocks(GUIDE, "rust,no_run").len(), 3);
    assert_eq!(blocks(GUIDE, "rust,compile_fail").len(), 2);
    assert!(
        blocks(GUIDE, "rust,ignore").is_empty(),
        "no example is left unchecked"
    );
}

#[test]
fn local_links_point_at_existing_files() {
    let guide_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut rest = GUIDE;
    let mut checked = 0;
    while let Some(at) = rest.find("](") {
        let target = &rest[at + 2..];
        let end = target.find(')').expect("link is closed");
        let link = &target[..end];
        rest = &target[end..];
        if link.starts_with("http") || link.starts_with('#') {
            continue;
        }
        let path: PathBuf = guide_dir.join(link);
        assert!(
            path.exists(),
            "GUIDE.md links to {link}, which does not exist"
        );
        checked += 1;
    }
    assert!(checked >= 5);
}
