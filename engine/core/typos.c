/*
 * typos.c - the likely slips of a description that checks clean, each
 * said with the name meant when one is near enough (doc/dialect.md 3.9):
 *
 * - a name read as a relation that nothing defines (always false);
 * - in a game, a name defined as a relation (a fact or a rule's head)
 *   that nothing reads, near a keyword or a name that is read: `inti`
 *   for `init`, `termnal` beside `terminal`, `turnde` beside `turned`;
 * - a variable written once in its rule, near another of its variables
 *   (`?nwe` beside `?new`): the join it was meant for does not happen.
 *
 * Nearness is the optimal string alignment distance: Levenshtein's
 * insertions, deletions and substitutions, plus Damerau's swap of two
 * neighbouring characters, each costing 1 (and no part edited twice), so
 * that `inti` is 1 from `init`.  Whether a distance makes a suggestion is
 * typo_near's policy, which keeps false alarms rare: short names must be
 * 1 apart, names that differ only in their digits are numbered on
 * purpose.  A relation defined only in `;#include`d files is never
 * flagged, nor one read only there: a library may define more than a
 * game uses, and read what a game may leave out.
 *
 * The checker (check.c) records where each name is first defined and
 * read (relseen_t), and asks here for a variable meant in its safety
 * errors (typo_var_meant).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* Names longer than this are not compared. */
#define TYPO_MAX 64
/* The most pairs of relation names compared (names never defined or
 * never read, times the names they may have meant): about a second at
 * worst, and thousands of times what a written game needs. */
#define TYPO_BUDGET (16u << 20)

/* ---- distance --------------------------------------------------------- */

/* The optimal string alignment distance between a and b (bytes, case
 * matters), or a number above max as soon as it must be above max; the
 * names are at most 64 bytes.  A row's least value is at least the
 * lesser of the row before's and 1 + the one before that's (a swap
 * reaches two rows back), so once both are past max, all is. */
static uint32_t osa(const char *a, size_t na, const char *b, size_t nb,
                    uint32_t max)
{
  uint32_t row[3][TYPO_MAX + 1], *pp, *p, *c, least, pleast = 0;
  size_t i, j;
  for (j = 0; j <= nb; j++)
    row[1][j] = (uint32_t)j;
  pp = row[0];            /* row i - 2 */
  p = row[1];             /* row i - 1 */
  c = row[2];             /* row i */
  for (i = 1; i <= na; i++) {
    c[0] = least = (uint32_t)i;
    for (j = 1; j <= nb; j++) {
      uint32_t cost = a[i - 1] != b[j - 1], v = p[j - 1] + cost;
      if (p[j] + 1 < v)
        v = p[j] + 1;
      if (c[j - 1] + 1 < v)
        v = c[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          pp[j - 2] + 1 < v)
        v = pp[j - 2] + 1;
      c[j] = v;
      if (v < least)
        least = v;
    }
    if (least > max && pleast >= max)
      return max + 1;
    pleast = least;
    {
      uint32_t *t = pp;
      pp = p;
      p = c;
      c = t;
    }
  }
  return p[nb];
}

/* The optimal string alignment distance between a and b (bytes, case
 * matters), or UINT32_MAX when either is longer than 64 bytes. */
uint32_t typo_distance(const char *a, size_t na, const char *b, size_t nb)
{
  if (na > TYPO_MAX || nb > TYPO_MAX)
    return UINT32_MAX;
  return osa(a, na, b, nb, UINT32_MAX - 1);
}

/* Whether a and b are the same once their digits are left out. */
static int same_but_digits(const char *a, size_t na, const char *b,
                           size_t nb)
{
  size_t i = 0, j = 0;
  for (;;) {
    while (i < na && a[i] >= '0' && a[i] <= '9')
      i++;
    while (j < nb && b[j] >= '0' && b[j] <= '9')
      j++;
    if (i == na || j == nb)
      return i == na && j == nb;
    if (a[i++] != b[j++])
      return 0;
  }
}

