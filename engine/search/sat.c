/*
 * sat.c - planning as satisfiability: the grounded network unrolled over
 * a horizon of k steps and handed to CaDiCaL (its C API, ccadical.h).
 *
 * The formula for horizon k has a copy of the network per step t <= k,
 * each proposition a literal of that step: a fluent's `true` the state's
 * literal (step 0: the start, constant), a move's `does` a variable of
 * the step, `always` true, a `does` no role can make false, a head of
 * rules the Tseitin variable of the disjunction of its rules'
 * conjunctions (constants folded), a head of a recursive group its least
 * fixpoint unrolled in rounds (round i reads the group's heads of round
 * i - 1; as many rounds as heads, fewer where a round changes nothing).
 * Step t + 1's state is step t's `next` literals (frame axioms need no
 * clause: next(f) is a formula).  For each step t < k: not terminal,
 * and per role exactly one move, which is legal.  At step k: terminal
 * and goal 100 of the first role, as assumptions.
 *
 * Invariant: a model of horizon k is a play of k joint moves from the
 * start, each legal, none but the last state terminal, ending terminal
 * with goal 100; and every such play is a model.  So horizons tried
 * 0, 1, 2, ... in order make the first plan found a shortest one, and an
 * unsatisfiable horizon k proves "no plan of k steps or fewer".  The
 * clauses stay between horizons (only terminal and goal at k are
 * assumptions; not terminal at k is added when k + 1 is built), so the
 * solver keeps what it learned.  When the formula without the
 * assumptions (k steps, none terminal) is unsatisfiable, no play lasts
 * k steps and no plan exists at all.  Two refinements keep the first
 * plan shortest: horizons below the start's h_max and groups' sum (both
 * admissible) are settled without a solve; and where the stubborn sets'
 * analysis proves two moves commute, of the two in a row only the lower
 * index may come first (in_order: every plan reorders to that).  Before
 * horizon 0, one solve over a state of free fluents asks whether any
 * state is a win at all (no_win): where none is, no plan exists.
 * doc/solving.md ("Planning as satisfiability") has the schedule and the
 * limits.
 *
 * Built only where the Makefile found CaDiCaL (GDL_HAVE_CADICAL), and
 * never in the browser's build; elsewhere the search says so.
 */
#include <stdio.h>
#include <string.h>

#include "search/search.h"

#if defined(GDL_HAVE_CADICAL) && !defined(__EMSCRIPTEN__)
#include <ccadical.h>

#define NONE UINT32_MAX
/* Conflicts the check that some play lasts k steps may take: it is
 * asked at every horizon, where a step counter makes it unsatisfiable by
 * propagation alone; beyond this it is left for the next horizon. */
#define ALIVE_CONFLICTS 2000
/* Conflicts the check that some state is a win may take (no_win): past
 * it, the horizons go on as though it had found one. */
#define WIN_CONFLICTS 100000

typedef struct {
  gdl_ctx *ctx;
  search_t *S;
  ground_t *G;
  const kern_t *K;
  CCaDiCaL *sat;
  CCaDiCaL *aside;             /* the horizons' solver while no_win has
                                  one of its own in sat */
  int T;                       /* the literal that is true */
  int nvars;
  uint64_t clauses;
  int *memo;                   /* per proposition: its literal at the
                                  step being built, 0 not yet */
  int *state;                  /* per fluent slot: its literal there */
  uint32_t nslots;
  uint32_t nmv;                /* move variables a step: every role's
                                  legal[] entries */
  uint32_t *mvlo;              /* per role: its first, mvlo[k] all */
  uint32_t *mvprop;            /* per move variable: its `does`, or NONE */
  int *mv;                     /* per step and move: its variable */
  uint32_t mvcap;              /* steps mv has room for */
  int *stack;                  /* literals being combined, as a stack */
  uint32_t top, stackcap;
  uint32_t *recof;             /* per proposition: 1 + its recursive
                                  group, or 0 */
  uint32_t *hidx;              /* per head of a recursive group: its
                                  place among the group's heads */
  int *round, *prev;           /* a group's heads in a round, and the
                                  round before */
  uint32_t roundcap;
  size_t rss0;                 /* resident bytes when the search began */
  unsigned calls;              /* of the terminate callback */
  int stop;                    /* 1 time or interrupt, 2 memory */
  uint32_t *dep_lo, *dep;      /* one role, moves that commute: per move
                                  b, the moves of lower index that do not
                                  commute with it (stub_dependent); or
                                  NULL */
  uint32_t depcap;
  uint32_t lower;              /* no plan is shorter: the estimates' */
  const char *lower_by;        /* "h_max" or "groups", or NULL */
} sat_t;

