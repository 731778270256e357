/*
 * check_checker.c - what the checker accepts, warns about and rejects, and
 * where its messages point.
 *
 * 1. Every conformance case of ../shared/gdl-corpus/EXPECTATIONS.md
 *    sections 2 (ggp-base static validation) and 3 (parser tests): the
 *    outcome, and for warnings and rejections the message and its place.
 *    The griddle expectations give 0-based [start, end) byte offsets; our
 *    messages print FILE:LINE:COL and a caret line "^~~~" under the span,
 *    so the offsets are turned into line, column and length here.
 * 2. The decisions of doc/DESIGN (mularity, plain rule bases, --clean).
 * 3. Mistakes of our own, each with the exact place of its message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "diagtext.h"

enum { ACCEPT, WARN, REJECT };

typedef struct {
  const char *name;        /* conformance/NAME.kif */
  int outcome;             /* ACCEPT: GDL_OK (warnings not checked);
                              WARN: GDL_OK and >= 1 warning;
                              REJECT: GDL_EINPUT */
  int nerrors;             /* REJECT: exact number of errors; 0: any */
  const char *msg;         /* WARN/REJECT: a message of that severity
                              contains this */
  long start, end;         /* its 0-based byte span (griddle), or -1 */
  unsigned line, col, span;/* else its 1-based place; line 0: none */
} conf_t;

#define NOPOS -1, -1

