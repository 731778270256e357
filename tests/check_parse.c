/*
 * check_parse.c - the reader: comments, line ends, white space, case,
 * symbols, zero-arity sentences, rules without a body, bare atoms,
 * several files as one description, and `;#include`.
 *
 * What was read is observed from outside: gdl_query() on the relations,
 * the game API, and the text of gdl_diagnostics().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "diagtext.h"

/* ---- helpers ------------------------------------------------------------ */

typedef struct {
  char *s;
  size_t n, cap;
  gdl_ctx *ctx;
} answers_t;

static int collect(void *arg, gdl_term t)
{
  answers_t *a = arg;
  const char *s = gdl_term_str(a->ctx, t);
  size_t len = strlen(s);
  if (a->n + len + 4 > a->cap) {
    a->cap = (a->n + len + 4) * 2;
    a->s = realloc(a->s, a->cap);
  }
  if (a->n)
    a->n += (size_t)sprintf(a->s + a->n, " | ");
  memcpy(a->s + a->n, s, len + 1);
  a->n += len;
  return 0;
}

/* Every answer to the pattern, in gdl_query order, joined by " | "
 * (malloc'd; "" when none). */
static char *answers(gdl_ctx *ctx, const char *pattern)
{
  answers_t a = { NULL, 0, 0, ctx };
  gdl_term t;
  ck_assert_msg(gdl_parse_term(ctx, pattern, 1, &t) == GDL_OK,
                "pattern %s: %s", pattern, gdl_errmsg(ctx));
  ck_assert_int_eq(gdl_query(ctx, t, collect, &a), GDL_OK);
  if (!a.s)
    a.s = strdup("");
  return a.s;
}

static void assert_answers(gdl_ctx *ctx, const char *pattern,
                           const char *expect)
{
  char *got = answers(ctx, pattern);
  ck_assert_msg(strcmp(got, expect) == 0, "%s: expected [%s], got [%s]",
                pattern, expect, got);
  free(got);
}

/* Loads and compiles text that must be accepted without any diagnostic. */
static gdl_ctx *load_clean(const char *text)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, text);
  ck_assert_msg(st == GDL_OK, "status %d for:\n%s\n%s", st, text,
                gdl_diagnostics(ctx));
  ck_assert_msg(gdl_diagnostics(ctx)[0] == 0, "unexpected messages for:\n"
                "%s\n%s", text, gdl_diagnostics(ctx));
  return ctx;
}

/* A fresh temporary directory (malloc'd path). */
static char *temp_dir(void)
{
  char *d = strdup("/tmp/gdl-parse-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(d));
  return d;
}

/* Writes DIR/REL (creating the folders REL names); returns the path
 * in a static buffer of the caller's (overwritten by the next call). */
static const char *put(const char *dir, const char *rel, const char *text)
{
  static char path[1024];
  const char *slash = strrchr(rel, '/');
  if (slash) {
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/%.*s'", dir,
             (int)(slash - rel), rel);
    ck_assert_int_eq(system(cmd), 0);
  }
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  ck_assert_int_eq(dt_write(path, text, strlen(text)), 0);
  return path;
}

static void remove_dir(const char *dir)
{
  char cmd[1100];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}

/* ---- comments ----------------------------------------------------------- */

static const char *const comment_texts[] = {
  "; a comment first\n(p a)\n",
  "(p a) ; a comment after a form\n",
  "(p ; a comment inside a form\n a)\n",
  "(p a)\n; a comment at the end, no newline",
  "(p a);touching the form, no newline",
  ";;; (p b) is commented out\n(p a)\n",
  "(p a)\n;(p b)\n",
  "(p a) ; (((( parentheses in a comment are not read\n",
  "(p a) ; ))))\n",
  "(p;c1\na;c2\n);c3",
  ";\n;\n\n(p a)\n;",
  "(p a);",
};