/* ---- clauses ------------------------------------------------------------ */

static int new_var(sat_t *W)
{
  return ++W->nvars;
}

static void clause(sat_t *W, const int *lits, uint32_t n)
{
  uint32_t i;
  for (i = 0; i < n; i++)
    ccadical_add(W->sat, lits[i]);
  ccadical_add(W->sat, 0);
  W->clauses++;
}

static void clause2(sat_t *W, int a, int b)
{
  int c[2];
  c[0] = a;
  c[1] = b;
  clause(W, c, 2);
}

static void push(sat_t *W, int lit)
{
  GROW(W->ctx, W->stack, W->stackcap, W->top + 1);
  W->stack[W->top++] = lit;
}

/* The literals stack[base, top) combined into one: their conjunction
 * (and = 1) or disjunction, a new variable v defined by clauses where
 * there are two or more (and: v -> each l, all of them -> v; or: each l
 * -> v, v -> one of them); the stack back to base. */
static int combine(sat_t *W, uint32_t base, int and)
{
  uint32_t n = W->top - base, i;
  const int *l;
  int v, sign = and ? 1 : -1;
  if (n == 0) {
    W->top = base;
    return and ? W->T : -W->T;
  }
  l = W->stack + base;        /* (there is a stack now) */
  if (n == 1) {
    W->top = base;
    return l[0];
  }
  v = new_var(W);
  for (i = 0; i < n; i++)
    clause2(W, -sign * v, sign * l[i]);
  for (i = 0; i < n; i++)
    ccadical_add(W->sat, -sign * l[i]);
  ccadical_add(W->sat, sign * v);
  ccadical_add(W->sat, 0);
  W->clauses++;
  W->top = base;
  return v;
}

/* ---- the network at one step ------------------------------------------- */

static int prop_lit(sat_t *W, uint32_t p);

/* Rule r's conjunction, its inputs read by prop_lit, or, with g, those
 * that are heads of recursive group g - 1 read off the round before. */
static int rule_lit(sat_t *W, uint32_t r, uint32_t g)
{
  const ground_t *G = W->G;
  uint32_t base = W->top, j;
  for (j = G->in_lo[r]; j < G->in_lo[r + 1]; j++) {
    uint32_t x = G->in[j], p = x >> 1;
    int l = g && W->recof[p] == g ? W->prev[W->hidx[p]] : prop_lit(W, p);
    if (x & 1)
      l = -l;
    if (l == -W->T) {
      W->top = base;
      return -W->T;
    }
    if (l != W->T)
      push(W, l);
  }
  POLL(W->ctx);
  return combine(W, base, 1);
}

/* Head p's disjunction of its rules (g as rule_lit). */
static int head_lit(sat_t *W, uint32_t p, uint32_t g)
{
  const kern_t *K = W->K;
  uint32_t base = W->top, i;
  for (i = K->bh_lo[p]; i < K->bh_lo[p + 1]; i++) {
    int l = rule_lit(W, K->bh[i], g);
    if (l == W->T) {
      W->top = base;
      return W->T;
    }
    if (l != -W->T)
      push(W, l);
  }
  return combine(W, base, 0);
}

/* The heads of recursive group g - 1 at this step: their least fixpoint,
 * round after round from all false, until a round changes nothing or
 * there have been as many as heads (each round adds one at least). */
