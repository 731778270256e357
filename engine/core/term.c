/*
 * term.c - interned symbols and hash-consed terms.
 *
 * A symbol is a string stored once; its id is its index.  A term is a
 * symbol, a variable (by its index inside a rule) or a function applied to
 * terms; terms are hash-consed, so two equal terms have the same id and
 * equality is one integer comparison everywhere after parsing.  Facts are
 * terms too: the atom (cell 1 1 b) is the term cell(1, 1, b), and a
 * relation is a (functor, arity) pair.  Terms are never freed before the
 * context is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static uint32_t hash_bytes(const char *s, size_t n)
{
  uint32_t h = 2166136261u;
  size_t i;
  for (i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static int32_t parse_num(const char *s, size_t n)
{
  int64_t v = 0;
  size_t i;
  if (n == 0 || n > 9)
    return -1;
  for (i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return -1;
    v = v * 10 + (s[i] - '0');
  }
  if (n > 1 && s[0] == '0')
    return -1;   /* "007" is a symbol, not the number 7 */
  return (int32_t)v;
}

/* ---- symbols ---------------------------------------------------------- */

static void sym_rehash(gdl_ctx *ctx)
{
  uint32_t cap = ctx->symmask ? (ctx->symmask + 1) * 2 : 256, i;
  uint32_t *h = ctx_alloc(ctx, cap * sizeof *h);
  for (i = 1; i < ctx->nsyms; i++) {
    uint32_t j = ctx->syms[i].hash & (cap - 1);
    while (h[j])
      j = (j + 1) & (cap - 1);
    h[j] = i;
  }
  ctx_free(ctx, ctx->symhash);
  ctx->symhash = h;
  ctx->symmask = cap - 1;
}

uint32_t sym_intern(gdl_ctx *ctx, const char *s, size_t n)
{
  uint32_t h = hash_bytes(s, n), j, id;
  sym_t *y;
  if (n > UINT32_MAX / 2)
    ctx_throw(ctx, GDL_ELIMIT, "symbol too long");
  /* open addressing at most half full: a probe meets an empty slot */
  gdl_assert(!ctx->symmask || ctx->nsyms * 2 <= ctx->symmask + 1);
  if (ctx->symmask) {
    for (j = h & ctx->symmask; ctx->symhash[j]; j = (j + 1) & ctx->symmask) {
      y = &ctx->syms[ctx->symhash[j]];
      if (y->hash == h && y->len == n &&
          memcmp(ctx->symtext + y->off, s, n) == 0)
        return ctx->symhash[j];
    }
  }
  GROW(ctx, ctx->symtext, ctx->symtextcap, ctx->symtextlen + (uint32_t)n + 1);
  memcpy(ctx->symtext + ctx->symtextlen, s, n);
  ctx->symtext[ctx->symtextlen + n] = 0;
  GROW(ctx, ctx->syms, ctx->symcap, ctx->nsyms);
  id = ctx->nsyms;
  y = &ctx->syms[id];
  y->off = ctx->symtextlen;
  y->len = (uint32_t)n;
  y->hash = h;
  y->num = parse_num(s, n);
  ctx->symtextlen += (uint32_t)n + 1;
  ctx->nsyms++;
  if (id == 0)
    return 0;   /* symbol 0, "", is "no symbol" and is not hashed */
  if (!ctx->symmask || ctx->nsyms * 2 > ctx->symmask)
    sym_rehash(ctx);
  else {
    for (j = h & ctx->symmask; ctx->symhash[j]; j = (j + 1) & ctx->symmask)
      ;
    ctx->symhash[j] = id;
  }
  return id;
}

const char *sym_text(const gdl_ctx *ctx, uint32_t sym)
{
  return ctx->symtext + ctx->syms[sym].off;
}

uint32_t sym_len(const gdl_ctx *ctx, uint32_t sym)
{
  return ctx->syms[sym].len;
}

/* ---- terms ------------------------------------------------------------ */

/* Each word is folded in with a 64-bit multiply, so that small,
 * consecutive ids (the arguments of (pair 3 4), (pair 4 3), ...) spread
 * over all the bits; murmur3's finaliser then mixes the fold. */
