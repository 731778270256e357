/*
 * bfs_dfs.c - breadth-first and depth-first search over the store, a
 * state at a time: bfs takes up the stored states in the order they were
 * stored, which is the queue; dfs keeps a stack of state ids.  A state is
 * tested when it is taken up, and a terminal one is never expanded.  (bfs
 * without pruning, on states of bits, is by levels: bfs.c.)
 */
#include <string.h>

#include "search/search.h"

/* The children of one expanded state, stored once all are made, so that
 * their table slots come from memory while the others are computed (and,
 * in bfs, while the next state's are). */
#define PRUNED UINT32_MAX     /* kid.n of a dead end left out */

typedef struct {
  uint32_t parent;
  gdl_term *facts, *moves;
  uint32_t nfacts, factcap, movecap;
  struct kid { uint32_t off, n, hash; } *kids;
  uint32_t nkids, kidcap;
} kids_t;

typedef struct {
  uint32_t *stack;            /* dfs: ids to expand */
  uint32_t nstack, stackcap;
  uint64_t *nmoves;           /* dfs, fewest first: the new children's
                                 joint moves */
  uint32_t nmovescap;
  int dfs;
  kids_t set[2];              /* bfs: the last state's, the one before's */
  int cur;
} walk_t;

/* The child at its place among its parent's: made in another order (see
 * expand_successors), stored in this one. */
static int hold_child(search_t *S, void *arg, size_t place)
{
  walk_t *a = arg;
  kids_t *c = &a->set[a->cur];
  struct kid *k;
  uint32_t n = S->child.n, at = (uint32_t)place, r;
  if (at >= c->kidcap || c->nfacts + n >= c->factcap ||
      (at + 1) * S->k >= c->movecap) {
    GROW(S->ctx, c->kids, c->kidcap, at);
    GROW(S->ctx, c->facts, c->factcap, c->nfacts + n);
    GROW(S->ctx, c->moves, c->movecap, (at + 1) * S->k);
  }
  k = &c->kids[at];
  if (!S->together && expand_pruned(S, S->child.facts)) {
    k->n = PRUNED;             /* a place left empty */
    c->nkids++;
    return 0;
  }
  k->off = c->nfacts;
  k->n = n;
  store_copy(S, c->facts + c->nfacts, S->child.facts, n);
  if (!S->together)           /* (together: once estimated,
                                 commit_children) */
    store_unclocked(S, c->facts + c->nfacts);
  k->hash = store_hash(S, c->facts + c->nfacts, n);
  for (r = 0; r < S->k; r++)
    c->moves[at * S->k + r] = S->joint[r];
  c->nfacts += n;
  c->nkids++;
  store_prefetch_slot(S, k->hash);
  return 0;
}

/* The joint moves of stored state id, which becomes the current state
 * (0 where it is terminal: it is tested first). */
static uint64_t joint_moves(search_t *S, uint32_t id)
{
  gdl_ctx *ctx = S->ctx;
  uint64_t n = 1;
  uint32_t r;
  store_load(S, id, &S->cur);
  state_set(S, &S->cur);
  S->played = 0;
  if (gdl_terminal(ctx))
    return 0;
  for (r = 0; r < S->k && n; r++) {
    const gdl_term *mv;
    size_t m = state_legal(S, r, &mv);
    n = m && n > UINT64_MAX / m ? UINT64_MAX : n * m;
  }
  return n;
}

/* dfs, fewest first: the children just pushed, stack[base, nstack),
 * ordered so that the one with the fewest joint moves is taken first
 * (the top), ties as they came. */
static void fewest_on_top(search_t *S, walk_t *a, uint32_t base)
{
  uint32_t n = a->nstack - base, *st = a->stack + base, i, j;
  if (n < 2)
    return;
  GROW(S->ctx, a->nmoves, a->nmovescap, n);
  for (i = 0; i < n; i++)
    a->nmoves[i] = joint_moves(S, st[i]);
  for (i = 1; i < n; i++) {    /* insertion sort: few, and stable */
    uint64_t m = a->nmoves[i];
    uint32_t id = st[i];
    for (j = i; j > 0 && a->nmoves[j - 1] < m; j--) {
      a->nmoves[j] = a->nmoves[j - 1];
      st[j] = st[j - 1];
    }
    a->nmoves[j] = m;
    st[j] = id;
  }
}