START_TEST(test_comments)
{
  gdl_ctx *ctx = load_clean(comment_texts[_i]);
  assert_answers(ctx, "(p ?x)", "(p a)");
  gdl_free(ctx);
}
END_TEST

/* griddle_commentEof: ";;;" and nothing else is zero forms, accepted. */
START_TEST(test_comment_eof_file)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load(&st, 0, tu_corpus("conformance/griddle_commentEof.kif"),
                         NULL);
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_str_eq(gdl_diagnostics(ctx), "");
  ck_assert_int_eq(gdl_error_count(ctx), 0);
  ck_assert_int_eq(gdl_warning_count(ctx), 0);
  ck_assert_int_eq(gdl_is_game(ctx), 0);
  ck_assert_int_eq(gdl_role_count(ctx), 0);
  gdl_free(ctx);
  ctx = load_clean(";;;");
  ck_assert_int_eq(gdl_is_game(ctx), 0);
  gdl_free(ctx);
}
END_TEST

/* GameParsingTest: two comment lines, a trailing comment, 4 forms. */
START_TEST(test_comment_sample)
{
  gdl_ctx *ctx = load_clean("; the first comment line\n"
                            "; the second comment line\n"
                            "(role robot) ; a trailing comment\n"
                            "(p a)\n(p b)\n(q c)\n");
  assert_answers(ctx, "(role ?r)", "(role robot)");
  assert_answers(ctx, "(p ?x)", "(p a) | (p b)");
  assert_answers(ctx, "(q ?x)", "(q c)");
  gdl_free(ctx);
}
END_TEST

/* ---- line ends and white space ------------------------------------------ */

static const char *const space_texts[] = {
  "(p a)\r\n(<= (q ?x)\r\n    (p ?x))\r\n",
  "; comment\r\n(p a)\r\n(<= (q ?x) (p ?x)) ; comment\r\n",
  "(p a)\r(<= (q ?x)\r(p ?x))\r",
  "(p\ta)\t\n\t(<=\t(q\t?x)\t(p\t?x))",
  "\t\t(p a)\n\n\n   (<= (q ?x)\n\t\t(p ?x))   \n\n",
  "(p a)\f(<= (q ?x)\v(p ?x))",
  "( p  a )(<=(q ?x)(p ?x))",
};

START_TEST(test_white_space)
{
  gdl_ctx *ctx = load_clean(space_texts[_i]);
  assert_answers(ctx, "(q ?x)", "(q a)");
  gdl_free(ctx);
}
END_TEST

/* Positions count lines by '\n'; CRLF files point at the right column,
 * and the '\r' is not printed in the source line. */
START_TEST(test_crlf_positions)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, "(p a)\r\n(p b)\r\n(p ?x)\r\n");
  dt_diag d;
  const char *text;
  ck_assert_int_eq(st, GDL_EINPUT);
  text = gdl_diagnostics(ctx);
  ck_assert_msg(dt_find(text, "error", "variable ?x in a fact", &d), "%s",
                text);
  ck_assert_str_eq(d.file, "test.kif");
  ck_assert_uint_eq(d.line, 3);
  ck_assert_uint_eq(d.col, 4);
  ck_assert_uint_eq(d.span, 2);
  ck_assert_ptr_null(strchr(text, '\r'));
  ck_assert_ptr_nonnull(strstr(text, "\n  (p ?x)\n     ^~\n"));
  gdl_free(ctx);
}
END_TEST

/* A tab before the error is kept in the caret line, so the caret lines up
 * in a terminal; the column counts the tab as one. */
START_TEST(test_tab_positions)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, "(p a)\n\t(p\t?x)\n");
  dt_diag d;
  const char *text;
  ck_assert_int_eq(st, GDL_EINPUT);
  text = gdl_diagnostics(ctx);
  ck_assert(dt_find(text, "error", "variable ?x in a fact", &d));
  ck_assert_uint_eq(d.line, 2);
  ck_assert_uint_eq(d.col, 5);
  ck_assert_ptr_nonnull(strstr(text, "\n  \t(p\t?x)\n  \t  \t^~\n"));
  gdl_free(ctx);
}
END_TEST