static void group_lits(sat_t *W, uint32_t g)
{
  const group_t *gr = &W->G->groups[g - 1];
  const ground_t *G = W->G;
  uint32_t r, nh = 0, h, round, j;
  /* the inputs from outside the group first: a group below may be
   * unrolled there, with round[] and prev[] of its own */
  for (r = gr->lo; r < gr->hi; r++)
    for (j = G->in_lo[r]; j < G->in_lo[r + 1]; j++)
      if (W->recof[G->in[j] >> 1] != g)
        prop_lit(W, G->in[j] >> 1);
  for (r = gr->lo; r < gr->hi; r++) {
    uint32_t p = W->G->head[r];
    if (W->hidx[p] == NONE) {
      W->hidx[p] = nh++;
    }
  }
  if (nh > W->roundcap) {
    W->round = ctx_realloc(W->ctx, W->round, nh * sizeof *W->round);
    W->prev = ctx_realloc(W->ctx, W->prev, nh * sizeof *W->prev);
    W->roundcap = nh;
  }
  for (h = 0; h < nh; h++)
    W->prev[h] = -W->T;
  for (round = 0; round < nh; round++) {
    int same = 1;
    for (r = gr->lo; r < gr->hi; r++) {
      uint32_t p = W->G->head[r];
      h = W->hidx[p];
      if (r > gr->lo && W->G->head[r - 1] == p)
        continue;              /* (a head's rules, once) */
      W->round[h] = head_lit(W, p, g);
    }
    /* heads whose rules are not together: each head once, by index */
    for (h = 0; h < nh; h++)
      if (W->round[h] != W->prev[h])
        same = 0;
    memcpy(W->prev, W->round, nh * sizeof *W->prev);
    if (same)
      break;
  }
  for (r = gr->lo; r < gr->hi; r++) {
    uint32_t p = W->G->head[r];
    if (W->hidx[p] != NONE) {
      W->memo[p] = W->prev[W->hidx[p]];
      W->hidx[p] = NONE;
    }
  }
}

/* Proposition p's literal at the step being built. */
static int prop_lit(sat_t *W, uint32_t p)
{
  int l;
  if (W->memo[p])
    return W->memo[p];
  switch (W->K->kind[p]) {
  case K_ALWAYS:
    l = W->T;
    break;
  case K_TRUE:
    l = W->state[W->G->tslot[p] - 1];
    break;
  case K_INPUT:
  case K_MOVE:                 /* (a move's is set when the step begins) */
    l = -W->T;
    break;
  case K_RECURSIVE:
    group_lits(W, W->recof[p]);
    return W->memo[p];
  default:
    l = head_lit(W, p, 0);
    break;
  }
  W->memo[p] = l;
  return l;
}

/* A new step: its state is state[] (set by the caller), its moves new
 * variables; nothing of it built yet. */
static void begin_step(sat_t *W, uint32_t t)
{
  uint32_t i;
  memset(W->memo, 0, W->G->nprops * sizeof *W->memo);
  if (t >= W->mvcap) {
    uint32_t c = W->mvcap ? W->mvcap * 2 : 16;
    W->mv = ctx_realloc(W->ctx, W->mv, (size_t)c * (W->nmv + 1) * sizeof *W->mv);
    W->mvcap = c;
  }
  for (i = 0; i < W->nmv; i++) {
    int v = new_var(W);
    W->mv[(size_t)t * W->nmv + i] = v;
    if (W->mvprop[i] != NONE)
      W->memo[W->mvprop[i]] = v;
  }
}

/* At most one of lits[0, n): a sequential counter (Sinz), n - 1 new
 * variables, 3n clauses. */
