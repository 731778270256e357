/*
 * compile.c - gdl_compile: the checked program (check.c) made ready for
 * evaluation: the join orders of the rules (eval_plan.c), the static
 * relations computed once (eval.c), the lazy recursive relations whose
 * recursion they do not prove to end made eager, the join orders again, knowing
 * their sizes; then the roles, and the questions about them.
 */
#include <setjmp.h>
#include <stdio.h>

#include "core/core.h"

gdl_status gdl_compile(gdl_ctx *ctx, unsigned flags)
{
  uint32_t i;
  gdl_status st = check_program(ctx, flags);
  ctx->compile_flags = flags;
  if (st != GDL_OK)
    return st;
  PROTECT(ctx);
  eval_plan(ctx, 0);
  ctx->compiled = 1;
  eval_phase(ctx, P_STATIC);
  eval_check_descent(ctx);
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

int gdl_depends_on_moves(const gdl_ctx *ctx, gdl_term t)
{
  const term_t *x;
  int r;
  if (!ctx->compiled || !ctx->is_game || !t || t >= ctx->nterms)
    return 0;
  x = &ctx->terms[t];
  if (x->kind == T_VAR)
    return 0;
  r = rel_find(ctx, x->sym, x->kind == T_FN ? x->arity : 0);
  return r >= 0 && ctx->rels[r].phase == P_MOVE;
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
