#!/bin/sh
# bench.sh - gdl beside the SWI-Prolog reference (tests/ref/gdlref.pl) in
# one run on this machine: random playouts (states per second, as the
# gdl-perf harness counts them) on the games of the published table, on
# every multi-player game and the ten slowest single-player ones beside
# SWI-Prolog over compiled clauses (tests/bench_corpus.sh), and
# breadth-first search over the whole 8-puzzle space, the searches side
# by side, what an estimate costs, and what the analyses cost on every
# puzzle and single-player game (tests/analysis_sweep.sh).  Prints Markdown
# (make bench writes it to doc/performance.md).
#
#   tests/bench.sh [SECONDS] [RUNS]
#
# Each figure is the best of RUNS runs (default 3), gdl's and the
# reference's alternating: on a shared machine other work only ever adds
# time, so the best run is the one least disturbed, on both sides alike.
# A row's engine and set-up are those of its best run (a stalled machine
# can push a game past the grounding budget, and it is interpreted).
S=${1:-5}
N=${2:-3}
GDL=${GDL:-build/gdl}
C=${GDL_CORPUS:-../shared/gdl-corpus}
REF="swipl -q tests/ref/gdlref.pl"
ratios=
# gdl solve's searches: SOLVE_SECONDS a search; FILE:KNOWN_LENGTH rows
SS=${SOLVE_SECONDS:-60}
SOLVE_ROWS=${SOLVE_ROWS:-"puzzles/eight-puzzle-31.kif:31 puzzles/fifteen-puzzle-34.kif:34 puzzles/sokoban-three-boxes.kif:39 puzzles/peg-solitaire-33.kif:31 single/sudokuGrade1.kif:50 single/sudokuGrade2.kif:53 single/sudokuGrade3.kif:54 single/firefighter.kif:49 single/max_knights.kif:33 single/knightmove.kif:63"}
num() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b != "" && (a == "" || b + 0 > a + 0)) ? b : a }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b != "" && (a == "" || b + 0 < a + 0)) ? b : a }'; }
# The published anchors of issue #5 (gdl-perf results, other hardware):
# Sancho, and ggplib where it was measured.
anchor() {
  case $1 in
    single/eightPuzzle) echo 206k ;;
    single/hanoi) echo 1.15M ;;
    single/buttons) echo 2.42M ;;
    single/lightsOut) echo 637k ;;
    single/knightsTour) echo 1.32M ;;
    single/peg) echo 455k ;;
    single/sudokuGrade1) echo 603k ;;
    multi/ticTacToe) echo "774k-1.05M / 2.87M" ;;
    multi/connectFour) echo "976k-1.42M / 2.65M" ;;
    multi/breakthrough) echo 840k ;;
  esac
}
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { if (a > 0 && b > 0) printf "%.*f", d, a / b; else print "-" }'; }

echo "# Performance"
echo
echo "Measured by \`make bench\` (tests/bench.sh: $S s per run, the best of $N"
echo "runs of gdl and of the reference, alternating) on $(date -u +%Y-%m-%d),"
echo "$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1),"
echo "$(swipl --version 2>/dev/null). Seconds are noisy on shared machines; compare the"
echo "ratios, which come from one run."
echo
echo "## Random playouts (states per second)"
echo
echo "| game | gdl | engine | gdl set-up ms | SWI-Prolog reference | ratio | published: Sancho / ggplib |"
echo "|---|---:|---|---:|---:|---:|---:|"
for g in single/eightPuzzle single/hanoi single/buttons single/lightsOut single/knightsTour single/peg single/sudokuGrade1 multi/ticTacToe multi/connectFour multi/breakthrough; do
  f=$C/$g.kif
  gs= gm= r=
  i=0
  while [ $i -lt "$N" ]; do
    j=$($GDL bench --json --seconds "$S" "$f")
    x=$(echo "$j" | num states_per_second)
    if [ "$(max "$gs" "$x")" = "$x" ]; then   # the best run's figures
      gs=$x
      gm=$(echo "$j" | num setup_ms)
      ge=$(echo "$j" | sed -n 's/.*"engine": "\([a-z]*\)".*/\1/p')
    fi
    r=$(max "$r" "$($REF bench --seconds "$S" "$f" 2>/dev/null | sed -n 's/.*states_per_second \([0-9.]*\).*/\1/p')")
    i=$((i + 1))
  done
  ratio=$(ratio "$gs" "$r")
  printf '| %s | %.0f | %s | %.1f | %.0f | %s | %s |\n' "$g" "$gs" "$ge" "$gm" "${r:-0}" "$ratio" "$(anchor "$g")"
  ratios="$ratios $ratio"
