/*
 * fuzz_read.c - libFuzzer target (a): the reader and the checker.  The
 * whole input, NUL bytes and all, is read as one GDL file
 * (gdl_load_string: the flex scanner, the bison parser, includes) and,
 * when it reads, checked and compiled (gdl_compile: keywords, arities,
 * safety, stratification, the GDL restrictions, join orders); then the
 * diagnostics are formatted, carets and all.  Nothing is played and
 * nothing is grounded.  gdl_compile computes the static relations, so a
 * small fact and memory limit keep a description that explodes there
 * cheap.  The first byte's low bit picks GDL_CLEAN.
 *
 * The oracle, besides the sanitizers: a description refused as bad input
 * (GDL_EINPUT) has at least one error with its text, and one accepted
 * has none; and reading (not compiling) a text of less than 64 KB never
 * reaches the 16 MB limit, since what the reader builds grows with the
 * text.
 */
#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  gdl_ctx *ctx = gdl_new();
  gdl_status st;
  const char *diags;
  if (!ctx)
    return 0;
  gdl_set_memory_limit(ctx, 16u << 20);
  gdl_set_fact_limit(ctx, 10000);
  st = gdl_load_string(ctx, FUZZ_NAME, (const char *)data, size);
  if (st == GDL_ELIMIT && size < 65536)
    abort();              /* the reader ran out of a budget it cannot need */
  if (st == GDL_OK)
    st = gdl_compile(ctx, size > 0 && (data[0] & 1) ? GDL_CLEAN : 0);
  diags = gdl_diagnostics(ctx);
  if (st == GDL_EINPUT && (gdl_error_count(ctx) == 0 || !*diags))
    abort();              /* refused without saying why */
  if (st == GDL_OK && gdl_error_count(ctx) != 0)
    abort();              /* accepted with errors */
  gdl_free(ctx);
  return 0;
}
