# gdl - a GDL rule engine and puzzle solver.  See README.md.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
GENWARN := -Wall -Wno-unused-parameter -Wno-unused-function -Wno-sign-compare
CPPFLAGS += -Igrammar -Ibuild -Iengine
LDLIBS  += -lm
PREFIX  ?= /usr/local
BISON   ?= bison
FLEX    ?= flex
B       := build

CLISRC  := engine/cli.c engine/cli_teach.c engine/cli_util.c
LIBSRC  := $(filter-out $(CLISRC),$(wildcard engine/*.c))
LIBOBJ  := $(LIBSRC:engine/%.c=$(B)/%.o) $(B)/parser.o $(B)/lexer.o \
           $(B)/infix_parser.o $(B)/infix_lexer.o

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

$(B)/%.o: engine/%.c $(B)/parser.h | $(B)/.dir
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(EXTRA_WARN) -MMD -c -o $@ $<

$(B)/libgdl.a: $(LIBOBJ)
	$(AR) rcs $@ $^

$(B)/gdl: $(CLISRC:engine/%.c=$(B)/%.o) $(B)/libgdl.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ---- tests ---------------------------------------------------------------
# One Check runner with a suite per module (tests/check_*.c), then the
# module map held to the objects (tests/layers.sh), the golden error texts, gdl fmt on every file (tests/fmt.sh), KIF -> infix
# -> KIF on every file (tests/roundtrip.sh) and the
# differential playouts against SWI-Prolog on a
# bounded sample.  The corpus is read in place from ../shared/gdl-corpus.
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
TESTSRC := $(wildcard tests/check_*.c) tests/testutil.c
TESTOBJ := $(TESTSRC:tests/%.c=$(B)/tests/%.o)
CORPUS  ?= ../shared/gdl-corpus
# corpus games whose spaces bfs exhausts in well under a second, on which
# tests/search.sh holds the searches to one another (make check)
SEARCH_GAMES := asteroids.kif blocksWorldSerial.kif brain_teaser_extended.kif \
  circlesolitaire.kif duplicateStateLarge.kif factoringGeorgeForman.kif \
  hanoi.kif kitten_escapes_from_fire.kif lightsOnSimultaneous.kif \
  stanford_best_buttons_and_lights.kif twisty-passages.kif
export GDL_CORPUS := $(CORPUS)
export GDL := $(B)/gdl

$(B)/tests/%.o: tests/%.c $(B)/parser.h | $(B)/.dir
	@mkdir -p $(B)/tests
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(CHECK_CFLAGS) $(WARN) $(EXTRA_WARN) -Wno-missing-prototypes -MMD -c -o $@ $<

$(B)/check_gdl: $(TESTOBJ) $(B)/libgdl.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

check: all $(B)/check_gdl
	$(B)/check_gdl
	tests/layers.sh $(B)
	tests/golden.sh
	tests/play_tmux.sh
	tests/fmt.sh -j 2
	tests/roundtrip.sh -j 2
	tests/search.sh -j 2 puzzles/*.kif puzzles/*.hrf $(addprefix $(CORPUS)/single/,$(SEARCH_GAMES))
	tests/engines.sh -j 2 -k 2 -m 60 $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif
	tests/differential.sh -j 2 -k 2 -m 60 $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif

# The long differential run: 20 playouts of up to 200 steps per game, an
# hour per game and engine (chess, interpreted, takes about 15 minutes).
conformance: all
	GDL_TIMEOUT=3600 tests/engines.sh -j 2 -k 20 -m 200 $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif
	GDL_TIMEOUT=3600 tests/differential.sh -j 2 -k 20 -m 200 $(CORPUS)/single/*.kif $(CORPUS)/multi/*.kif $(CORPUS)/conformance/*.kif

# gdl solve (auto) on every single-player game beside the reference's bfs
# and the known plans, with a time limit per game (REF_SECONDS for the
# reference): writes doc/corpus-results.md.
SOLVE_SECONDS ?= 60
REF_SECONDS ?= 10
corpus-solve: all
	tests/corpus_solve.sh -j 2 -t $(SOLVE_SECONDS) -r $(REF_SECONDS) $(CORPUS)/single/*.kif > doc/corpus-results.md; \
	  rc=$$?; tail -n +9 doc/corpus-results.md | head -3; exit $$rc

# The state graphs the manual shows, drawn by Graphviz's dot.
doc: all
	$(B)/gdl graph --plan puzzles/wolf-goat-cabbage.kif | dot -Tsvg -o doc/wolf-goat-cabbage.svg
	$(B)/gdl graph --plan puzzles/dogbunny-2022-12-24.kif | dot -Tsvg -o doc/dogbunny-2022-12-24.svg

# Speed beside the SWI-Prolog reference, measured in one run: writes
# doc/performance.md.  BENCH_SECONDS per run, each figure the best of
# BENCH_RUNS runs (gdl's and the reference's alternating).
BENCH_SECONDS ?= 5
BENCH_RUNS ?= 3
bench: all
	tests/bench.sh $(BENCH_SECONDS) $(BENCH_RUNS) > doc/performance.md
	cat doc/performance.md

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
asan:
	$(MAKE) B=build/asan CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" check

# Fuzzing the reader, the checker and the evaluator with libFuzzer (clang).
# New inputs go to build/fuzz/corpus; the public corpus seeds it, read in
# place, and so are puzzles/ (the .hrf files seed the infix reader: an
# input that starts with neither '(' nor ';' is read as infix).
# FUZZ_SECONDS=600 for the ten-minute run doc/robustness.md records.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer
fuzz:
	$(MAKE) B=build/fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" build/fuzz/libgdl.a
	clang $(CPPFLAGS) $(FUZZ_FLAGS) -o build/fuzz/fuzz_gdl tests/fuzz/fuzz_gdl.c build/fuzz/libgdl.a -lm
	mkdir -p build/fuzz/corpus
	build/fuzz/fuzz_gdl -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -rss_limit_mb=2048 \
	  -timeout=20 build/fuzz/corpus $(CORPUS)/conformance $(CORPUS)/single puzzles

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(B)/gdl $(DESTDIR)$(PREFIX)/bin/gdl
	install -m 644 $(B)/libgdl.a $(DESTDIR)$(PREFIX)/lib/libgdl.a
	install -m 644 engine/gdl.h $(DESTDIR)$(PREFIX)/include/gdl.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(shell sed -n 's/^#define GDL_VERSION "\(.*\)"/\1/p' engine/gdl.h)|' \
	  doc/gdl.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/gdl.pc
	if [ -f doc/gdl.1 ]; then install -m 644 doc/gdl.1 $(DESTDIR)$(PREFIX)/share/man/man1/gdl.1; fi

-include $(wildcard $(B)/*.d $(B)/tests/*.d)

clean:
	rm -rf build

.PHONY: all check conformance corpus-solve bench asan fuzz install clean doc