static void at_most_one(sat_t *W, const int *lits, uint32_t n)
{
  uint32_t i;
  int s = 0, s1;
  for (i = 0; i + 1 < n; i++) {
    s1 = new_var(W);
    clause2(W, -lits[i], s1);            /* x_i -> s_i */
    if (s) {
      clause2(W, -s, s1);                /* s_{i-1} -> s_i */
      clause2(W, -s, -lits[i]);          /* s_{i-1} -> not x_i */
    }
    s = s1;
  }
  if (s && n > 0)
    clause2(W, -s, -lits[n - 1]);
}

/* Of two moves that commute, played one after the other, the plan with
 * the lower index first is as good (the same states before and after, the
 * one between not terminal either: stub_dependent).  So step t's move,
 * after step t - 1's move b, has index b or higher (b itself: a move
 * twice in a row is no inversion, and a plan may need it) or does not
 * commute with b: every plan, its neighbours that commute swapped into
 * order (each swap takes an inversion away), has a plan of its length
 * that keeps to this.  With g_i: step t's move has index i or more (g_i
 * -> its move i or g_i+1), the clause for b at t - 1 is: not b, or g_b,
 * or one of the moves of lower index that do not commute with b at t. */
static void in_order(sat_t *W, uint32_t t)
{
  const int *prev = W->mv + (size_t)(t - 1) * W->nmv;
  const int *cur = W->mv + (size_t)t * W->nmv;
  uint32_t n = W->nmv, i, b;
  int *g = ctx_alloc(W->ctx, (n + 1) * sizeof *g);
  g[n] = -W->T;
  for (i = n; i-- > 0;) {
    int c[3];
    g[i] = new_var(W);
    c[0] = -g[i];
    c[1] = cur[i];
    c[2] = g[i + 1];
    clause(W, c, i + 1 < n ? 3 : 2);
  }
  for (b = 0; b < n; b++) {
    uint32_t base = W->top, j;
    push(W, -prev[b]);
    push(W, g[b]);
    for (j = W->dep_lo[b]; j < W->dep_lo[b + 1]; j++)
      push(W, cur[W->dep[j]]);
    clause(W, W->stack + base, W->top - base);
    W->top = base;
  }
  ctx_free(W->ctx, g);
}

/* The moves that commute, read off the stubborn sets' analysis where it
 * applies (one role, a start w it speaks of; --no-stubborn: not). */
static void commuting(sat_t *W, const uint32_t *w)
{
  search_t *S = W->S;
  gdl_ctx *ctx = W->ctx;
  const stub_t *T;
  uint32_t n = W->nmv, b, j, k, *out;
  if (ctx->nroles != 1 || S->o->stubborn < 0 ||
      (T = stub_get(ctx, S->A)) == NULL || !stub_holds(T, w))
    return;
  out = ctx_alloc(ctx, (n + 1) * sizeof *out);
  W->dep_lo = ctx_alloc(ctx, (n + 1) * sizeof *W->dep_lo);
  for (b = 0; b < n; b++) {
    k = stub_dependent(ctx, T, b, out);
    W->dep_lo[b + 1] = W->dep_lo[b];
    for (j = 0; j < k && out[j] < b; j++) {
      GROW(ctx, W->dep, W->depcap, W->dep_lo[b + 1] + 1);
      W->dep[W->dep_lo[b + 1]++] = out[j];
    }
    POLL(ctx);
  }
  ctx_free(ctx, out);
  S->res->stubborn = 1;
}

/* The step being built (t) made one of a play that goes on: not terminal,
 * each role exactly one legal move; then its next state into state[]. */
