#!/bin/sh
# run.sh - runs one libFuzzer target of tests/fuzz for a while; `make fuzz`
# and `make fuzz-smoke` call it for each name in FUZZ_TARGETS.
#
#   tests/fuzz/run.sh [-j JOBS] [-t SECONDS] [-l MAXLEN] NAME SEEDDIR...
#
# Runs build/fuzz/fuzz_NAME (built by `make fuzz-build`) from inside
# build/fuzz/NAME/: the inputs it finds go to build/fuzz/NAME/corpus, a
# crash, leak or timeout is kept there as crash-*, leak-* or timeout-*,
# and tests/fuzz/regress/NAME (the inputs of bugs found before) and the
# SEEDDIRs (the public corpus, read in place) seed it, with
# tests/fuzz/NAME.dict for tokens where there is one, tests/fuzz/gdl.dict
# else.  With -j 2, two processes fuzz the same
# corpus (libFuzzer's -jobs and -workers), each logging to fuzz-N.log.
# FUZZ_OPTS adds libFuzzer options (e.g. FUZZ_OPTS=-use_value_profile=1).
#
# Ends with one line, "fuzz NAME: RUNS runs in S s (E exec/s), cov C ft F"
# per process (libFuzzer's own counts), and exits non-zero, with the
# artifact's name and how to replay it, when libFuzzer found anything.
J=1; T=60; L=4096
while getopts j:t:l: o; do
  case $o in
    j) J=$OPTARG;; t) T=$OPTARG;; l) L=$OPTARG;;
    *) exit 2;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-j JOBS] [-t SECONDS] [-l MAXLEN] NAME SEEDDIR..." >&2; exit 2; }
name=$1; shift
top=$(pwd)
bin=$top/build/fuzz/fuzz_$name
dir=$top/build/fuzz/$name
[ -x "$bin" ] || { echo "fuzz: $bin is missing (make fuzz-build)" >&2; exit 2; }
seeds=
# the target's regression inputs (tests/fuzz/regress/NAME/) run first
[ -d "tests/fuzz/regress/$name" ] && set -- "tests/fuzz/regress/$name" "$@"
for s in "$@"; do
  [ -d "$s" ] && seeds="$seeds $(cd "$s" && pwd)"
done
dict=$top/tests/fuzz/gdl.dict
[ -f "$top/tests/fuzz/$name.dict" ] && dict=$top/tests/fuzz/$name.dict
mkdir -p "$dir/corpus"
cd "$dir" || exit 2
rm -f fuzz-*.log
# -timeout: seconds one input may take; the budgets in the targets keep
# every input far below it, so a timeout is a finding (a loop that does
# not poll its limits)
set -- -max_total_time="$T" -max_len="$L" -timeout=25 -rss_limit_mb=2048 \
  -dict="$dict" -artifact_prefix=./ -print_final_stats=1 \
  $FUZZ_OPTS corpus $seeds
if [ "$J" -gt 1 ]; then
  "$bin" -jobs="$J" -workers="$J" "$@" > run.log 2>&1
  rc=$?
  logs=$(ls fuzz-*.log 2>/dev/null)
else
  "$bin" "$@" > fuzz-0.log 2>&1
  rc=$?
  logs=fuzz-0.log
fi
for f in $logs; do
  awk -v name="$name" '
    /DONE / { for (i = 1; i < NF; i++) { if ($i == "cov:") c = $(i + 1)
                                          if ($i == "ft:") ft = $(i + 1) } }
    /^Done [0-9]+ runs in / { runs = $2; secs = $5 }
    END { if (runs != "")
            printf "fuzz %s: %d runs in %d s (%d exec/s), cov %s ft %s\n",
                   name, runs, secs, secs ? runs / secs : 0, c, ft }' "$f"
done
if [ "$rc" -ne 0 ]; then
  for f in $logs; do
    grep -q -E "ERROR|SUMMARY" "$f" || continue
    echo "--- $dir/$f"
    grep -E -A 30 "==ERROR|runtime error|^SUMMARY|deadly signal|ALARM" "$f" | head -60
  done
  echo "fuzz $name: FAILED (exit $rc); logs: $dir/fuzz-*.log"
  for a in $(ls crash-* leak-* timeout-* oom-* 2>/dev/null); do
    echo "  replay: build/fuzz/fuzz_$name build/fuzz/$name/$a"
  done
fi
exit "$rc"
