/*
 * fuzz_eval.c - libFuzzer target (b): evaluation by the interpreter
 * (GDL_ENGINE_INTERP) of a description that checks, under a small budget
 * (8 MB of memory, 20,000 derived facts), so that a description that
 * explodes stops with GDL_ELIMIT quickly instead of slowing the run.
 *
 * The input is a description and a tail of move choices (see fuzz.h).
 * From the initial state, up to STEPS joint moves are played; in each
 * state every role's legal moves, goal values and the terminal test are
 * asked, and the move of each role is picked among its legal ones by the
 * next choice byte.  A step is made by gdl_next and gdl_set_state or by
 * gdl_advance, as a choice bit says; then a few random steps
 * (gdl_random_steps) from the last state.
 *
 * The oracle, besides the sanitizers: the state gdl_current gives back
 * after gdl_set_state is the one set, each move picked from gdl_legal is
 * legal by gdl_is_legal, and gdl_goal is the largest value gdl_goals
 * lists.  Targets (a) and (c) are fuzz_read.c and fuzz_ground.c.
 */
#include <stdlib.h>

#include "fuzz.h"

#define STEPS 8
#define MAX_ROLES 8

/* Asks everything of the current state; picks each role's move into
 * moves[].  0 when no joint move can be played (terminal, a role without
 * legal moves, or an error). */
static int ask_state(gdl_ctx *ctx, size_t k, fuzz_chooser *ch,
                     gdl_term *moves)
{
  size_t r, n, i;
  const gdl_term *mv, *vals;
  long best;
  int ok = 1;
  if (gdl_terminal(ctx))
    ok = 0;
  for (r = 0; r < k; r++) {
    if (gdl_goals(ctx, r, &vals, &n) != GDL_OK)
      return 0;
    for (best = -1, i = 0; i < n; i++)
      if (gdl_term_int(ctx, vals[i]) > best)
        best = gdl_term_int(ctx, vals[i]);
    if (gdl_goal(ctx, r) != best)
      abort();
    if (gdl_legal(ctx, r, &mv, &n) != GDL_OK)
      return 0;
    if (n == 0) {
      ok = 0;
      continue;
    }
    moves[r] = mv[fuzz_choose(ch, n)];
    if (!gdl_is_legal(ctx, r, moves[r]))
      abort();
  }
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  gdl_ctx *ctx = gdl_new();
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL }, cur = { 0, 0, NULL };
  gdl_term moves[MAX_ROLES];
  fuzz_chooser ch;
  size_t len, k, step, played;
  int over;
  if (!ctx)
    return 0;
  fuzz_split(data, size, &len, &ch);
  gdl_set_memory_limit(ctx, 8u << 20);
  gdl_set_fact_limit(ctx, 20000);
  if (gdl_load_string(ctx, FUZZ_NAME, (const char *)data, len) != GDL_OK ||
      gdl_compile(ctx, fuzz_choose(&ch, 2) ? GDL_CLEAN : 0) != GDL_OK ||
      !gdl_is_game(ctx) || (k = gdl_role_count(ctx)) > MAX_ROLES ||
      gdl_use_engine(ctx, GDL_ENGINE_INTERP) != GDL_OK ||
      gdl_initial(ctx, &s) != GDL_OK ||
      gdl_set_state(ctx, &s) != GDL_OK)
    goto out;
  for (step = 0; step < STEPS; step++) {
    if (gdl_current(ctx, &cur) != GDL_OK)
      goto out;
    if (!gdl_state_equal(&cur, &s) ||
        gdl_state_hash(&cur) != gdl_state_hash(&s))
      abort();            /* the state set is not the state read back */
    if (!ask_state(ctx, k, &ch, moves))
      break;
    if (fuzz_choose(&ch, 2)) {
      if (gdl_next(ctx, moves, &nx) != GDL_OK ||
          gdl_state_copy(ctx, &s, &nx) != GDL_OK ||
          gdl_set_state(ctx, &s) != GDL_OK)
        goto out;
    } else {
      if (gdl_advance(ctx, moves) != GDL_OK ||
          gdl_current(ctx, &s) != GDL_OK)
        goto out;
    }
  }
  {
    uint64_t rng = ch.rng;
    (void)gdl_random_steps(ctx, &rng, STEPS, &played, &over);
  }
out:
  gdl_free(ctx);
  return 0;
}