static const conf_t conf_cases[] = {
  /* ---- section 2: ggp-base static validation ---- */
  { "connectFour", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "simpleMutex", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "ticTacToe", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_1b", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_2a", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_2b", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_2c", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_3c", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_3d", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_4a", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_5a", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_5b", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_5c", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  /* not asserted upstream; valid games */
  { "test_case_5d", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_5e", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_case_5f", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_fvv_1", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "test_distinct_beginning_rule", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  /* valid, with a warning */
  { "test_case_1a", WARN, 0, "rule with an empty body", NOPOS, 16, 1, 19 },
  { "test_case_3a", WARN, 0, "'open2' is written both as (open2) and as "
    "open2; both mean the same zero-argument relation", NOPOS, 17, 5, 5 },
  { "test_invalid_function_arities_differ", WARN, 0, "function 'a' is used "
    "with 2 arguments here and with 1 elsewhere", NOPOS, 8, 16, 1 },
  { "test_invalid_sentence_arities_differ", WARN, 0, "relation 'foo' has 2 "
    "arguments here but 1 at ", NOPOS, 13, 1, 15 },
  /* rejected */
  { "test_case_3b", REJECT, 12, "unsafe rule: variable ?x of the head is "
    "not bound by a positive literal of the body", NOPOS, 13, 19, 2 },
  { "test_case_3e", REJECT, 2, "unsafe rule: variable ?p of the head",
    NOPOS, 8, 12, 2 },
  { "test_case_3f", REJECT, 3, "unsafe rule: variable ?p under 'not' is "
    "not bound", NOPOS, 13, 31, 2 },
  { "test_clean_not_distinct", REJECT, 7, "(not (distinct ...)) is not GDL",
    NOPOS, 12, 5, 20 },

  /* ---- section 3: griddle (GV), positions from the expectations ---- */
  { "griddle_badparens1", REJECT, 1, "unclosed '('", 4, 5, 0, 0, 0 },
  { "griddle_badparens2", REJECT, 1, "unmatched ')'", 8, 9, 0, 0, 0 },
  { "griddle_badparens3", REJECT, 1, "unmatched ')'", 16, 17, 0, 0, 0 },
  { "griddle_badparens4", REJECT, 1, "a list cannot start with a list",
    3, 4, 0, 0, 0 },
  { "griddle_badparens5", REJECT, 1, "a list cannot start with a list",
    2, 3, 0, 0, 0 },
  { "griddle_misplacedDatalogKeyword1", REJECT, 1, "'distinct' can only be "
    "used in the body of a rule", 0, 18, 0, 0, 0 },
  { "griddle_misplacedDatalogKeyword2", REJECT, 1, "'not' is a keyword and "
    "cannot be used as a constant", 5, 8, 0, 0, 0 },
  { "griddle_misplacedDatalogKeyword3", REJECT, 1, "'not' is a keyword and "
    "cannot be used as a function name", 6, 9, 0, 0, 0 },
  { "griddle_varInTopLevelSentence", REJECT, 1, "variable ?here in a fact",
    10, 15, 0, 0, 0 },
  { "griddle_emptyDisjunction", REJECT, 1, "empty (or)", 31, 36, 0, 0, 0 },
  { "griddle_baseDependsOnTrue", REJECT, 1, "'base' must not depend on "
    "'true'", 15, 25, 0, 0, 0 },
  { "griddle_commentEof", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },

  /* ---- section 3: libgdl (LG) must fail ---- */
  { "libgdl_notunstrat", REJECT, 1, "negation through recursion: 'test' "
    "depends on itself through this 'not'", NOPOS, 5, 15, 16 },
  { "libgdl_unstratrec", REJECT, 1, "negation through recursion: 'test'",
    NOPOS, 5, 15, 16 },
  { "libgdl_recurseunstrat", REJECT, 3, "recursion restriction: argument 1",
    NOPOS, 6, 21, 9 },
  { "libgdl_headsafe", REJECT, 1, "unsafe rule: variable ?x of the head is "
    "not bound by a positive literal of the body", NOPOS, 5, 11, 2 },
  { "libgdl_notsafe", REJECT, 1, "unsafe rule: variable ?y under 'not' is "
    "not bound by a positive literal of the body", NOPOS, 5, 38, 2 },
  { "libgdl_orsafe", REJECT, 1, "unsafe rule: variable ?x of the head is "
    "bound in some disjuncts of an 'or' but not in all of them", NOPOS,
    5, 11, 2 },
  { "libgdl_base_depen", REJECT, 2, "'base' must not depend on 'true'",
    NOPOS, 5, 15, 9 },
  { "libgdl_input_depen", REJECT, 2, "'input' must not depend on 'does'",
    NOPOS, 5, 32, 15 },
  { "libgdl_init_depen", REJECT, 2, "'init' must not depend on 'true'",
    NOPOS, 5, 15, 9 },
  { "libgdl_legal_depen", REJECT, 1, "'legal' must not depend on 'does'",
    NOPOS, 5, 32, 15 },
  { "libgdl_ndef_role", REJECT, 1, "nothing defines 'role'", NOPOS, 0, 0, 0 },
  { "libgdl_ndef_legal", REJECT, 1, "nothing defines 'legal'", NOPOS,
    0, 0, 0 },
  { "libgdl_ndef_terminal", REJECT, 1, "nothing defines 'terminal'", NOPOS,
    0, 0, 0 },
  { "libgdl_ndef_goal", REJECT, 1, "nothing defines 'goal'", NOPOS, 0, 0, 0 },
  /* our decision: one relation with two arities in rules is an error */
  { "libgdl_mularity", REJECT, 1, "relation 'test' is used with 2 arguments "
    "here but with 1 at ", NOPOS, 6, 5, 12 },

  /* ---- section 3: libgdl must succeed (rule bases among them) ---- */
  { "libgdl_variable_parsing", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "libgdl_opt1", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "libgdl_mgu_check", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "libgdl_question1", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "libgdl_question2", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "libgdl_hash_test1", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "libgdl_recurse", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
  { "libgdl_ds_test", ACCEPT, 0, NULL, NOPOS, 0, 0, 0 },
};
#define NCONF (sizeof conf_cases / sizeof *conf_cases)

static const char *sevname(int outcome)
{
  return outcome == WARN ? "warning" : "error";
}

START_TEST(test_conformance)
{
  const conf_t *c = &conf_cases[_i];
  char rel[256];
  const char *path, *text;
  gdl_status st;
  gdl_ctx *ctx;
  dt_diag d;
  snprintf(rel, sizeof rel, "conformance/%s.kif", c->name);
  path = tu_corpus(rel);
  ctx = tu_load(&st, 0, path, NULL);
  text = gdl_diagnostics(ctx);
  if (c->outcome == REJECT) {
    ck_assert_msg(st == GDL_EINPUT, "%s: accepted (status %d), must be "
                  "rejected\n%s", c->name, st, text);
    ck_assert_msg(gdl_error_count(ctx) > 0, "%s", c->name);
    if (c->nerrors)
      ck_assert_msg(gdl_error_count(ctx) == (size_t)c->nerrors,
                    "%s: %zu errors, expected %d\n%s", c->name,
                    gdl_error_count(ctx), c->nerrors, text);
    ck_assert_uint_eq(dt_count(text, ": error: "), gdl_error_count(ctx));
  } else {
    ck_assert_msg(st == GDL_OK, "%s: rejected (status %d)\n%s", c->name, st,
                  text);
    ck_assert_int_eq(gdl_error_count(ctx), 0);
    if (c->outcome == WARN)
      ck_assert_msg(gdl_warning_count(ctx) > 0, "%s: no warning", c->name);
  }
  if (c->msg) {
    ck_assert_msg(dt_find(text, sevname(c->outcome), c->msg, &d),
                  "%s: no %s containing \"%s\" in:\n%s", c->name,
                  sevname(c->outcome), c->msg, text);
    if (c->start >= 0) {
      /* griddle: [start, end) in bytes of the file */
      size_t len;
      char *src = dt_slurp(path, &len);
      unsigned line, col;
      ck_assert_ptr_nonnull(src);
      dt_where(src, (size_t)c->start, &line, &col);
      free(src);
      ck_assert_str_eq(d.file, path);
      ck_assert_msg(d.line == line && d.col == col && d.span ==
                    (unsigned)(c->end - c->start), "%s: expected %u:%u "
                    "span %ld (bytes %ld-%ld), got %u:%u span %u\n%s",
                    c->name, line, col, c->end - c->start, c->start, c->end,
                    d.line, d.col, d.span, text);
    } else if (c->line) {
      ck_assert_str_eq(d.file, path);
      ck_assert_msg(d.line == c->line && d.col == c->col && d.span == c->span,
                    "%s: expected %u:%u span %u, got %u:%u span %u\n%s",
                    c->name, c->line, c->col, c->span, d.line, d.col, d.span,
                    text);
    }
  }
  gdl_free(ctx);
}
END_TEST

/* griddle: the problem cases report exactly one problem, no warnings. */
START_TEST(test_griddle_single_problem)
{
  static const char *const names[] = {
    "griddle_badparens1", "griddle_badparens2", "griddle_badparens3",
    "griddle_badparens4", "griddle_badparens5",
    "griddle_misplacedDatalogKeyword1", "griddle_misplacedDatalogKeyword2",
    "griddle_misplacedDatalogKeyword3", "griddle_varInTopLevelSentence",
    "griddle_emptyDisjunction", "griddle_baseDependsOnTrue",
  };
  size_t i;
  for (i = 0; i < sizeof names / sizeof *names; i++) {
    char rel[256];
    gdl_status st;
    gdl_ctx *ctx;
    snprintf(rel, sizeof rel, "conformance/%s.kif", names[i]);
    ctx = tu_load(&st, 0, tu_corpus(rel), NULL);
    ck_assert_msg(gdl_error_count(ctx) + gdl_warning_count(ctx) == 1,
                  "%s:\n%s", names[i], gdl_diagnostics(ctx));
    gdl_free(ctx);
  }
}
END_TEST

/* badparens3 with CRLF line ends: the ')' is one byte later (17-18). */
START_TEST(test_griddle_badparens3_crlf)
{
  static const char text[] = "0123(5;(8\r\n01)345)";
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, text);
  dt_diag d;
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_int_eq(gdl_error_count(ctx), 1);
  ck_assert(dt_find(gdl_diagnostics(ctx), "error", "unmatched ')'", &d));
  ck_assert_uint_eq(d.line, 2);
  ck_assert_uint_eq(d.col, 7);    /* byte 17 */
  ck_assert_uint_eq(d.span, 1);
  gdl_free(ctx);
}
END_TEST

/* ---- decisions ---------------------------------------------------------- */

/* test_clean_not_distinct: rejected as written, accepted with GDL_CLEAN,
 * and then `success` holds (a true, (b 1) false, (b 2) true, ...). */
START_TEST(test_clean_flag)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load(&st, GDL_CLEAN,
                         tu_corpus("conformance/test_clean_not_distinct.kif"),
                         NULL);
  const gdl_term *mv;
  size_t n;
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  gdl_term succ;
  ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
  ck_assert_int_eq(gdl_error_count(ctx), 0);
  ck_assert_int_eq(gdl_is_game(ctx), 1);
  ck_assert_uint_eq(gdl_role_count(ctx), 1);
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_legal(ctx, 0, &mv, &n), GDL_OK);
  ck_assert_uint_eq(n, 1);
  ck_assert_int_eq(gdl_parse_term(ctx, "proceed", 0, &succ), GDL_OK);
  ck_assert_int_eq(gdl_next(ctx, &succ, &nx), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ctx, &nx), GDL_OK);
  ck_assert_int_eq(gdl_terminal(ctx), 1);
  ck_assert_int_eq(gdl_goal(ctx, 0), 100);
  gdl_state_release(ctx, &s);
  gdl_state_release(ctx, &nx);
  gdl_free(ctx);
}
END_TEST

