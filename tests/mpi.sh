#!/bin/sh
# mpi.sh - gdl-mpi held to one-process breadth-first search: on every
# puzzle that `gdl solve --algorithm bfs` finishes within a few seconds,
# gdl-mpi on 4 ranks (and on 1 and 2 for a few) gives the same status,
# length, goal, plan, expanded/generated/stored/depth counts and step
# counter (left out of stored states where the rules allow); its plans
# replay to goal 100; the 8-puzzle's whole space (181,440 states) is
# proven unsolvable; a state limit stops it with exit 3; bad input gives
# gdl's message and exit 2 on every rank without a hang.
#
#   tests/mpi.sh          (make check-mpi; make check runs it too)
#
# Skips (exit 0) where mpirun or mpicc is missing.  Ends with
# 'mpi: N passed, N failed'.
GDL=${GDL:-build/gdl}
MPI=${GDL_MPI:-build/gdl-mpi}
SECONDS_BFS=5
for t in mpirun mpicc; do
  if ! command -v $t >/dev/null 2>&1; then
    echo "mpi: skipped: $t not found"
    exit 0
  fi
done
${MAKE:-make} -s "$MPI" >/dev/null || { echo "mpi: FAIL: make mpi"; exit 1; }
RUN="mpirun --oversubscribe"
# Open MPI refuses root unless told; CI runs as root in a container
[ "$(id -u)" = 0 ] && RUN="$RUN --allow-run-as-root"
# in containers without ptrace rights the shared-memory transport's
# single-copy path warns or fails; plain copies work everywhere
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# under make asan: Open MPI's own libraries and plug-ins leave blocks at
# exit that LeakSanitizer reports (from modules already unloaded, so no
# suppression can name them); gdl's own leaks are held by valgrind and
# ASan on build/gdl, and gdl-mpi frees what it allocates through the
# context (gdl_free)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# one field of solve --json
field() { sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p" "$1" | tr -d '"'; }
plan() { sed -n 's/.*"plan": \[\(.*\)\], "expanded".*/\1/p' "$1" | sed 's/", "/ /g; s/"//g'; }
plan_json() { sed -n 's/.*"plan": \(\[[^]]*\]\).*/\1/p' "$1"; }
FIELDS="status length goal expanded generated stored depth counter goal_bound"

# same FILE NP [OPTION...]: gdl-mpi on NP ranks beside one process
same() {
  f=$1; np=$2; shift 2
  name=$(basename "$f")
  timeout 60 $RUN -np "$np" "$MPI" solve "$f" --json --quiet "$@" \
    > "$tmp/m.json" 2> "$tmp/m.err"
  rc=$?
  if [ "$rc" != "$want_rc" ]; then
    bad "$name -np $np: exit $rc, one process $want_rc"; cat "$tmp/m.err"
    return
  fi
  for k in $FIELDS; do
    a=$(field "$tmp/one.json" $k); b=$(field "$tmp/m.json" $k)
    if [ "$a" != "$b" ]; then
      bad "$name -np $np: $k $b, one process $a"; return
    fi
  done
  if [ "$(plan_json "$tmp/one.json")" != "$(plan_json "$tmp/m.json")" ]; then
    bad "$name -np $np: another plan"; return
  fi
  if [ "$(field "$tmp/m.json" ranks)" != "$np" ]; then
    bad "$name -np $np: ranks $(field "$tmp/m.json" ranks)"; return
  fi
  # the states per rank add up to the states stored
  per=$(sed -n 's/.*"states_per_rank": \[\([^]]*\)\].*/\1/p' "$tmp/m.json" |
        tr ',' '+')
  if [ "$(field "$tmp/m.json" status)" != limit ] &&
     [ "$(($per))" != "$(field "$tmp/m.json" stored)" ]; then
    bad "$name -np $np: states per rank $per, stored $(field "$tmp/m.json" stored)"
    return
  fi
  ok
}

# replays FILE's plan from $tmp/m.json: a terminal state with goal 100
replays() {
  f=$1; name=$(basename "$f")
  "$GDL" state "$f" --moves "$(plan "$tmp/m.json")" > "$tmp/end" 2>&1 &&
    grep -q '^terminal: yes' "$tmp/end" &&
    grep -q '^goal [^:]*: 100$' "$tmp/end" && { ok; return; }
  bad "$name: gdl-mpi's plan does not replay to goal 100"; cat "$tmp/end"
}

# every puzzle one process finishes quickly (the two big ones left out),
# and the games with a step counter left out of the stored states
for f in puzzles/*.kif puzzles/*.hrf tests/counter/*.kif \
         "${GDL_CORPUS:-../shared/gdl-corpus}/single/hanoi_6_disks.kif"; do
  case $f in *fifteen-puzzle-34.kif|*twentyfour-puzzle-40.kif|*peg-solitaire-33.kif) continue;; esac
  timeout $((SECONDS_BFS + 5)) "$GDL" solve "$f" --algorithm bfs --json \
    --quiet --max-seconds $SECONDS_BFS > "$tmp/one.json" 2>/dev/null
  want_rc=$?
  st=$(field "$tmp/one.json" status)
  [ "$st" = solved ] || [ "$st" = unsolvable ] || continue
  same "$f" 4
  [ "$st" = solved ] && replays "$f"
  case $f in
    *eight-puzzle-31.kif|*eight-puzzle-unsolvable.kif|*sokoban-three-boxes.kif)
      same "$f" 1; same "$f" 2;;
  esac
done

# the whole space of the 8-puzzle, which one process also exhausts
f=puzzles/eight-puzzle-unsolvable.kif
"$GDL" solve "$f" --algorithm bfs --json --quiet > "$tmp/one.json"
if [ "$(field "$tmp/one.json" stored)" = 181440 ] &&
   [ "$(field "$tmp/one.json" status)" = unsolvable ]; then ok; else
  bad "8-puzzle: one process does not store 181440 states"; fi

# a state limit: exit 3, status limit, the counts of one process
"$GDL" solve "$f" --algorithm bfs --json --quiet --max-states 1000 \
  > "$tmp/one.json"
want_rc=3
same "$f" 4 --max-states 1000
[ "$(field "$tmp/m.json" status)" = limit ] &&
  grep -q '"limit": "state limit of 1000 reached"' "$tmp/m.json" && ok ||
  bad "8-puzzle --max-states 1000: $(cat "$tmp/m.json")"

# the text report: gdl's lines, then the ranks
timeout 60 $RUN -np 2 "$MPI" solve puzzles/eight-puzzle-easy.kif \
  > "$tmp/m.txt" 2>/dev/null
"$GDL" solve puzzles/eight-puzzle-easy.kif --algorithm bfs > "$tmp/one.txt"
if [ "$(head -6 "$tmp/m.txt")" = "$(head -6 "$tmp/one.txt")" ] &&
   grep -q '^; solved: 6 moves, goal 100, shortest (bfs); 58 states expanded, 156 generated' "$tmp/m.txt" &&
   grep -q '^; ranks: 2, states per rank: [0-9]* [0-9]*$' "$tmp/m.txt"; then
  ok; else bad "text report:"; cat "$tmp/m.txt"; fi

# bad input: gdl's message once (rank 0), exit 2 everywhere, no hang
"$GDL" solve puzzles/no-such-file.kif > /dev/null 2> "$tmp/one.err"
timeout 60 $RUN -np 4 "$MPI" solve puzzles/no-such-file.kif \
  > "$tmp/m.out" 2> "$tmp/m.err"
rc=$?
msg=$(head -1 "$tmp/one.err")
if [ $rc = 2 ] && [ "$(grep -cF "$msg" "$tmp/m.err")" = 1 ] &&
   [ ! -s "$tmp/m.out" ]; then ok; else
  bad "missing file: exit $rc"; cat "$tmp/m.err"; fi
timeout 60 $RUN -np 2 "$MPI" solve puzzles/eight-puzzle-easy.kif \
  --engine interp > /dev/null 2> "$tmp/m.err"
rc=$?
if [ $rc = 2 ] && grep -q 'gdl-mpi: .*not bits of the grounded network' "$tmp/m.err"
then ok; else bad "--engine interp: exit $rc"; cat "$tmp/m.err"; fi
timeout 60 $RUN -np 2 "$MPI" legal puzzles/eight-puzzle-easy.kif \
  > /dev/null 2> "$tmp/m.err"
rc=$?
if [ $rc = 2 ] && grep -q "gdl-mpi: the command is 'solve'" "$tmp/m.err"
then ok; else bad "another command: exit $rc"; cat "$tmp/m.err"; fi

echo "mpi: $pass passed, $fail failed"
[ $fail = 0 ]
