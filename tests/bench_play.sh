#!/bin/sh
# bench_play.sh - gdl's strength as a GGP player: matches hosted by
# ggp-base's GameServer (../shared/tools/ggp-base) between `gdl player`
# and ggp-base's SampleMonteCarloGamer, N of each game, sides
# alternating (gdl takes the first role in odd matches), at a play clock
# of P seconds.  Prints a line per match and a markdown table: per game
# gdl's wins, draws and losses, the share of the decided matches it won,
# and the errors (timeouts, illegal moves) of either player.  Exits 1
# when a match did not complete.  Not part of make check:
# `make bench-play` (some 60-90 minutes at the defaults).
#
#   tests/bench_play.sh [-n MATCHES] [-p PLAYCLOCK] [-s STARTCLOCK] [GAME...]
GDL=${GDL:-build/gdl}
CORPUS=${GDL_CORPUS:-../shared/gdl-corpus}
GGPBASE=${GGPBASE:-$(dirname "$CORPUS")/tools/ggp-base}
N=50; P=2; S=10
while getopts n:p:s: o; do
  case $o in
    n) N=$OPTARG;; p) P=$OPTARG;; s) S=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))
GAMES=${*:-ticTacToe connectFour breakthroughSmall}
command -v java >/dev/null || { echo "bench-play: needs Java (apt-get install default-jre-headless)"; exit 1; }
[ -f "$GGPBASE/ggp-peer.jar" ] || { echo "bench-play: no ggp-base at $GGPBASE"; exit 1; }
command -v python3 >/dev/null || { echo "bench-play: needs python3"; exit 1; }
if $GDL player --no-such-option 2>&1 | grep -q "built without"; then
  echo "bench-play: gdl was built without libmicrohttpd"; exit 1
fi
NAME=bench-play; . "$(dirname "$0")/ggp_lib.sh"
start_player gdl --quiet; pg=$port
pm=$(free_port)
"$GGPBASE/run-player.sh" "$pm" SampleMonteCarloGamer > "$tmp/montecarlo.log" 2>&1 &
pids="$pids $!"
wait_listening "$tmp/montecarlo.log"
echo "gdl player ($($GDL --version 2>/dev/null | head -1)) against ggp-base's SampleMonteCarloGamer, hosted by ggp-base's GameServer; $N matches a game, start clock $S s, play clock $P s, sides alternating; $(nproc) cores"
for g in $GAMES; do
  f=$CORPUS/multi/$g.kif
  [ -f "$f" ] || { echo "bench-play: no $f"; exit 1; }
  i=1
  while [ "$i" -le "$N" ]; do
    if [ $((i % 2)) = 1 ]; then side=0; a="127.0.0.1:$pg:gdl"; b="127.0.0.1:$pm:montecarlo"
    else side=1; a="127.0.0.1:$pm:montecarlo"; b="127.0.0.1:$pg:gdl"; fi
    "$GGPBASE/run-match.sh" "$f" "$S" "$P" "$tmp/record.json" "$a" "$b" \
      > "$tmp/match.out" 2> "$tmp/match.err"
    tail -1 "$tmp/match.out" | python3 -c '
import json, sys
g, i, side = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    m = json.loads(sys.stdin.read())
except ValueError:
    print("%s %s side %d: no record" % (g, i, side)); print("RESULT %s incomplete 0 0" % g); sys.exit(0)
me, them = m["goals"][side], m["goals"][1 - side]
res = "incomplete" if not m["completed"] else "win" if me > them else "loss" if me < them else "draw"
errs = [e for turn in m["errors"] for e in turn if e]
mine = [e for turn in m["errors"] for k, e in enumerate(turn) if e and k == side]
print("%s %s: gdl as %s, goals %s, %d moves, %s%s" % (g, i, m["roles"][side], m["goals"], len(m["moves"]), res,
      (", errors " + " ".join(errs)) if errs else ""))
print("RESULT %s %s %d %d" % (g, res, len(errs) - len(mine), len(mine)))
' "$g" "$i" "$side" | tee -a "$tmp/results" | grep -v '^RESULT'
    i=$((i + 1))
  done
done
echo
echo "| game | matches | gdl won | draws | gdl lost | won of decided | gdl's errors | its opponent's errors |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
grep '^RESULT' "$tmp/results" | awk '
  { n[$2]++; r[$2, $3]++; oe[$2] += $4; me[$2] += $5; if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } }
  END {
    bad = 0
    for (j = 1; j <= k; j++) {
      g = order[j]; d = r[g, "win"] + r[g, "loss"]
      printf "| %s | %d | %d | %d | %d | %s | %d | %d |\n", g, n[g], r[g, "win"], r[g, "draw"], r[g, "loss"],
        d ? sprintf("%.0f%%", 100 * r[g, "win"] / d) : "-", me[g], oe[g]
      if (r[g, "incomplete"]) bad = 1
    }
    exit bad
  }'
