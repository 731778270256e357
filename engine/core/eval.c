/*
 * eval.c - bottom-up evaluation: semi-naive Datalog over interned terms.
 *
 * The components of the dependency graph come in evaluation order
 * (strata.c).  A component that is not recursive is evaluated by running
 * each of its rules once.  A recursive one is evaluated semi-naively: once
 * in full, then round after round each rule is joined with one of its
 * recursive body literals restricted to the facts new in the previous round
 * (the delta), until a round adds nothing.  Facts of a relation are kept in
 * insertion order, so the delta is a range [dlo, dhi) of indexes.
 *
 * A join runs the body literals in the order planned by eval_plan.c:
 * positive literals that have a known argument first (looked up through
 * an index on the known arguments, built here the first time it is
 * needed), `not` and `distinct` as soon as their variables are bound.  So
 * the order a rule's body is written in does not matter.  Membership of a
 * ground atom is one byte per term (ctx->present), since terms are
 * hash-consed.
 *
 * Lazy relations.  Some relations are views meant to be asked with some
 * arguments known: chess's (threatened_with_capture ?owner ?cx ?cy ...) or
 * sudoku's exactlyFirst with all of them, mummy maze's (movetoward ?x ?y
 * ?ex ?ey ?card) with all but the last; their full extensions have
 * millions of facts.  A relation that has no facts of its own, is no
 * keyword, could be large, and is not recursive (or is, through itself
 * alone, along a descent that ends: chess's clear_row_ig; eval_plan.c,
 * eval_check_descent) is made lazy when the argument positions that every
 * rule using it binds by other literals, its key, are not none
 * (choose_lazy: the intersection over the uses; an atom without arguments
 * is asked whole).  It is never
 * materialised.  A literal over it, reached with its key arguments bound,
 * is answered top-down: the key is looked up in a memo valid for the
 * current epoch of the relation's phase; when missing, each of its rules
 * is joined with the head's key arguments matched (the plan r->lazy knows
 * them), and every head atom derived goes into the answer list of that key
 * (ctx->lazypool, in the order found, without repeats).  The literal then
 * matches those answers as it would scan facts.  A literal with the whole
 * atom bound, and every `not`, is a test: for a relation whose key is all
 * its arguments, the rules are joined with the head matched to the atom
 * and the first instance answers (remembered per atom); for one with a
 * smaller key, the atom is looked for among its key's answers.  A question
 * (gdl_query) or grounding materialises them again (eval_unlazy).
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static void eval_scc(gdl_ctx *ctx, const scc_t *s);

/* ---- indexes ---------------------------------------------------------- */

static void idx_put(gdl_ctx *ctx, index_t *ix, gdl_term key, uint32_t fi)
{
  uint32_t j;
  gdl_assert(key != 0 && ((ix->mask + 1) & ix->mask) == 0);
  if (ix->used * 2 >= ix->mask) {
    uint32_t cap = (ix->mask + 1) * 2, k;
    uint32_t *h = ctx_alloc(ctx, cap * sizeof *h);
    uint32_t *v = ctx_alloc(ctx, cap * sizeof *v);
    for (k = 0; k <= ix->mask; k++) {
      if (!ix->head[k])
        continue;
      for (j = (ix->head[k] * 2654435761u) & (cap - 1); h[j];
           j = (j + 1) & (cap - 1))
        ;
      h[j] = ix->head[k];
      v[j] = ix->val[k];
    }
    ctx_free(ctx, ix->head);
    ctx_free(ctx, ix->val);
    ix->head = h;
    ix->val = v;
    ix->mask = cap - 1;
  }
  GROW(ctx, ix->chain, ix->chaincap, fi);
  for (j = (key * 2654435761u) & ix->mask; ix->head[j];
       j = (j + 1) & ix->mask) {
    if (ix->head[j] == key) {
      ix->chain[fi] = ix->val[j];
      ix->val[j] = fi + 1;
      return;
    }
  }
  ix->head[j] = key;
  ix->val[j] = fi + 1;
  ix->chain[fi] = 0;
  ix->used++;
  gdl_assert(ix->used * 2 <= ix->mask + 1);     /* a probe ends */
}

static uint32_t idx_first(const index_t *ix, gdl_term key)
{
  uint32_t j;
  for (j = (key * 2654435761u) & ix->mask; ix->head[j];
       j = (j + 1) & ix->mask)
    if (ix->head[j] == key)
      return ix->val[j];
  return 0;
}

/* The key of an index on several arguments (the bits of cols) for these
 * argument values: a hash, never 0; facts that share one by chance are
 * told apart by matching, as for any index. */
static uint32_t cols_key(const gdl_term *args, uint32_t cols)
{
  uint32_t h = 0, i;
  for (i = 0; cols; i++, cols >>= 1)
    if (cols & 1)
      h = (h ^ args[i]) * 0x9E3779B1u + i;
  h ^= h >> 15;
  return h ? h : 1;
}

/* The key of a fact in an index: the argument, or a sub-argument (0 when
 * the argument has no such part: the fact is not in the index, and no
 * pattern that needs the part can match it), or the hash of several. */
static gdl_term fact_key(const gdl_ctx *ctx, gdl_term atom, const index_t *ix)
{
  gdl_term a;
  const term_t *t;
  if (ix->cols)
    return cols_key(ctx->targs + ctx->terms[atom].args, ix->cols);
  a = TARG(ctx, atom, (uint32_t)ix->arg);
  t = &ctx->terms[a];
  if (ix->sub == IDX_FUNCTOR)
    return t->kind == T_VAR ? 0 : eval_functor_key(t);
  if (ix->sub < 0)
    return a;
  return t->kind == T_FN && t->arity > (uint32_t)ix->sub
             ? ctx->targs[t->args + (uint32_t)ix->sub] : 0;
}

