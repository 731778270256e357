/*
 * cli_util.c - what the parts of the gdl command share (cli.h): usage
 * errors, Ctrl-C, the clock, loading and compiling the files, reporting a
 * failed call, replaying --moves, and terms as text.  Below the other
 * files of the command, it calls only the library (gdl.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

int usage_error(const char *fmt, ...)
{
  va_list ap;
  fputs("gdl: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return 2;
}

volatile int cli_interrupted;

void on_sigint(int sig)
{
  (void)sig;
  cli_interrupted = 1;
}

double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- loading ---------------------------------------------------------- */

static void show_diagnostics(gdl_ctx *ctx)
{
  fputs(gdl_diagnostics(ctx), stderr);
}

/* Loads and compiles the files; 0, or the exit status. */
int load(gdl_ctx *ctx, const opts_t *o)
{
  int i;
  gdl_status st = GDL_OK;
  for (i = 0; i < o->nfiles; i++)
    if (gdl_load_file(ctx, o->files[i]) == GDL_ELIMIT)
      st = GDL_ELIMIT;
  if (st == GDL_OK && gdl_error_count(ctx) == 0)
    st = gdl_compile(ctx, o->clean ? GDL_CLEAN : 0);
  show_diagnostics(ctx);
  if (st == GDL_ELIMIT) {
    fprintf(stderr, "gdl: %s\n", gdl_errmsg(ctx));
    return 3;
  }
  if (st != GDL_OK || gdl_error_count(ctx))
    return 2;
  if (o->strict && gdl_warning_count(ctx)) {
    size_t n = gdl_warning_count(ctx);
    fprintf(stderr, "gdl: error: %zu warning%s, and --strict makes "
            "warnings errors\n", n, n == 1 ? "" : "s");
    return 2;
  }
  if (gdl_is_game(ctx)) {
    gdl_engine e = !o->engine || strcmp(o->engine, "auto") == 0
                       ? GDL_ENGINE_AUTO
                   : strcmp(o->engine, "ground") == 0 ? GDL_ENGINE_GROUND
                                                      : GDL_ENGINE_INTERP;
    if (!(o->command->flags & CLI_READS_ONLY) &&
        (st = gdl_use_engine(ctx, e)) != GDL_OK) {
      fprintf(stderr, "gdl: cannot ground %s: %s\n", o->files[0],
              gdl_engine_note(ctx));
      return st == GDL_ELIMIT ? 3 : 2;
    }
  }
  return 0;
}

int need_game(gdl_ctx *ctx, const opts_t *o)
{
  if (gdl_is_game(ctx))
    return 0;
  fprintf(stderr, "gdl: %s: %s\n", o->files[0], gdl_not_game_reason(ctx));
  return 2;
}

int fail(gdl_ctx *ctx, gdl_status st)
{
  if (gdl_error_count(ctx))
    show_diagnostics(ctx);
  else
    fprintf(stderr, "gdl: %s\n", gdl_errmsg(ctx));
  return st == GDL_ELIMIT ? 3 : 2;
}

/* ---- output helpers --------------------------------------------------- */

static void put_stdout(void *arg, const char *p, size_t len)
{
  fwrite(p, 1, len, arg);
}

void json_str(const char *s)
{
  putchar('"');
  gdl_json_escape(s, strlen(s), put_stdout, stdout);
  putchar('"');
}

/* Terms as KIF text, sorted by their text (byte order) by the library's
 * one sort of facts for a person (gdl_sort_terms), as trace and explain
 * list them. */
char **terms_text(gdl_ctx *ctx, const gdl_term *t, size_t n)
{
  char **v = calloc(n + 1, sizeof *v);
  gdl_term *s = malloc((n + 1) * sizeof *s);
  size_t i;
  if (!v || !s) {
    free(v);
    free(s);
    return NULL;
  }
  if (n)
    memcpy(s, t, n * sizeof *s);
  gdl_sort_terms(ctx, s, n);
  for (i = 0; i < n; i++)
    v[i] = strdup(gdl_term_str(ctx, s[i]));
  free(s);
  return v;
}

