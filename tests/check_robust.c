/*
 * check_robust.c - bad input never crashes: it gives a clear error with
 * GDL_EINPUT (exit 2), or success where it is valid, and work that grows
 * too big stops with GDL_ELIMIT (exit 3).
 *
 * Empty input, every kind of truncated file, random bytes (with NULs),
 * deep nesting, huge symbols and lines, relations that explode, failed
 * allocations at every point of loading a game, a time limit met at every
 * place the library looks at it (the context answers as before once it
 * is lifted), and the command line on files that are missing,
 * directories or binary.  Run it under `make asan`
 * (or valgrind) to catch leaks and overruns on these paths.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "diagtext.h"

/* Tests only: the library fails the n-th allocation from now. */
void gdl_test_fail_alloc(gdl_ctx *ctx, long n);
/* Tests only: the n-th look at the limits from now finds the time up. */
void gdl_test_fail_poll(gdl_ctx *ctx, long n);

/* ---- helpers ------------------------------------------------------------ */

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state;

static uint64_t rng(void)
{
  /* xorshift64*: a fixed seed gives the same buffers on every run */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ull;
}

/* Loads text (len bytes, NULs allowed) and compiles it when it loaded;
 * returns the status of the first step that failed, or GDL_OK. */
static gdl_status load_bytes(gdl_ctx *ctx, const char *text, size_t len)
{
  gdl_status st = gdl_load_string(ctx, "test.kif", text, len);
  if (st == GDL_OK)
    st = gdl_compile(ctx, 0);
  return st;
}

/* The status is OK without errors, or EINPUT with at least one error
 * printed in the FILE:LINE:COL format. */
static void assert_clean_outcome(gdl_ctx *ctx, gdl_status st,
                                 const char *what)
{
  const char *text = gdl_diagnostics(ctx);
  ck_assert_msg(st == GDL_OK || st == GDL_EINPUT, "%s: status %d (%s)",
                what, st, gdl_errmsg(ctx));
  if (st == GDL_OK) {
    ck_assert_msg(gdl_error_count(ctx) == 0, "%s: OK with errors:\n%s", what,
                  text);
  } else {
    size_t n = dt_parse(text, NULL, 0);
    ck_assert_msg(gdl_error_count(ctx) > 0, "%s: EINPUT without an error "
                  "(%s)", what, gdl_errmsg(ctx));
    ck_assert_msg(dt_count(text, ": error: ") > 0, "%s: no error text:\n%s",
                  what, text);
    ck_assert_msg(n > 0, "%s: unreadable messages:\n%s", what, text);
    ck_assert_msg(gdl_errmsg(ctx)[0] != 0, "%s: no message", what);
  }
}

