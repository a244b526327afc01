#!/usr/bin/env bash
# Takes the README's screenshots: the game in Xvfb, driven with xdotool as a player would.
# Needs Xvfb, xdotool and ImageMagick's `import` (apt install xvfb xdotool imagemagick).
# Usage: docs/screenshots/take.sh [path/to/sudoku]   (default: target/release/sudoku)
set -euo pipefail
cd "$(dirname "$0")/../.."
game=${1:-target/release/sudoku}
out=docs/screenshots
home=$(mktemp -d)
exec 3< <(Xvfb -displayfd 1 -noreset -screen 0 1280x900x24 -nolisten tcp 2>/dev/null)
read -r -u 3 number
export DISPLAY=:$number
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$home"' EXIT

# Starts the game on puzzle file $1 with a fresh data folder and waits for its window.
open_game() {
  rm -rf "${home:?}"/*
  XDG_DATA_HOME=$home HOME=$home SLINT_BACKEND=winit-software "$game" --open "$1" &
  until window=$(xdotool search --onlyvisible --name '^Sudoku' 2>/dev/null | head -1) && [ -n "$window" ]; do
    sleep 0.2
  done
  sleep 1
}
focus() { xdotool mousemove 2000 2000; xdotool windowfocus --sync "$window"; }
key() { for k in "$@"; do xdotool key "$k"; sleep 0.08; done; }
click() { xdotool mousemove "$1" "$2" click 1; sleep 0.4; }
shot() { sleep 0.5; xdotool mousemove 2000 2000; import -window "$window" "$out/$1.png"; }
# Options → Theme → the item at height $1 (Light 129, Dark 161).
theme() { click 216 18; click 300 92; click 508 "$1"; focus; }

open_game puzzles/sudoku.data
focus
# Three right digits in row 1, one in r2c3, and an 8 in r3c3 that clashes with the given 8.
key Down 4 Right 3 Right 5 Down 2 Down 8 Up Up Left Left
shot light
theme 161; shot dark; theme 129
# Notes: the mistake removed, every candidate filled in, notes mode on.
key Down Down Right Right Delete
click 956 615; focus
key n Right Right Right Down
shot notes
key h
shot hint
key p
shot paused

key p
# Edit mode: a blank grid with two 5s in row 1, checked.
click 699 67; focus
key 5 Right Right Right Right Right Right Right Right 5 Down Down 3 Down Left Left 7 Return
shot edit
key Escape
kill %1; wait %1 2>/dev/null || true

# The animated search on a hard puzzle, mid-search; then the chart view beside it.
open_game puzzles/puzzle-07-hard.data
focus
click 826 67
sleep 14
focus; key space
shot search
click 928 67
shot chart