/* Plain rule bases compile, are not games, and answer questions. */
static const struct {
  const char *name;
  const char *pattern;
  int answers;            /* -1: not counted */
  const char *first;      /* the first answer, or NULL */
} rulebases[] = {
  { "libgdl_question1", "(engineer ?x)", 1, "(engineer bajaj)" },
  { "libgdl_question2", "(married cam ?x)", 1, "(married cam carrie)" },
  { "libgdl_opt1", "(test2 ?x ?y)", 2, NULL },
  { "libgdl_hash_test1", "(base ?x)", 302, NULL },
  { "libgdl_recurse", "(ancestor ?x ?y)", 10, NULL },
  { "libgdl_recurse", "(ancestor 1 1)", 0, NULL },
  { "libgdl_mgu_check", "(input ?x ?y)", -1, NULL },
};

typedef struct {
  gdl_ctx *ctx;
  int n;
  char first[256];
} count_t;

static int count_answer(void *arg, gdl_term t)
{
  count_t *c = arg;
  if (c->n++ == 0)
    snprintf(c->first, sizeof c->first, "%s", gdl_term_str(c->ctx, t));
  return 0;
}

START_TEST(test_rule_bases)
{
  char rel[256];
  gdl_status st;
  gdl_ctx *ctx;
  gdl_term pat;
  count_t c;
  snprintf(rel, sizeof rel, "conformance/%s.kif", rulebases[_i].name);
  ctx = tu_load(&st, 0, tu_corpus(rel), NULL);
  ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
  ck_assert_int_eq(gdl_is_game(ctx), 0);
  ck_assert_ptr_nonnull(gdl_not_game_reason(ctx));
  ck_assert_ptr_nonnull(strstr(gdl_not_game_reason(ctx), "not a game"));
  ck_assert_int_eq(gdl_parse_term(ctx, rulebases[_i].pattern, 1, &pat),
                   GDL_OK);
  memset(&c, 0, sizeof c);
  c.ctx = ctx;
  ck_assert_int_eq(gdl_query(ctx, pat, count_answer, &c), GDL_OK);
  if (rulebases[_i].answers >= 0)
    ck_assert_msg(c.n == rulebases[_i].answers, "%s %s: %d answers, "
                  "expected %d", rulebases[_i].name, rulebases[_i].pattern,
                  c.n, rulebases[_i].answers);
  if (rulebases[_i].first)
    ck_assert_str_eq(c.first, rulebases[_i].first);
  gdl_free(ctx);
}
END_TEST

/* A text that mentions no game keyword is a rule base; `role` alone does
 * not make a game (libgdl_mgu_check and libgdl_recurse have one). */
START_TEST(test_rule_base_text)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, "(role robot)\n(parent a b)\n"
                              "(<= (anc ?x ?y) (parent ?x ?y))\n");
  ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
  ck_assert_int_eq(gdl_is_game(ctx), 0);
  ck_assert_int_eq(gdl_error_count(ctx), 0);
  gdl_free(ctx);
  /* one game keyword makes it a game, which then lacks the others */
  ctx = tu_load_text(&st, 0, "(role robot)\n(init (p a))\n");
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx), "nothing defines "
                               "'legal'"));
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx), "nothing defines "
                               "'goal'"));
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx), "nothing defines "
                               "'terminal'"));
  ck_assert_int_eq(gdl_error_count(ctx), 3);
  gdl_free(ctx);
}
END_TEST

/* ---- mistakes of our own ------------------------------------------------ */

typedef struct {
  const char *text;
  unsigned flags;
  const char *sev;         /* "error" or "warning" */
  const char *msg;         /* the message contains this */
  const char *at;          /* the text the caret underlines ... */
  int nth;                 /* ... its nth occurrence in the text (1-based) */
  int nerrors;             /* exact number of errors, -1: not checked */
} own_t;

/* A minimal game to append cases to, where a case needs a game. */
#define GAME "(role r)\n(init s)\n(<= (legal r go) (true s))\n" \
             "(<= (next t) (does r go))\n(<= terminal (true t))\n" \
             "(goal r 100)\n"

/* 13 disjunctions of 2: 8192 rules */
#define OR2 " (or (q a) (q b))"
#define OR13 "(<= p" OR2 OR2 OR2 OR2 OR2 OR2 OR2 OR2 OR2 OR2 OR2 OR2 OR2 ")"