/* ---- case --------------------------------------------------------------- */

/* Keywords in any case are keywords. */
static const char upper_game[] =
  "(ROLE robot)\n"
  "(INIT (cell a))\n"
  "(Init (count 0))\n"
  "(<= (LEGAL robot go) (TRUE (cell a)))\n"
  "(<= (Legal robot wait) (True (cell a))\n"
  "    (OR (TRUE (cell a)) (true (cell b))) (DISTINCT a b))\n"
  "(<= (NEXT (cell b)) (DOES robot go))\n"
  "(<= (next (cell a)) (Does robot wait))\n"
  "(<= TERMINAL (TRUE (cell b)))\n"
  "(<= (GOAL robot 100) (TRUE (cell b)))\n"
  "(<= (Goal robot 0) (NOT (true (cell b))))\n"
  "(<= (BASE (cell ?x)) (ok ?x))\n"
  "(<= (INPUT robot go) (ok a))\n"
  "(ok a) (ok b)\n";

START_TEST(test_upper_case_keywords)
{
  gdl_ctx *ctx = load_clean(upper_game);
  gdl_state s = { 0, 0, NULL };
  char *legal;
  ck_assert_int_eq(gdl_is_game(ctx), 1);
  ck_assert_uint_eq(gdl_role_count(ctx), 1);
  ck_assert_str_eq(gdl_term_str(ctx, gdl_role(ctx, 0)), "robot");
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ctx, &s), GDL_OK);
  legal = tu_legal_text(ctx, 0);
  ck_assert_str_eq(legal, "go wait");
  free(legal);
  ck_assert_int_eq(gdl_terminal(ctx), 0);
  ck_assert_int_eq(gdl_goal(ctx, 0), 0);
  tu_play(ctx, "go", &s);
  ck_assert_int_eq(gdl_terminal(ctx), 1);
  ck_assert_int_eq(gdl_goal(ctx, 0), 100);
  /* the keyword relations answer in lower case */
  assert_answers(ctx, "(base ?x)", "(base (cell a)) | (base (cell b))");
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
}
END_TEST

/* A keyword in upper case is still a keyword where one is not allowed. */
START_TEST(test_upper_case_keyword_misplaced)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, "(p NOT)\n(DISTINCT a b)\n");
  const char *text;
  dt_diag d;
  ck_assert_int_eq(st, GDL_EINPUT);
  text = gdl_diagnostics(ctx);
  ck_assert_msg(dt_find(text, "error", "'not' is a keyword", &d), "%s", text);
  ck_assert_uint_eq(d.line, 1);
  ck_assert_uint_eq(d.col, 4);
  ck_assert_uint_eq(d.span, 3);
  ck_assert_msg(dt_find(text, "error", "'distinct' can only be used in the "
                        "body of a rule", &d), "%s", text);
  ck_assert_uint_eq(d.line, 2);
  gdl_free(ctx);
}
END_TEST

/* Every other symbol keeps its case: timeOut and timeout are different
 * relations, Robot and robot different constants. */
