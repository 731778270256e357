/*
 * value.c - the value of a game of several roles: each role's goal under
 * perfect play, by backward induction over the reachable graph.  Every
 * state reached is stored once (store.c) and valued after all its
 * successors, depth first with a stack of our own (no recursion, however
 * long the game):
 *   - a terminal state is worth each role's goal;
 *   - where one role has a choice (a turn-taking state) it takes the
 *     successor best for itself; among successors equal for it, the one
 *     that gives the other roles the least in sum, then the first in the
 *     order of the joint moves.  With two roles whose goals always sum to
 *     the same number this is minimax;
 *   - where no role has a choice the one successor's value;
 *   - where several roles choose at once (simultaneous moves), each role
 *     gets its pure-strategy security value (maximin): the most it can
 *     make sure of whatever the others play, knowing its move.
 * A cycle of states (a game that need not end) stops the search with no
 * value.  At a limit the result says what is proven so far: the root's
 * mover can get at least the best value of its moves searched to the end.
 */
#include <stdio.h>
#include <string.h>

#include "search/search.h"

enum { V_NEW = 0, V_OPEN = 1, V_DONE = 2 };

typedef struct {
  uint32_t id;                /* the state */
  uint32_t kids;              /* its children's ids at kid[kids ...] */
  uint32_t nkids, next;       /* how many; the next to value */
  uint32_t nm;                /* per role moves at nms[frame * k ...] */
} frame_t;

typedef struct value {
  int16_t *val;               /* per state: k goals under perfect play */
  uint32_t *best;             /* per state: the place of its chosen joint
                                 move */
  uint8_t *mark;              /* per state: V_NEW, V_OPEN, V_DONE */
  uint32_t cap;
  frame_t *fr;
  uint32_t nfr, frcap;
  uint32_t *kid, nkid, kidcap;
  uint32_t *nms, nmscap;
  long sum_lo, sum_hi;        /* the terminal goals' sums seen */
  int root_mover;             /* the root's one role with a choice, or -1 */
} value_t;

/* Room for the per-state arrays up to the store's capacity. */
static void value_room(search_t *S, value_t *V)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t c = S->cap, i;
  if (c <= V->cap)
    return;
  V->val = ctx_realloc(ctx, V->val, (size_t)c * S->k * sizeof *V->val);
  V->best = ctx_realloc(ctx, V->best, (size_t)c * sizeof *V->best);
  V->mark = ctx_realloc(ctx, V->mark, c);
  for (i = V->cap; i < c; i++)
    V->mark[i] = V_NEW;
  V->cap = c;
}

static void value_free(search_t *S)
{
  value_t *V = S->value;
  gdl_ctx *ctx = S->ctx;
  if (!V)
    return;
  ctx_free(ctx, V->val);
  ctx_free(ctx, V->best);
  ctx_free(ctx, V->mark);
  ctx_free(ctx, V->fr);
  ctx_free(ctx, V->kid);
  ctx_free(ctx, V->nms);
  ctx_free(ctx, V);
  S->value = NULL;
}

/* An expand_fn: the child stored (or found), its id at its place. */
static int keep_kid(search_t *S, void *arg, size_t place)
{
  value_t *V = arg;
  int isnew;
  uint32_t h = store_hash(S, S->child.facts, S->child.n);
  uint32_t id = store_add(S, &S->child, h, V->fr[V->nfr - 1].id, S->joint,
                          &isnew);
  uint32_t at = V->fr[V->nfr - 1].kids + (uint32_t)place;
  GROW(S->ctx, V->kid, V->kidcap, at);
  V->kid[at] = id;
  if (at + 1 > V->nkid)
    V->nkid = at + 1;
  return 0;
}

/* Opens stored state id: a terminal one (or one where a role has no legal
 * move) is valued at once; else a frame with its children. */
