#!/bin/sh
# golden.sh - the exact messages of `gdl check` on files with mistakes.
#
# Each tests/golden/NAME.kif (or NAME.hrf, infix GDL) has beside it
# NAME.err, which holds
#   line 1:   "# exit N" - the exit status `$GDL check tests/golden/NAME.kif`
#             must give (0 clean or warnings only, 2 errors);
#   the rest: exactly what it must print on standard error (nothing on
#             standard output).
# Paths in the messages are as given on the command line, so run it from
# the repository root, as `make check` does (it exports GDL=build/gdl).
#
#   tests/golden.sh                 check every case
#   tests/golden.sh NAME...         check some (NAME without .kif/.hrf)
#   tests/golden.sh --bless NAME... write NAME.err from the tool's output;
#                                   read the result before committing it
#
# Prints a diff for each failure and ends with "golden: N passed, N failed";
# exits 1 when any failed.
GDL=${GDL:-build/gdl}
DIR=tests/golden
bless=0
if [ "$1" = "--bless" ]; then
  bless=1
  shift
fi
if [ ! -x "$GDL" ]; then
  echo "golden.sh: no gdl binary at $GDL (run make first)" >&2
  exit 2
fi
if [ $# -eq 0 ]; then
  set -- $(ls $DIR/*.kif $DIR/*.hrf | sed 's|.*/||; s|\.kif$||; s|\.hrf$||')
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
for name in "$@"; do
  kif=$DIR/$name.kif
  [ -f "$kif" ] || kif=$DIR/$name.hrf
  want=$DIR/$name.err
  "$GDL" check "$kif" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  { echo "# exit $rc"; cat "$tmp/err"; } >"$tmp/got"
  if [ $bless = 1 ]; then
    cp "$tmp/got" "$want"
    echo "blessed $want"
    continue
  fi
  if [ ! -f "$want" ]; then
    echo "FAIL $name: no $want"
    fail=$((fail + 1))
  elif [ -s "$tmp/out" ]; then
    echo "FAIL $name: wrote to standard output:"
    cat "$tmp/out"
    fail=$((fail + 1))
  elif cmp -s "$want" "$tmp/got"; then
    pass=$((pass + 1))
  else
    echo "FAIL $name:"
    diff -u "$want" "$tmp/got" | sed "s|$tmp/got|actual|"
    fail=$((fail + 1))
  fi
done
[ $bless = 1 ] && exit 0
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
