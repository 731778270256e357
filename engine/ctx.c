/*
 * ctx.c - the context made (its symbol and term tables start with the
 * keywords) and its diagnostics: errors and warnings with their place,
 * formatted as FILE:LINE:COL with the source line and a caret.  Memory is
 * mem.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- public: the context ---------------------------------------------- */

static gdl_status init_tables(gdl_ctx *ctx)
{
  static const char *const kw[] = {
    "", "role", "init", "true", "does", "legal", "next", "goal",
    "terminal", "distinct", "not", "or", "<=", "base", "input"
  };
  size_t i;
  PROTECT(ctx);
  for (i = 0; i < S_NKEYWORDS; i++)
    sym_intern(ctx, kw[i], strlen(kw[i]));
  term_sym(ctx, S_NONE);       /* term 0 is "no term" */
  UNPROTECT(ctx);
  return GDL_OK;
}

gdl_ctx *gdl_new(void)
{
  gdl_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    return NULL;
  ctx->fail_after = -1;
  ctx->fact_limit = 20000000;
  if (init_tables(ctx) != GDL_OK) {
    gdl_free(ctx);
    return NULL;
  }
  return ctx;
}

/* ---- diagnostics ------------------------------------------------------ */

#define MAX_ERRORS 50

void diag_add(gdl_ctx *ctx, int sev, uint32_t file, uint32_t start,
              uint32_t end, const char *fmt, ...)
{
  char msg[1024];
  diag_t *d;
  va_list ap;
  if (sev == SEV_ERROR && ctx->nerrors >= MAX_ERRORS) {
    if (ctx->nerrors++ == MAX_ERRORS)
      diag_add(ctx, SEV_NOTE, file, start, end,
               "too many errors; the rest are not shown");
    return;
  }
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  {
    /* the same message at the same place once only (a rule with `or`
     * is checked once per combination of disjuncts) */
    uint32_t i = ctx->ndiags > 64 ? ctx->ndiags - 64 : 0;
    for (; i < ctx->ndiags; i++) {
      d = &ctx->diags[i];
      if (d->file == file && d->start == start && strcmp(d->msg, msg) == 0)
        return;
    }
  }
  GROW(ctx, ctx->diags, ctx->diagcap, ctx->ndiags);
  d = &ctx->diags[ctx->ndiags];
  d->msg = ctx_strdup(ctx, msg, strlen(msg));
  d->sev = (uint8_t)sev;
  d->file = file;
  d->start = start;
  d->end = end < start ? start : end;
  ctx->ndiags++;
  if (sev == SEV_ERROR)
    ctx->nerrors++;
  else if (sev == SEV_WARNING)
    ctx->nwarnings++;
}

void diag_where(const gdl_ctx *ctx, uint32_t file, uint32_t off,
                uint32_t *line, uint32_t *col)
{
  const srcfile_t *f = &ctx->files[file];
  uint32_t i, l = 1, c = 1;
  if (off > f->len)
    off = f->len;
  for (i = 0; i < off; i++) {
    if (f->text[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  *line = l;
  *col = c;
}

/* One diagnostic: the header line, the source line, the caret line.  A
 * span over several lines is underlined to the end of its first line.
 * Control characters in the source line are shown as '?'. */
static void format_diag(gdl_ctx *ctx, strbuf_t *b, const diag_t *d)
{
  static const char *const sevname[] = { "error", "warning", "note" };
  const srcfile_t *f;
  uint32_t line, col, ls, le, i;
  if (d->file == UINT32_MAX) {
    sb_printf(ctx, b, "gdl: %s: %s\n", sevname[d->sev], d->msg);
    return;
  }
  f = &ctx->files[d->file];
  if (d->start == UINT32_MAX) {   /* about the whole description */
    sb_printf(ctx, b, "%s: %s: %s\n", f->name, sevname[d->sev], d->msg);
    return;
  }
  diag_where(ctx, d->file, d->start, &line, &col);
  sb_printf(ctx, b, "%s:%u:%u: %s: %s\n", f->name, line, col,
            sevname[d->sev], d->msg);
  ls = d->start > f->len ? f->len : d->start;
  while (ls > 0 && f->text[ls - 1] != '\n')
    ls--;
  le = ls;
  while (le < f->len && f->text[le] != '\n' && f->text[le] != '\r')
    le++;
  if (le - ls > 400) {    /* a huge line: show a window around the span */
    uint32_t from = d->start > ls + 60 ? d->start - 60 : ls;
    uint32_t to = from + 200 < le ? from + 200 : le;
    sb_puts(ctx, b, "  ...", 5);
    for (i = from; i < to; i++) {
      unsigned char ch = (unsigned char)f->text[i];
      sb_putc(ctx, b, ch < 32 && ch != '\t' ? '?' : (char)ch);
    }
    sb_puts(ctx, b, "...\n     ", 9);
    for (i = from; i < d->start && i < to; i++)
      sb_putc(ctx, b, f->text[i] == '\t' ? '\t' : ' ');
    sb_puts(ctx, b, "^\n", 2);
    return;
  }
  sb_puts(ctx, b, "  ", 2);
  for (i = ls; i < le; i++) {
    unsigned char ch = (unsigned char)f->text[i];
    sb_putc(ctx, b, (ch < 32 && ch != '\t') || ch == 127 ? '?' : (char)ch);
  }
  sb_puts(ctx, b, "\n  ", 3);
  for (i = ls; i < d->start && i < le; i++)
    sb_putc(ctx, b, f->text[i] == '\t' ? '\t' : ' ');
  sb_putc(ctx, b, '^');
  for (i = d->start + 1; i < d->end && i < le; i++)
    sb_putc(ctx, b, '~');
  sb_putc(ctx, b, '\n');
}

const char *gdl_diagnostics(const gdl_ctx *cctx)
{
  gdl_ctx *ctx = (gdl_ctx *)cctx;   /* formatting caches the text */
  uint32_t i;
  jmp_buf jb, *old = ctx->jmp;
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    return "gdl: error: out of memory while formatting messages\n";
  }
  ctx->diagtext.n = 0;
  sb_puts(ctx, &ctx->diagtext, "", 0);
  for (i = 0; i < ctx->ndiags; i++)
    format_diag(ctx, &ctx->diagtext, &ctx->diags[i]);
  ctx->jmp = old;
  return ctx->diagtext.s;
}
