/*
 * stubborn.c - partial-order reduction: of a state's legal moves, only
 * those of a strong stubborn set are searched, and a shortest plan is
 * kept.
 *
 * Invariant: the set T holds every move that may set a landmark (a
 * literal goal 100 needs that the state lacks); for a move of T not
 * legal here, the setters of a literal it lacks; for a legal one, every
 * move that may disable it, that it may disable, or whose effect does not
 * commute with its own, unless that move falsifies a literal it needs for
 * good.  Then every plan can be reordered to begin with a legal move of
 * T at the same length.  It needs moves like a planner's operators (one
 * role; each move's effect on each fluent the same in every state, or in
 * every state where one of a pair of fluents holds, as a lamp's on and
 * off, which stub_holds checks of the start; a step counter's fluents
 * left out; goal 100 needs a literal), which a symbolic three-valued
 * evaluation checks; else the reduction is off.  doc/solving.md ("Moves
 * that commute: stubborn sets") has the argument.
 *
 * Evaluation.  A scalar run is the kernel's (kernel.c), recorded: every
 * proposition read is memoized, so reads() can follow what terminal's
 * last run left unknown, and X.work counts the rules read.  A run with
 * the moves symbolic (effects(): a fluent's `next` for all moves at once)
 * is a layer here on the kernel's fixed values, stamps, kinds and rules
 * by head: a value is a pair of move sets, and per move it is the
 * kernel's value with that move's `does` fixed true and every other
 * `does` false.  It is not nm scalar runs because (a) it costs W words a
 * literal where those would cost nm, up to 64 times as much, and the work
 * decides when the reduction is given up on (BUDGET); (b) it stops a
 * disjunction (conjunction) only once it holds (fails) for every move, so
 * it reads propositions that a move's own run would skip, and a
 * proposition it first reaches past EVAL_DEPTH is unknown for every move,
 * where a move's run that first reached it nearer the top would know it:
 * on rules nested deeper than EVAL_DEPTH, an effect found here unknown
 * (reduction off) could be found by the scalar runs.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

#define NONE UINT32_MAX
/* A move's effect on a fluent: bit 0 its value after the move from false,
 * bit 1 from true. */
enum { SET0 = 0, FLIP = 1, KEEP = 2, SET1 = 3 };
#define EVAL_DEPTH 4000
#define MAX_MOVES 8192         /* more: no reduction (a value is 2 sets) */
#define BUDGET 100000000ull    /* words of evaluation, at most */
#define MAX_CLOSURES 16        /* landmarks tried per state */
/* The reduction is given up on, for the rest of the solve, where its
 * work (moves and setters looked at) passes REDUCE_WORK a state and as
 * much again a successor it left out, after an allowance of
 * REDUCE_TRIAL states: about what making those successors would cost.
 * comp2006_CHIMPANZEE: 80,000 a state to leave out 1 of 14 moves; the
 * sudokus, Lights Out: 4 to 120 to leave out all but one to four.  The
 * work is counted, not timed, so that a search is the same every run. */
#define REDUCE_TRIAL 256
#define REDUCE_WORK 1000

struct stubborn {
  gdl_ctx *ctx;                /* whose memory the arena is */
  ground_t *G;
  uint32_t n, nm, ns, W;       /* propositions, moves, slots, words */
  /* evaluation: scalar runs are the kernel's, recorded; a run of the
   * moves symbolic keeps a value of W words (moves where it holds) then
   * W (where it fails) in the arena, on the kernel's fixed and stamps */
  kern_eval_t X;               /* what is fixed; scalar runs */
  uint32_t *dmove;             /* per `does` proposition: its move */
  uint32_t *off;               /* per proposition: its value, set-valued */
  uint64_t *arena;
  size_t narena, arenacap;
  uint32_t w;                  /* words of a set: W */
  uint64_t work;               /* words of set-valued evaluation */
  /* per move */
  uint32_t *legal, *gate;      /* its legal proposition, its gate or NONE */
  uint8_t *ends;               /* the game is over once it is made */
  uint64_t *byterm;            /* term << 32 | move, sorted */
  uint32_t *pre_lo, *pre;      /* literals it needs: slot * 2 + value */
  uint32_t *sup_lo, *sup;      /* slots read beyond them (any change
                                  disables it) */
  uint32_t *eff_lo, *eff;      /* slot * 4 + effect, KEEP left out */
  uint32_t *pair, npair;       /* slots 2i, 2i + 1: one holds, whose
                                  effects assume it (stub_holds) */
  int term_wins;               /* terminal forces goal 100 */
  uint8_t *perm;               /* per effect: set for good */
  /* per slot */
  uint32_t *ach_lo[2], *ach[2];   /* moves that may make it false, true:
                                     move * 4 + effect */
  uint32_t *rd_lo, *rd;        /* moves whose legality reads it: move *
                                  4 + the value needed, or 2 (any) */
  uint32_t *gl, ngl;           /* literals goal 100 needs */
  uint32_t term;               /* terminal */
  /* per state */
  uint32_t *app, anow;         /* stamps: legal here */
  uint32_t *inT, snow;         /* stamps: in T */
  uint32_t *idx;               /* per legal move here: its move */
  uint32_t *pm, pnow;          /* per slot: 2 * pnow + value a needs */
  uint32_t *list, nlist;
  uint32_t *lit, *cnt;         /* landmarks here, their legal setters */
  uint64_t rwork, rcalls, rcut; /* the reduction's work, states, and
                                   successors left out, so far */
  int given_up;                /* (REDUCE_WORK) */
  gdl_term *out;
};

/* ---- evaluation ------------------------------------------------------- */

static uint64_t *value_at(stub_t *T, uint32_t o)
{
  return T->arena + o;
}