static const own_t own_cases[] = {
  /* safety */
  { "(q a)\n(<= (p ?x) (q ?x) (distinct ?x ?y))\n", 0, "error",
    "unsafe rule: variable ?y in 'distinct' is not bound by a positive "
    "literal of the body", "?y", 1, 1 },
  { "(<= (p ?x) (distinct ?x a))\n", 0, "error",
    "unsafe rule: variable ?x of the head", "?x", 1, 2 },
  { "(q a)\n(r b)\n(<= (p ?x) (or (q ?x) (r b)))\n", 0, "error",
    "unsafe rule: variable ?x of the head is bound in some disjuncts of an "
    "'or' but not in all of them", "?x", 1, 1 },
  { "(q a)\n(r b)\n(<= (p ?x) (or (q ?x) (r ?y)))\n", 0, "error",
    "unsafe rule: variable ?x of the head is bound in some disjuncts", "?x",
    1, 1 },
  { "(q a)\n(<= (p ?x) (q ?x) (not (r ?x ?z)))\n(r a b)\n", 0, "error",
    "unsafe rule: variable ?z under 'not' is not bound", "?z", 1, 1 },
  { "(q a)\n(<= (p ?x) (q ?y))\n", 0, "error",
    "unsafe rule: variable ?x of the head is not bound", "?x", 1, 1 },
  /* stratification and recursion */
  { "(d a)\n(<= (p ?x) (d ?x) (not (q ?x)))\n"
    "(<= (q ?x) (d ?x) (not (p ?x)))\n", 0, "error",
    "negation through recursion: 'p' depends on itself through this 'not'",
    "(not (q ?x))", 1, 2 },
  { "(<= p (not p))\n", 0, "error", "negation through recursion: 'p'",
    "(not p)", 1, 1 },
  { "(num 0)\n(<= (num (s ?x)) (num ?x))\n", 0, "error",
    "recursion restriction: argument 1 of this recursive literal",
    "(num ?x)", 1, 1 },
  { "(succ 0 1)\n(succ 1 2)\n(num 0)\n"
    "(<= (num ?y) (num ?x) (succ ?x ?y))\n(<= (num2 (f ?y)) (num ?y))\n",
    0, "", NULL, NULL, 0, 0 },   /* accepted: succ bounds the recursion */
  /* keywords */
  { "(legal a)\n", 0, "error", "'legal' takes 2 arguments, not 1",
    "(legal a)", 1, 1 },
  { "(role)\n", 0, "error", "'role' takes 1 argument, not 0", "(role)", 1,
    1 },
  { "(terminal now)\n", 0, "error", "'terminal' takes 0 arguments, not 1",
    "(terminal now)", 1, 1 },
  { "(q a)\n(<= (goal ?x) (q ?x))\n", 0, "error",
    "'goal' takes 2 arguments, not 1", "(goal ?x)", 1, 1 },
  { "(q a)\n(<= (p ?x) (q ?x) (true ?x ?x))\n", 0, "error",
    "'true' takes 1 argument, not 2", "(true ?x ?x)", 1, 1 },
  { "(true a)\n", 0, "error", "'true' cannot be a fact: it is given by the "
    "state and the moves", "(true a)", 1, 1 },
  { "(does r a)\n", 0, "error", "'does' cannot be a fact", "(does r a)", 1,
    1 },
  { "(q a)\n(<= (true a) (q a))\n", 0, "error", "'true' cannot be the head "
    "of a rule: it is given by the state and the moves", "(true a)", 1, 1 },
  { "(q a)\n(<= (does r a) (q a))\n", 0, "error", "'does' cannot be the "
    "head of a rule", "(does r a)", 1, 1 },
  { "(p not)\n", 0, "error", "'not' is a keyword and cannot be used as a "
    "constant", "not", 1, 1 },
  { "(p (f or))\n", 0, "error", "'or' is a keyword and cannot be used as a "
    "constant", "or", 1, 1 },
  { "(p (distinct a b))\n", 0, "error", "'distinct' is a keyword and cannot "
    "be used as a function name", "distinct", 1, 1 },
  { "(q a)\n(<= p (q a) distinct)\n", 0, "error", "'distinct' is a keyword "
    "and cannot stand alone as a sentence", "distinct", 1, 1 },
  { "(not p)\n", 0, "error", "'not' can only be used in the body of a rule",
    "(not p)", 1, 1 },
  { "(<= (not p) (q a))\n(q a)\n", 0, "error", "'not' cannot be the head "
    "of a rule", "not", 1, 1 },
  { "(<= (or p) (q a))\n(q a)\n", 0, "error", "'or' cannot be the head "
    "of a rule", "or", 1, 1 },
  { "(q a)\n(<= p (q a) (<= r (q a)))\n", 0, "error", "'<=' cannot be used "
    "inside a rule", "<=", 2, 1 },
  { "(<=)\n", 0, "error", "a rule needs a head: (<= HEAD BODY...)", "(<=)",
    1, 1 },
  { "(q a)\n(<= p (q a) (not (q a) (q b)))\n", 0, "error",
    "'not' takes one literal", "(not (q a) (q b))", 1, 1 },
  { "(q a)\n(<= p (q a) (not (or (q a) (q b))))\n", 0, "error",
    "'not' applies to a sentence, not to 'or'", "or", 1, 1 },
  { "(q a)\n(<= (p ?x) (q ?x) (distinct ?x))\n", 0, "error",
    "'distinct' takes 2 arguments", "(distinct ?x)", 1, 1 },
  { "(q a)\n(<= (p ?x) (q ?x) (distinct ?x a b))\n", 0, "error",
    "'distinct' takes 2 arguments", "(distinct ?x a b)", 1, 1 },
  { "(q a)\n(<= (p ?x) (q ?x) (not (distinct ?x a)))\n", 0, "error",
    "(not (distinct ...)) is not GDL", "(not (distinct ?x a))", 1, 1 },
  { "(q a)\n(<= (p ?x) (q ?x) (not (distinct ?x)))\n", GDL_CLEAN, "error",
    "'distinct' takes 2 arguments", "(distinct ?x)", 1, 1 },
  { "(q a)\n(<= (p ?x) (q ?x) (not (distinct ?x a)))\n", GDL_CLEAN, "",
    NULL, NULL, 0, 0 },
  { "(q a)\n(<= p (q a) (or))\n", 0, "error", "empty (or): a disjunction "
    "needs at least one literal", "(or)", 1, 1 },
  { "(q a)\n" OR13 "\n", 0, "error",
    "the disjunctions of this rule expand to more than 4096 rules", OR13, 1,
    1 },
  /* the shape of sentences */
  /* (the caret marks the inner list's '(' only, as griddle expects) */
  { "((p) a)\n", 0, "error", "a list cannot start with a list: the first "
    "element must be a relation name", "(", 2, 1 },
  { "(q a)\n(<= r (q a) ((q a) b))\n", 0, "error", "a list cannot start "
    "with a list", "(", 5, 1 },
  { "(p ((f) a))\n", 0, "error", "a list cannot start with a list: the "
    "first element must be a name", "(", 3, 1 },
  { "()\n", 0, "error", "'()' is not a sentence", "()", 1, 1 },
  { "(p ())\n", 0, "error", "'()' is not a term", "()", 1, 1 },
  { "(q a)\n(<= r (q a) ())\n", 0, "error", "'()' is not a sentence", "()",
    1, 1 },
  { "(q a)\n(<= (?r a) (q a))\n", 0, "error", "a relation name cannot be a "
    "variable (?r)", "?r", 1, 1 },
  { "(q a)\n(<= p (q ?r) (?r a))\n", 0, "error", "a relation name cannot be "
    "a variable (?r)", "?r", 2, 1 },
  { "(q a)\n(<= p (q ?x) ?x)\n", 0, "error", "a sentence cannot be a "
    "variable (?x)", "?x", 2, 1 },
  { "(q a)\n(<= (p (?f a)) (q ?f))\n", 0, "error", "a function name cannot "
    "be a variable (?f)", "?f", 1, 1 },
  { "(p a)\n?x\n", 0, "error", "a variable cannot stand alone at the top "
    "level (?x)", "?x", 1, 1 },
  { "(p a)\n(p ?x)\n", 0, "error", "variable ?x in a fact: a fact must be "
    "ground", "?x", 1, 1 },
  { "(p a)\n(p (f (g ?deep)))\n", 0, "error", "variable ?deep in a fact",
    "?deep", 1, 1 },
  /* arities */
  { "(q a)\n(<= (p ?x) (q ?x ?x))\n", 0, "error", "relation 'q' is used "
    "with 2 arguments here but with 1 at test.kif:1:1", "(q ?x ?x)", 1, 1 },
  { "(q a)\n(<= (q ?x ?y) (q ?x) (q ?y))\n", 0, "error", "relation 'q' is "
    "used with 2 arguments here but with 1 at test.kif:1:1", "(q ?x ?y)", 1,
    1 },
  { "(q a)\n(q a b)\n", 0, "warning", "relation 'q' has 2 arguments here "
    "but 1 at test.kif:1:1; the facts are kept as two relations",
    "(q a b)", 1, 0 },
  { "(p (f a))\n(p (f a b))\n", 0, "warning", "function 'f' is used with 2 "
    "arguments here and with 1 elsewhere", "f", 2, 0 },
  /* warnings */
  { "(q a)\n(<= (p ?x) (q ?x) (r ?x))\n", 0, "warning", "'r' is used but "
    "never defined, so it is always false", "(r ?x)", 1, 0 },
  { "(<= p (q a))\n", 0, "warning", "'q' is used but never defined",
    "(q a)", 1, 0 },
  { "(<= (p a))\n", 0, "warning", "rule with an empty body: write the head "
    "as a fact", "(<= (p a))", 1, 0 },
  { "p\n(<= q (p))\n", 0, "warning", "'p' is written both as (p) and as p",
    "(p)", 1, 0 },
  /* restricted dependencies */
  { GAME "(<= moved (does r go))\n(<= (legal r stay) moved)\n", 0, "error",
    "'legal' must not depend on 'does', but 'moved' does", "moved", 2, 1 },
  { GAME "(<= (goal r 0) (does r go))\n", 0, "error",
    "'goal' must not depend on 'does'", "(does r go)", 2, 1 },
  { GAME "(<= terminal (does r go))\n", 0, "error",
    "'terminal' must not depend on 'does'", "(does r go)", 2, 1 },
  { GAME "(<= (role ?x) (true (who ?x)))\n", 0, "error",
    "'role' must not depend on 'true'", "(true (who ?x))", 1, 1 },
  { GAME "(<= (init s) (true t))\n", 0, "error",
    "'init' must not depend on 'true'", "(true t)", 2, 1 },
  { GAME "(<= lit (true s))\n(<= (init t) lit)\n", 0, "error",
    "'init' must not depend on 'true', but 'lit' does", "lit", 2, 1 },
  /* arities: the arity used most is meant, the slip is the other */
  { "(flip a b c)\n(flip b a)\n(<= (p ?x) (flip ?x ?y))\n", 0, "error",
    "relation 'flip' is used with 3 arguments here but with 2 at "
    "test.kif:2:1 and in 1 other place", "(flip a b c)", 1, 1 },
  { "(q a b)\n(q a)\n(q b)\n", 0, "warning", "relation 'q' has 2 arguments "
    "here but 1 at test.kif:2:1 and in 1 other place; the facts are kept as "
    "two relations", "(q a b)", 1, 0 },
  { "(q a)\n(q a b)\n(<= (p ?x) (q ?x))\n(<= (p ?x) (q ?x ?x))\n"
    "(<= (r ?x) (q ?x ?y))\n", 0, "error", "relation 'q' is used with 1 "
    "argument here but with 2 at test.kif:2:1 and in 2 other places", "(q a)",
    1, 2 },
  /* likely slips: the name meant */
  { GAME "(inti t)\n", 0, "warning", "'inti' is defined but nothing reads "
    "it; did you mean the keyword 'init'?", "inti", 1, 0 },
  { GAME "(inti t)\n", 0, "note", "'init' is defined here", "init", 1, 0 },
  { GAME "(<= termnal (true s))\n", 0, "warning", "'termnal' is defined but "
    "nothing reads it; did you mean the keyword 'terminal'?", "termnal", 1,
    0 },
  { GAME "(<= (turned ?x) (true ?x))\n(<= (turnde ?x) (true ?x))\n"
    "(<= (goal r 50) (turned s))\n", 0, "warning", "'turnde' is defined but "
    "nothing reads it; did you mean 'turned'?", "turnde", 1, 0 },
  { GAME "(<= (turnde ?x) (true ?x))\n(<= (turned ?x) (true ?x))\n"
    "(<= (goal r 50) (turned s))\n", 0, "note", "'turned' is defined here",
    "turned", 1, 0 },
  { GAME "(<= (goal r 50) (movd s))\n(<= (moved ?x) (true ?x))\n", 0,
    "warning", "'movd' is used but never defined, so it is always false; "
    "did you mean 'moved'?", "(movd s)", 1, 0 },
  { GAME "(<= (goal r 50) (ture s))\n", 0, "warning", "'ture' is used but "
    "never defined, so it is always false; did you mean 'true'?", "(ture s)",
    1, 0 },
  /* a misspelt variable: unsafe, or written once */
  { "(q a b)\n(<= (p ?b) (q ?a ?b) (not (q ?a ?bb)))\n", 0, "error",
    "unsafe rule: variable ?bb under 'not' is not bound by a positive "
    "literal of the body; did you mean ?b?", "?bb", 1, 1 },
  { "(q a b)\n(<= (p ?new) (q ?old ?new) (q ?nwe ?old))\n", 0, "warning",
    "variable ?nwe is written only once in this rule; did you mean ?new?",
    "?nwe", 1, 0 },
  { "(q a b)\n(<= (p ?x) (q ?x ?from) (q ?form ?x))\n", 0, "warning",
    "variable ?form is written only once in this rule; did you mean ?from?",
    "?form", 1, 0 },
  { GAME, 0, "", NULL, NULL, 0, 0 },
};
#define NOWN (sizeof own_cases / sizeof *own_cases)