static char *temp_file(const char *text, size_t len)
{
  char *path = strdup("/tmp/gdl-robust-XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_int_eq(dt_write(path, text, len), 0);
  return path;
}

static int count_cb(void *arg, gdl_term t)
{
  (void)t;
  ++*(int *)arg;
  return 0;
}

static int answers(gdl_ctx *ctx, const char *pattern)
{
  gdl_term t;
  int n = 0;
  ck_assert_int_eq(gdl_parse_term(ctx, pattern, 1, &t), GDL_OK);
  ck_assert_int_eq(gdl_query(ctx, t, count_cb, &n), GDL_OK);
  return n;
}

/* ---- empty -------------------------------------------------------------- */

START_TEST(test_empty)
{
  gdl_ctx *ctx = gdl_new();
  gdl_status st;
  char *path;
  ck_assert_int_eq(gdl_load_string(ctx, "empty.kif", "", 0), GDL_OK);
  ck_assert_int_eq(gdl_compile(ctx, 0), GDL_OK);
  ck_assert_int_eq(gdl_is_game(ctx), 0);
  ck_assert_str_eq(gdl_diagnostics(ctx), "");
  gdl_free(ctx);
  /* an empty file, and only white space and comments */
  path = temp_file("", 0);
  ctx = tu_load(&st, 0, path, NULL);
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_int_eq(gdl_is_game(ctx), 0);
  gdl_free(ctx);
  remove(path);
  free(path);
  ctx = tu_load_text(&st, 0, " \n\t\r\n ; nothing\n\n");
  ck_assert_int_eq(st, GDL_OK);
  gdl_free(ctx);
  /* compiling with nothing loaded at all */
  ctx = gdl_new();
  ck_assert_int_eq(gdl_compile(ctx, 0), GDL_OK);
  ck_assert_int_eq(gdl_is_game(ctx), 0);
  gdl_free(ctx);
}
END_TEST

/* ---- truncated files ---------------------------------------------------- */

static const char *const truncated_files[] = {
  "multi/ticTacToe.kif",
  "single/stanford_3puzzle.kif",
  "conformance/connectFour.kif",
  "conformance/test_case_5b.kif",
};

/* 50 prefixes of each file (and the whole file, which is valid). */
START_TEST(test_truncated)
{
  size_t len, k;
  char *src = dt_slurp(tu_corpus(truncated_files[_i]), &len);
  ck_assert_ptr_nonnull(src);
  for (k = 0; k <= 50; k++) {
    size_t cut = k == 50 ? len : len * k / 50 + (k * 7) % 5;
    gdl_ctx *ctx = gdl_new();
    gdl_status st;
    char what[300];
    if (cut > len)
      cut = len;
    st = load_bytes(ctx, src, cut);
    snprintf(what, sizeof what, "%s cut at %zu", truncated_files[_i], cut);
    assert_clean_outcome(ctx, st, what);
    if (cut == len)
      ck_assert_msg(st == GDL_OK, "%s:\n%s", what, gdl_diagnostics(ctx));
    gdl_free(ctx);
  }
  free(src);
}
END_TEST

/* Every prefix of a small game, byte by byte. */
START_TEST(test_truncated_every_byte)
{
  size_t len, cut;
  char *src = dt_slurp(tu_corpus("conformance/test_case_3c.kif"), &len);
  ck_assert_ptr_nonnull(src);
  for (cut = 0; cut <= len; cut++) {
    gdl_ctx *ctx = gdl_new();
    char what[64];
    snprintf(what, sizeof what, "test_case_3c cut at %zu", cut);
    assert_clean_outcome(ctx, load_bytes(ctx, src, cut), what);
    gdl_free(ctx);
  }
  free(src);
}
END_TEST

/* ---- random bytes ------------------------------------------------------- */

/* Pieces of GDL, so random text also gets past the reader. */
static const char *const pieces[] = {
  "(", ")", "(", ")", " ", "\n", "?x", "?y", "a", "b", "1", "0", "role",
  "init", "true", "does", "legal", "next", "goal", "terminal", "distinct",
  "not", "or", "<=", "base", "input", "; c\n", "\t", "p", "q", "(f ", "\r\n",
  "100", "robot", "??", "\"", "#", "(<= ", "(not (", "(or ", "(distinct ",
};

/* 200 buffers of 1..4000 bytes: even ones of any byte (NULs included),
 * odd ones of GDL pieces. */
START_TEST(test_random)
{
  int b;
  char *buf = malloc(4096 + 64);
  rng_state = 0x9e3779b97f4a7c15ull;
  for (b = 0; b < 200; b++) {
    size_t len = 1 + rng() % 4000, n = 0;
    gdl_ctx *ctx = gdl_new();
    gdl_status st;
    char what[64];
    if (b % 2 == 0) {
      for (n = 0; n < len; n++)
        buf[n] = (char)(rng() & 0xff);
    } else {
      while (n < len) {
        const char *p = pieces[rng() % (sizeof pieces / sizeof *pieces)];
        size_t pl = strlen(p);
        if (n + pl > len)
          break;
        memcpy(buf + n, p, pl);
        n += pl;
      }
      if (rng() % 4 == 0 && n > 0)
        buf[rng() % n] = 0;        /* a NUL somewhere */
    }
    gdl_set_fact_limit(ctx, 200000);
    st = load_bytes(ctx, buf, n);
    snprintf(what, sizeof what, "random buffer %d (%zu bytes)", b, n);
    assert_clean_outcome(ctx, st, what);
    gdl_free(ctx);
  }
  free(buf);
}
END_TEST

/* NUL bytes are errors at their place, not the end of the text. */
START_TEST(test_nul_bytes)
{
  static const char text[] = "(role a)\0\0(p b)\n(p ?x)\n";
  gdl_ctx *ctx = gdl_new();
  gdl_status st = load_bytes(ctx, text, sizeof text - 1);
  const char *diags = gdl_diagnostics(ctx);
  dt_diag d;
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_msg(dt_find(diags, "error", "stray control character", &d),
                "%s", diags);
  ck_assert_uint_eq(d.line, 1);
  ck_assert_uint_eq(d.col, 9);
  ck_assert_uint_eq(d.span, 2);
  ck_assert_int_eq(gdl_error_count(ctx), 1);
  /* the control characters are shown as '?' in the source line */
  ck_assert_ptr_nonnull(strstr(diags, "\n  (role a)?\?(p b)\n"));
  gdl_free(ctx);
}
END_TEST

/* A run of 1 MB of NUL bytes, and another in a comment, read in linear
 * time: flex took each NUL for the end of its buffer and scanned the token
 * so far again, so 100 KB took 81 s and 1 MB would take hours (found by
 * profiling the reader's fuzz target; tests/fuzz/regress/read/).  The run
 * is one error; the comment is a comment. */
START_TEST(test_nul_run)
{
  size_t n = 1u << 20, len = 0;
  char *text = malloc(2 * n + 100);
  gdl_ctx *ctx = gdl_new();
  gdl_status st;
  const char *diags;
  dt_diag d;
  len += (size_t)sprintf(text, "(role a)\n");
  memset(text + len, 0, n);
  len += n;
  len += (size_t)sprintf(text + len, "\n; ");
  memset(text + len, 0, n);
  len += n;
  len += (size_t)sprintf(text + len, "\n(p b)\n");
  st = load_bytes(ctx, text, len);
  diags = gdl_diagnostics(ctx);
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_int_eq(gdl_error_count(ctx), 1);
  ck_assert_msg(dt_find(diags, "error", "stray control character", &d),
                "%.2000s", diags);
  ck_assert_uint_eq(d.line, 2);
  ck_assert_uint_eq(d.col, 1);
  gdl_free(ctx);
  free(text);
}
END_TEST

/* ---- nesting ------------------------------------------------------------ */

static char *repeat(const char *pre, size_t npre, const char *mid,
                    const char *post, size_t npost)
{
  size_t lp = strlen(pre), lm = strlen(mid), lq = strlen(post), k, n = 0;
  char *s = malloc(lp * npre + lm + lq * npost + 1);
  for (k = 0; k < npre; k++, n += lp)
    memcpy(s + n, pre, lp);
  memcpy(s + n, mid, lm);
  n += lm;
  for (k = 0; k < npost; k++, n += lq)
    memcpy(s + n, post, lq);
  s[n] = 0;
  return s;
}

static const size_t deep_close[] = { 0, 100000 };

/* 100,000 '(' (and as many ')'): "nested too deep", no stack overflow. */
START_TEST(test_deep_parens)
{
  char *text = repeat("(", 100000, "", ")", deep_close[_i]);
  gdl_ctx *ctx = gdl_new();
  gdl_status st = load_bytes(ctx, text, strlen(text));
  const char *diags = gdl_diagnostics(ctx);
  dt_diag d;
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_msg(dt_find(diags, "error", "nested too deep", &d), "%.2000s",
                diags);
  ck_assert_uint_eq(d.line, 1);
  ck_assert_uint_eq(d.col, 1001);
  ck_assert_int_eq(gdl_error_count(ctx), 1);
  /* the huge line is shown as a window around the place */
  ck_assert_uint_lt(strlen(diags), 1000);
  gdl_free(ctx);
  free(text);
}
END_TEST

/* A term 900 deep in a fact and in a rule is fine; the limit is 1000
 * open parentheses. */
START_TEST(test_deep_term)
{
  char *fact = repeat("(f ", 899, "a", ")", 899);
  char *pat = repeat("(f ", 899, "?x", ")", 899);
  size_t cap = strlen(fact) + strlen(pat) + 200;
  char *text = malloc(cap), *ok;
  gdl_status st;
  gdl_ctx *ctx;
  gdl_term t;
  snprintf(text, cap, "(p %s)\n(<= (q ?x) (p %s))\n", fact, pat);
  ctx = tu_load_text(&st, 0, text);
  ck_assert_msg(st == GDL_OK, "%.2000s", gdl_diagnostics(ctx));
  ck_assert_int_eq(answers(ctx, "(q ?x)"), 1);
  ck_assert_int_eq(answers(ctx, "(q a)"), 1);
  ck_assert_int_eq(answers(ctx, "(p ?x)"), 1);
  ck_assert_int_eq(gdl_parse_term(ctx, "(p ?x)", 1, &t), GDL_OK);
  gdl_free(ctx);
  /* exactly 1000 levels read; 1001 are too deep */
  ok = repeat("(", 1000, "p", ")", 1000);
  ctx = tu_load_text(&st, 0, ok);
  ck_assert_msg(gdl_error_count(ctx) == 0 ||
                !strstr(gdl_diagnostics(ctx), "nested too deep"),
                "%.500s", gdl_diagnostics(ctx));
  gdl_free(ctx);
  free(ok);
  ok = repeat("(", 1001, "p", ")", 1001);
  ctx = tu_load_text(&st, 0, ok);
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx), "nested too deep"));
  gdl_free(ctx);
  free(ok);
  free(text);
  free(fact);
  free(pat);
}
END_TEST

