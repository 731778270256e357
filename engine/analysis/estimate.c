/*
 * estimate.c - distance estimates and dead ends read off the grounded
 * network: h_max, h_ff (FF's relaxed plan) and latches.
 *
 * Invariant: in the relaxed game (every legal move played at once,
 * nothing taken back) each proposition gets the first layer where it may
 * be true (T) and false (F); whatever holds after k real moves has its
 * level at most k.  So h_max, the later of T(goal 100) and T(terminal),
 * never exceeds the moves still needed and is consistent; a state where
 * either is never reached is a dead end.  A latched fluent keeps its
 * value; where the latches alone make goal 100 or terminal false, the
 * state is a dead end.  doc/solving.md ("Estimates and dead ends") has
 * the argument and the AND/OR graph that computes the levels.
 */
#include <string.h>

#include "analysis/analysis.h"

#define NONE UINT32_MAX
#define COST1 0x80000000u       /* an edge of cost 1: the step to a fluent */
#define SPLIT_MOVES 256        /* latches: each move in turn, at most */

/* One thread's scratch: allocated and freed as a whole (scratch_open),
 * so that a copy of the estimator shares none of it. */
typedef struct {
  uint32_t *level, *via, *cnt; /* per node: level, what reached it, inputs
                                  an AND node still waits for */
  uint32_t *list[2], nlist[2]; /* the nodes of a level, by its parity */
  uint32_t now;                /* the run: marks of need[] are of it */
  uint32_t *need, *mark;       /* the walk of the relaxed plan */
  uint32_t *first;             /* per role: the first move that may be
                                  played this run, or NONE */
  uint8_t *second;             /* per role: a second one may be */
  void *block;                 /* the memory of the arrays above */
  kern_eval_t eval;            /* three-valued: latches, dead ends */
  uint32_t *memo;              /* est_dead's answers by the latched
                                  fluents' values: DEAD_MEMO of E->words,
                                  each a hash's slot, then the key being
                                  asked; or NULL */
  uint8_t *memo_dead;          /* ... per slot: 0 none, 1 alive, 2 dead */
} scratch_t;

/* est_dead's answers remembered, a thread's: its three-valued evaluation
 * reads nothing of a state but the fluents that hold their latched
 * value, which a move rarely changes (peg solitaire: 5 dead ends among
 * 1.9 million states, and the evaluation was three quarters of dfs's
 * time with pruning); at most DEAD_MEMO_WORDS words a state. */
#define DEAD_MEMO 64
#define DEAD_MEMO_WORDS 256

/* Nodes: T(p) = 2p, F(p) = 2p + 1 for proposition p; T(r) = 2n + 2r and
 * F(r) = 2n + 2r + 1 for rule r, the network's first, then one per legal
 * move (its T only: the move's `does` may be true when the legal move
 * and its gate may).  All but the scratch is read-only once built, and
 * shared by the copies. */
struct estimator {
  ground_t *G;
  uint32_t n;                  /* propositions */
  uint32_t nreal, nr;          /* rules: the network's, and with moves */
  uint32_t nroles;
  uint32_t *mv_lo, *mv_in;     /* per move rule: legal and gate */
  uint32_t *mv_role, *mv_does; /* per move rule: its role, its does */
  uint32_t *role_lo;           /* per role: its move rules, from here */
  uint32_t nodes;
  uint32_t *out_lo, *out;      /* per node: the nodes it reaches (COST1) */
  uint8_t *isand;              /* per node: an AND node */
  uint32_t *and0;              /* per node: inputs an AND node waits for */
  uint32_t *src, nsrc;         /* nodes at level 0 in every state */
  uint32_t goal, terminal;     /* propositions, or NONE */
  const kern_t *K;             /* the kernel, which a scratch evaluates on */
  const uint32_t *bh_lo, *bh;  /* the kernel's rules by head */
  const uint8_t *kind;         /* the kernel's K_* per proposition */
  uint8_t *latch;              /* per slot: L_UP, L_DOWN or 0 */
  uint32_t nlatch;
  uint32_t words;              /* a state's: its slots' bits */
  uint32_t *up, *down;         /* the slots latched up, down: words each,
                                  where est_dead remembers, else NULL */
  scratch_t s;                 /* this thread's */
};

#define TP(p) (2 * (p))
#define FP(p) (2 * (p) + 1)
#define TR(E, r) (2 * (E)->n + 2 * (r))
#define FR(E, r) (2 * (E)->n + 2 * (r) + 1)