/* Descriptions without a slip, though names are near: no warning. */
static const char *const no_slips[] = {
  /* numbered on purpose */
  GAME "(row1 a)\n(row2 b)\n(<= (goal r 50) (row1 a))\n",
  GAME "(<= (goal r 50) (test2 a))\n(test a)\n(test2 a)\n",
  /* short names, one letter apart */
  GAME "(ab a)\n(<= (goal r 50) (ba a))\n(ba a)\n",
  /* a rule base: what it defines is there to be asked */
  "(parent a b)\n(<= (parents ?x) (parent ?x ?y))\n",
  /* variables written once on purpose: one apart at the start or the end,
   * a different name altogether, or _ */
  "(q a b c d)\n(<= (p ?x) (q ?x ?xAny ?yAny ?x))\n",
  "(q a b c d)\n(<= (p ?x) (q ?x ?anyX ?anyY ?x))\n",
  "(q a b)\n(<= (p ?ptype) (q ?ptype ?type) (q ?ptype ?z))\n",
  "(q a b)\n(<= (p ?c) (q ?c ?other))\n",
  "(q a b)\n(<= (p ?row) (q ?row ?row2))\n",
  "(q a b)\n(<= (p ?new) (q ?new ?_nwe))\n",
  "(q a b)\n(<= (p ?x) (q ?x ?y))\n",
};

