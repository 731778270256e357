/*
 * levels.c - what the two breadth-first searches by levels share: bfs.c's
 * threads on one machine and gdl-mpi's ranks (engine/bind/mpi.c).
 *
 * Both go a level at a time (level_search): a level expanded, then the
 * verdict, the same for both: a state of goal 100 ends the search with
 * the plan to the first, a level without a new state ends it unsolvable
 * with the plan to the first terminal state of the best goal; what a
 * level is (threads committing in order, ranks exchanging children) is
 * the caller's function.
 *
 * Both expand a level 64 states at a time in the grounded network's
 * batch (ground_batch.c): the states go in with their step counter put
 * back, the terminal ones are tested, and the others' children come out,
 * each lane's in the order of its joint moves, with the counter taken
 * out again.  Both poll the interrupt and the clock between batches
 * and stop with the same words.  Both read the plan back from the goal a
 * parent at a time: bfs.c finds a parent by expanding the level before
 * until one of its states makes the child (no parent is stored), gdl-mpi
 * follows the parent and joint move its ranks store; the steps fill the
 * plan the same way.  Where they differ (the store, the order of states,
 * who commits, the exchange between ranks) stays in their own files.
 */
#include <stdio.h>

#include "search/search.h"

void level_states_in(const level_setup_t *S, level_batch_t *L, uint32_t n,
                     uint32_t depth)
{
  uint32_t l;
  if (S->C)
    for (l = 0; l < n; l++)
      counter_in(S->C, (uint32_t *)L->lane[l], depth);
  gbatch_states(L->B, L->lane, n);
}

uint64_t level_take_up(const level_setup_t *S, level_batch_t *L, uint32_t n,
                       uint32_t depth, int first, uint64_t *j,
                       uint64_t *term, long *goal)
{
  uint64_t t, lanes = 0;
  uint32_t l;
  level_states_in(S, L, n, depth);
  t = gbatch_terminal(L->B);
  *term = 0;
  for (l = 0; l < n; l++) {
    if (t >> l & 1) {
      long g = goal ? gbatch_goal(L->B, l) : -1;
      *term |= (uint64_t)1 << l;
      if (goal)
        goal[l] = g;
      if (g == 100 && first)
        break;                 /* the lanes after it are not needed */
      continue;
    }
    if ((j[l] = gbatch_joints(L->B, l)) != 0)
      lanes |= (uint64_t)1 << l;
  }
  return lanes;
}

uint64_t level_children(const level_setup_t *S, level_batch_t *L,
                        uint64_t lanes, const uint64_t *j, uint64_t *off,
                        uint32_t **out, uint64_t *cap)
{
  uint64_t total = gbatch_layout(lanes, j, off), c;
  if (total * S->words + 1 > *cap &&
      !S->grow(S->grow_arg, (void **)out, cap, total * S->words + 1,
               sizeof **out))
    return UINT64_MAX;
  gbatch_expand(L->B, lanes, off, *out);
  for (c = 0; S->C && c < total; c++)
    counter_out(S->C, *out + c * S->words);
  return total;
}

/* ---- the levels ----------------------------------------------------- */

void level_search(gdl_solve_result *r, level_fn level, level_plan_fn plan,
                  void *arg)
{
  unsigned d;
  int end;
  for (d = 0;; d++) {
    r->depth = d ? d - 1 : 0;  /* every state of a smaller depth tested */
    if ((end = level(arg, d)) != LEVEL_MORE)
      break;
  }
  if (end == LEVEL_GOAL) {
    r->status = GDL_SOLVED;
    r->goal = 100;
    plan(arg, 1, d);
    r->depth = d;              /* the plan read: a limit there keeps d-1 */
  } else if (end == LEVEL_NO_NEW) {
    r->status = GDL_UNSOLVABLE;
    r->depth = d;
    plan(arg, 0, d);
  }
}

/* ---- limits ----------------------------------------------------------- */

int level_limit(const gdl_ctx *ctx, double deadline)
{
  if (ctx_interrupted(ctx))
    return LEVEL_INTERRUPTED;
  if (deadline > 0 && ctx_clock() > deadline)
    return LEVEL_TIME_OUT;
  return LEVEL_GOING;
}

void level_limit_why(int limit, double max_seconds, char *why, size_t n)
{
  if (limit == LEVEL_INTERRUPTED)
    snprintf(why, n, "interrupted");
  else
    snprintf(why, n, "time limit of %g s reached", max_seconds);
}

/* ---- the plan --------------------------------------------------------- */

void level_plan(gdl_ctx *ctx, gdl_solve_result *r, unsigned len, uint32_t k,
                level_parent_fn parent, void *arg)
{
  unsigned lv;
  r->length = len;
  r->plan = ctx_arena(ctx, ((size_t)len * k + 1) * sizeof *r->plan);
  for (lv = len; lv > 0; lv--)
    parent(arg, lv, r->plan + (size_t)(lv - 1) * k);
}
