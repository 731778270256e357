#!/bin/sh
# docs.sh - the examples of the manual run, and their output held to what
# the documents show (make check-docs; make check runs it too).
#
#   tests/docs.sh [--bless] [FILE.md...]
#
# Without FILEs: README.md, doc/tutorial.md and doc/classroom.md.  Prints
# a diff for each example whose output differs, the examples skipped and
# why, and ends with "docs: N passed, N failed, N skipped"; exits 1 when
# any failed.  doc/engine.md ("How the tests use it") says the same for
# the writer of a document.
#
# What is run.  A code block is fenced (``` or ~~~) or indented (four
# spaces or more, after a blank line).  In it, a line that starts with
# "$ " is a command, and the lines after it, up to the next "$ " line or
# the end of the block, are its output, without the indent of its "$ "
# line; blank lines at the end of an output do not count.  The lines
# before a block's first "$ " line, and blocks with none, are not run.
# Each document runs in a scratch copy of the repository (all but build/
# and .git/; build/ is a link to the directory of the gdl under test,
# $GDL or build/gdl, and ../shared a link to the real one), one command
# after another from its top folder, so that a file one command writes
# (puzzles/mypuzzle.kif, noframe.kif) is there for the next.  Each
# command is one line given to `bash -c` there: pipes, `;`, `$(...)` and
# redirections work, a `cd` lasts for its own command only, `gdl` alone
# is the gdl under test, and standard input is empty.  Standard output is
# line-buffered (stdbuf -oL), as in a terminal, and standard error goes
# to the same place, so that the two interleave as a reader sees them.
#
# How output is compared.  Line by line, trailing spaces ignored, after
# the masks below on both sides.  A line "..." in the document stands for
# any number of lines, none included, so that long output is trimmed
# where the text says so.  Exit statuses are not compared: a document
# shows one with `; echo "exit $?"`.
#
# Masks: numbers that differ from one machine or run to the next.  Where
# one of these extended regular expressions (awk's) matches, the number
# it starts with (the JSON: the number after the key) becomes "#":
#   [0-9]+\.[0-9]+ (s|ms|µs)([^A-Za-z]|$)        times: 0.092 s, 1.5 ms
#   [0-9]+(\.[0-9]+)? (B|kB|KB|MB|GB|KiB|MiB|GiB)([^A-Za-z]|$)
#                                                memory: 0.8 MB peak
#   [0-9]+(\.[0-9]+)? [a-z]+/s                   rates: 81234 states/s
#   "(seconds|peak_memory_bytes|bytes_per_state|threads|states_per_second|playouts_per_second|setup_ms)": [0-9]+(\.[0-9]+)?
#                                                the same in --json
# A line that differs only there passes, and --bless leaves it as the
# document has it.
#
# Markers.  An HTML comment on a line of its own, before a code block
# (blank lines between), says how to run that block; nothing else may
# come between them:
#   <!-- docs: skip REASON -->   the block's commands are not run (say
#                                why: interactive, needs a server, ...);
#                                the summary lists them with the reason
#   <!-- docs: file PATH -->     the block is a file to save ("save it as
#                                PATH"): written there, not run
#   <!-- docs: run COMMAND -->   COMMAND runs first, its output unseen: an
#                                edit the text asks the reader to make
#                                (delete the ')' on line 21: a sed -i);
#                                its failure fails the test
#   <!-- docs: input             the block's one command reads these lines
#   LINE...                      as typed at a terminal: each is written
#   -->                          into the output after the prompt that
#                                reads it (a line's start up to "> "), as
#                                a terminal echoes it (gdl play)
#
# --bless writes into the documents the output the commands give now, for
# each example that fails: a line equal to the document's but for masked
# numbers stays as it is; the rest is the new output.  Where the document
# trims with "...", the lines before the first "..." are the output's
# first lines, those after the last its last lines, and those between are
# as many lines of the output, from where most of them are found again
# (all, where they are unchanged); where none is, they are left as they
# were, with a warning.  Read the diff before committing it.
#
#   tests/docs.sh --self-test
#
# runs tests/docs/selftest.md, which uses each feature above, and checks
# that a changed output fails, that --bless writes the document back as
# it was, that masked numbers do not count, and that a misplaced marker
# is an error (make check-docs runs it first).
set -u
GDL=${GDL:-build/gdl}
if [ "${1:-}" = "--self-test" ]; then
  st=$(mktemp -d "${TMPDIR:-/tmp}/docs-self.XXXXXX")
  trap 'rm -rf "$st"' EXIT INT TERM
  fixture=tests/docs/selftest.md
  bad() { echo "docs self-test: $*"; exit 1; }
  sh "$0" "$fixture" > "$st/out" 2>&1 ||
    { cat "$st/out"; bad "$fixture does not pass"; }
  tail -1 "$st/out" | grep -qx 'docs: 6 passed, 0 failed, 1 skipped' ||
    bad "$fixture: $(tail -1 "$st/out")"
  # two outputs changed: both fail, and --bless undoes the change
  sed 's/^    heard two$/    heard 2/; s/^    8$/    80/' "$fixture" > "$st/changed.md"
  sh "$0" "$st/changed.md" > "$st/out" 2>&1 && bad "a changed output passes"
  [ "$(grep -c '^FAIL' "$st/out")" = 2 ] ||
    { cat "$st/out"; bad "not the two changed outputs failed"; }
  sh "$0" --bless "$st/changed.md" > /dev/null 2>&1
  cmp -s "$fixture" "$st/changed.md" ||
    { diff "$fixture" "$st/changed.md"; bad "--bless did not write it back"; }
  # masked numbers: other values pass, and --bless keeps the document's
  sed 's/0\.000 s, 0\.1 MB/9.999 s, 77.0 MB/; s/"threads": 1/"threads": 64/' \
    "$fixture" > "$st/masked.md"
  sh "$0" "$st/masked.md" > "$st/out" 2>&1 ||
    { cat "$st/out"; bad "a masked number counts"; }
  # in an example that fails, a line equal but for masked numbers stays
  # as the document has it; a line that changed is written as printed
  sed 's/"threads": 1}/"threads": 64}/; s/MB peak, 5 states/MB PEAK, 5 states/' \
    "$fixture" > "$st/masked.md"
  sh "$0" --bless "$st/masked.md" > /dev/null 2>&1
  sed 's/"threads": 1}/"threads": 64}/; s/; 0\.000 s, 0\.1 MB peak, 5 states/; 0.123 s, 4.5 MB peak, 812 states/' \
    "$fixture" | cmp -s - "$st/masked.md" ||
    { diff "$fixture" "$st/masked.md"; bad "--bless: not the lines expected"; }
  # a marker with text, not a block, after it
  sed '/^<!-- docs: run /{n;s/^$/prose/;}' "$fixture" > "$st/marker.md"
  sh "$0" "$st/marker.md" > "$st/out" 2>&1 && bad "a misplaced marker passes"
  grep -q 'must be followed by a code block' "$st/out" ||
    { cat "$st/out"; bad "no message for a misplaced marker"; }
  echo "docs self-test: passed"
  exit 0
