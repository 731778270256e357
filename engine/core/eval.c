/*
 * eval.c - bottom-up evaluation: semi-naive Datalog over interned terms.
 *
 * The components of the dependency graph come in evaluation order
 * (check.c).  A component that is not recursive is evaluated by running
 * each of its rules once.  A recursive one is evaluated semi-naively: once
 * in full, then round after round each rule is joined with one of its
 * recursive body literals restricted to the facts new in the previous round
 * (the delta), until a round adds nothing.  Facts of a relation are kept in
 * insertion order, so the delta is a range [dlo, dhi) of indexes.
 *
 * A join runs the body literals in a planned order: positive literals that
 * have a known argument first (looked up through an index on the known
 * arguments, built the first time it is needed), `not` and `distinct` as
 * soon as their variables are bound.  So the order a rule's body is
 * written in does not matter.  Membership of a ground atom is one byte per
 * term (ctx->present), since terms are hash-consed.
 *
 * Lazy relations.  Some relations are views meant to be asked with some
 * arguments known: chess's (threatened_with_capture ?owner ?cx ?cy ...) or
 * sudoku's exactlyFirst with all of them, mummy maze's (movetoward ?x ?y
 * ?ex ?ey ?card) with all but the last; their full extensions have
 * millions of facts.  A relation that is not recursive, has no facts of
 * its own, is no keyword, and could be large (size_bound) is made lazy
 * when the argument positions that every rule using it binds by other
 * literals, its key, are not none (choose_lazy: the intersection over the
 * uses; an atom without arguments is asked whole).  It is never
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
  if (ix->sub < 0)
    return a;
  t = &ctx->terms[a];
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
static int32_t idx_slot(gdl_ctx *ctx, uint32_t r, int arg, int sub,
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
  for (i = 0; i < rel->n; i++)
    ctx->present[rel->facts[i]] = 0;
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

void eval_clear(gdl_ctx *ctx, int phase)
{
  uint32_t r, i;
  for (i = (uint32_t)phase; i < 3; i++) {
    ctx->epoch[i]++;
    if (i != P_STATIC)           /* static answers hold for good */
      ctx->lazypooln[i] = 0;
  }
  for (r = 0; r < ctx->nrels; r++)
    if (ctx->rels[r].phase >= phase && ctx->rels[r].n)
      eval_drop(ctx, r);
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

/* Memo entries are valid for one epoch of the relation's phase (static
 * ones for good). */
static uint32_t lazy_epoch(const gdl_ctx *ctx, const rel_t *R)
{
  return R->phase == P_STATIC ? 1 : ctx->epoch[R->phase] + 2;
}