done
echo
echo "Median ratio: $(printf '%s\n' $ratios | grep -v -- - | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')."
echo
echo "## Every multi-player game, and the slowest single-player ones"
echo
echo "Random playouts as above ($S s a run, the best of $N, alternating), beside"
echo "SWI-Prolog over the game compiled to clauses"
echo "(../shared/tools/prolog-baseline/gdlplay.sh, the strongest Prolog peer;"
echo "it counts CPU seconds), on every game of multi/ and the ten games of"
echo "single/ with the fewest gdl states per second in a quick pass of this run"
echo "(gdl alone, 0.5 s a game: \`tests/bench_corpus.sh --slowest 10\`).  Every"
echo "run is under a timeout of 30 s and five times its seconds, since gdl"
echo "bench can overrun them where a game is interpreted slowly."
echo
slow=$(tests/bench_corpus.sh --slowest 10 0.5 "$C"/single/*.kif)
tests/bench_corpus.sh --rows "$S" "$N" "$C"/multi/*.kif $slow
echo
echo "## The corpus table: every game beside SWI-Prolog"
echo
echo "The same table for every game of the corpus (single/, multi/ and"
echo "conformance/), with its date, machine and parameters, is"
echo "[corpus-speed.md](corpus-speed.md).  \`make bench-corpus\` rewrites it"
echo "(some 20 minutes; not part of \`make bench\`) and fails when a game is"
echo "slower in gdl than in SWI-Prolog."
echo
echo "## Breadth-first search over the whole 8-puzzle space"
echo
echo "puzzles/eight-puzzle-unsolvable.kif: 181,440 states, all expanded."
echo
echo "| solver | seconds | states expanded | bytes per stored state | the reference's time over this |"
echo "|---|---:|---:|---:|---:|"
P=puzzles/eight-puzzle-unsolvable.kif
gt= it= rt= ge= ie= gb= ib= re=
i=0
while [ $i -lt "$N" ]; do
  j=$($GDL solve --json --quiet --algorithm bfs --engine ground $P)
  gt=$(min "$gt" "$(echo "$j" | num seconds)") ge=$(echo "$j" | num expanded) gb=$(echo "$j" | num bytes_per_state)
  j=$($GDL solve --json --quiet --algorithm bfs --engine interp $P)
  it=$(min "$it" "$(echo "$j" | num seconds)") ie=$(echo "$j" | num expanded) ib=$(echo "$j" | num bytes_per_state)
  j=$($REF bfs --max-seconds 600 $P 2>/dev/null | head -1)
  rt=$(min "$rt" "$(echo "$j" | sed -n 's/.*seconds \([0-9.]*\).*/\1/p')") re=$(echo "$j" | sed -n 's/.*states \([0-9]*\).*/\1/p')
  i=$((i + 1))
done
printf '| gdl --engine ground | %s | %s | %s | %s |\n' "$gt" "$ge" "$gb" "$(ratio "$rt" "$gt")"
printf '| gdl --engine interp | %s | %s | %s | %s |\n' "$it" "$ie" "$ib" "$(ratio "$rt" "$it")"
printf '| SWI-Prolog reference | %s | %s | - | 1 |\n' "$rt" "$re"
echo
echo "## Breadth-first search beside hand-written C, and on every core"
echo
echo "The floor: ../shared/tools/handcoded/eight_bfs.c (cc -O2), a breadth-first"
echo "search written by hand for the 8-puzzle alone, over the same 181,440"
echo "states.  gdl's seconds are its search's (\`seconds\` of --json), as the"
echo "floor's are; each the best of $N runs, alternating."
echo
HC=${HANDCODED:-../shared/tools/handcoded/eight_bfs.c}
HB=$(mktemp -d)
ht= g1= gd= b1= td=
if cc -O2 -o "$HB/eight_bfs" "$HC" 2>/dev/null; then
  i=0
  while [ $i -lt "$N" ]; do
    ht=$(min "$ht" "$("$HB/eight_bfs" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')")
    j=$($GDL solve --json --quiet --algorithm bfs --threads 1 $P)
    g1=$(min "$g1" "$(echo "$j" | num seconds)") b1=$(echo "$j" | num bytes_per_state)
    j=$($GDL solve --json --quiet --algorithm bfs $P)
    gd=$(min "$gd" "$(echo "$j" | num seconds)") td=$(echo "$j" | num threads)
    i=$((i + 1))
  done
  echo "| solver | seconds | bytes per stored state | over the hand-written search |"
  echo "|---|---:|---:|---:|"
  printf '| hand-written C (eight_bfs.c) | %s | - | 1 |\n' "$ht"
  printf '| gdl --threads 1 | %s | %s | %s |\n' "$g1" "$b1" "$(ratio "$g1" "$ht" 2)"
  printf '| gdl (default: %s threads) | %s | %s | %s |\n' "$td" "$gd" "$b1" "$(ratio "$gd" "$ht" 2)"
else
  echo "(no C compiler for $HC)"
fi
rm -rf "$HB"
echo
echo "Threads and MPI ranks on the same searches: states stored per second"
echo "(stored / seconds) and bytes per stored state, the best of $N runs each."
echo "Rows bounded by --max-states stop there (a limit, exit 3), the same"
echo "states for every column.  MPI ranks run on this one machine"
echo "(--oversubscribe past its cores), so they share its $(nproc) cores."
echo
SCALE_ROWS=${SCALE_ROWS:-"puzzles/eight-puzzle-unsolvable.kif:0 puzzles/fifteen-puzzle-34.kif:8M puzzles/peg-solitaire-33.kif:4M"}
MPI=
if [ -x build/gdl-mpi ] && command -v mpirun >/dev/null; then
  MPI="mpirun --oversubscribe $([ "$(id -u)" = 0 ] && echo --allow-run-as-root)"
fi
echo "| search | states | 1 thread | 2 threads | 2 over 1 | 1 rank | 2 ranks | 4 ranks |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for row in $SCALE_ROWS; do
  f=${row%:*} m=${row##*:}
  lim=
  [ "$m" = 0 ] || lim="--max-states $m"
  line="| $(basename "$f" .kif)$([ "$m" = 0 ] || echo " to $m states") |"
  r1= r2= st=
  for t in 1 2; do
    best=
    i=0
    while [ $i -lt "$N" ]; do
      j=$($GDL solve --json --quiet --algorithm bfs --threads $t $lim "$f")
      st=$(echo "$j" | num stored) b=$(echo "$j" | num bytes_per_state)
      best=$(max "$best" "$(awk -v n="$st" -v s="$(echo "$j" | num seconds)" 'BEGIN { if (s > 0) printf "%.0f", n / s }')")
      i=$((i + 1))
    done
    eval r$t=\$best
  done
  line="$line $st | $r1 ($b B) | $r2 ($b B) | $(ratio "$r2" "$r1") |"
  for k in 1 2 4; do
    if [ -n "$MPI" ]; then
      best=
      i=0
      while [ $i -lt "$N" ]; do
        j=$($MPI -np $k build/gdl-mpi solve --json --quiet $lim "$f" 2>/dev/null)
        best=$(max "$best" "$(awk -v n="$(echo "$j" | num stored)" -v s="$(echo "$j" | num seconds)" 'BEGIN { if (s > 0) printf "%.0f", n / s }')")
        i=$((i + 1))
      done
      line="$line ${best:-error} |"
    else
      line="$line (no gdl-mpi) |"
    fi
  done
  echo "$line"
done
echo
echo "## Solving: the searches side by side"
echo
echo "Each search on its own with a limit of $SS s (\`--max-seconds\`), once; the"
echo "reference's breadth-first search and the clingo peer"
echo "(../shared/tools/asp-baseline/, horizon = the known length) with the same"
echo "limit.  Cells: seconds / states expanded / plan length, or the status"
echo "when not solved; * marks a plan not proven shortest."
echo
echo "| puzzle | known | bfs | astar | idastar | gbfs | auto | reference bfs | clingo |"
echo "|---|---:|---|---|---|---|---|---|---|"
for row in $SOLVE_ROWS; do
  f=${row%:*} h=${row##*:}
  [ -f "$f" ] || f=$C/$f
  [ -f "$f" ] || continue
  line="| $(basename "$f" .kif) | $h |"
  for a in bfs astar idastar gbfs auto; do
    j=$(timeout $((SS * 3 + 30)) $GDL solve --json --quiet --algorithm $a --max-seconds "$SS" "$f" 2>/dev/null)
    st=$(echo "$j" | sed -n 's/.*"status": "\([a-z]*\)".*/\1/p')
    if [ "$st" = solved ]; then
      opt=$(echo "$j" | sed -n 's/.*"optimal": \([a-z]*\).*/\1/p')
      line="$line $(echo "$j" | num seconds) / $(echo "$j" | num expanded) / $(echo "$j" | num length)$([ "$opt" = true ] || echo '*') |"
    else
      line="$line ${st:-error} |"
    fi
  done
  r=$(timeout $((SS * 3 + 30)) $REF bfs --goal-test expand --max-seconds "$SS" "$f" 2>/dev/null | head -1)
  if echo "$r" | grep -q '^status solved'; then
    line="$line $(echo "$r" | sed -n 's/.*seconds \([0-9.]*\).*/\1/p') / $(echo "$r" | sed -n 's/.*states \([0-9]*\).*/\1/p') / $(echo "$r" | sed -n 's/.*length \([0-9]*\).*/\1/p') |"
  else
    line="$line $(echo "$r" | sed -n 's/^status \([a-z]*\).*/\1/p') |"
  fi
  if command -v clingo >/dev/null && command -v python3 >/dev/null; then
    $GDL cat "$f" > /tmp/bench-asp.$$.kif 2>/dev/null
    c=$(timeout $((SS * 3 + 30)) python3 ../shared/tools/asp-baseline/kif2asp.py /tmp/bench-asp.$$.kif "$h" --solve --seconds "$SS" 2>/dev/null | grep '^clingo:')
    rm -f /tmp/bench-asp.$$.kif
    if echo "$c" | grep -q 'length='; then
      line="$line $(echo "$c" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p') / - / $(echo "$c" | sed -n 's/.*length=\([0-9]*\).*/\1/p') |"
    else
      line="$line $(echo "$c" | sed 's/^clingo: //') |"
    fi
  else
    line="$line (no clingo) |"
  fi
  echo "$line"
done
echo
echo "## What an estimate costs"
echo
echo "Microseconds a state generated, by a search that expands one state at"
echo "a time, on one thread: dfs (blind: the expansion alone) and astar (the"
echo "expansion, each successor's groups' estimate read from its parent's, h_max"
echo "of each state taken up while it raises that, the dead-end tests). Each"
echo "search runs to 1,000 states stored and to 100,000 (or its end), and a"
echo "state's cost is the difference of the two runs' seconds over that of their"
echo "states generated, so that the set-up (grounding, the analyses: the next"
echo "section) is left out; the best of $N."
echo
echo "| puzzle | dfs states | dfs µs a state | astar states | astar µs a state | astar / dfs |"
echo "|---|---:|---:|---:|---:|---:|"
# the seconds and states generated of a run, as "s g"
run() {
  n=$1; shift
  j=$($GDL solve --json --quiet --threads 1 --max-states "$n" "$@" 2>/dev/null)
  echo "$(echo "$j" | num seconds) $(echo "$j" | num generated)"
}
# µs a state between the runs to 1k and to 100k states of a search
marginal() {
  a=$(run 1k "$@"); b=$(run 100k "$@")
  echo "$a $b" | awk '{ if ($4 > $2) printf "%.2f %d", ($3 - $1) * 1e6 / ($4 - $2), $4; else print "- " $4 }'
}
for f in puzzles/eight-puzzle-unsolvable.kif puzzles/peg-solitaire-33.kif \
         $C/single/eightPuzzle.kif $C/single/hanoi7_bugfix.kif \
         $C/single/lightsOut.kif $C/single/stanford_knights_tour_5v5.kif \
         $C/single/hidato37.kif $C/single/snake_2009_big.kif \
         $C/single/pancakes88.kif; do
  du= au= dn= an=
  i=0
  while [ $i -lt "$N" ]; do
    set -- $(marginal --algorithm dfs --no-prune "$f")
    du=$(min "$du" "$1"); dn=$2
    set -- $(marginal --algorithm astar "$f")
    au=$(min "$au" "$1"); an=$2
    i=$((i + 1))
  done
  printf '| %s | %s | %s | %s | %s | %s |\n' "$(basename "$f" .kif)" "$dn" "$du" "$an" "$au" \
    "$(awk -v a="$au" -v d="$du" 'BEGIN { if (a > 0 && d > 0) printf "%.1f", a / d; else print "-" }')"
done
echo
GDL=$GDL sh "$(dirname "$0")/analysis_sweep.sh" puzzles/*.kif puzzles/*.hrf $C/single/*.kif
cat "$(dirname "$0")/bench-notes.md"
