/*
 * check_fmt.c - gdl_format and `gdl fmt`: the layout of facts, rules,
 * nested terms, keywords, comments in every position and blank lines
 * (table-driven, exact text); and for every case and every file of the
 * corpus, rules/ and puzzles/, the invariants a formatter must keep:
 * formatting the output changes nothing, the output has the same tokens
 * (keywords in lower case) and the same comments in the same order, and it
 * loads to the same game.  Then errors, includes, allocation failures and
 * the command line (--check, --write, usage).
 *
 * The token and comment readers here are written from doc/dialect.md, not
 * taken from the library, so they check the formatter from outside.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

/* Tests only: the library fails the n-th allocation from now. */
void gdl_test_fail_alloc(gdl_ctx *ctx, long n);

/* ---- helpers ------------------------------------------------------------ */

/* A new file holding text (malloc'd path; the caller removes it). */
static char *temp_kif(const char *text, size_t len)
{
  char *path = strdup("/tmp/gdlfmtXXXXXX.kif");
  int fd = mkstemps(path, 4);
  FILE *f;
  ck_assert_int_ge(fd, 0);
  f = fdopen(fd, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(text, 1, len, f), len);
  ck_assert_int_eq(fclose(f), 0);
  return path;
}

/* The whole of a file (malloc'd, NUL-terminated), or NULL. */
static char *read_all(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  buf[n] = 0;
  *len = (size_t)n;
  return buf;
}

/* gdl_format of the file at path (malloc'd copy of the text). */
static char *format_file(const char *path)
{
  gdl_ctx *ctx = gdl_new();
  const char *text;
  size_t len;
  char *copy;
  gdl_status st = gdl_format(ctx, path, &text, &len);
  ck_assert_msg(st == GDL_OK, "%s: status %d: %s", path, st,
                gdl_diagnostics(ctx));
  ck_assert_uint_eq(strlen(text), len);
  copy = strdup(text);
  gdl_free(ctx);
  return copy;
}

/* gdl_format of text. */
static char *format_text(const char *text)
{
  char *path = temp_kif(text, strlen(text)), *out = format_file(path);
  remove(path);
  free(path);
  return out;
}

/* A growing string. */
typedef struct {
  char *s;
  size_t n, cap;
} buf_t;

static void put(buf_t *b, const char *s, size_t n)
{
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->s = realloc(b->s, b->cap);
    ck_assert_ptr_nonnull(b->s);
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

static int is_ws(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
         c == '\v';
}

static const char *const keywords[] = {
  "role", "init", "true", "does", "legal", "next", "goal", "terminal",
  "distinct", "not", "or", "<=", "base", "input",
};

/* The tokens of KIF text, one per line: '(', ')', symbols and variables,
 * keywords in lower case.  Comments (';' to the end of the line) are
 * skipped. */
static char *tokens(const char *t)
{
  buf_t b = { NULL, 0, 0 };
  put(&b, "", 0);
  while (*t) {
    const char *s = t;
    char low[16];
    size_t n, i, k;
    if (is_ws(*t)) {
      t++;
      continue;
    }
    if (*t == ';') {
      while (*t && *t != '\n')
        t++;
      continue;
    }
    if (*t == '(' || *t == ')') {
      put(&b, t++, 1);
      put(&b, "\n", 1);
      continue;
    }
    while (*t && !is_ws(*t) && *t != '(' && *t != ')' && *t != ';')
      t++;
    n = (size_t)(t - s);
    if (*s != '?' && n < sizeof low) {
      for (i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)s[i]);
      for (k = 0; k < sizeof keywords / sizeof *keywords; k++)
        if (strlen(keywords[k]) == n && memcmp(low, keywords[k], n) == 0)
          s = keywords[k];
    }
    put(&b, s, n);
    put(&b, "\n", 1);
  }
  return b.s;
}

/* The comments of KIF text in order, trailing blanks trimmed, one per
 * line. */
