/*
 * fuzz_infix.c - libFuzzer target (d): the infix reader (grammar/infix_*,
 * Stanford's human-readable GDL) and the checker after it.  The whole
 * input is read as an infix file (a name ending in .hrf) and, when it
 * reads, checked and compiled; then the diagnostics are formatted, and
 * the description is written back as infix and as KIF (gdl_write), which
 * must read again as the same program.  Seeded with the infix puzzles and
 * the golden infix mistakes (FUZZ_SEEDS_infix in the Makefile).
 *
 * The oracle, besides the sanitizers: as for the KIF reader (fuzz_read.c),
 * bad input is refused with an error and good input accepted with none;
 * and a description that compiles, written as infix, compiles again.
 */
#include <stdlib.h>

#include "fuzz.h"

#define INFIX_NAME "no-such-dir/fuzz.hrf"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  gdl_ctx *ctx = gdl_new(), *again;
  gdl_status st;
  const char *diags, *text;
  size_t len;
  if (!ctx)
    return 0;
  gdl_set_memory_limit(ctx, 16u << 20);
  gdl_set_fact_limit(ctx, 10000);
  st = gdl_load_string(ctx, INFIX_NAME, (const char *)data, size);
  if (st == GDL_ELIMIT && size < 65536)
    abort();              /* the reader ran out of a budget it cannot need */
  if (st == GDL_OK)
    st = gdl_compile(ctx, 0);
  diags = gdl_diagnostics(ctx);
  if (st == GDL_EINPUT && (gdl_error_count(ctx) == 0 || !*diags))
    abort();              /* refused without saying why */
  if (st == GDL_OK && gdl_error_count(ctx) != 0)
    abort();              /* accepted with errors */
  if (st == GDL_OK &&
      gdl_write(ctx, GDL_SYNTAX_INFIX, &text, &len) == GDL_OK &&
      (again = gdl_new()) != NULL) {
    gdl_set_memory_limit(again, 32u << 20);
    gdl_set_fact_limit(again, 10000);
    if (gdl_load_string(again, INFIX_NAME, text, len) == GDL_EINPUT ||
        gdl_compile(again, 0) == GDL_EINPUT)
      abort();            /* written as infix, it no longer reads */
    gdl_free(again);
  }
  gdl_free(ctx);
  return 0;
}
