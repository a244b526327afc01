#!/bin/sh
# Builds Qt's side of the benchmark into OUTDIR (default: target/qt-bench of the workspace)
# with Qt 6's qscxmlc and g++: `build.sh [OUTDIR]`, then `OUTDIR/qt-bench [EVENTS] [GRID]`,
# or `QT_BENCH=OUTDIR/qt-bench cargo run --release -p scxml-ecmascript-examples --bin
# ecmascript-bench` for both sides in one run. Needs Qt 6 Core and Scxml with their headers
# (Debian: qt6-scxml-dev; its ECMAScript datamodel links QtQml), pkg-config and g++.
# qscxmlc writes each chart's class with its meta-object (no moc). The project never depends
# on Qt: this is a benchmark peer only.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../../target/qt-bench}
mkdir -p "$out"
qscxmlc=${QSCXMLC:-$(pkg-config --variable=libexecdir Qt6Core 2>/dev/null || echo /usr/lib/qt6/libexec)/qscxmlc}
cp "$here/../charts/sudoku.scxml" "$here/../charts/sudoku.js" "$here/../charts/counter.scxml" "$out/"
cd "$out"
"$qscxmlc" counter.scxml
"$qscxmlc" sudoku.scxml
flags=$(pkg-config --cflags Qt6Core Qt6Scxml)
g++ -std=c++17 -O2 -fPIC $flags -I. -o qt-bench "$here/main.cpp" counter.cpp sudoku.cpp \
    $(pkg-config --libs Qt6Core Qt6Scxml)
cp "$here/../charts/data/sudoku.data" "$out/"
echo "$out/qt-bench"