START_TEST(test_no_slips)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, no_slips[_i]);
  ck_assert_msg(st == GDL_OK && gdl_warning_count(ctx) == 0, "for:\n%s\n"
                "got:\n%s", no_slips[_i], gdl_diagnostics(ctx));
  gdl_free(ctx);
}
END_TEST

/* ---- the edit distance and its policy (typos.c) ---------------------- */

uint32_t typo_distance(const char *a, size_t na, const char *b, size_t nb);
uint32_t typo_near(const char *a, size_t na, const char *b, size_t nb);

typedef struct {
  const char *a, *b;
  uint32_t d;
} dist_t;

static const dist_t distances[] = {
  { "", "", 0 }, { "", "abc", 3 }, { "abc", "", 3 }, { "init", "init", 0 },
  /* a swap of neighbours is one edit (Levenshtein counts two) */
  { "inti", "init", 1 }, { "turnde", "turned", 1 }, { "nwe", "new", 1 },
  { "termnal", "terminal", 1 }, { "terminal", "termnal", 1 },
  { "timeOut", "timeout", 1 }, { "kitten", "sitting", 3 },
  { "flaw", "lawn", 2 },
  /* optimal string alignment: no part edited twice, so "ca" is 3 from
   * "abc" (unrestricted Damerau-Levenshtein says 2) */
  { "ca", "abc", 3 },
  { "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl",
    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkm", 1 },
  /* 65 bytes: not compared */
  { "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklm",
    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklm",
    UINT32_MAX },
};

START_TEST(test_typo_distance)
{
  const dist_t *c = &distances[_i];
  uint32_t d = typo_distance(c->a, strlen(c->a), c->b, strlen(c->b));
  ck_assert_msg(d == c->d, "distance of '%s' and '%s': %u, expected %u",
                c->a, c->b, d, c->d);
}
END_TEST

static const dist_t nears[] = {
  { "inti", "init", 1 }, { "termnal", "terminal", 1 },
  { "turnde", "turned", 1 }, { "mov", "move", 1 },
  { "travel", "tarvle", 2 },          /* 2 edits: 6 characters and more */
  { "trave", "tarvl", 0 },            /* ... not 5 */
  { "kitten", "sitting", 0 },         /* 3 edits: never */
  { "ab", "ba", 0 }, { "x", "y", 0 }, { "ab", "abc", 0 },  /* short */
  { "bb", "b", 1 }, { "b", "bb", 1 }, /* ... but for a doubled character */
  { "row1", "row2", 0 }, { "test2", "test", 0 },  /* only digits differ */
  { "", "a", 0 },
};

START_TEST(test_typo_near)
{
  const dist_t *c = &nears[_i];
  uint32_t d = typo_near(c->a, strlen(c->a), c->b, strlen(c->b));
  ck_assert_msg(d == c->d, "'%s' near '%s': %u, expected %u", c->a, c->b, d,
                c->d);
}
END_TEST

/* A generated description with thousands of names read and never defined
 * and thousands defined and never read: past the budget of comparisons,
 * each undefined name is reported without a suggestion (rel300x would be
 * named for rez300), and quickly. */
START_TEST(test_typo_budget)
{
  size_t cap = 1u << 20, len = 0;
  char *text = malloc(cap);
  int i;
  gdl_status st;
  gdl_ctx *ctx;
  len += (size_t)snprintf(text + len, cap - len, "%s", GAME);
  for (i = 0; i < 17000; i++)
    len += (size_t)snprintf(text + len, cap - len, "(rel%dx a)\n", i);
  for (i = 0; i < 1000; i++)
    len += (size_t)snprintf(text + len, cap - len,
                            "(<= (goal r %d) (rez%d a))\n", i, i);
  ctx = tu_load_text(&st, 0, text);
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_uint_eq(gdl_warning_count(ctx), 1000);
  ck_assert_ptr_null(strstr(gdl_diagnostics(ctx), "did you mean"));
  gdl_free(ctx);
  /* under the budget, the same names are suggested */
  len = (size_t)snprintf(text, cap, "%s(rel300x a)\n(<= (goal r 1) "
                         "(rez300 a))\n", GAME);
  ctx = tu_load_text(&st, 0, text);
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx), "'rez300' is used but "
                               "never defined, so it is always false; did "
                               "you mean 'rel300x'?"));
  gdl_free(ctx);
  free(text);
}
END_TEST

