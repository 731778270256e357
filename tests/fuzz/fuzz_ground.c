/*
 * fuzz_ground.c - libFuzzer target (c): the grounded engine against the
 * interpreter, its oracle.  The input is a description and a tail of move
 * choices (see fuzz.h).  When the description is a game, up to STEPS
 * joint moves are played with the interpreter, moves picked by the choice
 * bytes, and each state's facts, each role's legal moves and goal values
 * and the terminal test are kept.  Then the grounded engine (where the
 * game grounds within its budget; else the interpreter again) plays the
 * same moves from the same initial state, each step by gdl_advance or by
 * gdl_next and gdl_set_state as a choice bit says, and the run aborts,
 * which libFuzzer reports, at the first state, legal move list, goal or
 * terminal test that differs.  Last, gdl_random_steps with one seed must
 * reach the same state by both engines.
 *
 * Memory (64 MB) and derived facts (200,000) are capped, so a description
 * that explodes stops with GDL_ELIMIT instead of exhausting the machine.
 * Targets (a) and (b) are fuzz_read.c and fuzz_eval.c.
 */
#include <stdlib.h>

#include "fuzz.h"

#define STEPS 8
#define MAX_ROLES 8

/* What the interpreter said of one state. */
typedef struct {
  int terminal;
  size_t nlegal[MAX_ROLES];
  uint64_t legal[MAX_ROLES], goals[MAX_ROLES];
} seen_t;

/* What the current state says, into *v; 0 on an error. */
static int look(gdl_ctx *ctx, size_t k, seen_t *v)
{
  const gdl_term *t;
  size_t r, n;
  v->terminal = gdl_terminal(ctx);
  for (r = 0; r < k; r++) {
    if (gdl_legal(ctx, r, &t, &n) != GDL_OK)
      return 0;
    v->nlegal[r] = n;
    v->legal[r] = fuzz_hash_terms(t, n);
    if (gdl_goals(ctx, r, &t, &n) != GDL_OK)
      return 0;
    v->goals[r] = fuzz_hash_terms(t, n);
  }
  return 1;
}

static int same(const seen_t *a, const seen_t *b, size_t k)
{
  size_t r;
  if (a->terminal != b->terminal)
    return 0;
  for (r = 0; r < k; r++)
    if (a->nlegal[r] != b->nlegal[r] || a->legal[r] != b->legal[r] ||
        a->goals[r] != b->goals[r])
      return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  gdl_ctx *ctx = gdl_new();
  gdl_state s[STEPS + 1], nx = { 0, 0, NULL }, end = { 0, 0, NULL };
  gdl_term moves[STEPS][MAX_ROLES];
  seen_t seen[STEPS + 1], now;
  fuzz_chooser ch;
  size_t len, step, looked = 0, r, n, k, i, steps[2];
  int how[STEPS], over[2], randomly = 0;
  uint64_t seed;
  const gdl_term *mv;
  if (!ctx)
    return 0;
  fuzz_split(data, size, &len, &ch);
  for (i = 0; i <= STEPS; i++)
    s[i] = nx;
  gdl_set_memory_limit(ctx, 64u << 20);
  gdl_set_fact_limit(ctx, 200000);
  if (gdl_load_string(ctx, FUZZ_NAME, (const char *)data, len) != GDL_OK ||
      gdl_compile(ctx, fuzz_choose(&ch, 2) ? GDL_CLEAN : 0) != GDL_OK ||
      !gdl_is_game(ctx) || (k = gdl_role_count(ctx)) > MAX_ROLES ||
      gdl_use_engine(ctx, GDL_ENGINE_INTERP) != GDL_OK ||
      gdl_initial(ctx, &s[0]) != GDL_OK)
    goto out;
  for (step = 0; step <= STEPS; step++) {
    if (gdl_set_state(ctx, &s[step]) != GDL_OK ||
        !look(ctx, k, &seen[step]))
      break;
    looked++;
    if (step == STEPS || seen[step].terminal)
      break;
    for (r = 0; r < k; r++) {
      if (gdl_legal(ctx, r, &mv, &n) != GDL_OK || n == 0)
        break;
      moves[step][r] = mv[fuzz_choose(&ch, n)];
    }
    if (r < k)
      break;
    how[step] = (int)fuzz_choose(&ch, 2);
    if (gdl_next(ctx, moves[step], &nx) != GDL_OK ||
        gdl_state_copy(ctx, &s[step + 1], &nx) != GDL_OK)
      break;
  }
  seed = ch.rng;
  randomly = looked > 0 && gdl_set_state(ctx, &s[0]) == GDL_OK &&
             gdl_random_steps(ctx, &seed, STEPS, &steps[0], &over[0]) ==
                 GDL_OK &&
             gdl_current(ctx, &end) == GDL_OK;

  /* the same moves with the grounded engine, state by state */
  if (gdl_use_engine(ctx, GDL_ENGINE_AUTO) != GDL_OK ||
      gdl_initial(ctx, &nx) != GDL_OK || gdl_set_state(ctx, &nx) != GDL_OK)
    goto out;
  for (step = 0; step < looked; step++) {
    if (step > 0) {
      if (how[step - 1]) {
        if (gdl_advance(ctx, moves[step - 1]) != GDL_OK)
          break;
      } else if (gdl_next(ctx, moves[step - 1], &nx) != GDL_OK ||
                 gdl_set_state(ctx, &nx) != GDL_OK) {
        break;
      }
      if (gdl_current(ctx, &nx) != GDL_OK)
        break;
      if (!gdl_state_equal(&nx, &s[step]))
        abort();          /* a different next state */
    }
    if (!look(ctx, k, &now))
      break;
    if (!same(&now, &seen[step], k))
      abort();            /* different legal moves, goals or terminal */
  }
  /* random steps with the same seed reach the same state */
  seed = ch.rng;
  if (randomly && gdl_set_state(ctx, &s[0]) == GDL_OK &&
      gdl_random_steps(ctx, &seed, STEPS, &steps[1], &over[1]) == GDL_OK &&
      gdl_current(ctx, &nx) == GDL_OK &&
      (steps[0] != steps[1] || over[0] != over[1] ||
       !gdl_state_equal(&nx, &end)))
    abort();              /* random play went elsewhere */
out:
  gdl_free(ctx);
  return 0;
}