START_TEST(test_symbols_keep_case)
{
  gdl_ctx *ctx = load_clean("(timeOut 1)\n(timeout 2)\n(TIMEOUT 3)\n"
                            "(<= (late ?x) (timeOut ?x))\n"
                            "(p Robot) (p robot) (p ROBOT)\n"
                            "(q ROLE) (q role) (q Role)\n");
  assert_answers(ctx, "(timeOut ?x)", "(timeOut 1)");
  assert_answers(ctx, "(timeout ?x)", "(timeout 2)");
  assert_answers(ctx, "(TIMEOUT ?x)", "(TIMEOUT 3)");
  assert_answers(ctx, "(TimeOut ?x)", "");
  assert_answers(ctx, "(late ?x)", "(late 1)");
  assert_answers(ctx, "(p robot)", "(p robot)");
  {
    char *all = answers(ctx, "(p ?x)");
    ck_assert_msg(dt_count(all, " | ") == 2, "%s", all);
    ck_assert_ptr_nonnull(strstr(all, "(p Robot)"));
    ck_assert_ptr_nonnull(strstr(all, "(p ROBOT)"));
    free(all);
  }
  /* a keyword used as an argument is the keyword, in any case */
  assert_answers(ctx, "(q ?x)", "(q role)");
  gdl_free(ctx);
}
END_TEST

/* ---- symbols ------------------------------------------------------------ */

static const char *const plain_symbols[] = {
  "+", "-", "<", ">", "++", "map+", "speed+", "-1", "-42", "1", "3.14",
  "a-b", "x?y", "!", "<<", ">=", "=<", "<==", "=>", "*", "/", "|", "#",
  "@home", "\"quoted\"", "'q", "a.b", "x_1", "0", "007",
};
#define NPLAIN (sizeof plain_symbols / sizeof *plain_symbols)

/* Symbols made of punctuation, and negative numbers, are plain symbols:
 * as constants, as relation names and as function names. */
START_TEST(test_plain_symbols)
{
  const char *sym = plain_symbols[_i];
  char text[1024], pat[256], want[256];
  gdl_ctx *ctx;
  snprintf(text, sizeof text,
           "(s %s)\n(s other)\n(%s a b)\n(r (%s c))\n"
           "(<= (t ?x) (s ?x) (distinct ?x other))\n"
           "(<= (u ?y) (%s ?y b))\n", sym, sym, sym, sym);
  ctx = load_clean(text);
  snprintf(want, sizeof want, "(t %s)", sym);
  assert_answers(ctx, "(t ?x)", want);
  snprintf(pat, sizeof pat, "(s %s)", sym);
  snprintf(want, sizeof want, "(s %s)", sym);
  assert_answers(ctx, pat, want);
  assert_answers(ctx, "(u ?y)", "(u a)");
  snprintf(want, sizeof want, "(r (%s c))", sym);
  assert_answers(ctx, "(r ?z)", want);
  gdl_free(ctx);
}
END_TEST

/* All of them at once are all different symbols; -1 is not 1. */
START_TEST(test_plain_symbols_distinct)
{
  char text[4096];
  size_t i, n = 0;
  gdl_ctx *ctx;
  char *all;
  for (i = 0; i < NPLAIN; i++)
    n += (size_t)snprintf(text + n, sizeof text - n, "(s %s)\n",
                          plain_symbols[i]);
  ctx = load_clean(text);
  all = answers(ctx, "(s ?x)");
  ck_assert_msg(dt_count(all, " | ") == NPLAIN - 1, "%s", all);
  free(all);
  assert_answers(ctx, "(s -1)", "(s -1)");
  assert_answers(ctx, "(s 1)", "(s 1)");
  gdl_free(ctx);
}
END_TEST

/* ---- zero-arity sentences ----------------------------------------------- */

static const struct {
  const char *text;
  int warns;            /* a warning that (p) and p are mixed */
} zero_cases[] = {
  { "(p)\n(<= q p)\n", 1 },
  { "p\n(<= q (p))\n", 1 },
  { "(<= (p) (r))\n(r)\n(<= q p)\n", 1 },
  { "(<= p r)\nr\n(<= (q) (p))\n", 1 },
  { "(p)\n(<= (q) (p))\n", 0 },
  { "p\n(<= q p)\n", 0 },
  { "(p)\n(<= q (not (s)) p)\n", 1 },
};