/* Room for one value in the arena: its offset. */
static uint32_t arena_room(stub_t *T)
{
  size_t need = T->narena + 2 * T->w;
  uint32_t o = (uint32_t)T->narena;
  if (need > T->arenacap) {
    size_t c = T->arenacap ? T->arenacap : 1024;
    while (c < need)
      c *= 2;
    T->arena = ctx_realloc(T->ctx, T->arena, c * sizeof *T->arena);
    T->arenacap = c;
  }
  T->narena = need;
  return o;
}

static void set_const(stub_t *T, uint32_t o, int v)
{
  uint64_t *x = value_at(T, o);
  memset(x, v == V1 ? 0xff : 0, T->w * 8);
  memset(x + T->w, v == V0 ? 0xff : 0, T->w * 8);
}

/* Whether value o holds (half 0) or fails (half 1) for every move: then
 * the rest of a disjunction (conjunction) cannot change it.  Bits past
 * the last move may spoil it, which only costs time. */
static int all_moves(const stub_t *T, uint32_t o, int half)
{
  const uint64_t *x = T->arena + o + half * T->w;
  uint32_t k;
  for (k = 0; k < T->w; k++)
    if (x[k] != UINT64_MAX)
      return 0;
  return 1;
}

/* The value of proposition p (an offset) in a run with the moves
 * symbolic: per move, the kernel's value with that move's `does` true
 * and every other `does` false, save that a proposition past EVAL_DEPTH
 * is unknown for all moves at once. */
static uint32_t eval_moves(gdl_ctx *ctx, stub_t *T, uint32_t p,
                           unsigned depth)
{
  kern_eval_t *X = &T->X;
  uint32_t o, i, j, k;
  if (X->stamp[p] == X->now)
    return T->off[p];
  o = arena_room(T);
  X->stamp[p] = X->now;
  T->off[p] = o;
  if (kern_fixed(X, p) != VU) {
    set_const(T, o, kern_fixed(X, p));
    return o;
  }
  switch (X->kind[p]) {
  case K_ALWAYS:
    set_const(T, o, V1);
    return o;
  case K_TRUE:
  case K_RECURSIVE:
    set_const(T, o, VU);
    return o;
  case K_INPUT:                /* a move no role can make */
    set_const(T, o, V0);
    return o;
  case K_MOVE: {
    uint32_t m = T->dmove[p];
    set_const(T, o, V0);
    value_at(T, o)[m >> 6] |= (uint64_t)1 << (m & 63);
    value_at(T, o)[T->w + (m >> 6)] &= ~((uint64_t)1 << (m & 63));
    return o;
  }
  default:
    break;
  }
  if (depth > EVAL_DEPTH) {
    set_const(T, o, VU);
    return o;
  }
  if (kern_fixed_rule(X, p)) {
    set_const(T, o, V1);
    return o;
  }
  set_const(T, o, V0);         /* a disjunction of its rules */
  for (i = X->bh_lo[p]; i < X->bh_lo[p + 1] && !all_moves(T, o, 0); i++) {
    uint32_t r = X->bh[i], ro = arena_room(T);
    set_const(T, ro, V1);      /* a conjunction of its literals */
    for (j = X->in_lo[r]; j < X->in_lo[r + 1] && !all_moves(T, ro, 1); j++) {
      uint32_t q = eval_moves(ctx, T, X->in[j] >> 1, depth + 1);
      int neg = X->in[j] & 1;
      uint64_t *rv = value_at(T, ro), *qv = value_at(T, q);
      for (k = 0; k < T->w; k++) {
        rv[k] &= neg ? qv[T->w + k] : qv[k];
        rv[T->w + k] |= neg ? qv[k] : qv[T->w + k];
      }
    }
    {
      uint64_t *pv = value_at(T, o), *rv = value_at(T, ro);
      for (k = 0; k < T->w; k++) {
        pv[k] |= rv[k];
        pv[T->w + k] &= rv[T->w + k];
      }
    }
    T->work += (uint64_t)(X->in_lo[r + 1] - X->in_lo[r] + 1) * T->w;
  }
  POLL(ctx);
  return o;
}

/* A new run with the moves symbolic. */
static void new_run(stub_t *T)
{
  kern_run(&T->X);
  T->narena = 0;
}

/* The words of evaluation done, scalar and set-valued. */
static uint64_t work(const stub_t *T)
{
  return T->work + T->X.work;
}

/* The scalar value of p, in a run of its own (recorded: see unknown()). */
static int eval_scalar(stub_t *T, uint32_t p)
{
  kern_run(&T->X);
  return kern_value(&T->X, p);
}

/* Move m's legality, scalar: its legal proposition and its gate. */
static int legal1(stub_t *T, uint32_t m)
{
  int a = eval_scalar(T, T->legal[m]), b;
  if (a == V0 || T->gate[m] == NONE)
    return a;
  b = eval_scalar(T, T->gate[m]);
  return b == V0 ? V0 : a == V1 && b == V1 ? V1 : VU;
}

/* Whether proposition q is unknown in the last (scalar) run. */
static int unknown(const stub_t *T, uint32_t q)
{
  return kern_read(&T->X, q) == VU;
}

/* The slots of the fluents that proposition p reads, into *out (marked in
 * seen[] with `mk`); with `live`, only through propositions unknown in
 * the last run, which p's evaluation was. */
static void reads(stub_t *T, uint32_t p, int live, uint32_t *stack,
                  uint32_t *seen, uint32_t mk, uint32_t **out, uint32_t *nout,
                  uint32_t *cap, gdl_ctx *ctx)
{
  const ground_t *G = T->G;
  uint32_t top = 0, i, j;
  if (seen[p] == mk || (live && !unknown(T, p)))
    return;
  seen[p] = mk;
  stack[top++] = p;
  while (top) {
    uint32_t q = stack[--top];
    if (T->X.kind[q] == K_TRUE) {
      GROW(ctx, *out, *cap, *nout);
      (*out)[(*nout)++] = G->tslot[q] - 1;
      continue;
    }
    for (i = T->X.bh_lo[q]; i < T->X.bh_lo[q + 1]; i++)
      for (j = G->in_lo[T->X.bh[i]]; j < G->in_lo[T->X.bh[i] + 1]; j++) {
        uint32_t x = G->in[j] >> 1;
        if (seen[x] != mk && !(live && !unknown(T, x))) {
          seen[x] = mk;
          stack[top++] = x;
        }
      }
  }
}

