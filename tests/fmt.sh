#!/bin/sh
# fmt.sh - gdl fmt on whole files: for every FILE, `gdl fmt` of its output
# must be that output (idempotent), and the formatted file must mean the
# same: `gdl check` gives the same exit status and the same messages (but
# for the places they point at), and for a game that passes the check,
# `gdl state`, `gdl legal` and a 3-step `gdl playout` print the same
# (with the interpreter: the grounded engine is compared with it by
# engines.sh).  A file with a syntax error must give exit 2 from both fmt
# and check.
#
#   tests/fmt.sh [-j JOBS] [-t SECONDS] [FILE...]
#
# Without FILEs: the corpus (single, multi, conformance), rules/ and
# puzzles/ (the infix puzzles too, formatted as infix).  The formatted copies go to a temporary folder, each under the
# name of its folder (rules/x.kif -> TMP/rules/x.kif), so a puzzle's
# `;#include "../rules/x.kif"` reads the formatted library: name the
# libraries a file includes too.  Nothing is written beside the FILEs.
# A game command that takes more than SECONDS (default 3) is not compared
# (mummymaze1p's initial state takes 5 s): the file passes on the rest and
# is listed.  Ends with 'fmt: N passed, N failed'; exits 1 when any failed.
GDL=${GDL:-build/gdl}
CORPUS=${GDL_CORPUS:-../shared/gdl-corpus}
J=1; T=3; ONE=
while getopts 1j:t: o; do
  case $o in
    1) ONE=1;; j) J=$OPTARG;; t) T=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))

# Messages without their places: FILE:LINE:COL prefixes and references,
# the source line and caret under each, move with the layout.
messages() {
  grep -v '^  ' "$1" | sed -E 's#[^ ()]*:[0-9]+:[0-9]+#@#g; s#^[^ ]*\.(kif|hrf): #@: #'
}

if [ -z "$ONE" ]; then
  if [ ! -x "$GDL" ]; then
    echo "fmt.sh: no gdl binary at $GDL (run make first)" >&2
    exit 2
  fi
  [ $# -eq 0 ] && set -- "$CORPUS"/single/*.kif "$CORPUS"/multi/*.kif \
    "$CORPUS"/conformance/*.kif rules/*.kif puzzles/*.kif puzzles/*.hrf
  FMT_TMP=$(mktemp -d "${TMPDIR:-/tmp}/fmt.XXXXXX")
  export FMT_TMP GDL
  trap 'rm -rf "$FMT_TMP"' EXIT INT TERM
  # first every copy (a puzzle needs its formatted library), then compare
  for f in "$@"; do
    d=$FMT_TMP/$(basename "$(dirname "$f")")
    mkdir -p "$d"
    g=$d/$(basename "$f")
    "$GDL" fmt "$f" >"$g" 2>"$g.err"
    echo $? >"$g.rc"
  done
  out=$(printf '%s\n' "$@" | xargs -P "$J" -n 1 sh "$0" -1 -t "$T")
  printf '%s\n' "$out" | grep -v "^ok "
  printf '%s\n' "$out" | grep 'not compared'
  pass=$(printf '%s\n' "$out" | grep -c '^ok ')
  fail=$(printf '%s\n' "$out" | grep -c '^FAIL ')
  echo "fmt: $pass passed, $fail failed" \
       "($(printf '%s\n' "$out" | grep -c '(syntax error)') with syntax errors," \
       "$(printf '%s\n' "$out" | grep -c '(game)') games played)"
  [ "$fail" -eq 0 ]
  exit
fi

f=$1
g=$FMT_TMP/$(basename "$(dirname "$f")")/$(basename "$f")
w=$(mktemp -d "$FMT_TMP/work.XXXXXX")
fail() {
  echo "FAIL $f: $*"
  rm -rf "$w"
  exit 0
}
rc=$(cat "$g.rc")
"$GDL" check "$f" >/dev/null 2>"$w/check1"
crc=$?
if [ "$rc" -ne 0 ]; then
  [ "$rc" -eq 2 ] && [ $crc -eq 2 ] && grep -q ': error: ' "$g.err" ||
    fail "gdl fmt exit $rc, gdl check exit $crc: $(head -1 "$g.err")"
  echo "ok $f (syntax error)"
  rm -rf "$w"
  exit 0
fi
if ! "$GDL" fmt --check "$g" 2>"$w/err"; then
  "$GDL" fmt "$g" >"$w/again" 2>&1
  fail "not idempotent: $(cat "$w/err") $(diff "$g" "$w/again" | head -3 | tr '\n' ' ')"
fi
"$GDL" check "$g" >/dev/null 2>"$w/check2"
rc2=$?
[ $rc2 -eq $crc ] || fail "gdl check exit $crc, on the formatted file $rc2"
messages "$w/check1" >"$w/m1"
messages "$w/check2" >"$w/m2"
cmp -s "$w/m1" "$w/m2" ||
  fail "gdl check messages differ: $(diff "$w/m1" "$w/m2" | head -3 | tr '\n' ' ')"
what=checked
if [ $crc -eq 0 ] && ! grep -q 'note: not a game' "$w/check1"; then
  for cmd in state legal "playout --max-steps 3"; do
    timeout $T "$GDL" $cmd --engine interp "$f" >"$w/a" 2>/dev/null
    ra=$?
    rb=124
    [ $ra -eq 124 ] ||
      { timeout $T "$GDL" $cmd --engine interp "$g" >"$w/b" 2>/dev/null; rb=$?; }
    if [ $rb -eq 124 ]; then
      echo "ok $f (gdl $cmd took over $T s: not compared)"
      rm -rf "$w"
      exit 0
    fi
    [ $ra -eq $rb ] || fail "gdl $cmd exit $ra, on the formatted file $rb"
    cmp -s "$w/a" "$w/b" ||
      fail "gdl $cmd differs: $(diff "$w/a" "$w/b" | head -3 | tr '\n' ' ')"
  done
  what=game
fi
echo "ok $f ($what)"
rm -rf "$w"