/* ---- many rules ---------------------------------------------------------- */

/* Four rules with 12 binary `or`s each expand to 16,384 rules of one
 * recursive relation.  The dependency graph listed an edge from each to
 * each, 2^28 of them: 1 GB and 12 s for this 1 KB text (found by the
 * reader's fuzz target, whose inputs had such rules).  Now it is an edge
 * per run of rules with one head, and it fits in a 64 MB limit.  (Not
 * kept in tests/fuzz/regress/read/: it still takes 0.2 s under ASan, and
 * a seed that slow holds a whole fuzzing run back.) */
START_TEST(test_or_expansions)
{
  char text[2048];
  size_t n = 0;
  int k, j;
  gdl_status st;
  gdl_ctx *ctx = gdl_new();
  for (k = 0; k < 4; k++) {
    n += (size_t)snprintf(text + n, sizeof text - n, "(<= (p ?x) (p ?x)");
    for (j = 0; j < 12; j++)
      n += (size_t)snprintf(text + n, sizeof text - n,
                            " (or (a ?x) (b ?x))");
    n += (size_t)snprintf(text + n, sizeof text - n, ")\n");
  }
  n += (size_t)snprintf(text + n, sizeof text - n, "(a 1) (b 2) (p 1)\n");
  gdl_set_memory_limit(ctx, 64u << 20);
  st = load_bytes(ctx, text, n);
  ck_assert_msg(st == GDL_OK, "%d: %s %.500s", (int)st, gdl_errmsg(ctx),
                gdl_diagnostics(ctx));
  ck_assert_int_eq(answers(ctx, "(p ?x)"), 1);
  gdl_free(ctx);
}
END_TEST

/* A chain of 120,000 rules, (p0 ?x) from (p1 ?x) from ... (p120000 1).
 * Tarjan's algorithm in the checker recursed once a rule and overflowed
 * the stack past about 100,000 (a crash); the bound on each relation's
 * size recursed too (under ASan it overflowed first), and took a pass
 * over all rules for each relation. */
START_TEST(test_rule_chain)
{
  enum { N = 120000 };
  size_t cap = (size_t)N * 40 + 100, n = 0;
  char *text = malloc(cap);
  int k;
  gdl_status st;
  gdl_ctx *ctx = gdl_new();
  for (k = 0; k < N; k++)
    n += (size_t)snprintf(text + n, cap - n, "(<= (p%d ?x) (p%d ?x))\n", k,
                          k + 1);
  n += (size_t)snprintf(text + n, cap - n, "(p%d 1)\n", N);
  st = load_bytes(ctx, text, n);
  ck_assert_msg(st == GDL_OK, "%d: %s", (int)st, gdl_errmsg(ctx));
  ck_assert_int_eq(answers(ctx, "(p0 ?x)"), 1);
  gdl_free(ctx);
  free(text);
}
END_TEST

/* ---- huge symbols and lines --------------------------------------------- */

#define MB (1u << 20)

