/*
 * counter.c - step counters: fluents that only count the moves made, left
 * out of the states a search stores and put back from the moves made.
 *
 * Invariant: the clock's fluents are autonomous (their `next` reads only
 * the clock, so after d moves from a start they have one value c(d) on
 * every path), nothing but terminal reads them, each rule of terminal
 * reads only the clock (Tc) or none of it (Tr), and goal 100 forces Tr.
 * Then a board reached by d1 <= d2 moves has, from (c(d1), board), a plan
 * as long as any from (c(d2), board): keeping the copy of fewer moves
 * loses no plan, and the verdicts and proven lengths are those of the
 * search without it (not the best goal of an unsolvable game where Tc is
 * not empty).  doc/solving.md ("Step counters") has the argument.
 */
#include <string.h>

#include "analysis/analysis.h"

#define NONE UINT32_MAX
#define MAX_TICKS 65536        /* values of a clock, at most */

struct counter {
  uint32_t slots;              /* fluent slots left out */
  int ends;                    /* terminal reads them */
  uint32_t nmw;                /* state words with a clock bit ... */
  uint32_t *mw, *mask;         /* ... where, and those bits */
  uint32_t *seq, n, loop;      /* c(d) for d < n, nmw words each; from n
                                  on they repeat c(loop), c(loop + 1) ... */
};

/* ---- which slots ------------------------------------------------------ */

typedef struct {
  gdl_ctx *ctx;
  ground_t *G;
  const uint32_t *bh_lo, *bh;  /* rules by head (the kernel's) */
  uint32_t *rd_lo, *rd;        /* rules by input */
  uint32_t *nx_lo, *nx;        /* slots by their `next` proposition */
  uint8_t *auton;              /* per slot: autonomous; then, in the
                                  clock */
  uint8_t *dep;                /* per proposition: reads a move or a
                                  fluent that is not autonomous */
  uint8_t *need;               /* per proposition: read by more than the
                                  clock */
  uint32_t *stack, nstack;
} scan_t;

static int has_rules(const scan_t *A, uint32_t p)
{
  return A->bh_lo[p + 1] > A->bh_lo[p];
}

/* Propositions by the rules that read them, and slots by their `next`. */
static void indexes(scan_t *A)
{
  ground_t *G = A->G;
  uint32_t n = G->nprops, r, j, p, i, *at;
  A->rd_lo = ctx_alloc(A->ctx, (n + 2) * sizeof *A->rd_lo);
  for (j = 0; j < G->in_lo[G->nrules]; j++)
    A->rd_lo[(G->in[j] >> 1) + 1]++;
  for (p = 0; p < n; p++)
    A->rd_lo[p + 1] += A->rd_lo[p];
  A->rd = ctx_alloc(A->ctx, (G->in_lo[G->nrules] + 1) * sizeof *A->rd);
  at = ctx_alloc(A->ctx, (n + 1) * sizeof *at);
  COPY(at, A->rd_lo, n * sizeof *at);
  for (r = 0; r < G->nrules; r++)
    for (j = G->in_lo[r]; j < G->in_lo[r + 1]; j++)
      A->rd[at[G->in[j] >> 1]++] = r;
  A->nx_lo = ctx_alloc(A->ctx, (n + 2) * sizeof *A->nx_lo);
  for (i = 0; i < G->nnext; i++)
    A->nx_lo[G->next[i].prop + 1]++;
  for (p = 0; p < n; p++)
    A->nx_lo[p + 1] += A->nx_lo[p];
  A->nx = ctx_alloc(A->ctx, (G->nnext + 1) * sizeof *A->nx);
  COPY(at, A->nx_lo, n * sizeof *at);
  for (i = 0; i < G->nnext; i++)
    A->nx[at[G->next[i].prop]++] = i;
  ctx_free(A->ctx, at);
}

static void push(scan_t *A, uint32_t p)
{
  A->stack[A->nstack++] = p;
}

/* dep[], forward from the moves: a slot whose `next` comes to depend is
 * not autonomous, and what reads it depends in turn. */
