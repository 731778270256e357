/*
 * eval_plan.c - join orders: in what order a rule's body literals run,
 * and which index each positive literal looks in; and which relations are
 * lazy.
 *
 * A join runs the body literals in a planned order, greedily: `not`,
 * `distinct` and literals over lazy relations as soon as their variables
 * (for a lazy relation, its key) are bound; then the positive literal
 * expected to match least, by a guess at its relation's size divided for
 * each known argument.  So the order a rule's body is written in does not
 * matter.  A positive literal with known arguments looks in an index on
 * them (eval_index_slot: named here, built by eval.c when first used).
 * Each rule has a plan for a whole evaluation, one per recursive body
 * literal with that literal first (semi-naive), and, for a lazy relation's
 * rule, one with the head's key known.  Plans are made once before the
 * static relations are evaluated and once again after, knowing their
 * sizes.  Which relations are lazy, and by what key, is chosen here too
 * (choose_lazy); eval.c says what a lazy relation is.
 */
#include <stdint.h>
#include <string.h>

#include "core/core.h"

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
  s->fkey = 0;
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
      s->key = eval_index_slot(ctx, rel, -1, -1, cols);
      return;
    }
  }
  for (i = 0; i < x->arity; i++)
    if (all_bound(ctx, TARG(ctx, atom, i), bound)) {
      s->keypat = TARG(ctx, atom, i);
      s->key = eval_index_slot(ctx, rel, (int)i, -1, 0);
      return;
    }
  for (i = 0; i < ctx->terms[atom].arity; i++) {
    gdl_term a = TARG(ctx, atom, i);
    if (ctx->terms[a].kind != T_FN)
      continue;
    for (j = 0; j < ctx->terms[a].arity && j < 32767; j++)
      if (all_bound(ctx, TARG(ctx, a, j), bound)) {
        s->keypat = TARG(ctx, a, j);
        s->key = eval_index_slot(ctx, rel, (int)i, (int)j, 0);
        return;
      }
  }
  /* grounding: `true` holds every fluent there can be, of many kinds,
   * and (true (cell ?x ?y ?z)) looks only at the cells */
  if (ctx->plan_ground && rel == ctx->r_true &&
      ctx->terms[TARG(ctx, atom, 0)].kind != T_VAR) {
    s->fkey = eval_functor_key(&ctx->terms[TARG(ctx, atom, 0)]);
    s->key = eval_index_slot(ctx, rel, 0, IDX_FUNCTOR, 0);
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

/* Body literal li as the plan's next step: its index, its variables bound
 * (first: the delta literal of a semi-naive plan, never a lookup). */
static void place_literal(gdl_ctx *ctx, const rule_t *r, plan_t *p,
                          uint32_t li, uint8_t *bound, uint8_t *placed,
                          int first)
{
  const lit_t *l = &r->body[li];
  step_t *s = &p->steps[p->n++];
  s->lit = li;
  s->key = -1;
  s->keypat = 0;
  s->cols = 0;
  s->fkey = 0;
  if (l->kind == L_POS)
    pick_key(ctx, l->rel, l->a, bound, !first, s);
  if (l->kind == L_POS)
    term_vars(ctx, l->a, bound);
  placed[li] = 1;
}

/* Whether a recursive literal l of rule r must wait for a static
 * positive literal that shares a variable with it: one of them is its
 * descent step (choose_lazy), and asking l before that step has checked
 * that l's atom is smaller than the head's could ask the head itself. */
static int rec_waits(const gdl_ctx *ctx, const rule_t *r, const lit_t *l,
                     const uint8_t *placed)
{
  uint32_t j, nv = r->nvars + 1;
  uint8_t *mine, *theirs;
  int wait = 0;
  if (!l->rec)
    return 0;
  mine = ctx_alloc((gdl_ctx *)ctx, 2 * nv);
  theirs = mine + nv;
  memset(mine, 0, 2 * nv);
  term_vars(ctx, l->a, mine);
  for (j = 0; j < r->nbody && !wait; j++) {
    const lit_t *m = &r->body[j];
    uint32_t v;
    if (placed[j] || m == l || m->kind != L_POS ||
        ctx->rels[m->rel].phase != P_STATIC)
      continue;
    memset(theirs, 0, nv);
    term_vars(ctx, m->a, theirs);
    for (v = 0; v < nv && !wait; v++)
      wait = mine[v] && theirs[v];
  }
  ctx_free((gdl_ctx *)ctx, mine);
  return wait;
}

/* Whether literal l of rule r can run as soon as it is reached: a filter
 * whose variables are bound, or a lazy relation's literal whose key is
 * (and, when recursive, after its descent step). */
static int literal_ready(const gdl_ctx *ctx, const rule_t *r,
                         const lit_t *l, const uint8_t *bound,
                         const uint8_t *placed)
{
  switch (l->kind) {
  case L_POS:
    return ctx->rels[l->rel].lazy && key_bound(ctx, l, bound) &&
           !rec_waits(ctx, r, l, placed);
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
 * otherwise.  (Planning grounding's instantiation with the sizes the
 * relaxed relations have, by this cost model, cost callgrind 1-20% more
 * on breakthrough and checkers than these guesses.) */
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
        term_vars(ctx, TARG(ctx, r->head, i), bound);
  if (first >= 0)
    place_literal(ctx, r, p, (uint32_t)first, bound, placed, 1);
  for (;;) {
    int best = -1;
    double bestcost = 0;
    for (i = 0; i < r->nbody; i++)
      if (!placed[i] &&
          literal_ready(ctx, r, &r->body[i], bound, placed))
        place_literal(ctx, r, p, i, bound, placed, 0);
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
    place_literal(ctx, r, p, (uint32_t)best, bound, placed, 0);
  }
  for (i = 0; i < r->nbody; i++)   /* unsafe leftovers; the checker stops */
    if (!placed[i])                /* these, but stay total */
      place_literal(ctx, r, p, i, bound, placed, 0);
  ctx_free(ctx, bound);
  ctx_free(ctx, placed);
}

/* A rough upper bound on the facts a relation can have: its facts, or for
 * a relation defined by rules, the sum over its rules of the product of
 * their positive literals' bounds (`true` counts as a board of 100 facts,
 * a literal in a recursion being bounded as 1,000).  b->est memoises, -1
 * while being computed;
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
      if (r->nbody == 0) {
        ;                         /* a fact, counted in nfactrules */
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

/* A static positive literal of rule r that relates variable x (the head's
 * argument) to variable y (a recursive literal's): its relation and the
 * two argument positions, packed in out[0..2]; 0 when there is none. */
static int descent_step(const gdl_ctx *ctx, const rule_t *r, gdl_term x,
                        gdl_term y, uint32_t *out)
{
  uint32_t j, i, k;
  for (j = 0; j < r->nbody; j++) {
    const lit_t *m = &r->body[j];
    const rel_t *M = &ctx->rels[m->rel];
    if (m->kind != L_POS || M->phase != P_STATIC || m->rel == r->rel)
      continue;
    for (i = 0; i < M->arity; i++)
      for (k = 0; k < M->arity; k++)
        if (i != k && TARG(ctx, m->a, i) == x && TARG(ctx, m->a, k) == y) {
          out[0] = m->rel;
          out[1] = i;
          out[2] = k;
          return 1;
        }
  }
  return 0;
}

/* The argument positions along which relation rel's recursion descends:
 * in each of its rules, every recursive literal is over rel itself and has
 * there a variable that a static literal relates to the head's variable
 * there (chess's (next_file ?u ?u2) before (clear_row_ig ?u2 ...)).  If
 * the static facts make no cycle, asking an atom of rel ends (see
 * eval_check_descent).  A bit a position; 0: none, or not only rel in the
 * recursion.  pairs (may be NULL) gets the triples for position a. */
static uint32_t descent_mask(gdl_ctx *ctx, uint32_t rel, int a,
                             const bound_t *b, uint32_t *pairs,
                             uint32_t *npairs)
{
  const rel_t *R = &ctx->rels[rel];
  uint32_t i, j, p, mask = R->arity > 32 ? 0 : (uint32_t)-1 >> (32 - R->arity);
  uint32_t t[3];
  if (R->arity == 0)
    return 0;
  for (i = b->first[rel]; i != UINT32_MAX && mask; i = b->next[i]) {
    const rule_t *r = &ctx->rules[i];
    for (j = 0; j < r->nbody && mask; j++) {
      const lit_t *l = &r->body[j];
      if (!l->rec)
        continue;
      if (l->kind != L_POS || l->rel != rel)
        return 0;
      for (p = 0; p < R->arity; p++) {
        gdl_term x = TARG(ctx, r->head, p), y = TARG(ctx, l->a, p);
        if (!(mask >> p & 1))
          continue;
        if (ctx->terms[x].kind != T_VAR || ctx->terms[y].kind != T_VAR ||
            x == y || !descent_step(ctx, r, x, y, t)) {
          mask &= ~(1u << p);
          continue;
        }
        if (pairs && (int)p == a) {
          COPY(pairs + *npairs * 3, t, sizeof t);
          ++*npairs;
        }
      }
    }
  }
  return mask;
}

/* Shrinks the keys of the lazy relations until every rule that uses one
 * binds its key arguments by the positive literals over relations that
 * are not lazy (and by its head's key, when its own relation is lazy); a
 * relation whose key becomes empty (arity 0 aside: asked whole) stops
 * being lazy.  Keys only shrink, so this ends. */
static void lazy_keys(gdl_ctx *ctx)
{
  uint32_t i, j, k;
  int changed = 1;
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
            term_vars(ctx, TARG(ctx, r->head, k), bound);
      for (j = 0; j < r->nbody; j++)
        if (r->body[j].kind == L_POS && !ctx->rels[r->body[j].rel].lazy)
          term_vars(ctx, r->body[j].a, bound);
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
}

/* Which relations are lazy (see the top of this file): candidates are the
 * non-keyword relations with rules only whose full extension could be
 * large (over 100,000 facts by size_bound: a small relation is a better
 * generator than a lookup), and that are not recursive, or recursive
 * through themselves alone along a descent (descent_mask) and not static
 * (a static one is evaluated once; asking it costs more than looking it
 * up, queens31lg's (plus ?x ?y ?z) twice as much).  Each starts
 * with every argument in its key, shrunk by lazy_keys.  A recursive one
 * must keep one of its descent positions in its key (else the same key
 * could be asked again inside its own asking): one that does not is no
 * candidate, and the keys are found again without it. */
static void choose_lazy(gdl_ctx *ctx)
{
  uint32_t i, k;
  uint8_t *cand = ctx_alloc(ctx, ctx->nrels + 1);
  uint32_t *dmask = ctx_alloc(ctx, (ctx->nrels + 1) * sizeof *dmask);
  uint32_t *nrec = ctx_alloc(ctx, (ctx->nrels + 1) * sizeof *nrec);
  int again = 1;
  bound_t b;
  b.est = ctx_alloc(ctx, (ctx->nrels + 1) * sizeof *b.est);
  b.first = ctx->rfirst;
  b.next = ctx->rnext;
  b.path = ctx_alloc(ctx, (ctx->nrels + 1) * sizeof *b.path);
  for (i = 0; i < ctx->nrels; i++) {
    b.est[i] = -2;
  }
  for (i = 0; i < ctx->nrules; i++)     /* recursive literals a relation */
    for (k = 0; k < ctx->rules[i].nbody; k++)
      nrec[ctx->rules[i].rel] += ctx->rules[i].body[k].rec;
  for (i = 0; i < ctx->nrels; i++) {
    rel_t *R = &ctx->rels[i];
    if (R->sym < S_NKEYWORDS || R->nrules == 0 || R->nfactrules > 0)
      continue;
    if (nrec[i] == 0) {
      cand[i] = size_bound(ctx, i, &b) > 1e5;
      continue;
    }
    /* recursive: one that depends on the state, with arguments enough
     * to be large (a relation of one or two arguments over a board's
     * coordinates has a few thousand facts at most), bounded with its
     * recursion counted, and with a descent */
    if (R->phase == P_STATIC || R->arity < 3 ||
        size_bound(ctx, i, &b) <= 1e5)
      continue;
    dmask[i] = descent_mask(ctx, i, -1, &b, NULL, NULL);
    cand[i] = dmask[i] != 0;
  }
  ctx_free(ctx, b.est);
  ctx_free(ctx, b.path);
  while (again) {
    again = 0;
    for (i = 0; i < ctx->nrels; i++) {
      rel_t *R = &ctx->rels[i];
      R->lazy = cand[i];
      if (!R->lazy)
        continue;
      if (!R->lazykey)
        R->lazykey = ctx_arena(ctx, R->arity + 1);
      memset(R->lazykey, 1, R->arity);
      R->nkey = R->arity;
    }
    lazy_keys(ctx);
    for (i = 0; i < ctx->nrels; i++) {
      rel_t *R = &ctx->rels[i];
      if (!R->lazy || !dmask[i])
        continue;
      for (k = 0; k < R->arity && !(R->lazykey[k] && dmask[i] >> k & 1);
           k++)
        ;
      if (k == R->arity) {
        cand[i] = 0;
        again = 1;
      }
    }
  }
  for (i = 0; i < ctx->nrels; i++) {
    rel_t *R = &ctx->rels[i];
    if (!R->lazy || !dmask[i])
      continue;
    for (k = 0; !(R->lazykey[k] && dmask[i] >> k & 1); k++)
      ;
    R->descent = ctx_arena(ctx, 3 * nrec[i] * sizeof *R->descent);
    R->ndescent = 0;
    descent_mask(ctx, i, (int)k, &b, R->descent, &R->ndescent);
  }
  ctx_free(ctx, nrec);
  ctx_free(ctx, cand);
  ctx_free(ctx, dmask);
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
    ctx->rfirst = ctx_arena(ctx, (ctx->nrels + 1) * sizeof *ctx->rfirst);
    ctx->rnext = ctx_arena(ctx, (ctx->nrules + 1) * sizeof *ctx->rnext);
    for (i = 0; i < ctx->nrels; i++)
      ctx->rfirst[i] = UINT32_MAX;
    for (i = ctx->nrules; i-- > 0;) {
      ctx->rnext[i] = ctx->rfirst[ctx->rules[i].rel];
      ctx->rfirst[ctx->rules[i].rel] = i;
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
      if (r->body[j].kind == L_POS && (r->body[j].rec || ctx->plan_ground))
        make_plan(ctx, r, (int)j, &r->delta[j], NULL);
      else
        r->delta[j].n = 0;
  }
  eval_reserve(ctx, maxv);
}