static void idx_add(gdl_ctx *ctx, index_t *ix, gdl_term atom, uint32_t fi)
{
  gdl_term k = fact_key(ctx, atom, ix);
  if (k)
    idx_put(ctx, ix, k, fi);
  else {
    GROW(ctx, ix->chain, ix->chaincap, fi);
    ix->chain[fi] = 0;
  }
}

static index_t *idx_built(gdl_ctx *ctx, uint32_t r, uint32_t slot)
{
  rel_t *rel = &ctx->rels[r];
  index_t *ix = &rel->idx[slot];
  uint32_t i;
  if (!ix->head) {
    ix->mask = 15;
    ix->head = ctx_alloc(ctx, 16 * sizeof *ix->head);
    ix->val = ctx_alloc(ctx, 16 * sizeof *ix->val);
    for (i = 0; i < rel->n; i++)
      idx_add(ctx, ix, rel->facts[i], i);
  }
  return ix;
}

/* The slot of the index on (arg, sub), or on the arguments cols, of a
 * relation, made when new; the plans name indexes by slot, and they are
 * built when first used. */
int32_t eval_index_slot(gdl_ctx *ctx, uint32_t r, int arg, int sub,
                        uint32_t cols)
{
  rel_t *rel = &ctx->rels[r];
  uint32_t i;
  for (i = 0; i < rel->nidx; i++)
    if (rel->idx[i].arg == arg && rel->idx[i].sub == sub &&
        rel->idx[i].cols == cols)
      return (int32_t)i;
  rel->idx = ctx_realloc(ctx, rel->idx, (rel->nidx + 1) * sizeof *rel->idx);
  memset(&rel->idx[rel->nidx], 0, sizeof *rel->idx);
  rel->idx[rel->nidx].arg = (int16_t)arg;
  rel->idx[rel->nidx].sub = (int16_t)sub;
  rel->idx[rel->nidx].cols = cols;
  return (int32_t)rel->nidx++;
}

/* ---- facts ------------------------------------------------------------ */

int eval_insert(gdl_ctx *ctx, uint32_t r, gdl_term atom)
{
  rel_t *rel = &ctx->rels[r];
  uint32_t a;
  gdl_assert(ctx->terms[atom].kind != T_VAR &&     /* an atom of r */
             ctx->terms[atom].sym == rel->sym &&
             ctx->terms[atom].arity == rel->arity);
  if (ctx->present[atom])
    return 0;
  if (ctx->nfacts >= ctx->fact_limit)
    ctx_throw(ctx, GDL_ELIMIT, "more than %zu facts derived at once "
              "(relation %s/%u keeps growing)", ctx->fact_limit,
              sym_text(ctx, rel->sym), rel->arity);
  GROW(ctx, rel->facts, rel->cap, rel->n);
  rel->facts[rel->n] = atom;
  for (a = 0; a < rel->nidx; a++)
    if (rel->idx[a].head)
      idx_add(ctx, &rel->idx[a], atom, rel->n);
  rel->n++;
  ctx->present[atom] = 1;
  ctx->nfacts++;
  return 1;
}

void eval_drop(gdl_ctx *ctx, uint32_t r)
{
  rel_t *rel = &ctx->rels[r];
  uint32_t i, a;
  gdl_assert(ctx->nfacts >= rel->n);
  for (i = 0; i < rel->n; i++) {
    gdl_assert(ctx->present[rel->facts[i]]);   /* present: its facts */
    ctx->present[rel->facts[i]] = 0;
  }
  ctx->nfacts -= rel->n;
  rel->n = 0;
  for (a = 0; a < rel->nidx; a++) {
    index_t *ix = &rel->idx[a];
    if (!ix->used)
      continue;
    if (ix->mask > 4095 && ix->used * 8 < ix->mask) {
      /* a table grown for far more facts than it holds (after
       * grounding's relaxed fixpoint): let it be built afresh */
      ctx_free(ctx, ix->head);
      ctx_free(ctx, ix->val);
      ctx_free(ctx, ix->chain);
      ix->head = ix->val = ix->chain = NULL;
      ix->chaincap = ix->mask = 0;
    } else {
      memset(ix->head, 0, (ix->mask + 1) * sizeof *ix->head);
    }
    ix->used = 0;
  }
}

/* The facts of the relations of phase `phase` and after dropped (with
 * dirty: only `true`'s, the move phase's and those marked), and their
 * phases' memo entries with a new epoch. */
static void drop_phase(gdl_ctx *ctx, int phase, const uint8_t *dirty)
{
  uint32_t r, i;
  for (i = (uint32_t)phase; i < 3; i++) {
    ctx->epoch[i]++;
    if (i != P_STATIC)           /* static answers hold for good */
      ctx->lazypooln[i] = 0;
  }
  for (r = 0; r < ctx->nrels; r++) {
    const rel_t *R = &ctx->rels[r];
    if (R->phase >= phase && R->n &&
        (!dirty || r == ctx->r_true || R->phase == P_MOVE || dirty[r]))
      eval_drop(ctx, r);
  }
}

void eval_clear(gdl_ctx *ctx, int phase)
{
  if (phase <= P_STATE)
    ctx->state_whole = 0;
  drop_phase(ctx, phase, NULL);
}

void eval_clear_dirty(gdl_ctx *ctx, const uint8_t *dirty)
{
  drop_phase(ctx, P_STATE, dirty);
}

/* ---- matching --------------------------------------------------------- */