static char *comments(const char *t)
{
  buf_t b = { NULL, 0, 0 };
  put(&b, "", 0);
  for (; *t; t++) {
    const char *s, *e;
    if (*t != ';')
      continue;
    for (s = t; *t && *t != '\n'; t++)
      ;
    for (e = t; is_ws(e[-1]); e--)
      ;
    put(&b, s, (size_t)(e - s));
    put(&b, "\n", 1);
    if (!*t)
      break;
  }
  return b.s;
}

/* What any formatted text must be: no trailing blanks, no blank line at
 * the start or two in a row, one newline at the end (or nothing). */
static void assert_tidy(const char *out, const char *what)
{
  size_t n = strlen(out), i;
  if (n == 0)
    return;
  ck_assert_msg(out[n - 1] == '\n', "%s: no final newline", what);
  ck_assert_msg(n < 2 || out[n - 2] != '\n', "%s: blank line at the end",
                what);
  ck_assert_msg(out[0] != '\n', "%s: blank line at the start", what);
  ck_assert_msg(strstr(out, "\n\n\n") == NULL, "%s: two blank lines", what);
  for (i = 0; i + 1 < n; i++)
    ck_assert_msg(!(out[i + 1] == '\n' && (out[i] == ' ' || out[i] == '\t' ||
                                           out[i] == '\r')),
                  "%s: a blank at the end of a line (offset %zu)", what, i);
}

/* Where two texts first differ: "line N: <a's line> | <b's line>", short
 * enough for a Check message (a whole corpus file is not). */
static const char *difference(const char *a, const char *b)
{
  static char msg[600];
  const char *la = a, *lb = b;
  unsigned line = 1;
  for (; *a && *a == *b; a++, b++)
    if (*a == '\n') {
      line++;
      la = a + 1;
      lb = b + 1;
    }
  snprintf(msg, sizeof msg, "line %u: %.*s | %.*s", line,
           (int)(strcspn(la, "\n") < 200 ? strcspn(la, "\n") : 200), la,
           (int)(strcspn(lb, "\n") < 200 ? strcspn(lb, "\n") : 200), lb);
  return msg;
}

/* The formatter's promises about in -> out. */
static void assert_invariants(const char *in, const char *out,
                              const char *what)
{
  char *ta = tokens(in), *tb = tokens(out);
  char *ca = comments(in), *cb = comments(out);
  char *again = format_text(out);
  ck_assert_msg(strcmp(ta, tb) == 0, "%s: the tokens changed: %s", what,
                difference(ta, tb));
  ck_assert_msg(strcmp(ca, cb) == 0, "%s: the comments changed: %s", what,
                difference(ca, cb));
  ck_assert_msg(strcmp(again, out) == 0, "%s: not idempotent: %s", what,
                difference(out, again));
  assert_tidy(out, what);
  free(ta);
  free(tb);
  free(ca);
  free(cb);
  free(again);
}

/* ---- layout: exact text ------------------------------------------------- */