enum { L_UP = 1, L_DOWN = 2 };

/* ---- latches ---------------------------------------------------------- */

/* p's value in a new run of E's three-valued evaluation. */
static int value_now(est_t *E, uint32_t p)
{
  kern_run(&E->s.eval);
  return kern_value(&E->s.eval, p);
}

/* The value of proposition p, with the fluent of slot tp fixed to v, in
 * every case: unknown moves, and where that says "unknown" and the game
 * has one role of few moves, each of its moves played in turn (a `next`
 * such as (does place) or (true and not (does place)) holds whichever is
 * played, which no evaluation with the move unknown can see). */
static int every_move(est_t *E, uint32_t tp, int v, uint32_t p)
{
  kern_eval_t *X = &E->s.eval;
  uint32_t j, k, nm = E->role_lo[1];
  int x;
  kern_fix(X, tp, v);
  x = value_now(E, p);
  if (x == VU && E->nroles == 1 && nm > 0 && nm <= SPLIT_MOVES) {
    for (j = 0; j < nm; j++) {
      int y;
      for (k = 0; k < nm; k++)
        if (E->mv_does[k] != NONE)
          kern_fix(X, E->mv_does[k], k == j ? V1 : V0);
      y = value_now(E, p);
      kern_poll(X->ctx, X);    /* a run a move: 0.12 s a fluent on wargame02 */
      if (j > 0 && y != x) {
        x = VU;
        break;
      }
      x = y;
    }
    for (k = 0; k < nm; k++)
      if (E->mv_does[k] != NONE)
        kern_fix(X, E->mv_does[k], VU);
  }
  kern_fix(X, tp, VU);
  return x;
}

/* The latches (doc/solving.md, "Dead ends"): per fluent slot, one
 * evaluation of its `next` with the fluent true, one with it false. */
static void find_latches(gdl_ctx *ctx, est_t *E)
{
  ground_t *G = E->G;
  uint32_t i;
  E->latch = ctx_alloc(ctx, G->ntslots + 1);
  kern_unfix(&E->s.eval);
  for (i = 0; i < G->ntslots; i++) {
    uint32_t tp = G->tprop[i];
    if (tp == NONE)
      continue;
    if (i >= G->nnext) {       /* no `next` makes it: once false, false */
      E->latch[i] = L_DOWN;
      E->nlatch++;
      continue;
    }
    if (every_move(E, tp, V1, G->next[i].prop) == V1)
      E->latch[i] = L_UP;
    else if (every_move(E, tp, V0, G->next[i].prop) == V0)
      E->latch[i] = L_DOWN;
    if (E->latch[i])
      E->nlatch++;
    kern_poll(ctx, &E->s.eval);
  }
}

/* ---- building --------------------------------------------------------- */

/* Edge u -> v, counted (pass 0) or placed (pass 1). */
static void edge(est_t *E, uint32_t *at, int pass, uint32_t u, uint32_t v)
{
  if (pass == 0)
    E->out_lo[u + 1]++;
  else
    E->out[at[u]++] = v;
}

static void edges(gdl_ctx *ctx, est_t *E, uint32_t *at, int pass)
{
  const ground_t *G = E->G;
  uint32_t r, i, j, k = E->nreal;
  for (r = 0; r < G->nrules; r++) {
    uint32_t h = G->head[r];
    for (i = G->in_lo[r]; i < G->in_lo[r + 1]; i++) {
      uint32_t q = G->in[i] >> 1;
      if (G->in[i] & 1) {      /* not q: fires if q may be false */
        edge(E, at, pass, FP(q), TR(E, r));
        edge(E, at, pass, TP(q), FR(E, r));
      } else {
        edge(E, at, pass, TP(q), TR(E, r));
        edge(E, at, pass, FP(q), FR(E, r));
      }
    }
    edge(E, at, pass, TR(E, r), TP(h));
    if (E->kind[h] == K_RULES)  /* F of a head: every rule may fail */
      edge(E, at, pass, FR(E, r), FP(h));
  }
  for (r = 0; r < ctx->nroles; r++)
    for (j = 0; j < G->nlegal[r]; j++, k++) {
      uint32_t d = does_prop(ctx, (ground_t *)G, r, G->legal[r][j].term);
      for (i = E->mv_lo[k - E->nreal]; i < E->mv_lo[k - E->nreal + 1]; i++)
        edge(E, at, pass, TP(E->mv_in[i]), TR(E, k));
      if (d != NONE)
        edge(E, at, pass, TR(E, k), TP(d));
    }
  for (i = 0; i < G->nnext; i++)
    if (G->tprop[i] != NONE) {
      edge(E, at, pass, TP(G->next[i].prop), TP(G->tprop[i]) | COST1);
      edge(E, at, pass, FP(G->next[i].prop), FP(G->tprop[i]) | COST1);
    }
}