START_TEST(test_huge_symbol)
{
  char *sym = repeat("A", MB, "", "", 0), *text = malloc(3 * MB + 200);
  gdl_status st;
  gdl_ctx *ctx;
  /* (role AAAA...) */
  snprintf(text, 3 * MB + 200, "(role %s)\n", sym);
  ctx = tu_load_text(&st, 0, text);
  ck_assert_msg(st == GDL_OK, "%.500s", gdl_diagnostics(ctx));
  ck_assert_int_eq(answers(ctx, "(role ?r)"), 1);
  gdl_free(ctx);
  /* in a fact, a rule and a variable name */
  snprintf(text, 3 * MB + 200, "(p %s b)\n(<= (q ?%s) (p ?%s b))\n", sym, sym,
           sym);
  ctx = tu_load_text(&st, 0, text);
  ck_assert_msg(st == GDL_OK, "%.500s", gdl_diagnostics(ctx));
  ck_assert_int_eq(answers(ctx, "(q ?x)"), 1);
  gdl_free(ctx);
  /* the text of the term is there in full */
  snprintf(text, 3 * MB + 200, "(p %s)", sym);
  ctx = tu_load_text(&st, 0, text);
  ck_assert_int_eq(st, GDL_OK);
  {
    gdl_term a;
    ck_assert_int_eq(answers(ctx, "(p ?x)"), 1);
    ck_assert_int_eq(gdl_parse_term(ctx, text, 0, &a), GDL_OK);
    ck_assert_uint_eq(strlen(gdl_term_str(ctx, a)), MB + 4);
    ck_assert_str_eq(gdl_term_str(ctx, a), text);
  }
  gdl_free(ctx);
  /* an error on a 1 MB line shows a window, not the whole line */
  snprintf(text, 3 * MB + 200, "(p %s ?x)\n", sym);
  ctx = tu_load_text(&st, 0, text);
  ck_assert_int_eq(st, GDL_EINPUT);
  {
    const char *diags = gdl_diagnostics(ctx);
    dt_diag d;
    ck_assert(dt_find(diags, "error", "variable ?x in a fact", &d));
    ck_assert_uint_eq(d.line, 1);
    ck_assert_uint_eq(d.col, MB + 5);
    ck_assert_uint_lt(strlen(diags), 1000);
    ck_assert_ptr_nonnull(strstr(diags, "?x)"));
  }
  gdl_free(ctx);
  free(text);
  free(sym);
}
END_TEST

/* gdl_term_write into buffers of every size up to the text's length: it
 * returns the length the whole text needs and writes a terminated prefix
 * (a symbol cut by the end of the buffer once looped forever). */
START_TEST(test_term_write_short_buffer)
{
  static const char *const terms[] = {
    "(p abcdef)", "(cell 1 (f x) blank)", "longsymbolname", "(a (b (c d)))",
  };
  size_t i, n;
  gdl_ctx *ctx = gdl_new();
  for (i = 0; i < sizeof terms / sizeof *terms; i++) {
    gdl_term t;
    const char *full;
    size_t len;
    ck_assert_int_eq(gdl_parse_term(ctx, terms[i], 1, &t), GDL_OK);
    full = gdl_term_str(ctx, t);
    len = strlen(full);
    for (n = 0; n <= len + 2; n++) {
      char buf[64];
      memset(buf, 'Z', sizeof buf);
      ck_assert_uint_eq(gdl_term_write(ctx, t, buf, n), len);
      if (n > 0) {
        size_t k = n - 1 < len ? n - 1 : len;
        ck_assert_uint_eq(strlen(buf), k);
        ck_assert_int_eq(memcmp(buf, gdl_term_str(ctx, t), k), 0);
      }
      ck_assert_int_eq(buf[n < 63 ? n : 63] == 'Z' || n >= 63, 1);
    }
  }
  gdl_free(ctx);
}
END_TEST

/* gdl_term_write gives the same text as gdl_term_str, variables too (two
 * different variables must not print alike). */
START_TEST(test_term_write_variables)
{
  gdl_ctx *ctx = gdl_new();
  gdl_term t;
  char buf[128];
  ck_assert_int_eq(gdl_parse_term(ctx, "(cell 1 (f ?x) blank ?y ?x)", 1, &t),
                   GDL_OK);
  gdl_term_write(ctx, t, buf, sizeof buf);
  ck_assert_str_eq(buf, gdl_term_str(ctx, t));
  gdl_free(ctx);
}
END_TEST

/* 1 MB of junk on one line: errors, at most 50 shown, each short. */
START_TEST(test_junk_line)
{
  static const char junk[] = "()?;#\"<=abcXYZ019 .,!~`'";
  char *text = malloc(MB + 1);
  size_t k;
  gdl_ctx *ctx = gdl_new();
  gdl_status st;
  rng_state = 12345;
  for (k = 0; k < MB; k++)
    text[k] = junk[rng() % (sizeof junk - 1)];
  text[MB] = 0;
  /* no ';' comment may swallow the line: replace them */
  for (k = 0; k < MB; k++)
    if (text[k] == ';')
      text[k] = ')';
  st = load_bytes(ctx, text, MB);
  assert_clean_outcome(ctx, st, "1 MB of junk");
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_uint_le(dt_count(gdl_diagnostics(ctx), ": error: "), 50);
  ck_assert_uint_lt(strlen(gdl_diagnostics(ctx)), 51 * 700);
  gdl_free(ctx);
  free(text);
}
END_TEST

/* Only ')': one error for the whole run. */
START_TEST(test_only_close_parens)
{
  char *text = repeat(")", 10000, "", "", 0);
  gdl_ctx *ctx = gdl_new();
  gdl_status st = load_bytes(ctx, text, strlen(text));
  dt_diag d;
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_int_eq(gdl_error_count(ctx), 1);
  ck_assert(dt_find(gdl_diagnostics(ctx), "error", "unmatched ')'", &d));
  ck_assert_uint_eq(d.line, 1);
  ck_assert_uint_eq(d.col, 1);
  gdl_free(ctx);
  free(text);
}
END_TEST

/* ---- relations that explode --------------------------------------------- */

/* Counting without end breaks the recursion restriction: rejected. */
START_TEST(test_unbounded_recursion)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, "(num 0)\n"
                              "(<= (num (s ?x)) (num ?x))\n");
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx),
                               "recursion restriction"));
  gdl_free(ctx);
  ctx = tu_load_text(&st, 0, "(num 0)\n(<= (num ?y) (num ?x) (succ ?x ?y))\n"
                     "(<= (succ ?x (s ?x)) (num ?x))\n");
  ck_assert_int_eq(st, GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx),
                               "recursion restriction"));
  gdl_free(ctx);
}
END_TEST

/* 3000 facts (n i) and their pairs: 9M facts.  A fact limit or a memory
 * limit stops it with GDL_ELIMIT and a message, in reasonable time.
 * some_pair reads pair with no argument known, so pair cannot be evaluated
 * on demand (lazily, by a key) and must be materialised. */