static const struct {
  const char *name, *in, *want;
} layouts[] = {
  { "facts",
    "(role robot)\n(init (at dog tree))\n",
    "(role robot)\n(init (at dog tree))\n" },
  { "spaces",
    "  (  role\trobot )(init(at   dog\n tree ) )",
    "(role robot)\n(init (at dog tree))\n" },
  { "rule",
    "(<= (legal robot (move ?x ?y)) (true (at robot ?x)) (adjacent ?x ?y))",
    "(<= (legal robot (move ?x ?y))\n"
    "    (true (at robot ?x))\n"
    "    (adjacent ?x ?y))\n" },
  { "rule over lines",
    "(<=\n  (legal robot (move ?x ?y))\n(true (at robot ?x))\n\n"
    "        (adjacent ?x ?y)\n)\n",
    "(<= (legal robot (move ?x ?y))\n"
    "    (true (at robot ?x))\n"
    "    (adjacent ?x ?y))\n" },
  { "rule without body",
    "(<= (p a))\n(<=\n  (q b)\n  )\n",
    "(<= (p a))\n(<= (q b))\n" },
  { "bare head",
    "(<= terminal (true done))",
    "(<= terminal\n    (true done))\n" },
  { "or and not are one literal",
    "(<= (p ?x) (q ?x) (or (r ?x)\n   (s ?x)) (not\n (t ?x)))",
    "(<= (p ?x)\n    (q ?x)\n    (or (r ?x) (s ?x))\n    (not (t ?x)))\n" },
  { "nested terms",
    "(init (cell (pos 1 (succ  2)) ( b ) ()))",
    "(init (cell (pos 1 (succ 2)) (b) ()))\n" },
  { "keywords in lower case",
    "(ROLE Robot)\n(Init (Lit Off))\n"
    "(<= (LEGAL Robot (Press ?X)) (TRUE (Lit ?X)) (NOT (DISTINCT ?X Off))"
    " (OR (A) (b)) (Does Robot Go))\n"
    "(<= (NEXT (Lit ?x)) (BASE (Lit ?x)) (INPUT Robot (Press ?x)))\n"
    "(<= Terminal (GOAL Robot 100))\n(Terminals Roles DOESN)\n",
    "(role Robot)\n(init (Lit Off))\n"
    "(<= (legal Robot (Press ?X))\n    (true (Lit ?X))\n"
    "    (not (distinct ?X Off))\n    (or (A) (b))\n    (does Robot Go))\n"
    "(<= (next (Lit ?x))\n    (base (Lit ?x))\n"
    "    (input Robot (Press ?x)))\n"
    "(<= terminal\n    (goal Robot 100))\n(Terminals Roles DOESN)\n" },
  { "p and (p) as written",
    "p\n(p)\n(<= p (p))\n(<= (q) q)\n",
    "p\n(p)\n(<= p\n    (p))\n(<= (q)\n    q)\n" },
  { "variables keep their names",
    "(<= (f ?X ?longName ?x_1 ?) (g ?X ?longName ?x_1 ?))",
    "(<= (f ?X ?longName ?x_1 ?)\n    (g ?X ?longName ?x_1 ?))\n" },
  { "blank lines",
    "\n\n(role a)\n\n\n\n(role b)\n(role c)\n   \n(role d)\n\n",
    "(role a)\n\n(role b)\n(role c)\n\n(role d)\n" },
  { "comments between forms",
    "; a\n(role x)\n;; b\n\n\n   ; c  \n(init (y))\n; end",
    "; a\n(role x)\n;; b\n\n; c\n(init (y))\n; end\n" },
  { "comment at the end of a form's line",
    "(role x)   ; the player   \n(<= (p) (q)) ;why\n(<= (r)\n (s)) ; s\n",
    "(role x) ; the player\n(<= (p)\n    (q)) ;why\n(<= (r)\n    (s)) ; s\n" },
  { "comment on the next line is not the form's",
    "(role x)\n; about y\n(role y)\n",
    "(role x)\n; about y\n(role y)\n" },
  { "comments inside a rule",
    "(<= (p ?x) ; head note\n (q ?x) ; after q\n   ; own line\n (r ?x))",
    "(<= (p ?x)\n    ; head note\n    (q ?x)\n    ; after q\n"
    "    ; own line\n    (r ?x))\n" },
  { "comment after the last literal",
    "(<= (p ?x)\n (q ?x) ; last\n)\n(role r)\n",
    "(<= (p ?x)\n    (q ?x)\n    ; last\n)\n(role r)\n" },
  { "comment inside a fact",
    "(init ; the start\n (at dog tree))\n(init (cell 1 1 b) ; inner\n)",
    "(init\n    ; the start\n    (at dog tree))\n"
    "(init (cell 1 1 b)\n    ; inner\n)\n" },
  { "comment inside a literal",
    "(<= (p ?x) (q ?x ; note\n ?y))",
    "(<= (p ?x)\n    (q ?x\n        ; note\n        ?y))\n" },
  { "comment inside the head",
    "(<= (h ;head\n  ?x) (q ?x))",
    "(<= (h\n        ;head\n        ?x)\n    (q ?x))\n" },
  { "comment inside or",
    "(<= terminal (or (true (a)) ; c\n (true (b))))",
    "(<= terminal\n    (or (true (a))\n        ; c\n        (true (b))))\n" },
  { "comment before the first element",
    "( ; first\n foo bar)\n(;x\n)",
    "(\n    ; first\n    foo bar)\n(\n    ;x\n)\n" },
  { "comments around a trailing one",
    "(role a) ; one\n; two\n(role b)",
    "(role a) ; one\n; two\n(role b)\n" },
  { "no newline at the end",
    "(role a)",
    "(role a)\n" },
  { "carriage returns",
    "(role a)\r\n\r\n(<= (p ?x)\r\n  (q ?x)) ; c\r\n",
    "(role a)\n\n(<= (p ?x)\n    (q ?x)) ; c\n" },
  { "include pragma kept in column 1",
    ";#include \"../rules/dogbunny.kif\"\n(role a)\n",
    ";#include \"../rules/dogbunny.kif\"\n(role a)\n" },
  { "an indented include is not one and stays indented",
    "   ;#include \"a.kif\"\n(role a) ;#include \"b.kif\"\n",
    " ;#include \"a.kif\"\n(role a) ;#include \"b.kif\"\n" },
  { "an include inside a form stays an include",
    "(role\n;#include \"a.kif\"\n  x)\n(role ;#include \"b.kif\"\n y)\n",
    "(role\n;#include \"a.kif\"\n    x)\n(role\n    ;#include \"b.kif\"\n"
    "    y)\n" },
  { "empty file", "", "" },
  { "only white space", " \n\n\t\n", "" },
  { "only comments", ";a\n\n\n;b", ";a\n\n;b\n" },
};

