#!/bin/sh
# pdb_cache.sh - gdl solve --pdb-cache DIR, the pattern databases kept
# between runs (engine/analysis/pdb_cache.c):
#   - a run with an empty DIR builds the tables and writes them (a file
#     each, no temporary file left); a second run reads them all
#     ("patterns_cached" = "patterns"), and both give the plan, length
#     and states expanded of a run without the cache (astar on the
#     8-puzzle and the 15-puzzle, idastar on the 8-puzzle);
#   - another puzzle (the 8-puzzle with its tiles' homes moved: another
#     goal) given the same DIR reads none of its tables, builds its own
#     and gets the length bfs gets;
#   - a file truncated, one with a byte of its table changed, and one of
#     another format version are not trusted: the tables are built again
#     (none read), the plan is the same, and the next run reads them;
#   - a DIR that cannot be made (under a regular file), and where not
#     root one without write permission: the solve succeeds (exit 0, the
#     same plan) with one warning line on stderr;
#   - two runs at once on an empty DIR both succeed and leave whole
#     files that a third run reads.
#
#   tests/pdb_cache.sh
#
# Ends with 'pdb_cache: N passed, N failed'.
GDL=${GDL:-build/gdl}
pass=0; fail=0
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
E8=puzzles/eight-puzzle-31.kif
F15=puzzles/fifteen-puzzle-34.kif

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
field() { sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p" "$1" | tr -d '"'; }
plan() { sed -n 's/.*"plan": \[\([^]]*\)\].*/\1/p' "$1"; }
# the verdict, length, plan and states expanded of a result
same() { # NAME A B
  if [ "$(field "$2" status)" = solved ] &&
     [ "$(field "$2" length)" = "$(field "$3" length)" ] &&
     [ "$(plan "$2")" = "$(plan "$3")" ] &&
     [ "$(field "$2" expanded)" = "$(field "$3" expanded)" ]; then ok
  else bad "$1: $(field "$2" status) $(field "$2" length) $(field "$2" expanded) vs $(field "$3" status) $(field "$3" length) $(field "$3" expanded)"
  fi
}
cached() { # NAME FILE WANT ("all" or a number)
  p=$(field "$2" patterns); c=$(field "$2" patterns_cached)
  w=$3; [ "$w" = all ] && w=$p
  if [ -n "$p" ] && [ "$p" -gt 0 ] && [ "$c" = "$w" ]; then ok
  else bad "$1: $c of ${p:-?} tables read from the cache, wanted $3"; fi
}
solve() { # OUT ARGS...: the JSON into OUT, stderr into OUT.err
  out=$1; shift
  "$GDL" solve --json "$@" > "$out" 2> "$out.err"
}

# ---- the same plan, length and states, the tables read again ----------
for c in "astar $E8" "idastar $E8" "astar $F15"; do
  set -- $c; a=$1; f=$2; n=$(basename "$f" .kif)-$a
  d=$tmp/cache-$n
  solve "$tmp/$n.none" -a "$a" "$f"
  solve "$tmp/$n.cold" -a "$a" --pdb-cache "$d" "$f"
  solve "$tmp/$n.warm" -a "$a" --pdb-cache "$d" "$f"
  same "$n: cold cache" "$tmp/$n.cold" "$tmp/$n.none"
  same "$n: warm cache" "$tmp/$n.warm" "$tmp/$n.none"
  cached "$n: cold cache" "$tmp/$n.cold" 0
  cached "$n: warm cache" "$tmp/$n.warm" all
  nf=$(ls "$d" | grep -c '^pdb-.*\.tab$')
  [ "$nf" = "$(field "$tmp/$n.warm" patterns)" ] && ok ||
    bad "$n: $nf files in the cache for $(field "$tmp/$n.warm" patterns) tables"
  [ -z "$(ls -A "$d" | grep -v '^pdb-.*\.tab$')" ] && ok ||
    bad "$n: other files left in the cache: $(ls -A "$d")"
  [ ! -s "$tmp/$n.warm.err" ] && ok || bad "$n: stderr: $(cat "$tmp/$n.warm.err")"
done
d8=$tmp/cache-eight-puzzle-31-astar

# ---- the text summary says so ---------------------------------------
"$GDL" solve -a astar --pdb-cache "$d8" "$E8" > "$tmp/text" 2>&1
grep -q '; 2 pattern databases (2 read from the cache)' "$tmp/text" && ok ||
  bad "text summary: $(tail -1 "$tmp/text")"

# ---- another goal: its own tables ---------------------------------------
# (the blank's home moved, all the tiles' with it: no table read; and
# tiles 1, 2 and 3 of the top row turned round, which leaves the first
# pattern's groups, values and edges as they were, only its goal values
# tell the tables apart: it is built, and the second pattern's, tiles 7
# and 8 with the same goals, the same abstract game, is read)
i=0
for moves in \
  "0:1 1 1/1 1 blank;1 2 2/1 2 1;1 3 3/1 3 2;2 1 4/2 1 3;2 2 5/2 2 4;2 3 6/2 3 5;3 1 7/3 1 6;3 2 8/3 2 7;3 3 blank/3 3 8" \
  "1:1 1 1/1 1 2;1 2 2/1 2 3;1 3 3/1 3 1"; do
  want=${moves%%:*}; moves=${moves#*:}
  i=$((i + 1)); other=$tmp/eight-other-goal-$i.kif
  script=$(echo "$moves" | tr ';' '\n' |
    sed 's|^\(.*\)/\(.*\)$|s/^(home \1)/(home \2)/|')
  sed "$script" "$E8" > "$other"
  if cmp -s "$other" "$E8"; then bad "other goal $i: the sed changed nothing"; fi
  before=$(ls "$d8" | wc -l)
  solve "$tmp/other.astar" -a astar --pdb-cache "$d8" "$other"
  solve "$tmp/other.bfs" -a bfs "$other"
  cached "other goal $i" "$tmp/other.astar" "$want"
  if [ "$(field "$tmp/other.bfs" status)" = solved ] &&
     [ "$(field "$tmp/other.astar" length)" = "$(field "$tmp/other.bfs" length)" ] &&
     [ "$(field "$tmp/other.bfs" length)" != "$(field "$tmp/eight-puzzle-31-astar.none" length)" ]; then ok
  else bad "other goal $i: astar $(field "$tmp/other.astar" length), bfs $(field "$tmp/other.bfs" status) $(field "$tmp/other.bfs" length)"; fi
  after=$(ls "$d8" | wc -l)
  [ "$after" -gt "$before" ] && ok ||
    bad "other goal $i: no table of its own written ($before, $after files)"
done
# ... and the first puzzle still reads its own
solve "$tmp/again" -a astar --pdb-cache "$d8" "$E8"
cached "first goal again" "$tmp/again" all
same "first goal again" "$tmp/again" "$tmp/eight-puzzle-31-astar.none"

# ---- damaged files: built again, not trusted ----------------------------
d=$tmp/damaged
solve "$tmp/dm.cold" -a astar --pdb-cache "$d" "$F15"
i=0
for t in "$d"/pdb-*.tab; do
  sz=$(wc -c < "$t")
  case $i in
    0) head -c $((sz - 1)) "$t" > "$t.x" ;;                 # truncated
    1) { head -c $((sz / 2)) "$t"; printf '\001'          # a table byte
         tail -c $((sz - sz / 2 - 1)) "$t"; } > "$t.x" ;;
    *) { head -c 8 "$t"; printf '\377\000\000\000'         # the version
         tail -c $((sz - 12)) "$t"; } > "$t.x" ;;
  esac
  cmp -s "$t" "$t.x" && bad "damaged: file $i unchanged"
  mv "$t.x" "$t"
  i=$((i + 1))
