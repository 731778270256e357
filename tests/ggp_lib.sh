# ggp_lib.sh - what the scripts that run GGP players share (sourced by
# tests/ggp.sh, ggp_loopback.sh, ggp_robust.sh and bench_play.sh): a
# scratch folder and the processes started, both cleaned up at exit; a
# failure that shows the logs; a free loopback port; waiting for a
# player to listen; a gdl player started on a port it picks.
#
#   NAME=ggp; . tests/ggp_lib.sh     (GDL: the gdl to run)
tmp=$(mktemp -d) || exit 2
pids=
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
# fail WHY: the logs in $tmp, then exit 1
fail() {
  echo "$NAME: $*"
  for f in "$tmp"/*.out "$tmp"/*.err "$tmp"/*.log "$tmp"/*.json; do
    [ -f "$f" ] && { echo "--- $f"; cat "$f"; }
  done
  exit 1
}
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# wait_listening FILE: until "listening" is in FILE (at most 60 s: a JVM
# starts slowly on a busy machine)
wait_listening() {
  i=0
  while ! grep -q "listening" "$1" 2>/dev/null; do
    i=$((i + 1)); [ $i -gt 600 ] && fail "$1: the player did not start"
    sleep 0.1
  done
}
# start_player LABEL ARGS...: gdl player ARGS on a free port, its output
# in $tmp/LABEL.out and .err; the port into $port, the process into $pid
start_player() {
  label=$1; shift
  $GDL player --port 0 "$@" > "$tmp/$label.out" 2> "$tmp/$label.err" &
  pid=$!
  pids="$pids $pid"
  wait_listening "$tmp/$label.out"
  port=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$tmp/$label.out")
}