static void autonomous(scan_t *A)
{
  ground_t *G = A->G;
  gdl_ctx *ctx = A->ctx;
  uint32_t n = G->nprops, p, i, j;
  for (p = 0; p < n; p++) {
    const term_t *t = &ctx->terms[G->atom[p]];
    if (t->kind == T_FN && t->sym == S_DOES && t->arity == 2) {
      A->dep[p] = 1;
      push(A, p);
    }
  }
  while (A->nstack) {
    p = A->stack[--A->nstack];
    for (j = A->rd_lo[p]; j < A->rd_lo[p + 1]; j++) {
      uint32_t h = G->head[A->rd[j]];
      if (!A->dep[h]) {
        A->dep[h] = 1;
        push(A, h);
      }
    }
    for (j = A->nx_lo[p]; j < A->nx_lo[p + 1]; j++) {
      uint32_t tp = G->tprop[A->nx[j]];
      if (tp != NONE && !A->dep[tp]) {
        A->dep[tp] = 1;
        push(A, tp);
      }
    }
  }
  for (i = 0; i < G->ntslots; i++)
    A->auton[i] = i >= G->nnext || !A->dep[G->next[i].prop];
}

static void mark_needed(scan_t *A, uint32_t p)
{
  if (!A->need[p]) {
    A->need[p] = 1;
    push(A, p);
  }
}

/* need[], backward from p: what p reads is needed; an autonomous fluent
 * so needed leaves the clock, and what its `next` reads is needed too. */
static void mark_reads(scan_t *A, uint32_t p)
{
  ground_t *G = A->G;
  uint32_t j;
  mark_needed(A, p);
  while (A->nstack) {
    p = A->stack[--A->nstack];
    if (G->tslot[p]) {
      uint32_t s = G->tslot[p] - 1;
      if (A->auton[s] && s < G->nnext)
        mark_needed(A, G->next[s].prop);
    }
    for (j = A->bh_lo[p]; j < A->bh_lo[p + 1]; j++) {
      uint32_t r = A->bh[j], k;
      for (k = G->in_lo[r]; k < G->in_lo[r + 1]; k++)
        mark_needed(A, G->in[k] >> 1);
    }
  }
}

/* Whether what p reads, through the rules, comes to the `true` of a slot
 * outside the clock (stamp marks what was seen). */
static int reads_outside(scan_t *A, uint32_t p, uint32_t *seen, uint32_t stamp)
{
  ground_t *G = A->G;
  uint32_t j, k;
  A->nstack = 0;
  push(A, p);
  seen[p] = stamp;
  while (A->nstack) {
    p = A->stack[--A->nstack];
    if (G->tslot[p] && !A->auton[G->tslot[p] - 1])
      return 1;
    for (j = A->bh_lo[p]; j < A->bh_lo[p + 1]; j++) {
      uint32_t r = A->bh[j];
      for (k = G->in_lo[r]; k < G->in_lo[r + 1]; k++)
        if (seen[G->in[k] >> 1] != stamp) {
          seen[G->in[k] >> 1] = stamp;
          push(A, G->in[k] >> 1);
        }
    }
  }
  return 0;
}

/* The clock (auton[]) made to read only itself: a slot whose `next`
 * reads a fluent outside it (an autonomous one that something else needs)
 * leaves it, until none does, so that its values follow from its own. */
static void self_contained(scan_t *A)
{
  ground_t *G = A->G;
  uint32_t *seen = ctx_alloc(A->ctx, (G->nprops + 1) * sizeof *seen);
  uint32_t stamp = 0, i;
  int changed = 1;
  memset(seen, 0, (G->nprops + 1) * sizeof *seen);
  while (changed) {
    changed = 0;
    for (i = 0; i < G->nnext; i++)
      if (A->auton[i] && reads_outside(A, G->next[i].prop, seen, ++stamp)) {
        A->auton[i] = 0;
        changed = 1;
      }
  }
  ctx_free(A->ctx, seen);
}

/* The rules of terminal as a disjunction into out[] (Tc and Tr): a rule
 * of one positive literal naming a proposition of rules stands for them. */