START_TEST(test_layout)
{
  char *out = format_text(layouts[_i].in);
  ck_assert_msg(strcmp(out, layouts[_i].want) == 0,
                "%s: got\n%s---\nwant\n%s---", layouts[_i].name, out,
                layouts[_i].want);
  assert_invariants(layouts[_i].in, out, layouts[_i].name);
  free(out);
}
END_TEST

/* The helpers above can fail: a changed token, a lost comment. */
START_TEST(test_invariant_helpers)
{
  char *a = tokens("(ROLE x) ; c\n(<= p q)"), *b = tokens("(role x)(<= p q)");
  char *c = tokens("(role x)(<= p (q))");
  ck_assert_str_eq(a, b);
  ck_assert_str_ne(a, c);
  free(a);
  free(b);
  free(c);
  a = comments("; one  \n(p) ;two\n");
  ck_assert_str_eq(a, "; one\n;two\n");
  free(a);
}
END_TEST

/* ---- the same game ------------------------------------------------------ */

/* Loads a file and compiles it: the status, and with a game the initial
 * state and the legal moves of every role as text. */
static char *game_text(const char *path, gdl_status *st)
{
  gdl_ctx *ctx = tu_load(st, 0, path, NULL);
  buf_t b = { NULL, 0, 0 };
  gdl_state s = { 0, 0, NULL };
  uint32_t i;
  size_t r;
  put(&b, "", 0);
  if (*st == GDL_OK && gdl_is_game(ctx) &&
      gdl_use_engine(ctx, GDL_ENGINE_INTERP) == GDL_OK &&
      gdl_initial(ctx, &s) == GDL_OK && gdl_set_state(ctx, &s) == GDL_OK) {
    for (i = 0; i < s.n; i++) {
      const char *f = gdl_term_str(ctx, s.facts[i]);
      put(&b, f, strlen(f));
      put(&b, "\n", 1);
    }
    for (r = 0; r < gdl_role_count(ctx) && !gdl_terminal(ctx); r++) {
      char *l = tu_legal_text(ctx, r);
      put(&b, l, strlen(l));
      put(&b, "\n", 1);
      free(l);
    }
  }
  gdl_free(ctx);
  return b.s;
}

static const char *const game_files[] = {
  "puzzles/hanoi5.kif", "puzzles/buttons-and-lights.kif",
  "puzzles/dogbunny-walkthrough.kif", "puzzles/eight-puzzle-31.kif",
};

