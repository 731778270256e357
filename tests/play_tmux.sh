#!/bin/sh
# play_tmux.sh - plays buttons-and-lights in a real terminal (a detached
# tmux session): types keys, reads the screen, checks what a person would
# see.  Exits 1 with the screen when something is missing.
GDL=${GDL:-build/gdl}
command -v tmux >/dev/null || { echo "play_tmux: tmux is not installed"; exit 1; }
S=gdl-play-test-$$
sock=$(mktemp -u)
T="tmux -S $sock"
trap '$T kill-server 2>/dev/null; rm -f "$sock"' EXIT
$T new-session -d -s "$S" -x 100 -y 40 "$GDL play puzzles/buttons-and-lights.kif; echo EXIT=\$?; sleep 5"

# waits until the screen shows $1 (up to 10 s)
expect() {
  i=0
  while [ $i -lt 100 ]; do
    if $T capture-pane -p -t "$S" | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
    i=$((i + 1))
  done
  echo "play_tmux: the screen never showed '$1':"
  $T capture-pane -p -t "$S"
  exit 1
}
keys() { $T send-keys -t "$S" "$1" Enter; }

expect "player>"
for k in 1 2 1 3 2 1; do keys "$k"; done
expect "Solved!"
keys u
expect "Undone."
keys h
expect "hint: a  (a shortest plan from here takes 1 move)"
keys q
expect "EXIT=0"
echo "play_tmux: ok (6 presses solved it in a terminal; undo and hint work)"
