/*
 * check_infix.c - infix GDL in and out: what the infix reader makes of a
 * sentence (compared with the KIF it stands for, through gdl_write), the
 * exact place and text of its error messages, how KIF is written as infix
 * (quoting, variable names, 0-ary relations, comments), gdl fmt of an
 * infix file, choosing the syntax (file endings, gdl_set_syntax,
 * %#include), and the commands on infix files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "diagtext.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ctx.c: the n-th allocation from now on fails (-1: none). */
void gdl_test_fail_alloc(gdl_ctx *ctx, long n);

/* ---- helpers ------------------------------------------------------------ */

/* The description loaded from text under `name` (its ending chooses the
 * syntax), written in the syntax `to`, without gdl_write's lines naming
 * the files (malloc'd); NULL with *diag set (malloc'd) when it does not
 * load. */
static char *written(const char *name, const char *text, gdl_syntax to,
                     char **diag)
{
  gdl_ctx *ctx = gdl_new();
  const char *out, *p;
  size_t len;
  char *res = NULL;
  *diag = NULL;
  if (gdl_load_string(ctx, name, text, strlen(text)) != GDL_OK ||
      gdl_write(ctx, to, &out, &len) != GDL_OK) {
    *diag = strdup(gdl_diagnostics(ctx)[0] ? gdl_diagnostics(ctx)
                                           : gdl_errmsg(ctx));
    gdl_free(ctx);
    return NULL;
  }
  /* skip the first line and the blank line and "---- name ----" line */
  p = strstr(out, " ----\n");
  res = strdup(p ? p + 6 : out);
  gdl_free(ctx);
  return res;
}

static char *as_kif(const char *name, const char *text)
{
  char *diag, *w = written(name, text, GDL_SYNTAX_KIF, &diag);
  ck_assert_msg(w != NULL, "%s does not load:\n%s\n%s", name, text, diag);
  return w;
}

static char *as_infix(const char *name, const char *text)
{
  char *diag, *w = written(name, text, GDL_SYNTAX_INFIX, &diag);
  ck_assert_msg(w != NULL, "%s does not load:\n%s\n%s", name, text, diag);
  return w;
}

/* A file in a fresh temporary directory (malloc'd path). */
static char *temp_file(const char *dir, const char *name, const char *text)
{
  char *path = malloc(strlen(dir) + strlen(name) + 2);
  FILE *f;
  sprintf(path, "%s/%s", dir, name);
  f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return path;
}