static char *pairs_text(void)
{
  char *t = malloc(64 * 1024);
  size_t n = 0;
  int i;
  for (i = 0; i < 3000; i++)
    n += (size_t)sprintf(t + n, "(n %d)\n", i);
  sprintf(t + n, "(<= (pair ?x ?y) (n ?x) (n ?y))\n"
          "(<= some_pair (pair ?x ?y))\n");
  return t;
}

START_TEST(test_fact_limit)
{
  char *text = pairs_text();
  gdl_ctx *ctx = gdl_new();
  gdl_status st;
  gdl_set_fact_limit(ctx, 1000000);
  st = load_bytes(ctx, text, strlen(text));
  ck_assert_msg(st == GDL_ELIMIT, "status %d", st);
  ck_assert_msg(strstr(gdl_errmsg(ctx), "facts") != NULL, "%s",
                gdl_errmsg(ctx));
  ck_assert_msg(strstr(gdl_errmsg(ctx), "pair") != NULL, "%s",
                gdl_errmsg(ctx));
  gdl_free(ctx);
  free(text);
}
END_TEST

START_TEST(test_memory_limit)
{
  char *text = pairs_text();
  gdl_ctx *ctx = gdl_new();
  gdl_status st;
  gdl_set_memory_limit(ctx, 50u << 20);
  st = load_bytes(ctx, text, strlen(text));
  ck_assert_msg(st == GDL_ELIMIT, "status %d", st);
  ck_assert_msg(strstr(gdl_errmsg(ctx), "memory") != NULL, "%s",
                gdl_errmsg(ctx));
  ck_assert_uint_le(gdl_memory_peak(ctx), 50u << 20);
  gdl_free(ctx);
  free(text);
}
END_TEST

/* A memory limit too small to load anything: ELIMIT, not a crash. */
START_TEST(test_tiny_memory_limit)
{
  static const size_t limits[] = { 1, 100, 1000, 10000, 100000 };
  size_t i;
  for (i = 0; i < sizeof limits / sizeof *limits; i++) {
    gdl_ctx *ctx = gdl_new();
    gdl_status st;
    gdl_set_memory_limit(ctx, limits[i]);
    st = gdl_load_file(ctx, tu_corpus("multi/ticTacToe.kif"));
    if (st == GDL_OK)
      st = gdl_compile(ctx, 0);
    ck_assert_msg(st == GDL_ELIMIT || st == GDL_OK, "limit %zu: status %d",
                  limits[i], st);
    if (st == GDL_ELIMIT)
      ck_assert_ptr_nonnull(strstr(gdl_errmsg(ctx), "memory"));
    gdl_free(ctx);
  }
}
END_TEST

/* ---- time limits -------------------------------------------------------- */

/* A growing string. */
typedef struct {
  char *s;
  size_t n, cap;
} text_t;

static void put(text_t *t, const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  if (t->n + la + lb + 2 > t->cap) {
    t->cap = (t->n + la + lb + 2) * 2;
    t->s = realloc(t->s, t->cap);
  }
  memcpy(t->s + t->n, a, la);
  memcpy(t->s + t->n + la, b, lb);
  t->n += la + lb;
  t->s[t->n++] = '\n';
  t->s[t->n] = 0;
}

/* Up to `steps` steps of play from the start, written into *t as they go:
 * each state's facts, each role's legal moves, terminal and goals; each
 * role's move picked by a fixed generator among its legal moves (whose
 * order, by text, is the same in every context).  The status of the
 * first call that failed, or GDL_OK. */
static gdl_status transcript(gdl_ctx *ctx, int steps, text_t *t)
{
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  gdl_term mv[8];
  gdl_status st;
  uint64_t seed = 7;
  size_t r, k = gdl_role_count(ctx);
  int step;
  char *x;
  t->n = 0;
  put(t, "", "");
  if ((st = gdl_initial(ctx, &s)) != GDL_OK)
    goto out;
  for (step = 0; step < steps; step++) {
    if ((st = gdl_set_state(ctx, &s)) != GDL_OK)
      goto out;
    x = tu_terms_text(ctx, s.facts, s.n);
    put(t, "state ", x);
    free(x);
    if (gdl_terminal(ctx)) {
      put(t, "terminal", "");
      break;
    }
    for (r = 0; r < k && r < 8; r++) {
      const gdl_term *moves, *goals;
      size_t n, ng;
      if ((st = gdl_legal(ctx, r, &moves, &n)) != GDL_OK ||
          (st = gdl_goals(ctx, r, &goals, &ng)) != GDL_OK)
        goto out;
      x = tu_terms_text(ctx, moves, n);
      put(t, "legal ", x);
      free(x);
      x = tu_terms_text(ctx, goals, ng);
      put(t, "goals ", x);
      free(x);
      ck_assert_uint_gt(n, 0);
      mv[r] = moves[gdl_random(&seed, n)];
      put(t, "does ", gdl_term_str(ctx, mv[r]));
    }
    if ((st = gdl_next(ctx, mv, &nx)) != GDL_OK)
      goto out;
    if ((st = gdl_state_copy(ctx, &s, &nx)) != GDL_OK)
      goto out;
  }
out:
  gdl_state_release(ctx, &s);
  gdl_state_release(ctx, &nx);
  return st;
}

/* Games whose derivations run long enough for the limits to be looked at
 * in many places: a connect four, mummy maze's and sudoku's views asked
 * top down (lazy relations, remembered per key), checkers' recursion. */
static const struct {
  const char *file;
  int steps;
} limit_games[] = {
  { "multi/connectFour.kif", 42 },
  { "single/mummymaze1p.kif", 12 },
  { "single/sudoku.kif", 40 },
  { "multi/checkers.kif", 12 },
};