/* Only the edges into nodes from which T(goal) or T(terminal) can be
 * reached are kept (found backwards over the edges reversed): the others
 * can change no estimate, and a state's estimate then visits none of
 * them.  An AND node kept keeps every input, since each reaches it. */
static void keep_relevant(gdl_ctx *ctx, est_t *E)
{
  uint32_t N = E->nodes, u, i, k, n = 0;
  uint32_t *in_lo = ctx_alloc(ctx, (N + 2) * sizeof *in_lo);
  uint32_t *in = ctx_alloc(ctx, (E->out_lo[N] + 1) * sizeof *in);
  uint32_t *at = ctx_alloc(ctx, (N + 1) * sizeof *at);
  uint32_t *stack = ctx_alloc(ctx, (N + 1) * sizeof *stack);
  uint8_t *rel = ctx_alloc(ctx, N + 1);
  for (i = 0; i < E->out_lo[N]; i++)
    in_lo[(E->out[i] & ~COST1) + 1]++;
  for (u = 0; u < N; u++)
    in_lo[u + 1] += in_lo[u];
  COPY(at, in_lo, N * sizeof *at);
  for (u = 0; u < N; u++)
    for (i = E->out_lo[u]; i < E->out_lo[u + 1]; i++)
      in[at[E->out[i] & ~COST1]++] = u;
  rel[TP(E->goal)] = rel[TP(E->terminal)] = 1;
  stack[n++] = TP(E->goal);
  if (E->terminal != E->goal)
    stack[n++] = TP(E->terminal);
  for (i = E->nreal; i < E->nr; i++)   /* a move falsifies the others */
    if (!rel[TR(E, i)]) {
      rel[TR(E, i)] = 1;
      stack[n++] = TR(E, i);
    }
  while (n) {
    uint32_t v = stack[--n];
    for (i = in_lo[v]; i < in_lo[v + 1]; i++)
      if (!rel[in[i]]) {
        rel[in[i]] = 1;
        stack[n++] = in[i];
      }
  }
  for (u = 0, k = 0; u < N; u++) {
    uint32_t lo = E->out_lo[u];
    E->out_lo[u] = k;
    for (i = lo; i < E->out_lo[u + 1]; i++)
      if (rel[E->out[i] & ~COST1])
        E->out[k++] = E->out[i];
  }
  E->out_lo[N] = k;
  ctx_free(ctx, in_lo);
  ctx_free(ctx, in);
  ctx_free(ctx, at);
  ctx_free(ctx, stack);
  ctx_free(ctx, rel);
}

/* est_dead's memo in E's scratch, where the latches are known. */
static void memo_open(gdl_ctx *ctx, est_t *E)
{
  if (E->up && !E->s.memo) {
    /* a row more: the key of the state asked about */
    E->s.memo = ctx_alloc(ctx, (size_t)(DEAD_MEMO + 1) * E->words *
                                   sizeof *E->s.memo);
    E->s.memo_dead = ctx_alloc(ctx, DEAD_MEMO);
  }
}

/* E's scratch, for one thread, in one block (the three-valued
 * evaluation's in one of its own): a field added to scratch_t is either
 * an array carved here or zeroed, so no copy shares it. */
static void scratch_open(gdl_ctx *ctx, est_t *E)
{
  scratch_t *S = &E->s;
  size_t N = E->nodes + 1, R = E->nroles + 1;
  uint32_t *at;
  memset(S, 0, sizeof *S);
  S->block = ctx_alloc(ctx, (7 * N + R) * sizeof(uint32_t) + R);
  at = S->block;
  S->level = at, at += N;
  S->via = at, at += N;
  S->cnt = at, at += N;
  S->list[0] = at, at += N;
  S->list[1] = at, at += N;
  S->need = at, at += N;
  S->mark = at, at += N;
  S->first = at, at += R;
  S->second = (uint8_t *)at;
  kern_eval_open(ctx, E->K, &S->eval);
  memo_open(ctx, E);
}