/* `(p)` and `p` are the same relation; mixing them gives a warning. */
START_TEST(test_zero_arity)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, zero_cases[_i].text);
  const char *text = gdl_diagnostics(ctx);
  ck_assert_msg(st == GDL_OK, "%s", text);
  ck_assert_int_eq(gdl_error_count(ctx), 0);
  ck_assert_msg((dt_count(text, "both mean the same zero-argument "
                          "relation") > 0) == zero_cases[_i].warns,
                "%s\n%s", zero_cases[_i].text, text);
  assert_answers(ctx, "q", "q");
  assert_answers(ctx, "(q)", "q");
  assert_answers(ctx, "p", "p");
  assert_answers(ctx, "(p)", "p");
  gdl_free(ctx);
}
END_TEST

/* ---- rules without a body, bare atoms ----------------------------------- */

START_TEST(test_rule_without_body)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, "(<= (p a))\n(<= r)\n(<= (p b)) ");
  const char *text = gdl_diagnostics(ctx);
  dt_diag d;
  ck_assert_msg(st == GDL_OK, "%s", text);
  assert_answers(ctx, "(p ?x)", "(p a) | (p b)");
  assert_answers(ctx, "r", "r");
  ck_assert_int_eq(gdl_warning_count(ctx), 3);
  ck_assert(dt_find(text, "warning", "rule with an empty body", &d));
  ck_assert_uint_eq(d.line, 1);
  ck_assert_uint_eq(d.col, 1);
  ck_assert_uint_eq(d.span, 10);
  gdl_free(ctx);
}
END_TEST

/* libgdl_ds_test: a bare top-level atom between comments. */
START_TEST(test_bare_atoms)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load(&st, 0, tu_corpus("conformance/libgdl_ds_test.kif"),
                         NULL);
  ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
  ck_assert_str_eq(gdl_diagnostics(ctx), "");
  assert_answers(ctx, "test", "test");
  ck_assert_int_eq(gdl_is_game(ctx), 0);
  gdl_free(ctx);
  ctx = load_clean("a b\nc ; three bare atoms\n(<= d a b c)\n");
  assert_answers(ctx, "d", "d");
  assert_answers(ctx, "(c)", "c");
  gdl_free(ctx);
}
END_TEST

/* ---- several files ------------------------------------------------------ */

static const char part_a[] =
  "(role r)\n"
  "(init (c 1))\n"
  "(<= (legal r (go ?x)) (true (c ?x)) (step ?x ?y))\n";
static const char part_b[] =
  "(step 1 2)\n(step 2 3)\n"
  "(<= (next (c ?y)) (does r (go ?x)) (step ?x ?y))\n"
  "(<= terminal (true (c 3)))\n"
  "(<= (goal r 100) (true (c 3)))\n"
  "(<= (goal r 0) (not (true (c 3))))\n";

/* Two files that are only a game together. */
START_TEST(test_two_files)
{
  char *dir = temp_dir(), *a, *b;
  gdl_status st;
  gdl_ctx *ctx;
  gdl_state s = { 0, 0, NULL };
  char *legal;
  a = strdup(put(dir, "a.kif", part_a));
  b = strdup(put(dir, "b.kif", part_b));
  ctx = tu_load(&st, 0, a, b, NULL);
  ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
  ck_assert_str_eq(gdl_diagnostics(ctx), "");
  ck_assert_int_eq(gdl_is_game(ctx), 1);
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ctx, &s), GDL_OK);
  legal = tu_legal_text(ctx, 0);
  ck_assert_str_eq(legal, "(go 1)");
  free(legal);
  tu_play(ctx, "(go 1) (go 2)", &s);
  ck_assert_int_eq(gdl_terminal(ctx), 1);
  ck_assert_int_eq(gdl_goal(ctx, 0), 100);
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
  /* the same file named twice is read once */
  ctx = tu_load(&st, 0, a, b, a, NULL);
  ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
  ck_assert_str_eq(gdl_diagnostics(ctx), "");
  gdl_free(ctx);
  /* each file alone is not a game */
  ctx = tu_load(&st, 0, a, NULL);
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx), "nothing defines"));
  gdl_free(ctx);
  remove_dir(dir);
  free(a);
  free(b);
  free(dir);
}
END_TEST