static void commit_children(search_t *S, walk_t *a, kids_t *c)
{
  uint32_t i, base = a->nstack;
  if (S->together && c->nkids) {
    /* the dead ends among them found together, on the threads */
    S->nkids = 0;
    for (i = 0; i < c->nkids; i++)
      kids_keep(S, c->facts + c->kids[i].off, c->moves + i * S->k);
    kids_estimate(S);
    for (i = 0; i < c->nkids; i++)
      if (S->kdead[i]) {
        c->kids[i].n = PRUNED;
      } else if (S->C) {
        store_unclocked(S, c->facts + c->kids[i].off);
        c->kids[i].hash = store_hash(S, c->facts + c->kids[i].off,
                                       c->kids[i].n);
      }
  }
  /* the stored state each may be, in turn */
  for (i = 0; S->mask && i < c->nkids; i++)
    if (c->kids[i].n != PRUNED)
      store_prefetch_state(S, c->kids[i].hash);
  for (i = 0; i < c->nkids; i++) {
    const struct kid *k = &c->kids[i];
    gdl_state s;
    int isnew;
    uint32_t id;
    if (k->n == PRUNED)
      continue;
    s.facts = c->facts + k->off;
    s.n = s.cap = k->n;
    id = store_add(S, &s, k->hash, c->parent, c->moves + i * S->k, &isnew);
    if (isnew && a->dfs) {
      GROW(S->ctx, a->stack, a->stackcap, a->nstack);
      a->stack[a->nstack++] = id;
    }
  }
  if (a->dfs && S->o->fewest_first)
    fewest_on_top(S, a, base);
  c->nkids = c->nfacts = 0;
}

static void walk_free(search_t *S, walk_t *a)
{
  int i;
  ctx_free(S->ctx, a->stack);
  ctx_free(S->ctx, a->nmoves);
  for (i = 0; i < 2; i++) {
    ctx_free(S->ctx, a->set[i].facts);
    ctx_free(S->ctx, a->set[i].moves);
    ctx_free(S->ctx, a->set[i].kids);
  }
}

/* bfs, or with dfs depth-first. */
static void search_stored(search_t *S, int dfs)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *r = S->res;
  walk_t a;
  uint32_t next = 0, id;
  unsigned depth = 0;
  memset(&a, 0, sizeof a);
  a.dfs = dfs;
  search_start(S);
  r->threads = 1;
  if (!dfs && S->words && !(S->prune && S->E) &&
      bfs_levels(ctx, S->o, r, S->cur.facts, S->C))
    return;                    /* by levels, 64 states at a time (bfs.c) */
  store_start(S);
  if (dfs) {
    GROW(ctx, a.stack, a.stackcap, 0);
    a.stack[a.nstack++] = 0;
  }
  for (;;) {
    int t;
    if (dfs) {
      if (a.nstack == 0)
        break;
      id = a.stack[--a.nstack];
    } else {
      if (next >= S->nstates)           /* the last children first */
        commit_children(S, &a, &a.set[!a.cur]);
      if (next >= S->nstates)
        break;
      id = next++;
    }
    if ((r->expanded & 255) == 0) {
      store_measure(S);
      search_report(S, depth, 0);
    }
    store_load(S, id, &S->cur);
    t = expand_test(S, &S->cur, id);
    if (!dfs) {
      depth = S->depth[id];
      /* every state of a smaller depth has been tested */
      r->depth = depth ? depth - 1 : 0;
    }
    if (t == 1) {
      if (!dfs)                /* as if stored when they were made */
        commit_children(S, &a, &a.set[!a.cur]);
      r->status = GDL_SOLVED;
      r->goal = 100;
      store_plan(S, id);
      r->depth = (unsigned)r->length;
      store_measure(S);
      walk_free(S, &a);
      return;
    }
    if (t < 0)
      continue;
    a.set[a.cur].parent = id;
    expand_successors(S, hold_child, &a, 1);
    if (!dfs)                  /* bfs: this state's children wait a turn */
      a.cur = !a.cur;
    commit_children(S, &a, &a.set[a.cur]);
  }
  r->status = GDL_UNSOLVABLE;
  r->depth = dfs ? 0 : depth;
  r->goal = S->best_goal;
  if (S->best_goal >= 0)
    store_plan(S, S->best_state);
  store_measure(S);
  walk_free(S, &a);
}

void search_bfs(search_t *S)
{
  search_stored(S, 0);
}

void search_dfs(search_t *S)
{
  search_stored(S, 1);
}