int eval_match(gdl_ctx *ctx, gdl_term p, gdl_term g)
{
  const term_t *tp = &ctx->terms[p], *tg;
  const gdl_term *pa, *ga;
  uint32_t i;
  if (tp->ground)
    return p == g;
  if (tp->kind == T_VAR) {
    gdl_term *b = &ctx->bind[tp->sym];
    if (*b)
      return *b == g;
    *b = g;
    ctx->trail[ctx->ntrail++] = tp->sym;
    return 1;
  }
  tg = &ctx->terms[g];
  if (tg->kind != T_FN || tg->sym != tp->sym || tg->arity != tp->arity)
    return 0;
  pa = ctx->targs + tp->args;
  ga = ctx->targs + tg->args;
  for (i = 0; i < tp->arity; i++) {
    /* constants and variables here; only structures recurse */
    const term_t *ta = &ctx->terms[pa[i]];
    if (ta->ground) {
      if (pa[i] != ga[i])
        return 0;
    } else if (ta->kind == T_VAR) {
      gdl_term *b = &ctx->bind[ta->sym];
      if (*b) {
        if (*b != ga[i])
          return 0;
      } else {
        *b = ga[i];
        ctx->trail[ctx->ntrail++] = ta->sym;
      }
    } else if (!eval_match(ctx, pa[i], ga[i])) {
      return 0;
    }
  }
  return 1;
}

static void undo(gdl_ctx *ctx, uint32_t mark)
{
  while (ctx->ntrail > mark)
    ctx->bind[ctx->trail[--ctx->ntrail]] = 0;
}

void eval_undo(gdl_ctx *ctx, uint32_t mark)
{
  undo(ctx, mark);
}

void eval_reserve(gdl_ctx *ctx, uint32_t nvars)
{
  if (nvars > ctx->bindcap) {
    ctx->bind = ctx_realloc(ctx, ctx->bind, nvars * sizeof *ctx->bind);
    ctx->trail = ctx_realloc(ctx, ctx->trail, nvars * sizeof *ctx->trail);
    ctx->bindcap = nvars;
  }
}

/* The pattern with the bindings put in; with create = 0, 0 when that term
 * does not exist (so no fact can be it). */
static gdl_term subst(gdl_ctx *ctx, gdl_term p, int create)
{
  const term_t *t = &ctx->terms[p];
  gdl_term args[32], *argv = args, r;
  uint32_t i, arity = t->arity, sym = t->sym, off = t->args;
  if (t->ground)
    return p;
  if (t->kind == T_VAR)
    return ctx->bind[t->sym];
  if (arity > 32)
    argv = ctx_alloc(ctx, arity * sizeof *argv);
  for (i = 0; i < arity; i++) {
    argv[i] = subst(ctx, ctx->targs[off + i], create);
    if (!argv[i]) {
      if (argv != args)
        ctx_free(ctx, argv);
      return 0;
    }
  }
  r = create ? term_fn(ctx, sym, arity, argv)
             : term_find(ctx, sym, arity, argv);
  if (argv != args)
    ctx_free(ctx, argv);
  return r;
}

gdl_term eval_subst(gdl_ctx *ctx, gdl_term p, int create)
{
  return subst(ctx, p, create);
}

/* The key of the index on arguments `cols` that facts matching pattern
 * pat (those arguments bound) have; 0 when no fact can match. */
static gdl_term pattern_key(gdl_ctx *ctx, gdl_term pat, uint32_t cols)
{
  gdl_term v[32];
  uint32_t a;
  for (a = 0; a < 32 && (cols >> a); a++)
    if (((cols >> a) & 1) && !(v[a] = subst(ctx, TARG(ctx, pat, a), 0)))
      return 0;
  return cols_key(v, cols);
}

/* ---- lazy relations --------------------------------------------------- */

static void join(gdl_ctx *ctx, const rule_t *r, const plan_t *p, uint32_t i,
                 int delta);

/* What emit() does with a rule instance while a lazy relation is asked. */
enum { LAZY_OFF, LAZY_TEST, LAZY_COLLECT };

/* The answers found for one key, in the order found, without repeats (a
 * hash set over them once there are more than a few). */
struct lazyout {
  gdl_term *v;
  uint32_t n, cap;
  uint32_t *set;         /* slot -> answer, 0 empty; NULL while n <= 8 */
  uint32_t mask;
};

/* The memo: what a lazy relation answered, keyed by the relation, what
 * was asked (M_HOLDS: an atom, its arguments' values; M_KEY: the answers
 * for the values of its key arguments; M_MEMBER: an atom among its key's
 * answers, the atom) and those values, in one open-addressing table per
 * phase.  Entries are valid for one epoch of the relation's phase (static
 * ones for good); one of another epoch is a free slot.  That keeps probing
 * right without clearing the table: an entry was put at the first free
 * slot of its probe when it was put, and the entries before it there are
 * of the same epoch, so they stay.  Keyed by values, not by the atom, so
 * that a test builds no term (hash-consing chess's tested atoms was a
 * third of its time). */
enum { M_HOLDS, M_KEY, M_MEMBER };

struct lazymemo {
  uint32_t epoch, hash;
  uint32_t tag;          /* relation * 4 + what was asked */
  uint32_t koff;         /* its values in lkeys[phase] */
  uint32_t val;          /* M_HOLDS, M_MEMBER: 1 holds, 2 not; M_KEY: the
                            offset of the answers in lazypool[phase] */
};

static uint32_t lazy_epoch(const gdl_ctx *ctx, const rel_t *R)
{
  return R->phase == P_STATIC ? 1 : ctx->epoch[R->phase] + 2;
}

static uint32_t memo_hash(uint32_t tag, const gdl_term *v, uint32_t n)
{
  uint32_t h = tag * 2654435761u, i;
  for (i = 0; i < n; i++)
    h = (h ^ v[i]) * 0x01000193u + (h >> 15);
  return h ^ (h >> 16);
}