/* Makes room in the memo for term t. */
static void lazy_memo_room(gdl_ctx *ctx, gdl_term t)
{
  uint32_t old = ctx->lazycap;
  if (t < old)
    return;
  GROW(ctx, ctx->lazyepoch, ctx->lazycap, t);
  ctx->lazyval = ctx_realloc(ctx, ctx->lazyval, ctx->lazycap);
  memset(ctx->lazyval + old, 0, ctx->lazycap - old);
  ctx->lazyans = ctx_realloc(ctx, ctx->lazyans,
                             ctx->lazycap * sizeof *ctx->lazyans);
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

/* Whether the ground atom t of lazy relation rel holds. */
static int lazy_holds(gdl_ctx *ctx, uint32_t rel, gdl_term t)
{
  rel_t *R = &ctx->rels[rel];
  uint32_t ep = lazy_epoch(ctx, R), i, trail;
  gdl_term *save;
  int found = 0, mode = ctx->lazy_mode, was = ctx->lazy_found;
  if (t < ctx->lazycap && ctx->lazyepoch[t] == ep)
    return ctx->lazyval[t] == 1;
  POLL(ctx);
  save = bind_save(ctx, &trail);
  ctx->lazy_mode = LAZY_TEST;
  for (i = 0; i < ctx->nrules && !found; i++) {
    const rule_t *r = &ctx->rules[i];
    if (r->rel != rel)
      continue;
    memset(ctx->bind, 0, (r->nvars + 1) * sizeof *ctx->bind);
    ctx->ntrail = 0;
    if (!eval_match(ctx, r->head, t))
      continue;
    ctx->lazy_found = 0;
    join(ctx, r, &r->lazy, 0, 0);
    found = ctx->lazy_found;
  }
  ctx->lazy_mode = mode;
  ctx->lazy_found = was;
  bind_restore(ctx, save, trail);
  lazy_memo_room(ctx, t);
  ctx->lazyepoch[t] = ep;
  ctx->lazyval[t] = found ? 1 : 2;
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

/* The key of a literal over lazy relation R with the current bindings: the
 * atom with its key arguments' values and a variable elsewhere.  Not
 * ground, so never a fact nor an atom lazy_holds() remembers. */
static gdl_term lazy_key(gdl_ctx *ctx, const rel_t *R, gdl_term pat)
{
  gdl_term args[32], *argv = args, hole = term_var(ctx, 0), k;
  uint32_t i;
  if (R->arity > 32)
    argv = ctx_alloc(ctx, R->arity * sizeof *argv);
  for (i = 0; i < R->arity; i++) {
    argv[i] = R->lazykey[i] ? subst(ctx, TARG(ctx, pat, i), 1) : hole;
    if (!argv[i])                /* the plan binds every key argument */
      ctx_throw(ctx, GDL_ELIMIT, "internal error: relation %s/%u asked "
                "with key argument %u unknown", sym_text(ctx, R->sym),
                R->arity, i + 1);
  }
  k = term_fn(ctx, R->sym, R->arity, argv);
  if (argv != args)
    ctx_free(ctx, argv);
  return k;
}

/* The atoms of lazy relation rel that match the key arguments of pattern
 * pat (as bound now): an offset in ctx->lazypool[phase], where the count
 * is followed by the atoms, found by joining each of its rules with the
 * head's key arguments matched, and remembered for the epoch. */
static uint32_t lazy_answers(gdl_ctx *ctx, uint32_t rel, gdl_term pat)
{
  rel_t *R = &ctx->rels[rel];
  uint32_t ep = lazy_epoch(ctx, R), ph = R->phase, i, a, trail, off;
  gdl_term key = lazy_key(ctx, R, pat), *save;
  struct lazyout out, *prev = ctx->lazy_out;
  int mode = ctx->lazy_mode;
  if (key < ctx->lazycap && ctx->lazyepoch[key] == ep)
    return ctx->lazyans[key];
  POLL(ctx);
  memset(&out, 0, sizeof out);
  save = bind_save(ctx, &trail);
  ctx->lazy_mode = LAZY_COLLECT;
  ctx->lazy_out = &out;
  for (i = 0; i < ctx->nrules; i++) {
    const rule_t *r = &ctx->rules[i];
    if (r->rel != rel)
      continue;
    memset(ctx->bind, 0, (r->nvars + 1) * sizeof *ctx->bind);
    ctx->ntrail = 0;
    for (a = 0; a < R->arity; a++)
      if (R->lazykey[a] &&
          !eval_match(ctx, TARG(ctx, r->head, a), TARG(ctx, key, a)))
        break;
    if (a == R->arity)
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
  lazy_memo_room(ctx, key);
  ctx->lazyepoch[key] = ep;
  ctx->lazyans[key] = off;
  return off;
}

/* Whether the atom of pattern pat (every variable bound) holds, for a lazy
 * relation asked by a key smaller than the atom: it is among the answers
 * for its key, which the other atoms with that key share. */
static int lazy_member(gdl_ctx *ctx, uint32_t rel, gdl_term pat)
{
  const rel_t *R = &ctx->rels[rel];
  uint32_t ph = R->phase, ep = lazy_epoch(ctx, R), off, n, j;
  gdl_term t;
  int found = 0;
  off = lazy_answers(ctx, rel, pat);
  n = ctx->lazypool[ph][off];
  t = subst(ctx, pat, 0);        /* an answer is a term that exists */
  if (!t || n == 0)
    return 0;
  if (n > 16 && t < ctx->lazycap && ctx->lazyepoch[t] == ep)
    return ctx->lazyval[t] == 1;
  for (j = 1; j <= n && !found; j++)
    found = ctx->lazypool[ph][off + j] == t;
  if (n > 16) {                  /* remember it rather than scan again */
    lazy_memo_room(ctx, t);
    ctx->lazyepoch[t] = ep;
    ctx->lazyval[t] = found ? 1 : 2;
  }
  return found;
}

/* Whether the atom of pattern pat (every variable bound) of lazy relation
 * rel holds. */
static int lazy_test(gdl_ctx *ctx, uint32_t rel, gdl_term pat)
{
  const rel_t *R = &ctx->rels[rel];
  if (R->nkey < R->arity)
    return lazy_member(ctx, rel, pat);
  return lazy_holds(ctx, rel, subst(ctx, pat, 1));
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
                           : subst(ctx, s->keypat, 0);
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

void eval_rule(gdl_ctx *ctx, const rule_t *r)
{
  run_rule(ctx, r, &r->full, 0);
}

static void eval_scc(gdl_ctx *ctx, const scc_t *s)
{
  uint32_t i, j, more, round = 1;
  if (ctx->tracer)
    ctx->tracer->round(ctx, s, round);
  for (i = 0; i < s->nrels; i++)
    ctx->rels[s->rels[i]].dhi = ctx->rels[s->rels[i]].n;
  for (i = 0; i < s->nrules; i++) {
    const rule_t *r = &ctx->rules[s->rules[i]];
    run_rule(ctx, r, &r->full, 0);
  }
  if (!s->recursive)
    return;
  for (;;) {
    more = 0;
    for (i = 0; i < s->nrels; i++) {
      rel_t *rel = &ctx->rels[s->rels[i]];
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
        if (r->delta[j].n && ctx->rels[l->rel].dhi > ctx->rels[l->rel].dlo)
          run_rule(ctx, r, &r->delta[j], 1);
      }
    }
  }
}

void eval_phase(gdl_ctx *ctx, int phase)
{
  uint32_t i;
  ctx->lazy_mode = LAZY_OFF;     /* after a limit stopped a nested one */
  ctx->lazy_out = NULL;
  for (i = 0; i < ctx->nsccs; i++) {
    const scc_t *s = &ctx->sccs[i];
    if (s->phase == phase && s->nrules &&
        !(s->nrels == 1 && ctx->rels[s->rels[0]].lazy))
      eval_scc(ctx, s);
  }
}

/* ---- planning --------------------------------------------------------- */

static void mark_vars(const gdl_ctx *ctx, gdl_term t, uint8_t *bound)
{
  const term_t *x = &ctx->terms[t];
  uint32_t i;
  if (x->ground)
    return;
  if (x->kind == T_VAR) {
    bound[x->sym] = 1;
    return;
  }
  for (i = 0; i < x->arity; i++)
    mark_vars(ctx, TARG(ctx, t, i), bound);
}

static int all_bound(const gdl_ctx *ctx, gdl_term t, const uint8_t *bound)
{
  const term_t *x = &ctx->terms[t];
  uint32_t i;
  if (x->ground)
    return 1;
  if (x->kind == T_VAR)
    return bound[x->sym];
  for (i = 0; i < x->arity; i++)
    if (!all_bound(ctx, TARG(ctx, t, i), bound))
      return 0;
  return 1;
}

/* Where to look for a positive literal's matches: -2 when the whole atom
 * is known (a lookup); else an index on the arguments whose values are
 * known (all of them together when there are several: a plan with many
 * head variables known, as a lazy relation's, relies on each of them), or
 * failing that on a known part of an argument (so that
 * (true (cell ?x ?y b)) with ?x known looks only at the cells of row ?x);
 * else -1, a scan. */
static void pick_key(gdl_ctx *ctx, uint32_t rel, gdl_term atom,
                     const uint8_t *bound, int allow_lookup, step_t *s)
{
  const term_t *x = &ctx->terms[atom];
  uint32_t i, j;
  s->key = -1;
  s->keypat = 0;
  s->cols = 0;
  if (allow_lookup && all_bound(ctx, atom, bound)) {
    s->key = -2;
    return;
  }
  if (x->kind != T_FN)
    return;
  {
    uint32_t cols = 0, n = 0;
    for (i = 0; i < x->arity && i < 32; i++)
      if (all_bound(ctx, TARG(ctx, atom, i), bound)) {
        cols |= 1u << i;
        n++;
      }
    if (n >= 2) {
      s->keypat = atom;
      s->cols = cols;
      s->key = idx_slot(ctx, rel, -1, -1, cols);
      return;
    }
  }
  for (i = 0; i < x->arity; i++)
    if (all_bound(ctx, TARG(ctx, atom, i), bound)) {
      s->keypat = TARG(ctx, atom, i);
      s->key = idx_slot(ctx, rel, (int)i, -1, 0);
      return;
    }
  for (i = 0; i < ctx->terms[atom].arity; i++) {
    gdl_term a = TARG(ctx, atom, i);
    if (ctx->terms[a].kind != T_FN)
      continue;
    for (j = 0; j < ctx->terms[a].arity && j < 32767; j++)
      if (all_bound(ctx, TARG(ctx, a, j), bound)) {
        s->keypat = TARG(ctx, a, j);
        s->key = idx_slot(ctx, rel, (int)i, (int)j, 0);
        return;
      }
  }
}

/* Whether the key arguments of a literal over a lazy relation are bound
 * (all of them for a relation asked with every argument known). */
static int key_bound(const gdl_ctx *ctx, const lit_t *l, const uint8_t *bound)
{
  const rel_t *R = &ctx->rels[l->rel];
  uint32_t k;
  if (R->nkey == R->arity)
    return all_bound(ctx, l->a, bound);
  for (k = 0; k < R->arity; k++)
    if (R->lazykey[k] && !all_bound(ctx, TARG(ctx, l->a, k), bound))
      return 0;
  return 1;
}

static void place(gdl_ctx *ctx, const rule_t *r, plan_t *p, uint32_t li,
                  uint8_t *bound, uint8_t *placed, int first)
{
  const lit_t *l = &r->body[li];
  step_t *s = &p->steps[p->n++];
  s->lit = li;
  s->key = -1;
  s->keypat = 0;
  s->cols = 0;
  if (l->kind == L_POS)
    pick_key(ctx, l->rel, l->a, bound, !first, s);
  if (l->kind == L_POS)
    mark_vars(ctx, l->a, bound);
  placed[li] = 1;
}

static int ready(const gdl_ctx *ctx, const lit_t *l, const uint8_t *bound)
{
  switch (l->kind) {
  case L_POS:
    return ctx->rels[l->rel].lazy && key_bound(ctx, l, bound);
  case L_NEG:
    return all_bound(ctx, l->a, bound);
  case L_DISTINCT:
  case L_EQUAL:
    return all_bound(ctx, l->a, bound) && all_bound(ctx, l->b, bound);
  default:
    return 0;
  }
}

/* A guess at the number of facts of a relation: exact for static
 * relations once they are evaluated; the number of roles for `does`; a
 * board's worth for `true`; the facts written plus a thousand per rule
 * otherwise. */
static double rel_size(const gdl_ctx *ctx, uint32_t rel)
{
  const rel_t *r = &ctx->rels[rel];
  if (rel == ctx->r_does)
    return 2;
  if (rel == ctx->r_true)
    return 100;
  if (r->phase == P_STATIC && ctx->statics_done)
    return r->n;
  return r->nfactrules + 1000.0 * r->nrules;
}

/* The expected number of matches of a positive literal, given what is
 * bound: a full lookup costs least; each known argument divides. */
static double lit_cost(const gdl_ctx *ctx, const lit_t *l,
                       const uint8_t *bound)
{
  const term_t *x = &ctx->terms[l->a];
  double c = rel_size(ctx, l->rel);
  uint32_t k;
  if (all_bound(ctx, l->a, bound))
    return c < 0.5 ? c : 0.5;
  if (x->kind == T_FN)
    for (k = 0; k < x->arity; k++) {
      gdl_term a = TARG(ctx, l->a, k);
      if (all_bound(ctx, a, bound))
        c /= 8;
      else if (ctx->terms[a].kind == T_FN) {
        uint32_t j;
        c /= 2;   /* a structure to match is some filter too */
        for (j = 0; j < ctx->terms[a].arity; j++)
          if (all_bound(ctx, TARG(ctx, a, j), bound))
            c /= 4;
      }
    }
  return c;
}

/* Greedy join order: filters, and literals over lazy relations, as soon
 * as they can run; then the positive literal expected to match least, ties
 * going to the one written first.  With head_key, the head's key
 * arguments are known (a lazy relation asked by key). */
static void make_plan(gdl_ctx *ctx, const rule_t *r, int first, plan_t *p,
                      const uint8_t *head_key)
{
  uint8_t *bound = ctx_alloc(ctx, r->nvars + 1);
  uint8_t *placed = ctx_alloc(ctx, r->nbody + 1);
  uint32_t i;
  if (!p->steps)
    p->steps = ctx_arena(ctx, (r->nbody + 1) * sizeof *p->steps);
  p->n = 0;
  if (head_key)
    for (i = 0; i < ctx->rels[r->rel].arity; i++)
      if (head_key[i])
        mark_vars(ctx, TARG(ctx, r->head, i), bound);
  if (first >= 0)
    place(ctx, r, p, (uint32_t)first, bound, placed, 1);
  for (;;) {
    int best = -1;
    double bestcost = 0;
    for (i = 0; i < r->nbody; i++)
      if (!placed[i] && ready(ctx, &r->body[i], bound))
        place(ctx, r, p, i, bound, placed, 0);
    for (i = 0; i < r->nbody; i++) {
      double c;
      if (placed[i] || r->body[i].kind != L_POS ||
          ctx->rels[r->body[i].rel].lazy)
        continue;
      c = lit_cost(ctx, &r->body[i], bound);
      if (best < 0 || c < bestcost) {
        bestcost = c;
        best = (int)i;
      }
    }
    for (i = 0; best < 0 && i < r->nbody; i++)
      if (!placed[i] && r->body[i].kind == L_POS)
        best = (int)i;   /* lazy, key unknown: only in a plan that runs
                            once the relation is materialised */
    if (best < 0)
      break;
    place(ctx, r, p, (uint32_t)best, bound, placed, 0);
  }
  for (i = 0; i < r->nbody; i++)   /* unsafe leftovers; the checker stops */
    if (!placed[i])                /* these, but stay total */
      place(ctx, r, p, i, bound, placed, 0);
  ctx_free(ctx, bound);
  ctx_free(ctx, placed);
}

/* Variables of t into `set`. */
static void vars_of(const gdl_ctx *ctx, gdl_term t, uint8_t *set)
{
  mark_vars(ctx, t, set);
}

/* A rough upper bound on the facts a relation can have: its facts, or for
 * a relation defined by rules that are not recursive, the sum over its
 * rules of the product of their positive literals' bounds (`true` counts
 * as a board of 100 facts).  b->est memoises, -1 while being computed;
 * b->first and b->next list the rules of each relation (UINT32_MAX ends),
 * found once rather than by a pass over all rules for each relation,
 * which took 5 s for a chain of 50,000 rules.  The depth-first walk keeps
 * its path in b->path, not on the C stack, which a chain of 100,000
 * relations overflowed under AddressSanitizer. */
typedef struct {
  uint32_t rel;          /* the relation being bounded */
  uint32_t rule, lit;    /* its rule in hand, the literal next */
  double prod, sum;      /* that rule's product so far; the sum so far */
} bound_frame;

typedef struct {
  double *est;
  uint32_t *first, *next;
  bound_frame *path;     /* nrels + 1 frames: a relation is on it once */
} bound_t;

/* A bound known without a walk, or -2 when rel needs one. */
static double bound_known(const bound_t *b, uint32_t rel)
{
  if (b->est[rel] >= 0)
    return b->est[rel];
  return b->est[rel] == -1 ? 1e3 : -2;     /* -1: recursion, a guess */
}

static double size_bound(gdl_ctx *ctx, uint32_t root, bound_t *b)
{
  uint32_t depth = 0;
  double v = bound_known(b, root);
  if (v != -2)
    return v;
  for (;;) {
    bound_frame *f;
    if (v == -2) {                /* enter the relation on top (root, or
                                     the literal that needed it) */
      uint32_t rel = depth == 0 ? root
                     : ctx->rules[b->path[depth - 1].rule]
                           .body[b->path[depth - 1].lit].rel;
      f = &b->path[depth++];
      f->rel = rel;
      f->sum = ctx->rels[rel].nfactrules;
      f->rule = b->first[rel];
      f->lit = 0;
      f->prod = 1;
      b->est[rel] = -1;
      if (rel == ctx->r_true) {
        f->sum = 100;
        f->rule = UINT32_MAX;
      } else if (rel == ctx->r_does) {
        f->sum = 2;
        f->rule = UINT32_MAX;
      }
    } else {                      /* a literal's bound, v, is known */
      f = &b->path[depth - 1];
      f->prod *= v;
      if (f->prod > 1e18)
        f->prod = 1e18;
      f->lit++;
    }
    v = 0;
    while (f->rule != UINT32_MAX) {
      const rule_t *r = &ctx->rules[f->rule];
      if (f->lit == 0 && (r->nbody == 0 || ctx->sccs[r->scc].recursive)) {
        if (r->nbody)
          f->sum += 1e3;
      } else {
        while (f->lit < r->nbody && r->body[f->lit].kind != L_POS)
          f->lit++;
        if (f->lit < r->nbody) {
          v = bound_known(b, r->body[f->lit].rel);
          if (v == -2)
            break;                /* walk into that relation first */
          f->prod *= v;
          if (f->prod > 1e18)
            f->prod = 1e18;
          f->lit++;
          continue;
        }
        f->sum += f->prod;
      }
      f->rule = b->next[f->rule];
      f->lit = 0;
      f->prod = 1;
    }
    if (v == -2)
      continue;
    b->est[f->rel] = f->sum;      /* this relation is bounded */
    v = f->sum;
    if (--depth == 0)
      return v;
  }
}

/* Which relations are lazy (see the top of this file): candidates are the
 * non-keyword relations with rules only, none recursive, whose full
 * extension could be large (over 100,000 facts by size_bound: a small
 * relation is a better generator than a lookup).  Each starts with every
 * argument in its key; then, in every rule that uses a candidate, the
 * arguments of its literal that are not bound by the positive literals
 * over relations that are not candidates (nor by the head's key, when the
 * rule's own relation is one) leave the key.  A relation whose key
 * becomes empty (arity 0 aside: asked whole) is no candidate any more.
 * Repeated until nothing changes: keys only shrink. */
static void choose_lazy(gdl_ctx *ctx)
{
  uint32_t i, j, k;
  int changed = 1;
  bound_t b;
  b.est = ctx_alloc(ctx, (ctx->nrels + 1) * sizeof *b.est);
  b.first = ctx_alloc(ctx, (ctx->nrels + 1) * sizeof *b.first);
  b.next = ctx_alloc(ctx, (ctx->nrules + 1) * sizeof *b.next);
  b.path = ctx_alloc(ctx, (ctx->nrels + 1) * sizeof *b.path);
  for (i = 0; i < ctx->nrels; i++) {
    b.est[i] = -2;
    b.first[i] = UINT32_MAX;
  }
  for (i = ctx->nrules; i-- > 0;) {     /* each list in the rules' order */
    b.next[i] = b.first[ctx->rules[i].rel];
    b.first[ctx->rules[i].rel] = i;
  }
  for (i = 0; i < ctx->nrels; i++) {
    rel_t *R = &ctx->rels[i];
    R->lazy = R->sym >= S_NKEYWORDS && R->nrules > 0 && R->nfactrules == 0 &&
              size_bound(ctx, i, &b) > 1e5;
  }
  ctx_free(ctx, b.est);
  ctx_free(ctx, b.first);
  ctx_free(ctx, b.next);
  ctx_free(ctx, b.path);
  for (i = 0; i < ctx->nrules; i++) {
    const rule_t *r = &ctx->rules[i];
    if (ctx->sccs[r->scc].recursive)
      ctx->rels[r->rel].lazy = 0;
  }
  for (i = 0; i < ctx->nrels; i++) {
    rel_t *R = &ctx->rels[i];
    if (!R->lazy)
      continue;
    R->lazykey = ctx_arena(ctx, R->arity + 1);
    memset(R->lazykey, 1, R->arity);
    R->nkey = R->arity;
  }
  while (changed) {
    changed = 0;
    for (i = 0; i < ctx->nrules; i++) {
      const rule_t *r = &ctx->rules[i];
      const rel_t *H = &ctx->rels[r->rel];
      uint8_t *bound;
      int any = 0;
      for (j = 0; j < r->nbody; j++)
        if ((r->body[j].kind == L_POS) && ctx->rels[r->body[j].rel].lazy)
          any = 1;
      if (!any)
        continue;
      bound = ctx_alloc(ctx, r->nvars + 1);
      if (H->lazy)                     /* asked with its head's key known */
        for (k = 0; k < H->arity; k++)
          if (H->lazykey[k])
            vars_of(ctx, TARG(ctx, r->head, k), bound);
      for (j = 0; j < r->nbody; j++)
        if (r->body[j].kind == L_POS && !ctx->rels[r->body[j].rel].lazy)
          vars_of(ctx, r->body[j].a, bound);
      for (j = 0; j < r->nbody; j++) {
        const lit_t *l = &r->body[j];
        rel_t *L = &ctx->rels[l->rel];
        if (l->kind != L_POS || !L->lazy)
          continue;
        for (k = 0; k < L->arity; k++)
          if (L->lazykey[k] && !all_bound(ctx, TARG(ctx, l->a, k), bound)) {
            L->lazykey[k] = 0;
            L->nkey--;
            changed = 1;
          }
        if (L->nkey == 0 && L->arity > 0)
          L->lazy = 0;
      }
      ctx_free(ctx, bound);
    }
  }
  ctx->nlazy = 0;
  for (i = 0; i < ctx->nrels; i++)
    ctx->nlazy += ctx->rels[i].lazy;
}

/* Join orders for every rule (static = 0), or again for the rules that
 * are not static once the static relations are known (static = 1). */
void eval_plan(gdl_ctx *ctx, int again)
{
  uint32_t i, j, maxv = 1;
  if (!again) {
    for (i = 0; i < ctx->nrules; i++) {
      rel_t *rel = &ctx->rels[ctx->rules[i].rel];
      if (ctx->rules[i].nbody)
        rel->nrules++;
      else
        rel->nfactrules++;
    }
    choose_lazy(ctx);
  }
  for (i = 0; i < ctx->nrules; i++) {
    rule_t *r = &ctx->rules[i];
    if (again && ctx->rels[r->rel].phase == P_STATIC)
      continue;
    if (r->nvars + 1 > maxv)
      maxv = r->nvars + 1;
    make_plan(ctx, r, -1, &r->full, NULL);
    if (ctx->rels[r->rel].lazy)
      make_plan(ctx, r, -1, &r->lazy, ctx->rels[r->rel].lazykey);
    if (!r->delta)
      r->delta = ctx_arena(ctx, (r->nbody + 1) * sizeof *r->delta);
    for (j = 0; j < r->nbody; j++)
      if (r->body[j].kind == L_POS && r->body[j].rec)
        make_plan(ctx, r, (int)j, &r->delta[j], NULL);
  }
  eval_reserve(ctx, maxv);
}

/* ---- compiling ---------------------------------------------------------
 *
 * The checked program made ready for evaluation: the join orders of the
 * rules, the static relations computed once (and the join orders again,
 * knowing their sizes), and the roles. */

gdl_status gdl_compile(gdl_ctx *ctx, unsigned flags)
{
  uint32_t i;
  gdl_status st = check_program(ctx, flags);
  if (st != GDL_OK)
    return st;
  PROTECT(ctx);
  eval_plan(ctx, 0);
  ctx->compiled = 1;
  eval_phase(ctx, P_STATIC);
  ctx->statics_done = 1;
  eval_plan(ctx, 1);
  /* roles, in the order they were derived (for facts: as written) */
  ctx->nroles = ctx->rels[ctx->r_role].n;
  ctx->roles = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *ctx->roles);
  for (i = 0; i < ctx->nroles; i++)
    ctx->roles[i] = TARG(ctx, ctx->rels[ctx->r_role].facts[i], 0);
  ctx->legal = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *ctx->legal);
  ctx->nlegal = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *ctx->nlegal);
  ctx->legal_ok = ctx_alloc(ctx, ctx->nroles + 1);
  if (ctx->is_game && ctx->nroles == 0) {
    ctx->is_game = 0;
    snprintf(ctx->not_game, sizeof ctx->not_game, "not a game: no role "
             "holds");
  }
  UNPROTECT(ctx);
  return GDL_OK;
}

