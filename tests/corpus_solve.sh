#!/bin/sh
# corpus_solve.sh - gdl solve (bfs) on every game of the corpus's single/,
# beside the SWI-Prolog reference's breadth-first search with the same
# time limit, and a Markdown report (make corpus-solve writes it to
# doc/corpus-results.md).
#
#   tests/corpus_solve.sh [-j JOBS] [-t SECONDS] FILE...
GDL=${GDL:-build/gdl}
J=2; T=10; ONE=
while getopts 1j:t: o; do
  case $o in
    1) ONE=1;; j) J=$OPTARG;; t) T=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))
dir=$(dirname "$0")
field() { sed -n "s/.*\"$1\": \"\{0,1\}\([^\",}]*\)\"\{0,1\}.*/\1/p"; }

if [ -n "$ONE" ]; then
  f=$1
  j=$(timeout $((T * 3 + 30)) "$GDL" solve --json --quiet --max-seconds "$T" --max-memory 4000 "$f" 2>/dev/null)
  if [ -z "$j" ]; then
    gs="error"; gl="-"; gg="-"; ge="-"; gt="-"
    "$GDL" check "$f" >/dev/null 2>&1 || gs="rejected"
  else
    gs=$(echo "$j" | field status); gl=$(echo "$j" | field length)
    gg=$(echo "$j" | field goal); ge=$(echo "$j" | field expanded)
    gt=$(echo "$j" | field seconds)
  fi
  r=$(timeout $((T * 3 + 30)) swipl -q "$dir/ref/gdlref.pl" bfs --goal-test expand --max-seconds "$T" "$f" 2>/dev/null | head -1)
  rs=$(echo "$r" | sed -n 's/^status \([a-z]*\).*/\1/p'); rs=${rs:-error}
  rl=$(echo "$r" | sed -n 's/.*length \([0-9-]*\).*/\1/p')
  re=$(echo "$r" | sed -n 's/.*states \([0-9]*\).*/\1/p')
  rt=$(echo "$r" | sed -n 's/.*seconds \([0-9.]*\).*/\1/p')
  note=
  if [ "$rs" = solved ] && [ "$gs" != solved ]; then note="**reference solves, gdl does not**"; fi
  if [ "$gs" = rejected ] && grep -q "^$(basename "$f")	" "$dir/differential.skip"; then
    note="rejected on purpose: $(grep "^$(basename "$f")	" "$dir/differential.skip" | cut -f3) (doc/dialect.md)"
  fi
  if [ "$rs" = solved ] && [ "$gs" = solved ] && [ "$rl" != "$gl" ]; then note="**length differs**"; fi
  if [ "$gs" = solved ] && [ "$rs" != solved ]; then note="gdl only"; fi
  if [ "$rs" = unsolvable ] && [ "$gs" != unsolvable ] && [ "$gs" != solved ]; then note="**reference proves unsolvable, gdl does not**"; fi
  echo "| $(basename "$f" .kif) | $gs | $gl | $gg | $ge | $gt | $rs | ${rl:--} | ${re:--} | ${rt:--} | $note |"
  exit 0
fi

rows=$(printf '%s\n' "$@" | xargs -P "$J" -n 1 sh "$0" -1 -t "$T" | sort)
echo "# Corpus results: gdl solve beside the SWI-Prolog reference"
echo
echo "Made by \`make corpus-solve\` (tests/corpus_solve.sh) on $(date -u +%Y-%m-%d):"
echo "breadth-first search on every game of \`../shared/gdl-corpus/single/\` with a"
echo "limit of $T s per game and solver, gdl with its default engine (grounded where"
echo "it fits) and the reference (tests/ref/gdlref.pl, goal tested at expansion as"
echo "gdl does).  status: solved / unsolvable (whole space searched, no goal 100) /"
echo "limit.  'states' is states expanded."
echo
gsol=$(printf '%s\n' "$rows" | awk -F'|' '$3 ~ /solved/ && $3 !~ /unsolvable/' | wc -l)
rsol=$(printf '%s\n' "$rows" | awk -F'|' '$8 ~ /solved/ && $8 !~ /unsolvable/' | wc -l)
bad=$(printf '%s\n' "$rows" | grep -c '\*\*')
echo "Solved: gdl **$gsol**, reference **$rsol** of $(printf '%s\n' "$rows" | wc -l) games."
echo "Games the reference solves that gdl does not, or solves with another length: **$bad**."
echo
echo "| game | gdl | length | goal | states | s | reference | length | states | s | note |"
echo "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|"
printf '%s\n' "$rows"
[ "$bad" -eq 0 ]