/* Writes text to dir/rel. */
static void write_at(const char *dir, const char *rel, const char *text)
{
  char path[4096];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  f = fopen(path, "wb");
  ck_assert_msg(f != NULL, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
}

/* The formatted file loads to the same description.  The formatted copies
 * go to a temporary folder with the same layout, rules/ beside puzzles/,
 * so a ;#include still resolves (to a formatted library). */
START_TEST(test_same_game)
{
  const char *path = game_files[_i];
  char dir[] = "/tmp/gdlfmtXXXXXX", sub[4096], copy[4096];
  char *out = format_file(path), *lib = format_file("rules/dogbunny.kif");
  char *g1, *g2, *in;
  size_t len;
  gdl_status s1, s2;
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(sub, sizeof sub, "%s/rules", dir);
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  snprintf(sub, sizeof sub, "%s/puzzles", dir);
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  write_at(dir, "rules/dogbunny.kif", lib);
  if (strcmp(path, "rules/dogbunny.kif") != 0)
    write_at(dir, path, out);
  snprintf(copy, sizeof copy, "%s/%s", dir, path);
  g1 = game_text(path, &s1);
  g2 = game_text(copy, &s2);
  remove(copy);
  snprintf(sub, sizeof sub, "%s/rules/dogbunny.kif", dir);
  remove(sub);
  snprintf(sub, sizeof sub, "%s/rules", dir);
  rmdir(sub);
  snprintf(sub, sizeof sub, "%s/puzzles", dir);
  rmdir(sub);
  ck_assert_int_eq(rmdir(dir), 0);
  ck_assert_int_eq(s1, GDL_OK);
  ck_assert_int_eq(s2, GDL_OK);
  ck_assert_uint_gt(strlen(g1), 0);
  ck_assert_str_eq(g1, g2);
  in = read_all(path, &len);
  assert_invariants(in, out, path);
  free(in);
  free(g1);
  free(g2);
  free(out);
  free(lib);
}
END_TEST

/* Every file of the corpus, rules/ and puzzles/ that parses. */
START_TEST(test_corpus)
{
  static const char *const dirs[] = { "single", "multi", "conformance",
                                      "rules", "puzzles" };
  size_t d, files = 0;
  for (d = 0; d < sizeof dirs / sizeof *dirs; d++) {
    char dir[4096];
    DIR *dp;
    struct dirent *de;
    snprintf(dir, sizeof dir, "%s", d < 3 ? tu_corpus(dirs[d]) : dirs[d]);
    dp = opendir(dir);
    ck_assert_msg(dp != NULL, "cannot open %s", dir);
    while ((de = readdir(dp)) != NULL) {
      char path[8192], *in;
      const char *text;
      size_t n = strlen(de->d_name), len;
      gdl_ctx *ctx;
      if (n < 5 || strcmp(de->d_name + n - 4, ".kif") != 0)
        continue;
      snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
      ctx = gdl_new();
      if (gdl_format(ctx, path, &text, &len) == GDL_OK) {
        char *out = strdup(text);
        in = read_all(path, &len);
        assert_invariants(in, out, path);
        free(in);
        free(out);
        files++;
      } else {
        ck_assert_msg(strstr(gdl_diagnostics(ctx), ": error: ") != NULL,
                      "%s: no error message", path);
      }
      gdl_free(ctx);
    }
    closedir(dp);
  }
  ck_assert_uint_ge(files, 200);
}
END_TEST

/* ---- errors and the context --------------------------------------------- */

START_TEST(test_syntax_error)
{
  char *path = temp_kif("(role a)\n(<= (p ?x) (q ?x)\n", 27);
  gdl_ctx *ctx = gdl_new();
  const char *text = "x", *d;
  size_t len = 7;
  char want[256];
  ck_assert_int_eq(gdl_format(ctx, path, &text, &len), GDL_EINPUT);
  ck_assert_str_eq(text, "");
  ck_assert_uint_eq(len, 0);
  d = gdl_diagnostics(ctx);
  snprintf(want, sizeof want, "%s:2:1: error: unclosed '(': the file ends "
           "before its ')'\n  (<= (p ?x) (q ?x)\n  ^\n", path);
  ck_assert_str_eq(d, want);
  gdl_free(ctx);
  remove(path);
  free(path);
}
END_TEST

START_TEST(test_cannot_read)
{
  gdl_ctx *ctx = gdl_new();
  const char *text;
  size_t len;
  ck_assert_int_eq(gdl_format(ctx, "/nonexistent/x.kif", &text, &len),
                   GDL_EINPUT);
  ck_assert_str_eq(gdl_diagnostics(ctx), "gdl: error: cannot read "
                   "/nonexistent/x.kif: No such file or directory\n");
  gdl_free(ctx);
}
END_TEST

/* Semantic mistakes are not fmt's business: an unsafe rule formats. */
START_TEST(test_unchecked)
{
  char *out = format_text("(<= (p ?x) (not (q ?x)))(role)");
  ck_assert_str_eq(out, "(<= (p ?x)\n    (not (q ?x)))\n(role)\n");
  free(out);
}
END_TEST

/* The included files are not read (one that does not exist is no
 * error), and the formatted file does not join the description. */
START_TEST(test_includes_not_read)
{
  static const char game[] =
    ";#include \"missing-library.kif\"\n(role a)\n(init (on))\n"
    "(<= (legal a go) (true (on)))\n(<= (next (on)) (does a go))\n"
    "(<= terminal (true (on)))\n(goal a 100)\n";
  static const char other[] =
    "(role b)\n(init (off))\n(<= (legal b stay) (true (off)))\n"
    "(<= (next (off)) (does b stay))\n(<= terminal (true (on)))\n"
    "(goal b 0)\n";
  char *p1 = temp_kif(game, strlen(game));
  char *p2 = temp_kif(other, strlen(other));
  gdl_ctx *ctx = gdl_new();
  const char *text, *orig;
  size_t len, olen, nfiles;
  ck_assert_int_eq(gdl_format(ctx, p1, &text, &len), GDL_OK);
  ck_assert_ptr_nonnull(strstr(text, ";#include \"missing-library.kif\"\n"));
  ck_assert_str_eq(gdl_diagnostics(ctx), "");
  nfiles = gdl_file_count(ctx);
  ck_assert_uint_eq(nfiles, 1);
  orig = gdl_file_text(ctx, nfiles - 1, &olen);
  ck_assert_uint_eq(olen, strlen(game));
  ck_assert(memcmp(orig, game, olen) == 0);
  /* the description is only what is loaded: b, not a */
  ck_assert_int_eq(gdl_load_file(ctx, p2), GDL_OK);
  ck_assert_int_eq(gdl_compile(ctx, 0), GDL_OK);
  ck_assert_uint_eq(gdl_role_count(ctx), 1);
  ck_assert_str_eq(gdl_term_str(ctx, gdl_role(ctx, 0)), "b");
  gdl_free(ctx);

  /* formatted first, the same file still loads (with its include) */
  ctx = gdl_new();
  ck_assert_int_eq(gdl_format(ctx, p2, &text, &len), GDL_OK);
  ck_assert_int_eq(gdl_load_file(ctx, p2), GDL_OK);
  ck_assert_int_eq(gdl_compile(ctx, 0), GDL_OK);
  ck_assert_uint_eq(gdl_role_count(ctx), 1);
  gdl_free(ctx);
  ctx = gdl_new();
  ck_assert_int_eq(gdl_format(ctx, p1, &text, &len), GDL_OK);
  ck_assert_int_eq(gdl_load_file(ctx, p1), GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_diagnostics(ctx), "cannot include"));
  gdl_free(ctx);
  remove(p1);
  remove(p2);
  free(p1);
  free(p2);
}
END_TEST

