/*
 * store.c - the state store: every state a search keeps, once, with its
 * parent, its depth and the joint move that reached it, so that a plan is
 * read back by following parents.  A state is its facts (term ids, the
 * interpreter) in one pool, or its bits over the fluent slots (the
 * grounded engine, ground_state_words of them), stored and compared the
 * same way.  Which of the two is chosen here (store_choose), and the
 * functions here and in search.h take either, so the searches never ask.
 */
#include <string.h>

#include "search/search.h"

/* Whether stored state id is s (its hash h; the table's bits of the hash
 * matched). */
static int same_state(const search_t *S, uint32_t id, const gdl_state *s,
                      uint32_t h)
{
  const struct facts_slot *x;
  if (S->words)
    return same_words(S->pool + (size_t)id * S->words, s->facts, S->words);
  x = &S->slot[id];
  return x->hash == h && x->nfacts == s->n &&
         memcmp(S->pool + x->off, s->facts, s->n * sizeof *s->facts) == 0;
}

static void rehash(search_t *S)
{
  uint32_t cap = S->mask ? (S->mask + 1) * 2 : 1024, i, j;
  uint32_t *t;
  if (cap == 0)
    ctx_throw(S->ctx, GDL_ELIMIT, "more than 2^31 states");
  t = ctx_alloc(S->ctx, (size_t)cap * sizeof *t);
  for (i = 0; i < S->nstates; i++) {
    uint32_t h, n;
    const gdl_term *f = store_get(S, i, &n);
    h = S->words ? store_hash(S, f, n) : S->slot[i].hash;
    for (j = h & (cap - 1); t[j]; j = (j + 1) & (cap - 1))
      ;
    t[j] = (h & ~(cap - 1)) | (i + 1);   /* ids stay below cap / 2 */
  }
  ctx_free(S->ctx, S->table);
  S->table = t;
  S->mask = cap - 1;
}

void store_choose(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t w = GROUND(ctx) ? ground_state_words(ctx) : 0;
  if (w) {
    gdl_state b;
    b.facts = ctx_alloc(ctx, (w + 1) * sizeof *b.facts);
    b.n = b.cap = w;
    if (ground_state_bits(ctx, &S->cur, b.facts)) {
      S->words = w;
      gdl_state_copy(ctx, &S->cur, &b);
      S->child.facts = ctx_realloc(ctx, S->child.facts,
                                   (w + 1) * sizeof *S->child.facts);
      S->child.n = S->child.cap = w;
    }
    ctx_free(ctx, b.facts);
  }
}

uint32_t store_add(search_t *S, const gdl_state *s, uint32_t h,
                   uint32_t parent, const gdl_term *moves, int *isnew)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t j, id, e;
  if (S->mask)
    for (j = h & S->mask; (e = S->table[j]) != 0; j = (j + 1) & S->mask)
      if ((e & ~S->mask) == (h & ~S->mask) &&
          same_state(S, (e & S->mask) - 1, s, h)) {
        id = (e & S->mask) - 1;
        *isnew = 0;
        if (S->reopen && id && S->depth[parent] + 1 < S->depth[id]) {
          /* reached by fewer moves: the shorter way kept */
          S->parent[id] = parent;
          S->depth[id] = S->depth[parent] + 1;
          COPY(S->moves + (size_t)id * S->k, moves, S->k * sizeof *moves);
          *isnew = 2;
        }
        return id;
      }
  if (S->o->max_states && S->nstates >= S->o->max_states)
    ctx_throw(ctx, GDL_ELIMIT, "state limit of %llu reached",
              (unsigned long long)S->o->max_states);
  if (S->nstates >= S->cap) {
    uint32_t c = S->cap ? S->cap * 2 : 1024;
    if (!S->words)
      S->slot = ctx_realloc(ctx, S->slot, (size_t)c * sizeof *S->slot);
    S->parent = ctx_realloc(ctx, S->parent, (size_t)c * sizeof *S->parent);
    S->depth = ctx_realloc(ctx, S->depth, (size_t)c * sizeof *S->depth);
    S->moves = ctx_realloc(ctx, S->moves, (size_t)c * S->k * sizeof *S->moves);
    if (S->best) {
      S->hval = ctx_realloc(ctx, S->hval, (size_t)c * sizeof *S->hval);
      S->closed = ctx_realloc(ctx, S->closed, c);
    }
    S->cap = c;
  }
  if (!S->pool || S->npool + s->n > S->poolcap) {   /* (a state of no
                                                      facts needs a pool) */
    uint64_t c = S->poolcap ? S->poolcap * 2 : 65536;
    while (c < S->npool + s->n)
      c *= 2;
    S->pool = ctx_realloc(ctx, S->pool, (size_t)c * sizeof *S->pool);
    S->poolcap = c;
  }
  id = S->nstates;
  gdl_assert(!S->words || s->n == S->words);      /* bits: one length */
  gdl_assert(!id || parent < id);                 /* parents come first */
  if (S->words) {
    copy_words(S->pool + S->npool, s->facts, s->n);
  } else {
    COPY(S->pool + S->npool, s->facts, s->n * sizeof *s->facts);
    S->slot[id].off = S->npool;
    S->slot[id].nfacts = s->n;
    S->slot[id].hash = h;
  }
  S->npool += s->n;
  S->parent[id] = parent;
  S->depth[id] = id ? S->depth[parent] + 1 : 0;
  if (S->best)
    S->closed[id] = 0;
  for (j = 0; moves && j < S->k; j++)
    S->moves[(size_t)id * S->k + j] = moves[j];
  S->nstates++;
  S->res->stored = S->nstates;
  gdl_assert(!S->mask || S->nstates <= S->mask / 2 + 1);   /* half full */
  if (!S->mask || S->nstates * 2 > S->mask) {
    rehash(S);
  } else {
    for (j = h & S->mask; S->table[j]; j = (j + 1) & S->mask)
      ;
    S->table[j] = (h & ~S->mask) | (id + 1);
  }
  *isnew = 1;
  return id;
}