static char *temp_dir(void)
{
  char *d = strdup("/tmp/gdl-infix-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(d));
  return d;
}

/* ---- reading: infix and the KIF it stands for -------------------------- */

static const struct {
  const char *infix, *kif;
} readings[] = {
  { "role(white)", "(role white)" },
  { "init(cell(1,1,b))", "(init (cell 1 1 b))" },
  { "legal(W, mark(X,Y)) :- true(cell(X,Y,b)) & true(control(W))",
    "(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))" },
  { "terminal :- ~open", "(<= terminal (not open))" },
  { "goal(white,100) :- line(x) & ~line(o)",
    "(<= (goal white 100) (line x) (not (line o)))" },
  /* the same rule over several lines, with comments, as notes write it */
  { "legal(W, mark(X,Y)) :-  % a mark on a blank cell\n"
    "    true(cell(X,Y,b)) &\n"
    "    true(control(W))\n",
    "(<= (legal ?w (mark ?x ?y)) ; a mark on a blank cell\n"
    "  (true (cell ?x ?y b)) (true (control ?w)))" },
  /* '&' at the start of the next line; ':-' on a line of its own */
  { "p(X)\n  :- q(X)\n  & r(X)", "(<= (p ?x) (q ?x) (r ?x))" },
  /* sentences need no terminator; a '.' is accepted */
  { "p :- q\nr\ns.\nt :- u.\nv", "(<= p q) r s (<= t u) v" },
  /* a 0-ary relation: p is KIF's p, p() KIF's (p) */
  { "p() :- q()", "(<= (p) (q))" },
  { "distinct(X, Y)", "(distinct ?x ?y)" },
  { "p(X) :- q(X) & or(r(X), ~s(X), distinct(X, a))",
    "(<= (p ?x) (q ?x) (or (r ?x) (not (s ?x)) (distinct ?x a)))" },
  { "p :- ~~q", "(<= p (not (not q)))" },
  /* variables: X is ?x, _X is ?X, _x is ?x, _'n++' is ?n++, _ is ? */
  { "p(X, _X, _x_1, __y, _'n++', _, Abc)",
    "(p ?x ?X ?x_1 ?_y ?n++ ? ?abc)" },
  /* quoted constants: any KIF symbol; '' for a quote */
  { "p('White', 'map+', 'don''t', '&', 'a.b', '10x')",
    "(p White map+ don't & a.b 10x)" },
  /* keywords are lower case; a quoted keyword is still the keyword */
  { "'ROLE'(x)", "(role x)" },
  /* numbers and names that start with a digit are constants */
  { "succ(0, 1) step(10) p(1a)", "(succ 0 1) (step 10) (p 1a)" },
  /* several sentences on a line */
  { "role(a) role(b)", "(role a) (role b)" },
};

START_TEST(test_reading)
{
  char *a = as_kif("t.hrf", readings[_i].infix);
  char *b = as_kif("t.kif", readings[_i].kif);
  ck_assert_msg(strcmp(a, b) == 0, "infix\n%s\nreads as\n%s\nnot as\n%s",
                readings[_i].infix, a, b);
  free(a);
  free(b);
}
END_TEST

/* ---- errors: the exact place and text ---------------------------------- */

static const struct {
  const char *text;
  unsigned line, col, span;
  const char *msg;      /* the message starts with this */
} errors[] = {
  { "p(?x) :- q(?x)", 1, 3, 2,
    "'?x' is KIF: an infix variable starts with an upper-case letter or '_' (X)" },
  { "p(X) :- q(X) & ?Y", 1, 16, 2,
    "'?Y' is KIF: an infix variable starts with an upper-case letter or '_' (_Y)" },
  { "p(X) :-\n    q(X)\n    r(X)\n", 3, 5, 4, "missing '&'?" },
  { "p(X) :- q(X) r(X)\n", 1, 14, 4, "missing '&'?" },
  { "p(a, b :- q\n", 1, 2, 1, "unclosed '(': ':-' comes before its ')'" },
  { "p(a, b\n", 1, 2, 1, "unclosed '(': end of file comes before its ')'" },
  { "p(a, f(b)\nq(c)\n", 1, 2, 1, "unclosed '(': 'q' comes before its ')'" },
  { "p(a))\n", 1, 5, 1, "unmatched ')': no '(' is open here" },
  { "p(a b)\n", 1, 5, 1,
    "unexpected 'b', expecting ')' or ',' (a ',' missing?)" },
  { ":- q(a)\n", 1, 1, 2, "':-' with no head before it" },
  { "p.\n:- q(a)\n", 2, 1, 2, "':-' with no head before it" },
  { "p :-\n", 1, 5, 1,
    "unexpected end of file: a literal was expected here" },
  { "p :- q &\n", 1, 9, 1,
    "unexpected end of file: a literal was expected here" },
  { "p :- q & & r\n", 1, 10, 1,
    "unexpected '&': a literal was expected here" },
  { "p :- not(q)\n", 1, 6, 3,
    "not(...) is KIF: in infix, negation is ~" },
  { "(<= p q)\n", 1, 1, 1, "unexpected '(': is this KIF?" },
  { "p <= q\n", 1, 3, 2, "'<=' is KIF: an infix rule is HEAD :- LITERAL & ..." },
  { "; a comment\np\n", 1, 1, 1, "';' is not infix GDL: comments start with '%'" },
  { "p(move-left)\n", 1, 3, 9, "'move-left' is not an infix constant" },
  { "p('a b')\n", 1, 3, 1, "unclosed quote" },
  { "p('?x')\n", 1, 3, 4, "a constant cannot start with '?'" },
  { "p('')\n", 1, 3, 2, "empty quoted constant" },
  { "p(X(a))\n", 1, 4, 1, "unexpected '('" },
  { "p : q\n", 1, 3, 1, "':' alone" },
  { "p(\x01)\n", 1, 3, 1, "stray control character" },
  { "p(a) :- q(a)\n  ~r(a)\n", 2, 3, 5, "missing '&'?" },
  { "p(a, 'b c', d)\n", 1, 6, 1, "unclosed quote" },
  /* the checker's messages point into infix text, with infix names */
  { "role(r)\np(X) :- q(X) & ~s(Y)\nq(a)\ns(b)\n", 2, 19, 1,
    "unsafe rule: variable Y under 'not' is not bound" },
  { "role(r)\np(X)\n", 2, 3, 1, "variable X in a fact: a fact must be ground" },
};

START_TEST(test_errors)
{
  gdl_ctx *ctx = gdl_new();
  const char *text = errors[_i].text;
  gdl_status st = gdl_load_string(ctx, "t.hrf", text, strlen(text));
  const char *d;
  dt_diag g;
  if (st == GDL_OK)
    st = gdl_compile(ctx, 0);
  ck_assert_int_eq(st, GDL_EINPUT);
  d = gdl_diagnostics(ctx);
  ck_assert_msg(dt_find(d, "error", "", &g), "no error for\n%s\n%s", text,
                d);
  ck_assert_str_eq(g.file, "t.hrf");
  ck_assert_msg(g.line == errors[_i].line && g.col == errors[_i].col &&
                g.span == errors[_i].span,
                "%s: at %u:%u span %u, expected %u:%u span %u\n%s", text,
                g.line, g.col, g.span, errors[_i].line, errors[_i].col,
                errors[_i].span, d);
  ck_assert_msg(strncmp(g.msg, errors[_i].msg, strlen(errors[_i].msg)) == 0,
                "%s: message\n%s\nexpected to start\n%s", text, g.msg,
                errors[_i].msg);
  gdl_free(ctx);
}
END_TEST

/* One slip gives one message: after a syntax error the reader goes on
 * from the next line, and the sentences there are read. */
START_TEST(test_error_recovery)
{
  gdl_ctx *ctx = gdl_new();
  const char *text = "p(a b)\nq(a) :- r(a\ns(a)\nt :- & u\nv\n";
  gdl_load_string(ctx, "t.hrf", text, strlen(text));
  ck_assert_uint_eq(gdl_error_count(ctx), 3);
  gdl_free(ctx);
}
END_TEST

/* ---- writing: KIF as infix --------------------------------------------- */

static const struct {
  const char *kif, *infix;
} writings[] = {
  { "(role white)", "role(white)\n" },
  { "(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))",
    "legal(W, mark(X, Y)) :-\n"
    "    true(cell(X, Y, b)) &\n"
    "    true(control(W))\n" },
  { "(<= terminal (not open))", "terminal :-\n    ~open\n" },
  { "(<= (p) (q))", "p() :-\n    q()\n" },
  /* ?x and ?X in one rule stay two variables */
  { "(<= (p ?x ?X) (q ?x ?X))", "p(X, _X) :-\n    q(X, _X)\n" },
  { "(p ?n++ ?_a ?1 ?)", "p(_'n++', __a, _1, _)\n" },
  { "(P White map+ don't - 1 a_B)", "'P'('White', 'map+', 'don''t', '-', 1, a_B)\n" },
  { "(ROLE x) (DISTINCT a b) (Or c d) (NOT e)",
    "role(x)\ndistinct(a, b)\nor(c, d)\n~e\n" },
  /* a rule without a body keeps its form */
  { "(<= (p a))", "'<='(p(a))\n" },
  /* comments: ; becomes %, kept in their places; blank lines kept */
  { ";; the roles\n(role a) ; first\n\n(<= p ; why\n q\n ; more\n r ; last\n)\n",
    "%% the roles\nrole(a) % first\n\np :-\n    % why\n    q &\n    % more\n"
    "    r\n% last\n" },
  /* a comment inside a head, or inside a fact, goes before the sentence */
  { "(<= (p ; the head\n a) q)\n(f ; in a fact\n b)\n",
    "% the head\np(a) :-\n    q\n% in a fact\nf(b)\n" },
};

START_TEST(test_writing)
{
  char *w = as_infix("t.kif", writings[_i].kif);
  ck_assert_msg(strcmp(w, writings[_i].infix) == 0,
                "KIF\n%s\nwritten\n%s\nexpected\n%s", writings[_i].kif, w,
                writings[_i].infix);
  free(w);
}
END_TEST

/* KIF -> infix -> KIF gives the KIF layout of the original. */
START_TEST(test_round_trip)
{
  char *i = as_infix("t.kif", writings[_i].kif);
  char *back = as_kif("t.hrf", i);
  char *kif = as_kif("t.kif", writings[_i].kif);
  ck_assert_msg(strcmp(back, kif) == 0, "KIF\n%s\nback from infix as\n%s",
                kif, back);
  free(i);
  free(back);
  free(kif);
}
END_TEST

/* A list that does not start with a constant has no infix form. */
START_TEST(test_not_writable)
{
  gdl_ctx *ctx = gdl_new();
  const char *out, *text = "((a b) c)";
  size_t len;
  ck_assert_int_eq(gdl_load_string(ctx, "t.kif", text, strlen(text)),
                   GDL_OK);
  ck_assert_int_eq(gdl_write(ctx, GDL_SYNTAX_INFIX, &out, &len), GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_errmsg(ctx), "t.kif:1:1:"));
  ck_assert_ptr_nonnull(strstr(gdl_errmsg(ctx), "infix GDL cannot write"));
  gdl_free(ctx);
}
END_TEST