/* A second gdl_format replaces the first one's text. */
START_TEST(test_two_formats)
{
  char *p1 = temp_kif("(role   a)", 10), *p2 = temp_kif("(<= p   q)", 10);
  gdl_ctx *ctx = gdl_new();
  const char *text;
  size_t len;
  ck_assert_int_eq(gdl_format(ctx, p1, &text, &len), GDL_OK);
  ck_assert_str_eq(text, "(role a)\n");
  ck_assert_int_eq(gdl_format(ctx, p2, &text, &len), GDL_OK);
  ck_assert_str_eq(text, "(<= p\n    q)\n");
  ck_assert_uint_eq(len, 13);
  gdl_free(ctx);
  remove(p1);
  remove(p2);
  free(p1);
  free(p2);
}
END_TEST

/* The n-th allocation fails: GDL_ELIMIT and no crash or leak, until n is
 * large enough for the whole text, which is then right. */
START_TEST(test_fail_alloc)
{
  static const char text[] =
    "; c\n(role a) ; t\n(<= (p ?x) ; h\n (q ?x) (or (r) ; o\n (s)))\n";
  char *path = temp_kif(text, strlen(text)), *want = format_file(path);
  long n;
  int done = 0;
  for (n = 0; n < 2000 && !done; n++) {
    gdl_ctx *ctx = gdl_new();
    const char *out;
    size_t len;
    gdl_status st;
    gdl_test_fail_alloc(ctx, n);
    st = gdl_format(ctx, path, &out, &len);
    ck_assert_msg(st == GDL_OK || st == GDL_ELIMIT, "n=%ld: status %d", n,
                  st);
    if (st == GDL_OK) {
      ck_assert_str_eq(out, want);
      done = 1;
    } else {
      ck_assert_str_eq(out, "");
    }
    gdl_free(ctx);
  }
  ck_assert(done);
  remove(path);
  free(path);
  free(want);
}
END_TEST