/* Messages name the file the mistake is in, also when a rule of one file
 * disagrees with another file. */
START_TEST(test_two_files_messages)
{
  char *dir = temp_dir(), *a, *b, want[1200];
  gdl_status st;
  gdl_ctx *ctx;
  const char *text;
  dt_diag d;
  a = strdup(put(dir, "a.kif", part_a));
  b = strdup(put(dir, "b.kif", "(step 1 2 3)\n(p ?x)\n"));
  ctx = tu_load(&st, 0, a, b, NULL);
  ck_assert_int_eq(st, GDL_EINPUT);
  text = gdl_diagnostics(ctx);
  ck_assert_msg(dt_find(text, "error", "variable ?x in a fact", &d), "%s",
                text);
  ck_assert_str_eq(d.file, b);
  ck_assert_uint_eq(d.line, 2);
  ck_assert_uint_eq(d.col, 4);
  gdl_free(ctx);
  /* without the bad fact: the arity clash names both places */
  b = (free(b), strdup(put(dir, "b.kif", "(step 1 2 3)\n")));
  ctx = tu_load(&st, 0, a, b, NULL);
  ck_assert_int_eq(st, GDL_EINPUT);
  text = gdl_diagnostics(ctx);
  ck_assert_msg(dt_find(text, "error", "relation 'step'", &d), "%s", text);
  ck_assert_str_eq(d.file, b);
  ck_assert_uint_eq(d.line, 1);
  ck_assert_uint_eq(d.col, 1);
  snprintf(want, sizeof want, "at %s:3:", a);
  ck_assert_msg(strstr(d.msg, want) != NULL, "%s", d.msg);
  gdl_free(ctx);
  remove_dir(dir);
  free(a);
  free(b);
  free(dir);
}
END_TEST

/* A description is complete once compiled: no more loading. */
START_TEST(test_load_after_compile)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, "(p a)\n");
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_int_eq(gdl_load_string(ctx, "more.kif", "(p b)", 5), GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_errmsg(ctx), "compiled"));
  assert_answers(ctx, "(p ?x)", "(p a)");
  gdl_free(ctx);
}
END_TEST

/* ---- ;#include ---------------------------------------------------------- */

/* main.kif names lib/rules.kif twice; rules.kif names facts.kif (relative
 * to lib/); facts.kif names itself by another path.  Each is read once:
 * facts.kif has a rule with an empty body, whose warning comes once. */
START_TEST(test_include)
{
  char *dir = temp_dir(), *main_kif;
  gdl_status st;
  gdl_ctx *ctx;
  gdl_state s = { 0, 0, NULL };
  const char *text;
  dt_diag d;
  main_kif = strdup(put(dir, "main.kif",
                        "(role r)\n"
                        ";#include \"lib/rules.kif\"\n"
                        ";#include \"lib/rules.kif\"\n"
                        "(init (c 1))\n"));
  put(dir, "lib/rules.kif",
      ";#include \"facts.kif\"\r\n"
      "(<= (legal r (go ?x)) (true (c ?x)) (step ?x ?y))\n"
      "(<= (next (c ?y)) (does r (go ?x)) (step ?x ?y))\n"
      "(<= terminal (true (c 3)))\n"
      "(<= (goal r 100) (true (c 3)))\n"
      ";#include \"../main.kif\"\n");
  put(dir, "lib/facts.kif",
      ";#include \"../lib/facts.kif\"\n"
      "(step 1 2)\n(step 2 3)\n(<= once)\n");
  ctx = tu_load(&st, 0, main_kif, NULL);
  text = gdl_diagnostics(ctx);
  ck_assert_msg(st == GDL_OK, "%s", text);
  ck_assert_int_eq(gdl_error_count(ctx), 0);
  ck_assert_msg(gdl_warning_count(ctx) == 1, "%s", text);
  ck_assert(dt_find(text, "warning", "rule with an empty body", &d));
  ck_assert_msg(strstr(d.file, "facts.kif") != NULL, "%s", d.file);
  ck_assert_uint_eq(d.line, 4);
  ck_assert_int_eq(gdl_is_game(ctx), 1);
  tu_play(ctx, "(go 1) (go 2)", &s);
  ck_assert_int_eq(gdl_terminal(ctx), 1);
  ck_assert_int_eq(gdl_goal(ctx, 0), 100);
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
  remove_dir(dir);
  free(main_kif);
  free(dir);
}
END_TEST