/* ---- building --------------------------------------------------------- */

/* The evaluation's memory, of no use once built. */
static void free_eval(gdl_ctx *ctx, stub_t *T)
{
  kern_eval_close(ctx, &T->X);
  ctx_free(ctx, T->dmove);
  ctx_free(ctx, T->off);
  ctx_free(ctx, T->arena);
  ctx_free(ctx, T->legal);
  ctx_free(ctx, T->gate);
  T->dmove = T->off = T->legal = T->gate = NULL;
  T->arena = NULL;
}

void stub_free(gdl_ctx *ctx, stub_t *T)
{
  int v;
  if (!T)
    return;
  free_eval(ctx, T);
  ctx_free(ctx, T->byterm);
  ctx_free(ctx, T->ends);
  ctx_free(ctx, T->pre_lo);
  ctx_free(ctx, T->pre);
  ctx_free(ctx, T->sup_lo);
  ctx_free(ctx, T->sup);
  ctx_free(ctx, T->eff_lo);
  ctx_free(ctx, T->eff);
  ctx_free(ctx, T->perm);
  ctx_free(ctx, T->pair);
  for (v = 0; v < 2; v++) {
    ctx_free(ctx, T->ach_lo[v]);
    ctx_free(ctx, T->ach[v]);
  }
  ctx_free(ctx, T->rd_lo);
  ctx_free(ctx, T->rd);
  ctx_free(ctx, T->gl);
  ctx_free(ctx, T->app);
  ctx_free(ctx, T->inT);
  ctx_free(ctx, T->pm);
  ctx_free(ctx, T->list);
  ctx_free(ctx, T->lit);
  ctx_free(ctx, T->cnt);
  ctx_free(ctx, T->idx);
  ctx_free(ctx, T->out);
  ctx_free(ctx, T);
}

/* The `next` of slot x (s or t) for every move into res: a value (two
 * sets of W words) where slot s is false, then one where it is true;
 * slot t (NONE: none) fixed to the opposite of s. */
static void next_by_value(gdl_ctx *ctx, stub_t *T, uint32_t s, uint32_t t,
                          uint32_t x, uint64_t *res)
{
  const ground_t *G = T->G;
  uint32_t tp = G->tprop[s], v, W = T->W;
  for (v = 0; v < 2; v++) {
    if (x >= G->nnext) {       /* no `next` makes it: false after any */
      memset(res + 2 * W * v, 0, W * 8);
      memset(res + 2 * W * v + W, 0xff, W * 8);
      continue;
    }
    if (tp != NONE)
      kern_fix(&T->X, tp, v);
    if (t != NONE)
      kern_fix(&T->X, G->tprop[t], !v);
    new_run(T);
    memcpy(res + 2 * W * v,
           value_at(T, eval_moves(ctx, T, G->next[x].prop, 0)), 2 * W * 8);
    if (tp != NONE)
      kern_fix(&T->X, tp, VU);
    if (t != NONE)
      kern_fix(&T->X, G->tprop[t], VU);
  }
}

/* Move m's effect code on a slot from next_by_value's res, or 4 where it
 * depends on more than the slot's value. */
static uint32_t code_of(const stub_t *T, const uint64_t *res, uint32_t m)
{
  uint32_t code = 0, b = m >> 6, v;
  uint64_t bit = (uint64_t)1 << (m & 63);
  for (v = 0; v < 2; v++) {
    const uint64_t *x = res + 2 * T->W * v;
    if (x[b] & bit)
      code |= 1u << v;
    else if (!(x[T->W + b] & bit))
      return 4;
  }
  return code;
}

/* The one slot other than s that s's `next` reads, or NONE; *buf holds
 * the scratch (allocated on first use, freed by the caller). */
static uint32_t partner(gdl_ctx *ctx, stub_t *T, uint32_t s, uint32_t **buf)
{
  const ground_t *G = T->G;
  uint32_t *rs = NULL, nrs = 0, cap = 0, t = NONE, i, n = 0;
  if (s >= G->nnext || G->tprop[s] == NONE)
    return NONE;
  if (!*buf)
    *buf = ctx_alloc(ctx, 2 * (T->n + 1) * sizeof **buf);
  reads(T, G->next[s].prop, 0, *buf, *buf + T->n + 1, s + 1, &rs, &nrs, &cap,
        ctx);
  for (i = 0; i < nrs; i++)
    if (rs[i] != s) {
      if (n++)
        t = NONE;              /* two or more */
      else
        t = rs[i];
    }
  ctx_free(ctx, rs);
  return t != NONE && t < G->nnext && G->tprop[t] != NONE ? t : NONE;
}

/* Each move's effect on each slot (SET0, FLIP, KEEP, SET1); 0 where
 * one is unknown.  A slot whose `next` reads one other slot, where each
 * move's `next` of the two is known when one holds and is one of them
 * again (on/off of a light), is a pair: its effects assume that one of
 * the two holds, which then holds in every state reached from a state
 * where it does (by induction over the moves; stub_holds checks the
 * start). */