static void scratch_close(gdl_ctx *ctx, est_t *E)
{
  kern_eval_close(ctx, &E->s.eval);
  ctx_free(ctx, E->s.block);
  ctx_free(ctx, E->s.memo);
  ctx_free(ctx, E->s.memo_dead);
}

/* 1 where states are bits of the grounded network: an estimator can be
 * built. */
static int est_applies(gdl_ctx *ctx)
{
  const ground_t *G = ctx->ground;
  return G && G->incr && G->bits_ok && ground_state_words(ctx);
}

est_t *est_build(gdl_ctx *ctx, const kern_t *K)
{
  ground_t *G = ctx->ground;
  est_t *E;
  uint32_t r, i, j, n, nmv = 0, k, *at;
  if (!est_applies(ctx))
    return NULL;
  n = G->nprops;
  E = ctx_alloc(ctx, sizeof *E);
  E->G = G;
  E->n = n;
  E->nreal = G->nrules;
  for (r = 0; r < ctx->nroles; r++)
    nmv += G->nlegal[r];
  E->nr = G->nrules + nmv;
  E->nodes = 2 * n + 2 * E->nr;
  /* rules by head, and what kind each proposition is: the kernel's */
  E->K = K;
  E->bh_lo = K->bh_lo;
  E->bh = K->bh;
  E->kind = K->kind;
  at = ctx_alloc(ctx, (E->nodes + 1) * sizeof *at);
  /* the move rules' inputs: the legal move and its gate */
  E->mv_lo = ctx_alloc(ctx, (nmv + 2) * sizeof *E->mv_lo);
  E->mv_in = ctx_alloc(ctx, (2 * nmv + 1) * sizeof *E->mv_in);
  E->mv_role = ctx_alloc(ctx, (nmv + 1) * sizeof *E->mv_role);
  E->mv_does = ctx_alloc(ctx, (nmv + 1) * sizeof *E->mv_does);
  E->role_lo = ctx_alloc(ctx, (ctx->nroles + 2) * sizeof *E->role_lo);
  E->nroles = ctx->nroles;
  for (r = 0, k = 0; r < ctx->nroles; r++)
    for (j = 0, E->role_lo[r] = k; j < G->nlegal[r]; j++, k++) {
      E->mv_role[k] = r;
      E->mv_does[k] = does_prop(ctx, G, r, G->legal[r][j].term);
      E->mv_lo[k + 1] = E->mv_lo[k];
      E->mv_in[E->mv_lo[k + 1]++] = G->legal[r][j].prop;
      if (G->lgate[r][j] != G->legal[r][j].prop)
        E->mv_in[E->mv_lo[k + 1]++] = G->lgate[r][j];
    }
  /* AND nodes and what they wait for; the nodes at level 0 always */
  E->isand = ctx_alloc(ctx, E->nodes + 1);
  E->and0 = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->and0);
  for (r = 0; r < G->nrules; r++) {
    E->isand[TR(E, r)] = 1;
    E->and0[TR(E, r)] = G->in_lo[r + 1] - G->in_lo[r];
  }
  for (k = 0; k < nmv; k++) {
    E->isand[TR(E, E->nreal + k)] = 1;
    E->and0[TR(E, E->nreal + k)] = E->mv_lo[k + 1] - E->mv_lo[k];
  }
  for (i = 0; i < n; i++)
    if (E->kind[i] == K_RULES) {
      E->isand[FP(i)] = 1;
      E->and0[FP(i)] = E->bh_lo[i + 1] - E->bh_lo[i];
    }
  E->src = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->src);
  E->src[E->nsrc++] = TP(G->always);
  for (i = 0; i < E->nodes; i++)
    if (E->isand[i] && E->and0[i] == 0)
      E->src[E->nsrc++] = i;   /* a rule of no literal; a head of none */
  E->role_lo[ctx->nroles] = nmv;
  for (i = 0; i < n; i++)
    if (E->kind[i] == K_INPUT || E->kind[i] == K_RECURSIVE)
      E->src[E->nsrc++] = FP(i);   /* never a move; a recursive head */
  /* the edges, counted then placed */
  E->out_lo = ctx_alloc(ctx, (E->nodes + 2) * sizeof *E->out_lo);
  edges(ctx, E, NULL, 0);
  for (i = 0; i < E->nodes; i++)
    E->out_lo[i + 1] += E->out_lo[i];
  E->out = ctx_alloc(ctx, (E->out_lo[E->nodes] + 1) * sizeof *E->out);
  COPY(at, E->out_lo, E->nodes * sizeof *at);
  edges(ctx, E, at, 1);
  ctx_free(ctx, at);
  /* what is sought: goal 100 of the first role, and terminal */
  E->goal = NONE;
  for (j = 0; ctx->nroles && j < G->ngoal[0]; j++)
    if (gdl_term_int(ctx, G->goal[0][j].term) == 100)
      E->goal = G->goal[0][j].prop;
  E->terminal = G->terminal ? G->terminal - 1 : NONE;
  if (E->goal != NONE && E->terminal != NONE)
    keep_relevant(ctx, E);
  scratch_open(ctx, E);
  find_latches(ctx, E);
  E->words = (G->ntslots + 31) / 32;
  if (E->nlatch && E->words <= DEAD_MEMO_WORDS) {
    E->up = ctx_alloc(ctx, 2 * E->words * sizeof *E->up);
    E->down = E->up + E->words;
    for (i = 0; i < G->ntslots; i++)
      if (G->tprop[i] != NONE && E->latch[i])
        (E->latch[i] == L_UP ? E->up : E->down)[i >> 5] |= 1u << (i & 31);
    memo_open(ctx, E);
  }
  return E;
}