/* The entry for (tag, v[0..n)) in phase ph as of epoch ep, or NULL. */
static const struct lazymemo *memo_get(const gdl_ctx *ctx, int ph,
                                       uint32_t ep, uint32_t tag,
                                       const gdl_term *v, uint32_t n,
                                       uint32_t h)
{
  const struct lazymemo *m = ctx->lmemo[ph];
  uint32_t j, mask = ctx->lmemomask[ph];
  if (!m)
    return NULL;
  for (j = h & mask; m[j].epoch == ep; j = (j + 1) & mask)
    if (m[j].hash == h && m[j].tag == tag &&
        memcmp(ctx->lkeys[ph] + m[j].koff, v, n * sizeof *v) == 0)
      return &m[j];
  return NULL;
}

static void memo_put(gdl_ctx *ctx, int ph, uint32_t ep, uint32_t tag,
                     const gdl_term *v, uint32_t n, uint32_t h, uint32_t val)
{
  struct lazymemo *m;
  uint32_t j, mask;
  if (ctx->lmemoep[ph] != ep) {        /* a new epoch: all slots free */
    ctx->lmemoep[ph] = ep;
    ctx->lmemoused[ph] = 0;
    ctx->lkeysn[ph] = 0;
  }
  if (!ctx->lmemo[ph] || (ctx->lmemoused[ph] + 1) * 2 > ctx->lmemomask[ph]) {
    uint32_t cap = ctx->lmemo[ph] ? (ctx->lmemomask[ph] + 1) * 2 : 1024, k;
    struct lazymemo *old = ctx->lmemo[ph];
    m = ctx_alloc(ctx, cap * sizeof *m);    /* epoch 0: free */
    for (k = 0; old && k <= ctx->lmemomask[ph]; k++)
      if (old[k].epoch == ep) {
        for (j = old[k].hash & (cap - 1); m[j].epoch == ep;
             j = (j + 1) & (cap - 1))
          ;
        m[j] = old[k];
      }
    ctx_free(ctx, old);
    ctx->lmemo[ph] = m;
    ctx->lmemomask[ph] = cap - 1;
  }
  m = ctx->lmemo[ph];
  mask = ctx->lmemomask[ph];
  for (j = h & mask; m[j].epoch == ep; j = (j + 1) & mask)
    ;
  GROW(ctx, ctx->lkeys[ph], ctx->lkeyscap[ph], ctx->lkeysn[ph] + n);
  COPY(ctx->lkeys[ph] + ctx->lkeysn[ph], v, n * sizeof *v);
  m[j].epoch = ep;
  m[j].hash = h;
  m[j].tag = tag;
  m[j].koff = ctx->lkeysn[ph];
  m[j].val = val;
  ctx->lkeysn[ph] += n;
  ctx->lmemoused[ph]++;
}

/* A nested evaluation runs in the middle of another rule's join: its
 * bindings are put aside (a block returned), and given back after. */
static gdl_term *bind_save(gdl_ctx *ctx, uint32_t *ntrail)
{
  uint32_t n = ctx->bindcap;
  gdl_term *save = ctx_alloc(ctx, (size_t)n * 2 * sizeof *save);
  COPY(save, ctx->bind, n * sizeof *save);
  COPY(save + n, ctx->trail, n * sizeof *save);
  *ntrail = ctx->ntrail;
  return save;
}

static void bind_restore(gdl_ctx *ctx, gdl_term *save, uint32_t ntrail)
{
  uint32_t n = ctx->bindcap;
  COPY(ctx->bind, save, n * sizeof *save);
  COPY(ctx->trail, save + n, n * sizeof *save);
  ctx->ntrail = ntrail;
  ctx_free(ctx, save);
}

/* The values of pattern pat's arguments (those of key, when not NULL)
 * as bound now, into v; their number.  An argument that is a structure
 * not built yet is built: a rule may still derive it. */
static uint32_t lazy_values(gdl_ctx *ctx, const rel_t *R, gdl_term pat,
                            const uint8_t *key, gdl_term *v)
{
  uint32_t a, n = 0;
  for (a = 0; a < R->arity; a++)
    if (!key || key[a]) {
      v[n] = subst(ctx, TARG(ctx, pat, a), 1);
      if (!v[n])                 /* the plan binds every key argument */
        ctx_throw(ctx, GDL_ELIMIT, "internal error: relation %s/%u asked "
                  "with argument %u unknown", sym_text(ctx, R->sym),
                  R->arity, a + 1);
      n++;
    }
  return n;
}

/* Matches the arguments of rule r's head (those of key, when not NULL)
 * to the values v, binding its variables; 0 when they do not match. */
static int head_match(gdl_ctx *ctx, const rule_t *r, const uint8_t *key,
                      const gdl_term *v)
{
  uint32_t a, n = 0, arity = ctx->rels[r->rel].arity;
  memset(ctx->bind, 0, (r->nvars + 1) * sizeof *ctx->bind);
  ctx->ntrail = 0;
  for (a = 0; a < arity; a++)
    if (!key || key[a])
      if (!eval_match(ctx, TARG(ctx, r->head, a), v[n++]))
        return 0;
  return 1;
}

/* Whether the atom of lazy relation rel whose arguments have the values
 * v holds: its rules joined with the head matched, until one instance. */