static int effects(gdl_ctx *ctx, stub_t *T, const uint32_t *clock)
{
  const ground_t *G = T->G;
  uint32_t s, m, W = T->W, ne = 0, cap = 0, *e = NULL, *at, *buf = NULL;
  uint32_t paircap = 0;
  uint64_t *res = ctx_alloc(ctx, 8 * W * sizeof *res);
  int ok = 1;
  for (s = 0; s < T->ns && ok; s++) {
    uint32_t t = NONE;
    if ((s >= G->nnext && G->tprop[s] == NONE) || (clock && word_bit(clock, s)))
      continue;                /* nothing makes it, nothing reads it; or
                                  a clock, which every move advances
                                  alike and only terminal reads */
    next_by_value(ctx, T, s, NONE, s, res);
    for (m = 0; m < T->nm && code_of(T, res, m) != 4; m++)
      ;
    if (m < T->nm) {           /* unknown: depends on the state */
      if ((t = partner(ctx, T, s, &buf)) == NONE)
        break;
      next_by_value(ctx, T, s, t, s, res);
      next_by_value(ctx, T, s, t, t, res + 4 * W);
      for (m = 0; m < T->nm; m++)     /* complements, both known (3 ^ 4 is
                                         no code) */
        if (code_of(T, res, m) != (3 ^ code_of(T, res + 4 * W, m)))
          break;
      if (m < T->nm)
        break;
      GROW(ctx, T->pair, paircap, T->npair * 2 + 1);
      T->pair[2 * T->npair] = s;
      T->pair[2 * T->npair++ + 1] = t;
    }
    for (m = 0; m < T->nm; m++) {
      uint32_t code = code_of(T, res, m);
      if (code != KEEP) {
        GROW(ctx, e, cap, ne + 1);
        e[ne++] = s * 4 + code;
        e[ne++] = m;
      }
    }
    if (work(T) > BUDGET)
      ok = 0;
  }
  ctx_free(ctx, res);
  ctx_free(ctx, buf);
  if (s < T->ns)
    ok = 0;                    /* stopped at an effect unknown */
  if (!ok) {
    ctx_free(ctx, e);
    return 0;
  }
  /* by move */
  ne /= 2;
  T->eff_lo = ctx_alloc(ctx, (T->nm + 2) * sizeof *T->eff_lo);
  T->eff = ctx_alloc(ctx, (ne + 1) * sizeof *T->eff);
  T->perm = ctx_alloc(ctx, ne + 1);
  for (s = 0; s < ne; s++)
    T->eff_lo[e[2 * s + 1] + 1]++;
  for (m = 0; m < T->nm; m++)
    T->eff_lo[m + 1] += T->eff_lo[m];
  at = ctx_alloc(ctx, (T->nm + 1) * sizeof *at);
  COPY(at, T->eff_lo, T->nm * sizeof *at);
  for (s = 0; s < ne; s++)
    T->eff[at[e[2 * s + 1]]++] = e[2 * s];
  ctx_free(ctx, at);
  ctx_free(ctx, e);
  return 1;
}

/* Per slot, the moves that may set it to each value. */
static void setters(gdl_ctx *ctx, stub_t *T)
{
  uint32_t m, i, v, *at;
  for (v = 0; v < 2; v++) {
    T->ach_lo[v] = ctx_alloc(ctx, (T->ns + 2) * sizeof *T->ach_lo[v]);
    for (m = 0; m < T->nm; m++)
      for (i = T->eff_lo[m]; i < T->eff_lo[m + 1]; i++)
        if (((T->eff[i] & 3) >> (1 - v) & 1) == v)
          T->ach_lo[v][(T->eff[i] >> 2) + 1]++;
    for (i = 0; i < T->ns; i++)
      T->ach_lo[v][i + 1] += T->ach_lo[v][i];
    T->ach[v] = ctx_alloc(ctx, (T->ach_lo[v][T->ns] + 1) * sizeof *T->ach[v]);
    at = ctx_alloc(ctx, (T->ns + 1) * sizeof *at);
    COPY(at, T->ach_lo[v], T->ns * sizeof *at);
    for (m = 0; m < T->nm; m++)
      for (i = T->eff_lo[m]; i < T->eff_lo[m + 1]; i++)
        if (((T->eff[i] & 3) >> (1 - v) & 1) == v)
          T->ach[v][at[T->eff[i] >> 2]++] = m * 4 + (T->eff[i] & 3);
    ctx_free(ctx, at);
  }
}

/* Terminal where move m is legal: its legal proposition and gate forced
 * true (and whatever is fixed now), scalar. */
static int term_if(stub_t *T, uint32_t m)
{
  int old = T->gate[m] != NONE ? kern_fixed(&T->X, T->gate[m]) : 0;
  int v;
  kern_fix(&T->X, T->legal[m], V1);
  if (T->gate[m] != NONE)
    kern_fix(&T->X, T->gate[m], V1);
  v = eval_scalar(T, T->term);
  kern_fix(&T->X, T->legal[m], VU);
  if (T->gate[m] != NONE)
    kern_fix(&T->X, T->gate[m], old);
  return v;
}

/* Of slots rs[lo, hi), the literals move m needs, appended to T->pre:
 * those whose opposite makes its legality false (of_term: makes terminal
 * true where m is legal). */
static void needs(gdl_ctx *ctx, stub_t *T, uint32_t m, const uint32_t *rs,
                  uint32_t lo, uint32_t hi, int of_term, uint32_t *npre,
                  uint32_t *precap)
{
  uint32_t i, v;
  for (i = lo; i < hi; i++) {
    uint32_t tp = T->G->tprop[rs[i]];
    for (v = 0; v < 2; v++) {
      kern_fix(&T->X, tp, v);
      if (of_term ? term_if(T, m) == V1 : legal1(T, m) == V0) {
        GROW(ctx, T->pre, *precap, *npre);
        T->pre[(*npre)++] = rs[i] * 2 + !v;
      }
    }
    kern_fix(&T->X, tp, VU);
  }
}

/* Per move, the literals its legality needs and the slots it reads
 * beyond them; per slot, the moves whose legality reads it.  0 past the
 * budget. */
