/*
 * best.c - best-first searches from a binary heap of stored states: A*
 * (astar) takes up the state of least moves made + h_max first, greedy
 * best-first (gbfs) the one of least h_ff.  With h_max admissible, the
 * first goal A* takes up is reached by a shortest plan; a state reached
 * again by fewer moves is taken up again (doc/solving.md, "astar").
 */
#include <string.h>

#include "search/search.h"

#define EVALUATED 2           /* closed[]: open, its estimate its own */
#define EAGER_FANOUT 16       /* gbfs: successors evaluated when made */

static void heap_push(search_t *S, uint64_t key, uint32_t id)
{
  uint32_t i = S->nheap++;
  GROW(S->ctx, S->heap, S->heapcap, i);
  while (i > 0 && S->heap[(i - 1) / 2].key > key) {
    S->heap[i] = S->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  S->heap[i].key = key;
  S->heap[i].id = id;
}

static struct pq heap_pop(search_t *S)
{
  struct pq top = S->heap[0], last = S->heap[--S->nheap];
  uint32_t i = 0, n = S->nheap;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && S->heap[c + 1].key < S->heap[c].key)
      c++;
    if (S->heap[c].key >= last.key)
      break;
    S->heap[i] = S->heap[c];
    i = c;
  }
  if (n)
    S->heap[i] = last;
  return top;
}

/* A*: least moves made + h_max first, then the most moves made (the key
 * keeps the moves made, so an entry whose state was since reached by
 * fewer is known stale); greedy: least h_ff first, then the last stored
 * (depth first among equals, where a move counter makes most of them). */
static void push_state(search_t *S, uint32_t id)
{
  uint64_t g = S->depth[id], h = S->hval[id];
  if (S->best == BEST_ASTAR)
    heap_push(S, (g + h) << 32 | (UINT32_MAX - g), id);
  else
    heap_push(S, h << 32 | (UINT32_MAX - id), id);
}

/* Child s of state parent, made by `moves`, its estimate h: stored, and
 * taken up later, unless it was reached before by as few moves. */
static void best_child(search_t *S, uint32_t parent, gdl_state *s,
                       const gdl_term *moves, uint32_t h, int evaluated)
{
  uint32_t id;
  int isnew;
  store_unclocked(S, s->facts);
  id = store_add(S, s, store_hash(S, s->facts, s->n), parent, moves, &isnew);
  if (isnew == 1) {
    S->hval[id] = h;
    S->closed[id] = evaluated ? EVALUATED : 0;
  } else if (isnew == 2) {     /* reached by fewer moves: taken up again */
    if (S->closed[id] == 1)    /* (its estimate is its own by now) */
      S->closed[id] = EVALUATED;
  } else {
    return;
  }
  push_state(S, id);
}

/* Without an estimator (the interpreter, states of facts), each child
 * stored as it is made, estimated 0. */
static int best_child_now(search_t *S, void *arg, size_t place)
{
  (void)place;
  best_child(S, *(uint32_t *)arg, &S->child, S->joint, 0, 1);
  return 0;
}

/* The children of state id, estimated (greedy search among many: not
 * now, see below) and stored. */