static void close_step(sat_t *W, uint32_t t)
{
  ground_t *G = W->G;
  gdl_ctx *ctx = W->ctx;
  uint32_t r, j, s;
  int *mv = W->mv + (size_t)t * W->nmv, *nx;
  if (G->terminal) {
    int l = -prop_lit(W, G->terminal - 1);
    clause(W, &l, 1);
  }
  for (r = 0; r < ctx->nroles; r++) {
    uint32_t lo = W->mvlo[r], n = W->mvlo[r + 1] - lo;
    for (j = 0; j < n; j++) {
      int lp = prop_lit(W, G->legal[r][j].prop);
      int lg = prop_lit(W, G->lgate[r][j]);
      if (lp != W->T)
        clause2(W, -mv[lo + j], lp);
      if (lg != W->T)
        clause2(W, -mv[lo + j], lg);
    }
    clause(W, mv + lo, n);                 /* at least one */
    at_most_one(W, mv + lo, n);
  }
  if (W->dep_lo && t > 0)
    in_order(W, t);
  nx = ctx_alloc(ctx, (W->nslots + 1) * sizeof *nx);
  for (s = 0; s < W->nslots; s++)
    nx[s] = s < G->nnext && G->tprop[s] != NONE ? prop_lit(W, G->next[s].prop)
                                               : -W->T;
  COPY(W->state, nx, W->nslots * sizeof *nx);
  ctx_free(ctx, nx);
}

/* ---- limits ------------------------------------------------------------- */

/* The process's resident bytes (Linux), or 0. */
static size_t resident(void)
{
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long size = 0, res = 0;
  if (!f)
    return 0;
  if (fscanf(f, "%lu %lu", &size, &res) != 2)
    res = 0;
  fclose(f);
  return (size_t)res * 4096;
}

/* CaDiCaL's terminate callback: Ctrl-C, the deadline, and the memory
 * limit as the process's growth since the search began (CaDiCaL's memory
 * is not the context's), looked at every 256 calls. */
static int terminate(void *arg)
{
  sat_t *W = arg;
  gdl_ctx *ctx = W->ctx;
  if (ctx_interrupted(ctx) ||
      (ctx->deadline > 0 && ctx_clock() > ctx->deadline)) {
    W->stop = 1;
    return 1;
  }
  if (ctx->limit && (++W->calls & 255) == 0) {
    size_t rss = resident();
    if (rss > W->rss0 && ctx->used + (rss - W->rss0) > ctx->limit) {
      W->stop = 2;
      return 1;
    }
  }
  return 0;
}

/* After a solve that gave up: the limit thrown (GDL_ELIMIT). */
static void stopped(sat_t *W)
{
  gdl_ctx *ctx = W->ctx;
  if (W->stop == 2)
    ctx_throw(ctx, GDL_ELIMIT, "memory limit of %zu MB reached",
              ctx->limit >> 20);
  ctx_poll(ctx);               /* the time or the interrupt: throws */
  ctx_throw(ctx, GDL_ELIMIT, "time limit reached");
}

/* ---- the plan ----------------------------------------------------------- */

/* The model's plan of k steps into S->res, replayed through the engine
 * first: each move legal, no state before the last terminal, the last
 * terminal with goal 100; an internal error if not (the encoding would
 * be wrong). */
static void take_plan(sat_t *W, uint32_t k)
{
  search_t *S = W->S;
  gdl_ctx *ctx = W->ctx;
  gdl_solve_result *res = S->res;
  uint32_t t, r, j, nr = S->k;
  gdl_term *plan = ctx_arena(ctx, ((size_t)k * nr + 1) * sizeof *plan);
  for (t = 0; t < k; t++)
    for (r = 0; r < nr; r++) {
      uint32_t lo = W->mvlo[r], hi = W->mvlo[r + 1], n = 0;
      for (j = lo; j < hi; j++)
        if (ccadical_val(W->sat, W->mv[(size_t)t * W->nmv + j]) > 0) {
          plan[(size_t)t * nr + r] = W->G->legal[r][j - lo].term;
          n++;
        }
      if (n != 1)
        ctx_throw(ctx, GDL_EINPUT, "sat, internal error: step %u of the model has %u "
                  "moves of role %u", t, n, r);
    }
  /* the replay */
  if (gdl_set_state(ctx, &S->cur) != GDL_OK)
    ctx_throw(ctx, ctx->thrown, "%s", ctx->errmsg);
  for (t = 0; t < k; t++) {
    if (gdl_terminal(ctx))
      ctx_throw(ctx, GDL_EINPUT, "sat, internal error: the plan's state %u is terminal",
                t);
    for (r = 0; r < nr; r++)
      if (!gdl_is_legal(ctx, r, plan[(size_t)t * nr + r]))
        ctx_throw(ctx, GDL_EINPUT, "sat, internal error: the plan's move %u is not "
                  "legal", t + 1);
    if (gdl_next(ctx, plan + (size_t)t * nr, &S->child) != GDL_OK ||
        gdl_set_state(ctx, &S->child) != GDL_OK)
      ctx_throw(ctx, ctx->thrown, "%s", ctx->errmsg);
  }
  if (!gdl_terminal(ctx) || gdl_goal(ctx, 0) != 100)
    ctx_throw(ctx, GDL_EINPUT, "sat, internal error: the plan does not end terminal "
              "with goal 100");
  res->plan = plan;
  res->length = k;
  res->goal = 100;
  res->status = GDL_SOLVED;
}

