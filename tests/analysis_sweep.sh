#!/bin/sh
# analysis_sweep.sh - what the informed searches' analyses cost on every
# game given, and what they find: the grounded network's propositions, the
# seconds the analyses take (h_max's network, latches, stubborn sets, move
# budgets, step counters, the groups' proof and their pattern databases:
# all that `solve --algorithm astar` computes before its first expansion),
# the groups summed, the pattern databases and the start's estimate.
# Prints a Markdown section (make bench puts it in doc/performance.md).
#
#   tests/analysis_sweep.sh FILE...
#
# One run each, --max-states 1 (the search stops at its first expansion)
# and --max-seconds 60.  The propositions are those gdl bench --engine
# ground reports within 1 s; a game not grounded in that has "-".
GDL=${GDL:-build/gdl}
num() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }

rows=$(for f in "$@"; do
  p=$($GDL bench --engine ground --seconds 1 "$f" 2>/dev/null |
      sed -n 's/.*ground network: \([0-9]*\) propositions.*/\1/p' | head -1)
  j=$(timeout 200 "$GDL" solve --json --quiet --algorithm astar \
      --max-states 1 --max-seconds 60 "$f" 2>/dev/null)
  s=$(echo "$j" | num seconds)
  [ -n "$s" ] || continue      # rejected (bad input, on purpose)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$(dirname "$f")")/$(basename "$f" | sed 's/\.[a-z]*$//')" \
    "${p:--}" "$s" "$(echo "$j" | num groups)" "$(echo "$j" | num patterns)" \
    "$(echo "$j" | num estimate)"
done | sort -t "$(printf '\t')" -k3,3gr)

n=$(printf '%s\n' "$rows" | grep -c .)
echo "## What the analyses cost, game by game"
echo
echo "\`tests/analysis_sweep.sh\` on every puzzle in \`puzzles/\` and every game"
echo "in the corpus's \`single/\`: the seconds of all the analyses the informed"
echo "searches read (\`solve --algorithm astar --max-states 1\`: h_max's network,"
echo "latches, stubborn sets, move budgets, step counters, the groups' proof and"
echo "their pattern databases), with the grounded network's propositions, the"
echo "groups summed, the pattern databases and the start's estimate. One run"
echo "each, on $(date -u +%Y-%m-%d). The proof's work is bounded by 200 a"
echo "proposition squared (50 to"
echo "400 million: doc/solving.md, \"Groups of fluents summed\"), the tables by"
echo "their million placements."
echo
printf '%s\n' "$rows" | awk -F'\t' -v n="$n" '
  { t[NR] = $3; sum += $3 }
  END {
    # rows are sorted slowest first: the median and the 90th percentile
    printf "%d games: %.2f s in all; the median %.3f s, 90%% within %.3f s, the slowest %.2f s.\n",
      n, sum, t[int(n / 2) + 1], t[int(n / 10) + 1], t[1]
  }'
echo
echo "The twenty slowest:"
echo
echo "| game | propositions | seconds | groups | patterns | start's estimate |"
echo "|---|---:|---:|---:|---:|---:|"
printf '%s\n' "$rows" | head -20 | awk -F'\t' '{ printf "| %s | %s | %.3f | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }'
echo
echo "<details><summary>Every game</summary>"
echo
echo "| game | propositions | seconds | groups | patterns | start's estimate |"
echo "|---|---:|---:|---:|---:|---:|"
printf '%s\n' "$rows" | sort | awk -F'\t' '{ printf "| %s | %s | %.3f | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }'
echo
echo "</details>"
echo