static uint32_t disjuncts(scan_t *A, uint32_t term, uint32_t *out,
                          uint8_t *seen)
{
  ground_t *G = A->G;
  uint32_t nout = 0, p, j;
  push(A, term);
  seen[term] = 1;
  while (A->nstack) {
    p = A->stack[--A->nstack];
    for (j = A->bh_lo[p]; j < A->bh_lo[p + 1]; j++) {
      uint32_t r = A->bh[j], one = G->in_lo[r + 1] - G->in_lo[r] == 1;
      uint32_t lit = one ? G->in[G->in_lo[r]] : 1, q = lit >> 1;
      if (!(lit & 1) && has_rules(A, q) && !G->tslot[q]) {
        if (!seen[q]) {
          seen[q] = 1;
          push(A, q);
        }
      } else {
        out[nout++] = r;
      }
    }
  }
  return nout;
}

/* Whether rule r reads a move or a fluent outside the clock. */
static int reads_board(const scan_t *A, uint32_t r)
{
  const ground_t *G = A->G;
  uint32_t k;
  for (k = G->in_lo[r]; k < G->in_lo[r + 1]; k++)
    if (A->dep[G->in[k] >> 1])
      return 1;
  return 0;
}

/* A scan of G's network (K its kernel), with the autonomous slots found
 * (auton[]). */
static void scan_open(scan_t *A, gdl_ctx *ctx, ground_t *G, const kern_t *K)
{
  uint32_t n = G->nprops;
  memset(A, 0, sizeof *A);
  A->ctx = ctx;
  A->G = G;
  A->bh_lo = K->bh_lo;
  A->bh = K->bh;
  indexes(A);
  A->auton = ctx_alloc(ctx, G->ntslots + 1);
  A->dep = ctx_alloc(ctx, n + 1);
  A->need = ctx_alloc(ctx, n + 1);
  A->stack = ctx_alloc(ctx, (n + 1) * sizeof *A->stack);
  autonomous(A);
}

static void scan_close(scan_t *A)
{
  gdl_ctx *ctx = A->ctx;
  ctx_free(ctx, A->rd_lo);
  ctx_free(ctx, A->rd);
  ctx_free(ctx, A->nx_lo);
  ctx_free(ctx, A->nx);
  ctx_free(ctx, A->auton);
  ctx_free(ctx, A->dep);
  ctx_free(ctx, A->need);
  ctx_free(ctx, A->stack);
}

/* The autonomous slots whose `next` reads only each other, whoever reads
 * them, into auton[] (one per slot): how many.  Their values after d moves
 * follow from their values now, on every path (budget.c). */
uint32_t counter_autonomous(gdl_ctx *ctx, const kern_t *K, uint8_t *auton)
{
  ground_t *G = ctx->ground;
  scan_t A;
  uint32_t i, n = 0;
  scan_open(&A, ctx, G, K);
  self_contained(&A);
  for (i = 0; i < G->ntslots; i++)
    n += auton[i] = A.auton[i] && G->tprop[i] != NONE;
  scan_close(&A);
  return n;
}

/* The slots of the clock into mask[] (words of a state): how many; 0
 * where there is none or it is read where it may not be.  *ends: whether
 * terminal reads it; *tr (ctx's), *ntr: terminal's rules that do not
 * (Tr).  The kernel and, where needed, the estimator are an's. */