/* ---- the command line --------------------------------------------------- */

static const char messy[] = "(ROLE a)\n(<= (p ?x)\n (q ?x))  \n";
static const char tidy[] = "(role a)\n(<= (p ?x)\n    (q ?x))\n";

START_TEST(test_cli_prints)
{
  char *path = temp_kif(messy, strlen(messy)), *out, *err;
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt %s", path), 0);
  ck_assert_str_eq(out, tidy);
  ck_assert_str_eq(err, "");
  free(out);
  free(err);
  remove(path);
  free(path);
}
END_TEST

START_TEST(test_cli_check)
{
  char *p1 = temp_kif(messy, strlen(messy)), *p2 = temp_kif(tidy, strlen(tidy));
  char *out, *err, want[256];
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt --check %s", p1), 1);
  ck_assert_str_eq(out, "");
  snprintf(want, sizeof want, "%s:1: not formatted: gdl fmt would change "
           "this line\n", p1);
  ck_assert_str_eq(err, want);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt %s --check", p2), 0);
  ck_assert_str_eq(out, "");
  ck_assert_str_eq(err, "");
  free(out);
  free(err);
  remove(p1);
  remove(p2);
  free(p1);
  free(p2);
}
END_TEST

/* --check names the first line that differs. */
static const struct {
  const char *text;
  int line;
} check_lines[] = {
  { "(role a)\n(role b)\n(role  c)\n", 3 },
  { "(role a)\n(role b)", 2 },                  /* no final newline */
  { "(role a)\n\n\n(role b)\n", 3 },             /* two blank lines */
  { "(role a)\n(role b)\n\n", 3 },               /* a blank line at the end */
  { "\n(role a)\n", 1 },
  { "(role a)\n(<= p q)\n", 2 },
  { "(role a) ; x \n", 1 },
};

START_TEST(test_cli_check_line)
{
  const char *t = check_lines[_i].text;
  char *path = temp_kif(t, strlen(t)), *out, *err, want[256];
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt --check %s", path), 1);
  snprintf(want, sizeof want, "%s:%d: not formatted", path,
           check_lines[_i].line);
  ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "want %s, got %s",
                want, err);
  free(out);
  free(err);
  remove(path);
  free(path);
}
END_TEST

