#!/bin/sh
# korf.sh - Korf's 100 fifteen-puzzles (tests/korf100.txt), each written
# as a GDL file in the encoding of puzzles/fifteen-puzzle-34.kif (its
# rules as they are, the start and the goal layout made from the
# instance: the blank top left in the goal, as in Korf's paper) and
# solved by gdl with a time limit; prints a table (markdown) of each
# instance's outcome and the totals: solved with the published optimal
# length, time and states.  Not in make check: `make bench-korf`.
# The instances share their rules and goal, so their pattern databases
# are the same: they are kept in DIR (--pdb-cache; default build/korf-pdb
# beside the repository's gdl, -c '' for none), built by the first
# instance and read by the others (the seconds of the first include the
# build, of the others the read).
# Beside gdl, in the same run, the floor: tests/korf_ida.c, IDA* with the
# Manhattan distance written by hand for the 15-puzzle (KORF_IDA, default
# build/korf_ida; make bench-korf builds it), with the same limit; its
# columns are headed "hand".  Korf's own node counts are in korf100.txt.
#
#   tests/korf.sh [-s SECONDS] [-a ALGORITHM] [-o OPTIONS] [-c DIR]
#                 [FIRST [LAST]]
GDL=${GDL:-build/gdl}
T=60; A=auto; O=
here=$(dirname "$0")
C=$here/../build/korf-pdb
while getopts s:a:o:c: o; do
  case $o in
    s) T=$OPTARG;; a) A=$OPTARG;; o) O=$OPTARG;; c) C=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))
FIRST=${1:-1}; LAST=${2:-${1:-100}}
[ -n "$C" ] && O="$O --pdb-cache $C"
rules="$here/../puzzles/fifteen-puzzle-34.kif"
tmp=$(mktemp -d)
[ -n "$KORF_KEEP" ] && tmp=$KORF_KEEP && mkdir -p "$tmp" || trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p" "$1" | tr -d '"'; }
IDA=${KORF_IDA:-$here/../build/korf_ida}
[ -x "$IDA" ] || { echo "korf.sh: $IDA not built (make build/korf_ida)" >&2; exit 2; }
echo "| # | optimal | length | seconds | expanded | generated | states a second | hand length | hand seconds | hand generated | hand states a second |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
grep -v '^#' "$here/korf100.txt" | while read -r n opt nodes t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15; do
  [ "$n" -lt "$FIRST" ] || [ "$n" -gt "$LAST" ] && continue
  f=$tmp/korf$n.kif
  {
    echo ";; Korf's fifteen-puzzle $n (optimal $opt moves), written by tests/korf.sh"
    i=0
    for t in $t0 $t1 $t2 $t3 $t4 $t5 $t6 $t7 $t8 $t9 $t10 $t11 $t12 $t13 $t14 $t15; do
      [ "$t" = 0 ] && t=blank
      h=$i; [ "$i" = 0 ] && h=blank
      echo "(init (tile $((i / 4 + 1)) $((i % 4 + 1)) $t))"
      echo "(home $((i / 4 + 1)) $((i % 4 + 1)) $h)"
      i=$((i + 1))
    done
    grep -v '^;' "$rules" | grep -v '^(init ' | grep -v '^(home '
  } > "$f"
  # shellcheck disable=SC2086
  "$GDL" solve --json --quiet --max-seconds "$T" --algorithm "$A" $O "$f" > "$tmp/out" 2>"$tmp/err"
  st=$(field "$tmp/out" status)
  len=$(field "$tmp/out" length)
  s=$(field "$tmp/out" seconds)
  e=$(field "$tmp/out" expanded)
  g=$(field "$tmp/out" generated)
  [ "$st" = solved ] || len="${st:-error}"
  ok=no; [ "$len" = "$opt" ] && ok=yes
  rate=$(awk -v g="$g" -v s="$s" 'BEGIN { if (s > 0) printf "%.0f", g / s; else print "-" }')
  # the floor, by hand
  r=$("$IDA" -s "$T" $t0 $t1 $t2 $t3 $t4 $t5 $t6 $t7 $t8 $t9 $t10 $t11 $t12 $t13 $t14 $t15)
  hl=$(echo "$r" | sed -n 's/.*length=\([^ ]*\).*/\1/p')
  hg=$(echo "$r" | sed -n 's/.*generated=\([0-9]*\).*/\1/p')
  hs=$(echo "$r" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
  hok=no; [ "$hl" = "$opt" ] && hok=yes
  hrate=$(awk -v g="$hg" -v s="$hs" 'BEGIN { if (s > 0) printf "%.0f", g / s; else print "-" }')
  echo "| $n | $opt | $len | $s | $e | $g | $rate | $hl | $hs | $hg | $hrate |"
  echo "$ok $s $e $g $hok $hs $hg" >> "$tmp/sum"
done
[ -f "$tmp/sum" ] && awk -v t="$T" -v a="$A" '
  { n++; if ($1 == "yes") { ok++; s += $2; e += $3; g += $4 }
    S += $2; G += $4
    if ($5 == "yes") { hok++; hs += $6; hg += $7 }
    HS += $6; HG += $7 }
  END { printf "\n%d of %d solved with the published optimal length (%s, %s s each at most): %.1f s, %.0f states expanded, %.0f generated in all (those solved)\n", ok, n, a, t, s, e, g
        printf "gdl in all: %.1f s, %.0f states generated, %.0f a second\n", S, G, (S > 0 ? G / S : 0)
        printf "by hand (IDA*, the Manhattan distance): %d of %d solved within %s s each; in all %.1f s, %.0f states generated, %.0f a second\n", hok, n, t, HS, HG, (HS > 0 ? HG / HS : 0) }' "$tmp/sum"
