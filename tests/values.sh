#!/bin/sh
# values.sh - gdl solve on games of several roles, through the command
# line (tests/check_search.c, case "values", holds the library to each
# game's value on both engines):
#   - ticTacToe is a draw, proven: both roles 50, by minimax over the
#     graph, the line of perfect play printed and replayed to a terminal
#     state where both get 50; its time is printed, never asserted;
#   - each game of puzzles/games/ gets the value its header gives, proven,
#     in text and in --json (the keys doc/solving.md lists);
#   - --cooperate gives today's plan: 5 moves to the first role's 100;
#   - a limit gives a result that says "not proven", exit 3, and JSON
#     "proven": false, "values": null; the JSON of a puzzle has none of
#     the new keys;
#   - every game of the corpus's multi/ within --max-seconds S (default 2)
#     and --max-states 200000: a proven value (exit 0) or a clean limit
#     (exit 3), never anything else; what each gives is printed.
#
#   tests/values.sh [-s S]
#
# Ends with 'values: N passed, N failed'.
GDL=${GDL:-build/gdl}
C=${GDL_CORPUS:-../shared/gdl-corpus}
S=2
while getopts s: o; do
  case $o in
    s) S=$OPTARG;;
    *) exit 2;;
  esac
done
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one field of a JSON line (a number, a string, true, false or null)
field() { sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p" "$1" | tr -d '"'; }
values() { sed -n 's/.*"values": \({[^}]*}\).*/\1/p' "$1"; }

# ticTacToe: a proven draw, the line replayed
ttt=$C/multi/ticTacToe.kif
"$GDL" solve "$ttt" >"$tmp/ttt" 2>&1; rc=$?
last=$(tail -1 "$tmp/ttt")
case "$last" in
  "; value: xplayer 50, oplayer 50, proven by minimax over the graph"*) ok;;
  *) bad "ticTacToe: $last";;
esac
[ $rc -eq 0 ] && ok || bad "ticTacToe: exit $rc"
echo "ticTacToe: $(echo "$last" | grep -o '[0-9.]* s,') (not asserted)"
moves=$(grep -v '^;' "$tmp/ttt" | tr '\n' ' ')
[ "$(grep -vc '^;' "$tmp/ttt")" -eq 9 ] && ok || bad "ticTacToe: not 9 moves"
"$GDL" state --json --moves "$moves" "$ttt" >"$tmp/end" 2>&1
grep -q '"terminal": true' "$tmp/end" &&
  grep -q '"goals": {"xplayer": 50, "oplayer": 50}' "$tmp/end" && ok ||
  bad "ticTacToe: the line does not end in a draw: $(cat "$tmp/end")"

# --cooperate: the plan of old
"$GDL" solve "$ttt" --cooperate | tail -1 >"$tmp/coop"
grep -q '^; solved: 5 moves, goal 100, shortest (astar)' "$tmp/coop" && ok ||
  bad "--cooperate: $(cat "$tmp/coop")"

# the games of puzzles/games/: value, proven, in text and JSON
while IFS='|' read -r f want json; do
  "$GDL" solve "puzzles/games/$f" >"$tmp/t" 2>&1; rc=$?
  t=$(tail -1 "$tmp/t")
  case "$t" in
    "; value: $want, proven by minimax"*) ok;;
    *) bad "$f: $t";;
  esac
  [ $rc -eq 0 ] && ok || bad "$f: exit $rc"
  echo "$f: $(echo "$t" | grep -o '[0-9]* states expanded.*')"
  "$GDL" solve --json "puzzles/games/$f" >"$tmp/j" 2>&1
  [ "$(field "$tmp/j" status)" = solved ] &&
    [ "$(field "$tmp/j" game)" = true ] &&
    [ "$(field "$tmp/j" proven)" = true ] &&
    [ "$(field "$tmp/j" method)" = minimax ] &&
    [ "$(field "$tmp/j" algorithm)" = value ] &&
    [ "$(field "$tmp/j" bound)" = null ] &&
    [ "$(field "$tmp/j" table_states)" = 0 ] &&
    [ "$(values "$tmp/j")" = "$json" ] && ok ||
    bad "$f: --json: $(cat "$tmp/j")"
