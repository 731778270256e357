/*
 * iddfs.c - iterative deepening (iddfs) and IDA* (idastar): depth-first
 * searches from the start with a growing bound, on moves made (iddfs) or
 * on moves made + h_max (idastar).  Only the path is stored: a state of
 * the current path is never entered again, and a bounded transposition
 * table remembers the depth left with which each state was searched in
 * this iteration, so a state met again with no more left is skipped.  An
 * iteration in which no branch was cut by the bound has seen every
 * reachable state (doc/solving.md, "iddfs").
 */
#include <string.h>

#include "search/search.h"

/* An entry's three fields side by side, so that a probe is one cache
 * line (the key alone prefetched below brings the rest). */
typedef struct {
  uint64_t key;               /* state hash (64 bits), 0 empty */
  uint32_t check;             /* a second, independent hash of the state:
                                 two states must agree on 96 bits to be
                                 taken for one another */
  uint8_t left;               /* depth left when searched */
} tt_entry;

typedef struct {
  tt_entry *e;
  uint32_t mask, used, max;
} tt_t;

/* The second hash: another multiplier, another mixing. */
static uint32_t check_hash(const gdl_state *s)
{
  uint64_t h = 0x9e3779b97f4a7c15ull;
  uint32_t i;
  for (i = 0; i < s->n; i++) {
    h = (h + s->facts[i]) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  return (uint32_t)(h >> 16);
}

typedef struct {
  gdl_state *path;            /* states on the current path */
  gdl_term *pathmoves;        /* k per level */
  uint32_t len, cap;
  unsigned limit;
  int cutoff;                 /* some branch was cut by the limit */
  int ida;                    /* IDA*: the limit is on moves made + h_max */
  unsigned next;              /* ... and the least of it over the cut */
  tt_t tt;
  gdl_state *kids;            /* per level: the children, flattened */
  uint32_t *nkids;
  gdl_term **kidmoves;
  uint32_t *kidcap, *kidmovecap;
  gdl_term **kidfacts;
  uint32_t *kidfactcap, *kidfactn;
  uint32_t **kidoff;
  uint32_t *kidoffcap;
  uint64_t *phash;            /* per level: its state's hash */
  uint32_t *gv, gvcap;        /* per level: the groups' values (ngv each) */
  /* the best terminal goal seen, with its path */
  gdl_term *bestplan;
  uint32_t bestlen;
} iddfs_t;

/* Returns 1 when the state was searched before with at least `left` depth
 * to spare; else records it. */
static int tt_seen(gdl_ctx *ctx, tt_t *t, const gdl_state *s, uint64_t h,
                   unsigned left)
{
  uint32_t j, c = check_hash(s);
  uint8_t l = (uint8_t)(left > 255 ? 255 : left);
  if (!h)
    h = 1;
  if (!t->e) {
    uint32_t cap = 1024;
    t->e = ctx_alloc(ctx, cap * sizeof *t->e);   /* zeroed: empty */
    t->mask = cap - 1;
  }
  for (j = (uint32_t)h & t->mask; t->e[j].key; j = (j + 1) & t->mask)
    if (t->e[j].key == h && t->e[j].check == c) {
      if (t->e[j].left >= left)
        return 1;
      t->e[j].left = l;
      return 0;
    }
  if (t->used >= t->max)
    return 0;                 /* full: search it again rather than grow */
  if ((t->used + 1) * 2 > t->mask) {
    uint32_t cap = (t->mask + 1) * 2, i, k;
    tt_entry *ne = ctx_alloc(ctx, cap * sizeof *ne);
    for (i = 0; i <= t->mask; i++) {
      if (!t->e[i].key)
        continue;
      for (k = (uint32_t)t->e[i].key & (cap - 1); ne[k].key;
           k = (k + 1) & (cap - 1))
        ;
      ne[k] = t->e[i];
    }
    ctx_free(ctx, t->e);
    t->e = ne;
    t->mask = cap - 1;
    for (j = (uint32_t)h & t->mask; t->e[j].key; j = (j + 1) & t->mask)
      ;
  }
  t->e[j].key = h;
  t->e[j].check = c;
  t->e[j].left = l;
  t->used++;
  return 0;
}

static void tt_clear(tt_t *t)
{
  if (t->e) {
    memset(t->e, 0, (t->mask + 1) * sizeof *t->e);
    t->used = 0;
  }
}

typedef struct {
  iddfs_t *I;
  uint32_t level;
} kid_arg;

/* Collects the children of the current state at a level (in their order:
 * expand_successors without `first`). */
static int collect_kid(search_t *S, void *arg, size_t place)
{
  (void)place;
  kid_arg *a = arg;
  iddfs_t *I = a->I;
  uint32_t L = a->level, n = I->nkids[L];
  gdl_ctx *ctx = S->ctx;
  GROW(ctx, I->kidoff[L], I->kidoffcap[L], n + 1);
  GROW(ctx, I->kidmoves[L], I->kidmovecap[L], (n + 1) * S->k);
  GROW(ctx, I->kidfacts[L], I->kidfactcap[L], I->kidfactn[L] + S->child.n);
  COPY(I->kidfacts[L] + I->kidfactn[L], S->child.facts,
         S->child.n * sizeof *S->child.facts);
  I->kidoff[L][n] = I->kidfactn[L];
  I->kidfactn[L] += S->child.n;
  I->kidoff[L][n + 1] = I->kidfactn[L];
  COPY(I->kidmoves[L] + (size_t)n * S->k, S->joint,
         S->k * sizeof *S->joint);
  I->nkids[L]++;
  return 0;
}

static int on_path(const iddfs_t *I, const gdl_state *s, uint64_t h)
{
  uint32_t i;
  for (i = 0; i < I->len; i++)
    if (I->phash[i] == h && gdl_state_equal(&I->path[i], s))
      return 1;
  return 0;
}

static void path_push(search_t *S, iddfs_t *I, const gdl_state *s,
                      const gdl_term *moves)
{
  gdl_ctx *ctx = S->ctx;
  if (I->len >= I->cap) {
    uint32_t c = I->cap ? I->cap * 2 : 64, i;
    I->path = ctx_realloc(ctx, I->path, c * sizeof *I->path);
    I->pathmoves = ctx_realloc(ctx, I->pathmoves, c * S->k * sizeof *I->pathmoves);
    I->nkids = ctx_realloc(ctx, I->nkids, c * sizeof *I->nkids);
    I->kidmoves = ctx_realloc(ctx, I->kidmoves, c * sizeof *I->kidmoves);
    I->kidmovecap = ctx_realloc(ctx, I->kidmovecap, c * sizeof *I->kidmovecap);
    I->kidfacts = ctx_realloc(ctx, I->kidfacts, c * sizeof *I->kidfacts);
    I->kidfactcap = ctx_realloc(ctx, I->kidfactcap, c * sizeof *I->kidfactcap);
    I->kidfactn = ctx_realloc(ctx, I->kidfactn, c * sizeof *I->kidfactn);
    I->kidoff = ctx_realloc(ctx, I->kidoff, c * sizeof *I->kidoff);
    I->kidoffcap = ctx_realloc(ctx, I->kidoffcap, c * sizeof *I->kidoffcap);
    I->phash = ctx_realloc(ctx, I->phash, c * sizeof *I->phash);
    for (i = I->cap; i < c; i++) {
      memset(&I->path[i], 0, sizeof I->path[i]);
      I->kidmoves[i] = NULL;
      I->kidmovecap[i] = 0;
      I->kidfacts[i] = NULL;
      I->kidfactcap[i] = 0;
      I->kidoff[i] = NULL;
      I->kidoffcap[i] = 0;
    }
    I->cap = c;
  }
  gdl_state_copy(ctx, &I->path[I->len], s);
  I->phash[I->len] = gdl_state_hash(s);
  if (moves)
    COPY(I->pathmoves + (size_t)I->len * S->k, moves,
           S->k * sizeof *moves);
  I->len++;
}

static void keep_best(search_t *S, iddfs_t *I, long g)
{
  if (g <= S->best_goal)
    return;
  S->best_goal = g;
  I->bestlen = I->len - 1;
  I->bestplan = ctx_realloc(S->ctx, I->bestplan,
                            ((size_t)I->bestlen * S->k + 1) *
                                sizeof *I->bestplan);
  COPY(I->bestplan, I->pathmoves + S->k,
         (size_t)I->bestlen * S->k * sizeof *I->bestplan);
}

/* Depth-first below the last state of the path, `left` steps to go.
 * Returns 1 when the path ends in a solution. */
static int depth_limited(search_t *S, iddfs_t *I, unsigned left)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t L = I->len - 1, i;
  uint64_t h;
  gdl_state *s = &I->path[L];
  kid_arg a;
  state_set(S, s);
  if (gdl_terminal(ctx)) {
    long g = gdl_goal(ctx, 0);
    keep_best(S, I, g);
    return g == 100;
  }
  if (left == 0) {
    I->cutoff = 1;
    if (I->limit + 1 < I->next)
      I->next = I->limit + 1;
    return 0;
  }
  if ((S->res->expanded & 255) == 0)
    search_report(S, I->limit, 0);
  if (S->o->max_states && S->res->expanded >= S->o->max_states)
    ctx_throw(ctx, GDL_ELIMIT, "state limit of %llu reached",
              (unsigned long long)S->o->max_states);
  a.I = I;
  a.level = L;
  I->nkids[L] = 0;
  I->kidfactn[L] = 0;
  expand_successors(S, collect_kid, &a, 0);
  for (i = 0; i < I->nkids[L]; i++) {
    gdl_state kid;
    kid.facts = I->kidfacts[L] + I->kidoff[L][i];
    kid.n = I->kidoff[L][i + 1] - I->kidoff[L][i];
    kid.cap = kid.n;
    h = gdl_state_hash(&kid);
    if (I->tt.e)               /* its place in the table, read below:
                                  the estimate's work hides the miss */
      __builtin_prefetch(&I->tt.e[(h ? h : 1) & I->tt.mask]);
    if (on_path(I, &kid, h))
      continue;
    if (S->E && (S->prune || I->ida)) {
      uint32_t hm, hf, *pv = NULL, *v = NULL;
      if (S->D) {              /* the groups' values, level by level */
        GROW(ctx, I->gv, I->gvcap, (L + 2) * S->ngv);
        pv = I->gv + (size_t)L * S->ngv;
        v = pv + S->ngv;
      }
      if (!expand_estimate_step(S, s->facts, pv, kid.facts, v, &hm, &hf))
        continue;              /* a dead end */
      if (I->ida && hm > left - 1) {   /* past the bound: cut */
        unsigned f = I->limit - left + 1 + hm;
        I->cutoff = 1;
        if (f < I->next)
          I->next = f;
        continue;
      }
    }
    if (tt_seen(ctx, &I->tt, &kid, h, left - 1))
      continue;
    path_push(S, I, &kid, I->kidmoves[L] + (size_t)i * S->k);
    if (depth_limited(S, I, left - 1))
      return 1;
    I->len--;
    s = &I->path[L];           /* (the path may have grown: moved) */
  }
  return 0;
}