static uint32_t term_hash(int kind, uint32_t sym, uint32_t arity,
                          const gdl_term *args)
{
  uint64_t x = 0x243f6a8885a308d3ull ^ ((uint64_t)kind << 56) ^
               ((uint64_t)arity << 32) ^ sym;
  uint32_t h, i;
  x *= 0x9e3779b97f4a7c15ull;
  for (i = 0; i < arity; i++) {
    x ^= x >> 29;
    x = (x ^ args[i]) * 0x9e3779b97f4a7c15ull;
  }
  h = (uint32_t)(x ^ (x >> 32));
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

static int term_same(const gdl_ctx *ctx, const term_t *t, int kind,
                     uint32_t sym, uint32_t arity, const gdl_term *args)
{
  const gdl_term *a;
  uint32_t i;
  if (t->kind != kind || t->sym != sym || t->arity != arity)
    return 0;
  a = ctx->targs + t->args;
  for (i = 0; i < arity; i++)
    if (a[i] != args[i])
      return 0;
  return 1;
}

static void term_rehash(gdl_ctx *ctx)
{
  uint32_t cap = ctx->termmask ? (ctx->termmask + 1) * 2 : 256, i;
  uint32_t *h = ctx_alloc(ctx, (size_t)cap * sizeof *h);
  for (i = 1; i < ctx->nterms; i++) {
    uint32_t j = ctx->terms[i].hash & (cap - 1);
    while (h[j])
      j = (j + 1) & (cap - 1);
    h[j] = i;
  }
  ctx_free(ctx, ctx->termhash);
  ctx->termhash = h;
  ctx->termmask = cap - 1;
}

static gdl_term term_lookup(const gdl_ctx *ctx, int kind, uint32_t sym,
                            uint32_t arity, const gdl_term *args, uint32_t h)
{
  uint32_t j;
  if (!ctx->termmask)
    return 0;
  gdl_assert(ctx->nterms * 2 <= ctx->termmask + 1);   /* a probe ends */
  for (j = h & ctx->termmask; ctx->termhash[j]; j = (j + 1) & ctx->termmask) {
    const term_t *t = &ctx->terms[ctx->termhash[j]];
    if (t->hash == h && term_same(ctx, t, kind, sym, arity, args))
      return ctx->termhash[j];
  }
  return 0;
}

static gdl_term term_make(gdl_ctx *ctx, int kind, uint32_t sym,
                          uint32_t arity, const gdl_term *args)
{
  uint32_t h = term_hash(kind, sym, arity, args), i, j, id;
  uint32_t oldcap = ctx->termcap;
  term_t *t;
  gdl_term found = term_lookup(ctx, kind, sym, arity, args, h);
  if (found)
    return found;
  gdl_assert(kind != T_FN || arity > 0);     /* f() is the symbol f */
  if (arity > 65535)
    ctx_throw(ctx, GDL_EINPUT, "a term with more than 65535 arguments");
  GROW(ctx, ctx->targs, ctx->targcap, ctx->ntargs + arity);
  GROW(ctx, ctx->terms, ctx->termcap, ctx->nterms);
  if (ctx->termcap != oldcap) {
    ctx->present = ctx_realloc(ctx, ctx->present, ctx->termcap);
    memset(ctx->present + oldcap, 0, ctx->termcap - oldcap);
  }
  id = ctx->nterms;
  t = &ctx->terms[id];
  t->kind = (uint8_t)kind;
  t->sym = sym;
  t->arity = (uint16_t)arity;
  t->args = ctx->ntargs;
  t->hash = h;
  t->ground = kind != T_VAR;
  for (i = 0; i < arity; i++) {
    gdl_assert(args[i] < id);    /* hash-consed: arguments come first */
    ctx->targs[ctx->ntargs++] = args[i];
    if (!ctx->terms[args[i]].ground)
      t->ground = 0;
  }
  ctx->nterms++;
  if (!ctx->termmask || ctx->nterms * 2 > ctx->termmask) {
    term_rehash(ctx);
  } else {
    for (j = h & ctx->termmask; ctx->termhash[j]; j = (j + 1) & ctx->termmask)
      ;
    ctx->termhash[j] = id;
  }
  return id;
}

gdl_term term_sym(gdl_ctx *ctx, uint32_t sym)
{
  return term_make(ctx, T_SYM, sym, 0, NULL);
}

gdl_term term_var(gdl_ctx *ctx, uint32_t index)
{
  return term_make(ctx, T_VAR, index, 0, NULL);
}

gdl_term term_fn(gdl_ctx *ctx, uint32_t f, uint32_t arity,
                 const gdl_term *args)
{
  return arity == 0 ? term_sym(ctx, f) : term_make(ctx, T_FN, f, arity, args);
}

gdl_term term_find(const gdl_ctx *ctx, uint32_t f, uint32_t arity,
                   const gdl_term *args)
{
  int kind = arity == 0 ? T_SYM : T_FN;
  return term_lookup(ctx, kind, f, arity, args,
                     term_hash(kind, f, arity, args));
}

uint32_t term_functor(const gdl_ctx *ctx, gdl_term t)
{
  return ctx->terms[t].sym;
}

uint32_t term_arity(const gdl_ctx *ctx, gdl_term t)
{
  return ctx->terms[t].arity;
}

/* ---- text ------------------------------------------------------------- */

void sb_term(gdl_ctx *ctx, strbuf_t *b, gdl_term t, const uint32_t *varnames)
{
  const term_t *tt = &ctx->terms[t];
  uint32_t i, arity = tt->arity, sym = tt->sym;
  switch (tt->kind) {
  case T_SYM:
    sb_puts(ctx, b, sym_text(ctx, sym), sym_len(ctx, sym));
    return;
  case T_VAR:
    if (varnames)
      sb_puts(ctx, b, sym_text(ctx, varnames[sym]),
              sym_len(ctx, varnames[sym]));
    else
      sb_printf(ctx, b, "?_%u", sym);
    return;
  default:
    sb_putc(ctx, b, '(');
    sb_puts(ctx, b, sym_text(ctx, sym), sym_len(ctx, sym));
    for (i = 0; i < arity; i++) {
      sb_putc(ctx, b, ' ');
      sb_term(ctx, b, TARG(ctx, t, i), varnames);
    }
    sb_putc(ctx, b, ')');
  }
}

const char *term_text(gdl_ctx *ctx, gdl_term t,
                      void (*put)(gdl_ctx *, strbuf_t *, gdl_term, int),
                      int arg)
{
  jmp_buf jb, *old = ctx->jmp;
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    return "?";
  }
  ctx->termtext.n = 0;
  sb_puts(ctx, &ctx->termtext, "", 0);
  put(ctx, &ctx->termtext, t, arg);
  ctx->jmp = old;
  return ctx->termtext.s;
}

