#!/bin/sh
# search.sh - the searches held to one another on each game whose space
# breadth-first search exhausts within the limits below:
#   - dead-end pruning never loses a plan: bfs --prune gives the same
#     verdict and length as bfs --no-prune;
#   - astar, idastar and iddfs are optimal: the same length as bfs, and
#     astar expands no more states than bfs;
#   - gbfs, dfs and auto give plans that replay to a terminal state with
#     goal 100 (auto's length is bfs's where it says the plan is
#     shortest), and say "unsolvable" only where bfs does;
#   - these searches, unlike bfs, search only a stubborn set's moves
#     where the rules allow (tests/stubborn/ has games that do), so the
#     above holds the reduction to bfs too;
#   - the bfs all are held to stores each state whole (--no-counter);
#     every other search leaves a step counter out of the stored states
#     where the rules have one (engine/analysis/counter.c; tests/counter/ and several
#     corpus games do): bfs with it gives the same verdict and length,
#     the same best goal where it says the goal is proven best, and
#     expands no more states;
#   - bfs on 1 and on 4 threads gives what it gives on the default (one a
#     core): the same verdict, plan and counts, and its plan replays,
#     with the counter left out and without;
#   - bfs with the interpreter gives the same verdict, length and counts
#     as with the grounded network, where it finishes;
#   - sat (where gdl was built with CaDiCaL) gives a plan of bfs's length,
#     said shortest, that replays; stopped by the limit, its "no plan of
#     k steps or fewer" (depth k) is below bfs's length; it says
#     "unsolvable" only where bfs does.
# Games bfs does not finish within the limits are reported and pass.
#
#   tests/search.sh [-j JOBS] [-s SECONDS] FILE...
#
# Ends with 'search: N passed, N failed'.
GDL=${GDL:-build/gdl}
J=1; T=5; ONE=
while getopts 1j:s: o; do
  case $o in
    1) ONE=1;; j) J=$OPTARG;; s) T=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))
if [ -z "$ONE" ]; then
  out=$(printf '%s\n' "$@" | xargs -P "$J" -n 1 sh "$0" -1 -s "$T")
  printf '%s\n' "$out" | sort -k2
  pass=$(printf '%s\n' "$out" | grep -c '^ok')
  fail=$(printf '%s\n' "$out" | grep -c '^FAIL')
  echo "search: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi
f=$1
# one field of gdl solve --json
field() { sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p" "$1" | tr -d '"'; }
# the plan of gdl solve --json as --moves text
plan() { sed -n 's/.*"plan": \[\(.*\)\], "expanded".*/\1/p' "$1" | sed 's/", "/ /g; s/"//g'; }
S=$T
solve() {   # solve NAME ALGORITHM [OPTION]
  n=$1; shift
  timeout $((S * 4 + 10)) "$GDL" solve --json --quiet --max-seconds "$S" \
    --algorithm "$@" "$f" >"$tmp/$n" 2>"$tmp/$n.err"
}
# a run held to bfs's answer, which bfs found within T: it gets four times
# as long, so that a slow build (make asan) is not taken for a wrong one
held() { S=$((T * 4)); solve "$@"; S=$T; }
fail() { echo "FAIL $f: $*"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GDL" check "$f" >/dev/null 2>&1 || { echo "ok $f (not loadable; see gdl check)"; exit 0; }
solve bfs bfs --no-prune --no-counter
s=$(field "$tmp/bfs" status)
case $s in
  solved|unsolvable) ;;
  *) echo "ok $f (bfs: ${s:-no result} within $T s; not compared)"; exit 0;;
esac
len=$(field "$tmp/bfs" length)
# replays a plan; its last state must be terminal with goal 100
replays() {
  m=$(plan "$tmp/$1")
  "$GDL" state --json --moves "$m" "$f" >"$tmp/replay" 2>&1 || return 1
  grep -q '"terminal": true' "$tmp/replay" && grep -q '": 100}' "$tmp/replay"
}
note=
exp=$(field "$tmp/bfs" expanded)
# the step counter left out: the same verdict and length, no more states
held counter bfs --no-prune
[ "$(field "$tmp/counter" status)" = "$s" ] ||
  fail "bfs, counter left out: $(field "$tmp/counter" status), bfs: $s"
[ "$(field "$tmp/counter" length)" = "$len" ] ||
  [ "$(field "$tmp/counter" goal_bound)" = true ] ||
  fail "bfs, counter left out: length $(field "$tmp/counter" length), bfs: $len"
[ "$(field "$tmp/counter" goal)" = "$(field "$tmp/bfs" goal)" ] ||
  [ "$(field "$tmp/counter" goal_bound)" = true ] ||
  fail "bfs, counter left out: goal $(field "$tmp/counter" goal), bfs: $(field "$tmp/bfs" goal)"
[ "$(field "$tmp/counter" expanded)" -le "$exp" ] ||
  fail "bfs, counter left out: expanded $(field "$tmp/counter" expanded), bfs $exp"