static int legality(gdl_ctx *ctx, stub_t *T)
{
  const ground_t *G = T->G;
  uint32_t m, i, *stack = ctx_alloc(ctx, (T->n + 1) * sizeof *stack);
  uint32_t *seen = ctx_alloc(ctx, (T->n + 1) * sizeof *seen);
  uint32_t *rs = NULL, nrs = 0, rscap = 0, npre = 0, precap = 0;
  uint32_t nsup = 0, supcap = 0, nrd = 0, rdcap = 0, *rd = NULL, *at;
  int ok = 1;
  T->pre_lo = ctx_alloc(ctx, (T->nm + 2) * sizeof *T->pre_lo);
  T->sup_lo = ctx_alloc(ctx, (T->nm + 2) * sizeof *T->sup_lo);
  for (m = 0; m < T->nm && ok; m++) {
    uint32_t lo = npre;
    int conj;
    nrs = 0;
    reads(T, T->legal[m], 0, stack, seen, m + 1, &rs, &nrs, &rscap, ctx);
    if (T->gate[m] != NONE)
      reads(T, T->gate[m], 0, stack, seen, m + 1, &rs, &nrs, &rscap, ctx);
    needs(ctx, T, m, rs, 0, nrs, 0, &npre, &precap);
    for (i = lo; i < npre; i++)
      kern_fix(&T->X, G->tprop[T->pre[i] >> 1], T->pre[i] & 1);
    conj = legal1(T, m) == V1;
    /* where m is legal, the state must not be terminal: the literals
     * that needs too (a move made in a terminal state is no move); not
     * where every terminal state is a win, since a plan reordered that
     * passes one has a prefix that is a plan, no longer */
    if (!T->term_wins && term_if(T, m) != V0) {
      uint32_t r0 = nrs, k0 = npre;
      reads(T, T->term, 1, stack, seen, m + 1, &rs, &nrs, &rscap, ctx);
      needs(ctx, T, m, rs, r0, nrs, 1, &npre, &precap);
      for (i = k0; i < npre; i++)
        kern_fix(&T->X, G->tprop[T->pre[i] >> 1], T->pre[i] & 1);
      conj = conj && term_if(T, m) == V0;
    }
    for (i = lo; i < npre; i++)
      kern_fix(&T->X, G->tprop[T->pre[i] >> 1], VU);
    T->pre_lo[m + 1] = npre;
    for (i = 0; i < nrs; i++) {
      uint32_t need = 2, j;
      for (j = lo; j < npre; j++)
        if (T->pre[j] >> 1 == rs[i])
          need = T->pre[j] & 1;
      if (need == 2 && conj)
        continue;              /* not read after all */
      if (!conj) {
        need = 2;
        GROW(ctx, T->sup, supcap, nsup);
        T->sup[nsup++] = rs[i];
      }
      GROW(ctx, rd, rdcap, nrd + 1);
      rd[nrd++] = rs[i];
      rd[nrd++] = m * 4 + need;
    }
    T->sup_lo[m + 1] = nsup;
    if (work(T) > BUDGET)
      ok = 0;
  }
  ctx_free(ctx, stack);
  ctx_free(ctx, seen);
  ctx_free(ctx, rs);
  if (ok) {
    nrd /= 2;
    T->rd_lo = ctx_alloc(ctx, (T->ns + 2) * sizeof *T->rd_lo);
    T->rd = ctx_alloc(ctx, (nrd + 1) * sizeof *T->rd);
    for (i = 0; i < nrd; i++)
      T->rd_lo[rd[2 * i] + 1]++;
    for (i = 0; i < T->ns; i++)
      T->rd_lo[i + 1] += T->rd_lo[i];
    at = ctx_alloc(ctx, (T->ns + 1) * sizeof *at);
    COPY(at, T->rd_lo, T->ns * sizeof *at);
    for (i = 0; i < nrd; i++)
      T->rd[at[rd[2 * i]]++] = rd[2 * i + 1];
    ctx_free(ctx, at);
  }
  ctx_free(ctx, rd);
  return ok;
}

/* Whether slot s, once move b set it to u, keeps u for good. */
static int for_good(const stub_t *T, const est_t *E, uint32_t b, uint32_t s,
                    uint32_t u)
{
  uint32_t i, j, k;
  if (est_latched(E, s, u))
    return 1;
  for (i = T->ach_lo[!u][s]; i < T->ach_lo[!u][s + 1]; i++) {
    uint32_t d = T->ach[!u][i] >> 2;
    int stopped = 0;
    for (j = T->pre_lo[d]; j < T->pre_lo[d + 1] && !stopped; j++) {
      uint32_t g = T->pre[j] >> 1, need = T->pre[j] & 1;
      for (k = T->eff_lo[b]; k < T->eff_lo[b + 1]; k++)
        if (T->eff[k] >> 2 == g && (T->eff[k] & 3) == (need ? SET0 : SET1) &&
            est_latched(E, g, !need))
          stopped = 1;
    }
    if (!stopped)
      return 0;
  }
  return 1;
}

/* Per proposition, the values that alone make terminal true: bit 1 (2)
 * when its being true does, bit 0 (1) when its being false does; followed
 * from terminal down rules of one literal (a head fails by its literal's
 * failing where that rule is its only one). */
