/*
 * eval_state.c - a new state's phase computed again only where the state
 * changed it (eval_new_state, doc/engine.md section 6): the functors of
 * the fluents whose facts differ from the state held are found; in
 * evaluation order, a component reading one of them, or a relation
 * computed again, is computed again with every relation it adds to; the
 * rest keep their facts and indexes (eval.c drops and runs the marked).
 */
#include <string.h>

#include "core/core.h"

/* What each rule reads that a new state can change (ctx->sdep): the
 * relations of its literals that are not static, and for a `true`
 * literal the functor of the fluent it matches (any, for a variable). */
static void state_deps(gdl_ctx *ctx)
{
  uint32_t i, j, n = 0;
  ctx->sdepoff = ctx_arena(ctx, (ctx->nrules + 1) * sizeof *ctx->sdepoff);
  for (i = 0; i < ctx->nrules; i++)
    n += ctx->rules[i].nbody;
  ctx->sdep = ctx_arena(ctx, (n + 1) * sizeof *ctx->sdep);
  n = 0;
  for (i = 0; i < ctx->nrules; i++) {
    const rule_t *r = &ctx->rules[i];
    ctx->sdepoff[i] = n;
    for (j = 0; j < r->nbody; j++) {
      const lit_t *l = &r->body[j];
      if (l->kind != L_POS && l->kind != L_NEG)
        continue;
      if (l->rel == ctx->r_true) {
        const term_t *x = &ctx->terms[TARG(ctx, l->a, 0)];
        ctx->sdep[n++] = x->kind == T_VAR ? UINT32_MAX : ctx->nrels + x->sym;
      } else if (ctx->rels[l->rel].phase != P_STATIC) {
        ctx->sdep[n++] = l->rel;
      }
    }
  }
  ctx->sdepoff[ctx->nrules] = n;
  ctx->fsyms = ctx->nsyms;
  ctx->fchanged = ctx_arena(ctx, ctx->fsyms + 1);
  ctx->fcount = ctx_arena(ctx, (ctx->fsyms + 1) * sizeof *ctx->fcount);
  ctx->rdirty = ctx_arena(ctx, ctx->nrels + 1);
}

/* The functor of the fluent of `true` atom a, or fsyms when there is no
 * room for it (a symbol made after: counted as changed). */
static uint32_t fluent_sym(const gdl_ctx *ctx, gdl_term a)
{
  uint32_t sym = ctx->terms[TARG(ctx, a, 0)].sym;
  return sym < ctx->fsyms ? sym : ctx->fsyms;
}

/* Marks the functors whose fluents differ between the `true` facts held
 * and atoms[0..n) in ctx->fchanged; whether any does. */
static int fluents_changed(gdl_ctx *ctx, const gdl_term *atoms, uint32_t n)
{
  const rel_t *T = &ctx->rels[ctx->r_true];
  uint32_t i, s;
  int any = 0;
  for (i = 0; i < T->n; i++)
    ctx->fcount[fluent_sym(ctx, T->facts[i])]++;
  for (i = 0; i < n; i++) {
    s = fluent_sym(ctx, atoms[i]);
    if (ctx->present[atoms[i]])
      ctx->fcount[s]--;
    else
      ctx->fchanged[s] = 1;
  }
  for (i = 0; i < T->n; i++) {
    s = fluent_sym(ctx, T->facts[i]);
    if (ctx->fcount[s])
      ctx->fchanged[s] = 1;
  }
  for (i = 0; i < T->n; i++)
    ctx->fcount[fluent_sym(ctx, T->facts[i])] = 0;
  ctx->fchanged[ctx->fsyms] = 1;       /* a symbol made after */
  for (i = 0; i < T->n && !any; i++)
    any = ctx->fchanged[fluent_sym(ctx, T->facts[i])];
  for (i = 0; i < n && !any; i++)
    any = ctx->fchanged[fluent_sym(ctx, atoms[i])];
  return any;
}

/* Whether component s reads something recomputed: a relation marked in
 * ctx->rdirty, or a fluent of a functor that changed. */
static int scc_dirty(const gdl_ctx *ctx, const scc_t *s, int any)
{
  uint32_t i, k;
  for (i = 0; i < s->nrules; i++) {
    uint32_t r = s->rules[i];
    for (k = ctx->sdepoff[r]; k < ctx->sdepoff[r + 1]; k++) {
      uint32_t d = ctx->sdep[k];
      if (d == UINT32_MAX ? any
          : d >= ctx->nrels ? ctx->fchanged[d - ctx->nrels]
          : ctx->rdirty[d])
        return 1;
    }
  }
  return 0;
}

void eval_new_state(gdl_ctx *ctx, const gdl_term *atoms, uint32_t n)
{
  uint32_t i, j;
  int any;
  if (!ctx->state_whole || ctx->tracer) {
    eval_clear(ctx, P_STATE);
    for (i = 0; i < n; i++)
      eval_insert(ctx, ctx->r_true, atoms[i]);
    eval_phase(ctx, P_STATE);
    ctx->state_whole = 1;
    return;
  }
  ctx->state_whole = 0;
  if (!ctx->sdep)
    state_deps(ctx);
  any = fluents_changed(ctx, atoms, n);
  /* in evaluation order, the components that read what changed, and
   * every relation they add to */
  for (i = 0; i < ctx->nsccs; i++) {
    const scc_t *s = &ctx->sccs[i];
    if (s->phase == P_STATE && scc_dirty(ctx, s, any))
      for (j = 0; j < s->nrels; j++)
        ctx->rdirty[s->rels[j]] = 1;
  }
  eval_clear_dirty(ctx, ctx->rdirty);
  for (i = 0; i < n; i++)
    eval_insert(ctx, ctx->r_true, atoms[i]);
  eval_phase_dirty(ctx, P_STATE, ctx->rdirty);
  memset(ctx->rdirty, 0, ctx->nrels);
  memset(ctx->fchanged, 0, ctx->fsyms + 1);
  ctx->state_whole = 1;
}