/* ---- gdl fmt of an infix file ------------------------------------------ */

static const struct {
  const char *in, *out;
} layouts[] = {
  { "role( robot )  init(off(p))", "role(robot)\ninit(off(p))\n" },
  { "p(X):-q(X)&r(X).", "p(X) :-\n    q(X) &\n    r(X)\n" },
  { "%% head\n\n\n\np :- q % why\n  & r\n% tail\n",
    "%% head\n\np :-\n    q &\n    % why\n    r\n% tail\n" },
  { "p('a b''c'x) % x\n", NULL },       /* not read: 'a is unclosed */
  { "p('it''s', '%not_a_comment') % a comment\n",
    "p('it''s', '%not_a_comment') % a comment\n" },
  /* an #include line stays in column 1, where it names a file */
  { "%#include \"lib.hrf\"\np :- % inside\n%#include \"x\"\n q\n",
    "%#include \"lib.hrf\"\np :-\n    % inside\n%#include \"x\"\n    q\n" },
  { "p :- % inside\n %#include \"x\"\n q\n",
    "p :-\n    % inside\n    %#include \"x\"\n    q\n" },
  /* one that names no file (indented) is never moved to column 1
     (fuzz_infix: a tab before it, dropped, made it an #include) */
  { "p(a)\n\t%#include \"x.hrf\"\np(b)\n",
    "p(a)\n %#include \"x.hrf\"\np(b)\n" },
};

