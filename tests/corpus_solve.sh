#!/bin/sh
# corpus_solve.sh - gdl solve (its default, auto) on every game of the
# corpus's single/, beside the SWI-Prolog reference's breadth-first search
# and the plans known to win (plans.tsv), and a Markdown report (make
# corpus-solve writes it to doc/corpus-results.md).
#
#   tests/corpus_solve.sh [-j JOBS] [-t SECONDS] [-r REF_SECONDS] FILE...
#
# With GDL_BEFORE naming another build of gdl (make corpus-solve builds
# the release that wrote doc/corpus-results.md last), each game is solved
# by it too, right after gdl in the same job, and the report compares the
# two: wall times, their ratio, and the games gdl settles more slowly.
GDL=${GDL:-build/gdl}
J=2; T=60; R=10; ONE=
while getopts 1j:t:r: o; do
  case $o in
    1) ONE=1;; j) J=$OPTARG;; t) T=$OPTARG;; r) R=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))
dir=$(dirname "$0")
field() { sed -n "s/.*\"$1\": \"\{0,1\}\([^\",}]*\)\"\{0,1\}.*/\1/p"; }

if [ -n "$ONE" ]; then
  f=$1
  # one run of gdl (binary $1): its JSON; its wall time into $wall
  run() {
    t0=$(date +%s.%N)
    timeout $((T * 3 + 30)) "$1" solve --json --quiet --max-seconds "$T" --max-memory 4000 "$f" 2>/dev/null
    wall=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }')
  }
  j=$(run "$GDL"; echo "wall $wall")
  gw=$(echo "$j" | sed -n 's/^wall //p'); j=$(echo "$j" | grep -v '^wall ')
  if [ -z "$j" ]; then
    gs="error"; gl="-"; gg="-"; ge="-"; gt="-"; ga="-"; go="-"
    "$GDL" check "$f" >/dev/null 2>&1 || gs="rejected"
  else
    gs=$(echo "$j" | field status); gl=$(echo "$j" | field length)
    gg=$(echo "$j" | field goal); ge=$(echo "$j" | field expanded)
    gt=$(echo "$j" | field seconds); ga=$(echo "$j" | field algorithm)
    go=$(echo "$j" | field optimal)
    # by: the search that found the plan or proved there is none
    [ "$gs" = solved ] || go=-
    [ "$gs" = solved ] || [ "$gs" = unsolvable ] || ga=-
  fi
  # the build before: its wall time, and whether gdl is slower at what
  # it settled (more than 1.5 times and 0.05 s: less is a process's noise)
  cmp=
  if [ -n "$GDL_BEFORE" ]; then
    b=$(run "$GDL_BEFORE"; echo "wall $wall")
    bw=$(echo "$b" | sed -n 's/^wall //p'); bs=$(echo "$b" | field status)
    settled() { [ "$1" = solved ] || [ "$1" = unsolvable ]; }
    ratio=$(echo "$gw $bw" | awk '{ printf "%.2f", $1 / ($2 > 0.01 ? $2 : 0.01) }')
    cmp=" $bw | $ratio |"
    if settled "$bs" && ! settled "$gs"; then
      slow="**settled before, not now**"
    elif settled "$bs" && echo "$gw $bw" | awk '{ exit !($1 > 1.5 * $2 && $1 - $2 > 0.05) }'; then
      slow="**slower than before**"
    else slow=; fi
  fi
  # a plan known to reach goal 100 (Sancho's, replayed: plans.tsv; some
  # there reach less)
  kl=$(awk -F'\t' -v g="single/$(basename "$f")" '$1 == g && $3 ~ /goal=100/ { print $2 }' "$(dirname "$f")/../plans.tsv" 2>/dev/null)
  r=$(timeout $((R * 3 + 30)) swipl -q "$dir/ref/gdlref.pl" bfs --goal-test expand --max-seconds "$R" "$f" 2>/dev/null | head -1)
  rs=$(echo "$r" | sed -n 's/^status \([a-z]*\).*/\1/p'); rs=${rs:-error}
  rl=$(echo "$r" | sed -n 's/.*length \([0-9-]*\).*/\1/p')
  re=$(echo "$r" | sed -n 's/.*states \([0-9]*\).*/\1/p')
  rt=$(echo "$r" | sed -n 's/.*seconds \([0-9.]*\).*/\1/p')
  note=
  if [ "$rs" = solved ] && [ "$gs" != solved ]; then note="**reference solves, gdl does not**"; fi
  if [ "$gs" = rejected ] && grep -q "^$(basename "$f")	" "$dir/differential.skip"; then
    note="rejected on purpose: $(grep "^$(basename "$f")	" "$dir/differential.skip" | cut -f3) (doc/dialect.md)"
  fi
  # the reference's bfs is shortest: a shorter plan, or another length
  # where gdl says its plan is shortest, is wrong
  if [ "$rs" = solved ] && [ "$gs" = solved ] &&
     { [ "$gl" -lt "$rl" ] || { [ "$go" = true ] && [ "$rl" != "$gl" ]; }; }; then note="**length differs**"; fi
  if [ -n "$kl" ] && [ "$gs" != solved ] && [ "$gs" != rejected ]; then note="${note:+$note; }**a plan is known, gdl finds none**"; fi
  if [ "$gs" = solved ] && [ "$rs" != solved ]; then note="gdl only"; fi
  if [ "$rs" = unsolvable ] && [ "$gs" != unsolvable ] && [ "$gs" != solved ]; then note="**reference proves unsolvable, gdl does not**"; fi
  [ -n "$slow" ] && note="${note:+$note; }$slow"
  echo "| $(basename "$f" .kif) | $gs | $gl | $gg | $ga | $go | $ge | $gt | ${kl:--} | $rs | ${rl:--} | ${re:--} | ${rt:--} |${cmp:+ $gw |$cmp} $note |"
  exit 0