/* Whether the longer of a and b is the shorter with one character typed
 * twice (`bb` for `b`). */
static int doubled(const char *a, size_t na, const char *b, size_t nb)
{
  size_t i;
  if (na < nb) {
    const char *t = a;
    size_t tn = na;
    a = b;
    na = nb;
    b = t;
    nb = tn;
  }
  if (na != nb + 1)
    return 0;
  for (i = 0; i + 1 < na; i++)
    if (a[i] == a[i + 1] && memcmp(a, b, i + 1) == 0 &&
        memcmp(a + i + 2, b + i + 1, na - i - 2) == 0)
      return 1;
  return 0;
}

/* The distance between a and b when b is a likely spelling meant by a,
 * else 0.  The policy: names that differ only in their digits are not
 * (row1, row2); with the shorter name of 3 characters or more, 1 edit
 * is; with 6 or more, 2 edits are; a shorter name (1 or 2 characters)
 * only when one character was typed twice (?bb for ?b). */
uint32_t typo_near(const char *a, size_t na, const char *b, size_t nb)
{
  size_t m = na < nb ? na : nb;
  uint32_t d;
  if (na + 2 < nb || nb + 2 < na || m == 0)
    return 0;
  if (same_but_digits(a, na, b, nb))
    return 0;
  if (na > TYPO_MAX || nb > TYPO_MAX)
    return 0;
  d = osa(a, na, b, nb, 2);
  if (d == 1 && (m >= 3 || doubled(a, na, b, nb)))
    return 1;
  if (d == 2 && m >= 6)
    return 2;
  return 0;
}

/* The same with b a keyword: a's case does not matter, as a keyword's
 * does not. */
static uint32_t near_keyword(const char *a, size_t na, const char *b,
                             size_t nb)
{
  char low[TYPO_MAX];
  size_t i;
  if (na > TYPO_MAX)
    return 0;
  for (i = 0; i < na; i++)
    low[i] = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] + 32) : a[i];
  return typo_near(low, na, b, nb);
}

/* ---- relations -------------------------------------------------------- */

/* The keywords a slip may have meant, as names of relations. */
static int meant_keyword(uint32_t s)
{
  return s != S_NONE && s < S_NKEYWORDS && s != S_NOT && s != S_OR &&
         s != S_IMPLIES;
}

/* The name written at a use: a list's head, or the symbol itself. */
static const gdl_node *name_at(const gdl_node *n)
{
  return n->kind == N_LIST && n->first ? n->first : n;
}

enum { K_UNDEFINED, K_UNREAD, K_VARIABLE };

/* A slip found, to be reported in the order of the files and places. */
typedef struct {
  uint32_t file, start;
  uint8_t kind;
  uint32_t sym, meant;     /* the name written, the one meant or 0 */
  const gdl_node *at;      /* where */
  const gdl_node *other;   /* the place of the name meant, or NULL */
  uint8_t other_read;      /* other is where it is read, not defined */
} slip_t;

typedef struct {
  slip_t *v;
  uint32_t n, cap;
} slips_t;

static void slip_add(gdl_ctx *ctx, slips_t *s, int kind, uint32_t sym,
                     uint32_t meant, const gdl_node *at,
                     const relseen_t *seen)
{
  slip_t *p;
  GROW(ctx, s->v, s->cap, s->n);
  p = &s->v[s->n++];
  p->file = at->file;
  p->start = at->start;
  p->kind = (uint8_t)kind;
  p->sym = sym;
  p->meant = meant;
  p->at = at;
  p->other = NULL;
  p->other_read = 0;
  /* the note: where the name meant is first defined, else read; none
   * for a keyword nothing defines */
  if (meant && seen && seen[meant].def) {
    p->other = name_at(seen[meant].def);
  } else if (meant >= S_NKEYWORDS && seen && seen[meant].read) {
    p->other = name_at(seen[meant].read);
    p->other_read = 1;
  }
}

/* A name a slip may have meant, with what makes most comparisons cheap
 * to refuse: its length and the characters it holds, as bits. */
