/*
 * kernel.c - what every analysis reads the grounded network with: the
 * rules of each proposition (built once per network and shared), what
 * kind of input each proposition is, and one three-valued evaluation.
 *
 * Invariant: a three-valued evaluation never says true (false) of a
 * proposition that is false (true) in a state agreeing with what is
 * fixed.  An input not fixed (a fluent, a move, a head of a recursive
 * group, a proposition deeper than EVAL_DEPTH) is unknown, which can
 * only make an answer less certain, never wrong.  doc/solving.md
 * ("Estimates and dead ends") has the argument.
 */
#include <string.h>

#include "analysis/analysis.h"

#define NONE UINT32_MAX
#define EVAL_DEPTH 4000        /* deeper than this: unknown */

/* ---- the network as the analyses read it ----------------------------- */

/* The kernel of ctx's network: the rules by head, and each
 * proposition's kind (a move's `does` is K_MOVE, one no role can make
 * K_INPUT). */
static kern_t *kern_build(gdl_ctx *ctx)
{
  ground_t *G = ctx->ground;
  kern_t *K;
  uint32_t i, r, j;
  K = ctx_alloc(ctx, sizeof *K);
  K->G = G;
  K->n = G->nprops;
  ground_rules_by_head(ctx, G, &K->bh_lo, &K->bh);
  K->kind = ctx_alloc(ctx, K->n + 1);
  for (i = 0; i < K->n; i++) {
    const term_t *t = &ctx->terms[G->atom[i]];
    if (i == G->always)
      K->kind[i] = K_ALWAYS;
    else if (G->tslot[i])
      K->kind[i] = K_TRUE;
    else if (t->kind == T_FN && t->sym == S_DOES && t->arity == 2)
      K->kind[i] = K_INPUT;
  }
  for (i = 0; i < G->ngroups; i++)
    if (G->groups[i].recursive)
      for (r = G->groups[i].lo; r < G->groups[i].hi; r++)
        K->kind[G->head[r]] = K_RECURSIVE;
  for (r = 0; r < ctx->nroles; r++)
    for (j = 0; j < G->nlegal[r]; j++) {
      uint32_t d = does_prop(ctx, G, r, G->legal[r][j].term);
      if (d != NONE)
        K->kind[d] = K_MOVE;
    }
  return K;
}

kern_t *kern_get(gdl_ctx *ctx, analyses_t *A)
{
  if (!A->kern)
    A->kern = kern_build(ctx);
  return A->kern;
}

void kern_free(gdl_ctx *ctx, kern_t *K)
{
  if (!K)
    return;
  ctx_free(ctx, K->bh_lo);
  ctx_free(ctx, K->bh);
  ctx_free(ctx, K->kind);
  ctx_free(ctx, K);
}

/* ---- three-valued evaluation ------------------------------------------ */

void kern_eval_open(gdl_ctx *ctx, const kern_t *K, kern_eval_t *X)
{
  memset(X, 0, sizeof *X);
  X->K = K;
  X->kind = K->kind;
  X->bh_lo = K->bh_lo;
  X->bh = K->bh;
  X->in_lo = K->G->in_lo;
  X->in = K->G->in;
  X->block = ctx_alloc(ctx, (K->n + 1) * (sizeof *X->stamp + 2));
  X->stamp = X->block;
  X->memo = (uint8_t *)(X->stamp + K->n + 1);
  X->fixed = X->memo + K->n + 1;
  memset(X->fixed, VU, K->n);
  X->pick = NONE;
  X->onmove = NONE;
  X->ctx = ctx;
}

void kern_eval_close(gdl_ctx *ctx, kern_eval_t *X)
{
  ctx_free(ctx, X->block);
  X->block = NULL;
}

static int eval3(kern_eval_t *X, uint32_t p, unsigned depth);
static int eval3_recorded(kern_eval_t *X, uint32_t p, unsigned depth);

/* The one three-valued evaluation: p's value from what is fixed, each
 * head's once a run.  A recorded run (X->record) memoizes every
 * proposition it reaches (a fixed one, an input, one past EVAL_DEPTH:
 * all memoized as read), gives a head with a rule of one literal that
 * holds by what is fixed true without reading its rules, counts in
 * X->work each rule read (its literals, plus one) and polls ctx; an
 * unrecorded run does none of it, which its callers' results and speed
 * depend on.  Written once and made twice, `record` a constant in each
 * (eval3, eval3_recorded), so that an unrecorded run tests nothing of
 * it.  LEAF(x): the value x of a proposition that is not a head
 * evaluated, returned, memoized first in a recorded run. */
#define LEAF(x)                                                          \
  do {                                                                   \
    v = (x);                                                             \
    if (!record)                                                         \
      return v;                                                          \
    goto read;                                                           \
  } while (0)