/* A time limit met at every place the interpreter looks at it, in the
 * middle of a derivation (a join, a lazy relation asked, a recursive
 * round): the call returns GDL_ELIMIT, and the same context, the limit
 * lifted, plays the game as a fresh one does (the n-th look from a start
 * of play, for n = 0, 1, 2, ... and then further apart, until play no
 * longer meets it). */
START_TEST(test_limit_mid_derivation)
{
  gdl_status st;
  gdl_ctx *ref = tu_load(&st, 0, tu_corpus(limit_games[_i].file), NULL);
  gdl_ctx *ctx = tu_load(&st, 0, tu_corpus(limit_games[_i].file), NULL);
  text_t want = { NULL, 0, 0 }, got = { NULL, 0, 0 };
  long n, hits = 0;
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_int_eq(gdl_use_engine(ref, GDL_ENGINE_INTERP), GDL_OK);
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_INTERP), GDL_OK);
  ck_assert_int_eq(transcript(ref, limit_games[_i].steps, &want), GDL_OK);
  for (n = 0;; n += 1 + n / 4) {
    gdl_test_fail_poll(ctx, n);
    st = transcript(ctx, limit_games[_i].steps, &got);
    gdl_test_fail_poll(ctx, -1);
    if (st == GDL_OK)
      break;                   /* play never met it */
    hits++;
    ck_assert_msg(st == GDL_ELIMIT, "n=%ld: status %d (%s)", n, st,
                  gdl_errmsg(ctx));
    ck_assert_msg(strstr(gdl_errmsg(ctx), "time limit") != NULL,
                  "n=%ld: %s", n, gdl_errmsg(ctx));
    ck_assert_msg(strncmp(got.s, want.s, got.n) == 0,
                  "n=%ld: play before the limit differs", n);
    ck_assert_int_eq(transcript(ctx, limit_games[_i].steps, &got), GDL_OK);
    ck_assert_msg(strcmp(got.s, want.s) == 0, "n=%ld: after the limit:\n%s"
                  "\nwhere a fresh context plays:\n%s", n, got.s, want.s);
  }
  ck_assert_str_eq(got.s, want.s);
  ck_assert_msg(hits >= 5, "%s: the limits were looked at only %ld times",
                limit_games[_i].file, hits);
  free(want.s);
  free(got.s);
  gdl_free(ctx);
  gdl_free(ref);
}
END_TEST

/* The same in grounding: a limit met at any place of the grounding
 * attempt leaves the interpreter in use (AUTO) and the context whole; a
 * fresh context's interpreter plays the same. */
START_TEST(test_limit_mid_grounding)
{
  static const char *const files[] = { "multi/connectFour.kif",
                                       "single/mummymaze1p.kif" };
  long n, hits = 0;
  gdl_status st;
  text_t want = { NULL, 0, 0 }, got = { NULL, 0, 0 };
  gdl_ctx *ref = tu_load(&st, 0, tu_corpus(files[_i]), NULL);
  ck_assert_int_eq(gdl_use_engine(ref, GDL_ENGINE_INTERP), GDL_OK);
  ck_assert_int_eq(transcript(ref, 12, &want), GDL_OK);
  for (n = 0;; n += 1 + n / 4) {
    gdl_ctx *ctx = tu_load(&st, 0, tu_corpus(files[_i]), NULL);
    int cut;
    ck_assert_int_eq(st, GDL_OK);
    gdl_test_fail_poll(ctx, n);
    ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_AUTO), GDL_OK);
    gdl_test_fail_poll(ctx, -1);
    /* cut, or grounded (or given up for its size) as without a limit */
    cut = strstr(gdl_engine_note(ctx), "time limit") != NULL;
    hits += cut;
    ck_assert_int_eq(transcript(ctx, 12, &got), GDL_OK);
    ck_assert_msg(strcmp(got.s, want.s) == 0, "n=%ld: after the limit "
                  "(engine %s):\n%s\nwhere a fresh context plays:\n%s", n,
                  gdl_engine_name(ctx), got.s, want.s);
    gdl_free(ctx);
    if (!cut)
      break;
  }
  ck_assert_msg(hits >= 3, "%s: grounding looked at the limits %ld times",
                files[_i], hits);
  free(want.s);
  free(got.s);
  gdl_free(ref);
}
END_TEST

/* Random play that never ends (no terminal state): a time limit stops it
 * in a call of a billion steps, on either engine, within 10% of the limit
 * and 50 ms, with the steps played counted; the context, the limit
 * lifted, goes on playing. */
START_TEST(test_limit_random_steps)
{
  static const char game[] =
    "(role r) (init (c 0)) (<= terminal (true (never)))\n"
    "(legal r inc) (legal r dec)\n"
    "(<= (next (c ?y)) (true (c ?x)) (does r inc) (succ ?x ?y))\n"
    "(<= (next (c ?y)) (true (c ?x)) (does r dec) (succ ?y ?x))\n"
    "(<= (next (c 0)) (true (c 0)) (does r dec))\n"
    "(<= (next (c 9)) (true (c 9)) (does r inc))\n"
    "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)\n"
    "(succ 6 7) (succ 7 8) (succ 8 9) (goal r 100)\n";
  static const gdl_engine eng[] = { GDL_ENGINE_GROUND, GDL_ENGINE_INTERP };
  gdl_ctx *ctx = tu_text(game, 0);
  gdl_state s = { 0, 0, NULL };
  uint64_t seed = 1;
  size_t steps;
  int over;
  double t0, el, limit = 0.3;
  ck_assert_int_eq(gdl_use_engine(ctx, eng[_i]), GDL_OK);
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ctx, &s), GDL_OK);
  gdl_set_time_limit(ctx, limit);
  t0 = now_seconds();
  ck_assert_int_eq(gdl_random_steps(ctx, &seed, 1000000000, &steps, &over),
                   GDL_ELIMIT);
  el = now_seconds() - t0;
  ck_assert_str_eq(gdl_errmsg(ctx), "time limit reached");
  ck_assert_msg(el <= limit * 1.1 + 0.05, "stopped after %.3f s", el);
  ck_assert_uint_gt(steps, 0);
  ck_assert_int_eq(over, 0);
  gdl_set_time_limit(ctx, 0);
  ck_assert_int_eq(gdl_current(ctx, &s), GDL_OK);
  ck_assert_uint_eq(s.n, 1);
  ck_assert_int_eq(gdl_random_steps(ctx, &seed, 1000, &steps, &over),
                   GDL_OK);
  ck_assert_uint_eq(steps, 1000);
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
}
END_TEST

