/*
 * use-engine-at-limit.c - replays a bug no fuzz input reaches directly:
 * gdl_use_engine() allocates (its copy of the lazy flags, engine/network/ground.c)
 * before any PROTECT, so when that allocation fails, ctx_throw() finds no
 * jump target and calls abort().  Here the memory limit is set to what
 * the compiled game already holds, so the first byte more fails; the call
 * must return (GDL_OK with the interpreter, as AUTO does when grounding
 * does not fit, or GDL_ELIMIT), never abort.
 *
 * Built and run by `make fuzz-regress`; exit 0 when the bug is fixed.
 */
#include <stdio.h>

#include "gdl.h"

int main(void)
{
  static const char game[] =
    "(role r) (init (c 1)) (<= (legal r go) (true (c 1)))\n"
    "(<= (next (c 2)) (does r go)) (<= terminal (true (c 2)))\n"
    "(<= (goal r 100) (true (c 2))) (<= (goal r 0) (true (c 1)))\n";
  gdl_ctx *ctx = gdl_new();
  gdl_status st;
  int e;
  if (!ctx || gdl_load_string(ctx, "x.kif", game, sizeof game - 1) != GDL_OK ||
      gdl_compile(ctx, 0) != GDL_OK) {
    fprintf(stderr, "use-engine-at-limit: the game does not load\n");
    return 2;
  }
  for (e = 0; e < 2; e++) {
    gdl_engine eng = e ? GDL_ENGINE_GROUND : GDL_ENGINE_AUTO;
    gdl_set_memory_limit(ctx, gdl_memory_used(ctx));   /* not a byte more */
    st = gdl_use_engine(ctx, eng);
    printf("use-engine-at-limit: gdl_use_engine(%s) = %d (%s)\n",
           e ? "GROUND" : "AUTO", (int)st, gdl_errmsg(ctx));
  }
  gdl_free(ctx);
  return 0;
}