void est_free(gdl_ctx *ctx, est_t *E)
{
  if (!E)
    return;
  scratch_close(ctx, E);
  ctx_free(ctx, E->mv_lo);
  ctx_free(ctx, E->mv_in);
  ctx_free(ctx, E->mv_role);
  ctx_free(ctx, E->mv_does);
  ctx_free(ctx, E->role_lo);
  ctx_free(ctx, E->isand);
  ctx_free(ctx, E->and0);
  ctx_free(ctx, E->src);
  ctx_free(ctx, E->out_lo);
  ctx_free(ctx, E->out);
  ctx_free(ctx, E->latch);
  ctx_free(ctx, E->up);
  ctx_free(ctx, E);
}

est_t *est_get(gdl_ctx *ctx, analyses_t *A)
{
  if (!A->est_tried) {        /* (the kernel only where it is needed) */
    A->est = est_applies(ctx) ? est_build(ctx, kern_get(ctx, A)) : NULL;
    A->est_tried = 1;
  }
  return A->est;
}

/* ---- per state -------------------------------------------------------- */

/* Node u at level lv by node w (NONE: a source), when lower than it was;
 * lists hold a level's nodes (a node since reached lower is passed over
 * where it was). */
static inline void reach(est_t *E, uint32_t u, uint32_t lv, uint32_t w)
{
  if (E->s.level[u] <= lv)
    return;
  E->s.level[u] = lv;
  E->s.via[u] = w;
  E->s.list[lv & 1][E->s.nlist[lv & 1]++] = u;
}

static inline int known(const est_t *E, uint32_t u, uint32_t lv)
{
  return E->s.level[u] <= lv;
}

/* Move rule k may be played from level lv (node u): one move a role is
 * played, so each other move of its role may then be false; the first
 * move's own `does` may be false once a second one may be played. */
static void move_may(est_t *E, uint32_t k, uint32_t lv, uint32_t u)
{
  uint32_t r = E->mv_role[k], i;
  if (E->s.first[r] == NONE) {
    E->s.first[r] = k;
    for (i = E->role_lo[r]; i < E->role_lo[r + 1]; i++)
      if (i != k && E->mv_does[i] != NONE)
        reach(E, FP(E->mv_does[i]), lv, u);
  } else if (!E->s.second[r]) {
    E->s.second[r] = 1;
    if (E->mv_does[E->s.first[r]] != NONE)
      reach(E, FP(E->mv_does[E->s.first[r]]), lv, u);
  }
}

/* The inputs of AND node u into need[] (unmarked ones), for the walk of
 * the relaxed plan. */