void store_start(search_t *S)
{
  int isnew;
  store_unclocked(S, S->cur.facts);
  store_add(S, &S->cur, store_hash(S, S->cur.facts, S->cur.n), 0, NULL,
            &isnew);
}

void store_load(search_t *S, uint32_t id, gdl_state *s)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t n;
  const gdl_term *f = store_get(S, id, &n);
  if (s->cap < n + 1) {
    s->facts = ctx_realloc(ctx, s->facts, (n + 1) * sizeof *s->facts);
    s->cap = n + 1;
  }
  COPY(s->facts, f, n * sizeof *s->facts);
  s->n = n;
  if (S->C)
    counter_in(S->C, s->facts, S->depth[id]);
}

void store_plan(search_t *S, uint32_t id)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *r = S->res;
  uint32_t len = 0, x, i;
  for (x = id; x != 0; x = S->parent[x])
    len++;
  r->plan = ctx_arena(ctx, ((size_t)len * S->k + 1) * sizeof *r->plan);
  r->length = len;
  for (x = id, i = len; x != 0; x = S->parent[x]) {
    i--;
    COPY(r->plan + (size_t)i * S->k, S->moves + (size_t)x * S->k,
           S->k * sizeof *r->plan);
  }
}

void store_measure(search_t *S)
{
  if (S->nstates)
    S->res->bytes_per_state =
        (double)(S->poolcap * sizeof *S->pool +
                 (size_t)S->cap * ((S->words ? 0 : sizeof *S->slot) +
                                   sizeof *S->parent +
                                   sizeof *S->depth +
                                   S->k * sizeof *S->moves) +
                 (size_t)(S->mask + 1) * sizeof *S->table) /
        S->nstates;
}

void store_free(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  ctx_free(ctx, S->pool);
  ctx_free(ctx, S->slot);
  ctx_free(ctx, S->parent);
  ctx_free(ctx, S->depth);
  ctx_free(ctx, S->moves);
  ctx_free(ctx, S->table);
}

/* ---- the current state ------------------------------------------------ */

void state_set(search_t *S, const gdl_state *s)
{
  gdl_ctx *ctx = S->ctx;
  gdl_status st;
  if (S->words) {
    ground_set_bits(ctx, s->facts);
    ctx->have_state = 1;      /* for gdl_terminal and gdl_goal */
    ctx->db_state = 0;
    return;
  }
  if ((st = gdl_set_state(ctx, s)) != GDL_OK)
    ctx_throw(ctx, st, "%s", ctx->errmsg);
}

size_t state_legal(search_t *S, uint32_t r, const gdl_term **mv)
{
  gdl_ctx *ctx = S->ctx;
  gdl_status st;
  size_t n;
  if (S->words) {
    uint32_t u;
    ground_legal(ctx, r, mv, &u);
    return u;
  }
  if ((st = gdl_legal(ctx, r, mv, &n)) != GDL_OK)
    ctx_throw(ctx, st, "%s", ctx->errmsg);
  return n;
}

void state_next(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  gdl_status st;
  if (S->words) {
    ground_next_bits(ctx, S->joint, S->child.facts);
    S->played = 1;
  } else if ((st = gdl_next(ctx, S->joint, &S->child)) != GDL_OK) {
    ctx_throw(ctx, st, "%s", ctx->errmsg);
  }
}