/* ---- failed allocations ------------------------------------------------- */

/* Plays up to three steps with the first legal move of each role; returns
 * the first status that is not GDL_OK. */
static gdl_status play_some(gdl_ctx *ctx)
{
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  gdl_term mv[8];
  gdl_status st;
  size_t r, k = gdl_role_count(ctx);
  int step;
  if ((st = gdl_initial(ctx, &s)) != GDL_OK)
    goto out;
  for (step = 0; step < 3; step++) {
    if ((st = gdl_set_state(ctx, &s)) != GDL_OK)
      goto out;
    if (gdl_terminal(ctx))
      break;
    for (r = 0; r < k && r < 8; r++) {
      const gdl_term *moves;
      size_t n;
      if ((st = gdl_legal(ctx, r, &moves, &n)) != GDL_OK)
        goto out;
      ck_assert_uint_gt(n, 0);
      mv[r] = moves[0];
    }
    if ((st = gdl_next(ctx, mv, &nx)) != GDL_OK)
      goto out;
    if ((st = gdl_state_copy(ctx, &s, &nx)) != GDL_OK)
      goto out;
  }
out:
  gdl_state_release(ctx, &s);
  gdl_state_release(ctx, &nx);
  return st;
}

/* The n-th allocation of loading and compiling ticTacToe fails, for every
 * n until one that is never reached: GDL_ELIMIT or GDL_OK, never a crash,
 * and gdl_free releases everything (ASan and valgrind check that). */
START_TEST(test_fail_alloc_load)
{
  long n;
  int done = 0;
  for (n = 0; n < 5000 && !done; n++) {
    gdl_ctx *ctx = gdl_new();
    gdl_status st;
    ck_assert_ptr_nonnull(ctx);
    gdl_test_fail_alloc(ctx, n);
    st = gdl_load_file(ctx, tu_corpus("multi/ticTacToe.kif"));
    if (st == GDL_OK)
      st = gdl_compile(ctx, 0);
    ck_assert_msg(st == GDL_OK || st == GDL_ELIMIT, "n=%ld: status %d (%s)",
                  n, st, gdl_errmsg(ctx));
    if (st == GDL_ELIMIT) {
      ck_assert_msg(strstr(gdl_errmsg(ctx), "out of memory") != NULL,
                    "n=%ld: %s", n, gdl_errmsg(ctx));
      (void)gdl_diagnostics(ctx);
    } else {
      /* the allocation was never reached: the game works */
      gdl_test_fail_alloc(ctx, -1);
      ck_assert_int_eq(gdl_is_game(ctx), 1);
      ck_assert_int_eq(play_some(ctx), GDL_OK);
      done = 1;
    }
    gdl_free(ctx);
  }
  ck_assert_msg(done, "loading never succeeded");
}
END_TEST

/* The same while playing: a compiled game, then the n-th allocation of
 * initial / set_state / legal / next fails. */
START_TEST(test_fail_alloc_play)
{
  long n;
  int done = 0;
  for (n = 0; n < 5000 && !done; n++) {
    gdl_status st;
    gdl_ctx *ctx = tu_load(&st, 0, tu_corpus("multi/ticTacToe.kif"), NULL);
    ck_assert_int_eq(st, GDL_OK);
    gdl_test_fail_alloc(ctx, n);
    st = play_some(ctx);
    ck_assert_msg(st == GDL_OK || st == GDL_ELIMIT, "n=%ld: status %d (%s)",
                  n, st, gdl_errmsg(ctx));
    if (st == GDL_OK)
      done = 1;
    gdl_free(ctx);
  }
  ck_assert_msg(done, "playing never succeeded");
}
END_TEST

/* Allocation failures while reading a file with errors (the messages are
 * made with allocations too). */
START_TEST(test_fail_alloc_errors)
{
  static const char text[] =
    "(role r)\n(p ?x)\n(<= (q ?y) (p a))\n((a))\n(legal r)\n)\n(p";
  long n;
  int done = 0;
  for (n = 0; n < 5000 && !done; n++) {
    gdl_ctx *ctx = gdl_new();
    gdl_status st;
    gdl_test_fail_alloc(ctx, n);
    st = load_bytes(ctx, text, sizeof text - 1);
    ck_assert_msg(st == GDL_EINPUT || st == GDL_ELIMIT, "n=%ld: status %d",
                  n, st);
    (void)gdl_diagnostics(ctx);
    if (st == GDL_EINPUT && gdl_error_count(ctx) > 0)
      done = strstr(gdl_diagnostics(ctx), "unclosed") != NULL;
    gdl_free(ctx);
  }
  ck_assert(done);
}
END_TEST

/* ---- the command line --------------------------------------------------- */

static int run_check(const char *file, char **err)
{
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "%s check '%s'", tu_gdl(), file);
  return tu_run(cmd, NULL, err);
}

START_TEST(test_cli_missing_file)
{
  char *err;
  int rc = run_check("/nonexistent/dir/game.kif", &err);
  ck_assert_int_eq(rc, 2);
  ck_assert_msg(dt_count(err, "\n") == 1, "[%s]", err);
  ck_assert_ptr_nonnull(strstr(err, "/nonexistent/dir/game.kif"));
  ck_assert_ptr_nonnull(strstr(err, "No such file or directory"));
  ck_assert_ptr_nonnull(strstr(err, "error"));
  free(err);
}
END_TEST