static void need_inputs(est_t *E, uint32_t u, uint32_t *nneed)
{
  const ground_t *G = E->G;
  uint32_t i, x;
#define NEED(v)                                                          \
  do {                                                                   \
    uint32_t v_ = (v);                                                   \
    if (E->s.mark[v_] != E->s.now) {                                         \
      E->s.mark[v_] = E->s.now;                                              \
      E->s.need[(*nneed)++] = v_;                                          \
    }                                                                    \
  } while (0)
  if (u < 2 * E->n) {          /* F(p): each of its rules fails */
    uint32_t p = u / 2;
    for (i = E->bh_lo[p]; i < E->bh_lo[p + 1]; i++)
      NEED(FR(E, E->bh[i]));
    return;
  }
  x = (u - 2 * E->n) / 2;      /* T(r): each of its literals holds */
  if (x < E->nreal) {
    for (i = G->in_lo[x]; i < G->in_lo[x + 1]; i++)
      NEED(G->in[i] & 1 ? FP(G->in[i] >> 1) : TP(G->in[i] >> 1));
  } else {
    for (i = E->mv_lo[x - E->nreal]; i < E->mv_lo[x - E->nreal + 1]; i++)
      NEED(TP(E->mv_in[i]));
  }
#undef NEED
}

void est_state(est_t *E, const uint32_t *w, uint32_t *hmax, uint32_t *hff)
{
  const ground_t *G = E->G;
  uint32_t i, lv, h, count = 0, changes = 0, nneed = 0, tg, tt;
  *hmax = EST_DEAD;
  if (hff)
    *hff = EST_DEAD;
  if (E->goal == NONE || E->terminal == NONE)
    return;
  tg = TP(E->goal);
  tt = TP(E->terminal);
  if (++E->s.now == 0) {
    memset(E->s.mark, 0, E->nodes * sizeof *E->s.mark);
    E->s.now = 1;
  }
  memset(E->s.level, 0xff, E->nodes * sizeof *E->s.level);   /* none yet */
  COPY(E->s.cnt, E->and0, E->nodes * sizeof *E->s.cnt);
  memset(E->s.first, 0xff, E->nroles * sizeof *E->s.first);
  memset(E->s.second, 0, E->nroles);
  E->s.nlist[0] = E->s.nlist[1] = 0;
  for (i = 0; i < E->nsrc; i++)
    reach(E, E->src[i], 0, NONE);
  for (i = 0; i < G->ntslots; i++)
    if (G->tprop[i] != NONE) {
      if (!word_bit(w, i))
        reach(E, FP(G->tprop[i]), 0, NONE);
      else {
        reach(E, TP(G->tprop[i]), 0, NONE);
        if (i >= G->nnext)     /* no `next` makes it: false after a move */
          reach(E, FP(G->tprop[i]), 1, NONE);
      }
    }
  for (lv = 0; E->s.nlist[lv & 1] || E->s.nlist[!(lv & 1)]; lv++) {
    uint32_t *L = E->s.list[lv & 1];
    if (known(E, tg, lv) && known(E, tt, lv))
      break;                   /* final: levels below lv are done */
    for (i = 0; i < E->s.nlist[lv & 1]; i++) {
      uint32_t u = L[i], j;
      if (E->s.level[u] != lv)
        continue;              /* since reached lower */
      if (u >= TR(E, E->nreal) && !(u & 1))
        move_may(E, (u - TR(E, E->nreal)) / 2, lv, u);
      for (j = E->out_lo[u]; j < E->out_lo[u + 1]; j++) {
        uint32_t v = E->out[j] & ~COST1;
        if (E->out[j] & COST1)
          reach(E, v, lv + 1, u);
        else if (!E->isand[v])
          reach(E, v, lv, u);
        else if (--E->s.cnt[v] == 0)
          reach(E, v, lv, u);
      }
    }
    E->s.nlist[lv & 1] = 0;
  }
  if (!known(E, tg, lv) || !known(E, tt, lv))
    return;                    /* the relaxed game never gets there */
  h = E->s.level[tg] > E->s.level[tt] ? E->s.level[tg] : E->s.level[tt];
  *hmax = h;
  if (!hff)
    return;
  /* the relaxed plan: back from T(goal) and T(terminal), an OR node by
   * what reached it, an AND node by all its inputs; each move rule met
   * is a move of the plan */
  E->s.mark[tg] = E->s.mark[tt] = E->s.now;
  E->s.need[nneed++] = tg;
  if (tt != tg)
    E->s.need[nneed++] = tt;
  while (nneed) {
    uint32_t u = E->s.need[--nneed];
    if (E->isand[u]) {
      if (u >= 2 * E->n && (u - 2 * E->n) / 2 >= E->nreal)
        count++;
      need_inputs(E, u, &nneed);
    } else if (E->s.via[u] != NONE) {
      /* a fluent the plan must change: its value comes from a `next` */
      if (u < 2 * E->n && E->kind[u / 2] == K_TRUE && E->s.via[u] < 2 * E->n &&
          E->kind[E->s.via[u] / 2] != K_TRUE)
        changes++;
      if (E->s.mark[E->s.via[u]] != E->s.now) {
        E->s.mark[E->s.via[u]] = E->s.now;
        E->s.need[nneed++] = E->s.via[u];
      }
    }
  }
  count += changes;
  *hff = count > h ? count : h;
}