void free_text(char **v, uint32_t n)
{
  uint32_t i;
  if (!v)
    return;
  for (i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

/* ---- replaying --moves ------------------------------------------------ */

/* Sets *s to the state reached by the moves; 0 or the exit status. */
int replay(gdl_ctx *ctx, const opts_t *o, gdl_state *s)
{
  gdl_term *mv = NULL;
  size_t n = 0, k = gdl_role_count(ctx), i, r;
  gdl_status st;
  gdl_state nx = { 0, 0, NULL };
  if ((st = gdl_initial(ctx, s)) != GDL_OK)
    return fail(ctx, st);
  if (o->moves &&
      (st = gdl_parse_terms(ctx, "--moves", o->moves, 0, &mv, &n)) != GDL_OK)
    return fail(ctx, st);
  if (n % k) {
    fprintf(stderr, "gdl: --moves has %zu moves, but with %zu roles each "
            "step takes %zu\n", n, k, k);
    return 2;
  }
  for (i = 0; i < n; i += k) {
    if ((st = gdl_set_state(ctx, s)) != GDL_OK)
      return fail(ctx, st);
    if (gdl_terminal(ctx)) {
      fprintf(stderr, "gdl: step %zu: the game is over (the state is "
              "terminal), so %s cannot be played\n", i / k + 1,
              gdl_term_str(ctx, mv[i]));
      return 2;
    }
    for (r = 0; r < k; r++)
      if (!gdl_is_legal(ctx, r, mv[i + r])) {
        char *m = strdup(gdl_term_str(ctx, mv[i + r]));
        fprintf(stderr, "gdl: step %zu: %s is not a legal move for %s\n",
                i / k + 1, m ? m : "?", gdl_term_str(ctx, gdl_role(ctx, r)));
        free(m);
        return 2;
      }
    if ((st = gdl_next(ctx, mv + i, &nx)) != GDL_OK)
      return fail(ctx, st);
    gdl_state_copy(ctx, s, &nx);
  }
  gdl_state_release(ctx, &nx);
  if ((st = gdl_set_state(ctx, s)) != GDL_OK)
    return fail(ctx, st);
  return 0;
}

/* One step of a plan as text: the move, or with several roles the moves
 * in role order separated by spaces. */
void step_text(gdl_ctx *ctx, const gdl_term *mv, size_t k, char *buf,
               size_t len)
{
  size_t r, at = 0;
  buf[0] = 0;
  for (r = 0; r < k && at + 1 < len; r++) {
    if (r)
      buf[at++] = ' ';
    at += gdl_term_write(ctx, mv[r], buf + at, len - at);
    if (at >= len)
      at = len - 1;
  }
}

unsigned cli_choose_threads(const opts_t *o)
{
  long n = 1;
  if (o->threads)
    return o->threads;
  if (o->playouts > 0)
    return 1;
#ifdef _SC_NPROCESSORS_ONLN
  n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
  return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

int role_option(gdl_ctx *ctx, const char *opt, const char *takes,
                const char *a, const char **value)
{
  const char *eq = strchr(a, '=');
  char name[256];
  gdl_term role;
  size_t r, k = gdl_role_count(ctx);
  int ri;
  if (!eq || eq == a || !eq[1] || (size_t)(eq - a) >= sizeof name) {
    usage_error("%s takes %s, not '%s'", opt, takes, a);
    return -1;
  }
  memcpy(name, a, (size_t)(eq - a));
  name[eq - a] = 0;
  if (gdl_parse_term(ctx, name, 0, &role) != GDL_OK ||
      (ri = gdl_role_index(ctx, role)) < 0) {
    fprintf(stderr, "gdl: %s %s: %s is not a role of this game; its roles:",
            opt, a, name);
    for (r = 0; r < k; r++)
      fprintf(stderr, " %s", gdl_term_str(ctx, gdl_role(ctx, r)));
    fprintf(stderr, "\n");
    return -1;
  }
  *value = eq + 1;
  return ri;
}
