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
 * have a known argument first (looked up through a per-argument index,
 * built the first time it is needed), `not` and `distinct` as soon as
 * their variables are bound.  So the order a rule's body is written in does
 * not matter.  Membership of a ground atom is one byte per term
 * (ctx->present), since terms are hash-consed.
 */
#include <string.h>

#include "internal.h"

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

static index_t *idx_get(gdl_ctx *ctx, uint32_t r, uint32_t arg)
{
  rel_t *rel = &ctx->rels[r];
  index_t *ix;
  uint32_t i;
  if (!rel->idx)
    rel->idx = ctx_alloc(ctx, rel->arity * sizeof *rel->idx);
  ix = &rel->idx[arg];
  if (!ix->head) {
    ix->mask = 15;
    ix->head = ctx_alloc(ctx, 16 * sizeof *ix->head);
    ix->val = ctx_alloc(ctx, 16 * sizeof *ix->val);
    for (i = 0; i < rel->n; i++)
      idx_put(ctx, ix, TARG(ctx, rel->facts[i], arg), i);
  }
  return ix;
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
  if (rel->idx)
    for (a = 0; a < rel->arity; a++)
      if (rel->idx[a].head)
        idx_put(ctx, &rel->idx[a], TARG(ctx, atom, a), rel->n);
  rel->n++;
  ctx->present[atom] = 1;
  ctx->nfacts++;
  return 1;
}

void eval_clear(gdl_ctx *ctx, int phase)
{
  uint32_t r, i, a;
  for (r = 0; r < ctx->nrels; r++) {
    rel_t *rel = &ctx->rels[r];
    if (rel->phase < phase || rel->n == 0)
      continue;
    for (i = 0; i < rel->n; i++)
      ctx->present[rel->facts[i]] = 0;
    ctx->nfacts -= rel->n;
    rel->n = 0;
    if (rel->idx)
      for (a = 0; a < rel->arity; a++)
        if (rel->idx[a].used) {
          memset(rel->idx[a].head, 0,
                 (rel->idx[a].mask + 1) * sizeof *rel->idx[a].head);
          rel->idx[a].used = 0;
        }
  }
}

/* ---- matching --------------------------------------------------------- */

int eval_match(gdl_ctx *ctx, gdl_term p, gdl_term g)
{
  const term_t *tp = &ctx->terms[p], *tg;
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
  for (i = 0; i < tp->arity; i++)
    if (!eval_match(ctx, ctx->targs[tp->args + i], ctx->targs[tg->args + i]))
      return 0;
  return 1;
}