[ $s = unsolvable ] || replays counter ||
  fail "bfs, counter left out: its plan does not replay to goal 100"
for t in 1 4; do
  for c in bfs counter; do
    case $c in
      bfs) held $c$t bfs --no-prune --no-counter --threads $t;;
      *) held $c$t bfs --no-prune --threads $t;;
    esac
    for x in status length goal expanded generated stored depth; do
      [ "$(field "$tmp/$c$t" $x)" = "$(field "$tmp/$c" $x)" ] ||
        fail "$c on $t threads: $x $(field "$tmp/$c$t" $x), by default $(field "$tmp/$c" $x)"
    done
    [ "$(plan "$tmp/$c$t")" = "$(plan "$tmp/$c")" ] ||
      fail "$c on $t threads: another plan than by default"
  done
done
# the grounded network's bfs (64 states a pass, each move's pass running
# only what its move changes) held to the interpreter's, one state at a
# time: the same verdict, length and counts
solve interp bfs --no-prune --engine interp
if [ "$(field "$tmp/interp" status)" != limit ]; then
  for x in status length goal expanded generated stored; do
    [ "$(field "$tmp/interp" $x)" = "$(field "$tmp/bfs" $x)" ] ||
      fail "bfs with the interpreter: $x $(field "$tmp/interp" $x), by default $(field "$tmp/bfs" $x)"
  done
fi
[ $s = unsolvable ] || replays bfs || fail "bfs: its plan does not replay to goal 100"
for a in prune astar idastar iddfs; do
  case $a in
    prune) solve prune bfs --prune;;
    idastar|iddfs) [ "$exp" -le 20000 ] || continue; solve $a $a;;
    *) solve $a $a;;
  esac
  # an estimate costs time: a search stopped by the limit says nothing
  [ "$(field "$tmp/$a" status)" = limit ] && { note="$note $a: limit;"; continue; }
  [ "$(field "$tmp/$a" status)" = "$s" ] ||
    fail "$a: $(field "$tmp/$a" status), bfs: $s"
  [ $s = unsolvable ] || [ "$(field "$tmp/$a" length)" = "$len" ] ||
    fail "$a: length $(field "$tmp/$a" length), bfs: $len"
done
# astar beside bfs as it searches by default, the counter left out
[ "$(field "$tmp/astar" status)" = limit ] ||
  [ "$(field "$tmp/astar" expanded)" -le "$(field "$tmp/counter" expanded)" ] ||
  fail "astar expanded $(field "$tmp/astar" expanded), bfs $(field "$tmp/counter" expanded)"
for a in gbfs dfs auto; do
  solve $a $a
  case $(field "$tmp/$a" status) in
    solved)
      [ "$s" = solved ] || fail "$a solved what bfs proved unsolvable"
      # dfs's plans can run to tens of thousands of moves, more than one
      # command-line argument holds: those are not replayed
      if [ "$(field "$tmp/$a" length)" -gt 2000 ]; then
        note="$note $a: $(field "$tmp/$a" length) moves, not replayed;"
      else
        replays $a || fail "$a: its plan does not replay to goal 100"
      fi
      if [ "$(field "$tmp/$a" optimal)" = true ] &&
         [ "$(field "$tmp/$a" length)" != "$len" ]; then
        fail "$a: 'shortest' plan of $(field "$tmp/$a" length), bfs: $len"
      fi;;
    unsolvable) [ "$s" = unsolvable ] || fail "$a: unsolvable, bfs: $s";;
  esac
done
solve sat sat
case $(field "$tmp/sat" status) in
  solved)
    [ "$s" = solved ] || fail "sat solved what bfs proved unsolvable"
    [ "$(field "$tmp/sat" length)" = "$len" ] ||
      fail "sat: length $(field "$tmp/sat" length), bfs: $len"
    [ "$(field "$tmp/sat" optimal)" = true ] || fail "sat: not said shortest"
    replays sat || fail "sat: its plan does not replay to goal 100";;
  unsolvable) [ "$s" = unsolvable ] || fail "sat: unsolvable, bfs: $s";;
  limit)
    d=$(field "$tmp/sat" depth)
    [ "$s" = unsolvable ] || [ "$d" -lt "$len" ] ||
      fail "sat: no plan of $d steps or fewer, bfs: $len"
    note="$note sat: limit, no plan of $d steps or fewer;";;
  *)
    if grep -q "without CaDiCaL" "$tmp/sat.err"; then
      note="$note sat: SKIP (gdl built without CaDiCaL);"
    else
      fail "sat: $(cat "$tmp/sat.err")"
    fi;;
esac
[ $s = solved ] || len=
echo "ok $f ($s${len:+ $len}; bfs $exp, $(field "$tmp/counter" expanded) with the counter left out, astar $(field "$tmp/astar" expanded) expanded;$note)"
