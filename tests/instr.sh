#!/bin/sh
# instr.sh - instructions per playout step, as callgrind counts them: the
# difference between `gdl bench --playouts N2` and `--playouts N1` over the
# difference in states, so that the set-up is left out.  Repeatable where
# seconds are not (tests/bench-notes.md says how the figures there were
# taken).
#
#   tests/instr.sh GAME.kif [N1 N2]       (default 200 600)
#
# GDL names the binary (default build/gdl).  For games that ground slowly
# under valgrind, build one with the long grounding budget:
#   make B=build/vg CFLAGS="-O2 -g -DGROUND_SECONDS=100" build/vg/gdl
#   GDL=build/vg/gdl tests/instr.sh ../shared/gdl-corpus/single/sudokuGrade1.kif
GDL=${GDL:-build/gdl}
g=$1
a=${2:-200}
b=${3:-600}
[ -n "$g" ] || { echo "usage: tests/instr.sh GAME.kif [N1 N2]" >&2; exit 2; }
# valgrind counts a `rep movsb` (glibc's memcpy of a few kB and up) one
# byte at a time; this keeps glibc to its vector loop
GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=1000000000
export GLIBC_TUNABLES
run() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$GDL" bench \
    --playouts "$1" "$g" 2>&1 |
    awk '/states, /{ for (i = 1; i <= NF; i++) if ($i == "states,") s = $(i - 1); sub(/\(/, "", s) }
         /engine /{ e = $0; sub(/.*engine /, "", e); sub(/;.*/, "", e) }
         /refs:/{ gsub(",", "", $4); r = $4 }
         END { print s, r, e }'
}
set -- $(run "$a") $(run "$b")
[ -n "$5" ] && [ "$4" -gt "$1" ] || { echo "instr.sh: no figures (is valgrind installed?)" >&2; exit 1; }
echo "$(basename "$g" .kif): $(( ($5 - $2) / ($4 - $1) )) instructions a step (engine $3; $1 and $4 states)"