START_TEST(test_fmt)
{
  char *dir = temp_dir();
  char *path = temp_file(dir, "f.hrf", layouts[_i].in);
  gdl_ctx *ctx = gdl_new();
  const char *text;
  size_t len;
  gdl_status st = gdl_format(ctx, path, &text, &len);
  if (!layouts[_i].out) {
    ck_assert_int_eq(st, GDL_EINPUT);
  } else {
    char *once;
    ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
    ck_assert_msg(strcmp(text, layouts[_i].out) == 0,
                  "formatted\n%s\nas\n%s\nexpected\n%s", layouts[_i].in,
                  text, layouts[_i].out);
    once = strdup(text);
    free(path);
    path = temp_file(dir, "g.hrf", once);
    ck_assert_int_eq(gdl_format(ctx, path, &text, &len), GDL_OK);
    ck_assert_str_eq(text, once);          /* idempotent */
    free(once);
    unlink(path);
  }
  unlink(path);
  free(path);
  path = malloc(strlen(dir) + 8);
  sprintf(path, "%s/f.hrf", dir);
  unlink(path);
  free(path);
  rmdir(dir);
  free(dir);
  gdl_free(ctx);
}
END_TEST

/* ---- choosing the syntax ------------------------------------------------ */

START_TEST(test_endings)
{
  static const char *const infix[] = { "a.hrf", "a.gdl" };
  static const char *const kif[] = { "a.kif", "a", "a.txt", "hrf" };
  int i;
  for (i = 0; i < N(infix); i++) {
    gdl_ctx *ctx = gdl_new();
    ck_assert_int_eq(gdl_load_string(ctx, infix[i], "p(a)", 4), GDL_OK);
    ck_assert_int_eq(gdl_file_syntax(ctx, 0), GDL_SYNTAX_INFIX);
    gdl_free(ctx);
  }
  for (i = 0; i < N(kif); i++) {
    gdl_ctx *ctx = gdl_new();
    ck_assert_int_eq(gdl_load_string(ctx, kif[i], "(p a)", 5), GDL_OK);
    ck_assert_int_eq(gdl_file_syntax(ctx, 0), GDL_SYNTAX_KIF);
    gdl_free(ctx);
  }
}
END_TEST