done
[ "$i" -ge 2 ] && ok || bad "damaged: only $i tables written"
solve "$tmp/dm.again" -a astar --pdb-cache "$d" "$F15"
cached "damaged files" "$tmp/dm.again" 0
same "damaged files" "$tmp/dm.again" "$tmp/fifteen-puzzle-34-astar.none"
solve "$tmp/dm.mended" -a astar --pdb-cache "$d" "$F15"
cached "damaged files written again" "$tmp/dm.mended" all
same "damaged files written again" "$tmp/dm.mended" "$tmp/fifteen-puzzle-34-astar.none"

# ---- a directory that cannot be written ---------------------------------
: > "$tmp/plainfile"
unwritable="$tmp/plainfile/cache"
if [ "$(id -u)" != 0 ]; then
  mkdir "$tmp/readonly" && chmod 555 "$tmp/readonly"
  unwritable="$unwritable $tmp/readonly $tmp/readonly/sub"
fi
for u in $unwritable; do
  solve "$tmp/uw" -a astar --pdb-cache "$u" "$E8"; rc=$?
  lines=$(grep -c . "$tmp/uw.err")
  if [ "$rc" = 0 ] && [ "$lines" = 1 ] &&
     grep -q '^gdl: warning: --pdb-cache: ' "$tmp/uw.err"; then ok
  else bad "unwritable $u: exit $rc, stderr: $(cat "$tmp/uw.err")"; fi
  same "unwritable $u" "$tmp/uw" "$tmp/eight-puzzle-31-astar.none"
  cached "unwritable $u" "$tmp/uw" 0
done

# ---- two runs at once ----------------------------------------------------
d=$tmp/together
solve "$tmp/t1" -a astar --pdb-cache "$d" "$E8" & p1=$!
solve "$tmp/t2" -a astar --pdb-cache "$d" "$E8" & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
[ "$r1$r2" = 00 ] && ok || bad "together: exits $r1 $r2"
same "together 1" "$tmp/t1" "$tmp/eight-puzzle-31-astar.none"
same "together 2" "$tmp/t2" "$tmp/eight-puzzle-31-astar.none"
solve "$tmp/t3" -a astar --pdb-cache "$d" "$E8"
cached "together, then" "$tmp/t3" all
[ -z "$(ls -A "$d" | grep -v '^pdb-.*\.tab$')" ] && ok ||
  bad "together: other files left: $(ls -A "$d")"

echo "pdb_cache: $pass passed, $fail failed"
[ "$fail" = 0 ]