static void open_state(search_t *S, value_t *V, uint32_t id)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t r, k = S->k, f, choosers = 0, mover = 0;
  uint64_t n = 1;
  value_room(S, V);
  store_load(S, id, &S->cur);
  state_set(S, &S->cur);
  S->played = 0;
  if (!gdl_terminal(ctx)) {
    f = V->nfr;
    GROW(ctx, V->fr, V->frcap, f);
    GROW(ctx, V->nms, V->nmscap, (f + 1) * k);
    for (r = 0; r < k; r++) {
      const gdl_term *mv;
      size_t m = state_legal(S, r, &mv);
      V->nms[f * k + r] = (uint32_t)m;
      n *= m;
      if (m > 1) {
        choosers++;
        mover = r;
      }
    }
    if (n > 0) {
      frame_t *F = &V->fr[f];
      F->id = id;
      F->kids = V->nkid;
      F->nkids = 0;
      F->next = 0;
      F->nm = f * k;
      V->nfr++;
      V->mark[id] = V_OPEN;
      if (id == 0)
        V->root_mover = choosers == 1 ? (int)mover : -1;
      expand_successors(S, keep_kid, V, 0);
      F = &V->fr[f];
      F->nkids = V->nkid - F->kids;
      value_room(S, V);
      return;
    }
  }
  /* terminal, or a role without a legal move: worth the goals here */
  {
    long sum = 0;
    for (r = 0; r < k; r++) {
      long g = gdl_goal(ctx, r);
      V->val[(size_t)id * k + r] = (int16_t)(g < 0 ? -1 : g > 10000 ? 10000
                                                                   : g);
      sum += g < 0 ? 0 : g;
    }
    if (V->sum_lo < 0 || sum < V->sum_lo)
      V->sum_lo = sum;
    if (sum > V->sum_hi)
      V->sum_hi = sum;
    V->best[id] = UINT32_MAX;
    V->mark[id] = V_DONE;
    S->res->expanded++;        /* (taken up, as a search's states) */
  }
}

/* Sum of the others' values in v (k of them) but role m's. */
static long others(const int16_t *v, uint32_t k, uint32_t m)
{
  long s = 0;
  uint32_t r;
  for (r = 0; r < k; r++)
    if (r != m)
      s += v[r];
  return s;
}

/* The frame's state valued from its children (all done). */
static void close_frame(search_t *S, value_t *V, const frame_t *F)
{
  uint32_t k = S->k, r, i, choosers = 0, mover = 0;
  const uint32_t *nm = V->nms + F->nm, *kid = V->kid + F->kids;
  int16_t *out = V->val + (size_t)F->id * k;
  for (r = 0; r < k; r++)
    if (nm[r] > 1) {
      choosers++;
      mover = r;
    }
  if (choosers <= 1) {
    uint32_t b = 0;
    for (i = 1; i < F->nkids; i++) {
      const int16_t *c = V->val + (size_t)kid[i] * k,
                    *o = V->val + (size_t)kid[b] * k;
      if (c[mover] > o[mover] ||
          (c[mover] == o[mover] && others(c, k, mover) < others(o, k, mover)))
        b = i;
    }
    COPY(out, V->val + (size_t)kid[b] * k, k * sizeof *out);
    V->best[F->id] = b;
  } else {
    /* each role's security value; the joint move of each one's maximin
     * move.  A place is sum over roles of pick[r] * stride[r], the last
     * role's moves varying fastest. */
    uint32_t place = 0, stride = 1;
    S->res->simultaneous = 1;
    for (r = k; r-- > 0;) {
      uint32_t a, bestmove = 0;
      int bestval = -2;
      for (a = 0; a < nm[r]; a++) {
        int worst = 20000;
        for (i = 0; i < F->nkids; i++)
          if ((i / stride) % nm[r] == a) {
            int v = V->val[(size_t)kid[i] * k + r];
            if (v < worst)
              worst = v;
          }
        if (worst > bestval) {
          bestval = worst;
          bestmove = a;
        }
      }
      out[r] = (int16_t)bestval;
      place += bestmove * stride;
      stride *= nm[r];
    }
    V->best[F->id] = place;
  }
  V->mark[F->id] = V_DONE;
}

/* The root mover's best value of its moves valued so far: what is proven
 * at a limit. */
static void root_bound(search_t *S, value_t *V, const frame_t *F)
{
  gdl_solve_result *res = S->res;
  uint32_t i;
  int m = V->root_mover;
  if (m < 0)
    return;
  res->bound_role = m;
  res->bound_moves = F->nkids;
  res->bound_searched = F->next;
  res->bound = -1;
  for (i = 0; i < F->next; i++) {
    long v = V->val[(size_t)V->kid[F->kids + i] * S->k + (uint32_t)m];
    if (v > res->bound)
      res->bound = v;
  }
}

/* An expand_fn: the joint move at place *arg taken (its child into
 * S->child, the moves into S->joint), the rest left. */
static int take_place(search_t *S, void *arg, size_t place)
{
  (void)S;
  return place == *(size_t *)arg;
}

/* The principal variation: from the start, each state's chosen joint
 * move, into S->res->plan. */