/* ---- the horizons ------------------------------------------------------- */

/* The plans' least length the analyses prove from the start (bits w):
 * h_max and the sum of the groups' distances (estimate.c, groups.c),
 * each never more than the moves still needed.  The horizons below it
 * need no solve: a sum of distances is a counting argument that
 * resolution, and so CaDiCaL, proves only at great cost (16 queens need
 * 16 moves; 15 steps are a pigeonhole problem). */
static void lower_bound(sat_t *W, const uint32_t *w)
{
  search_t *S = W->S;
  est_t *E = S->o->prune >= 0 ? est_get(W->ctx, S->A) : NULL;
  const groups_t *D;
  uint32_t hmax, d;
  if (!E)
    return;
  est_state(E, w, &hmax, NULL);
  W->lower = hmax;
  W->lower_by = "h_max";
  D = groups_get(W->ctx, S->A, w, 0, NULL);   /* no pattern databases: their time is the solver's */
  if (D && groups_hold(D, w) && hmax != EST_DEAD) {
    d = groups_sum(D, w);
    S->res->groups = groups_count(D);
    if (d > W->lower) {
      W->lower = d;
      W->lower_by = "groups";
    }
  }
  S->res->estimate = W->lower;
}

/* The encoder set up on the grounded network from the start S->cur. */
static void sat_open(sat_t *W, search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  ground_t *G = ctx->ground;
  uint32_t r, j, i, s, *w, words;
  W->ctx = ctx;
  W->S = S;
  W->G = G;
  W->K = kern_get(ctx, S->A);
  W->nslots = ground_state_slots(ctx);
  W->memo = ctx_alloc(ctx, (G->nprops + 1) * sizeof *W->memo);
  W->state = ctx_alloc(ctx, (W->nslots + 1) * sizeof *W->state);
  W->mvlo = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *W->mvlo);
  for (r = 0; r < ctx->nroles; r++)
    W->mvlo[r + 1] = W->mvlo[r] + G->nlegal[r];
  W->nmv = W->mvlo[ctx->nroles];
  W->mvprop = ctx_alloc(ctx, (W->nmv + 1) * sizeof *W->mvprop);
  for (r = 0; r < ctx->nroles; r++)
    for (j = 0; j < G->nlegal[r]; j++)
      W->mvprop[W->mvlo[r] + j] = does_prop(ctx, G, r, G->legal[r][j].term);
  W->recof = ctx_alloc(ctx, (G->nprops + 1) * sizeof *W->recof);
  W->hidx = ctx_alloc(ctx, (G->nprops + 1) * sizeof *W->hidx);
  memset(W->hidx, 0xff, (G->nprops + 1) * sizeof *W->hidx);
  for (i = 0; i < G->ngroups; i++)
    if (G->groups[i].recursive)
      for (r = G->groups[i].lo; r < G->groups[i].hi; r++)
        W->recof[G->head[r]] = i + 1;
  /* the start's state, constant */
  words = ground_state_words(ctx);
  w = ctx_alloc(ctx, (words + 2) * sizeof *w);
  if (!ground_state_bits(ctx, &S->cur, w)) {
    ctx_free(ctx, w);
    ctx_throw(ctx, GDL_EINPUT, "--algorithm sat: the start is not a state "
              "of the grounded network's fluents");
  }
  W->sat = ccadical_init();
  ccadical_set_option(W->sat, "quiet", 1);   /* nothing on our stdout */
  W->rss0 = resident();
  ccadical_set_terminate(W->sat, W, terminate);
  W->T = new_var(W);
  clause(W, &W->T, 1);
  for (s = 0; s < W->nslots; s++)
    W->state[s] = word_bit(w, s) ? W->T : -W->T;
  lower_bound(W, w);
  commuting(W, w);
  ctx_free(ctx, w);
}