typedef struct {
  uint32_t sym, len;
  uint64_t chars;
} cand_t;

typedef struct {
  cand_t *v;
  uint32_t n, cap;
} cands_t;

/* The characters of a name as bits (case folded for a keyword).  One
 * edit changes at most two bits (a swap none), so two names whose bits
 * differ in more than twice the distance wanted are not compared. */
static uint64_t char_bits(const char *a, size_t n, int fold)
{
  uint64_t m = 0;
  size_t i;
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)a[i];
    if (fold && c >= 'A' && c <= 'Z')
      c = (unsigned char)(c + 32);
    m |= (uint64_t)1 << (c % 64);
  }
  return m;
}

static int bits_count(uint64_t m)
{
  int n = 0;
  for (; m; m &= m - 1)
    n++;
  return n;
}

static void cand_add(gdl_ctx *ctx, cands_t *c, uint32_t sym)
{
  cand_t *p;
  GROW(ctx, c->v, c->cap, c->n);
  p = &c->v[c->n++];
  p->sym = sym;
  p->len = sym_len(ctx, sym);
  p->chars = char_bits(sym_text(ctx, sym), p->len, 0);
}

/* The candidates, in the order of their symbols (keywords first): for a
 * name read (want 1), the names defined, and true, does and distinct,
 * always there to read; for a name defined (want 2), the names read,
 * and the keywords, which the game reads. */
static void cands_make(gdl_ctx *ctx, const relseen_t *seen, uint32_t nseen,
                       int want, cands_t *out)
{
  uint32_t c;
  for (c = 1; c < nseen; c++) {
    if (c < S_NKEYWORDS) {
      if (!meant_keyword(c) ||
          (want == 1 && !seen[c].def && c != S_TRUE && c != S_DOES &&
           c != S_DISTINCT))
        continue;
    } else if (want == 1 ? !seen[c].def : !seen[c].read) {
      continue;
    }
    cand_add(ctx, out, c);
  }
}

/* The candidate nearest to sym, or 0: the least distance, then a
 * keyword, then the name interned first. */
static uint32_t meant_relation(gdl_ctx *ctx, const cands_t *cands,
                               uint32_t sym)
{
  const char *a = sym_text(ctx, sym);
  size_t na = sym_len(ctx, sym);
  uint64_t bits = char_bits(a, na, 0), folded = char_bits(a, na, 1);
  uint32_t i, best = 0, bestd = 3;
  for (i = 0; i < cands->n; i++) {
    const cand_t *c = &cands->v[i];
    int kw = c->sym < S_NKEYWORDS;
    uint32_t d;
    if (c->sym == sym || na + 2 < c->len || c->len + 2 < na ||
        bits_count((kw ? folded : bits) ^ c->chars) > 2 * (int)(bestd - 1))
      continue;
    d = kw ? near_keyword(a, na, sym_text(ctx, c->sym), c->len)
           : typo_near(a, na, sym_text(ctx, c->sym), c->len);
    if (d && d < bestd) {
      best = c->sym;
      bestd = d;
      if (d == 1)
        break;           /* none nearer, and the rest come later */
    }
  }
  return best;
}