START_TEST(test_set_syntax)
{
  gdl_ctx *ctx = gdl_new();
  gdl_set_syntax(ctx, GDL_SYNTAX_INFIX);
  ck_assert_int_eq(gdl_load_string(ctx, "a.kif", "p(a)", 4), GDL_OK);
  ck_assert_int_eq(gdl_file_syntax(ctx, 0), GDL_SYNTAX_INFIX);
  gdl_set_syntax(ctx, GDL_SYNTAX_KIF);
  ck_assert_int_eq(gdl_load_string(ctx, "b.hrf", "(q a)", 5), GDL_OK);
  ck_assert_int_eq(gdl_file_syntax(ctx, 1), GDL_SYNTAX_KIF);
  ck_assert_int_eq(gdl_file_syntax(ctx, 2), GDL_SYNTAX_AUTO);
  gdl_free(ctx);
}
END_TEST

/* An infix puzzle can name a KIF library, and a KIF file an infix one;
 * an included file without a known ending is read as its includer. */
START_TEST(test_includes)
{
  char *dir = temp_dir();
  char *lib = temp_file(dir, "lib.kif", "(<= (q ?x) (p ?x))\n");
  char *lib2 = temp_file(dir, "lib2.hrf", "r(X) :- q(X)\n");
  char *lib3 = temp_file(dir, "lib3.rules", "s(X) :- r(X)\n");
  char *main = temp_file(dir, "main.hrf",
                         "%#include \"lib.kif\"\n%#include \"lib2.hrf\"\n"
                         "%#include \"lib3.rules\"\np(a)\n");
  gdl_status st;
  gdl_ctx *ctx = tu_load(&st, 0, main, NULL);
  gdl_term t;
  ck_assert_msg(st == GDL_OK, "%s", gdl_diagnostics(ctx));
  ck_assert_uint_eq(gdl_file_count(ctx), 4);
  ck_assert_int_eq(gdl_file_syntax(ctx, 1), GDL_SYNTAX_KIF);
  ck_assert_int_eq(gdl_file_syntax(ctx, 2), GDL_SYNTAX_INFIX);
  ck_assert_int_eq(gdl_file_syntax(ctx, 3), GDL_SYNTAX_INFIX);
  ck_assert_int_eq(gdl_parse_term(ctx, "(s a)", 0, &t), GDL_OK);
  gdl_free(ctx);
  unlink(lib);
  unlink(lib2);
  unlink(lib3);
  unlink(main);
  rmdir(dir);
  free(lib);
  free(lib2);
  free(lib3);
  free(main);
  free(dir);
}
END_TEST

