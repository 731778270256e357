#!/bin/sh
# bench.sh - gdl beside the SWI-Prolog reference (tests/ref/gdlref.pl) in
# one run on this machine: random playouts (states per second, as the
# gdl-perf harness counts them) on the games of the published table, and
# breadth-first search over the whole 8-puzzle space.  Prints Markdown
# (make bench writes it to doc/performance.md).
#
#   tests/bench.sh [SECONDS]
S=${1:-5}
GDL=${GDL:-build/gdl}
C=${GDL_CORPUS:-../shared/gdl-corpus}
REF="swipl -q tests/ref/gdlref.pl"
ratios=
num() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }

echo "# Performance"
echo
echo "Measured by \`make bench\` (tests/bench.sh, $S s per game and engine) on"
echo "$(date -u +%Y-%m-%d), $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1),"
echo "$(swipl --version 2>/dev/null). Seconds are noisy on shared machines; compare the"
echo "ratios, which come from one run."
echo
echo "## Random playouts (states per second)"
echo
echo "| game | gdl | engine | gdl set-up ms | SWI-Prolog reference | ratio |"
echo "|---|---:|---|---:|---:|---:|"
for g in single/eightPuzzle single/hanoi single/buttons single/lightsOut single/knightsTour single/peg single/sudokuGrade1 multi/ticTacToe multi/connectFour multi/breakthrough; do
  f=$C/$g.kif
  j=$($GDL bench --json --seconds "$S" "$f")
  gs=$(echo "$j" | num states_per_second)
  ge=$(echo "$j" | sed -n 's/.*"engine": "\([a-z]*\)".*/\1/p')
  gm=$(echo "$j" | num setup_ms)
  r=$($REF bench --seconds "$S" "$f" 2>/dev/null | sed -n 's/.*states_per_second \([0-9.]*\).*/\1/p')
  ratio=$(awk -v a="$gs" -v b="$r" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
  printf '| %s | %.0f | %s | %.1f | %.0f | %s |\n' "$g" "$gs" "$ge" "$gm" "${r:-0}" "$ratio"
  ratios="$ratios $ratio"
done
echo
echo "Median ratio: $(printf '%s\n' $ratios | grep -v -- - | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')."
echo
echo "## Breadth-first search over the whole 8-puzzle space"
echo
echo "puzzles/eight-puzzle-unsolvable.kif: 181,440 states, all expanded."
echo
echo "| solver | seconds | states expanded | bytes per stored state |"
echo "|---|---:|---:|---:|"
for e in ground interp; do
  j=$($GDL solve --json --quiet --engine $e puzzles/eight-puzzle-unsolvable.kif)
  printf '| gdl --engine %s | %s | %s | %s |\n' "$e" "$(echo "$j" | num seconds)" "$(echo "$j" | num expanded)" "$(echo "$j" | num bytes_per_state)"
done
r=$($REF bfs --max-seconds 600 puzzles/eight-puzzle-unsolvable.kif 2>/dev/null | head -1)
printf '| SWI-Prolog reference | %s | %s | - |\n' "$(echo "$r" | sed -n 's/.*seconds \([0-9.]*\).*/\1/p')" "$(echo "$r" | sed -n 's/.*states \([0-9]*\).*/\1/p')"
cat "$(dirname "$0")/bench-notes.md"