/* iddfs, or with ida IDA*. */
static void deepen(search_t *S, int ida)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *r = S->res;
  iddfs_t I;
  uint32_t h0 = 0, hf;
  memset(&I, 0, sizeof I);
  I.tt.max = S->o->tt_entries ? (uint32_t)S->o->tt_entries : 1u << 20;
  I.ida = ida && S->E;
  search_start(S);
  if ((S->prune || I.ida) && !expand_estimate(S, S->cur.facts, &h0, &hf)) {
    r->dead_start = expand_dead_why(S, S->cur.facts);
    goto none;                 /* the start is a dead end */
  }
  S->res->estimate = h0;
  for (I.limit = I.ida ? h0 : 0;; I.limit = I.next) {
    if (I.ida && I.limit > h0)   /* a long search: bigger tables */
      search_grow_groups(S, S->t0);
    I.len = 0;
    I.cutoff = 0;
    I.next = UINT32_MAX;
    tt_clear(&I.tt);
    path_push(S, &I, &S->cur, NULL);
    if (S->D) {                /* the start's groups' values: level 0's */
      GROW(ctx, I.gv, I.gvcap, S->ngv);
      groups_values(S->D, S->cur.facts, I.gv);
    }
    search_report(S, I.limit, 1);
    if (depth_limited(S, &I, I.limit)) {
      uint32_t n = I.len - 1;
      r->status = GDL_SOLVED;
      r->goal = 100;
      r->length = n;
      r->plan = ctx_arena(ctx, ((size_t)n * S->k + 1) * sizeof *r->plan);
      COPY(r->plan, I.pathmoves + S->k, (size_t)n * S->k * sizeof *r->plan);
      r->depth = I.limit;
      return;
    }
    if (!I.cutoff) {
      r->depth = I.limit;
      break;
    }
    r->depth = I.next - 1;     /* plans shorter than the next bound: none */
    if (I.next > 250)
      ctx_throw(ctx, GDL_ELIMIT, "depth limit of 250 reached");
  }
none:
  r->status = GDL_UNSOLVABLE;
  r->goal = S->best_goal;
  if (S->best_goal >= 0) {
    r->length = I.bestlen;
    r->plan = ctx_arena(ctx, ((size_t)I.bestlen * S->k + 1) * sizeof *r->plan);
    COPY(r->plan, I.bestplan, (size_t)I.bestlen * S->k * sizeof *r->plan);
  }
}

void search_iddfs(search_t *S)
{
  deepen(S, 0);
}

void search_idastar(search_t *S)
{
  deepen(S, 1);
}
