#!/bin/sh
# layers.sh - the module map of doc/engine.md (section 12) held to the
# code: every source file is in the map; each includes only the headers
# the map lists; and no object file calls a function defined in a file
# below it in the map (a lower layer never calls a higher one).  Reads
# the objects in B (default build) with nm.
#
#   tests/layers.sh [B]
B=${1:-build}
DOC=${DOC:-doc/engine.md}
NM=${NM:-nm}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# the map: "rank file includes..." in table order
awk '/^## 12\. Map/ { on = 1; next } /^## / { on = 0 }
     on && /^\| `/ { split($0, c, "|"); f = c[2]; gsub(/[ `]/, "", f)
                     print ++n, f, c[4] }' "$DOC" > "$tmp/map"
[ -s "$tmp/map" ] || { echo "layers: no map in $DOC" >&2; exit 2; }
fail=0
# every source file is in the map, and every file of the map exists
ls engine/*.c grammar/*.l grammar/*.y | sort > "$tmp/src"
awk '{ print $2 }' "$tmp/map" | sort > "$tmp/mapped"
for f in $(comm -23 "$tmp/src" "$tmp/mapped"); do
  echo "layers: $f is not in the map ($DOC, section 12)"; fail=1
done
for f in $(comm -13 "$tmp/src" "$tmp/mapped"); do
  echo "layers: the map names $f, which does not exist"; fail=1
done
# includes
while read -r rank f incs; do
  [ -f "$f" ] || continue
  have=$(sed -n 's/^#include "\(.*\)".*/\1/p' "$f" | sort | tr '\n' ' ')
  want=$(echo $incs | tr ' ' '\n' | sort | tr '\n' ' ')
  if [ "$have" != "$want" ]; then
    echo "layers: $f includes $have; the map says $want"; fail=1
  fi
done < "$tmp/map"
# calls: who defines each symbol, then each object's undefined symbols
while read -r rank f incs; do
  o=$B/$(basename "$f" | sed 's/\.[cly]$//').o
  # gdl-mpi's object exists only where mpicc does (make mpi)
  [ "$f" = engine/mpi.c ] && [ ! -f "$o" ] && continue
  [ -f "$o" ] || { echo "layers: no $o (build first)" >&2; exit 2; }
  echo "$rank $f $o"
done < "$tmp/map" > "$tmp/objs"
while read -r rank f o; do
  $NM -g --defined-only "$o" | awk -v r="$rank" -v f="$f" 'NF == 3 { print $3, r, f }'
done < "$tmp/objs" | sort > "$tmp/defs"
while read -r rank f o; do
  $NM -u "$o" | awk '{ print $NF }' | sort -u | join - "$tmp/defs" |
    awk -v r="$rank" -v f="$f" '$2 > r { print "layers: " f " calls " $1 " of " $3 ", a file below it in the map" }'
done < "$tmp/objs" > "$tmp/up"
if [ -s "$tmp/up" ]; then
  cat "$tmp/up"; fail=1
fi
n=$(wc -l < "$tmp/map")
if [ $fail = 0 ]; then
  echo "layers: $n files in order, no call upward"
else
  echo "layers: the code does not follow the map in $DOC (section 12)"
fi
exit $fail