static int lazy_holds(gdl_ctx *ctx, uint32_t rel, const gdl_term *v)
{
  rel_t *R = &ctx->rels[rel];
  uint32_t ep = lazy_epoch(ctx, R), i, trail, tag = rel * 4 + M_HOLDS;
  uint32_t h = memo_hash(tag, v, R->arity);
  const struct lazymemo *m = memo_get(ctx, R->phase, ep, tag, v, R->arity, h);
  gdl_term *save;
  int found = 0, mode = ctx->lazy_mode, was = ctx->lazy_found;
  if (m)
    return m->val == 1;
  POLL(ctx);
  save = bind_save(ctx, &trail);
  ctx->lazy_mode = LAZY_TEST;
  for (i = ctx->rfirst[rel]; i != UINT32_MAX && !found; i = ctx->rnext[i]) {
    const rule_t *r = &ctx->rules[i];
    if (!r->nbody || !head_match(ctx, r, NULL, v))
      continue;
    ctx->lazy_found = 0;
    join(ctx, r, &r->lazy, 0, 0);
    found = ctx->lazy_found;
  }
  ctx->lazy_mode = mode;
  ctx->lazy_found = was;
  bind_restore(ctx, save, trail);
  memo_put(ctx, R->phase, ep, tag, v, R->arity, h, found ? 1 : 2);
  return found;
}

static void out_set_put(struct lazyout *o, gdl_term h)
{
  uint32_t j;
  for (j = (h * 2654435761u) & o->mask; o->set[j]; j = (j + 1) & o->mask)
    ;
  o->set[j] = h;
}

/* Adds an answer found for the key being asked (LAZY_COLLECT). */
static void lazy_collect(gdl_ctx *ctx, struct lazyout *o, gdl_term h)
{
  uint32_t i, j;
  if (o->set) {
    for (j = (h * 2654435761u) & o->mask; o->set[j]; j = (j + 1) & o->mask)
      if (o->set[j] == h)
        return;
  } else {
    for (i = 0; i < o->n; i++)
      if (o->v[i] == h)
        return;
  }
  GROW(ctx, o->v, o->cap, o->n);
  o->v[o->n++] = h;
  if (o->n > 8 && o->n * 2 > o->mask) {
    uint32_t cap = o->mask ? (o->mask + 1) * 2 : 32;
    uint32_t *set = ctx_alloc(ctx, cap * sizeof *set);
    ctx_free(ctx, o->set);
    o->set = set;
    o->mask = cap - 1;
    for (i = 0; i < o->n; i++)
      out_set_put(o, o->v[i]);
  } else if (o->set) {
    out_set_put(o, h);
  }
}

/* The atoms of lazy relation rel that match the key arguments of pattern
 * pat (as bound now): an offset in ctx->lazypool[phase], where the count
 * is followed by the atoms, found by joining each of its rules with the
 * head's key arguments matched, and remembered for the epoch. */
static uint32_t lazy_answers(gdl_ctx *ctx, uint32_t rel, gdl_term pat)
{
  rel_t *R = &ctx->rels[rel];
  uint32_t ep = lazy_epoch(ctx, R), ph = R->phase, i, trail, off, n, h;
  uint32_t tag = rel * 4 + M_KEY;
  gdl_term vbuf[32], *v = R->arity > 32 ?
      ctx_alloc(ctx, R->arity * sizeof *v) : vbuf, *save;
  const struct lazymemo *m;
  struct lazyout out, *prev = ctx->lazy_out;
  int mode = ctx->lazy_mode;
  n = lazy_values(ctx, R, pat, R->lazykey, v);
  h = memo_hash(tag, v, n);
  m = memo_get(ctx, (int)ph, ep, tag, v, n, h);
  if (m) {
    off = m->val;
    goto done;
  }
  POLL(ctx);
  memset(&out, 0, sizeof out);
  save = bind_save(ctx, &trail);
  ctx->lazy_mode = LAZY_COLLECT;
  ctx->lazy_out = &out;
  for (i = ctx->rfirst[rel]; i != UINT32_MAX; i = ctx->rnext[i]) {
    const rule_t *r = &ctx->rules[i];
    if (r->nbody && head_match(ctx, r, R->lazykey, v))
      join(ctx, r, &r->lazy, 0, 0);
  }
  ctx->lazy_mode = mode;
  ctx->lazy_out = prev;
  bind_restore(ctx, save, trail);
  off = ctx->lazypooln[ph];
  GROW(ctx, ctx->lazypool[ph], ctx->lazypoolcap[ph], off + out.n);
  ctx->lazypool[ph][off] = out.n;
  COPY(ctx->lazypool[ph] + off + 1, out.v, out.n * sizeof *out.v);
  ctx->lazypooln[ph] = off + out.n + 1;
  ctx_free(ctx, out.v);
  ctx_free(ctx, out.set);
  memo_put(ctx, (int)ph, ep, tag, v, n, h, off);
done:
  if (v != vbuf)
    ctx_free(ctx, v);
  return off;
}

/* Whether the atom of pattern pat (every variable bound) holds, for a lazy
 * relation asked by a key smaller than the atom: it is among the answers
 * for its key, which the other atoms with that key share. */
static int lazy_member(gdl_ctx *ctx, uint32_t rel, gdl_term pat)
{
  const rel_t *R = &ctx->rels[rel];
  uint32_t ph = R->phase, ep = lazy_epoch(ctx, R), off, n, j, h;
  uint32_t tag = rel * 4 + M_MEMBER;
  const struct lazymemo *m;
  gdl_term t;
  int found = 0;
  off = lazy_answers(ctx, rel, pat);
  n = ctx->lazypool[ph][off];
  t = subst(ctx, pat, 0);        /* an answer is a term that exists */
  if (!t || n == 0)
    return 0;
  if (n <= 16) {
    for (j = 1; j <= n && !found; j++)
      found = ctx->lazypool[ph][off + j] == t;
    return found;
  }
  h = memo_hash(tag, &t, 1);     /* remember it rather than scan again */
  m = memo_get(ctx, (int)ph, ep, tag, &t, 1, h);
  if (m)
    return m->val == 1;
  for (j = 1; j <= n && !found; j++)
    found = ctx->lazypool[ph][off + j] == t;
  memo_put(ctx, (int)ph, ep, tag, &t, 1, h, found ? 1 : 2);
  return found;
}