/* A file that does not exist: an error at the include line of the file
 * that names it (also in an included file). */
START_TEST(test_include_missing)
{
  char *dir = temp_dir(), *main_kif, want[1200];
  gdl_status st;
  gdl_ctx *ctx;
  const char *text;
  dt_diag d;
  main_kif = strdup(put(dir, "main.kif",
                        "(role r)\n\n;#include \"nope.kif\"\n(p a)\n"));
  ctx = gdl_new();
  st = gdl_load_file(ctx, main_kif);
  ck_assert_int_eq(st, GDL_EINPUT);
  text = gdl_diagnostics(ctx);
  ck_assert_int_eq(gdl_error_count(ctx), 1);
  ck_assert_msg(dt_find(text, "error", "cannot include", &d), "%s", text);
  ck_assert_str_eq(d.file, main_kif);
  ck_assert_uint_eq(d.line, 3);
  ck_assert_uint_eq(d.col, 1);
  ck_assert_uint_eq(d.span, strlen(";#include \"nope.kif\""));
  snprintf(want, sizeof want, "%s/nope.kif", dir);
  ck_assert_msg(strstr(d.msg, want) != NULL, "%s", d.msg);
  ck_assert_ptr_nonnull(strstr(d.msg, "No such file"));
  gdl_free(ctx);

  /* in an included file */
  free(main_kif);
  main_kif = strdup(put(dir, "main.kif", ";#include \"sub/a.kif\"\n(p a)\n"));
  put(dir, "sub/a.kif", "(q a)\n;#include \"b.kif\"\n");
  ctx = gdl_new();
  ck_assert_int_eq(gdl_load_file(ctx, main_kif), GDL_EINPUT);
  text = gdl_diagnostics(ctx);
  ck_assert_msg(dt_find(text, "error", "cannot include", &d), "%s", text);
  ck_assert_msg(strstr(d.file, "sub/a.kif") != NULL, "%s", d.file);
  ck_assert_uint_eq(d.line, 2);
  ck_assert_ptr_nonnull(strstr(d.msg, "sub/b.kif"));
  gdl_free(ctx);

  /* a directory */
  put(dir, "sub/d/x.kif", "(q a)\n");
  free(main_kif);
  main_kif = strdup(put(dir, "main.kif", "(p a)\n;#include \"sub/d\"\n"));
  ctx = gdl_new();
  ck_assert_int_eq(gdl_load_file(ctx, main_kif), GDL_EINPUT);
  text = gdl_diagnostics(ctx);
  ck_assert_msg(dt_find(text, "error", "is a directory", &d), "%s", text);
  ck_assert_uint_eq(d.line, 2);
  gdl_free(ctx);
  remove_dir(dir);
  free(main_kif);
  free(dir);
}
END_TEST

/* A NUL byte in the name (found by fuzzing, tests/fuzz/regress/read/):
 * the scanner looked for the closing quote with strchr, stopped at the
 * NUL and took the length from a null pointer, which asked for 2^64
 * bytes ("out of memory").  Now it is an error at the include line. */