static void principal_variation(search_t *S, value_t *V)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *res = S->res;
  uint32_t id = 0, len = 0, x;
  gdl_term *plan = NULL;
  uint32_t cap = 0;
  for (;;) {
    size_t place;
    int isnew;
    if (V->best[id] == UINT32_MAX)
      break;
    place = V->best[id];
    store_load(S, id, &S->cur);
    state_set(S, &S->cur);
    S->played = 0;
    if (!expand_successors(S, take_place, &place, 0))
      break;                   /* (cannot be: it was expanded) */
    GROW(ctx, plan, cap, (len + 1) * S->k);
    COPY(plan + (size_t)len * S->k, S->joint, S->k * sizeof *plan);
    len++;
    x = store_add(S, &S->child, store_hash(S, S->child.facts, S->child.n),
                  id, S->joint, &isnew);
    if (isnew || x == id)
      break;                   /* (cannot be: every state was stored) */
    id = x;
  }
  res->plan = ctx_arena(ctx, ((size_t)len * S->k + 1) * sizeof *res->plan);
  COPY(res->plan, plan, (size_t)len * S->k * sizeof *plan);
  res->length = len;
  res->depth = len;
  ctx_free(ctx, plan);
}

/* Passes the failure caught on to the caller's jump target. */
static _Noreturn void rethrow(gdl_ctx *ctx)
{
  char why[sizeof ctx->errmsg];
  snprintf(why, sizeof why, "%s", ctx->errmsg);
  ctx_throw(ctx, ctx->thrown, "%s", why);
}

/* The graph search stopped (caught): where the graph did not fit (the
 * state limit, the memory limit, memory out) in a game of two roles of states as
 * bits, its memory back and alpha-beta from the start instead (its
 * table as large as the states allowed, or a quarter of the memory left);
 * 1 when so. */
static int graph_too_big(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  uint64_t entries = (uint64_t)1 << 20;
  char why[sizeof ctx->errmsg];
  int states = strncmp(ctx->errmsg, "state limit", 11) == 0;
  if (ctx->thrown != GDL_ELIMIT || S->k != 2 || !S->words ||
      (!states && strncmp(ctx->errmsg, "memory limit", 12) != 0 &&
       strncmp(ctx->errmsg, "out of memory", 13) != 0))
    return 0;
  snprintf(why, sizeof why, "%s", ctx->errmsg);
  value_free(S);
  store_free(S);
  S->pool = NULL;
  S->slot = NULL;
  S->parent = S->depth = NULL;
  S->moves = NULL;
  S->table = NULL;
  S->npool = S->poolcap = 0;
  S->nstates = S->cap = S->mask = 0;
  S->res->stored = 0;
  if (states)
    entries = S->o->max_states;
  else if (ctx->limit > ctx->used)
    entries = (ctx->limit - ctx->used) / 4 /
              (S->words * sizeof(uint32_t) + 3 * sizeof(int16_t));
  /* the start again: the store's copy went with it */
  search_start(S);
  value_alphabeta(S, entries, why);
  return 1;
}

/* The graph from the start, depth first: every state valued after its
 * children. */
static void graph_walk(search_t *S, value_t *V)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t steps = 0;
  store_start(S);
  open_state(S, V, 0);
  while (V->nfr) {
    frame_t *F = &V->fr[V->nfr - 1];
    if ((++steps & 255) == 0) {
      store_measure(S);
      search_report(S, V->nfr, 0);
    }
    if (F->next < F->nkids) {
      uint32_t c = V->kid[F->kids + F->next];
      if (V->mark[c] == V_DONE) {
        F->next++;
        if (F->id == 0)
          root_bound(S, V, F);
        continue;
      }
      if (V->mark[c] == V_OPEN)
        ctx_throw(ctx, GDL_ELIMIT, "a cycle of states: the game need not "
                  "end, so it has no value by backward induction");
      open_state(S, V, c);
      continue;
    }
    close_frame(S, V, F);
    V->nkid = F->kids;
    V->nfr--;
  }
}

void search_value(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *res = S->res;
  value_t *V;
  uint32_t r;
  jmp_buf jb, *old = ctx->jmp;
  S->prune = 0;
  S->value = V = ctx_alloc(ctx, sizeof *V);
  S->value_free = value_free;
  V->sum_lo = -1;
  V->root_mover = -1;
  res->game = 1;
  res->bound_role = -1;
  res->bound = -1;
  search_start(S);
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    if (graph_too_big(S))
      return;                  /* alpha-beta instead */
    rethrow(ctx);
  }
  graph_walk(S, V);
  ctx->jmp = old;
  res->status = GDL_SOLVED;
  for (r = 0; r < S->k && r < 64; r++)
    res->values[r] = V->val[r];
  res->goal = res->values[0];
  res->constant_sum = S->k == 2 && V->sum_lo == V->sum_hi;
  res->bound_role = -1;
  {
    uint64_t e = res->expanded, g = res->generated;
    principal_variation(S, V);  /* (its states counted once already) */
    res->expanded = e;
    res->generated = g;
  }
  store_measure(S);
}