/* Whether the atom of pattern pat (every variable bound) of lazy relation
 * rel holds. */
static int lazy_test(gdl_ctx *ctx, uint32_t rel, gdl_term pat)
{
  const rel_t *R = &ctx->rels[rel];
  gdl_term vbuf[32], *v;
  int found;
  if (R->nkey < R->arity)
    return lazy_member(ctx, rel, pat);
  v = R->arity > 32 ? ctx_alloc(ctx, R->arity * sizeof *v) : vbuf;
  lazy_values(ctx, R, pat, NULL, v);
  found = lazy_holds(ctx, rel, v);
  if (v != vbuf)
    ctx_free(ctx, v);
  return found;
}

/* ---- joins ------------------------------------------------------------ */

static void emit(gdl_ctx *ctx, const rule_t *r)
{
  gdl_term h;
  if (ctx->lazy_mode) {          /* a lazy relation asked */
    if (ctx->lazy_mode == LAZY_TEST)
      ctx->lazy_found = 1;       /* one instance is enough */
    else
      lazy_collect(ctx, ctx->lazy_out, subst(ctx, r->head, 1));
    return;
  }
  if (ctx->grounding) {          /* instantiating: ground.c records it */
    ctx->grounding(ctx, r);
    return;
  }
  if (r->rel == ctx->r_next) {
    /* (next X): X is usually a fluent already known, and its `next` atom
     * is remembered per fluent */
    gdl_term x = subst(ctx, TARG(ctx, r->head, 0), 1);
    if (x >= ctx->nextwrapcap || !ctx->nextwrap[x]) {
      gdl_term w = term_fn(ctx, S_NEXT, 1, &x);
      GROW(ctx, ctx->nextwrap, ctx->nextwrapcap, x);
      ctx->nextwrap[x] = w;
    }
    h = ctx->nextwrap[x];
  } else {
    h = subst(ctx, r->head, 1);
  }
  if (ctx->tracer)
    ctx->tracer->fact(ctx, r, h, eval_insert(ctx, r->rel, h));
  else
    eval_insert(ctx, r->rel, h);
}

/* Step i of a plan, a literal over a lazy relation: a test under `not`
 * or when the plan has bound its whole atom, else a scan of the answers
 * for its key.  (Apart from join(), whose every other step is hotter.) */
static void join_lazy(gdl_ctx *ctx, const rule_t *r, const plan_t *p,
                      uint32_t i, int delta)
{
  const step_t *s = &p->steps[i];
  const lit_t *l = &r->body[s->lit];
  uint32_t ph = ctx->rels[l->rel].phase, off, j, mark = ctx->ntrail;
  if (l->kind == L_NEG) {
    if (!lazy_test(ctx, l->rel, l->a))
      join(ctx, r, p, i + 1, delta);
    return;
  }
  if (s->key == -2) {
    if (lazy_test(ctx, l->rel, l->a))
      join(ctx, r, p, i + 1, delta);
    return;
  }
  off = lazy_answers(ctx, l->rel, l->a);
  for (j = 1; j <= ctx->lazypool[ph][off]; j++) {
    POLL(ctx);                   /* (the pool may move while joining) */
    if (eval_match(ctx, l->a, ctx->lazypool[ph][off + j]))
      join(ctx, r, p, i + 1, delta);
    undo(ctx, mark);
  }
}

static void join(gdl_ctx *ctx, const rule_t *r, const plan_t *p, uint32_t i,
                 int delta)
{
  const step_t *s;
  const lit_t *l;
  if (i == p->n) {
    emit(ctx, r);
    return;
  }
  if (ctx->lazy_mode == LAZY_TEST && ctx->lazy_found)
    return;                      /* the test is answered */
  s = &p->steps[i];
  l = &r->body[s->lit];
  switch (l->kind) {
  case L_POS: {
    uint32_t lo = 0, hi = ctx->rels[l->rel].n, fi, mark = ctx->ntrail;
    if (ctx->rels[l->rel].lazy) {
      join_lazy(ctx, r, p, i, delta);
      return;
    }
    if (delta && i == 0) {
      lo = ctx->rels[l->rel].dlo;
      hi = ctx->rels[l->rel].dhi;
    }
    if (s->key == -2) {          /* every variable is bound: a lookup */
      gdl_term t = subst(ctx, l->a, 0);
      if (t && ctx->present[t])
        join(ctx, r, p, i + 1, delta);
      return;
    }
    if (s->key >= 0) {
      gdl_term k = s->cols ? pattern_key(ctx, l->a, s->cols)
                   : s->fkey ? s->fkey : subst(ctx, s->keypat, 0);
      uint32_t next;
      if (!k)
        return;
      next = idx_first(idx_built(ctx, l->rel, (uint32_t)s->key), k);
      while (next) {
        POLL(ctx);
        fi = next - 1;
        next = ctx->rels[l->rel].idx[s->key].chain[fi];
        if (fi >= hi)
          continue;
        if (fi < lo)
          break;
        if (eval_match(ctx, l->a, ctx->rels[l->rel].facts[fi]))
          join(ctx, r, p, i + 1, delta);
        undo(ctx, mark);
      }
      return;
    }
    for (fi = lo; fi < hi; fi++) {
      POLL(ctx);
      if (eval_match(ctx, l->a, ctx->rels[l->rel].facts[fi]))
        join(ctx, r, p, i + 1, delta);
      undo(ctx, mark);
    }
    return;
  }
  case L_NEG: {
    const rel_t *nr = &ctx->rels[l->rel];
    if (nr->lazy && !(ctx->relaxed && nr->phase != P_STATIC)) {
      join_lazy(ctx, r, p, i, delta);
      return;
    }
    if (ctx->relaxed && nr->phase != P_STATIC) {
      /* over-approximating: what depends on the state may be false */
      join(ctx, r, p, i + 1, delta);
      return;
    }
    if (nr->n <= 4) {
      /* a few facts (the moves of `does`): matching them is cheaper than
       * building the atom to look it up */
      uint32_t fi, mark = ctx->ntrail;
      for (fi = 0; fi < nr->n; fi++) {
        int m = eval_match(ctx, l->a, nr->facts[fi]);
        undo(ctx, mark);
        if (m)
          return;
      }
      join(ctx, r, p, i + 1, delta);
      return;
    }
    {
      gdl_term t = subst(ctx, l->a, 0);
      if (!t || !ctx->present[t])
        join(ctx, r, p, i + 1, delta);
    }
    return;
  }
  case L_DISTINCT:
  case L_EQUAL: {
    /* both sides are ground; hash-consing makes equality an id test,
     * and a side that is not an existing term differs from one that is */
    gdl_term a = subst(ctx, l->a, 1), b = subst(ctx, l->b, 1);
    if ((a != b) == (l->kind == L_DISTINCT))
      join(ctx, r, p, i + 1, delta);
    return;
  }
  }
}