size_t gdl_role_count(const gdl_ctx *ctx) { return ctx->nroles; }

gdl_term gdl_role(const gdl_ctx *ctx, size_t i)
{
  return i < ctx->nroles ? ctx->roles[i] : 0;
}

int gdl_role_index(const gdl_ctx *ctx, gdl_term role)
{
  uint32_t i;
  for (i = 0; i < ctx->nroles; i++)
    if (ctx->roles[i] == role)
      return (int)i;
  return -1;
}

/* Whether t names a role the game does not have: (legal R M), (goal R
 * V), (does R M) or (input R M) with R ground and not a role. */
static int unknown_role(const gdl_ctx *ctx, gdl_term t)
{
  const term_t *tt = &ctx->terms[t];
  gdl_term r;
  if (!ctx->is_game || tt->kind != T_FN || tt->arity != 2 ||
      (tt->sym != S_LEGAL && tt->sym != S_GOAL && tt->sym != S_DOES &&
       tt->sym != S_INPUT))
    return 0;
  r = TARG(ctx, t, 0);
  return term_max_var(ctx, r) == 0 && gdl_role_index(ctx, r) < 0;
}

int role_note(gdl_ctx *ctx, gdl_term t, strbuf_t *b)
{
  uint32_t i;
  if (!unknown_role(ctx, t))
    return 0;
  sb_term(ctx, b, TARG(ctx, t, 0), NULL);
  sb_puts(ctx, b, " is not a role of this game; its roles: ", 40);
  for (i = 0; i < ctx->nroles; i++) {
    if (i)
      sb_puts(ctx, b, ", ", 2);
    sb_term(ctx, b, ctx->roles[i], NULL);
  }
  return 1;
}

const char *gdl_role_note(gdl_ctx *ctx, gdl_term t)
{
  jmp_buf jb, *old = ctx->jmp;
  const char *note = NULL;
  ctx->jmp = &jb;
  if (!setjmp(jb)) {
    ctx->notetext.n = 0;
    if (role_note(ctx, t, &ctx->notetext))
      note = ctx->notetext.s;
  }
  ctx->jmp = old;
  return note;
}