static void sat_close(sat_t *W)
{
  gdl_ctx *ctx = W->ctx;
  if (W->sat)
    ccadical_release(W->sat);
  if (W->aside)
    ccadical_release(W->aside);
  W->sat = W->aside = NULL;
  ctx_free(ctx, W->memo);
  ctx_free(ctx, W->state);
  ctx_free(ctx, W->mvlo);
  ctx_free(ctx, W->mvprop);
  ctx_free(ctx, W->mv);
  ctx_free(ctx, W->stack);
  ctx_free(ctx, W->recof);
  ctx_free(ctx, W->hidx);
  ctx_free(ctx, W->round);
  ctx_free(ctx, W->prev);
  ctx_free(ctx, W->dep_lo);
  ctx_free(ctx, W->dep);
  memset(W, 0, sizeof *W);
}

/* The proposition goal 100 of the first role, or NONE. */
static uint32_t goal100(gdl_ctx *ctx, const ground_t *G)
{
  uint32_t i;
  for (i = 0; G->ngoal && i < G->ngoal[0]; i++) {
    if (gdl_term_int(ctx, G->goal[0][i].term) == 100)
      return G->goal[0][i].prop;
  }
  return NONE;
}

/* Is some state a win, terminal with goal 100?  One copy of the network
 * on a state of free variables, but for the fluents latched at their
 * start's value (est_latched: every reachable state has that value),
 * solved apart, on a solver of its own, within WIN_CONFLICTS.  A plan
 * ends in a reachable win, so where there is none (unsatisfiable) no
 * plan exists, however long: returns 1.  The start's state is put back;
 * the horizons' step 0 is built afresh after it (begin_step clears the
 * memo). */
static int no_win(sat_t *W, uint32_t goal)
{
  gdl_ctx *ctx = W->ctx;
  est_t *E = est_get(ctx, W->S->A);
  int *start = ctx_alloc(ctx, (W->nslots + 1) * sizeof *start);
  uint64_t clauses = W->clauses;
  uint32_t s;
  int lt, lg, r = 20;
  COPY(start, W->state, W->nslots * sizeof *start);
  W->aside = W->sat;
  W->sat = ccadical_init();
  ccadical_set_option(W->sat, "quiet", 1);
  ccadical_set_terminate(W->sat, W, terminate);
  clause(W, &W->T, 1);
  memset(W->memo, 0, W->G->nprops * sizeof *W->memo);
  for (s = 0; s < W->nslots; s++)
    if (!E || !est_latched(E, s, start[s] == W->T))
      W->state[s] = new_var(W);
  lt = W->G->terminal ? prop_lit(W, W->G->terminal - 1) : -W->T;
  lg = goal != NONE ? prop_lit(W, goal) : -W->T;
  if (lt != -W->T && lg != -W->T) {
    clause(W, &lt, 1);
    clause(W, &lg, 1);
    ccadical_limit(W->sat, "conflicts", WIN_CONFLICTS);
    r = ccadical_solve(W->sat);
  }
  ccadical_release(W->sat);
  W->sat = W->aside;
  W->aside = NULL;
  W->clauses = clauses;
  COPY(W->state, start, W->nslots * sizeof *start);
  ctx_free(ctx, start);
  if (r == 0 && W->stop)
    stopped(W);
  return r == 20;
}