static void run_rule(gdl_ctx *ctx, const rule_t *r, const plan_t *p,
                     int delta)
{
  memset(ctx->bind, 0, (r->nvars + 1) * sizeof *ctx->bind);
  ctx->ntrail = 0;
  join(ctx, r, p, 0, delta);
}

/* A question asks for every fact of relation `rel` (or of every relation,
 * rel < 0): the lazy relations it depends on, itself included, stop being
 * lazy and are evaluated in full, in order, up to the phase the database
 * holds.  A relation made lazy stays safe only while its callers are, so
 * the whole dependency cone goes together; relations outside it keep
 * their tests.  (Their plans stay valid: a literal planned as a test is
 * then an ordinary one.) */
void eval_unlazy(gdl_ctx *ctx, int upto, int rel)
{
  uint8_t *cone = ctx_alloc(ctx, ctx->nrels + 1);
  uint32_t i, j;
  int changed = 1;
  ctx->state_whole = 0;          /* until a state is computed whole */
  ctx->lazy_mode = LAZY_OFF;
  ctx->lazy_out = NULL;
  for (i = 0; i < ctx->nrels; i++)
    cone[i] = rel < 0 || (int)i == rel;
  while (changed) {
    changed = 0;
    for (i = 0; i < ctx->nrules; i++) {
      const rule_t *r = &ctx->rules[i];
      if (!cone[r->rel])
        continue;
      for (j = 0; j < r->nbody; j++) {
        const lit_t *l = &r->body[j];
        if ((l->kind == L_POS || l->kind == L_NEG) && !cone[l->rel]) {
          cone[l->rel] = 1;
          changed = 1;
        }
      }
    }
  }
  for (i = 0; i < ctx->nrels; i++)
    cone[i] = cone[i] && ctx->rels[i].lazy;
  for (i = 0; i < ctx->nrels; i++)
    if (cone[i]) {
      ctx->rels[i].lazy = 0;
      ctx->nlazy--;
    }
  for (i = 0; i < ctx->nsccs; i++) {
    const scc_t *s = &ctx->sccs[i];
    if (s->phase <= upto && s->nrules && s->nrels == 1 && cone[s->rels[0]])
      eval_scc(ctx, s);
  }
  ctx_free(ctx, cone);
}

/* Whether the descent edges of lazy relation R (the facts of its static
 * relations, argument i to argument j) make a cycle: Kahn's algorithm
 * over the terms they link.  A static relation that is itself lazy has
 * no facts to look at, and counts as one. */
static int descent_cycle(gdl_ctx *ctx, const rel_t *R)
{
  uint32_t n = ctx->nterms + 1, k, f, ne = 0, nq = 0, left = 0;
  uint32_t *indeg, *first, *adj, *queue;
  int cyc;
  for (k = 0; k < R->ndescent; k++) {
    if (ctx->rels[R->descent[3 * k]].lazy)
      return 1;
    ne += ctx->rels[R->descent[3 * k]].n;
  }
  indeg = ctx_alloc(ctx, n * sizeof *indeg);
  first = ctx_alloc(ctx, (n + 1) * sizeof *first);
  adj = ctx_alloc(ctx, (ne + 1) * sizeof *adj);
  queue = ctx_alloc(ctx, n * sizeof *queue);
  memset(indeg, 0, n * sizeof *indeg);
  memset(first, 0, (n + 1) * sizeof *first);
  for (k = 0; k < R->ndescent; k++) {       /* out-degrees, then offsets */
    const rel_t *S = &ctx->rels[R->descent[3 * k]];
    for (f = 0; f < S->n; f++)
      first[TARG(ctx, S->facts[f], R->descent[3 * k + 1]) + 1]++;
  }
  for (k = 1; k <= n; k++)
    first[k] += first[k - 1];
  for (k = 0; k < R->ndescent; k++) {
    const rel_t *S = &ctx->rels[R->descent[3 * k]];
    for (f = 0; f < S->n; f++) {
      gdl_term u = TARG(ctx, S->facts[f], R->descent[3 * k + 1]);
      gdl_term v = TARG(ctx, S->facts[f], R->descent[3 * k + 2]);
      adj[--first[u + 1]] = v;     /* filled from the end of u's block */
      indeg[v]++;
    }
  }
  for (k = 0; k < n; k++)              /* first[u+1] is now u's start */
    if (first[k + 1] < (k + 2 <= n ? first[k + 2] : ne) || indeg[k]) {
      left++;
      if (!indeg[k])
        queue[nq++] = k;
    }
  for (f = 0; f < nq; f++) {
    uint32_t u = queue[f], end = u + 2 <= n ? first[u + 2] : ne;
    left--;
    for (k = first[u + 1]; k < end; k++)
      if (--indeg[adj[k]] == 0)
        queue[nq++] = adj[k];
  }
  cyc = left != 0;
  ctx_free(ctx, indeg);
  ctx_free(ctx, first);
  ctx_free(ctx, adj);
  ctx_free(ctx, queue);
  return cyc;
}

