#!/bin/sh
# ggp.sh - gdl beside the reference implementation of the GGP protocol,
# ggp-base (../shared/tools/ggp-base: its GameServer and sample players,
# README there), everything on loopback ports picked free:
#  1. ggp-base's GameServer hosts tic-tac-toe between gdl player
#     (xplayer) and ggp-base's SampleMonteCarloGamer (oplayer);
#  2. gdl match hosts tic-tac-toe between ggp-base's RandomGamer (xplayer)
#     and gdl player (oplayer).
# Each match must complete with no error (no timeout, no illegal or
# unreadable move), and gdl must not lose either (tic-tac-toe is a draw
# under perfect play).  SKIP only when Java is absent or gdl was built
# without libmicrohttpd or libcurl; anything else missing is a failure.
GDL=${GDL:-build/gdl}
CORPUS=${GDL_CORPUS:-../shared/gdl-corpus}
GGPBASE=${GGPBASE:-$(dirname "$CORPUS")/tools/ggp-base}
TTT=$CORPUS/multi/ticTacToe.kif
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
tmp=$(mktemp -d) || exit 2
pids=
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "ggp: $*"; for f in "$tmp"/*; do echo "--- $f"; cat "$f"; done; exit 1; }
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# waits for "listening" in $1 (up to 30 s: a JVM starts slowly on a busy machine)
wait_listening() {
  i=0
  while ! grep -q "listening" "$1" 2>/dev/null; do
    i=$((i + 1)); [ $i -gt 300 ] && fail "$1: the player did not start"
    sleep 0.1
  done
}

$GDL player --port 0 > "$tmp/gdl.out" 2> "$tmp/gdl.err" &
pids="$pids $!"
wait_listening "$tmp/gdl.out"
pg=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$tmp/gdl.out")
pm=$(free_port)
"$GGPBASE/run-player.sh" "$pm" SampleMonteCarloGamer > "$tmp/montecarlo.log" 2>&1 &
pids="$pids $!"
pr=$(free_port)
"$GGPBASE/run-player.sh" "$pr" RandomGamer > "$tmp/random.log" 2>&1 &
pids="$pids $!"
wait_listening "$tmp/montecarlo.log"
wait_listening "$tmp/random.log"

# 1. hosted by ggp-base
"$GGPBASE/run-match.sh" "$TTT" 5 2 "$tmp/ggpbase-record.json" \
  "127.0.0.1:$pg:gdl" "127.0.0.1:$pm:montecarlo" > "$tmp/ggpbase.out" 2> "$tmp/ggpbase.err" ||
  fail "ggp-base's match exited $?"
tail -1 "$tmp/ggpbase.out" | python3 -c '
import json, sys
m = json.loads(sys.stdin.read())
assert m["completed"] is True, m
assert all(e == "" for turn in m["errors"] for e in turn), m["errors"]
assert m["goals"][0] >= 50, ("gdl lost", m["goals"])
print("ggp: ggp-base hosted gdl (xplayer) against SampleMonteCarloGamer: goals", m["goals"], "in", len(m["moves"]), "moves, no error")
' || fail "the match hosted by ggp-base is not as expected"

# 2. hosted by gdl match
$GDL match "$TTT" --player "xplayer=http://127.0.0.1:$pr/" \
  --player "oplayer=http://127.0.0.1:$pg/" --startclock 5 --playclock 2 \
  --record "$tmp/gdl-record.json" > "$tmp/match.out" 2> "$tmp/match.err" ||
  fail "gdl match exited $?"
python3 - "$tmp/gdl-record.json" <<'PY' || fail "the match hosted by gdl is not as expected"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["completed"] is True
assert m["error_count"] == 0, m["errors"]
assert m["goals"][1] >= 50, ("gdl lost", m["goals"])
print("ggp: gdl match hosted RandomGamer (xplayer) against gdl: goals", m["goals"], "in", len(m["moves"]), "moves, no error")
PY
