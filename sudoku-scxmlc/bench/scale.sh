#!/bin/sh
# Scale report for uSCXML's benchmark charts: for each size, the generator's time and peak
# memory (`sudoku-scxmlc compile`, release build), the generated size, and rustc's time to
# compile the generated file in a crate of its own (debug profile, runtime already built).
# Usage (from the workspace root): sudoku-scxmlc/bench/scale.sh [SIZES] (default "4 16 64 256").
set -eu
sizes=${1:-4 16 64 256}
root=$(pwd)
charts="$root/../shared/testdata/charts/uscxml-benchmarks"
[ -d "$charts" ] || { echo "no $charts: skipped"; exit 0; }
cargo build -q --release -p sudoku-scxmlc --features cli
cli="${CARGO_TARGET_DIR:-$root/target}/release/sudoku-scxmlc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "scale-probe"
version = "0.0.0"
edition = "2021"
[dependencies]
sudoku-scxmlc = { path = "$root/sudoku-scxmlc", default-features = false }
[workspace]
TOML
echo 'fn main() {}' > "$work/src/main.rs"
# Build the runtime once so that the timings below are rustc on the generated code only.
CARGO_TARGET_DIR="$work/target" cargo build -q --manifest-path "$work/Cargo.toml"
echo "| chart | states | transitions | codegen s | codegen peak MB | generated MB | bytes/(state+transition) | rustc s (debug) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
    for kind in Transitions LCCA; do
        chart="$charts/$kind.$n.scxml"
        [ -f "$chart" ] || continue
        states=$(grep -o '<state\|<parallel\|<final' "$chart" | wc -l)
        transitions=$(grep -o '<transition' "$chart" | wc -l)
        t=$( { /usr/bin/time -f "%e %M" "$cli" compile --state-newtype "$chart" -o "$work/src/chart.rs" >/dev/null; } 2>&1 | tail -1)
        secs=${t% *}; kb=${t#* }
        bytes=$(wc -c < "$work/src/chart.rs")
        printf 'mod chart {\n    include!("chart.rs");\n}\nfn main() {\n    let _ = chart::Benchmark::new();\n}\n' > "$work/src/main.rs"
        sed -i 's/^pub type [A-Za-z]* = /pub type Benchmark = /' "$work/src/chart.rs"
        start=$(date +%s.%N)
        CARGO_TARGET_DIR="$work/target" cargo build -q --manifest-path "$work/Cargo.toml"
        rustc_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        echo "| $kind.$n | $states | $transitions | $secs | $((kb / 1024)) | $(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1048576 }') | $((bytes / (states + transitions))) | $rustc_s |"
    done
done