static uint8_t *ends_if(gdl_ctx *ctx, stub_t *T)
{
  const ground_t *G = T->G;
  uint8_t *imp = ctx_alloc(ctx, T->n + 1);
  uint32_t *stack = ctx_alloc(ctx, (2 * T->n + 2) * sizeof *stack);
  uint32_t top = 0, i;
  imp[T->term] = 2;
  stack[top++] = T->term * 2 + 1;
  while (top) {
    uint32_t p = stack[--top] >> 1, v = stack[top] & 1;
    for (i = T->X.bh_lo[p]; i < T->X.bh_lo[p + 1]; i++) {
      uint32_t r = T->X.bh[i], x, q, w;
      if (G->in_lo[r + 1] - G->in_lo[r] != 1 ||
          (!v && T->X.bh_lo[p + 1] - T->X.bh_lo[p] != 1))
        continue;              /* true by any rule; false only by all */
      x = G->in[G->in_lo[r]];
      q = x >> 1;
      w = (x & 1) ? !v : v;    /* q = w makes the rule, so p, = v */
      if (!(imp[q] & (1u << w))) {
        imp[q] |= (uint8_t)(1u << w);
        stack[top++] = q * 2 + w;
      }
    }
  }
  ctx_free(ctx, stack);
  return imp;
}

/* Whether goal 100 holds where each of terminal's rules tr[0, n) that
 * read no clock fires (its literals fixed, the rest unknown). */
static int wins_by(stub_t *T, const uint32_t *tr, uint32_t n, uint32_t goal)
{
  const ground_t *G = T->G;
  uint32_t i, j;
  int v = V1;
  for (i = 0; i < n && v == V1; i++) {
    for (j = G->in_lo[tr[i]]; j < G->in_lo[tr[i] + 1]; j++)
      kern_fix(&T->X, G->in[j] >> 1, G->in[j] & 1 ? V0 : V1);
    v = eval_scalar(T, goal);
    for (j = G->in_lo[tr[i]]; j < G->in_lo[tr[i] + 1]; j++)
      kern_fix(&T->X, G->in[j] >> 1, VU);
  }
  return v == V1;
}

stub_t *stub_build(gdl_ctx *ctx, const kern_t *K, const est_t *E,
                   const analyses_t *A)
{
  const uint32_t *clock = A && A->counter_slots ? A->counter_mask : NULL;
  ground_t *G = ctx->ground;
  stub_t *T;
  uint32_t i, m, goal = NONE, term;
  if (!E || !G || ctx->nroles != 1 || !G->nlegal[0] ||
      G->nlegal[0] > MAX_MOVES || !G->terminal)
    return NULL;
  for (i = 0; i < G->ngoal[0]; i++)
    if (gdl_term_int(ctx, G->goal[0][i].term) == 100)
      goal = G->goal[0][i].prop;
  if (goal == NONE)
    return NULL;
  term = G->terminal - 1;
  T = ctx_alloc(ctx, sizeof *T);
  T->ctx = ctx;
  T->G = G;
  T->n = G->nprops;
  T->nm = G->nlegal[0];
  T->ns = G->ntslots;
  T->W = (T->nm + 63) / 64;
  T->w = T->W;
  kern_eval_open(ctx, K, &T->X);
  T->X.record = 1;
  T->dmove = ctx_alloc(ctx, (T->n + 1) * sizeof *T->dmove);
  T->byterm = ctx_alloc(ctx, (T->nm + 1) * sizeof *T->byterm);
  T->legal = ctx_alloc(ctx, (T->nm + 1) * sizeof *T->legal);
  T->gate = ctx_alloc(ctx, (T->nm + 1) * sizeof *T->gate);
  for (m = 0; m < T->nm; m++) {
    uint32_t d = does_prop(ctx, G, 0, G->legal[0][m].term);
    T->byterm[m] = (uint64_t)G->legal[0][m].term << 32 | m;
    T->legal[m] = G->legal[0][m].prop;
    T->gate[m] = G->lgate[0][m] != T->legal[m] && G->lgate[0][m] != G->always
                     ? G->lgate[0][m] : NONE;
    if (d != NONE)
      T->dmove[d] = m;     /* the kernel's K_MOVE */
  }
  qsort(T->byterm, T->nm, sizeof *T->byterm, ground_cmp_u64);
  T->off = ctx_alloc(ctx, (T->n + 1) * sizeof *T->off);
  T->term = term;
  T->term_wins = kern_forces(ctx, &T->X, term, T->X.bh + T->X.bh_lo[goal],
                             T->X.bh_lo[goal + 1] - T->X.bh_lo[goal]) ||
                 (clock && wins_by(T, A->counter_tr, A->counter_ntr, goal));
  if (!effects(ctx, T, clock) || !legality(ctx, T))
    goto fail;
  setters(ctx, T);
  /* moves after which the game is over */
  T->ends = ctx_alloc(ctx, T->nm + 1);
  {
    uint8_t *imp = ends_if(ctx, T);
    for (m = 0; m < T->nm; m++)
      for (i = T->eff_lo[m]; i < T->eff_lo[m + 1]; i++) {
        uint32_t tp = G->tprop[T->eff[i] >> 2], c = T->eff[i] & 3;
        if (tp != NONE && (c == SET0 || c == SET1) &&
            imp[tp] & (c == SET1 ? 2 : 1))
          T->ends[m] = 1;
      }
    ctx_free(ctx, imp);
  }
  /* the literals goal 100 needs */
  {
    uint32_t *stack = ctx_alloc(ctx, (T->n + 1) * sizeof *stack);
    uint32_t *seen = ctx_alloc(ctx, (T->n + 1) * sizeof *seen);
    uint32_t *rs = NULL, nrs = 0, rscap = 0, v;
    reads(T, goal, 0, stack, seen, 1, &rs, &nrs, &rscap, ctx);
    T->gl = ctx_alloc(ctx, (2 * nrs + 1) * sizeof *T->gl);
    for (i = 0; i < nrs; i++)
      for (v = 0; v < 2; v++) {
        kern_fix(&T->X, G->tprop[rs[i]], (int)v);
        if (eval_scalar(T, goal) == V0)
          T->gl[T->ngl++] = rs[i] * 2 + !v;
        kern_fix(&T->X, G->tprop[rs[i]], VU);
      }
    ctx_free(ctx, stack);
    ctx_free(ctx, seen);
    ctx_free(ctx, rs);
  }
  if (!T->ngl)
    goto fail;
  /* effects for good */
  for (m = 0; m < T->nm; m++)
    for (i = T->eff_lo[m]; i < T->eff_lo[m + 1]; i++)
      if ((T->eff[i] & 3) == SET0 || (T->eff[i] & 3) == SET1)
        T->perm[i] = (uint8_t)for_good(T, E, m, T->eff[i] >> 2,
                                       (T->eff[i] & 3) == SET1);
  /* scratch of a state */
  T->app = ctx_alloc(ctx, (T->nm + 1) * sizeof *T->app);
  T->inT = ctx_alloc(ctx, (T->nm + 1) * sizeof *T->inT);
  T->pm = ctx_alloc(ctx, (T->ns + 1) * sizeof *T->pm);
  T->list = ctx_alloc(ctx, (T->nm + 1) * sizeof *T->list);
  T->lit = ctx_alloc(ctx, (T->ngl + 1) * sizeof *T->lit);
  T->cnt = ctx_alloc(ctx, (T->ngl + 1) * sizeof *T->cnt);
  T->idx = ctx_alloc(ctx, (T->nm + 1) * sizeof *T->idx);
  T->out = ctx_alloc(ctx, (T->nm + 1) * sizeof *T->out);
  free_eval(ctx, T);
  return T;
fail:
  stub_free(ctx, T);
  return NULL;
}