static void best_expand(search_t *S, uint32_t id)
{
  uint32_t i, hp = S->hval[id] ? S->hval[id] - 1 : 0;
  int lazy, lazy_astar;
  if (!S->E) {
    expand_successors(S, best_child_now, &id, 1);
    return;
  }
  S->nkids = 0;
  expand_successors(S, kids_keep_child, NULL, 1);
  lazy = S->best == BEST_GBFS && S->nkids > EAGER_FANOUT;
  /* A* defers h_max and h_ff (where they are still computed) to when a
   * state is taken up: a child waits with its parent's estimate less
   * one (both are consistent: a move lowers them by one at most) or its
   * groups' estimate, the larger (kids_groups) */
  lazy_astar = S->best == BEST_ASTAR && !(S->D && S->hm_off);
  if (lazy_astar)
    kids_groups(S);
  else if (!lazy)
    kids_estimate(S);
  for (i = 0; i < S->nkids; i++) {
    gdl_state s;
    s.facts = S->kbits + (size_t)i * S->words;
    s.n = s.cap = S->words;
    if (lazy)                  /* evaluated when taken up: see below */
      best_child(S, id, &s, S->kmoves + (size_t)i * S->k, S->hval[id], 0);
    else if (lazy_astar) {
      if (S->khm[i] != EST_DEAD)
        best_child(S, id, &s, S->kmoves + (size_t)i * S->k,
                   S->khm[i] > hp ? S->khm[i] : hp, 0);
      else if (S->prune)
        S->res->pruned++;
      else
        best_child(S, id, &s, S->kmoves + (size_t)i * S->k, 0, 1);
    } else if (!S->kdead[i] || !S->prune)
      best_child(S, id, &s, S->kmoves + (size_t)i * S->k,
                 S->best == BEST_ASTAR ? S->khm[i] : S->khf[i],
                 S->best == BEST_ASTAR || S->fanout <= EAGER_FANOUT);
  }
}

/* A* (BEST_ASTAR) or greedy best-first (BEST_GBFS). */
static void best_first(search_t *S, int which)
{
  gdl_solve_result *r = S->res;
  uint32_t id, hm, hf;
  S->best = which;
  search_start(S);
  if (!expand_estimate(S, S->cur.facts, &hm, &hf)) {
    r->dead_start = expand_dead_why(S, S->cur.facts);
    goto none;                 /* the start is a dead end */
  }
  r->estimate = hm;
  store_start(S);
  S->hval[0] = which == BEST_ASTAR ? hm : hf;
  S->closed[0] = EVALUATED;
  push_state(S, 0);
  while (S->nheap) {
    struct pq e = heap_pop(S);
    unsigned f = (unsigned)(e.key >> 32);
    int t;
    id = e.id;
    if (S->closed[id] == 1 ||
        (which == BEST_ASTAR && UINT32_MAX - (uint32_t)e.key != S->depth[id]))
      continue;                /* expanded, or since reached by fewer */
    if ((r->expanded & 255) == 0) {
      store_measure(S);
      search_report(S, f, 0);
    }
    ctx_poll(S->ctx);          /* a state's estimate can take milliseconds */
    store_load(S, id, &S->cur);
    if (id && S->closed[id] != EVALUATED) {
      /* among many successors, greedy search evaluates a state when it
       * is taken up, not when it is made (deferred evaluation, as Fast
       * Downward's lazy search): they wait with their parent's estimate,
       * so a state with hundreds of them costs one estimate, not
       * hundreds; a few (up to EAGER_FANOUT) are told apart at once.
       * A* so too (best_expand): where the estimate comes out higher
       * than the one it waited with, the state waits again with it */
      if (!expand_estimate(S, S->cur.facts, &hm, &hf)) {
        S->closed[id] = 1;
        continue;
      }
      S->closed[id] = EVALUATED;
      if (which == BEST_GBFS) {
        S->hval[id] = hf;
      } else if (hm > S->hval[id]) {
        S->hval[id] = hm;
        push_state(S, id);
        continue;
      }
    }
    t = expand_test(S, &S->cur, id);
    if (which == BEST_ASTAR && f && f - 1 > r->depth)
      r->depth = f - 1;        /* every plan of fewer moves is ruled out */
    if (t == 1) {
      r->status = GDL_SOLVED;
      r->goal = 100;
      store_plan(S, id);
      if (which == BEST_ASTAR)
        r->depth = (unsigned)r->length;
      store_measure(S);
      return;
    }
    S->closed[id] = 1;
    if (t < 0)
      continue;
    best_expand(S, id);
  }
none:
  r->status = GDL_UNSOLVABLE;
  r->goal = S->best_goal;
  if (S->best_goal >= 0)
    store_plan(S, S->best_state);
  store_measure(S);
}

void search_astar(search_t *S)
{
  best_first(S, BEST_ASTAR);
}

void search_gbfs(search_t *S)
{
  best_first(S, BEST_GBFS);
}