START_TEST(test_cli_directory)
{
  char *err;
  char dir[] = "/tmp/gdl-robust-dirXXXXXX";
  int rc;
  ck_assert_ptr_nonnull(mkdtemp(dir));
  rc = run_check(dir, &err);
  ck_assert_int_eq(rc, 2);
  ck_assert_msg(dt_count(err, "\n") == 1, "[%s]", err);
  ck_assert_ptr_nonnull(strstr(err, dir));
  ck_assert_ptr_nonnull(strstr(err, "is a directory"));
  free(err);
  rmdir(dir);
}
END_TEST

START_TEST(test_cli_nul_bytes)
{
  static const char text[] = "(role a)\n(p b)\0\0\0(p c)\n";
  char *path = temp_file(text, sizeof text - 1), *err, want[300];
  int rc = run_check(path, &err);
  dt_diag d;
  ck_assert_int_eq(rc, 2);
  snprintf(want, sizeof want, "%s:2:6: error: stray control character", path);
  ck_assert_msg(strstr(err, want) != NULL, "[%s]", err);
  ck_assert(dt_find(err, "error", "stray control character", &d));
  ck_assert_uint_eq(d.span, 3);
  ck_assert_ptr_nonnull(strstr(err, "\n  (p b)??\?(p c)\n       ^~~\n"));
  remove(path);
  free(path);
  free(err);
}
END_TEST

/* An empty file is accepted (a note says it is not a game); a binary file
 * is rejected with a bounded amount of text. */
START_TEST(test_cli_empty_and_binary)
{
  char *path = temp_file("", 0), *err, *bin;
  int rc = run_check(path, &err), i;
  ck_assert_int_eq(rc, 0);
  ck_assert_ptr_nonnull(strstr(err, "not a game"));
  free(err);
  remove(path);
  free(path);
  bin = malloc(65536);
  rng_state = 77;
  for (i = 0; i < 65536; i++)
    bin[i] = (char)(rng() & 0xff);
  path = temp_file(bin, 65536);
  rc = run_check(path, &err);
  ck_assert_int_eq(rc, 2);
  ck_assert_uint_le(dt_count(err, ": error: "), 50);
  ck_assert_ptr_nonnull(strstr(err, ": error: "));
  free(err);
  remove(path);
  free(path);
  free(bin);
}
END_TEST

/* gdl_use_engine at the memory limit returns GDL_ELIMIT; it allocated
 * before any jump target and aborted (doc/robustness.md, bug 5). */
START_TEST(test_use_engine_at_limit)
{
  static const char game[] =
    "(role r) (init (c 1)) (<= (legal r go) (true (c 1)))\n"
    "(<= (next (c 2)) (does r go)) (<= terminal (true (c 2)))\n"
    "(<= (goal r 100) (true (c 2))) (<= (goal r 0) (true (c 1)))\n";
  gdl_ctx *ctx = gdl_new();
  ck_assert_int_eq(gdl_load_string(ctx, "x.kif", game, sizeof game - 1),
                   GDL_OK);
  ck_assert_int_eq(gdl_compile(ctx, 0), GDL_OK);
  gdl_set_memory_limit(ctx, gdl_memory_used(ctx));   /* not a byte more */
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_GROUND), GDL_ELIMIT);
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_AUTO), GDL_ELIMIT);
  gdl_set_memory_limit(ctx, 0);
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_GROUND), GDL_OK);
  gdl_free(ctx);
}
END_TEST

Suite *robust_suite(void)
{
  Suite *s = suite_create("robust");
  TCase *tc = tcase_create("input");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, test_empty);
  tcase_add_loop_test(tc, test_truncated, 0,
                      sizeof truncated_files / sizeof *truncated_files);
  tcase_add_test(tc, test_truncated_every_byte);
  tcase_add_test(tc, test_random);
  tcase_add_test(tc, test_nul_bytes);
  tcase_add_test(tc, test_nul_run);
  tcase_add_loop_test(tc, test_deep_parens, 0,
                      sizeof deep_close / sizeof *deep_close);
  tcase_add_test(tc, test_deep_term);
  tcase_add_test(tc, test_huge_symbol);
  tcase_add_test(tc, test_junk_line);
  tcase_add_test(tc, test_only_close_parens);
  suite_add_tcase(s, tc);
  tc = tcase_create("terms");
  tcase_set_timeout(tc, 5);
  tcase_add_test(tc, test_term_write_short_buffer);
  tcase_add_test(tc, test_term_write_variables);
  suite_add_tcase(s, tc);
  tc = tcase_create("limits");
  tcase_set_timeout(tc, 10);
  tcase_add_test(tc, test_unbounded_recursion);
  tcase_add_test(tc, test_or_expansions);
  tcase_add_test(tc, test_rule_chain);
  tcase_add_test(tc, test_fact_limit);
  tcase_add_test(tc, test_memory_limit);
  tcase_add_test(tc, test_tiny_memory_limit);
  suite_add_tcase(s, tc);
  tc = tcase_create("time");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_limit_mid_derivation, 0,
                      sizeof limit_games / sizeof *limit_games);
  tcase_add_loop_test(tc, test_limit_mid_grounding, 0, 2);
  tcase_add_loop_test(tc, test_limit_random_steps, 0, 2);
  suite_add_tcase(s, tc);
  tc = tcase_create("alloc");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_fail_alloc_load);
  tcase_add_test(tc, test_fail_alloc_play);
  tcase_add_test(tc, test_fail_alloc_errors);
  suite_add_tcase(s, tc);
  tc = tcase_create("cli");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, test_use_engine_at_limit);
  tcase_add_test(tc, test_cli_missing_file);
  tcase_add_test(tc, test_cli_directory);
  tcase_add_test(tc, test_cli_nul_bytes);
  tcase_add_test(tc, test_cli_empty_and_binary);
  suite_add_tcase(s, tc);
  return s;
}