static void undo(gdl_ctx *ctx, uint32_t mark)
{
  while (ctx->ntrail > mark)
    ctx->bind[ctx->trail[--ctx->ntrail]] = 0;
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

/* ---- joins ------------------------------------------------------------ */

static void emit(gdl_ctx *ctx, const rule_t *r)
{
  gdl_term h = subst(ctx, r->head, 1);
  eval_insert(ctx, r->rel, h);
  if ((++ctx->poll & 4095) == 0)
    ctx_poll(ctx);
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
  s = &p->steps[i];
  l = &r->body[s->lit];
  switch (l->kind) {
  case L_POS: {
    uint32_t lo = 0, hi = ctx->rels[l->rel].n, fi, mark = ctx->ntrail;
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
      gdl_term k = subst(ctx, TARG(ctx, l->a, (uint32_t)s->key), 0);
      uint32_t next;
      if (!k)
        return;
      next = idx_first(idx_get(ctx, l->rel, (uint32_t)s->key), k);
      while (next) {
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
      if (eval_match(ctx, l->a, ctx->rels[l->rel].facts[fi]))
        join(ctx, r, p, i + 1, delta);
      undo(ctx, mark);
    }
    return;
  }
  case L_NEG: {
    gdl_term t = subst(ctx, l->a, 0);
    if (!t || !ctx->present[t])
      join(ctx, r, p, i + 1, delta);
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

static void eval_scc(gdl_ctx *ctx, const scc_t *s)
{
  uint32_t i, j, more;
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
  for (i = 0; i < ctx->nsccs; i++)
    if (ctx->sccs[i].phase == phase && ctx->sccs[i].nrules)
      eval_scc(ctx, &ctx->sccs[i]);
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

/* The first argument whose value is known, -2 when the whole atom is, or
 * -1. */
static int32_t pick_key(const gdl_ctx *ctx, gdl_term atom,
                        const uint8_t *bound, int allow_lookup)
{
  const term_t *x = &ctx->terms[atom];
  uint32_t i;
  if (allow_lookup && all_bound(ctx, atom, bound))
    return -2;
  if (x->kind != T_FN)
    return -1;
  for (i = 0; i < x->arity; i++)
    if (all_bound(ctx, TARG(ctx, atom, i), bound))
      return (int32_t)i;
  return -1;
}

static void place(gdl_ctx *ctx, const rule_t *r, plan_t *p, uint32_t li,
                  uint8_t *bound, uint8_t *placed, int first)
{
  const lit_t *l = &r->body[li];
  step_t *s = &p->steps[p->n++];
  s->lit = li;
  s->key = l->kind == L_POS ? pick_key(ctx, l->a, bound, !first) : -1;
  if (l->kind == L_POS)
    mark_vars(ctx, l->a, bound);
  placed[li] = 1;
}

static int ready(const gdl_ctx *ctx, const lit_t *l, const uint8_t *bound)
{
  switch (l->kind) {
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
      else if (ctx->terms[a].kind == T_FN)
        c /= 2;   /* a structure to match is some filter too */
    }
  return c;
}

/* Greedy join order: filters as soon as they can run; then the positive
 * literal expected to match least, ties going to the one written first. */
static void make_plan(gdl_ctx *ctx, const rule_t *r, int first, plan_t *p)
{
  uint8_t *bound = ctx_alloc(ctx, r->nvars + 1);
  uint8_t *placed = ctx_alloc(ctx, r->nbody + 1);
  uint32_t i;
  if (!p->steps)
    p->steps = ctx_arena(ctx, (r->nbody + 1) * sizeof *p->steps);
  p->n = 0;
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
      if (placed[i] || r->body[i].kind != L_POS)
        continue;
      c = lit_cost(ctx, &r->body[i], bound);
      if (best < 0 || c < bestcost) {
        bestcost = c;
        best = (int)i;
      }
    }
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

/* Join orders for every rule (static = 0), or again for the rules that
 * are not static once the static relations are known (static = 1). */
void eval_plan(gdl_ctx *ctx, int again)
{
  uint32_t i, j, maxv = 1;
  if (!again)
    for (i = 0; i < ctx->nrules; i++) {
      rel_t *rel = &ctx->rels[ctx->rules[i].rel];
      if (ctx->rules[i].nbody)
        rel->nrules++;
      else
        rel->nfactrules++;
    }
  for (i = 0; i < ctx->nrules; i++) {
    rule_t *r = &ctx->rules[i];
    if (again && ctx->rels[r->rel].phase == P_STATIC)
      continue;
    if (r->nvars + 1 > maxv)
      maxv = r->nvars + 1;
    make_plan(ctx, r, -1, &r->full);
    if (!r->delta)
      r->delta = ctx_arena(ctx, (r->nbody + 1) * sizeof *r->delta);
    for (j = 0; j < r->nbody; j++)
      if (r->body[j].kind == L_POS && r->body[j].rec)
        make_plan(ctx, r, (int)j, &r->delta[j]);
  }
  if (maxv > ctx->bindcap) {
    ctx->bind = ctx_realloc(ctx, ctx->bind, maxv * sizeof *ctx->bind);
    ctx->trail = ctx_realloc(ctx, ctx->trail, maxv * sizeof *ctx->trail);
    ctx->bindcap = maxv;
  }
}
