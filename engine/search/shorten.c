/*
 * shorten.c - a plan found by a search that does not prove it shortest
 * made shorter by a breadth-first search of its neighbourhood (Nakhost
 * and Mueller's plan neighbourhood graph search): the states of the plan,
 * and those at most N->radius moves off it.  The plan itself lies within,
 * so the search finds a plan no longer, and the shortest of those in the
 * neighbourhood: a loop of the plan cut out, a detour taken straight
 * (doc/solving.md, "Plans made shorter").  The rounds of growing radius
 * are solve.c's.
 */
#include <stdio.h>
#include <string.h>

#include "search/search.h"

/* Whether state w (its hash h) is one of the plan's. */
static int on_plan(const search_t *S, const near_t *N, const uint32_t *w,
                   uint32_t h)
{
  uint32_t j, e;
  for (j = h & N->mask; (e = N->tab[j]) != 0; j = (j + 1) & N->mask)
    if (same_words(N->keys + (size_t)(e - 1) * S->words, w, S->words))
      return 1;
  return 0;
}

/* The plan's states from the start (S->cur), as stored, into N. */
static void plan_states(search_t *S, near_t *N)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t w = S->words, i, j, *cur;
  N->n = (uint32_t)N->len + 1;
  N->keys = ctx_alloc(ctx, ((size_t)N->n * w + 2) * sizeof *N->keys);
  for (N->mask = 15; N->mask < 2 * N->n; N->mask = N->mask * 2 + 1)
    ;
  N->tab = ctx_alloc(ctx, ((size_t)N->mask + 1) * sizeof *N->tab);
  memset(N->tab, 0, ((size_t)N->mask + 1) * sizeof *N->tab);
  copy_words(N->keys, S->cur.facts, w);
  for (i = 0; i < N->n; i++) {
    cur = N->keys + (size_t)i * w;
    if (i + 1 < N->n) {        /* the next from the full state */
      if (S->C)
        counter_in(S->C, cur, i);
      ground_set_bits(ctx, cur);
      ground_next_bits(ctx, N->plan + (size_t)i * S->k, cur + w);
    }
    store_unclocked(S, cur);
    for (j = store_hash(S, cur, w) & N->mask; N->tab[j];
         j = (j + 1) & N->mask)
      ;
    N->tab[j] = i + 1;
  }
  S->played = 0;
}

/* A child within the neighbourhood stored. */
static int store_near(search_t *S, void *arg, size_t place)
{
  near_t *N = arg;
  uint32_t h, id, off;
  int isnew;
  gdl_state s;
  (void)place;
  copy_words(N->tmp, S->child.facts, S->words);
  store_unclocked(S, N->tmp);
  h = store_hash(S, N->tmp, S->words);
  off = on_plan(S, N, N->tmp, h) ? 0 : N->off[N->parent] + 1u;
  if (off > N->radius) {
    N->cut++;
    return 0;
  }
  s.facts = N->tmp;
  s.n = s.cap = S->words;
  id = store_add(S, &s, h, N->parent, S->joint, &isnew);
  if (!isnew && S->depth[id] != S->depth[N->parent] + 1)
    N->uneven++;
  GROW(S->ctx, N->off, N->offcap, id);
  if (isnew || off < N->off[id])
    N->off[id] = (uint8_t)off;
  return 0;
}

void search_near(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *r = S->res;
  near_t *N = S->N;
  uint32_t id;
  search_start(S);
  r->status = GDL_LIMIT;
  snprintf(r->why, sizeof r->why, "no plan in the neighbourhood");
  if (!S->words)
    return;                    /* (states of facts: the interpreter) */
  N->tmp = ctx_alloc(ctx, (S->words + 2) * sizeof *N->tmp);
  plan_states(S, N);
  store_start(S);
  GROW(ctx, N->off, N->offcap, 0);
  N->off[0] = 0;
  for (id = 0; id < S->nstates; id++) {
    if ((r->expanded & 255) == 0) {
      store_measure(S);
      search_report(S, S->depth[id], 0);
    }
    store_load(S, id, &S->cur);
    switch (expand_test(S, &S->cur, id)) {
    case 1:
      r->status = GDL_SOLVED;
      r->goal = 100;
      store_plan(S, id);
      r->depth = (unsigned)r->length;
      /* with nothing left out so far, a breadth-first search of all */
      r->optimal = N->cut == 0;
      store_measure(S);
      return;
    case -1:
      continue;
    }
    N->parent = id;
    expand_successors(S, store_near, N, 1);
  }
  store_measure(S);
}

void near_free(gdl_ctx *ctx, near_t *N)
{
  ctx_free(ctx, N->keys);
  ctx_free(ctx, N->tab);
  ctx_free(ctx, N->tmp);
  ctx_free(ctx, N->off);
}
