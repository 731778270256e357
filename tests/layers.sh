#!/bin/sh
# layers.sh - the module map of doc/engine.md (section 12) held to the
# code: no source file directly in engine/, every source file in the map;
# the files of an engine/ folder (a layer) together in the map; each file
# includes only the headers the map lists, none of a folder after its
# own; and no object file calls a function defined in a file below it in
# the map (a lower layer never calls a higher one, no two files call
# each other).  Reads the objects in B (default build) with nm.
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
# no source directly in engine/: a folder a layer
for f in engine/*.c; do
  [ -e "$f" ] && { echo "layers: $f is not in a layer's folder"; fail=1; }
done
# each engine/ folder's files together; its rank is its first row's
awk '$2 ~ /^engine\// { split($2, p, "/"); d = p[2]
       if (d != last && (d in seen)) print "layers: the rows of engine/" d "/ are not together in the map"
       if (!(d in seen)) seen[d] = ++n; last = d }' "$tmp/map" > "$tmp/apart"
[ -s "$tmp/apart" ] && { cat "$tmp/apart"; fail=1; }
awk '$2 ~ /^engine\// { split($2, p, "/"); if (!(p[2] in r)) r[p[2]] = ++n }
     END { for (d in r) print d, r[d] }' "$tmp/map" > "$tmp/folders"
# every source file is in the map, and every file of the map exists
ls engine/*/*.c grammar/*.l grammar/*.y | sort > "$tmp/src"
awk '{ print $2 }' "$tmp/map" | sort > "$tmp/mapped"
for f in $(comm -23 "$tmp/src" "$tmp/mapped"); do
  echo "layers: $f is not in the map ($DOC, section 12)"; fail=1
done
for f in $(comm -13 "$tmp/src" "$tmp/mapped"); do
  echo "layers: the map names $f, which does not exist"; fail=1
done
# includes: as the map says, and none of a folder after the file's own
while read -r rank f incs; do
  [ -f "$f" ] || continue
  case $f in engine/*/*)
    own=$(echo "$f" | cut -d/ -f2)
    for h in $incs; do
      case $h in */*) ;; *) continue ;; esac
      awk -v a="$own" -v b="${h%%/*}" -v f="$f" -v h="$h" \
        '$1 == a { ra = $2 } $1 == b { rb = $2 }
         END { if (rb == "" || rb > ra) print "layers: " f " includes " h ", of a folder after its own" }' \
        "$tmp/folders" >> "$tmp/upinc"
    done ;;
  esac
  have=$(sed -n 's/^#include "\(.*\)".*/\1/p' "$f" | sort | tr '\n' ' ')
  want=$(echo $incs | tr ' ' '\n' | sort | tr '\n' ' ')
  if [ "$have" != "$want" ]; then
    echo "layers: $f includes $have; the map says $want"; fail=1
  fi
done < "$tmp/map"
[ -s "$tmp/upinc" ] && { cat "$tmp/upinc"; fail=1; }
# calls: who defines each symbol, then each object's undefined symbols
while read -r rank f incs; do
  o=$B/$(basename "$f" | sed 's/\.[cly]$//').o
  # gdl-mpi's object exists only where mpicc does (make mpi)
  [ "$f" = engine/bind/mpi.c ] && [ ! -f "$o" ] && continue
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
