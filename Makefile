# gdl - a GDL rule engine and puzzle solver.  See README.md.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
GENWARN := -Wall -Wno-unused-parameter -Wno-unused-function -Wno-sign-compare
CPPFLAGS += -Igrammar -Ibuild -Iengine
LDLIBS  += -lm -pthread
# CaDiCaL (Debian's libcadical-dev), optional: --algorithm sat.  A compile
# probe, with the compiler of this build (clang under make asan).
HAVE_CADICAL := $(shell printf '\043include <ccadical.h>\nint main(void){ccadical_release(ccadical_init());return 0;}\n' | \
  $(CC) -x c - -o /dev/null -lcadical -lstdc++ -lm >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_CADICAL),1)
CPPFLAGS += -DGDL_HAVE_CADICAL
LDLIBS  += -lcadical -lstdc++ -lm
else
$(info gdl: CaDiCaL (libcadical-dev) not found: building without --algorithm sat)
endif
PREFIX  ?= /usr/local
BISON   ?= bison
FLEX    ?= flex
B       := build

# engine/: a folder a layer, lowest first (doc/engine.md, "Map"); the
# library is the first five, the command and the bindings sit on it.
# Objects go to $(B) by file name, which is unique across the folders.
LIBDIRS := core network analysis search teach
LIBSRC  := $(foreach d,$(LIBDIRS),$(wildcard engine/$(d)/*.c))
CLISRC  := $(wildcard engine/cli/*.c)
OBJ      = $(addprefix $(1)/,$(notdir $(2:.c=.o)))
LIBOBJ  := $(call OBJ,$(B),$(LIBSRC)) $(B)/parser.o $(B)/lexer.o \
           $(B)/infix_parser.o $(B)/infix_lexer.o
vpath %.c $(addprefix engine/,$(LIBDIRS) cli bind)

# The GGP player and match host (engine/cli/ggp.c, cli_player.c,
# cli_match.c; doc/ggp.md): the protocol always, the HTTP server where
# libmicrohttpd is and the match host where libcurl is, each detected by
# pkg-config; without one the build says so, and the command says so when
# it is asked for.
MHD_LIBS  := $(shell pkg-config --libs libmicrohttpd 2>/dev/null)
CURL_LIBS := $(shell pkg-config --libs libcurl 2>/dev/null)
ifneq ($(MHD_LIBS),)
$(B)/cli_player.o: CPPFLAGS += -DGDL_HAVE_MHD $(shell pkg-config --cflags libmicrohttpd)
GGPLIBS   += $(MHD_LIBS)
else
$(info gdl: libmicrohttpd not found (pkg-config libmicrohttpd): gdl player is left out)
endif
ifneq ($(CURL_LIBS),)
$(B)/cli_match.o: CPPFLAGS += -DGDL_HAVE_CURL $(shell pkg-config --cflags libcurl)
GGPLIBS   += $(CURL_LIBS)
else
$(info gdl: libcurl not found (pkg-config libcurl): gdl match is left out)
endif

all: $(B)/gdl $(B)/libgdl.a

$(B)/.dir:
	@mkdir -p $(B) && touch $@

$(B)/parser.c $(B)/parser.h &: grammar/parser.y | $(B)/.dir
	$(BISON) -Wall -Werror -o $(B)/parser.c --defines=$(B)/parser.h $<

$(B)/lexer.c $(B)/lexer.h &: grammar/lexer.l | $(B)/.dir
	$(FLEX) -o $(B)/lexer.c --header-file=$(B)/lexer.h $<

$(B)/parser.o: $(B)/parser.c $(B)/lexer.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(GENWARN) -MMD -c -o $@ $<

$(B)/lexer.o: $(B)/lexer.c $(B)/parser.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(GENWARN) -MMD -c -o $@ $<

# The infix front end: the same, with the prefix infix_ (grammar/infix.h).
$(B)/infix_parser.c $(B)/infix_parser.h &: grammar/infix_parser.y | $(B)/.dir
	$(BISON) -Wall -Werror -o $(B)/infix_parser.c --defines=$(B)/infix_parser.h $<

$(B)/infix_lexer.c $(B)/infix_lexer.h &: grammar/infix_lexer.l | $(B)/.dir
	$(FLEX) -o $(B)/infix_lexer.c --header-file=$(B)/infix_lexer.h $<

$(B)/infix_parser.o: $(B)/infix_parser.c $(B)/infix_lexer.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(GENWARN) -MMD -c -o $@ $<

$(B)/infix_lexer.o: $(B)/infix_lexer.c $(B)/infix_parser.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(GENWARN) -MMD -c -o $@ $<

$(B)/%.o: %.c $(B)/parser.h | $(B)/.dir
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(EXTRA_WARN) -MMD -c -o $@ $<

# made anew, so that an object whose source went (a file split or
# renamed) leaves the archive too
$(B)/libgdl.a: $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/gdl: $(call OBJ,$(B),$(CLISRC)) $(B)/libgdl.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(GGPLIBS) $(LDLIBS)

# ---- gdl-mpi: breadth-first search across machines (Open MPI) -------------
# Not part of `all`: the core build needs only a C compiler, flex and
# bison.  mpi.o is built with mpicc and the same warnings, and stays in
# $(B) so that tests/layers.sh holds it to the module map.
MPICC   ?= mpicc
# the wrappers compile with $(CC) (clang under make asan), not their own
MPIENV  := OMPI_CC=$(CC) MPICH_CC=$(CC)

$(B)/mpi.o: engine/bind/mpi.c $(B)/parser.h | $(B)/.dir
	$(MPIENV) $(MPICC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(EXTRA_WARN) -MMD -c -o $@ $<

# It links the command's objects but gdl's main (cli.o): solve's options and
# help are its row of the command table, which names every command.
$(B)/gdl-mpi: $(B)/mpi.o $(filter-out $(B)/cli.o,$(call OBJ,$(B),$(CLISRC))) \
              $(B)/libgdl.a
	$(MPIENV) $(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(GGPLIBS) $(LDLIBS)

mpi: $(B)/gdl-mpi

# The MPI tests alone (make check runs them too; they skip without mpirun).
check-mpi: all
	GDL_MPI=$(B)/gdl-mpi tests/mpi.sh

# ---- the browser playground ------------------------------------------------
# libgdl and engine/bind/web.c compiled to WebAssembly by Emscripten (Debian's
# emscripten 3.1.6), beside the page's sources from doc/playground/, the
# bundled puzzles and rule libraries, and Graphviz compiled to WebAssembly
# (@viz-js/viz, fetched by npm into $(B)/npm, never committed): build/web/
# is the whole site; `cd build/web && python3 -m http.server` serves it.
#
# Settings, the fastest that build (doc/performance.md has the 8-puzzle):
#  - -O3 for the C and the link.  Debian's emcc runs its JavaScript
#    optimizer (tools/acorn-optimizer.js) with node at -O1 and above, and it
#    needs Debian's node-acorn from /usr/share/nodejs: Debian's nodejs looks
#    there, a nodejs from elsewhere (NodeSource's 20) does not, and the link
#    failed with "Cannot find module 'acorn'".  NODE_PATH fixes it, so the
#    optimizer runs (-O0 without it was the only setting that linked).
#  - -sENVIRONMENT=web,worker: the page and its Web Worker load the same
#    gdl.js; the default loader also takes the node branch, whose fetch of
#    gdl.wasm fails under Node 20.
#  - no --closure: Debian's closure-compiler is not installed by default,
#    and it only shrinks the JavaScript glue.
#  - the system libraries are Debian's prebuilt ones (FROZEN_CACHE in
#    /usr/share/emscripten/.emscripten), so there is no cache to build; an
#    EM_CACHE elsewhere would be empty and refused.
EMCC    ?= emcc
EMENV   := NODE_PATH=/usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))
EMOPT   ?= -O3
WB      := $(B)/web
WO      := $(B)/web-obj
WEBOBJ  := $(call OBJ,$(WO),$(LIBSRC)) $(WO)/parser.o \
           $(WO)/lexer.o $(WO)/infix_parser.o $(WO)/infix_lexer.o $(WO)/web.o
EMLINK  := -sENVIRONMENT=web,worker -sMODULARIZE=1 -sEXPORT_NAME=createGdl \
           -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 \
           -sMAXIMUM_MEMORY=2147483648 -sFORCE_FILESYSTEM=1 \
           -sEXPORTED_RUNTIME_METHODS=ccall,FS
WEBPAGE := $(wildcard doc/playground/*.html doc/playground/*.js doc/playground/*.css)
BUNDLED := $(wildcard puzzles/*.kif puzzles/*.hrf puzzles/games/*.kif \
             rules/*.kif rules/*.hrf)

$(WO)/.dir:
	@mkdir -p $(WO) && touch $@

$(WO)/%.o: %.c $(B)/parser.h | $(WO)/.dir
	$(EMENV) $(EMCC) $(CPPFLAGS) $(EMOPT) $(WARN) $(EXTRA_WARN) -MMD -c -o $@ $<

$(WO)/%.o: $(B)/%.c $(B)/parser.h $(B)/lexer.h | $(WO)/.dir
	$(EMENV) $(EMCC) $(CPPFLAGS) $(EMOPT) $(GENWARN) -MMD -c -o $@ $<

$(WO)/infix_parser.o: $(B)/infix_lexer.h
$(WO)/infix_lexer.o: $(B)/infix_parser.h

$(WB)/gdl.js: $(WEBOBJ)
	mkdir -p $(WB)
	$(EMENV) $(EMCC) $(EMOPT) $(EMLINK) -o $@ $^

# Graphviz for the page, by npm from the versions doc/playground pins.
$(WB)/viz/viz-global.js: doc/playground/package.json doc/playground/package-lock.json
	mkdir -p $(B)/npm $(WB)/viz
	cp doc/playground/package.json doc/playground/package-lock.json $(B)/npm/
	cd $(B)/npm && npm ci --no-audit --no-fund --loglevel=error
	cp $(B)/npm/node_modules/@viz-js/viz/dist/viz-global.js $@

# The page, and the bundled files with their layout in a checkout (a
# puzzle's ;#include "../rules/dogbunny.kif" reads rules/ beside it),
# listed in files.json for the page's menu.
$(WB)/files.json: $(WEBPAGE) $(BUNDLED) | $(WO)/.dir
	mkdir -p $(WB)/puzzles/games $(WB)/rules
	cp $(WEBPAGE) $(WB)/
	cp $(filter-out puzzles/games/%,$(filter puzzles/%,$(BUNDLED))) $(WB)/puzzles/
	cp $(filter puzzles/games/%,$(BUNDLED)) $(WB)/puzzles/games/
	cp $(filter rules/%,$(BUNDLED)) $(WB)/rules/
	printf '%s\n' $(BUNDLED) | sed 's/.*/"&"/' | paste -sd, - | sed 's/.*/[&]/' > $@

web: $(WB)/gdl.js $(WB)/viz/viz-global.js $(WB)/files.json

# The page in a real browser (headless Chromium driven by Selenium), from
# a local server on a free loopback port: tests/web/check_web.py.
# SCREENSHOT=doc/playground.png also saves the screenshot there.
WEBPY   ?= /usr/bin/python3
check-web: web all
	$(WEBPY) tests/web/check_web.py $(WB) $(B)/web-test $(SCREENSHOT)

# ---- tests ---------------------------------------------------------------
# One Check runner with a suite per module (tests/check_*.c), then the
# module map held to the objects (tests/layers.sh), the golden error texts,
# the examples of README.md, doc/tutorial.md and doc/classroom.md run and
# their output held to the documents' (tests/docs.sh; make check-docs
# alone, tests/docs.sh --bless to write the documents anew), gdl fmt on
# every file (tests/fmt.sh), KIF -> infix
# -> KIF on every file (tests/roundtrip.sh), gdl-mpi beside one-process
# bfs (tests/mpi.sh: skipped without mpirun and mpicc), the pattern
# databases kept between runs (tests/pdb_cache.sh) and the
# differential playouts against SWI-Prolog on a
# bounded sample, and the time limits on the slowest games to stop
# (tests/limits.sh).  The corpus is read in place from ../shared/gdl-corpus.
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
TESTSRC := $(wildcard tests/check_*.c) tests/testutil.c
TESTOBJ := $(TESTSRC:tests/%.c=$(B)/tests/%.o)
CORPUS  ?= ../shared/gdl-corpus
# corpus games whose spaces bfs exhausts in about a second or less, on
# which tests/search.sh holds the searches to one another (make check);
# troublemaker01 to nonogram_5x5_1 are searched by stubborn sets (but by
# bfs); asteroids and aipsrovers01 to factoringMutuallyAssuredDestruction
# have a step counter left out of the stored states (the last proven
# unsolvable); coins and queens06ug are pruned by a move budget
SEARCH_GAMES := asteroids.kif blocksWorldSerial.kif brain_teaser_extended.kif \
  circlesolitaire.kif duplicateStateLarge.kif factoringGeorgeForman.kif \
  hanoi.kif kitten_escapes_from_fire.kif lightsOnSimultaneous.kif \
  stanford_best_buttons_and_lights.kif twisty-passages.kif \
  troublemaker01.kif troublemaker02.kif hidato19.kif nonogram_5x5_1.kif \
  aipsrovers01.kif chineseCheckers1.kif hanoi_6_disks.kif \
  factoringMutuallyAssuredDestruction.kif coins.kif queens06ug.kif
# the corpus games slowest to stop before the time limits reached into
# the set-up and the playouts (grounding attempts cut, the interpreter's
# chess), on which tests/limits.sh holds bench --seconds 2 and solve
# --max-seconds 2 to 3 s of wall time (make check); make check-limits
# runs it on the whole corpus
LIMIT_GAMES := multi/chess.kif multi/checkers.kif multi/hex.kif \
  single/ruleDepthExponential.kif single/mineClearingSmall.kif \
  single/sudoku.kif single/pancakes88.kif single/god.kif
export GDL_CORPUS := $(CORPUS)
export GDL := $(B)/gdl

$(B)/tests/%.o: tests/%.c $(B)/parser.h | $(B)/.dir
	@mkdir -p $(B)/tests
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(CHECK_CFLAGS) $(WARN) $(EXTRA_WARN) -Wno-missing-prototypes -MMD -c -o $@ $<

$(B)/check_gdl: $(TESTOBJ) $(B)/ggp.o $(B)/libgdl.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# web.o: the playground's front end compiled natively, for tests/layers.sh
# and so that -Werror sees it without Emscripten.
check: all $(B)/check_gdl $(B)/web.o
	$(B)/check_gdl
	tests/layers.sh $(B)
	tests/golden.sh
	tests/docs.sh --self-test
	tests/docs.sh
	tests/play_tmux.sh
	tests/ggp_loopback.sh
	tests/ggp_robust.sh
	tests/ggp.sh
	tests/fmt.sh -j 2
	tests/roundtrip.sh -j 2
	GDL_MPI=$(B)/gdl-mpi tests/mpi.sh
	tests/search.sh -j 2 puzzles/*.kif puzzles/*.hrf tests/stubborn/*.kif tests/wins/*.kif tests/counter/*.kif tests/budget/*.kif tests/deep/*.kif $(addprefix $(CORPUS)/single/,$(SEARCH_GAMES))
	tests/values.sh
	tests/pdb_cache.sh
	tests/engines.sh -j 2 -k 2 -m 60 $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif
	tests/differential.sh -j 2 -k 2 -m 60 $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif
	tests/limits.sh -j 2 -c bench $(addprefix $(CORPUS)/,$(LIMIT_GAMES))
	tests/limits.sh -j 2 -c solve $(addprefix $(CORPUS)/,$(LIMIT_GAMES))

# The time limits on every game of the corpus (about 7 minutes): gdl bench
# --seconds 2 and gdl solve --max-seconds 2 each end within 3 s of wall
# time (doc/engine.md, "Limits").
check-limits: all
	tests/limits.sh -j 2 -c bench $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif
	tests/limits.sh -j 2 -c solve $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif

# The GGP protocol alone (about 3 minutes; .ci/run runs it as a step of
# its own): two gdl players and gdl match over loopback, a player against
# garbage, truncated and silent requests and a STOP mid-think, then
# ggp-base's GameServer hosting gdl player against SampleMonteCarloGamer,
# and gdl match hosting them, on three games (tests/ggp.sh: skipped only
# without Java).  make check runs the same on tic-tac-toe alone.
GGP_GAMES ?= ticTacToe connectFour breakthroughSmall
check-ggp: all
	tests/ggp_loopback.sh
	tests/ggp_robust.sh
	tests/ggp.sh $(GGP_GAMES)

# The documents' examples alone (a few seconds; make check runs them too).
check-docs: all
	tests/docs.sh --self-test
	tests/docs.sh

# The long differential run: 20 playouts of up to 200 steps per game, an
# hour per game and engine (chess, interpreted, takes about 15 minutes).
conformance: all
	GDL_TIMEOUT=3600 tests/engines.sh -j 2 -k 20 -m 200 $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif
	GDL_TIMEOUT=3600 tests/differential.sh -j 2 -k 20 -m 200 $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif

# gdl solve (auto) on every single-player game beside the reference's bfs
# and the known plans, with a time limit per game (REF_SECONDS for the
# reference): writes doc/corpus-results.md.
# BEFORE: a revision built beside and compared with (git archive into
# build/before): by default the one that wrote doc/corpus-results.md last;
# BEFORE= for none.
SOLVE_SECONDS ?= 60
REF_SECONDS ?= 10
BEFORE ?= $(shell git log -1 --format=%h -- doc/corpus-results.md 2>/dev/null)
corpus-solve: all
	@if [ -n "$(BEFORE)" ]; then \
	  echo "building $(BEFORE) into $(B)/before"; rm -rf $(B)/before; mkdir -p $(B)/before; \
	  git archive $(BEFORE) | tar -x -C $(B)/before && $(MAKE) -s -C $(B)/before >/dev/null || exit 1; \
	fi
	GDL_BEFORE=$(if $(BEFORE),$(B)/before/$(B)/gdl) GDL_BEFORE_NAME=$(BEFORE) \
	  tests/corpus_solve.sh -j 2 -t $(SOLVE_SECONDS) -r $(REF_SECONDS) $(CORPUS)/single/*.kif > doc/corpus-results.md; \
	  rc=$$?; tail -n +9 doc/corpus-results.md | head -3; exit $$rc

# The state graphs the manual shows, drawn by Graphviz's dot.
doc: all
	$(B)/gdl graph --plan puzzles/wolf-goat-cabbage.kif | dot -Tsvg -o doc/wolf-goat-cabbage.svg
	$(B)/gdl graph --plan puzzles/dogbunny-2022-12-24.kif | dot -Tsvg -o doc/dogbunny-2022-12-24.svg

# Speed beside the SWI-Prolog reference, measured in one run: writes
# doc/performance.md.  BENCH_SECONDS per run, each figure the best of
# BENCH_RUNS runs (gdl's and the reference's alternating).  Its table of
# every multi-player game and the ten slowest single-player ones beside
# SWI-Prolog over compiled clauses (tests/bench_corpus.sh) takes some 16
# minutes of it.
BENCH_SECONDS ?= 5
BENCH_RUNS ?= 3
bench: all
	tests/bench.sh $(BENCH_SECONDS) $(BENCH_RUNS) > doc/performance.md
	cat doc/performance.md

# Korf's 100 fifteen-puzzles (tests/korf100.txt, written as GDL in the
# encoding of puzzles/fifteen-puzzle-34.kif by tests/korf.sh), each solved
# by KORF_ALGORITHM (default auto) within KORF_SECONDS; prints a table and
# the totals (solved with the published optimal length, seconds, states).
# The instances share their pattern databases through --pdb-cache
# $(B)/korf-pdb (built by the first, read by the others).
# Not part of check: up to 100 minutes.
KORF_SECONDS ?= 60
KORF_ALGORITHM ?= auto
bench-korf: all $(B)/korf_ida
	KORF_IDA=$(B)/korf_ida tests/korf.sh -s $(KORF_SECONDS) -a $(KORF_ALGORITHM) -c $(B)/korf-pdb

# the floor beside gdl in bench-korf: IDA* written by hand (tests/korf_ida.c)
$(B)/korf_ida: tests/korf_ida.c | $(B)/.dir
	$(CC) -O2 -Wall -Wextra -o $@ tests/korf_ida.c

# gdl player against ggp-base's SampleMonteCarloGamer, hosted by
# ggp-base's GameServer: PLAY_MATCHES of ticTacToe, connectFour and
# breakthroughSmall each at a PLAY_CLOCK, sides alternating; a table of
# wins, draws and losses (doc/performance.md keeps the last one).  Not
# part of check: some 60-90 minutes.
PLAY_MATCHES ?= 50
PLAY_CLOCK ?= 2
bench-play: all
	GDL_CORPUS=$(CORPUS) tests/bench_play.sh -n $(PLAY_MATCHES) -p $(PLAY_CLOCK)

# Random playouts on every game of the corpus beside SWI-Prolog over the
# game compiled to clauses (../shared/tools/prolog-baseline/gdlplay.sh):
# writes doc/corpus-speed.md (the old one stays if interrupted) and fails
# when a game is slower in gdl.  CORPUS_SECONDS a run, each figure the
# best of CORPUS_RUNS.  Not part of check: some 20 minutes.
CORPUS_SECONDS ?= 2
CORPUS_RUNS ?= 1
bench-corpus: all
	GDL_CORPUS=$(CORPUS) tests/bench_corpus.sh $(CORPUS_SECONDS) $(CORPUS_RUNS) > doc/corpus-speed.md.new; \
	  rc=$$?; mv doc/corpus-speed.md.new doc/corpus-speed.md; \
	  sed -n '/^[0-9]* games, /,$$p' doc/corpus-speed.md; exit $$rc

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer,
# with the invariants checked (GDL_DEBUG: gdl_assert in core/core.h).
asan:
	$(MAKE) B=build/asan CC=clang \
	  CFLAGS="-O1 -g -DGDL_DEBUG -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" check

# The threaded searches under ThreadSanitizer: bfs, astar and gbfs on 1 to
# 4 threads held to one thread's answers (the unit tests' threads and
# limits cases), and each, and dfs that prunes, on 4 threads on every
# puzzle, a sudoku (whose estimates run on the threads) and the games a
# move budget prunes (each thread its copy), 5 s each; and the GGP
# player's threads: a STOP mid-think through ggp.c (the ggp suite) and a
# running gdl player (tests/ggp_robust.sh); any report fails it.
TSAN_FLAGS := -O1 -g -fsanitize=thread
tsan:
	$(MAKE) B=build/tsan CC=clang CFLAGS="$(TSAN_FLAGS)" LDFLAGS="-fsanitize=thread" \
	  build/tsan/gdl build/tsan/check_gdl
	CK_RUN_CASE=threads TSAN_OPTIONS=halt_on_error=1 build/tsan/check_gdl
	CK_RUN_CASE=limits TSAN_OPTIONS=halt_on_error=1 build/tsan/check_gdl
	CK_RUN_SUITE=ggp TSAN_OPTIONS=halt_on_error=1 build/tsan/check_gdl
	GDL=build/tsan/gdl TSAN_OPTIONS="halt_on_error=1 exitcode=66" tests/ggp_robust.sh
	for f in puzzles/*.kif puzzles/*.hrf $(CORPUS)/single/sudokuGrade1.kif \
	  tests/budget/*.kif $(CORPUS)/single/max_knights.kif \
	  $(CORPUS)/single/queens08ug.kif; do \
	  for a in bfs astar gbfs "dfs --prune"; do \
	    TSAN_OPTIONS=halt_on_error=1 build/tsan/gdl solve -a $$a --threads 4 --quiet \
	      --max-seconds 5 $$f > /dev/null; rc=$$?; \
	    [ $$rc -le 3 ] || { echo "tsan: $$a $$f: exit $$rc"; exit 1; }; \
	  done; \
	done; echo "tsan: clean"

# ---- fuzzing --------------------------------------------------------------
# libFuzzer targets in layers, each a file tests/fuzz/fuzz_NAME.c built with
# AddressSanitizer and UndefinedBehaviorSanitizer (doc/robustness.md):
#   read    the reader and the checker: gdl_load_string, gdl_compile
#   eval    the interpreter on a game that checks, under a small budget
#   ground  the grounded engine against the interpreter, state by state
#   infix   the infix reader and checker, and infix written and read back
#   ggp     the GGP player's replies to messages (engine/cli/ggp.c)
# `make fuzz` runs each in turn for FUZZ_SECONDS (FUZZ_JOBS=2: two
# processes a target); `make fuzz-smoke`, 60 s each, is part of .ci/run;
# FUZZ_TARGETS=read runs one; `make fuzz-regress` replays the bugs found.  Each keeps what it finds in build/fuzz/NAME/
# (corpus/, crash-*); the public corpus seeds it, read in place, and
# tests/fuzz/gdl.dict gives it GDL's tokens (tests/fuzz/run.sh runs one).
# A new target is a file
# tests/fuzz/fuzz_NAME.c and its NAME added here; FUZZ_MAXLEN_NAME and
# FUZZ_SEEDS_NAME override the defaults for it.
FUZZ_TARGETS ?= read eval ground infix ggp
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_SAN     := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_SEEDS   ?= $(CORPUS)/single $(CORPUS)/multi $(CORPUS)/conformance
FUZZ_MAXLEN  ?= 4096
FUZZ_MAXLEN_read ?= 1024
# infix (d): the infix reader, seeded with the infix puzzles and mistakes
FUZZ_MAXLEN_infix ?= 1024
FUZZ_SEEDS_infix ?= puzzles tests/golden
# ggp (e): messages to a player, seeded with whole matches of its game
FUZZ_MAXLEN_ggp ?= 2048
FUZZ_SEEDS_ggp ?= tests/fuzz/seeds/ggp
# Coverage for libFuzzer without its tracing of comparisons (trace-cmp):
# gdl compares interned ids, not input bytes (the keywords it compares as
# text reach the fuzzer through the memcmp hooks anyway), so the tracing
# guided little and, with each of UBSan's checks traced too, took half of
# the reader's time (doc/robustness.md).  FUZZ_TRACE= puts it back.
FUZZ_TRACE   ?= -fno-sanitize-coverage=trace-cmp
FUZZ_CFLAGS  := $(FUZZ_SAN) $(FUZZ_TRACE)

# build/fuzz/.flags: the objects are made again when the flags change
fuzz-build:
	@mkdir -p build/fuzz; echo '$(FUZZ_CFLAGS)' | cmp -s - build/fuzz/.flags || \
	  { rm -f build/fuzz/*.o build/fuzz/libgdl.a build/fuzz/fuzz_*; \
	    echo '$(FUZZ_CFLAGS)' > build/fuzz/.flags; }
	$(MAKE) B=build/fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" \
	  build/fuzz/libgdl.a
	$(MAKE) $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h build/fuzz/libgdl.a
	clang -Iengine $(FUZZ_CFLAGS) $(WARN) $(EXTRA_WARN) -fsanitize=fuzzer -o $@ $< build/fuzz/libgdl.a -lm

# ggp.c is not in libgdl.a (it sits in engine/cli): built in with the
# target, alone, so that no libmicrohttpd or libcurl is linked
build/fuzz/fuzz_ggp: tests/fuzz/fuzz_ggp.c engine/cli/ggp.c engine/cli/ggp.h \
                     tests/fuzz/fuzz.h build/fuzz/libgdl.a
	clang -Iengine $(FUZZ_CFLAGS) $(WARN) $(EXTRA_WARN) -fsanitize=fuzzer -o $@ $< \
	  engine/cli/ggp.c build/fuzz/libgdl.a $(LDLIBS)

fuzz: fuzz-build
	$(foreach t,$(FUZZ_TARGETS),tests/fuzz/run.sh -j $(FUZZ_JOBS) -t $(FUZZ_SECONDS) \
	  -l $(or $(FUZZ_MAXLEN_$(t)),$(FUZZ_MAXLEN)) $(t) $(or $(FUZZ_SEEDS_$(t)),$(FUZZ_SEEDS)) && ) true

fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=60

# The bugs found before, replayed once without fuzzing: the inputs in
# tests/fuzz/regress/NAME/ (which also seed every run of NAME), and the
# programs tests/fuzz/regress/*.c for what no input reaches, each built
# against build/libgdl.a and exiting 0 when the bug stays fixed.
fuzz-regress: fuzz-build all
	$(foreach t,$(FUZZ_TARGETS),$(if $(wildcard tests/fuzz/regress/$(t)/*),\
	  build/fuzz/fuzz_$(t) $(wildcard tests/fuzz/regress/$(t)/*) && )) true
	$(foreach c,$(wildcard tests/fuzz/regress/*.c),\
	  $(CC) $(CPPFLAGS) $(CFLAGS) -o build/fuzz/$(notdir $(c:.c=)) $(c) build/libgdl.a $(LDLIBS) && \
	  build/fuzz/$(notdir $(c:.c=)) && ) true

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(B)/gdl $(DESTDIR)$(PREFIX)/bin/gdl
	install -m 644 $(B)/libgdl.a $(DESTDIR)$(PREFIX)/lib/libgdl.a
	install -m 644 engine/gdl.h $(DESTDIR)$(PREFIX)/include/gdl.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@CADICAL_LIBS@|$(if $(filter 1,$(HAVE_CADICAL)),-lcadical -lstdc++ -lm)|' -e 's|@VERSION@|$(shell sed -n 's/^#define GDL_VERSION "\(.*\)"/\1/p' engine/gdl.h)|' \
	  doc/gdl.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/gdl.pc
	if [ -f doc/gdl.1 ]; then install -m 644 doc/gdl.1 $(DESTDIR)$(PREFIX)/share/man/man1/gdl.1; fi

-include $(wildcard $(B)/*.d $(B)/tests/*.d $(WO)/*.d)

clean:
	rm -rf build

.PHONY: all check check-ggp check-docs check-limits check-mpi mpi conformance corpus-solve bench bench-korf bench-play bench-corpus asan tsan fuzz fuzz-build fuzz-smoke fuzz-regress install clean doc web check-web