stub_t *stub_get(gdl_ctx *ctx, analyses_t *A)
{
  if (!A->stub_tried) {
    est_t *E = est_get(ctx, A);
    counter_clock(ctx, A);
    A->stub = E ? stub_build(ctx, kern_get(ctx, A), E, A) : NULL;
    A->stub_tried = 1;
  }
  return A->stub;
}

/* ---- per state -------------------------------------------------------- */

int stub_holds(const stub_t *T, const uint32_t *w)
{
  uint32_t i;
  for (i = 0; i < T->npair; i++)
    if (word_bit(w, T->pair[2 * i]) == word_bit(w, T->pair[2 * i + 1]))
      return 0;
  return 1;
}

static inline int bit_at(const uint64_t *b, uint32_t s)
{
  return (int)(b[s >> 6] >> (s & 63) & 1);
}

static void add_to_set(stub_t *T, uint32_t m)
{
  if (T->inT[m] != T->snow) {
    T->inT[m] = T->snow;
    T->list[T->nlist++] = m;
  }
}

/* Whether move b makes a literal that the move being closed over needs
 * (marked in pm[]) false for good. */
static int stops(const stub_t *T, uint32_t b)
{
  uint32_t i;
  if (T->ends[b])
    return 1;                  /* nothing comes after it */
  for (i = T->eff_lo[b]; i < T->eff_lo[b + 1]; i++)
    if (T->perm[i]) {
      uint32_t s = T->eff[i] >> 2, u = (T->eff[i] & 3) == SET1;
      if (T->pm[s] == 2 * T->pnow + !u)
        return 1;
    }
  return 0;
}

/* The setters of slot s to v, into T (those that stop a, if a given). */
static void add_setters(stub_t *T, uint32_t s, uint32_t v, int check)
{
  uint32_t i;
  T->rwork += T->ach_lo[v][s + 1] - T->ach_lo[v][s];
  for (i = T->ach_lo[v][s]; i < T->ach_lo[v][s + 1]; i++) {
    uint32_t b = T->ach[v][i] >> 2;
    if (T->inT[b] != T->snow && !(check && stops(T, b)))
      add_to_set(T, b);
  }
}

/* T from landmark literal `lit` in the state of bits cur: the number of
 * its legal moves, or `bound` when it would have that many or more (or
 * it cannot be built). */
static uint32_t closure(stub_t *T, const uint64_t *cur, uint32_t lit,
                        uint32_t bound)
{
  uint32_t k, i, nlegal = 0;
  if (++T->snow == 0) {
    memset(T->inT, 0, T->nm * sizeof *T->inT);
    T->snow = 1;
  }
  T->nlist = 0;
  add_setters(T, lit >> 1, lit & 1, 0);
  for (k = 0; k < T->nlist; k++) {
    uint32_t a = T->list[k];
    T->rwork += 1 + T->pre_lo[a + 1] - T->pre_lo[a];
    if (T->app[a] != T->anow) {
      /* not legal here: the setters of a literal it lacks, preferring
       * one that none can set, then one whose setters are in T */
      uint32_t best = NONE, bestc = UINT32_MAX;
      for (i = T->pre_lo[a]; i < T->pre_lo[a + 1] && bestc; i++) {
        uint32_t s = T->pre[i] >> 1, v = T->pre[i] & 1, c = 0, j;
        if ((uint32_t)bit_at(cur, s) == v)
          continue;
        for (j = T->ach_lo[v][s]; j < T->ach_lo[v][s + 1] && c < bestc; j++)
          c += T->inT[T->ach[v][j] >> 2] != T->snow;
        T->rwork += j - T->ach_lo[v][s];
        if (c < bestc) {
          bestc = c;
          best = T->pre[i];
        }
      }
      if (best == NONE)
        return bound;          /* illegal for a reason not a literal */
      add_setters(T, best >> 1, best & 1, 0);
      continue;
    }
    if (++nlegal >= bound)
      return bound;
    if (++T->pnow == 0x7fffffff) {
      memset(T->pm, 0, T->ns * sizeof *T->pm);
      T->pnow = 1;
    }
    for (i = T->pre_lo[a]; i < T->pre_lo[a + 1]; i++)
      T->pm[T->pre[i] >> 1] = 2 * T->pnow + (T->pre[i] & 1);
    /* moves that may disable a */
    for (i = T->pre_lo[a]; i < T->pre_lo[a + 1]; i++)
      add_setters(T, T->pre[i] >> 1, !(T->pre[i] & 1), 1);
    for (i = T->sup_lo[a]; i < T->sup_lo[a + 1]; i++) {
      add_setters(T, T->sup[i], 0, 1);
      add_setters(T, T->sup[i], 1, 1);
    }
    for (i = T->eff_lo[a]; i < T->eff_lo[a + 1]; i++) {
      uint32_t s = T->eff[i] >> 2, code = T->eff[i] & 3, j, v;
      T->rwork += T->rd_lo[s + 1] - T->rd_lo[s] + T->ach_lo[0][s + 1] -
                  T->ach_lo[0][s] + T->ach_lo[1][s + 1] - T->ach_lo[1][s];
      /* moves that a may disable */
      for (j = T->rd_lo[s]; j < T->rd_lo[s + 1]; j++) {
        uint32_t b = T->rd[j] >> 2, need = T->rd[j] & 3;
        if (T->inT[b] == T->snow || b == a)
          continue;
        if (need == 2 || (code >> need & 1) != need)
          if (!stops(T, b))
            add_to_set(T, b);
      }
      /* moves whose effect on s does not commute with a's */
      for (v = 0; v < 2; v++)
        for (j = T->ach_lo[v][s]; j < T->ach_lo[v][s + 1]; j++) {
          uint32_t b = T->ach[v][j] >> 2;
          if ((T->ach[v][j] & 3) != code && T->inT[b] != T->snow &&
              !stops(T, b))
            add_to_set(T, b);
        }
    }
  }
  return nlegal;
}