START_TEST(test_include_nul_in_name)
{
  static const char text[] = "(p a)\n;#include \"x.\0\0kif\"\n(p b)\n";
  unsigned line = 0, col = 0;
  ck_assert(tu_include_nul("x.kif", text, sizeof text - 1, &line, &col));
  ck_assert_uint_eq(line, 2);
  ck_assert_uint_eq(col, 1);
}
END_TEST

/* `;#include` only counts at the start of a line; elsewhere it is a
 * comment like any other. */
static const char *const not_includes[] = {
  "(p a) ;#include \"nope.kif\"\n",
  "  ;#include \"nope.kif\"\n(p a)\n",
  "(p a)\n;; #include \"nope.kif\"\n",
  "(p a)\n; #include \"nope.kif\"\n",
  "(p a)\n;#include nope.kif\n",
};

START_TEST(test_include_only_at_line_start)
{
  char *dir = temp_dir(), *f;
  gdl_status st;
  gdl_ctx *ctx;
  f = strdup(put(dir, "x.kif", not_includes[_i]));
  ctx = tu_load(&st, 0, f, NULL);
  ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
  ck_assert_str_eq(gdl_diagnostics(ctx), "");
  assert_answers(ctx, "(p ?x)", "(p a)");
  gdl_free(ctx);
  remove_dir(dir);
  free(f);
  free(dir);
}
END_TEST

/* Terms read from a command line are not a file: an include line among
 * them names nothing, now or at the next load. */
START_TEST(test_terms_include_nothing)
{
  gdl_ctx *ctx = gdl_new();
  gdl_term *t;
  size_t n;
  ck_assert_int_eq(gdl_parse_terms(ctx, "--moves", ";#include \"/nonexistent."
                                   "kif\"\n(cross goat)", 0, &t, &n), GDL_OK);
  ck_assert_uint_eq(n, 1);
  ck_assert_int_eq(gdl_load_string(ctx, "x.kif", "(p a)", 5), GDL_OK);
  ck_assert_int_eq(gdl_compile(ctx, 0), GDL_OK);
  ck_assert_uint_eq(gdl_error_count(ctx), 0);
  gdl_free(ctx);
}
END_TEST

Suite *parse_suite(void)
{
  Suite *s = suite_create("parse");
  TCase *tc = tcase_create("reader");
  tcase_add_loop_test(tc, test_comments, 0,
                      sizeof comment_texts / sizeof *comment_texts);
  tcase_add_test(tc, test_comment_eof_file);
  tcase_add_test(tc, test_terms_include_nothing);
  tcase_add_test(tc, test_comment_sample);
  tcase_add_loop_test(tc, test_white_space, 0,
                      sizeof space_texts / sizeof *space_texts);
  tcase_add_test(tc, test_crlf_positions);
  tcase_add_test(tc, test_tab_positions);
  tcase_add_test(tc, test_upper_case_keywords);
  tcase_add_test(tc, test_upper_case_keyword_misplaced);
  tcase_add_test(tc, test_symbols_keep_case);
  tcase_add_loop_test(tc, test_plain_symbols, 0, NPLAIN);
  tcase_add_test(tc, test_plain_symbols_distinct);
  tcase_add_loop_test(tc, test_zero_arity, 0,
                      sizeof zero_cases / sizeof *zero_cases);
  tcase_add_test(tc, test_rule_without_body);
  tcase_add_test(tc, test_bare_atoms);
  suite_add_tcase(s, tc);
  tc = tcase_create("files");
  tcase_add_test(tc, test_two_files);
  tcase_add_test(tc, test_two_files_messages);
  tcase_add_test(tc, test_load_after_compile);
  tcase_add_test(tc, test_include);
  tcase_add_test(tc, test_include_missing);
  tcase_add_test(tc, test_include_nul_in_name);
  tcase_add_loop_test(tc, test_include_only_at_line_start, 0,
                      sizeof not_includes / sizeof *not_includes);
  suite_add_tcase(s, tc);
  return s;
}