done <<LIST
nim-3-4-5.kif|first 100, second 0|{"first": 100, "second": 0}
take-away-21.kif|first 100, second 0|{"first": 100, "second": 0}
connect-three-4x4.kif|red 100, yellow 0|{"red": 100, "yellow": 0}
domineering-4x4.kif|vertical 100, horizontal 0|{"vertical": 100, "horizontal": 0}
domineering-5x5.kif|vertical 0, horizontal 100|{"vertical": 0, "horizontal": 100}
tic-tac-toe.kif|xplayer 50, oplayer 50|{"xplayer": 50, "oplayer": 50}
LIST

# a limit: not proven, exit 3, in text and JSON
"$GDL" solve "$C/multi/connectFour.kif" --max-seconds 0.5 >"$tmp/l" 2>&1; rc=$?
[ $rc -eq 3 ] && ok || bad "connectFour --max-seconds 0.5: exit $rc"
grep -q '^; limit: time limit of 0.5 s reached, .*; not proven' "$tmp/l" &&
  ! grep -q 'proven by' "$tmp/l" && ok || bad "limit: $(cat "$tmp/l")"
"$GDL" solve --json "$C/multi/connectFour.kif" --max-states 1000 \
  --max-seconds 0.5 >"$tmp/lj" 2>&1; rc=$?
[ $rc -eq 3 ] && [ "$(field "$tmp/lj" status)" = limit ] &&
  [ "$(field "$tmp/lj" proven)" = false ] &&
  [ "$(field "$tmp/lj" values)" = null ] &&
  [ "$(field "$tmp/lj" table_states)" -gt 0 ] &&
  [ "$(field "$tmp/lj" length)" = null ] && ok ||
  bad "limit --json: exit $rc: $(cat "$tmp/lj")"
# alpha-beta where the graph does not fit: ticTacToe's draw all the same
"$GDL" solve --json "$ttt" --max-states 1000 >"$tmp/ab" 2>&1
[ "$(field "$tmp/ab" method)" = alpha-beta ] &&
  [ "$(field "$tmp/ab" proven)" = true ] &&
  [ "$(values "$tmp/ab")" = '{"xplayer": 50, "oplayer": 50}' ] && ok ||
  bad "alpha-beta: $(cat "$tmp/ab")"
# ... and where --max-memory cuts the graph (41,750 states, 2.7 MB)
"$GDL" solve --json puzzles/games/connect-three-4x4.kif --max-memory 2 \
  >"$tmp/abm" 2>&1
[ "$(field "$tmp/abm" method)" = alpha-beta ] &&
  [ "$(field "$tmp/abm" proven)" = true ] &&
  [ "$(values "$tmp/abm")" = '{"red": 100, "yellow": 0}' ] && ok ||
  bad "alpha-beta after --max-memory: $(cat "$tmp/abm")"
# a puzzle's JSON: none of the new keys
"$GDL" solve --json puzzles/wolf-goat-cabbage.kif >"$tmp/p" 2>&1
grep -q '"game"\|"values"\|"proven"\|"method"\|"table_states"' "$tmp/p" &&
  bad "puzzle JSON has a game's keys: $(cat "$tmp/p")" || ok

# the corpus's multi/: a proven value or a clean limit
for f in "$C"/multi/*.kif; do
  timeout $((S * 4 + 20)) "$GDL" solve --quiet "$f" --max-seconds "$S" \
    --max-states 200000 >"$tmp/m" 2>&1; rc=$?
  t=$(tail -1 "$tmp/m")
  case "$rc:$t" in
    "0:; value: "*", proven by "*|"3:; limit: "*"; not proven"*) ok;;
    *) bad "$f: exit $rc: $t";;
  esac
  echo "multi/$(basename "$f"): exit $rc: $(echo "$t" | cut -c1-150)"
done
echo "values: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
