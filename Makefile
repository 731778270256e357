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

LIBSRC  := $(filter-out engine/cli.c,$(wildcard engine/*.c))
LIBOBJ  := $(LIBSRC:engine/%.c=$(B)/%.o) $(B)/parser.o $(B)/lexer.o

all: $(B)/gdl $(B)/libgdl.a

$(B)/.dir:
	@mkdir -p $(B) && touch $@

$(B)/parser.c $(B)/parser.h: grammar/parser.y | $(B)/.dir
	$(BISON) -Wall -Werror -o $(B)/parser.c --defines=$(B)/parser.h $<

$(B)/lexer.c $(B)/lexer.h: grammar/lexer.l | $(B)/.dir
	$(FLEX) -o $(B)/lexer.c --header-file=$(B)/lexer.h $<

$(B)/parser.o: $(B)/parser.c $(B)/lexer.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(GENWARN) -MMD -c -o $@ $<

$(B)/lexer.o: $(B)/lexer.c $(B)/parser.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(GENWARN) -MMD -c -o $@ $<

$(B)/%.o: engine/%.c $(B)/parser.h | $(B)/.dir
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(EXTRA_WARN) -MMD -c -o $@ $<

$(B)/libgdl.a: $(LIBOBJ)
	$(AR) rcs $@ $^

$(B)/gdl: $(B)/cli.o $(B)/libgdl.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

-include $(wildcard $(B)/*.d)

clean:
	rm -rf $(B)

.PHONY: all clean