/* A NUL byte in an included name (found by fuzzing,
 * tests/fuzz/regress/infix/): the infix scanner, like the KIF one before
 * it, looked for the closing quote with strchr, stopped at the NUL and
 * asked for 2^64 bytes ("out of memory").  Now it is an error at the
 * include line. */
START_TEST(test_include_nul_in_name)
{
  static const char text[] = "p(a)\n%#include \"x.\0\0kif\"\np(b)\n";
  unsigned line = 0, col = 0;
  ck_assert(tu_include_nul("x.hrf", text, sizeof text - 1, &line, &col));
  ck_assert_uint_eq(line, 2);
  ck_assert_uint_eq(col, 1);
}
END_TEST

/* ---- running out of memory ---------------------------------------------- */

/* The n-th allocation of reading an infix puzzle (and writing it as KIF),
 * or of reading infix text with errors, fails, for every n until one that
 * is never reached: GDL_ELIMIT, never a crash, and gdl_free releases
 * everything (the scanner's own memory too: ASan checks that). */
START_TEST(test_fail_alloc)
{
  static const char bad[] =
    "role(r)\np(?x) :- q(X) r(X).\n:- s\np(a, b :- t\n'u\nv(X)\n";
  long n;
  int done = 0;
  for (n = 0; n < 20000 && !done; n++) {
    gdl_ctx *ctx = gdl_new();
    gdl_status st;
    const char *text;
    size_t len;
    ck_assert_ptr_nonnull(ctx);
    gdl_test_fail_alloc(ctx, n);
    if (_i == 0) {
      st = gdl_load_file(ctx, "puzzles/bridge-and-torch.hrf");
      if (st == GDL_OK)
        st = gdl_write(ctx, GDL_SYNTAX_KIF, &text, &len);
      if (st == GDL_OK)
        st = gdl_compile(ctx, 0);
      ck_assert_msg(st == GDL_OK || st == GDL_ELIMIT, "n=%ld: status %d "
                    "(%s)", n, st, gdl_errmsg(ctx));
      done = st == GDL_OK;
    } else {
      st = gdl_load_string(ctx, "bad.hrf", bad, sizeof bad - 1);
      ck_assert_msg(st == GDL_EINPUT || st == GDL_ELIMIT, "n=%ld: status %d",
                    n, st);
      (void)gdl_diagnostics(ctx);
      done = st == GDL_EINPUT && gdl_error_count(ctx) == 5;
    }
    gdl_free(ctx);
  }
  ck_assert_msg(done, "never succeeded");
}
END_TEST

/* ---- the commands on infix files --------------------------------------- */

static const struct {
  const char *file;
  int length;
} infix_puzzles[] = {
  { "puzzles/toads-and-frogs.hrf", 15 },
  { "puzzles/bridge-and-torch.hrf", 7 },
};

START_TEST(test_solve_json)
{
  char *out, *err, want[64];
  int rc = tu_gdl_run(&out, &err, "solve --json %s", infix_puzzles[_i].file);
  ck_assert_msg(rc == 0, "%s: exit %d: %s", infix_puzzles[_i].file, rc, err);
  ck_assert_ptr_nonnull(strstr(out, "\"status\": \"solved\""));
  snprintf(want, sizeof want, "\"length\": %d,", infix_puzzles[_i].length);
  ck_assert_msg(strstr(out, want) != NULL, "%s: %s", infix_puzzles[_i].file,
                out);
  free(out);
  free(err);
}
END_TEST

