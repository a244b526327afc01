#!/bin/sh
# Seeds fuzz/corpus/front_end from the repository's charts and the SCION suite (if present).
# SCION charts declare datamodel="ecmascript", which the compiler rejects at once; the copy
# drops that attribute and the license header so the seeds reach validate/plan/emit.
# Run from anywhere; the corpus directory is git-ignored.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
crate=$(dirname "$here")
repo=$(dirname "$crate")
out="$here/corpus/front_end"
mkdir -p "$out" "$here/corpus/structured"
cp "$here"/seeds/*.scxml "$out/"
cp "$crate/tests/golden/features.scxml" "$out/golden-features.scxml"
[ -f "$repo/sudoku-machine/chart/sudoku.scxml" ] && cp "$repo/sudoku-machine/chart/sudoku.scxml" "$out/sudoku.scxml"
scion="${SCION_DIR:-$crate/scion/testdata}"
if [ -d "$scion" ]; then
    for f in "$scion"/*/*.scxml; do
        [ "$(wc -c < "$f")" -le 4096 ] || continue
        name="scion-$(basename "$(dirname "$f")")-$(basename "$f")"
        # Drop the datamodel attribute and the leading license comment.
        sed -e 's/datamodel="ecmascript"//' "$f" | awk '
            /<!--/ && !done { skip = 1 }
            !skip { print }
            skip && /-->/ { skip = 0; done = 1 }' > "$out/$name"
    done
fi
echo "seeded $(ls "$out" | wc -l) files into $out"
