#!/bin/sh
# ggp.sh - gdl beside the reference implementation of the GGP protocol,
# ggp-base (../shared/tools/ggp-base: its GameServer and sample players,
# README there), everything on loopback ports picked free, for each GAME
# of the corpus's multi/ named (default: ticTacToe, which make check runs;
# make check-ggp runs ticTacToe connectFour breakthroughSmall):
#  1. ggp-base's GameServer hosts GAME between gdl player (the first
#     role) and ggp-base's SampleMonteCarloGamer (the second);
#  2. gdl match hosts GAME between SampleMonteCarloGamer (the first role)
#     and gdl player (the second).
# One gdl player and one SampleMonteCarloGamer play every match, at a
# start clock of 10 s and a play clock of 2 s (GGP_CLOCKS="START PLAY").
# Each match must complete with no error (no timeout, no illegal or
# unreadable move, no connection error, of either player), and gdl must
# not lose tic-tac-toe (a draw under perfect play); who wins the others is
# not asserted (a benchmark's question).  SKIP only when Java is absent or
# gdl was built without libmicrohttpd or libcurl; anything else missing
# is a failure.
#
#   tests/ggp.sh [GAME...]
GDL=${GDL:-build/gdl}
CORPUS=${GDL_CORPUS:-../shared/gdl-corpus}
GGPBASE=${GGPBASE:-$(dirname "$CORPUS")/tools/ggp-base}
GAMES=${*:-ticTacToe}
set -- ${GGP_CLOCKS:-10 2}
SC=$1 PC=$2
for g in $GAMES; do
  [ -f "$CORPUS/multi/$g.kif" ] || { echo "ggp: no game $CORPUS/multi/$g.kif"; exit 1; }
done
command -v java >/dev/null || { echo "ggp: SKIP (Java is absent)"; exit 0; }
for c in player match; do
  if $GDL $c --no-such-option 2>&1 | grep -q "built without"; then
    echo "ggp: SKIP (gdl was built without the library of gdl $c)"
    exit 0
  fi
done
[ -f "$GGPBASE/ggp-peer.jar" ] || { echo "ggp: no ggp-base at $GGPBASE"; exit 1; }
[ -f /usr/share/java/guava.jar ] || { echo "ggp: ggp-base needs Guava (apt-get install libguava-java)"; exit 1; }
command -v python3 >/dev/null || { echo "ggp: python3 is needed"; exit 1; }
NAME=ggp; . "$(dirname "$0")/ggp_lib.sh"

start_player gdl; pg=$port
pm=$(free_port)
"$GGPBASE/run-player.sh" "$pm" SampleMonteCarloGamer > "$tmp/montecarlo.log" 2>&1 &
pids="$pids $!"
wait_listening "$tmp/montecarlo.log"

for g in $GAMES; do
  kif=$CORPUS/multi/$g.kif
  # 1. hosted by ggp-base: gdl the first role
  t0=$(date +%s)
  "$GGPBASE/run-match.sh" "$kif" "$SC" "$PC" "$tmp/$g-ggpbase-record.json" \
    "127.0.0.1:$pg:gdl" "127.0.0.1:$pm:montecarlo" > "$tmp/$g-ggpbase.out" 2> "$tmp/$g-ggpbase.err" ||
    fail "$g: ggp-base's match exited $?"
  tail -1 "$tmp/$g-ggpbase.out" | python3 -c '
import json, sys
g, t = sys.argv[1], sys.argv[2]
m = json.loads(sys.stdin.read())
assert m["completed"] is True, m
assert all(e == "" for turn in m["errors"] for e in turn), m["errors"]
if g == "ticTacToe":
    assert m["goals"][0] >= 50, ("gdl lost", m["goals"])
print("ggp: %s hosted by ggp-base, gdl (%s) against SampleMonteCarloGamer: goals %s in %d moves, %s s, no error"
      % (g, m["roles"][0], m["goals"], len(m["moves"]), t))
' "$g" "$(($(date +%s) - t0))" || fail "$g: the match hosted by ggp-base is not as expected"

  # 2. hosted by gdl match: gdl the second role
  t0=$(date +%s)
  # the roles in order: gdl legal lists each role's moves in turn
  roles=$($GDL legal "$kif" | awk '{ print $1 }' | uniq | tr '\n' ' ')
  set -- $roles
  [ $# = 2 ] || fail "$g: the roles are not two: $roles"
  $GDL match "$kif" --player "$1=http://127.0.0.1:$pm/" \
    --player "$2=http://127.0.0.1:$pg/" --startclock "$SC" --playclock "$PC" \
    --record "$tmp/$g-gdl-record.json" > "$tmp/$g-match.out" 2> "$tmp/$g-match.err" ||
    fail "$g: gdl match exited $?"
  python3 - "$tmp/$g-gdl-record.json" "$g" "$(($(date +%s) - t0))" <<'PY' || fail "$g: the match hosted by gdl is not as expected"
import json, sys
m = json.load(open(sys.argv[1]))
g, t = sys.argv[2], sys.argv[3]
assert m["completed"] is True
assert m["error_count"] == 0, m["errors"]
if g == "ticTacToe":
    assert m["goals"][1] >= 50, ("gdl lost", m["goals"])
print("ggp: %s hosted by gdl match, SampleMonteCarloGamer against gdl (%s): goals %s in %d moves, %s s, no error"
      % (g, m["roles"][1], m["goals"], len(m["moves"]), t))
PY
done