static uint32_t clock_slots(gdl_ctx *ctx, analyses_t *an, ground_t *G,
                            uint32_t words, uint32_t *mask, int *ends,
                            uint32_t **tr, uint32_t *ntr)
{
  scan_t A;
  uint32_t n = G->nprops, r, j, i, nd, ntc = 0, nslots = 0, term, goal = NONE;
  uint32_t *dis;
  uint8_t *seen;
  scan_open(&A, ctx, G, kern_get(ctx, an));
  /* what reads the clock where only terminal may */
  for (r = 0; r < ctx->nroles; r++) {
    for (j = 0; j < G->nlegal[r]; j++) {
      mark_reads(&A, G->legal[r][j].prop);
      mark_reads(&A, G->lgate[r][j]);
    }
    for (j = 0; j < G->ngoal[r]; j++) {
      mark_reads(&A, G->goal[r][j].prop);
      if (r == 0 && gdl_term_int(ctx, G->goal[r][j].term) == 100)
        goal = G->goal[r][j].prop;
    }
  }
  for (i = 0; i < G->nnext; i++)
    if (!A.auton[i])
      mark_reads(&A, G->next[i].prop);
  term = G->terminal ? G->terminal - 1 : NONE;
  dis = ctx_alloc(ctx, (G->nrules + 1) * sizeof *dis);
  seen = ctx_alloc(ctx, n + 1);
  nd = term == NONE ? 0 : disjuncts(&A, term, dis, seen);
  if (term != NONE && !has_rules(&A, term))
    mark_reads(&A, term);           /* terminal is a fluent, or always */
  for (j = 0; j < nd; j++) {
    if (!reads_board(&A, dis[j])) {
      dis[j] = NONE;           /* Tc */
      ntc++;
      continue;
    }
    for (i = G->in_lo[dis[j]]; i < G->in_lo[dis[j] + 1]; i++)
      mark_reads(&A, G->in[i] >> 1);
  }
  for (i = 0; i < G->ntslots; i++)     /* auton[] becomes the clock */
    A.auton[i] = A.auton[i] && (G->tprop[i] == NONE || !A.need[G->tprop[i]]);
  self_contained(&A);
  memset(mask, 0, words * sizeof *mask);
  for (i = 0; i < G->ntslots; i++)
    if (A.auton[i]) {
      mask[i >> 5] |= 1u << (i & 31);
      nslots++;
    }
  *ntr = 0;
  for (j = 0; j < nd; j++)
    if (dis[j] != NONE)
      dis[(*ntr)++] = dis[j];
  if (nslots && ntc) {         /* goal 100 must force Tr */
    est_t *E = est_get(ctx, an);
    if (goal != NONE &&        /* (none: goal 100 never holds) */
        (!E || !kern_forces(ctx, est_eval(E), goal, dis, *ntr)))
      nslots = 0;
  }
  *ends = ntc > 0;
  *tr = ctx_realloc(ctx, dis, (*ntr + 1) * sizeof *dis);
  scan_close(&A);
  ctx_free(ctx, seen);
  return nslots;
}

/* ---- the clock of a search ------------------------------------------- */

void counter_free(gdl_ctx *ctx, counter_t *C)
{
  if (!C)
    return;
  ctx_free(ctx, C->mw);
  ctx_free(ctx, C->mask);
  ctx_free(ctx, C->seq);
  ctx_free(ctx, C);
}

static const uint32_t *tick(const counter_t *C, uint32_t d)
{
  if (d >= C->n)
    d = C->loop + (d - C->loop) % (C->n - C->loop);
  return C->seq + (size_t)d * C->nmw;
}

void counter_out(const counter_t *C, uint32_t *w)
{
  uint32_t i;
  for (i = 0; i < C->nmw; i++)
    w[C->mw[i]] &= ~C->mask[i];
}

void counter_in(const counter_t *C, uint32_t *w, uint32_t depth)
{
  const uint32_t *c = tick(C, depth);
  uint32_t i;
  for (i = 0; i < C->nmw; i++)
    w[C->mw[i]] = (w[C->mw[i]] & ~C->mask[i]) | c[i];
}

uint32_t counter_slots(const counter_t *C)
{
  return C ? C->slots : 0;
}

int counter_ends(const counter_t *C)
{
  return C && C->ends;
}

/* The hash of the clock's value c(d), d < C->n + 1. */
static uint32_t tick_hash(const counter_t *C, uint32_t d)
{
  const uint32_t *c = C->seq + (size_t)d * C->nmw;
  uint32_t h = 0, i;
  for (i = 0; i < C->nmw; i++)
    h = (h ^ c[i]) * 0x9e3779b1u;
  return h;
}

/* The clock's values from `start` (bits) into C->seq, until one comes
 * again; 0 where it never changes, or takes more than MAX_TICKS values,
 * or the start has no joint move. */