void eval_check_descent(gdl_ctx *ctx)
{
  uint32_t i;
  for (i = 0; i < ctx->nrels; i++)
    if (ctx->rels[i].lazy && ctx->rels[i].ndescent &&
        descent_cycle(ctx, &ctx->rels[i]))
      eval_unlazy(ctx, P_STATIC, (int)i);
}

void eval_rule(gdl_ctx *ctx, const rule_t *r)
{
  run_rule(ctx, r, &r->full, 0);
}

/* A recursive component's rounds after the first: each rule joined with
 * one of its recursive literals restricted to the facts new in the round
 * before, until a round adds nothing. */
static void scc_rounds(gdl_ctx *ctx, const scc_t *s)
{
  uint32_t i, j, more, round = 1;
  for (;;) {
    more = 0;
    for (i = 0; i < s->nrels; i++) {
      rel_t *rel = &ctx->rels[s->rels[i]];
      gdl_assert(rel->dhi <= rel->n);    /* facts are only added here */
      rel->dlo = rel->dhi;
      rel->dhi = rel->n;
      if (rel->dhi > rel->dlo)
        more = 1;
    }
    if (!more)
      return;
    ctx_poll(ctx);
    if (ctx->tracer)
      ctx->tracer->round(ctx, s, ++round);
    for (i = 0; i < s->nrules; i++) {
      const rule_t *r = &ctx->rules[s->rules[i]];
      for (j = 0; j < r->nbody; j++) {
        const lit_t *l = &r->body[j];
        if (l->kind == L_POS && l->rec &&
            ctx->rels[l->rel].dhi > ctx->rels[l->rel].dlo)
          run_rule(ctx, r, &r->delta[j], 1);
      }
    }
  }
}

static void eval_scc(gdl_ctx *ctx, const scc_t *s)
{
  uint32_t i;
  if (ctx->tracer)
    ctx->tracer->round(ctx, s, 1);
  for (i = 0; i < s->nrels; i++)
    ctx->rels[s->rels[i]].dhi = ctx->rels[s->rels[i]].n;
  for (i = 0; i < s->nrules; i++) {
    const rule_t *r = &ctx->rules[s->rules[i]];
    run_rule(ctx, r, &r->full, 0);
  }
  if (s->recursive)
    scc_rounds(ctx, s);
}

/* A component evaluated again over a database that has only grown since
 * its relations' facts were counted in since[] (see eval_phase_since):
 * each rule is joined once per positive literal with new facts, that
 * literal restricted to them, and then recursion goes on as in the first
 * evaluation.  Recursive literals are among them: components are of
 * rules, and a relation's other rules may be in an earlier one. */
static void scc_since(gdl_ctx *ctx, const scc_t *s, const uint32_t *since)
{
  uint32_t i, j;
  for (i = 0; i < s->nrels; i++)
    ctx->rels[s->rels[i]].dhi = ctx->rels[s->rels[i]].n;
  for (i = 0; i < s->nrules; i++) {
    rule_t *r = &ctx->rules[s->rules[i]];
    for (j = 0; j < r->nbody; j++) {
      const lit_t *l = &r->body[j];
      rel_t *R = &ctx->rels[l->rel];
      uint32_t lo, hi;
      if (l->kind != L_POS || R->phase == P_STATIC ||
          since[l->rel] >= R->n)
        continue;
      gdl_assert(r->delta[j].n);   /* planned for grounding */
      lo = R->dlo;
      hi = R->dhi;
      R->dlo = since[l->rel];
      R->dhi = R->n;
      run_rule(ctx, r, &r->delta[j], 1);
      R->dlo = lo;
      R->dhi = hi;
    }
  }
  if (s->recursive)
    scc_rounds(ctx, s);
}

void eval_phase_since(gdl_ctx *ctx, int phase, const uint32_t *since)
{
  uint32_t i;
  if (!since) {
    eval_phase(ctx, phase);
    return;
  }
  for (i = 0; i < ctx->nsccs; i++) {
    const scc_t *s = &ctx->sccs[i];
    if (s->phase == phase && s->nrules &&
        !(s->nrels == 1 && ctx->rels[s->rels[0]].lazy))
      scc_since(ctx, s, since);
  }
}

void eval_phase_dirty(gdl_ctx *ctx, int phase, const uint8_t *dirty)
{
  uint32_t i, j;
  ctx->lazy_mode = LAZY_OFF;     /* after a limit stopped a nested one */
  ctx->lazy_out = NULL;
  for (i = 0; i < ctx->nsccs; i++) {
    const scc_t *s = &ctx->sccs[i];
    int run = !dirty;
    if (s->phase != phase || !s->nrules ||
        (s->nrels == 1 && ctx->rels[s->rels[0]].lazy))
      continue;
    for (j = 0; j < s->nrels && !run; j++)
      run = dirty[s->rels[j]];
    if (run)
      eval_scc(ctx, s);
  }
}

void eval_phase(gdl_ctx *ctx, int phase)
{
  eval_phase_dirty(ctx, phase, NULL);
}