/* ---- a library's names are not slips of the game ---------------------- */

/* The library defines blocker, which the game does not read and whose
 * name is near blocked, which it does; and reads guard, which the game
 * does not define. */
#define LIB "(<= (blocked ?x) (wall ?x))\n(<= (blocker ?x) (guard ?x))\n"
#define USER "(role r)\n(init s)\n(wall a)\n" \
             "(<= (legal r go) (true s) (not (blocked a)))\n" \
             "(<= (next s) (does r go))\n(<= terminal (true s))\n" \
             "(goal r 100)\n"

START_TEST(test_library_exempt)
{
  char dir[] = "/tmp/gdl-checker-XXXXXX", lib[64], game[64], both[64],
       cmd[100];
  gdl_status st;
  gdl_ctx *ctx;
  dt_diag d;
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(lib, sizeof lib, "%s/lib.kif", dir);
  snprintf(game, sizeof game, "%s/game.kif", dir);
  snprintf(both, sizeof both, "%s/both.kif", dir);
  ck_assert_int_eq(dt_write(lib, LIB, strlen(LIB)), 0);
  ck_assert_int_eq(dt_write(game, ";#include \"lib.kif\"\n" USER,
                            strlen(";#include \"lib.kif\"\n" USER)), 0);
  ck_assert_int_eq(dt_write(both, USER LIB, strlen(USER LIB)), 0);
  /* included: nothing to say */
  ctx = tu_load(&st, 0, game, NULL);
  ck_assert_msg(st == GDL_OK && gdl_warning_count(ctx) == 0, "%s",
                gdl_diagnostics(ctx));
  gdl_free(ctx);
  /* the same rules in the game's own file: blocker is a slip, and guard
   * is read but never defined */
  ctx = tu_load(&st, 0, both, NULL);
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_uint_eq(gdl_warning_count(ctx), 2);
  ck_assert_msg(dt_find(gdl_diagnostics(ctx), "warning", "'blocker' is "
                        "defined but nothing reads it; did you mean "
                        "'blocked'?", &d), "%s", gdl_diagnostics(ctx));
  ck_assert_uint_eq(d.line, 9);
  ck_assert_uint_eq(d.col, 6);         /* (<= (blocker ?x) ... */
  ck_assert_msg(dt_find(gdl_diagnostics(ctx), "warning", "'guard' is used "
                        "but never defined", &d), "%s", gdl_diagnostics(ctx));
  gdl_free(ctx);
  /* named on the command line, the library is the game's own */
  ctx = tu_load(&st, 0, lib, both, NULL);
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_msg(dt_find(gdl_diagnostics(ctx), "warning", "'blocker' is "
                        "defined but nothing reads it", &d), "%s",
                gdl_diagnostics(ctx));
  ck_assert_str_eq(d.file, lib);
  gdl_free(ctx);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Offset of the nth occurrence of `at` in text. */
static size_t nth_offset(const char *text, const char *at, int nth)
{
  const char *p = text - 1;
  int k;
  for (k = 0; k < nth; k++) {
    p = strstr(p + 1, at);
    ck_assert_msg(p != NULL, "no occurrence %d of \"%s\"", nth, at);
  }
  return (size_t)(p - text);
}

START_TEST(test_own)
{
  const own_t *c = &own_cases[_i];
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, c->flags, c->text);
  const char *text = gdl_diagnostics(ctx);
  dt_diag d;
  if (!c->msg) {
    ck_assert_msg(st == GDL_OK && gdl_error_count(ctx) == 0, "rejected:\n%s"
                  "\n%s", c->text, text);
    gdl_free(ctx);
    return;
  }
  if (strcmp(c->sev, "error") == 0)
    ck_assert_msg(st == GDL_EINPUT, "accepted:\n%s\n%s", c->text, text);
  else
    ck_assert_msg(st == GDL_OK, "rejected:\n%s\n%s", c->text, text);
  if (c->nerrors >= 0)
    ck_assert_msg(gdl_error_count(ctx) == (size_t)c->nerrors, "%zu errors, "
                  "expected %d:\n%s\n%s", gdl_error_count(ctx), c->nerrors,
                  c->text, text);
  ck_assert_msg(dt_find(text, c->sev, c->msg, &d), "no %s \"%s\" for:\n%s\n"
                "got:\n%s", c->sev, c->msg, c->text, text);
  {
    size_t off = nth_offset(c->text, c->at, c->nth);
    unsigned line, col;
    dt_where(c->text, off, &line, &col);
    ck_assert_str_eq(d.file, "test.kif");
    ck_assert_msg(d.line == line && d.col == col, "\"%s\": expected %u:%u, "
                  "got %u:%u for:\n%s\n%s", c->msg, line, col, d.line, d.col,
                  c->text, text);
    ck_assert_msg(d.span == strlen(c->at), "\"%s\": caret span %u, expected "
                  "%zu (\"%s\") for:\n%s\n%s", c->msg, d.span, strlen(c->at),
                  c->at, c->text, text);
  }
  gdl_free(ctx);
}
END_TEST

