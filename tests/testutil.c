/* testutil.c - helpers shared by the Check suites. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"
#include "diagtext.h"

const char *tu_corpus(const char *rel)
{
  static char buf[4096];
  const char *base = getenv("GDL_CORPUS");
  snprintf(buf, sizeof buf, "%s/%s", base && *base ? base
           : "../shared/gdl-corpus", rel);
  return buf;
}

const char *tu_gdl(void)
{
  const char *g = getenv("GDL");
  return g && *g ? g : "build/gdl";
}

gdl_ctx *tu_load(gdl_status *st, unsigned flags, const char *file, ...)
{
  gdl_ctx *ctx = gdl_new();
  va_list ap;
  const char *f;
  ck_assert_ptr_nonnull(ctx);
  *st = GDL_OK;
  va_start(ap, file);
  for (f = file; f; f = va_arg(ap, const char *)) {
    gdl_status s = gdl_load_file(ctx, f);
    if (s != GDL_OK && *st == GDL_OK)
      *st = s;
  }
  va_end(ap);
  if (*st == GDL_OK)
    *st = gdl_compile(ctx, flags);
  return ctx;
}

gdl_ctx *tu_load_text(gdl_status *st, unsigned flags, const char *text)
{
  gdl_ctx *ctx = gdl_new();
  ck_assert_ptr_nonnull(ctx);
  *st = gdl_load_string(ctx, "test.kif", text, strlen(text));
  if (*st == GDL_OK)
    *st = gdl_compile(ctx, flags);
  return ctx;
}

gdl_ctx *tu_text(const char *text, unsigned flags)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, flags, text);
  ck_assert_msg(st == GDL_OK, "status %d: %s\n%s", (int)st, gdl_errmsg(ctx),
                gdl_diagnostics(ctx));
  return ctx;
}

static char *slurp(FILE *f)
{
  size_t cap = 4096, n = 0, got;
  char *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 >= cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        return NULL;
      }
      buf = nb;
    }
  }
  if (buf)
    buf[n] = 0;
  return buf;
}

int tu_run(const char *cmd, char **out, char **err)
{
  char errfile[] = "/tmp/gdltestXXXXXX";
  char *full;
  FILE *p, *e;
  int fd = mkstemp(errfile), status;
  size_t len = strlen(cmd) + sizeof errfile + 16;
  ck_assert_int_ge(fd, 0);
  full = malloc(len);
  snprintf(full, len, "%s 2>%s", cmd, errfile);
  p = popen(full, "r");
  ck_assert_ptr_nonnull(p);
  {
    char *o = slurp(p);
    if (out)
      *out = o;
    else
      free(o);
  }
  status = pclose(p);
  e = fopen(errfile, "r");
  if (err)
    *err = e ? slurp(e) : strdup("");
  if (e)
    fclose(e);
  remove(errfile);
  free(full);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void tu_play(gdl_ctx *ctx, const char *moves, gdl_state *out)
{
  gdl_term *mv;
  size_t n, k = gdl_role_count(ctx), i, r;
  gdl_state next = { 0, 0, NULL };
  ck_assert_int_eq(gdl_initial(ctx, out), GDL_OK);
  ck_assert_int_eq(gdl_parse_terms(ctx, "moves", moves, 0, &mv, &n), GDL_OK);
  ck_assert_uint_eq(n % k, 0);
  for (i = 0; i < n; i += k) {
    ck_assert_int_eq(gdl_set_state(ctx, out), GDL_OK);
    for (r = 0; r < k; r++)
      ck_assert_msg(gdl_is_legal(ctx, r, mv[i + r]), "move %s at step %zu "
                    "is not legal", gdl_term_str(ctx, mv[i + r]), i / k + 1);
    ck_assert_int_eq(gdl_next(ctx, mv + i, &next), GDL_OK);
    ck_assert_int_eq(gdl_state_copy(ctx, out, &next), GDL_OK);
  }
  gdl_state_release(ctx, &next);
  ck_assert_int_eq(gdl_set_state(ctx, out), GDL_OK);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

char *tu_terms_text(gdl_ctx *ctx, const gdl_term *t, size_t n)
{
  size_t i, len = 1;
  char **v, *s;
  v = calloc(n + 1, sizeof *v);
  for (i = 0; i < n; i++) {
    v[i] = strdup(gdl_term_str(ctx, t[i]));
    len += strlen(v[i]) + 1;
  }
  qsort(v, n, sizeof *v, cmp_str);
  s = calloc(1, len);
  for (i = 0; i < n; i++) {
    if (i)
      strcat(s, " ");
    strcat(s, v[i]);
    free(v[i]);
  }
  free(v);
  return s;
}

char *tu_legal_text(gdl_ctx *ctx, size_t role)
{
  const gdl_term *mv;
  size_t n;
  ck_assert_int_eq(gdl_legal(ctx, role, &mv, &n), GDL_OK);
  return tu_terms_text(ctx, mv, n);
}

int tu_gdl_run(char **out, char **err, const char *fmt, ...)
{
  char args[8192], cmd[8400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  snprintf(cmd, sizeof cmd, "%s %s", tu_gdl(), args);
  return tu_run(cmd, out, err);
}

int tu_include_nul(const char *name, const char *text, size_t len,
                   unsigned *line, unsigned *col)
{
  gdl_ctx *ctx = gdl_new();
  dt_diag d;
  int ok = gdl_load_string(ctx, name, text, len) == GDL_EINPUT &&
           gdl_error_count(ctx) == 1 &&
           dt_find(gdl_diagnostics(ctx), "error", "name holds a NUL byte", &d);
  if (ok) {
    *line = d.line;
    *col = d.col;
  } else {
    fprintf(stderr, "%s", gdl_diagnostics(ctx));
  }
  gdl_free(ctx);
  return ok;
}