fi
bless=0
if [ "${1:-}" = "--bless" ]; then
  bless=1
  shift
fi
[ $# -gt 0 ] || set -- README.md doc/tutorial.md doc/classroom.md
if [ ! -x "$GDL" ]; then
  echo "docs.sh: no gdl binary at $GDL (run make first)" >&2
  exit 2
fi
root=$(pwd)
bindir=$(cd "$(dirname "$GDL")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/bin"
ln -s "$bindir/$(basename "$GDL")" "$tmp/bin/gdl"
mkdir -p "$tmp/work"
# ../shared (the corpus) from the scratch copies, as from the repository
[ -d ../shared ] && ln -s "$(cd ../shared && pwd)" "$tmp/work/shared"
export LC_ALL=C

# ---- the documents read: blocks, commands, markers -----------------------
# Writes, for the document on its input, one action a line to
# $out/actions (tab-separated) and each case's files to $out/K.*:
#   F K PATH             write K.file to PATH
#   R K LINE             run K.run (a marker's command) from line LINE
#   C K LINE FROM TO IND run K.cmd (at LINE), compare with K.want, the
#                        document's lines FROM..TO (TO = LINE: none),
#                        indented IND spaces; K.input when given
#   S K LINE REASON      the command at LINE is skipped
#   E LINE MESSAGE       the document is malformed there
PARSE='
function blank(s) { return s ~ /^[ \t]*$/ }
function indent_of(s,   n) { n = match(s, /[^ ]/); return n ? n - 1 : length(s) }
function strip(s, n,   k) {
  k = indent_of(s); if (k > n) k = n
  return substr(s, k + 1)
}
function emit(s) { print s > (out "/actions") }
function err(line, msg) { emit("E\t" line "\t" msg); bad = 1 }
function marker(text, line,   kind, arg) {
  sub(/^<!-- docs:[ \t]*/, "", text)
  sub(/[ \t]*-->[ \t]*$/, "", text)
  kind = text; sub(/[ \t\n].*/, "", kind)
  arg = substr(text, length(kind) + 1); sub(/^[ \t]+/, "", arg)
  if (kind == "skip" || kind == "file" || kind == "run") {
    if (arg == "" || arg ~ /\n/) { err(line, "docs: " kind " needs its argument on the same line"); return }
  } else if (kind == "input") {
    sub(/^\n/, "", arg); sub(/\n+$/, "", arg)
  } else {
    err(line, "unknown marker docs: " kind); return
  }
  npend++; PK[npend] = kind; PA[npend] = arg; PL[npend] = line
}
function end_block(   i, j, k, ind, c, first, last, n, ncmd, skip, file, input, cl) {
  skip = ""; file = ""; input = ""; ncmd = 0
  for (i = 1; i <= npend; i++) {
    if (PK[i] == "skip") skip = PA[i]
    else if (PK[i] == "file") file = PA[i]
    else if (PK[i] == "input") { input = PA[i]; il = PL[i] }
    else if (PK[i] == "run") {
      k = ++ncase; printf "%s\n", PA[i] > (out "/" k ".run"); close(out "/" k ".run")
      emit("R\t" k "\t" PL[i])
    }
  }
  npend = 0
  if (file != "") {
    k = ++ncase
    for (i = 1; i <= nb; i++) print strip(B[i], bind) > (out "/" k ".file")
    close(out "/" k ".file")
    emit("F\t" k "\t" file)
    nb = 0; return
  }
  for (i = 1; i <= nb; i++) {
    if (strip(B[i], bind) !~ /^ *\$ /) continue
    ncmd++
    ind = indent_of(B[i])
    c = B[i]; sub(/^ *\$ /, "", c)
    k = ++ncase; cl = BL[i]
    if (skip != "") { emit("S\t" k "\t" cl "\t" skip); continue }
    printf "%s\n", c > (out "/" k ".cmd"); close(out "/" k ".cmd")
    # its output: up to the next command or the end, blank lines at the
    # end left out
    for (j = i + 1; j <= nb && strip(B[j], bind) !~ /^ *\$ /; j++) ;
    last = j - 1
    while (last > i && blank(B[last])) last--
    printf "" > (out "/" k ".want")
    for (n = i + 1; n <= last; n++) print strip(B[n], ind) > (out "/" k ".want")
    close(out "/" k ".want")
    if (input != "") {
      printf "%s\n", input > (out "/" k ".input"); close(out "/" k ".input")
    }
    emit("C\t" k "\t" cl "\t" (cl + 1) "\t" BL[last] "\t" ind)
  }
  if (input != "" && ncmd != 1) err(il, "docs: input is for a block of one command")
  nb = 0
}
BEGIN { prevblank = 1; ncase = 0; npend = 0 }
{
  line = $0
  if (fence) {
    if (line ~ /^ *(```|~~~)/ && indent_of(line) <= 3) { end_block(); fence = 0; prevblank = 0; next }
    B[++nb] = line; BL[nb] = NR; next
  }
  if (inblock) {
    if (blank(line) || line ~ /^    /) { B[++nb] = line; BL[nb] = NR; next }
    end_block(); inblock = 0
  }
  if (inmarker) {
    mtext = mtext "\n" line
    if (line ~ /-->/) { marker(mtext, mline); inmarker = 0 }
    prevblank = 0; next
  }
  if (line ~ /^<!-- docs:/) {
    mtext = line; mline = NR
    if (line ~ /-->/) marker(mtext, mline); else inmarker = 1
    prevblank = 0; next
  }
  if (line ~ /^ *(```|~~~)/ && indent_of(line) <= 3) {
    fence = 1; nb = 0; bind = indent_of(line); next
  }
  if (line ~ /^    / && !blank(line) && prevblank) {
    inblock = 1; nb = 1; B[1] = line; BL[1] = NR; bind = 4; next
  }
  if (!blank(line) && npend > 0) {
    err(PL[1], "a docs: marker must be followed by a code block (line " NR " is not one)")
    npend = 0
  }
  prevblank = blank(line)
}
END {
  if (inblock || fence) end_block()
  if (inmarker) err(mline, "a docs: marker that never ends (-->)")
  if (npend > 0) err(PL[1], "a docs: marker with no code block after it")
  printf "" >> (out "/actions")
}'

# ---- output compared, and made anew for --bless -------------------------
# awk -v mode=cmp|bless -f - WANT GOT: cmp exits 0 when GOT matches WANT;
# bless prints the lines for the document (exit 0, or 3 when a part
# between "..." lines was not found and is left as it was).
COMPARE='
function rtrim(s) { sub(/[ \t]+$/, "", s); return s }
function mask1(s, re,   out, m, rs, rl) {
  out = ""
  while (match(s, re)) {
    rs = RSTART; rl = RLENGTH
    m = substr(s, rs, rl)
    if (match(m, /[0-9]+(\.[0-9]+)?/))
      m = substr(m, 1, RSTART - 1) "#" substr(m, RSTART + RLENGTH)
    out = out substr(s, 1, rs - 1) m
    s = substr(s, rs + rl)
  }
  return out s
}
function masked(s,   i) {
  s = rtrim(s)
  for (i = 1; i <= nre; i++) s = mask1(s, RE[i])
  return s
}
function same(p, a) { return masked(p) == masked(a) }
# the part of W (lines s..e) found in G from g0, ending by g1: its first
# line, or 0
function find(s, e, g0, g1,   j, i, ok) {
  for (j = g0; j + (e - s) <= g1; j++) {
    ok = 1
    for (i = 0; i <= e - s; i++) if (!same(W[s + i], G[j + i])) { ok = 0; break }
    if (ok) return j
  }
  return 0
}
# where the part of W (lines s..e) stands in G from g0 to g1: the place
# where most of its lines are found again (the first of the best), or 0
# where none is
function align(s, e, g0, g1,   j, i, n, best, bestn) {
  best = 0; bestn = 0
  for (j = g0; j <= g1; j++) {
    n = 0
    for (i = 0; i <= e - s && j + i <= g1; i++) if (same(W[s + i], G[j + i])) n++
    if (n > bestn) { bestn = n; best = j }
  }
  return best
}
function keep(p, a) { return same(p, a) ? rtrim(p) : rtrim(a) }
BEGIN {
  nre = 0
  RE[++nre] = "[0-9]+\\.[0-9]+ (s|ms|µs)([^A-Za-z]|$)"
  RE[++nre] = "[0-9]+(\\.[0-9]+)? (B|kB|KB|MB|GB|KiB|MiB|GiB)([^A-Za-z]|$)"
  RE[++nre] = "[0-9]+(\\.[0-9]+)? [a-z]+/s"
  RE[++nre] = "\"(seconds|peak_memory_bytes|bytes_per_state|threads|states_per_second|playouts_per_second|setup_ms)\": [0-9]+(\\.[0-9]+)?"
}
FILENAME == ARGV[1] { W[++nw] = $0; next }
{ G[++ng] = $0 }
END {
  while (nw > 0 && rtrim(W[nw]) == "") nw--
  while (ng > 0 && rtrim(G[ng]) == "") ng--
  # the parts between "..." lines: S[k]..E[k]
  np = 1; S[1] = 1
  for (i = 1; i <= nw; i++)
    if (rtrim(W[i]) ~ /^ *\.\.\.$/) { E[np] = i - 1; S[++np] = i + 1 }
  E[np] = nw
  if (mode == "cmp") {
    if (np == 1) {
      if (nw != ng) exit 1
      for (i = 1; i <= nw; i++) if (!same(W[i], G[i])) exit 1
      exit 0
    }
    head = E[1]; tail = E[np] - S[np] + 1
    if (head + tail > ng) exit 1
    for (i = 1; i <= head; i++) if (!same(W[i], G[i])) exit 1
    for (i = 0; i < tail; i++) if (!same(W[S[np] + i], G[ng - tail + 1 + i])) exit 1
    at = head + 1
    for (k = 2; k < np; k++) {
      if (E[k] < S[k]) continue
      j = find(S[k], E[k], at, ng - tail)
      if (!j) exit 1
      at = j + E[k] - S[k] + 1
    }
    exit 0
  }
  # bless
  rc = 0
  if (np == 1) {
    for (i = 1; i <= ng; i++) print (i <= nw ? keep(W[i], G[i]) : rtrim(G[i]))
    exit 0
  }
  head = E[1]; if (head > ng) head = ng
  tail = E[np] - S[np] + 1; if (tail > ng - head) tail = ng - head
  for (i = 1; i <= head; i++) print keep(W[i], G[i])
  at = head + 1; lim = ng - tail
  for (k = 2; k < np; k++) {
    print "..."
    if (E[k] < S[k]) continue
    j = align(S[k], E[k], at, lim)
    if (j) {
      for (i = 0; i <= E[k] - S[k] && j + i <= lim; i++) print keep(W[S[k] + i], G[j + i])
      at = j + i
    } else {
      for (i = S[k]; i <= E[k]; i++) print rtrim(W[i])
      rc = 3
    }
  }
  print "..."
  for (i = 0; i < tail; i++) print keep(W[S[np] + i], G[ng - tail + 1 + i])
  exit rc
}'

# Each input line written after the prompt that reads it (a line's start
# up to "> "), as a terminal echoes what is typed.
ECHO='
FILENAME == ARGV[1] { IN[++nin] = $0; next }
{
  line = $0
  while (k < nin && match(line, /^[^ >]*> /)) {
    print substr(line, 1, RLENGTH) IN[++k]
    line = substr(line, RLENGTH + 1)
  }
  print line
}'

# ---- run -----------------------------------------------------------------
pass=0; fail=0; skip=0; blessed=0
skipped=
for doc in "$@"; do
  if [ ! -f "$doc" ]; then
    echo "docs.sh: no document $doc" >&2
    fail=$((fail + 1))
    continue
  fi
  cases="$tmp/cases/$doc"
  scratch="$tmp/work/$(echo "$doc" | tr / _)"
  mkdir -p "$cases" "$scratch"
  tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$scratch" -xf -
  ln -s "$bindir" "$scratch/build"
  awk -v out="$cases" "$PARSE" "$doc"
  edits="$cases/edits"
  : > "$edits"
  tab=$(printf '\t')
  while IFS="$tab" read -r kind k a b c d; do
    case $kind in
      E)
        echo "FAIL $doc:$k: $a"
        fail=$((fail + 1));;
      F)
        mkdir -p "$scratch/$(dirname "$a")"
        cp "$cases/$k.file" "$scratch/$a";;
      R)
        if ! (cd "$scratch" && bash "$cases/$k.run") > "$cases/$k.out" 2>&1; then
          echo "FAIL $doc:$a: the marker's command failed: $(cat "$cases/$k.run")"
          sed 's/^/  /' "$cases/$k.out" | head -20
          fail=$((fail + 1))
        fi;;
      S)
        skip=$((skip + 1))
        skipped="$skipped$doc:$a: $(sed -n "${a}p" "$doc" | sed 's/^ *//')
    ($b)
