#!/bin/sh
# Instructions per puzzle, ours against the `sudoku` crate, for solve and count<=2 on every
# dataset, counted by valgrind (cachegrind without cache simulation: exact and stable under
# load, unlike wall time on a shared machine), plus the
# ratio (theirs / ours; above 1 means we execute fewer instructions).
# Usage: sudoku-machine/bench/icount.sh [PASSES] (from the workspace root; default 2).
set -eu
passes=${1:-2}
cargo build --release -q -p sudoku-bench --example icount
bin=${CARGO_TARGET_DIR:-target}/release/examples/icount
count() { # who mode index passes -> instructions
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" "$@" 2>&1 \
        | sed -n 's/.*I *refs: *//p' | tr -d ,
}
echo "| dataset | solve ours | solve sudoku | ratio | count≤2 ours | count≤2 sudoku | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for i in 0 1 2 3 4; do
    n=$("$bin" ours solve "$i" 0 | awk '{print $(NF-2)}')
    name=$("$bin" ours solve "$i" 0 | awk '{NF-=3; print}')
    row="| $name"
    for mode in solve count; do
        base=$(count ours "$mode" "$i" 0)
        ours=$(( ($(count ours "$mode" "$i" "$passes") - base) / (passes * n) ))
        theirs=$(( ($(count sudoku "$mode" "$i" "$passes") - base) / (passes * n) ))
        ratio=$(awk -v a="$theirs" -v b="$ours" 'BEGIN { printf "%.2f", a / b }')
        row="$row | $ours | $theirs | $ratio"
    done
    echo "$row |"
done