/* The index of move term t, or NONE. */
static uint32_t move_of(const stub_t *T, gdl_term t)
{
  uint32_t lo = 0, hi = T->nm;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (T->byterm[mid] >> 32 < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < T->nm && T->byterm[lo] >> 32 == t ? (uint32_t)T->byterm[lo]
                                                : NONE;
}

size_t stub_reduce(gdl_ctx *ctx, stub_t *T, const gdl_term *mv, size_t n,
                   const gdl_term **out)
{
  const uint64_t *cur = T->G->curbits;
  uint32_t i, nl = 0, best, tries, found = 0;
  size_t k, nout = 0;
  *out = mv;
  (void)ctx;
  if (T->given_up)
    return n;
  if (++T->anow == 0) {        /* app[] marks this state's legal moves */
    memset(T->app, 0, T->nm * sizeof *T->app);
    T->anow = 1;
  }
  for (k = 0; k < n; k++) {
    if ((T->idx[k] = move_of(T, mv[k])) == NONE)
      return n;                /* not a move of the network's: no cut */
    T->app[T->idx[k]] = T->anow;
  }
  for (i = 0; i < T->ngl; i++) {
    uint32_t s = T->gl[i] >> 1, v = T->gl[i] & 1, c = 0, j;
    if ((uint32_t)bit_at(cur, s) == v)
      continue;
    for (j = T->ach_lo[v][s]; j < T->ach_lo[v][s + 1]; j++)
      c += T->app[T->ach[v][j] >> 2] == T->anow;
    T->lit[nl] = T->gl[i];
    T->cnt[nl++] = c;
  }
  T->rwork += T->ngl;
  if (!nl)
    return n;                  /* goal 100's literals hold: no landmark */
  best = (uint32_t)n;
  for (tries = 0; tries < MAX_CLOSURES; tries++) {
    uint32_t lm = NONE, c;      /* the landmark tried */
    for (i = 0; i < nl; i++)   /* the untried one of fewest legal setters */
      if (T->cnt[i] != NONE && (lm == NONE || T->cnt[i] < T->cnt[lm]))
        lm = i;
    if (lm == NONE || T->cnt[lm] >= best)
      break;
    c = closure(T, cur, T->lit[lm], best);
    T->cnt[lm] = NONE;
    if (c < best) {            /* the best T yet: its legal moves, in order */
      best = c;
      found = 1;
      for (k = 0, nout = 0; k < n; k++)
        if (T->inT[T->idx[k]] == T->snow)
          T->out[nout++] = mv[k];
    }
    if (best == 0)
      break;
  }
  T->rcut += found ? n - nout : 0;
  if (T->rwork > REDUCE_WORK * (REDUCE_TRIAL + ++T->rcalls + T->rcut))
    T->given_up = 1;
  if (!found)
    return n;
  *out = T->out;
  return nout;
}

/* ---- moves that commute, for a plan's order (sat.c) ------------------- */

/* The moves that write slot s (either value) into mark[] as dependent,
 * and, with readers, those whose being playable reads it. */
static void touch(const stub_t *T, uint32_t s, int readers, uint8_t *mark)
{
  uint32_t v, i;
  for (v = 0; v < 2; v++)
    for (i = T->ach_lo[v][s]; i < T->ach_lo[v][s + 1]; i++)
      mark[T->ach[v][i] >> 2] = 1;
  if (readers)
    for (i = T->rd_lo[s]; i < T->rd_lo[s + 1]; i++)
      mark[T->rd[i] >> 2] = 1;
}

uint32_t stub_dependent(gdl_ctx *ctx, const stub_t *T, uint32_t b,
                        uint32_t *out)
{
  uint8_t *mark = ctx_alloc(ctx, T->nm + 1);
  uint32_t a, n = 0, i;
  mark[b] = 1;
  for (i = T->eff_lo[b]; i < T->eff_lo[b + 1]; i++)
    touch(T, T->eff[i] >> 2, 1, mark);
  for (i = T->pre_lo[b]; i < T->pre_lo[b + 1]; i++)
    touch(T, T->pre[i] >> 1, 0, mark);
  for (i = T->sup_lo[b]; i < T->sup_lo[b + 1]; i++)
    touch(T, T->sup[i], 0, mark);
  for (a = 0; a < T->nm; a++)
    if (mark[a])
      out[n++] = a;
  ctx_free(ctx, mark);
  return n;
}
