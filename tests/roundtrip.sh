#!/bin/sh
# roundtrip.sh - KIF -> infix -> KIF: for every FILE, the infix text `gdl
# cat --syntax infix FILE` writes (as TMP/NAME.hrf) must read back to the
# same description:
#   - `gdl cat --syntax kif` of both gives the same text (but for the
#     comment lines gdl cat writes with the file names);
#   - `gdl check` of both gives the same exit status and the same messages
#     (without the places they point at);
#   - for a game that passes the check, a random walk (`gdl playout
#     --seed 7`, at most STEPS steps, default 10) prints the same states,
#     legal moves and goals (with the interpreter, which sets out at once:
#     engines.sh compares the grounded engine with it).
# A file that infix cannot write (a list that does not start with a
# constant) must be one the checker rejects.
#   - the infix text is in gdl fmt's canonical layout (fmt --check).
# A file with a syntax error must give exit 2 from gdl cat.
#
#   tests/roundtrip.sh [-j JOBS] [-m STEPS] [-t SECONDS] [FILE...]
#
# Without FILEs: the corpus (single, multi, conformance), rules/ and
# puzzles/.  A game command that takes more than SECONDS (default 2) on
# the KIF file is not compared (the file passes on the rest and is
# listed).  Ends with 'roundtrip: N passed, N failed'; exits 1 when any
# failed.
GDL=${GDL:-build/gdl}
CORPUS=${GDL_CORPUS:-../shared/gdl-corpus}
J=1; M=10; T=2; ONE=
while getopts 1j:m:t: o; do
  case $o in
    1) ONE=1;; j) J=$OPTARG;; m) M=$OPTARG;; t) T=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))

# Messages without their places (FILE:LINE:COL, the source line, the
# caret) and without variable names (?x in KIF is X in infix), and the
# cat text without the lines naming the files.
messages() {
  grep -v '^  ' "$1" | sed -E 's#[^ ()]*:[0-9]+:[0-9]+#@#g; s#^[^ ]*\.(kif|hrf): #@: #; s#variable [^ ]+ #variable V #g'
}
catlines() {
  grep -Ev '^;;;; (One description made by gdl cat from:|---- .* ----$)|^$' "$1"
}

if [ -z "$ONE" ]; then
  if [ ! -x "$GDL" ]; then
    echo "roundtrip.sh: no gdl binary at $GDL (run make first)" >&2
    exit 2
  fi
  [ $# -eq 0 ] && set -- "$CORPUS"/single/*.kif "$CORPUS"/multi/*.kif \
    "$CORPUS"/conformance/*.kif rules/*.kif puzzles/*.kif
  RT_TMP=$(mktemp -d "${TMPDIR:-/tmp}/roundtrip.XXXXXX")
  export RT_TMP GDL
  trap 'rm -rf "$RT_TMP"' EXIT INT TERM
  out=$(printf '%s\n' "$@" | xargs -P "$J" -n 1 sh "$0" -1 -m "$M" -t "$T")
  printf '%s\n' "$out" | grep -v "^ok "
  printf '%s\n' "$out" | grep 'not compared'
  pass=$(printf '%s\n' "$out" | grep -c '^ok ')
  fail=$(printf '%s\n' "$out" | grep -c '^FAIL ')
  echo "roundtrip: $pass passed, $fail failed" \
       "($(printf '%s\n' "$out" | grep -c '(syntax error)') with syntax errors," \
       "$(printf '%s\n' "$out" | grep -c '(game)') games played)"
  [ "$fail" -eq 0 ]
  exit
fi

f=$1
w=$(mktemp -d "$RT_TMP/work.XXXXXX")
h=$w/$(basename "$f" .kif).hrf
fail() {
  echo "FAIL $f: $*"
  rm -rf "$w"
  exit 0
}
"$GDL" cat --syntax infix "$f" >"$h" 2>"$w/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'infix GDL cannot write it' "$w/err"; then
  # a list such as ((a) b), which only a description with errors has
  "$GDL" check "$f" >/dev/null 2>&1 &&
    fail "gdl check passes, but infix cannot write it: $(head -1 "$w/err")"
  echo "ok $f (no infix form: the checker rejects it)"
  rm -rf "$w"
  exit 0
fi
if [ $rc -ne 0 ]; then
  [ $rc -eq 2 ] && grep -q ': error: ' "$w/err" ||
    fail "gdl cat --syntax infix exit $rc: $(head -1 "$w/err")"
  echo "ok $f (syntax error)"
  rm -rf "$w"
  exit 0
fi
# what gdl cat writes is in gdl fmt's canonical layout (so gdl fmt of an
# infix file is tried on every file here too: it must change nothing)
"$GDL" fmt --check "$h" 2>"$w/ferr" ||
  fail "gdl fmt --check of the infix text: $(head -1 "$w/ferr")"
"$GDL" cat --syntax kif "$f" >"$w/a" 2>"$w/aerr" ||
  fail "gdl cat --syntax kif exit $?: $(head -1 "$w/aerr")"
"$GDL" cat --syntax kif "$h" >"$w/b" 2>"$w/berr" ||
  fail "gdl cat --syntax kif of the infix text exit $?: $(head -3 "$w/berr" | tr '\n' ' ')"
catlines "$w/a" >"$w/a2"
catlines "$w/b" >"$w/b2"
cmp -s "$w/a2" "$w/b2" ||
  fail "gdl cat differs: $(diff "$w/a2" "$w/b2" | head -4 | tr '\n' ' ')"
# gdl check of the infix text beside that of the same files as one KIF
# file (a warning about a relation used only in an #included library is
# left out for the library, but not once it is in one file with the rest)
cp "$w/a" "$w/a.kif"
"$GDL" check "$w/a.kif" >/dev/null 2>"$w/check1"
crc=$?
"$GDL" check "$h" >/dev/null 2>"$w/check2"
rc2=$?
[ $rc2 -eq $crc ] || fail "gdl check exit $crc, on the infix text $rc2"
messages "$w/check1" >"$w/m1"
messages "$w/check2" >"$w/m2"
cmp -s "$w/m1" "$w/m2" ||
  fail "gdl check messages differ: $(diff "$w/m1" "$w/m2" | head -3 | tr '\n' ' ')"
what=checked
if [ $crc -eq 0 ] && ! grep -q 'note: not a game' "$w/check1"; then
  for cmd in "playout --engine interp --seed 7 --max-steps $M"; do
    timeout $T "$GDL" $cmd "$f" >"$w/x" 2>/dev/null
    ra=$?
    if [ $ra -eq 124 ]; then
      echo "ok $f (gdl $cmd took over $T s: not compared)"
      rm -rf "$w"
      exit 0
    fi
    timeout $((T * 3)) "$GDL" $cmd "$h" >"$w/y" 2>/dev/null
    rb=$?
    [ $ra -eq $rb ] || fail "gdl $cmd exit $ra, on the infix text $rb"
    cmp -s "$w/x" "$w/y" ||
      fail "gdl $cmd differs: $(diff "$w/x" "$w/y" | head -3 | tr '\n' ' ')"
  done
  what=game
fi
echo "ok $f ($what)"
rm -rf "$w"
