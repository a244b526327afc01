//! Peak heap of the compiler on big charts, against the chart's size (docs/scale.md,
//! "Compiler memory"). Synthetic charts of N states (each with a `<log>`, or with a long
//! comment, or nested and indented as editors write them), and uSCXML's benchmark charts
//! when `../shared/testdata` has them; for each, `check` (`Config::check`: parse and
//! validate) and `compile` (`Config::generate_to`, the whole pipeline writing to a file, as
//! build scripts and `sudoku-scxmlc compile` do; here to a sink that counts the bytes) are
//! measured with a counting allocator.
//!
//! ```text
//! cargo run --release -p scxml-bench --example compiler_memory            # the default set
//! cargo run --release -p scxml-bench --example compiler_memory -- 20000  # N states
//! cargo run --release -p scxml-bench --example compiler_memory -- chart.scxml
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use sudoku_scxmlc::Config;

/// The system allocator, counting the bytes allocated now and at most since the last reset.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = NOW.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        NOW.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            if new_size >= layout.size() {
                let now =
                    NOW.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size();
                PEAK.fetch_max(now, Relaxed);
            } else {
                NOW.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak heap bytes above what was allocated before, while `f` runs.
fn peak_of<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = NOW.load(Relaxed);
    PEAK.store(base, Relaxed);
    let r = f();
    (r, PEAK.load(Relaxed) - base)
}

/// A chart of `n` states in a ring, each with an `<onentry><log>` (one block of executable
/// content per state).
fn logs_chart(n: usize) -> String {
    let mut s = String::from(
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\"Logs\">\n",
    );
    for i in 0..n {
        s.push_str(&format!(
            "  <state id=\"s{i}\"><onentry><log label=\"in s{i}\"/></onentry><transition event=\"go\" target=\"s{}\"/></state>\n",
            (i + 1) % n
        ));
    }
    s.push_str("</scxml>\n");
    s
}

/// A chart laid out as people and editors write them, of about `n` states: indented, in
/// groups of ten atomic states inside a compound state, each with an event transition to the
/// next and every tenth with an `<onentry>`.
fn nested_chart(n: usize) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\"Nested\">\n",
    );
    let groups = n.div_ceil(11);
    for g in 0..groups {
        s.push_str(&format!("    <state id=\"group{g}\">\n"));
        for i in 0..10 {
            let next = if i == 9 {
                format!("group{}", (g + 1) % groups)
            } else {
                format!("g{g}s{}", i + 1)
            };
            s.push_str(&format!("        <state id=\"g{g}s{i}\">\n"));
            if i == 0 {
                s.push_str(&format!(
                    "            <onentry><log label=\"entered group {g}\"/></onentry>\n"
                ));
            }
            s.push_str(&format!(
                "            <transition event=\"next\" target=\"{next}\"/>\n        </state>\n"
            ));
        }
        s.push_str("    </state>\n");
    }
    s.push_str("</scxml>\n");
    s
}

/// A chart of two states, the first documented by a comment of `bytes` bytes.
fn comment_chart(bytes: usize) -> String {
    let words = "a long comment ".repeat(bytes / 15 + 1);
    format!(
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\"Comment\">\n  <!-- {} -->\n  <state id=\"a\"><transition event=\"go\" target=\"b\"/></state>\n  <state id=\"b\"/>\n</scxml>\n",
        &words[..bytes]
    )
}

fn measure(name: &str, text: &str) {
    let path = Path::new("chart.scxml");
    let config = Config::new();
    let (checked, check_peak) = peak_of(|| config.check(path, text));
    if let Err(e) = checked {
        println!("{name}: {e}");
        return;
    }
    let (written, compile_peak) = peak_of(|| config.generate_to(path, text, &mut std::io::sink()));
    let out = written.map_or(0, |w| w.bytes);
    let size = text.len() as f64;
    println!(
        "| {name} | {:.2} MB | {:.1} MB ({:.1}×) | {:.1} MB ({:.1}×) | {:.1} MB |",
        size / 1e6,
        check_peak as f64 / 1e6,
        check_peak as f64 / size,
        compile_peak as f64 / 1e6,
        compile_peak as f64 / size,
        out as f64 / 1e6,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    println!("| chart | size | check peak (× size) | compile peak (× size) | output |");
    println!("|---|---:|---:|---:|---:|");
    if !args.is_empty() {
        for a in &args {
            match a.parse::<usize>() {
                Ok(n) => measure(&format!("{n} states with a `<log>`"), &logs_chart(n)),
                Err(_) => {
                    let text = std::fs::read_to_string(a).expect("read the chart");
                    measure(a, &text);
                }
            }
        }
        return;
    }
    for n in [1_000, 5_000, 20_000] {
        measure(&format!("{n} states with a `<log>`"), &logs_chart(n));
    }
    for n in [10_000, 100_000] {
        measure(
            &format!("{n} states, nested and indented"),
            &nested_chart(n),
        );
    }
    measure("a 10 MB comment", &comment_chart(10_000_000));
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/testdata/charts/uscxml-benchmarks");
    for chart in ["Transitions.256", "LCCA.64", "LCCA.256"] {
        if let Ok(text) = std::fs::read_to_string(dir.join(format!("{chart}.scxml"))) {
            measure(&format!("uSCXML `{chart}`"), &text);
        }
    }
}