";;
      C)
        in=/dev/null
        [ -f "$cases/$k.input" ] && in="$cases/$k.input"
        (cd "$scratch" && PATH="$tmp/bin:$PATH" exec timeout 60 stdbuf -oL \
           bash -c "$(cat "$cases/$k.cmd")") < "$in" > "$cases/$k.raw" 2>&1
        if [ -f "$cases/$k.input" ]; then
          awk "$ECHO" "$cases/$k.input" "$cases/$k.raw" > "$cases/$k.got"
        else
          cp "$cases/$k.raw" "$cases/$k.got"
        fi
        if awk -v mode=cmp "$COMPARE" "$cases/$k.want" "$cases/$k.got"; then
          pass=$((pass + 1))
          continue
        fi
        # what the document would show now (--bless writes it)
        awk -v mode=bless "$COMPARE" "$cases/$k.want" "$cases/$k.got" > "$cases/$k.new"
        lost=$?
        if [ $bless = 1 ]; then
          [ $lost = 3 ] && echo "docs.sh: $doc:$a: a part between '...' lines is not in the output: left as it was, fix it by hand" >&2
          printf '%s\t%s\t%s\t%s\n' "$a" "$c" "$d" "$cases/$k.new" >> "$edits"
          blessed=$((blessed + 1))
          continue
        fi
        fail=$((fail + 1))
        echo "FAIL $doc:$a: \$ $(cat "$cases/$k.cmd")"
        if [ $lost = 3 ] || cmp -s "$cases/$k.want" "$cases/$k.new"; then
          diff -u --label "$doc (shown)" --label "output (now)" \
            "$cases/$k.want" "$cases/$k.got" | head -60
        else                   # the "..." kept: only the lines that differ
          diff -u --label "$doc (shown)" --label "$doc (with --bless)" \
            "$cases/$k.want" "$cases/$k.new" | head -60
        fi;;
    esac
  done < "$cases/actions"
  if [ $bless = 1 ] && [ -s "$edits" ]; then
    # each command's output lines (its line + 1 .. TO) replaced, indented
    awk -F '\t' '
      FILENAME == ARGV[1] { AT[$1] = $2; IND[$1] = $3; NEW[$1] = $4; next }
      {
        print
        if (FNR in AT) {
          for (pad = ""; length(pad) < IND[FNR]; ) pad = pad " "
          while ((getline l < NEW[FNR]) > 0) print (l == "" ? "" : pad l)
          close(NEW[FNR])
          skipto = AT[FNR]
          while (FNR < skipto && (getline) > 0) ;
        }
      }' "$edits" "$doc" > "$cases/doc.new" && cat "$cases/doc.new" > "$doc"
    echo "docs.sh: blessed $(wc -l < "$edits") example(s) in $doc"
  fi
done
if [ -n "$skipped" ]; then
  echo "skipped:"
  printf '%s' "$skipped" | sed 's/^/  /'
fi
if [ $bless = 1 ]; then
  echo "docs: $pass passed, $blessed blessed, $fail failed, $skip skipped"
else
  echo "docs: $pass passed, $fail failed, $skip skipped"
fi
[ $fail -eq 0 ]
