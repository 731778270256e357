#!/bin/sh
# ggp_loopback.sh - the GGP protocol over loopback HTTP: gdl match hosts a
# tic-tac-toe match between two gdl player processes (each on a free port
# it picks itself), with short clocks, and the match completes with no
# error; malformed messages get an error reply (HTTP 400) and the player
# keeps serving; a player that does not answer has its moves replaced and
# recorded.  SKIP only when gdl was built without libmicrohttpd or libcurl.
GDL=${GDL:-build/gdl}
CORPUS=${GDL_CORPUS:-../shared/gdl-corpus}
TTT=$CORPUS/multi/ticTacToe.kif
for c in player match; do
  if $GDL $c --no-such-option 2>&1 | grep -q "built without"; then
    echo "ggp_loopback: SKIP (gdl was built without the library of gdl $c)"
    exit 0
  fi
done
command -v python3 >/dev/null || { echo "ggp_loopback: python3 is needed"; exit 1; }
NAME=ggp_loopback; . "$(dirname "$0")/ggp_lib.sh"

start_player x --seed 1; px=$port
start_player o --seed 2; po=$port

# a POST of $2 to port $1: "STATUS BODY"
post() {
  python3 - "$1" "$2" <<'PY'
import sys, urllib.request, urllib.error
req = urllib.request.Request("http://127.0.0.1:%s/" % sys.argv[1],
                             data=sys.argv[2].encode(), method="POST",
                             headers={"Content-Type": "text/acl"})
try:
    with urllib.request.urlopen(req, timeout=10) as r:
        print(r.status, r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode())
PY
}

# malformed messages: an error reply, and the player serves on
got=$(post "$px" '(garbage')
case $got in "400 error: not a GGP message"*) ;; *) fail "garbage got: $got" ;; esac
got=$(post "$px" '(PLAY nomatch nil)')
case $got in "400 error: PLAY for nomatch"*) ;; *) fail "PLAY for no match got: $got" ;; esac
got=$(post "$px" '')
case $got in "400 error:"*) ;; *) fail "an empty message got: $got" ;; esac
got=$(post "$px" '(info)')
[ "$got" = "200 ((name gdl) (status available))" ] || fail "INFO got: $got"
got=$(python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:$px/(ping)', timeout=10).read().decode())")
[ "$got" = "available" ] || fail "GET (ping) got: $got"

# the match
$GDL match "$TTT" --player "xplayer=http://127.0.0.1:$px/" \
  --player "oplayer=http://127.0.0.1:$po/" --startclock 3 --playclock 1 \
  --record "$tmp/m.json" > "$tmp/match.out" 2> "$tmp/match.err" ||
  fail "gdl match exited $?"
python3 - "$tmp/m.json" <<'PY' || fail "the record is not as expected"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["roles"] == ["xplayer", "oplayer"], m["roles"]
assert m["completed"] is True
assert m["error_count"] == 0, m["errors"]
assert all(e is None for e in m["start_errors"])
assert 5 <= len(m["moves"]) <= 9, m["moves"]
assert len(m["times"]) == len(m["moves"]) == len(m["errors"])
assert sorted(m["goals"]) in ([0, 100], [50, 50]), m["goals"]
assert all(t >= 0 for turn in m["times"] for t in turn), m["times"]
PY
grep -q "^goals: xplayer " "$tmp/match.out" || fail "no goals line"
# both players ended their match and serve the next
got=$(post "$po" '(INFO)')
[ "$got" = "200 ((name gdl) (status available))" ] || fail "INFO after the match got: $got"
grep -q "STOP .*: goal" "$tmp/o.err" || fail "player o never saw STOP"

# a player that is not there: its moves random, each an error; the match ends
kill "${pids##* }"; wait "${pids##* }" 2>/dev/null
$GDL match "$TTT" --player "xplayer=http://127.0.0.1:$px/" \
  --player "oplayer=http://127.0.0.1:$po/" --startclock 2 --playclock 1 \
  --json > "$tmp/dead.out" 2> "$tmp/dead.err" || fail "gdl match with a dead player exited $?"
tail -1 "$tmp/dead.out" | python3 -c '
import json, sys
m = json.loads(sys.stdin.read())
assert m["completed"] is True
assert m["start_errors"][0] is None and m["start_errors"][1] is not None
assert all(t[1] is not None and t[0] is None for t in m["errors"]), m["errors"]
' || fail "the match with a dead player is not as expected"

# usage
$GDL match "$TTT" --player xplayer=http://127.0.0.1:1/ 2> "$tmp/u.err"
[ $? = 2 ] && grep -q "no player for oplayer" "$tmp/u.err" || fail "a missing player is not a usage error"
$GDL player extra.kif 2> "$tmp/u2.err"
[ $? = 2 ] && grep -q "takes no FILE" "$tmp/u2.err" || fail "a FILE to gdl player is not a usage error"
echo "ggp_loopback: a match between two gdl players, errors answered, a dead player replaced"