/* Horizons 0, 1, 2, ...: see the top of the file. */
static void horizons(sat_t *W)
{
  search_t *S = W->S;
  gdl_ctx *ctx = W->ctx;
  gdl_solve_result *res = S->res;
  uint32_t k, goal = goal100(ctx, W->G);
  size_t most = S->o->max_steps;
  if (W->lower == EST_DEAD) {  /* the relaxed game cannot win */
    res->status = GDL_UNSOLVABLE;
    res->dead_start = W->lower_by;
    res->estimate = 0;
    return;
  }
  if (S->o->prune >= 0 && no_win(W, goal)) {
    res->status = GDL_UNSOLVABLE;
    res->dead_start = "wins";
    res->estimate = 0;
    return;
  }
  begin_step(W, 0);
  for (k = 0;; k++) {
    int lt = W->G->terminal ? prop_lit(W, W->G->terminal - 1) : -W->T;
    int lg = goal != NONE ? prop_lit(W, goal) : -W->T;
    int r = 20, alive;
    if (lt != -W->T && lg != -W->T && k >= W->lower) {
      if (lt != W->T)
        ccadical_assume(W->sat, lt);
      if (lg != W->T)
        ccadical_assume(W->sat, lg);
      r = ccadical_solve(W->sat);
      if (r == 10) {
        take_plan(W, k);
        res->depth = k;
        res->expanded = k + 1;
        res->generated = W->clauses;
        return;
      }
      if (r != 20)
        stopped(W);
    }
    res->depth = k;            /* no plan of k steps or fewer */
    res->expanded = k + 1;     /* horizons settled */
    res->generated = W->clauses;
    search_report(S, k, 0);
    if (most && k >= most) {
      ctx_throw(ctx, GDL_ELIMIT, "the horizon's limit of %zu steps "
                "(--max-steps) reached", most);
    }
    /* step k goes on: not terminal, a legal move each; step k + 1 */
    close_step(W, k);
    begin_step(W, k + 1);
    /* does any play last k + 1 steps?  If not, no plan at all.  Below
     * the estimates' bound it is not asked: a play of k + 1 steps is
     * then no less hard to find than a plan (queens31lg: 31 queens, 30
     * of them placed in 30 steps), and where none exists the bound's
     * horizon finds that out */
    if (k + 1 < W->lower)
      continue;
    ccadical_limit(W->sat, "conflicts", ALIVE_CONFLICTS);
    alive = ccadical_solve(W->sat);
    if (alive == 20) {
      res->status = GDL_UNSOLVABLE;
      return;
    }
    if (alive == 0 && W->stop)
      stopped(W);
  }
}

/* Throws past the solver, whatever stops the search, with the solver
 * and the encoder's memory released first. */
void search_sat(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  sat_t *volatile W = NULL;
  jmp_buf jb, *old = ctx->jmp;
  if (!GROUND(ctx))
    ctx_throw(ctx, GDL_EINPUT, "--algorithm sat needs the grounded network, "
              "and this game was not grounded (%s)",
              ctx->errmsg[0] ? ctx->errmsg : "--engine interp");
  /* the start as facts (not search_start's bits): the replay plays it */
  if (S->o->start)
    gdl_state_copy(ctx, &S->cur, S->o->start);
  else
    gdl_initial(ctx, &S->cur);
  W = ctx_alloc(ctx, sizeof *W);
  memset(W, 0, sizeof *W);
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    sat_close(W);
    ctx_free(ctx, W);
    ctx_throw(ctx, ctx->thrown, "%s", ctx->errmsg);
  }
  sat_open(W, S);
  horizons(W);
  ctx->jmp = old;
  sat_close(W);
  ctx_free(ctx, W);
}

#else

void search_sat(search_t *S)
{
  ctx_throw(S->ctx, GDL_EINPUT, "gdl was built without CaDiCaL "
            "(libcadical-dev): --algorithm sat is not available");
}

#endif