static void find_relation_slips(gdl_ctx *ctx, const relseen_t *seen,
                                uint32_t nseen, slips_t *out)
{
  uint8_t *named = ctx_alloc(ctx, nseen + 1);
  cands_t defined = { NULL, 0, 0 }, read = { NULL, 0, 0 };
  uint64_t nundef = 0, nunread = 0;
  uint32_t s;
  int search;
  for (s = S_NKEYWORDS; s < nseen; s++) {
    nundef += seen[s].read_own && !seen[s].def;
    nunread += seen[s].def_own && !seen[s].read;
  }
  cands_make(ctx, seen, nseen, 1, &defined);
  if (ctx->game_words)
    cands_make(ctx, seen, nseen, 2, &read);
  /* a description with so many names that comparing them would take
   * long (a generated one) gets no suggestions */
  search = nundef * defined.n + nunread * read.n <= TYPO_BUDGET;
  /* read, never defined: always false */
  for (s = S_NKEYWORDS; s < nseen; s++) {
    uint32_t c;
    if (!seen[s].read_own || seen[s].def)
      continue;
    c = search ? meant_relation(ctx, &defined, s) : 0;
    named[c] = 1;
    slip_add(ctx, out, K_UNDEFINED, s, c, seen[s].read_own, seen);
  }
  /* in a game, defined and never read, near a name that is: a rule base
   * is there to be asked, so what it defines needs no reader */
  for (s = S_NKEYWORDS; search && ctx->game_words && s < nseen; s++) {
    uint32_t c;
    if (!seen[s].def_own || seen[s].read || named[s])
      continue;
    c = meant_relation(ctx, &read, s);
    if (c)
      slip_add(ctx, out, K_UNREAD, s, c, name_at(seen[s].def_own), seen);
  }
  ctx_free(ctx, defined.v);
  ctx_free(ctx, read.v);
  ctx_free(ctx, named);
}

/* ---- variables -------------------------------------------------------- */

typedef struct {
  uint32_t sym, count;
  const gdl_node *first;
} var_use;

typedef struct {
  var_use *v;
  uint32_t n, cap;
} var_uses;

static void count_vars(gdl_ctx *ctx, const gdl_node *n, var_uses *u)
{
  const gdl_node *c;
  uint32_t i;
  if (n->kind == N_LIST) {
    for (c = n->first; c; c = c->next)
      count_vars(ctx, c, u);
    return;
  }
  if (n->kind != N_VAR)
    return;
  for (i = 0; i < u->n; i++)
    if (u->v[i].sym == n->sym) {
      u->v[i].count++;
      return;
    }
  GROW(ctx, u->v, u->cap, u->n);
  u->v[u->n].sym = n->sym;
  u->v[u->n].count = 1;
  u->v[u->n].first = n;
  u->n++;
}

/* Whether a name one edit from another was likely mistyped rather than
 * made from it on purpose: two neighbours swapped (?nwe, ?new), a
 * character typed twice (?bb, ?b), or a character changed, left out or
 * added inside the name, not at its start or end, where names are
 * varied on purpose (?xAny and ?yAny, ?type and ?ptype, ?x and ?x2). */
static int var_slip(const char *a, size_t na, const char *b, size_t nb)
{
  size_t p = 0, q = 0, m = na < nb ? na : nb;
  if (doubled(a, na, b, nb))
    return 1;
  while (p < m && a[p] == b[p])
    p++;                        /* common prefix */
  while (q < m - p && a[na - 1 - q] == b[nb - 1 - q])
    q++;                        /* common suffix, not overlapping it */
  if (na == nb) {
    if (p + 2 == na - q && a[p] == b[p + 1] && a[p + 1] == b[p])
      return 1;                 /* a swap */
    return p + 1 == na - q && p > 0 && q > 0;   /* a change inside */
  }
  /* one character more in the longer: it is not the first or last */
  return p > 0 && q > 0;
}

/* The variable among vars nearest to var (names compared without their
 * '?') by one edit that var_slip takes for a slip, or 0. */
uint32_t typo_var_meant(gdl_ctx *ctx, uint32_t var, const uint32_t *vars,
                        uint32_t n)
{
  const char *a = sym_text(ctx, var) + 1;
  size_t na = sym_len(ctx, var) - 1;
  uint32_t i, best = 0, bestd = UINT32_MAX;
  for (i = 0; i < n; i++) {
    uint32_t d;
    if (vars[i] == var)
      continue;
    d = typo_near(a, na, sym_text(ctx, vars[i]) + 1,
                  sym_len(ctx, vars[i]) - 1);
    if (d == 1 && !var_slip(a, na, sym_text(ctx, vars[i]) + 1,
                            sym_len(ctx, vars[i]) - 1))
      d = 0;
    if (d == 1 && d < bestd) {
      best = vars[i];
      bestd = d;
    }
  }
  return best;
}