static int ticks(gdl_ctx *ctx, counter_t *C, const uint32_t *start,
                 uint32_t words)
{
  uint32_t *cur = ctx_alloc(ctx, (words + 1) * sizeof *cur);
  uint32_t *nxt = ctx_alloc(ctx, (words + 1) * sizeof *nxt);
  gdl_term joint[64];
  uint32_t *tab = NULL, tmask = 0, r, i, cap = 0;
  int ok = 0;
  copy_words(cur, start, words);
  ground_set_bits(ctx, cur);
  for (r = 0; r < ctx->nroles; r++) {
    const gdl_term *mv;
    uint32_t nm;
    ground_legal(ctx, r, &mv, &nm);
    if (nm == 0)
      goto out;
    joint[r] = mv[0];
  }
  for (C->n = 0;; C->n++) {
    uint32_t h, j, e, *c;
    if (C->n >= MAX_TICKS)
      goto out;
    if (C->n >= cap) {
      cap = cap ? cap * 2 : 64;
      C->seq = ctx_realloc(ctx, C->seq, (size_t)cap * C->nmw * sizeof *C->seq);
    }
    c = C->seq + (size_t)C->n * C->nmw;
    for (i = 0; i < C->nmw; i++)
      c[i] = cur[C->mw[i]] & C->mask[i];
    if (C->n * 2 >= tmask) {   /* the table of values seen, half empty */
      uint32_t m = tmask ? tmask * 2 + 1 : 127, k;
      ctx_free(ctx, tab);
      tab = ctx_alloc(ctx, ((size_t)m + 1) * sizeof *tab);
      tmask = m;
      for (k = 0; k < C->n; k++) {
        for (j = tick_hash(C, k) & tmask; tab[j]; j = (j + 1) & tmask)
          ;
        tab[j] = k + 1;
      }
    }
    h = tick_hash(C, C->n);
    for (j = h & tmask; (e = tab[j]) != 0; j = (j + 1) & tmask)
      if (memcmp(C->seq + (size_t)(e - 1) * C->nmw, c,
                 C->nmw * sizeof *c) == 0)
        break;
    if (e) {                   /* c(n) = c(e - 1): they repeat */
      C->loop = e - 1;
      ok = C->n > 1 || C->loop != 0;
      goto out;
    }
    tab[j] = C->n + 1;
    ground_set_bits(ctx, cur);
    ground_next_bits(ctx, joint, nxt);
    for (i = 0; i < C->nmw; i++)
      cur[C->mw[i]] = (cur[C->mw[i]] & ~C->mask[i]) |
                      (nxt[C->mw[i]] & C->mask[i]);
    if ((C->n & 15) == 15)     /* a step is the network's: may be dear */
      ctx_poll(ctx);
  }
out:
  ctx_free(ctx, tab);
  ctx_free(ctx, cur);
  ctx_free(ctx, nxt);
  return ok;
}

uint32_t counter_clock(gdl_ctx *ctx, analyses_t *an)
{
  ground_t *G = ctx->ground;
  uint32_t words = ground_state_words(ctx);
  if (!G || !words)
    return 0;
  if (!an->counter_tried) {
    an->counter_mask = ctx_alloc(ctx, (words + 1) * sizeof *an->counter_mask);
    an->counter_slots = clock_slots(ctx, an, G, words, an->counter_mask,
                                    &an->counter_ends, &an->counter_tr,
                                    &an->counter_ntr);
    an->counter_tried = 1;
  }
  return an->counter_slots;
}

counter_t *counter_start(gdl_ctx *ctx, analyses_t *an, const uint32_t *start)
{
  uint32_t words = ground_state_words(ctx), i, k;
  counter_t *C;
  if (!counter_clock(ctx, an))
    return NULL;
  C = ctx_alloc(ctx, sizeof *C);
  memset(C, 0, sizeof *C);
  C->slots = an->counter_slots;
  C->ends = an->counter_ends;
  for (i = 0; i < words; i++)
    C->nmw += an->counter_mask[i] != 0;
  C->mw = ctx_alloc(ctx, (C->nmw + 1) * sizeof *C->mw);
  C->mask = ctx_alloc(ctx, (C->nmw + 1) * sizeof *C->mask);
  for (i = 0, k = 0; i < words; i++)
    if (an->counter_mask[i]) {
      C->mw[k] = i;
      C->mask[k++] = an->counter_mask[i];
    }
  if (!ticks(ctx, C, start, words)) {
    counter_free(ctx, C);
    return NULL;
  }
  return C;
}
