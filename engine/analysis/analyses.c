/*
 * analyses.c - the analyses of one game as one struct (analysis.h): it
 * starts all zero, each analysis is computed into it when first asked
 * (by the getter in the analysis's own file, which may ask the ones below
 * it through the struct), and it is released as a whole here.  gdl_solve
 * owns one, so that nothing of a game's analyses is cached in the
 * context and a solve leaves the context's memory as it found it.
 */
#include <string.h>

#include "analysis/analysis.h"

/* Those built on others first, the kernel last. */
void analyses_free(gdl_ctx *ctx, analyses_t *A)
{
  groups_free(ctx, A->groups);
  bud_free(ctx, A->bud);
  ctx_free(ctx, A->counter_mask);
  ctx_free(ctx, A->counter_tr);
  stub_free(ctx, A->stub);
  est_free(ctx, A->est);
  kern_free(ctx, A->kern);
  memset(A, 0, sizeof *A);
}
