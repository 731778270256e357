#!/bin/sh
# limits.sh - the time limits hold on every game: `gdl bench FILE
# --seconds S` and `gdl solve FILE --max-seconds S` must end within W
# seconds of wall time (the whole command: set-up, grounding attempt and
# all), whatever the engine and wherever the work is when the time runs
# out (doc/engine.md, "Limits").
#
#   tests/limits.sh [-j JOBS] [-s S] [-w W] [-c bench|solve] FILE...
#
# Defaults: bench, S = 2, W = 3 (S + 1 s: the 10% of the guarantee and a
# process's start and exit on a loaded machine).  Prints each run's wall
# time, exit status and file, slowest first, then 'limits: N passed, N
# failed (worst T s)'.  A run past W, killed at 4 W, or one that exits
# with a status other than 0 (done), 1 (no plan), 2 (not a game, bad
# input) or 3 (a limit) fails.  make check runs it on the slowest games;
# make check-limits on the whole corpus.
GDL=${GDL:-build/gdl}
J=1; S=2; W=3; C=bench; ONE=
while getopts 1j:s:w:c: o; do
  case $o in
    1) ONE=1;; j) J=$OPTARG;; s) S=$OPTARG;; w) W=$OPTARG;; c) C=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))
case $C in
  bench) OPT=--seconds;;
  solve) OPT=--max-seconds;;
  *) echo "limits.sh: -c bench or -c solve" >&2; exit 2;;
esac
if [ -z "$ONE" ]; then
  out=$(printf '%s\n' "$@" | xargs -P "$J" -n 1 sh "$0" -1 -s "$S" -w "$W" -c "$C")
  printf '%s\n' "$out" | sort -rn
  pass=$(printf '%s\n' "$out" | grep -c ' ok ')
  fail=$(printf '%s\n' "$out" | grep -c ' FAIL ')
  worst=$(printf '%s\n' "$out" | sort -rn | head -1 | cut -d' ' -f1)
  echo "limits: gdl $C $OPT $S: $pass passed, $fail failed (worst $worst s, at most $W s)"
  [ "$fail" -eq 0 ]
  exit
fi
f=$1
t0=$(date +%s.%N)
KILL=$(awk -v w="$W" 'BEGIN { print int(w * 4 + 1) }')
timeout -s KILL "$KILL" "$GDL" "$C" --quiet "$f" "$OPT" "$S" >/dev/null 2>&1
rc=$?
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v w="$W" -v rc="$rc" -v f="$f" 'BEGIN {
  t = b - a
  ok = t <= w && rc <= 3
  printf "%.3f %s rc=%d %s\n", t, ok ? "ok" : "FAIL", rc, f
}'