/* Several mistakes in one file are all reported, each at its line. */
START_TEST(test_many_kinds)
{
  static const char text[] =
    "(role r)\n"                                  /* 1 */
    "(init s)\n"                                  /* 2 */
    "(<= (legal r (go ?x)) (true s))\n"           /* 3: unsafe head */
    "(<= (next t) (does r (go a)))\n"             /* 4 */
    "(<= terminal (true t) (not (q ?y)))\n"       /* 5: unsafe not */
    "(goal r 100 extra)\n"                        /* 6: goal arity */
    "(w a ?z)\n"                                  /* 7: variable in fact */
    "(true s)\n"                                  /* 8: true as a fact */
    "((q a))\n";                                  /* 9: list head */
  static const unsigned lines[] = { 3, 5, 6, 7, 8, 9 };
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, text);
  const char *diags = gdl_diagnostics(ctx);
  dt_diag all[32];
  size_t n = dt_parse(diags, all, 32), i, k;
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_msg(gdl_error_count(ctx) == 6, "%s", diags);
  ck_assert_uint_eq(dt_count(diags, ": error: "), 6);
  for (k = 0; k < sizeof lines / sizeof *lines; k++) {
    int found = 0;
    for (i = 0; i < n && i < 32; i++)
      if (strcmp(all[i].sev, "error") == 0 && all[i].line == lines[k])
        found = 1;
    ck_assert_msg(found, "no error on line %u:\n%s", lines[k], diags);
  }
  gdl_free(ctx);
}
END_TEST

/* N facts with a variable: N errors, at most 50 shown, then a note. */
static const int many_counts[] = { 1, 10, 49, 50, 51, 80, 500 };

START_TEST(test_many_errors)
{
  int n = many_counts[_i], i;
  size_t cap = (size_t)n * 32 + 16, len = 0;
  char *text = malloc(cap);
  gdl_status st;
  gdl_ctx *ctx;
  const char *diags;
  size_t shown;
  dt_diag last;
  for (i = 0; i < n; i++)
    len += (size_t)snprintf(text + len, cap - len, "(p%d ?x)\n", i);
  ctx = tu_load_text(&st, 0, text);
  diags = gdl_diagnostics(ctx);
  ck_assert_int_eq(st, GDL_EINPUT);
  shown = dt_count(diags, ": error: ");
  ck_assert_uint_eq(shown, n < 50 ? (size_t)n : 50);
  ck_assert_uint_ge(gdl_error_count(ctx), shown);
  if (n > 50) {
    ck_assert_uint_eq(dt_count(diags, ": note: too many errors; the rest are "
                               "not shown"), 1);
    /* the note comes last */
    ck_assert_uint_eq(dt_parse(diags, &last, 0), 51);
  } else {
    ck_assert_uint_eq(dt_count(diags, "too many errors"), 0);
  }
  /* every error shown points at its own line, in order */
  {
    dt_diag *all = calloc(64, sizeof *all);
    size_t k, m = dt_parse(diags, all, 64);
    for (k = 0; k < m && k < 50 && k < (size_t)n; k++) {
      ck_assert_str_eq(all[k].sev, "error");
      ck_assert_uint_eq(all[k].line, k + 1);
      ck_assert_uint_eq(all[k].col, k < 10 ? 5 : 6);   /* "(pK ?x)" */
    }
    if (n > 50)
      ck_assert_str_eq(all[50].sev, "note");
    free(all);
  }
  gdl_free(ctx);
  free(text);
}
END_TEST

/* Syntax errors of many kinds in one file: all reported. */
START_TEST(test_many_syntax_errors)
{
  static const char text[] =
    "(p a))\n"                 /* 1:6 unmatched */
    "(p b) \x01 (p c)\n"       /* 2:7 control character */
    "(p d)))))\n"              /* 3:6 one error for the run */
    "(p e\n";                  /* 4:1 unclosed */
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, text);
  const char *diags = gdl_diagnostics(ctx);
  dt_diag all[8];
  size_t n = dt_parse(diags, all, 8);
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_msg(n == 4, "%s", diags);
  ck_assert_uint_eq(all[0].line, 1);
  ck_assert_uint_eq(all[0].col, 6);
  ck_assert_ptr_nonnull(strstr(all[0].msg, "unmatched ')'"));
  ck_assert_uint_eq(all[1].line, 2);
  ck_assert_uint_eq(all[1].col, 7);
  ck_assert_ptr_nonnull(strstr(all[1].msg, "stray control character"));
  ck_assert_uint_eq(all[2].line, 3);
  ck_assert_uint_eq(all[2].col, 6);
  ck_assert_uint_eq(all[3].line, 4);
  ck_assert_uint_eq(all[3].col, 1);
  ck_assert_ptr_nonnull(strstr(all[3].msg, "unclosed '('"));
  gdl_free(ctx);
}
END_TEST

Suite *checker_suite(void)
{
  Suite *s = suite_create("checker");
  TCase *tc = tcase_create("conformance");
  tcase_set_timeout(tc, 30);
  tcase_add_loop_test(tc, test_conformance, 0, NCONF);
  tcase_add_test(tc, test_griddle_single_problem);
  tcase_add_test(tc, test_griddle_badparens3_crlf);
  suite_add_tcase(s, tc);
  tc = tcase_create("decisions");
  tcase_add_test(tc, test_clean_flag);
  tcase_add_loop_test(tc, test_rule_bases, 0,
                      sizeof rulebases / sizeof *rulebases);
  tcase_add_test(tc, test_rule_base_text);
  suite_add_tcase(s, tc);
  tc = tcase_create("own");
  tcase_add_loop_test(tc, test_own, 0, NOWN);
  tcase_add_test(tc, test_many_kinds);
  tcase_add_loop_test(tc, test_many_errors, 0,
                      sizeof many_counts / sizeof *many_counts);
  tcase_add_test(tc, test_many_syntax_errors);
  suite_add_tcase(s, tc);
  tc = tcase_create("slips");
  tcase_add_loop_test(tc, test_no_slips, 0,
                      sizeof no_slips / sizeof *no_slips);
  tcase_add_loop_test(tc, test_typo_distance, 0,
                      sizeof distances / sizeof *distances);
  tcase_add_loop_test(tc, test_typo_near, 0, sizeof nears / sizeof *nears);
  tcase_add_test(tc, test_library_exempt);
  tcase_add_test(tc, test_typo_budget);
  suite_add_tcase(s, tc);
  return s;
}
