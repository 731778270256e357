/*
 * twin.c - a context of its own for another thread: the engine is not
 * shared between threads, so a search that runs beside another (the
 * move chooser's trees, mcts.c; SAT beside auto's portfolio, solve.c)
 * gets a twin of the caller's context, loaded with its description as
 * gdl_write gives it (KIF), compiled with the same flags, on the same
 * engine, with the same limits.  Terms are interned per context, so a
 * state or a move goes from one to the other as text.  What a twin
 * needs of the caller's context is read in the caller's thread
 * (twin_of); the twin is then made and used in the other thread alone.
 */
#include <stdlib.h>
#include <string.h>

#include "search/search.h"

int twin_of(gdl_ctx *ctx, twin_t *w, int rules)
{
  memset(w, 0, sizeof *w);
  if (rules && gdl_write(ctx, GDL_SYNTAX_KIF, &w->rules, &w->len) != GDL_OK)
    return 0;
  w->flags = ctx->compile_flags;
  w->ground = strcmp(gdl_engine_name(ctx), "ground") == 0;
  w->limit = ctx->limit;
  w->fact_limit = ctx->fact_limit;
  w->interrupt = ctx->interrupt;
  w->cancel = ctx->cancel;
  return 1;
}

gdl_ctx *twin_new(const twin_t *w, double seconds)
{
  gdl_ctx *h = gdl_new();
  if (!h)
    return NULL;
  gdl_set_memory_limit(h, w->limit);
  gdl_set_fact_limit(h, w->fact_limit);
  gdl_set_interrupt(h, w->interrupt);
  h->cancel = w->cancel;
  if (seconds > 0)
    gdl_set_time_limit(h, seconds);
  gdl_set_syntax(h, GDL_SYNTAX_KIF);
  if (gdl_load_string(h, "(the game)", w->rules, w->len) != GDL_OK ||
      gdl_compile(h, w->flags) != GDL_OK ||
      gdl_use_engine(h, w->ground ? GDL_ENGINE_GROUND : GDL_ENGINE_INTERP)
          != GDL_OK) {
    gdl_free(h);
    return NULL;
  }
  gdl_set_time_limit(h, 0);
  return h;
}

char *twin_text(gdl_ctx *ctx, gdl_term t)
{
  size_t n = gdl_term_write(ctx, t, NULL, 0) + 1;
  char *s = ctx_try_realloc(ctx, NULL, n);
  if (s)
    gdl_term_write(ctx, t, s, n);
  return s;
}

char *twin_state_text(gdl_ctx *ctx, const gdl_state *s)
{
  size_t len = 1, at = 0, i;
  char *t;
  for (i = 0; i < s->n; i++)
    len += gdl_term_write(ctx, s->facts[i], NULL, 0) + 1;
  if (!(t = ctx_try_realloc(ctx, NULL, len)))
    return NULL;
  for (i = 0; i < s->n; i++) {
    at += gdl_term_write(ctx, s->facts[i], t + at, len - at);
    t[at++] = ' ';
  }
  t[at] = 0;
  return t;
}

static int cmp_term(const void *a, const void *b)
{
  gdl_term x = *(const gdl_term *)a, y = *(const gdl_term *)b;
  return x < y ? -1 : x > y;
}

int twin_state(gdl_ctx *h, const char *text, gdl_state *s)
{
  gdl_term *f;
  size_t n, i;
  if (gdl_parse_terms(h, "state", text, 0, &f, &n) != GDL_OK ||
      !(s->facts = ctx_try_realloc(h, NULL, (n + 1) * sizeof *s->facts)))
    return 0;
  memcpy(s->facts, f, n * sizeof *f);
  qsort(s->facts, n, sizeof *f, cmp_term);
  for (s->n = 0, i = 0; i < n; i++)
    if (s->n == 0 || s->facts[s->n - 1] != s->facts[i])
      s->facts[s->n++] = s->facts[i];
  s->cap = (uint32_t)n + 1;
  return 1;
}

gdl_term twin_term(gdl_ctx *ctx, gdl_ctx *h, gdl_term t)
{
  char *s = twin_text(h, t);
  gdl_term u = 0;
  if (s && gdl_parse_term(ctx, s, 0, &u) != GDL_OK)
    u = 0;
  ctx_free(h, s);
  return u;
}