/* The variables written once in a rule, near another of its variables
 * (var_slip): the join meant was not made.  One whose name starts with
 * '_' (?_x) is written once on purpose.  When both are written once, the
 * later one is reported, naming the earlier. */
static void find_variable_slips(gdl_ctx *ctx, slips_t *out)
{
  const gdl_node *f;
  var_uses u = { NULL, 0, 0 };
  uint32_t *names = NULL, cap = 0;
  for (f = ctx->forms.first; f; f = f->next) {
    uint32_t i, j;
    if (f->kind != N_LIST || !f->first || f->first->kind != N_SYM ||
        f->first->sym != S_IMPLIES)
      continue;
    u.n = 0;
    count_vars(ctx, f, &u);
    if (u.n < 2)
      continue;
    GROW(ctx, names, cap, u.n);
    for (i = 0; i < u.n; i++)
      names[i] = u.v[i].sym;
    for (i = 0; i < u.n; i++) {
      uint32_t m;
      if (u.v[i].count != 1 || sym_text(ctx, u.v[i].sym)[1] == '_')
        continue;
      m = typo_var_meant(ctx, u.v[i].sym, names, u.n);
      if (!m)
        continue;
      for (j = 0; u.v[j].sym != m; j++)
        ;
      if (u.v[j].count == 1 && j > i)
        continue;               /* both once: the later one is reported */
      slip_add(ctx, out, K_VARIABLE, u.v[i].sym, m, u.v[i].first, NULL);
    }
  }
  ctx_free(ctx, u.v);
  ctx_free(ctx, names);
}

/* ---- the report ------------------------------------------------------- */

static int slip_order(const void *x, const void *y)
{
  const slip_t *a = x, *b = y;
  if (a->file != b->file)
    return a->file < b->file ? -1 : 1;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return a->kind < b->kind ? -1 : a->kind > b->kind;
}

static void report(gdl_ctx *ctx, const slip_t *p)
{
  const char *name = sym_text(ctx, p->sym);
  const gdl_node *at = p->at;
  char meant[TYPO_MAX + 80] = "";
  switch (p->kind) {
  case K_UNDEFINED:
    if (p->meant)
      snprintf(meant, sizeof meant, "; did you mean '%s'?",
               sym_text(ctx, p->meant));
    diag_add(ctx, SEV_WARNING, at->file, at->start, at->end,
             "'%s' is used but never defined, so it is always false%s", name,
             meant);
    break;
  case K_UNREAD:
    diag_add(ctx, SEV_WARNING, at->file, at->start, at->end,
             "'%s' is defined but nothing reads it; did you mean %s'%s'?",
             name, p->meant < S_NKEYWORDS ? "the keyword " : "",
             sym_text(ctx, p->meant));
    break;
  default: {
    char var[TYPO_MAX + 8];
    snprintf(var, sizeof var, "%s", infix_var_shown(ctx, at->file, p->sym));
    diag_add(ctx, SEV_WARNING, at->file, at->start, at->end,
             "variable %s is written only once in this rule; did you mean "
             "%s?", var, infix_var_shown(ctx, at->file, p->meant));
    return;
  }
  }
  if (p->other)
    diag_add(ctx, SEV_NOTE, p->other->file, p->other->start, p->other->end,
             "'%s' is %s here", sym_text(ctx, p->meant),
             p->other_read ? "read" : "defined");
}

void typos_report(gdl_ctx *ctx, const relseen_t *seen, uint32_t nseen)
{
  slips_t s = { NULL, 0, 0 };
  uint32_t i;
  find_relation_slips(ctx, seen, nseen, &s);
  find_variable_slips(ctx, &s);
  if (s.n > 1)
    qsort(s.v, s.n, sizeof *s.v, slip_order);
  for (i = 0; i < s.n; i++)
    report(ctx, &s.v[i]);
  ctx_free(ctx, s.v);
}