START_TEST(test_cli_write)
{
  char *path = temp_kif(messy, strlen(messy)), *out, *err, *now;
  size_t len;
  struct stat st;
  ck_assert_int_eq(chmod(path, 0640), 0);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt --write %s", path), 0);
  ck_assert_str_eq(out, "");
  ck_assert_str_eq(err, "");
  free(out);
  free(err);
  now = read_all(path, &len);
  ck_assert_str_eq(now, tidy);
  free(now);
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_int_eq(st.st_mode & 0777, 0640);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt --check %s", path), 0);
  free(out);
  free(err);
  /* -w on a formatted file leaves it alone */
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt -w %s", path), 0);
  free(out);
  free(err);
  now = read_all(path, &len);
  ck_assert_str_eq(now, tidy);
  free(now);
  remove(path);
  free(path);
}
END_TEST

/* A syntax error: the usual message, exit 2, nothing written. */
START_TEST(test_cli_syntax_error)
{
  char *path = temp_kif("(role a))\n", 10), *out, *err, *now, want[256];
  size_t len;
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt %s", path), 2);
  ck_assert_str_eq(out, "");
  snprintf(want, sizeof want, "%s:1:9: error: unmatched ')': no '(' is "
           "open here\n  (role a))\n          ^\n", path);
  ck_assert_str_eq(err, want);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt --check %s", path), 2);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt --write %s", path), 2);
  free(out);
  free(err);
  now = read_all(path, &len);
  ck_assert_str_eq(now, "(role a))\n");
  free(now);
  remove(path);
  free(path);
}
END_TEST

static const struct {
  const char *args, *names;
} usage[] = {
  { "fmt", "needs a FILE" },
  { "fmt puzzles/hanoi5.kif rules/family.kif", "one FILE, not 2" },
  { "fmt --check --write puzzles/hanoi5.kif", "not both" },
  { "fmt --json puzzles/hanoi5.kif", "--json" },
  { "check --check puzzles/hanoi5.kif", "--check" },
  { "fmt /nonexistent/x.kif", "cannot read /nonexistent/x.kif" },
};

START_TEST(test_cli_usage)
{
  char *out, *err;
  ck_assert_int_eq(tu_gdl_run(&out, &err, "%s", usage[_i].args), 2);
  ck_assert_str_eq(out, "");
  ck_assert_msg(strncmp(err, "gdl: ", 5) == 0 &&
                strstr(err, usage[_i].names) != NULL, "%s: %s",
                usage[_i].args, err);
  free(out);
  free(err);
}
END_TEST

START_TEST(test_cli_help)
{
  char *out, *err;
  ck_assert_int_eq(tu_gdl_run(&out, &err, "fmt --help"), 0);
  ck_assert_ptr_nonnull(strstr(out, "usage: gdl fmt FILE"));
  ck_assert_ptr_nonnull(strstr(out, "--check"));
  ck_assert_ptr_nonnull(strstr(out, "canonical layout"));
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "--help"), 0);
  ck_assert_ptr_nonnull(strstr(out, "\n  fmt "));
  free(out);
  free(err);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

Suite *fmt_suite(void)
{
  Suite *s = suite_create("fmt");
  TCase *tc;

  tc = tcase_create("layout");
  tcase_add_loop_test(tc, test_layout, 0, N(layouts));
  tcase_add_test(tc, test_invariant_helpers);
  suite_add_tcase(s, tc);

  tc = tcase_create("meaning");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_same_game, 0, N(game_files));
  tcase_add_test(tc, test_corpus);
  suite_add_tcase(s, tc);

  tc = tcase_create("errors");
  tcase_add_test(tc, test_syntax_error);
  tcase_add_test(tc, test_cannot_read);
  tcase_add_test(tc, test_unchecked);
  tcase_add_test(tc, test_includes_not_read);
  tcase_add_test(tc, test_two_formats);
  tcase_add_test(tc, test_fail_alloc);
  suite_add_tcase(s, tc);

  tc = tcase_create("cli");
  tcase_add_test(tc, test_cli_prints);
  tcase_add_test(tc, test_cli_check);
  tcase_add_loop_test(tc, test_cli_check_line, 0, N(check_lines));
  tcase_add_test(tc, test_cli_write);
  tcase_add_test(tc, test_cli_syntax_error);
  tcase_add_loop_test(tc, test_cli_usage, 0, N(usage));
  tcase_add_test(tc, test_cli_help);
  suite_add_tcase(s, tc);
  return s;
}
