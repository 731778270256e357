/*
 * fuzz_gdl.c - libFuzzer target: reads the input as a GDL description
 * (KIF when it starts with '(' or ';', else infix),
 * checks it, and when it is a game plays a few steps, choosing moves by
 * the input's own bytes; then plays the same moves again with the
 * grounded engine (where the game grounds), by gdl_advance, and aborts
 * when a state differs from the interpreter's, so that libFuzzer reports
 * it.  Memory and derived facts are capped, so a description that
 * explodes stops with GDL_ELIMIT instead of exhausting the machine.
 * Built and run by `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "gdl.h"

#define STEPS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  gdl_ctx *ctx = gdl_new();
  gdl_state s[STEPS + 1], nx = { 0, 0, NULL };
  gdl_term moves[STEPS][8];
  size_t step, played = 0, r, n, k, i;
  const gdl_term *mv;
  if (!ctx)
    return 0;
  for (i = 0; i <= STEPS; i++)
    s[i] = nx;
  gdl_set_memory_limit(ctx, 64u << 20);
  gdl_set_fact_limit(ctx, 200000);
  if (gdl_load_string(ctx, size > 0 && data[0] != '(' && data[0] != ';'
                               ? "fuzz.hrf" : "fuzz.kif",
                      (const char *)data, size) != GDL_OK ||
      gdl_compile(ctx, size > 0 && (data[0] & 1) ? GDL_CLEAN : 0) != GDL_OK)
    goto out;
  (void)gdl_diagnostics(ctx);
  if (!gdl_is_game(ctx) || (k = gdl_role_count(ctx)) > 8)
    goto out;
  if (gdl_initial(ctx, &s[0]) != GDL_OK)
    goto out;
  for (step = 0; step < STEPS; step++) {
    if (gdl_set_state(ctx, &s[step]) != GDL_OK || gdl_terminal(ctx))
      break;
    for (r = 0; r < k; r++) {
      if (gdl_legal(ctx, r, &mv, &n) != GDL_OK || n == 0)
        goto out;
      moves[step][r] = mv[(size > step ? data[step] : 0) % n];
      (void)gdl_goal(ctx, r);
    }
    if (gdl_next(ctx, moves[step], &nx) != GDL_OK ||
        gdl_state_copy(ctx, &s[step + 1], &nx) != GDL_OK)
      break;
    played++;
  }
  /* the same moves with the grounded engine, state by state */
  if (gdl_use_engine(ctx, GDL_ENGINE_AUTO) != GDL_OK ||
      gdl_set_state(ctx, &s[0]) != GDL_OK)
    goto out;
  for (step = 0; step < played; step++) {
    if (gdl_advance(ctx, moves[step]) != GDL_OK ||
        gdl_current(ctx, &nx) != GDL_OK)
      break;
    if (!gdl_state_equal(&nx, &s[step + 1]))
      abort();
  }
out:
  gdl_free(ctx);
  return 0;
}