fi

rows=$(printf '%s\n' "$@" | xargs -P "$J" -n 1 sh "$0" -1 -t "$T" | sort)
echo "# Corpus results: gdl solve beside the SWI-Prolog reference"
echo
echo "Made by \`make corpus-solve\` (tests/corpus_solve.sh) on $(date -u +%Y-%m-%d), at $(git rev-parse --short HEAD 2>/dev/null || echo '?'):"
echo "\`gdl solve\` with its default (\`auto\`, doc/solving.md) on every game of"
echo "\`../shared/gdl-corpus/single/\` with a limit of $T s per game, its default"
echo "engine (grounded where it fits), beside the reference's breadth-first search"
echo "(tests/ref/gdlref.pl, goal tested at expansion as gdl does) with $R s, and the"
echo "length of a plan known to win (plans.tsv, Sancho's; not shown shortest)."
echo "status: solved / unsolvable (whole space searched, no goal 100) / limit."
echo "'by' is the search that found the plan or proved that none exists, 'shortest' whether it is proven"
echo "shortest, 'states' states expanded."
echo
gsol=$(printf '%s\n' "$rows" | awk -F'|' '$3 ~ /solved/ && $3 !~ /unsolvable/' | wc -l)
rsol=$(printf '%s\n' "$rows" | awk -F'|' '$11 ~ /solved/ && $11 !~ /unsolvable/' | wc -l)
known=$(printf '%s\n' "$rows" | awk -F'|' '$10 !~ /-/ || ($3 ~ /solved/ && $3 !~ /unsolvable/) || ($11 ~ /solved/ && $11 !~ /unsolvable/)' | wc -l)
bad=$(printf '%s\n' "$rows" | grep -c '\*\*')
echo "Solved: gdl **$gsol**, reference **$rsol** of $(printf '%s\n' "$rows" | wc -l) games;"
echo "games with a plan known (plans.tsv) or found by either: $known."
echo "Games where a plan is known or the reference solves and gdl does not, or"
echo "a length is wrong$([ -n "$GDL_BEFORE" ] && echo ", or (below) gdl is slower than the build before"): **$bad**."
if [ -n "$GDL_BEFORE" ]; then
  slower=$(printf '%s\n' "$rows" | grep -c 'than before\|before, not now')
  echo
  echo "Beside the build before ($GDL_BEFORE_NAME), each game solved by both in"
  echo "one job, one after the other: 'wall' and 'before' are their wall times"
  echo "(parsing and grounding included), 'ratio' wall / before. A game that"
  echo "build settled is flagged where gdl does not settle it, or takes more"
  echo "than 1.5 times as long and 0.05 s more: **$slower**."
  echo
  echo "| game | gdl | length | goal | by | shortest | states | s | known | reference | length | states | s | wall | before | ratio | note |"
  echo "|---|---|---:|---:|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|"
else
  echo
  echo "| game | gdl | length | goal | by | shortest | states | s | known | reference | length | states | s | note |"
  echo "|---|---|---:|---:|---|---|---:|---:|---:|---|---:|---:|---:|---|"
fi
printf '%s\n' "$rows"
[ "$bad" -eq 0 ]