static int dead_by_latches(est_t *E, const uint32_t *w);

/* Word i of state w's fluents that hold their latched value. */
static inline uint32_t latched_word(const est_t *E, const uint32_t *w,
                                    uint32_t i)
{
  return (w[i] & E->up[i]) | (~w[i] & E->down[i]);
}

int est_dead(est_t *E, const uint32_t *w)
{
  uint32_t i, *m, *key;
  uint64_t h = 0;
  if (!E->nlatch)
    return 0;
  if (!E->s.memo)
    return dead_by_latches(E, w);
  key = E->s.memo + (size_t)DEAD_MEMO * E->words;   /* made once */
  for (i = 0; i < E->words; i++) {
    key[i] = latched_word(E, w, i);
    h = (h ^ key[i]) * 0x9e3779b97f4a7c15ull;
  }
  h = (h >> 32) % DEAD_MEMO;
  m = E->s.memo + h * E->words;
  if (E->s.memo_dead[h] && memcmp(m, key, E->words * sizeof *m) == 0)
    return E->s.memo_dead[h] == 2;
  E->s.memo_dead[h] = 0;       /* (until the answer is in) */
  memcpy(m, key, E->words * sizeof *m);
  E->s.memo_dead[h] = (uint8_t)(1 + dead_by_latches(E, w));
  return E->s.memo_dead[h] == 2;
}

/* est_dead's three-valued evaluation: goal 100 or terminal false by the
 * latched fluents alone. */
static int dead_by_latches(est_t *E, const uint32_t *w)
{
  const ground_t *G = E->G;
  uint8_t *fixed = E->s.eval.fixed;
  uint32_t i;
  for (i = 0; i < G->ntslots; i++) {
    uint32_t tp = G->tprop[i];
    if (tp == NONE)
      continue;
    if (E->latch[i] == L_UP && word_bit(w, i))
      fixed[tp] = V1;
    else if (E->latch[i] == L_DOWN && !word_bit(w, i))
      fixed[tp] = V0;
    else
      fixed[tp] = VU;
  }
  if (E->goal == NONE || value_now(E, E->goal) == V0)
    return 1;
  return E->terminal == NONE || value_now(E, E->terminal) == V0;
}

kern_eval_t *est_eval(est_t *E)
{
  return &E->s.eval;
}

uint32_t est_moves(const est_t *E)
{
  return E->nroles == 1 ? E->role_lo[1] : 0;
}

void est_move(const est_t *E, uint32_t k, uint32_t *does, uint32_t *legal,
              uint32_t *gate)
{
  *does = E->mv_does[k];
  *legal = E->mv_in[E->mv_lo[k]];
  *gate = E->mv_lo[k + 1] - E->mv_lo[k] > 1 ? E->mv_in[E->mv_lo[k] + 1]
                                             : UINT32_MAX;
}

uint32_t est_goal(const est_t *E)
{
  return E->goal;
}

uint32_t est_terminal(const est_t *E)
{
  return E->terminal;
}

uint32_t est_latches(const est_t *E)
{
  return E->nlatch;
}

int est_latched(const est_t *E, uint32_t s, uint32_t v)
{
  return E->latch[s] == (v ? L_UP : L_DOWN);
}

/* A copy of E for another thread: all but the scratch shared, read only;
 * the scratch its own, made as E's was. */
est_t *est_copy(gdl_ctx *ctx, const est_t *E)
{
  est_t *C = ctx_alloc(ctx, sizeof *C);
  *C = *E;
  scratch_open(ctx, C);
  return C;
}

void est_copy_free(gdl_ctx *ctx, est_t *C)
{
  if (!C)
    return;
  scratch_close(ctx, C);
  ctx_free(ctx, C);
}