static void put_kif(gdl_ctx *ctx, strbuf_t *b, gdl_term t, int unused)
{
  (void)unused;
  sb_term(ctx, b, t, NULL);
}

const char *gdl_term_str(gdl_ctx *ctx, gdl_term t)
{
  return term_text(ctx, t, put_kif, 0);
}

static size_t write_term(const gdl_ctx *ctx, gdl_term t, char *buf, size_t n,
                         size_t at)
{
  const term_t *tt = &ctx->terms[t];
  uint32_t i;
#define PUT(c)                                                           \
  do {                                                                   \
    char c_ = (c);                                                       \
    if (at + 1 < n)                                                      \
      buf[at] = c_;                                                      \
    at++;                                                                \
  } while (0)
  if (tt->kind == T_FN)
    PUT('(');
  {
    char var[16];
    const char *s = sym_text(ctx, tt->sym);
    if (tt->kind == T_VAR) {
      snprintf(var, sizeof var, "?_%u", tt->sym);
      s = var;
    }
    while (*s)
      PUT(*s++);
  }
  if (tt->kind == T_FN) {
    for (i = 0; i < tt->arity; i++) {
      PUT(' ');
      at = write_term(ctx, TARG(ctx, t, i), buf, n, at);
    }
    PUT(')');
  }
#undef PUT
  return at;
}

size_t gdl_term_write(const gdl_ctx *ctx, gdl_term t, char *buf, size_t n)
{
  size_t len = write_term(ctx, t, buf, n, 0);
  if (n)
    buf[len < n ? len : n - 1] = 0;
  return len;
}

