#!/bin/sh
# bench_corpus.sh - random playouts on every game of the corpus, gdl beside
# SWI-Prolog over GDL compiled to clauses (../shared/tools/prolog-baseline/
# gdlplay.sh, the strongest Prolog peer), in one run on this machine.
# Prints Markdown (make bench-corpus writes it to doc/corpus-speed.md).
#
#   tests/bench_corpus.sh [SECONDS] [RUNS] [GAME.kif...]
#   tests/bench_corpus.sh --rows [SECONDS] [RUNS] GAME.kif...
#   tests/bench_corpus.sh --slowest N [SECONDS] GAME.kif...
#
# The first form is the whole document: every game of the corpus's
# single/, multi/ and conformance/ (or the games named), SECONDS of play a
# run (default 2), each figure the best of RUNS runs (default 1), gdl's
# and SWI's alternating.  --rows prints the table and its summary alone
# (tests/bench.sh embeds it); --slowest plays each game with gdl alone for
# SECONDS (default 0.5) and prints the N with the fewest states per
# second, slowest first (a run that times out is slowest).
#
# Every run is under timeout (BENCH_TIMEOUT seconds, default 30 + 5 x
# SECONDS: gdl bench can overrun --seconds by minutes where a game is
# interpreted slowly, and grounding alone may take 5 s); once a side times
# out on a game its further runs there are skipped.  No game is left out:
# one that fails on a side is a row saying why.
#
# Exit status: 1 when gdl is slower than SWI on a game (ratio < 1), or
# gives no figure (timeout, limit, crash) where SWI gives one, listed
# under the table; a game gdl rejects (exit 2: not a game, unsafe; the
# conformance cases mean it) does not count.  Else 0.
GDL=${GDL:-build/gdl}
C=${GDL_CORPUS:-../shared/gdl-corpus}
GDLPLAY=${GDLPLAY:-../shared/tools/prolog-baseline/gdlplay.sh}
MODE=doc S=2 N=1
case $1 in
  --rows) MODE=rows; shift ;;
  --slowest) MODE=slowest S=0.5 K=$2; shift 2 ;;
esac
isnum() { case $1 in '' | *[!0-9.]*) return 1 ;; esac; }
if isnum "$1"; then S=$1; shift; fi
if [ "$MODE" != slowest ] && isnum "$1"; then N=$1; shift; fi
[ $# -gt 0 ] || set -- "$C"/single/*.kif "$C"/multi/*.kif "$C"/conformance/*.kif
T=${BENCH_TIMEOUT:-$(awk -v s="$S" 'BEGIN { printf "%d", 30 + 5 * s + 0.999 }')}
# gdlplay.sh's translation goes to mktemp; a run killed by timeout leaves
# it behind, so all of them go to a folder of ours
TMPDIR=$(mktemp -d)
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
trap 'exit 130' INT TERM

num() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
str() { sed -n "s/.*\"$1\": \"\([^\"]*\)\".*/\1/p"; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && (b == "" || a + 0 > b + 0)) }'; }
# a message fit for a table cell: its first line, short, no |
cell() { awk 'NR == 1 { gsub(/\|/, "\\|"); if (length($0) > 80) $0 = substr($0, 1, 77) "..."; print }'; }
name() { case $1 in "$C"/*) echo "${1#"$C"/}" | sed 's/\.kif$//' ;; *) echo "$1" ;; esac; }

# gdl_run FILE: one gdl bench; sets g_rate g_prate g_eng g_setup g_net
# g_note on success (the best run's), else g_fail (the reason); g_out is
# set when the side is done (timed out).
gdl_run() {
  j=$(timeout -k 5 "$T" "$GDL" bench --json --seconds "$S" "$1" 2>"$TMPDIR/err")
  rc=$?
  x=$(echo "$j" | num states_per_second)
  if [ $rc -eq 0 ] && [ -n "$x" ]; then
    if gt "$x" "$g_rate"; then
      g_rate=$x
      g_prate=$(echo "$j" | num playouts_per_second)
      g_eng=$(echo "$j" | str engine)
      g_setup=$(echo "$j" | num setup_ms)
      g_note=$(echo "$j" | str engine_note)
      p=$(echo "$j" | num propositions)
      if [ "${p:-0}" = 0 ]; then
        g_net=-
      else
        g_net="$p / $(echo "$j" | num rules) / $(echo "$j" | num inputs)"
      fi
    fi
    return
  fi
  [ -n "$g_rate" ] && return   # an earlier run measured it
  # the error, not a warning before it
  e=$(grep -m1 -e ': error: ' -e '^gdl: ' "$TMPDIR/err")
  [ -n "$e" ] || e=$(head -1 "$TMPDIR/err")
  case $rc in
    124|137) g_fail="timeout (> $T s)"; g_out=1 ;;
    2) g_fail="rejected: $(echo "$e" | sed 's/^gdl: [^:]*: //; s/^.*error: //' | cell)"; g_rej=1; g_out=1 ;;
    3) g_fail="limit: $(echo "$e" | sed 's/^gdl: //' | cell)"; g_out=1 ;;
    *) g_fail="failed (exit $rc): $(echo "$e" | cell)" ;;
  esac
}

# swi_run FILE: one gdlplay.sh; sets s_rate, else s_fail (and s_out
# when it timed out).  Its stderr has Prolog's warnings: only the rate=
# line counts.
swi_run() {
  timeout -k 5 "$T" sh "$GDLPLAY" "$1" "$S" >"$TMPDIR/out" 2>"$TMPDIR/err"
  rc=$?
  r=$(sed -n 's/.*rate=\([0-9.]*\).*/\1/p' "$TMPDIR/out")
  if [ -n "$r" ]; then
    gt "$r" "$s_rate" && s_rate=$r
    return
  fi
  [ -n "$s_rate" ] && return
  case $rc in
    124|137) s_fail="timeout (> $T s)"; s_out=1 ;;
    *) # Python's exception (kif2pl.py), Prolog's error, or the first line
      e=$(grep '^[A-Za-z.]*Error: ' "$TMPDIR/err" | tail -1)
      [ -n "$e" ] || e=$(grep -v '^Warning:' "$TMPDIR/err" | grep -m1 .)
      s_fail="failed (exit $rc)${e:+: $(echo "$e" | cell)}" ;;
  esac
}

