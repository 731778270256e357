/*
 * infix.h - the infix ("human-readable") front end: a second reentrant
 * flex scanner (infix_lexer.l) and pure bison parser (infix_parser.y)
 * that build the same gdl_node tree as the KIF ones, so the checker and
 * everything after it never know which syntax a file was written in.
 *
 *   p(a, X)            the list (p a ?x)          p()   the list (p)
 *   h :- b1 & ~b2      (<= h b1 (not b2))         p     the symbol p
 *   'Odd-Symbol'       the symbol Odd-Symbol      X     the variable ?x
 *   _X, _'n++'         the variables ?X and ?n++  % ... a comment
 *
 * The mapping is spelled out in doc/dialect.md ("Infix GDL").
 */
#ifndef GDL_INFIX_H
#define GDL_INFIX_H

#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "lexstate.h"

/* What the infix scanner keeps between tokens (flex's "extra"). */
struct gdl_infix_state {
  gdl_ctx *ctx;          /* owner of nodes, symbols and messages */
  uint32_t file;         /* file index in the context */
  const char *text;      /* the file's text, for messages and layout tests */
  uint32_t len;
  uint32_t off;          /* byte offset of the next character */
  uint32_t depth;        /* '(' open now */
  uint32_t open[GDL_MAX_DEPTH];  /* their offsets, innermost last */
  uint32_t tildes;       /* '~' in a row just before this token */
  int stray;             /* the last parenthesis was an unmatched ')' */
  int eof;               /* the scanner has returned the end of the file */
  int aborted;           /* nesting too deep: the parse stops */
  int skipping;          /* after a syntax error: tokens are dropped up to
                            the next one that starts a line */
  int pending;           /* a token to hand the parser again (resync) */
  int pend_tok;
  void *pend_val;        /* its node */
  gdl_loc pend_loc;
  uint32_t redone;       /* offset of the last token handed again + 1 */
  uint32_t last_start;   /* the last token handed to the parser */
  uint32_t quiet_until;  /* no syntax error is reported before this offset
                            (the end of a line with an unclosed quote) */
  /* the sentence before, for the missing-'&' test */
  int have_prev;
  int prev_rule;         /* it was a rule with a body */
  int prev_dot;          /* it ended with '.' */
  uint32_t prev_end;
};

/* gdl_infix_parse_file() is declared in ast.h, beside gdl_parse_file(). */

#endif
