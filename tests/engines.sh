#!/bin/sh
# engines.sh - the grounded engine against the interpreter, its oracle:
# random playouts of every game with --engine ground and --engine interp
# must print the same trace (states, legal moves, goals, terminal).
#
#   tests/engines.sh [-j JOBS] [-k PLAYOUTS] [-m MAXSTEPS] FILE...
#
# A game the grounded engine cannot take (over its budget: `gdl: cannot
# ground`, exit 3) is reported and passes: --engine auto then uses the
# interpreter, the oracle itself.  Ends with 'engines: N passed, N failed'.
GDL=${GDL:-build/gdl}
# seconds one engine may take on one game (make conformance gives more)
T=${GDL_TIMEOUT:-900}
J=1; K=3; M=100; ONE=
while getopts 1j:k:m: o; do
  case $o in
    1) ONE=1;; j) J=$OPTARG;; k) K=$OPTARG;; m) M=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))
if [ -z "$ONE" ]; then
  out=$(printf '%s\n' "$@" | xargs -P "$J" -n 1 sh "$0" -1 -k "$K" -m "$M")
  printf '%s\n' "$out" | sort -k2
  pass=$(printf '%s\n' "$out" | grep -c '^ok')
  fail=$(printf '%s\n' "$out" | grep -c '^MISMATCH')
  echo "engines: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi
f=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GDL" check --clean "$f" >/dev/null 2>"$tmp/err" || { echo "ok $f (not loadable; see gdl check)"; exit 0; }
grep -q "note: not a game" "$tmp/err" && { echo "ok $f (not a game)"; exit 0; }
timeout "$T" "$GDL" playout --clean --engine interp --playouts "$K" --max-steps "$M" "$f" >"$tmp/i" 2>"$tmp/ierr"
timeout "$T" "$GDL" playout --clean --engine ground --playouts "$K" --max-steps "$M" "$f" >"$tmp/g" 2>"$tmp/gerr"
rc=$?
if [ $rc -eq 3 ] && grep -q "cannot ground" "$tmp/gerr"; then
  # over the grounding budget: auto uses the interpreter, compared above
  echo "ok $f (not grounded: $(head -c 150 "$tmp/gerr" | tr '\n' ' '))"
elif [ $rc -ne 0 ]; then
  echo "MISMATCH $f: --engine ground exit $rc: $(head -c 150 "$tmp/gerr" | tr '\n' ' ')"
elif cmp -s "$tmp/i" "$tmp/g"; then
  echo "ok $f ($(grep -c '^step' "$tmp/i") states compared)"
else
  echo "MISMATCH $f: $(diff "$tmp/i" "$tmp/g" | head -4 | tr '\n' ' ')"
fi