# measure FILE: the best of N runs of each side, alternating
measure() {
  g_rate= g_prate= g_eng= g_setup= g_net= g_note= g_fail= g_out= g_rej=
  s_rate= s_fail= s_out=
  i=0
  while [ $i -lt "$N" ]; do
    [ -n "$g_out" ] || gdl_run "$1"
    [ -n "$s_out" ] || swi_run "$1"
    i=$((i + 1))
  done
}

# table GAME...: the Markdown table, the games not grounded, the games
# slower in gdl; returns 1 when there are any of the last
table() {
  slower= nofig= notes= both=0 games=0
  echo "| game | gdl engine | set-up ms | network: propositions / rules / inputs | gdl states/s | gdl playouts/s | SWI states/s | gdl / SWI |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  for f in "$@"; do
    g=$(name "$f")
    games=$((games + 1))
    echo "bench_corpus: $games/$# $g" >&2
    measure "$f"
    sr=${s_rate:+$(printf '%.0f' "$s_rate")}
    if [ -n "$g_rate" ]; then
      gcols="$g_eng | $(printf '%.1f' "$g_setup") | $g_net | $(printf '%.0f' "$g_rate") | $(printf '%.1f' "$g_prate")"
      [ -n "$g_note" ] && notes="$notes
- $g: $g_note"
    else
      gcols="$g_fail | - | - | - | -"
    fi
    ratio=-
    if [ -n "$g_rate" ] && [ -n "$s_rate" ] && gt "$s_rate" 0; then
      ratio=$(awk -v a="$g_rate" -v b="$s_rate" 'BEGIN { r = a / b; printf (r < 10 ? "%.2f" : r < 100 ? "%.1f" : "%.0f"), r }')
      both=$((both + 1))
      if awk -v a="$g_rate" -v b="$s_rate" 'BEGIN { exit !(a < b) }'; then
        slower="$slower
- $g: $ratio ($(printf '%.0f' "$g_rate") against $sr states/s, $g_eng)"
        ratio="**$ratio**"
      fi
    elif [ -z "$g_rate" ] && [ -z "$g_rej" ] && [ -n "$s_rate" ]; then
      nofig="$nofig
- $g: $g_fail; SWI $sr states/s"
    fi
    echo "| $g | $gcols | ${sr:-${s_fail:-failed}} | $ratio |"
  done
  echo
  echo "$games games, $both measured on both sides.  Not grounded (the interpreter's"
  echo "rows), and why:"
  echo "${notes:-
- none}"
  echo
  if [ -z "$slower$nofig" ]; then
    echo "**No game is slower in gdl than in SWI-Prolog.**"
    return 0
  fi
  if [ -n "$slower" ]; then
    echo "**Slower in gdl than in SWI-Prolog** (gdl / SWI < 1):"
    echo "$slower"
    [ -z "$nofig" ] || echo
  fi
  if [ -n "$nofig" ]; then
    echo "**No gdl figure where SWI-Prolog gives one:**"
    echo "$nofig"
  fi
  return 1
}

case $MODE in
  slowest)
    for f in "$@"; do
      g_rate= g_fail= g_out= g_rej=
      gdl_run "$f"
      echo "bench_corpus: quick pass: $(name "$f") ${g_rate:-$g_fail}" >&2
      if [ -n "$g_rate" ]; then
        echo "$g_rate $f"
      elif [ -z "$g_rej" ]; then
        echo "-1 $f"
      fi
    done | sort -g | head -n "$K" | cut -d' ' -f2-
    exit 0 ;;
  rows)
    table "$@"
    exit ;;
esac

start=$(date +%s)
echo "# The corpus table: every game beside SWI-Prolog"
echo
echo "Made by \`make bench-corpus\` (tests/bench_corpus.sh) on $(date -u +%Y-%m-%d),"
echo "gdl $(git rev-parse --short HEAD 2>/dev/null || echo '(no git)'), $(nproc) cores,"
echo "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1),"
echo "$(swipl --version 2>/dev/null || echo 'no swipl')."
echo "Random playouts: \`gdl bench --json --seconds $S\` and"
echo "\`gdlplay.sh GAME $S\` (SWI-Prolog over the game compiled to clauses,"
echo "../shared/tools/prolog-baseline/), each figure the best of $N run(s),"
echo "the two alternating, every run under a timeout of $T s.  gdl counts"
echo "wall-clock seconds after its set-up, SWI CPU seconds after loading."
echo "Seconds are noisy on shared machines; a ratio compares runs a few"
echo "seconds apart."
echo
echo "Rerun with \`make bench-corpus\` (CORPUS_SECONDS=$S CORPUS_RUNS=$N): it"
echo "rewrites this file, and fails when a game is slower in gdl."
echo
table "$@"
rc=$?
echo
echo "The whole run took $(( $(date +%s) - start )) s."
exit $rc