static inline __attribute__((always_inline)) int
eval_at(kern_eval_t *X, uint32_t p, unsigned depth, const int record)
{
  uint32_t i, j;
  int v = V0;
  X->evals++;
  if (X->fixed[p] != VU) {     /* a fluent's value, or one forced */
    LEAF(X->fixed[p]);
  }
  switch (X->kind[p]) {
  case K_ALWAYS:
    LEAF(V1);
  case K_MOVE:
    if (X->onmove != NONE) {
      LEAF(p == X->onmove ? V1 : V0);
    }
    /* fall through */
  case K_TRUE:
    if (X->pick == NONE)       /* the first unknown input read */
      X->pick = p;
    LEAF(VU);
  case K_INPUT:
  case K_RECURSIVE:
    LEAF(VU);
  default:
    break;
  }
  if (X->stamp[p] == X->now)
    return X->memo[p];
  if (depth > EVAL_DEPTH) {
    LEAF(VU);
  }
  if (record && kern_fixed_rule(X, p)) {
    v = V1;
    goto memo;
  }
  for (i = X->bh_lo[p]; i < X->bh_lo[p + 1] && v != V1; i++) {
    uint32_t r = X->bh[i];
    int rv = V1;
    for (j = X->in_lo[r]; j < X->in_lo[r + 1] && rv != V0; j++) {
      int x = record ? eval3_recorded(X, X->in[j] >> 1, depth + 1)
                     : eval3(X, X->in[j] >> 1, depth + 1);
      if (X->in[j] & 1)
        x = x == VU ? VU : !x;
      if (x == V0)
        rv = V0;
      else if (x == VU)
        rv = VU;
    }
    if (rv == V1)
      v = V1;
    else if (rv == VU)
      v = VU;
    if (record)
      X->work += X->in_lo[r + 1] - X->in_lo[r] + 1;
  }
  if (record)
    POLL(X->ctx);
memo:
  X->stamp[p] = X->now;
  X->memo[p] = (uint8_t)v;
  return v;
read:                          /* a leaf's value, recorded */
  X->stamp[p] = X->now;
  X->memo[p] = (uint8_t)v;
  return v;
}

#undef LEAF

static int eval3(kern_eval_t *X, uint32_t p, unsigned depth)
{
  return eval_at(X, p, depth, 0);
}

static int eval3_recorded(kern_eval_t *X, uint32_t p, unsigned depth)
{
  return eval_at(X, p, depth, 1);
}

void kern_run(kern_eval_t *X)
{
  X->pick = NONE;
  if (++X->now == 0) {         /* wrapped */
    memset(X->stamp, 0, X->K->n * sizeof *X->stamp);
    X->now = 1;
  }
}

int kern_value(kern_eval_t *X, uint32_t p)
{
  return X->record ? eval3_recorded(X, p, 0) : eval3(X, p, 0);
}

int kern_read(const kern_eval_t *X, uint32_t p)
{
  return X->stamp[p] == X->now ? X->memo[p] : VU;
}

void kern_unfix(kern_eval_t *X)
{
  memset(X->fixed, VU, X->K->n);
  X->onmove = NONE;
}

/* Forces proposition p to value v (V0, V1) and what that forces in turn:
 * a head that holds, the literals of its one rule; a head that fails,
 * the literal of each of its rules of one.  0 on a contradiction (p can
 * never have v). */
static int force(kern_eval_t *X, uint32_t p, int v, uint32_t *stack)
{
  uint32_t n = 0, i, j;
  X->fixed[p] = (uint8_t)v;
  stack[n++] = p;
  while (n) {
    p = stack[--n];
    if (X->kind[p] != K_RULES)
      continue;
    v = X->fixed[p];
    if (v == V1 && X->bh_lo[p + 1] - X->bh_lo[p] != 1)
      continue;
    for (i = X->bh_lo[p]; i < X->bh_lo[p + 1]; i++) {
      uint32_t r = X->bh[i];
      if (v == V0 && X->in_lo[r + 1] - X->in_lo[r] != 1)
        continue;
      for (j = X->in_lo[r]; j < X->in_lo[r + 1]; j++) {
        uint32_t q = X->in[j] >> 1;
        int x = (X->in[j] & 1) ? !v : v;
        if (X->fixed[q] == VU) {
          X->fixed[q] = (uint8_t)x;
          stack[n++] = q;
        } else if (X->fixed[q] != x) {
          return 0;
        }
      }
    }
  }
  return 1;
}

int kern_forces(gdl_ctx *ctx, kern_eval_t *X, uint32_t a,
                const uint32_t *rules, uint32_t n)
{
  uint32_t *stack = ctx_alloc(ctx, (X->K->n + 1) * sizeof *stack), i, j;
  int yes;
  kern_unfix(X);
  yes = !force(X, a, V1, stack);   /* a never holds: vacuously */
  kern_run(X);
  for (i = 0; i < n && !yes; i++) {
    int rv = V1;
    for (j = X->in_lo[rules[i]]; j < X->in_lo[rules[i] + 1] && rv == V1;
         j++) {
      int x = eval3(X, X->in[j] >> 1, 0);
      if (X->in[j] & 1)
        x = x == VU ? VU : !x;
      rv = x;
    }
    yes = rv == V1;
  }
  kern_unfix(X);
  ctx_free(ctx, stack);
  return yes;
}