/* gdl cat --syntax turns one into the other; the result plays the same. */
START_TEST(test_cat)
{
  char *out, *err, *out2, *err2;
  /* plain gdl cat writes standard KIF, from infix too */
  int rc = tu_gdl_run(&out, &err, "cat puzzles/toads-and-frogs.hrf > "
                      "/tmp/gdl-infix-tf.kif && %s solve --json "
                      "/tmp/gdl-infix-tf.kif", tu_gdl());
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_ptr_nonnull(strstr(out, "\"length\": 15,"));
  free(out);
  free(err);
  rc = tu_gdl_run(&out, &err, "cat --syntax infix "
                  "puzzles/wolf-goat-cabbage.kif > /tmp/gdl-infix-wgc.hrf && "
                  "%s playout --seed 5 /tmp/gdl-infix-wgc.hrf", tu_gdl());
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_int_eq(tu_gdl_run(&out2, &err2, "playout --seed 5 "
                              "puzzles/wolf-goat-cabbage.kif"), 0);
  ck_assert_str_eq(out, out2);
  free(out);
  free(err);
  free(out2);
  free(err2);
  unlink("/tmp/gdl-infix-tf.kif");
  unlink("/tmp/gdl-infix-wgc.hrf");
}
END_TEST

/* --syntax overrides the ending; it is infix or kif. */
START_TEST(test_syntax_option)
{
  char *out, *err;
  FILE *f = fopen("/tmp/gdl-infix-opt.txt", "w");
  ck_assert_ptr_nonnull(f);
  fputs("role(r)\nq(a)\np(X) :- q(X)\n", f);
  fclose(f);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "query --syntax infix "
                              "/tmp/gdl-infix-opt.txt 'p(X)'"), 0);
  ck_assert_str_eq(out, "p(a)\n");     /* answered in the file's syntax */
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "check /tmp/gdl-infix-opt.txt"),
                   2);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "check --syntax prolog "
                              "/tmp/gdl-infix-opt.txt"), 2);
  ck_assert_ptr_nonnull(strstr(err, "--syntax is infix or kif"));
  free(out);
  free(err);
  unlink("/tmp/gdl-infix-opt.txt");
}
END_TEST

/* explain and trace show a rule as it was written: infix for infix. */
START_TEST(test_explain_trace)
{
  char *out, *err;
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain "
                              "puzzles/toads-and-frogs.hrf "
                              "'legal(player, move(3, 4))'"), 0);
  ck_assert_msg(strstr(out, "legal(player, move(3, 4))  <- rule "
                "puzzles/toads-and-frogs.hrf:42: legal(player, move(F, T))"
                " :- true(at(F, K)) & ahead(K, F, T) & true(empty(T))")
                != NULL, "%s", out);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain "
                              "puzzles/toads-and-frogs.hrf terminal"), 1);
  ck_assert_msg(strstr(out, "terminal :- ~can_move") != NULL, "%s", out);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "trace "
                              "puzzles/toads-and-frogs.hrf"), 0);
  ck_assert_msg(strstr(out, "ahead(frog, A, B) :- next_to(B, A)") != NULL,
                "%s", out);
  ck_assert_ptr_nonnull(strstr(out, "+ ahead(frog, 2, 1)"));
  free(out);
  free(err);
  /* a KIF file stays KIF */
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain "
                              "puzzles/wolf-goat-cabbage.kif terminal"), 1);
  ck_assert_ptr_nonnull(strstr(out, "(<= terminal"));
  free(out);
  free(err);
}
END_TEST

Suite *infix_suite(void)
{
  Suite *s = suite_create("infix");
  TCase *tc = tcase_create("infix");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_reading, 0, N(readings));
  tcase_add_loop_test(tc, test_errors, 0, N(errors));
  tcase_add_test(tc, test_error_recovery);
  tcase_add_loop_test(tc, test_writing, 0, N(writings));
  tcase_add_loop_test(tc, test_round_trip, 0, N(writings));
  tcase_add_test(tc, test_not_writable);
  tcase_add_loop_test(tc, test_fmt, 0, N(layouts));
  tcase_add_test(tc, test_endings);
  tcase_add_test(tc, test_set_syntax);
  tcase_add_test(tc, test_includes);
  tcase_add_test(tc, test_include_nul_in_name);
  tcase_add_loop_test(tc, test_fail_alloc, 0, 2);
  tcase_add_loop_test(tc, test_solve_json, 0, N(infix_puzzles));
  tcase_add_test(tc, test_cat);
  tcase_add_test(tc, test_syntax_option);
  tcase_add_test(tc, test_explain_trace);
  suite_add_tcase(s, tc);
  return s;
}