/* One term and its KIF text, for term_sort_text. */
typedef struct {
  const char *text;
  gdl_term t;
} textkey_t;

static int cmp_textkey(const void *a, const void *b)
{
  return strcmp(((const textkey_t *)a)->text, ((const textkey_t *)b)->text);
}

/* Every term's text is written once into one buffer, then the terms are
 * sorted by it: the one place gdl orders facts for a person (gdl state,
 * trace, explain, graph). */
void term_sort_text(gdl_ctx *ctx, gdl_term *a, uint32_t n)
{
  strbuf_t b = { NULL, 0, 0 };
  uint32_t *off, i;
  textkey_t *k;
  if (n < 2)
    return;
  off = ctx_alloc(ctx, n * sizeof *off);
  for (i = 0; i < n; i++) {
    off[i] = b.n;
    sb_term(ctx, &b, a[i], NULL);
    sb_putc(ctx, &b, 0);
  }
  k = ctx_alloc(ctx, n * sizeof *k);
  for (i = 0; i < n; i++) {
    k[i].text = b.s + off[i];
    k[i].t = a[i];
  }
  qsort(k, n, sizeof *k, cmp_textkey);
  for (i = 0; i < n; i++)
    a[i] = k[i].t;
  ctx_free(ctx, k);
  ctx_free(ctx, off);
  ctx_free(ctx, b.s);
}

gdl_status gdl_sort_terms(gdl_ctx *ctx, gdl_term *terms, size_t n)
{
  PROTECT(ctx);
  if (n > UINT32_MAX)
    ctx_throw(ctx, GDL_ELIMIT, "too many terms to sort");
  term_sort_text(ctx, terms, (uint32_t)n);
  UNPROTECT(ctx);
  return GDL_OK;
}

int gdl_term_cmp(const gdl_ctx *ctx, gdl_term a, gdl_term b)
{
  const term_t *x, *y;
  uint32_t i;
  if (a == b)
    return 0;
  x = &ctx->terms[a];
  y = &ctx->terms[b];
  if (x->kind != y->kind)
    return x->kind == T_FN ? 1 : y->kind == T_FN ? -1 : x->kind - y->kind;
  if (x->sym != y->sym) {
    const sym_t *p = &ctx->syms[x->sym], *q = &ctx->syms[y->sym];
    int c;
    if (x->kind == T_VAR)
      return x->sym < y->sym ? -1 : 1;
    if (p->num >= 0 && q->num >= 0)
      return p->num < q->num ? -1 : 1;
    if ((p->num >= 0) != (q->num >= 0))
      return p->num >= 0 ? -1 : 1;
    c = strcmp(ctx->symtext + p->off, ctx->symtext + q->off);
    if (c)
      return c;
  }
  if (x->arity != y->arity)
    return x->arity < y->arity ? -1 : 1;
  for (i = 0; i < x->arity; i++) {
    int c = gdl_term_cmp(ctx, TARG(ctx, a, i), TARG(ctx, b, i));
    if (c)
      return c;
  }
  return 0;
}

long gdl_term_int(const gdl_ctx *ctx, gdl_term t)
{
  const term_t *x = &ctx->terms[t];
  return x->kind == T_SYM ? ctx->syms[x->sym].num : -1;
}

uint32_t term_max_var(const gdl_ctx *ctx, gdl_term t)
{
  const term_t *x = &ctx->terms[t];
  uint32_t i, m = 0;
  if (x->ground)
    return 0;
  if (x->kind == T_VAR)
    return x->sym + 1;
  for (i = 0; i < x->arity; i++) {
    uint32_t v = term_max_var(ctx, TARG(ctx, t, i));
    if (v > m)
      m = v;
  }
  return m;
}

/* Marks the variables of t: mark[v] = 1 for each variable index v. */
void term_vars(const gdl_ctx *ctx, gdl_term t, uint8_t *mark)
{
  const term_t *x = &ctx->terms[t];
  uint32_t i;
  if (x->ground)
    return;
  if (x->kind == T_VAR) {
    mark[x->sym] = 1;
    return;
  }
  for (i = 0; i < x->arity; i++)
    term_vars(ctx, TARG(ctx, t, i), mark);
}
