#!/bin/sh
# ggp_robust.sh - a running gdl player survives what a network sends it
# (doc/ggp.md, "Errors"), over raw loopback sockets (python3):
#  - a connection that sends half a request (the headers, or a body
#    shorter than its Content-Length) and falls silent: the player serves
#    other requests meanwhile, and closes it after its connection timeout
#    (30 s; checked at the end, so the wait overlaps the rest);
#  - bytes that are not HTTP, a request line cut short, half a body, a
#    Content-Length of 100 MB: each connection closed by the client, and
#    the player answers the next request;
#  - a PLAY, STOP or ABORT for a match that is not the one played: 400;
#  - a STOP mid-think: a PLAY of connectFour with a 60 s play clock (54 s
#    of search), a PING and a STOP a second later: the PING is answered
#    busy at once, the PLAY is answered with a legal move as the STOP
#    comes (the search stopped: the player's log says so), the STOP done
#    after it (the log's order), and the player then takes the next match;
#  - at the end, SIGTERM: it stops with exit status 0.
# SKIP only when gdl was built without libmicrohttpd.
GDL=${GDL:-build/gdl}
CORPUS=${GDL_CORPUS:-../shared/gdl-corpus}
C4=$CORPUS/multi/connectFour.kif
if $GDL player --no-such-option 2>&1 | grep -q "built without"; then
  echo "ggp_robust: SKIP (gdl was built without libmicrohttpd)"
  exit 0
fi
command -v python3 >/dev/null || { echo "ggp_robust: python3 is needed"; exit 1; }
NAME=ggp_robust; . "$(dirname "$0")/ggp_lib.sh"

start_player player --seed 7; player=$pid

# the silent half-request, left open: when the player closes it
python3 - "$port" > "$tmp/silent.out" 2>&1 <<'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/acl\r\n"
          b"Content-Length: 100\r\n\r\n(IN")
t = time.time()
s.settimeout(90)
try:
    got = s.recv(4096)
    print("closed after %.0f s%s" % (time.time() - t,
          "" if not got else " with a reply: %r" % got[:60]))
except socket.timeout:
    print("still open after 90 s")
except OSError as e:
    print("closed after %.0f s (%s)" % (time.time() - t, e))
PY
silent=$!
sleep 0.5

python3 - "$port" "$C4" > "$tmp/robust.out" 2>&1 <<'PY' || fail "the player did not survive"
import json, re, socket, sys, threading, time, urllib.request, urllib.error
port, c4 = int(sys.argv[1]), sys.argv[2]

def post(msg, timeout=120):
    req = urllib.request.Request("http://127.0.0.1:%d/" % port,
                                 data=msg.encode(), method="POST",
                                 headers={"Content-Type": "text/acl"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()

def expect(msg, status, start, timeout=30):
    got = post(msg, timeout)
    assert got[0] == status and got[1].startswith(start), (msg, got)
    return got[1]

def raw(data, wait=0.2):
    """data sent on a connection of its own, then closed"""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(data)
    time.sleep(wait)
    s.close()

# served while the silent half-request holds its connection
expect("(INFO)", 200, "((name gdl) (status available))")
# what is not HTTP, or is cut short; the player answers the next request
cases = [
    bytes(range(256)) * 4,
    b"hello, world\r\n\r\n",
    b"POST / HTT",
    b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le",
    b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n(PING",
    b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n(START ",
    b"GET /(INFO HTTP/1.1\r\nHost: x\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n(INFO)",
    b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
]
for c in cases:
    raw(c)
    expect("(PING)", 200, "available")
# a request with no body at all
expect("", 400, "error: not a GGP message")

# messages for a match that is not the one played
rules = " ".join(re.sub(r";[^\n]*", " ", open(c4).read()).split())
expect("(PLAY nomatch nil)", 400, "error: PLAY for nomatch, which is not the match played (none)")
expect("(START mid red (%s) 10 60)" % rules, 200, "ready")
expect("(PLAY other nil)", 400, "error: PLAY for other, which is not the match played (mid)")
expect("(STOP other nil)", 400, "error: STOP for other")
expect("(ABORT other)", 400, "error: ABORT for other")

# a STOP mid-think
res = {}
def play():
    res["play"] = post("(PLAY mid nil)")
th = threading.Thread(target=play)
th.start()
time.sleep(1)
res["ping"] = post("(PING)", 10)
res["ping_alive"] = th.is_alive()
res["stop"] = post("(STOP mid nil)")
th.join(60)
assert not th.is_alive(), "the PLAY was not answered"
assert res["ping"] == (200, "busy"), res
assert res["ping_alive"], "the PING waited for the PLAY's search"
assert res["stop"] == (200, "done"), res
assert res["play"][0] == 200 and re.fullmatch(r"\(drop [1-8]\)", res["play"][1]), res
# the next match
expect("(INFO)", 200, "((name gdl) (status available))")
expect("(START next red (%s) 10 1)" % rules, 200, "ready")
expect("(ABORT next)", 200, "aborted")
print("ok")
PY
# the player's log: the PLAY's search stopped, and the PLAY answered
# before the STOP
grep -q "PLAY mid step 1: (drop [1-8]) .*stopped by STOP or ABORT" "$tmp/player.err" ||
  fail "the PLAY's search was not stopped by the STOP"
grep -E "^(PLAY|STOP) mid" "$tmp/player.err" | cut -c1-4 | tr '\n' ' ' | grep -qx "PLAY STOP " ||
  fail "the STOP was not answered after the PLAY"

# the silent connection: closed by the player's timeout
wait $silent
grep -q "^closed after" "$tmp/silent.out" || fail "the silent half-request: $(cat "$tmp/silent.out")"
kill -0 "$player" 2>/dev/null || fail "the player died"
kill -TERM "$player"
wait "$player"; rc=$?
pids=
[ $rc = 0 ] || fail "the player exited $rc on SIGTERM"
grep -q "stopped after 2 matches" "$tmp/player.err" || fail "no line at the player's end"
echo "ggp_robust: garbage and truncated requests survived, a silent one $(cat "$tmp/silent.out"), a STOP mid-think answered at once"
