/*
 * ctx.c - the context made (its symbol and term tables start with the
 * keywords) and its diagnostics: errors and warnings with their place,
 * formatted as FILE:LINE:COL with the source line and a caret.  Memory is
 * mem.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

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
  ctx->fail_poll = -1;
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

/* A diagnostic and the notes after it, to be sorted as one. */
typedef struct {
  uint32_t file, start, first, n;
} diag_group;

static int group_order(const void *x, const void *y)
{
  const diag_group *a = x, *b = y;
  if (a->file != b->file)
    return a->file < b->file ? -1 : 1;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return a->first < b->first ? -1 : 1;
}

void diag_sort(gdl_ctx *ctx, uint32_t from)
{
  diag_group *g;
  diag_t *d;
  uint32_t i, n = 0, k = 0;
  if (ctx->ndiags <= from + 1 || ctx->nerrors > MAX_ERRORS)
    return;
  g = ctx_alloc(ctx, (ctx->ndiags - from) * sizeof *g);
  for (i = from; i < ctx->ndiags; i++) {
    if (ctx->diags[i].sev == SEV_NOTE && n > 0) {
      g[n - 1].n++;
      continue;
    }
    g[n].file = ctx->diags[i].file;
    g[n].start = ctx->diags[i].start;
    g[n].first = i;
    g[n].n = 1;
    n++;
  }
  qsort(g, n, sizeof *g, group_order);
  d = ctx_alloc(ctx, (ctx->ndiags - from) * sizeof *d);
  for (i = 0; i < n; i++) {
    memcpy(d + k, ctx->diags + g[i].first, g[i].n * sizeof *d);
    k += g[i].n;
  }
  memcpy(ctx->diags + from, d, k * sizeof *d);
  ctx_free(ctx, d);
  ctx_free(ctx, g);
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

/* Where the last diagnostic formatted was: the next one, usually further
 * on in the same file, is found from there and not from the start, so
 * that formatting the 50 errors of a long file reads it about once.  The
 * walk also notes where the line starts, and its first '\r', so that a
 * message on a long line does not look back along it again. */
typedef struct {
  uint32_t file, off, line, col;
  uint32_t ls;      /* where the line of off starts */
  uint32_t cr;      /* the first '\r' in [ls, off), or UINT32_MAX */
} where_t;

static void where_next(const gdl_ctx *ctx, where_t *w, uint32_t file,
                       uint32_t off)
{
  const srcfile_t *f = &ctx->files[file];
  uint32_t i;
  if (off > f->len)
    off = f->len;
  if (w->file != file || w->off > off) {
    w->file = file;
    w->off = w->ls = 0;
    w->line = w->col = 1;
    w->cr = UINT32_MAX;
  }
  for (i = w->off; i < off; i++) {
    if (f->text[i] == '\n') {
      w->line++;
      w->col = 1;
      w->ls = i + 1;
      w->cr = UINT32_MAX;
    } else {
      w->col++;
      if (f->text[i] == '\r' && w->cr == UINT32_MAX)
        w->cr = i;
    }
  }
  w->off = off;
}

/* Appends n bytes of source text as shown under a message: control
 * characters (but tabs) and DEL as '?'. */
static void put_shown(gdl_ctx *ctx, strbuf_t *b, const char *s, uint32_t n)
{
  uint32_t i, at = b->n;
  sb_puts(ctx, b, s, n);
  for (i = at; i < b->n; i++) {
    unsigned char ch = (unsigned char)b->s[i];
    if ((ch < 32 && ch != '\t') || ch == 127)
      b->s[i] = '?';
  }
}

/* Appends what lines a caret up with n bytes of source text: a tab for a
 * tab, a space for anything else. */
static void put_pad(gdl_ctx *ctx, strbuf_t *b, const char *s, uint32_t n)
{
  uint32_t i, at = b->n;
  sb_puts(ctx, b, s, n);
  for (i = at; i < b->n; i++)
    if (b->s[i] != '\t')
      b->s[i] = ' ';
}

/* One diagnostic: the header line, the source line, the caret line.  A
 * span over several lines is underlined to the end of its first line.
 * Control characters in the source line are shown as '?'. */
static void format_diag(gdl_ctx *ctx, strbuf_t *b, const diag_t *d,
                        where_t *w)
{
  static const char *const sevname[] = { "error", "warning", "note" };
  const srcfile_t *f;
  uint32_t ls, le, upto;
  if (d->file == UINT32_MAX) {
    sb_printf(ctx, b, "gdl: %s: %s\n", sevname[d->sev], d->msg);
    return;
  }
  f = &ctx->files[d->file];
  if (d->start == UINT32_MAX) {   /* about the whole description */
    sb_printf(ctx, b, "%s: %s: %s\n", f->name, sevname[d->sev], d->msg);
    return;
  }
  where_next(ctx, w, d->file, d->start);
  sb_printf(ctx, b, "%s:%u:%u: %s: %s\n", f->name, w->line, w->col,
            sevname[d->sev], d->msg);
  /* the line: from ls to its first '\n' or '\r' (le), which need only be
   * looked for as far as a window would show or as makes the line huge */
  ls = w->ls;
  le = w->cr;
  if (le == UINT32_MAX) {
    uint32_t lim = ls + 401 > w->off + 200 ? ls + 401 : w->off + 200;
    if (lim > f->len)
      lim = f->len;
    for (le = w->off; le < lim; le++)
      if (f->text[le] == '\n' || f->text[le] == '\r')
        break;
  }
  if (le - ls > 400) {    /* a huge line: show a window around the span */
    uint32_t from = d->start > ls + 60 ? d->start - 60 : ls;
    uint32_t to = from + 200 < le ? from + 200 : le;
    sb_puts(ctx, b, "  ...", 5);
    put_shown(ctx, b, f->text + from, to > from ? to - from : 0);
    sb_puts(ctx, b, "...\n     ", 9);
    upto = d->start < to ? d->start : to;
    put_pad(ctx, b, f->text + from, upto > from ? upto - from : 0);
    sb_puts(ctx, b, "^\n", 2);
    return;
  }
  sb_puts(ctx, b, "  ", 2);
  put_shown(ctx, b, f->text + ls, le - ls);
  sb_puts(ctx, b, "\n  ", 3);
  upto = d->start < le ? d->start : le;
  put_pad(ctx, b, f->text + ls, upto > ls ? upto - ls : 0);
  sb_putc(ctx, b, '^');
  upto = d->end < le ? d->end : le;
  if (upto > d->start + 1) {      /* the rest of the span: ~~~ */
    uint32_t at = b->n, n = upto - d->start - 1;
    sb_puts(ctx, b, f->text + d->start + 1, n);
    memset(b->s + at, '~', n);
  }
  sb_putc(ctx, b, '\n');
}

/* A note may point back to an earlier place (where the name meant is
 * defined) and the next diagnostic on again: a few walks, each going
 * forward, the one nearest behind a place taking it (else the one used
 * least lately starting again), keep that from reading the file afresh
 * for each note. */
#define WALKS 4

static void format_all(gdl_ctx *ctx)
{
  where_t w[WALKS];
  uint32_t i, k, used[WALKS] = { 0 };
  for (k = 0; k < WALKS; k++) {
    where_t start = { UINT32_MAX, 0, 1, 1, 0, UINT32_MAX };
    w[k] = start;
  }
  ctx->diagtext.n = 0;
  sb_puts(ctx, &ctx->diagtext, "", 0);
  for (i = 0; i < ctx->ndiags; i++) {
    const diag_t *d = &ctx->diags[i];
    uint32_t best = WALKS, old = 0;
    for (k = 0; k < WALKS; k++) {
      if (w[k].file == d->file && w[k].off <= d->start &&
          (best == WALKS || w[k].off > w[best].off))
        best = k;
      if (used[k] < used[old])
        old = k;
    }
    if (best == WALKS)
      best = old;
    used[best] = i + 1;
    format_diag(ctx, &ctx->diagtext, d, &w[best]);
  }
}

const char *gdl_diagnostics(const gdl_ctx *cctx)
{
  gdl_ctx *ctx = (gdl_ctx *)cctx;   /* formatting caches the text */
  jmp_buf jb, *old = ctx->jmp;
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    return "gdl: error: out of memory while formatting messages\n";
  }
  format_all(ctx);
  ctx->jmp = old;
  return ctx->diagtext.s;
}
