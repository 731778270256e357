/*
 * estimate.c - what the rules say about the distance to a solution, read
 * off the grounded network: estimates of the moves still needed, and the
 * states from which goal 100 can no longer be reached.
 *
 * The relaxation.  Instead of one state after k moves, track what may be
 * true and what may be false: layer 0 is the state, and a fluent may be
 * true (false) in layer k + 1 when its `next` may be true (false) in
 * layer k, with every legal move played at once; nothing is taken back,
 * so whatever may hold in layer k may in every later one.  Within a
 * layer, a rule may fire when each of its literals may hold (a positive
 * input may be true, a negated one may be false), a head may be true when
 * one of its rules may fire and may be false when each of its rules may
 * fail (a literal of it may fail).  Each proposition so gets two levels,
 * the first layer where it may be true (T) and where it may be false
 * (F).  By induction over the moves and, within a state, over the
 * evaluation order, every proposition that is true (false) after k true
 * moves has its T (F) level at most k: a move that the game allows is
 * among those played at once, and a head that holds (fails) does so by
 * literals that hold (fail).  So:
 *   - h_max, the later of T(goal 100) and T(terminal), is never more than
 *     the moves still needed: A* with it finds shortest plans, and it is
 *     consistent, since a successor lies within layer 1 of its state;
 *   - where T(goal 100) or T(terminal) is never reached, no plan exists
 *     from the state: it is a dead end, and pruned without losing one.
 * Negation is what makes most GDL goals informative: (goal player 100)
 * <= (not misplaced) asks when every misplaced tile may have moved.  The
 * F level of a head in a recursive group is taken as 0 (it may be false
 * at once), since a cycle of rules cannot prove falsity by counting.
 *
 * On the network this is a shortest-path computation over an AND/OR
 * graph (Knuth's generalisation of Dijkstra's algorithm, as HSP computes
 * h_max): a node per proposition and per rule, each T and F; an OR node
 * reaches its level with its first input, an AND node with its last
 * (counting down), and the step from a `next` to its fluent costs 1, the
 * rest 0, so levels come in increasing order from two lists.  h_ff, FF's
 * relaxed plan, walks back from T(goal) and T(terminal) along what
 * reached each node and counts the distinct moves it uses: not
 * admissible, but a far better guide for greedy search.
 *
 * Latches.  A fluent that once true stays true (its `next` holds whenever
 * it does, whatever else holds and whatever is played) or once false
 * stays false (its `next` cannot hold without it; a fluent no `next`
 * derives is one).  Each is found by a three-valued evaluation of the
 * fluent's `next`, with the fluent fixed and every other fluent and move
 * unknown; where that says "unknown" and one role has few moves, once
 * more with each move played in turn (every_move).  In a state, the
 * latched fluents keep their values in every state that follows; when a
 * three-valued evaluation of goal 100 (or of terminal) with those fixed
 * and the rest unknown says "never", the state is a dead end.  The evaluation is demand-driven over the rules of each
 * proposition; a proposition of a recursive group is taken as unknown,
 * which can only make the answer less certain, never wrong.
 */
#include <string.h>

#include "analysis/analysis.h"

#define NONE UINT32_MAX
#define COST1 0x80000000u       /* an edge of cost 1: the step to a fluent */
enum { V0, V1, VU };           /* three values: false, true, unknown */
#define EVAL_DEPTH 4000        /* deeper than this: unknown */
#define SPLIT_MOVES 256        /* latches: each move in turn, at most */

/* Nodes: T(p) = 2p, F(p) = 2p + 1 for proposition p; T(r) = 2n + 2r and
 * F(r) = 2n + 2r + 1 for rule r, the network's first, then one per legal
 * move (its T only: the move's `does` may be true when the legal move
 * and its gate may). */
struct estimator {
  ground_t *G;
  uint32_t n;                  /* propositions */
  uint32_t nreal, nr;          /* rules: the network's, and with moves */
  uint32_t nroles;
  uint32_t *mv_lo, *mv_in;     /* per move rule: legal and gate */
  uint32_t *mv_role, *mv_does; /* per move rule: its role, its does */
  uint32_t *role_lo;           /* per role: its move rules, from here */
  uint32_t *first;             /* per role: the first move that may be
                                  played this run, or NONE */
  uint8_t *second;             /* per role: a second one may be */
  uint32_t nodes;
  uint32_t *out_lo, *out;      /* per node: the nodes it reaches (COST1) */
  uint8_t *isand;              /* per node: an AND node */
  uint32_t *and0;              /* per node: inputs an AND node waits for */
  uint32_t *src, nsrc;         /* nodes at level 0 in every state */
  uint32_t goal, terminal;     /* propositions, or NONE */
  /* scratch of one estimate */
  uint32_t *level, *via, *cnt;
  uint32_t *list[2], nlist[2];
  uint32_t now;                /* the run: marks of need[] are of it */
  uint32_t *need, *mark;
  /* three-valued evaluation */
  uint32_t *bh_lo, *bh;        /* per proposition: the rules of it */
  uint8_t *kind;               /* per proposition: K_* */
  uint8_t *memo;               /* per proposition: value + 1, this run */
  uint32_t *mstamp, mnow;
  uint32_t pick;               /* the first unknown fluent or move read
                                  this run, or NONE */
  uint64_t evals;              /* propositions evaluated, in all */
  uint8_t *fixed;              /* per proposition: V0, V1 or VU */
  uint8_t *latch;              /* per slot: L_UP, L_DOWN or 0 */
  uint32_t nlatch;
};

#define TP(p) (2 * (p))
#define FP(p) (2 * (p) + 1)
#define TR(E, r) (2 * (E)->n + 2 * (r))
#define FR(E, r) (2 * (E)->n + 2 * (r) + 1)

enum { K_RULES, K_TRUE, K_INPUT, K_ALWAYS, K_RECURSIVE, K_MOVE };
enum { L_UP = 1, L_DOWN = 2 };

static int slot_bit(const uint32_t *w, uint32_t i)
{
  return (w[i >> 5] >> (i & 31)) & 1;
}

/* ---- three-valued evaluation ------------------------------------------ */

static int eval3(est_t *E, uint32_t p, unsigned depth)
{
  const ground_t *G = E->G;
  uint32_t i, j;
  int v = V0;
  E->evals++;
  if (E->fixed[p] != VU)       /* a fluent's value, or one forced */
    return E->fixed[p];
  switch (E->kind[p]) {
  case K_ALWAYS:
    return V1;
  case K_TRUE:
  case K_MOVE:
    if (E->pick == NONE)       /* the first unknown input read */
      E->pick = p;
    return VU;
  case K_INPUT:
  case K_RECURSIVE:
    return VU;
  default:
    break;
  }
  if (E->mstamp[p] == E->mnow)
    return E->memo[p];
  if (depth > EVAL_DEPTH)
    return VU;
  for (i = E->bh_lo[p]; i < E->bh_lo[p + 1] && v != V1; i++) {
    uint32_t r = E->bh[i];
    int rv = V1;
    for (j = G->in_lo[r]; j < G->in_lo[r + 1] && rv != V0; j++) {
      int x = eval3(E, G->in[j] >> 1, depth + 1);
      if (G->in[j] & 1)
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
  }
  E->mstamp[p] = E->mnow;
  E->memo[p] = (uint8_t)v;
  return v;
}

/* A new run of three-valued evaluation: every memo is old. */
static void eval3_run(est_t *E)
{
  E->pick = NONE;
  if (++E->mnow == 0) {        /* wrapped */
    memset(E->mstamp, 0, E->n * sizeof *E->mstamp);
    E->mnow = 1;
  }
}

static int eval3_new(est_t *E, uint32_t p)
{
  eval3_run(E);
  return eval3(E, p, 0);
}

/* The value of proposition p, with the fluent of slot tp fixed to v, in
 * every case: unknown moves, and where that says "unknown" and the game
 * has one role of few moves, each of its moves played in turn (a `next`
 * such as (does place) or (true and not (does place)) holds whichever is
 * played, which no evaluation with the move unknown can see). */
static int every_move(est_t *E, uint32_t tp, int v, uint32_t p)
{
  uint32_t j, k, nm = E->role_lo[1];
  int x;
  E->fixed[tp] = (uint8_t)v;
  x = eval3_new(E, p);
  if (x == VU && E->nroles == 1 && nm > 0 && nm <= SPLIT_MOVES) {
    for (j = 0; j < nm; j++) {
      int y;
      for (k = 0; k < nm; k++)
        if (E->mv_does[k] != NONE)
          E->fixed[E->mv_does[k]] = k == j ? V1 : V0;
      y = eval3_new(E, p);
      if (j > 0 && y != x) {
        x = VU;
        break;
      }
      x = y;
    }
    for (k = 0; k < nm; k++)
      if (E->mv_does[k] != NONE)
        E->fixed[E->mv_does[k]] = VU;
  }
  E->fixed[tp] = VU;
  return x;
}

/* The latches (see above): per fluent slot, one evaluation of its `next`
 * with the fluent true, one with it false. */
static void find_latches(gdl_ctx *ctx, est_t *E)
{
  ground_t *G = E->G;
  uint32_t i, p;
  E->latch = ctx_alloc(ctx, G->ntslots + 1);
  for (p = 0; p < E->n; p++)
    E->fixed[p] = VU;
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
    if ((i & 63) == 0)
      ctx_poll(ctx);
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

est_t *est_build(gdl_ctx *ctx)
{
  ground_t *G = ctx->ground;
  est_t *E;
  uint32_t r, i, j, n, nmv = 0, k, *at;
  if (!G || !G->incr || !G->bits_ok || !ground_state_words(ctx))
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
  /* rules by head, and what kind each proposition is */
  ground_rules_by_head(ctx, G, &E->bh_lo, &E->bh);
  at = ctx_alloc(ctx, (E->nodes + 1) * sizeof *at);
  E->kind = ctx_alloc(ctx, n + 1);
  for (i = 0; i < n; i++) {
    const term_t *t = &ctx->terms[G->atom[i]];
    if (i == G->always)
      E->kind[i] = K_ALWAYS;
    else if (G->tslot[i])
      E->kind[i] = K_TRUE;
    else if (t->kind == T_FN && t->sym == S_DOES && t->arity == 2)
      E->kind[i] = K_INPUT;
  }
  for (i = 0; i < G->ngroups; i++)
    if (G->groups[i].recursive)
      for (r = G->groups[i].lo; r < G->groups[i].hi; r++)
        E->kind[G->head[r]] = K_RECURSIVE;
  /* the move rules' inputs: the legal move and its gate */
  E->mv_lo = ctx_alloc(ctx, (nmv + 2) * sizeof *E->mv_lo);
  E->mv_in = ctx_alloc(ctx, (2 * nmv + 1) * sizeof *E->mv_in);
  E->mv_role = ctx_alloc(ctx, (nmv + 1) * sizeof *E->mv_role);
  E->mv_does = ctx_alloc(ctx, (nmv + 1) * sizeof *E->mv_does);
  E->role_lo = ctx_alloc(ctx, (ctx->nroles + 2) * sizeof *E->role_lo);
  E->first = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *E->first);
  E->second = ctx_alloc(ctx, ctx->nroles + 1);
  E->nroles = ctx->nroles;
  for (r = 0, k = 0; r < ctx->nroles; r++)
    for (j = 0, E->role_lo[r] = k; j < G->nlegal[r]; j++, k++) {
      E->mv_role[k] = r;
      E->mv_does[k] = does_prop(ctx, G, r, G->legal[r][j].term);
      if (E->mv_does[k] != NONE)
        E->kind[E->mv_does[k]] = K_MOVE;
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
      E->src[E->nsrc++] = FP(i);   /* a move never legal; see above */
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
  /* scratch */
  E->level = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->level);
  E->via = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->via);
  E->cnt = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->cnt);
  E->list[0] = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->list[0]);
  E->list[1] = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->list[1]);
  E->need = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->need);
  E->mark = ctx_alloc(ctx, (E->nodes + 1) * sizeof *E->mark);
  E->memo = ctx_alloc(ctx, n + 1);
  E->mstamp = ctx_alloc(ctx, (n + 1) * sizeof *E->mstamp);
  E->fixed = ctx_alloc(ctx, n + 1);
  find_latches(ctx, E);
  return E;
}

/* ---- per state -------------------------------------------------------- */

/* Node u at level lv by node w (NONE: a source), when lower than it was;
 * lists hold a level's nodes (a node since reached lower is passed over
 * where it was). */
static inline void reach(est_t *E, uint32_t u, uint32_t lv, uint32_t w)
{
  if (E->level[u] <= lv)
    return;
  E->level[u] = lv;
  E->via[u] = w;
  E->list[lv & 1][E->nlist[lv & 1]++] = u;
}

static inline int known(const est_t *E, uint32_t u, uint32_t lv)
{
  return E->level[u] <= lv;
}

/* Move rule k may be played from level lv (node u): one move a role is
 * played, so each other move of its role may then be false; the first
 * move's own `does` may be false once a second one may be played. */
static void move_may(est_t *E, uint32_t k, uint32_t lv, uint32_t u)
{
  uint32_t r = E->mv_role[k], i;
  if (E->first[r] == NONE) {
    E->first[r] = k;
    for (i = E->role_lo[r]; i < E->role_lo[r + 1]; i++)
      if (i != k && E->mv_does[i] != NONE)
        reach(E, FP(E->mv_does[i]), lv, u);
  } else if (!E->second[r]) {
    E->second[r] = 1;
    if (E->mv_does[E->first[r]] != NONE)
      reach(E, FP(E->mv_does[E->first[r]]), lv, u);
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
    if (E->mark[v_] != E->now) {                                         \
      E->mark[v_] = E->now;                                              \
      E->need[(*nneed)++] = v_;                                          \
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
  *hmax = *hff = EST_DEAD;
  if (E->goal == NONE || E->terminal == NONE)
    return;
  tg = TP(E->goal);
  tt = TP(E->terminal);
  if (++E->now == 0) {
    memset(E->mark, 0, E->nodes * sizeof *E->mark);
    E->now = 1;
  }
  memset(E->level, 0xff, E->nodes * sizeof *E->level);   /* none yet */
  COPY(E->cnt, E->and0, E->nodes * sizeof *E->cnt);
  memset(E->first, 0xff, E->nroles * sizeof *E->first);
  memset(E->second, 0, E->nroles);
  E->nlist[0] = E->nlist[1] = 0;
  for (i = 0; i < E->nsrc; i++)
    reach(E, E->src[i], 0, NONE);
  for (i = 0; i < G->ntslots; i++)
    if (G->tprop[i] != NONE) {
      if (!slot_bit(w, i))
        reach(E, FP(G->tprop[i]), 0, NONE);
      else {
        reach(E, TP(G->tprop[i]), 0, NONE);
        if (i >= G->nnext)     /* no `next` makes it: false after a move */
          reach(E, FP(G->tprop[i]), 1, NONE);
      }
    }
  for (lv = 0; E->nlist[lv & 1] || E->nlist[!(lv & 1)]; lv++) {
    uint32_t *L = E->list[lv & 1];
    if (known(E, tg, lv) && known(E, tt, lv))
      break;                   /* final: levels below lv are done */
    for (i = 0; i < E->nlist[lv & 1]; i++) {
      uint32_t u = L[i], j;
      if (E->level[u] != lv)
        continue;              /* since reached lower */
      if (u >= TR(E, E->nreal) && !(u & 1))
        move_may(E, (u - TR(E, E->nreal)) / 2, lv, u);
      for (j = E->out_lo[u]; j < E->out_lo[u + 1]; j++) {
        uint32_t v = E->out[j] & ~COST1;
        if (E->out[j] & COST1)
          reach(E, v, lv + 1, u);
        else if (!E->isand[v])
          reach(E, v, lv, u);
        else if (--E->cnt[v] == 0)
          reach(E, v, lv, u);
      }
    }
    E->nlist[lv & 1] = 0;
  }
  if (!known(E, tg, lv) || !known(E, tt, lv))
    return;                    /* the relaxed game never gets there */
  h = E->level[tg] > E->level[tt] ? E->level[tg] : E->level[tt];
  *hmax = h;
  /* the relaxed plan: back from T(goal) and T(terminal), an OR node by
   * what reached it, an AND node by all its inputs; each move rule met
   * is a move of the plan */
  E->mark[tg] = E->mark[tt] = E->now;
  E->need[nneed++] = tg;
  if (tt != tg)
    E->need[nneed++] = tt;
  while (nneed) {
    uint32_t u = E->need[--nneed];
    if (E->isand[u]) {
      if (u >= 2 * E->n && (u - 2 * E->n) / 2 >= E->nreal)
        count++;
      need_inputs(E, u, &nneed);
    } else if (E->via[u] != NONE) {
      /* a fluent the plan must change: its value comes from a `next` */
      if (u < 2 * E->n && E->kind[u / 2] == K_TRUE && E->via[u] < 2 * E->n &&
          E->kind[E->via[u] / 2] != K_TRUE)
        changes++;
      if (E->mark[E->via[u]] != E->now) {
        E->mark[E->via[u]] = E->now;
        E->need[nneed++] = E->via[u];
      }
    }
  }
  count += changes;
  *hff = count > h ? count : h;
}

int est_dead(est_t *E, const uint32_t *w)
{
  const ground_t *G = E->G;
  uint32_t i;
  if (!E->nlatch)
    return 0;
  for (i = 0; i < G->ntslots; i++) {
    uint32_t tp = G->tprop[i];
    if (tp == NONE)
      continue;
    if (E->latch[i] == L_UP && slot_bit(w, i))
      E->fixed[tp] = V1;
    else if (E->latch[i] == L_DOWN && !slot_bit(w, i))
      E->fixed[tp] = V0;
    else
      E->fixed[tp] = VU;
  }
  if (E->goal == NONE || eval3_new(E, E->goal) == V0)
    return 1;
  return E->terminal == NONE || eval3_new(E, E->terminal) == V0;
}

/* Forces proposition p to value v (V0, V1) and what that forces in turn:
 * a head that holds, the literals of its one rule; a head that fails,
 * the literal of each of its rules of one.  0 on a contradiction (p can
 * never have v). */
static int force(est_t *E, uint32_t p, int v, uint32_t *stack)
{
  const ground_t *G = E->G;
  uint32_t n = 0, i, j;
  E->fixed[p] = (uint8_t)v;
  stack[n++] = p;
  while (n) {
    p = stack[--n];
    if (E->kind[p] != K_RULES)
      continue;
    v = E->fixed[p];
    if (v == V1 && E->bh_lo[p + 1] - E->bh_lo[p] != 1)
      continue;
    for (i = E->bh_lo[p]; i < E->bh_lo[p + 1]; i++) {
      uint32_t r = E->bh[i];
      if (v == V0 && G->in_lo[r + 1] - G->in_lo[r] != 1)
        continue;
      for (j = G->in_lo[r]; j < G->in_lo[r + 1]; j++) {
        uint32_t q = G->in[j] >> 1;
        int x = (G->in[j] & 1) ? !v : v;
        if (E->fixed[q] == VU) {
          E->fixed[q] = (uint8_t)x;
          stack[n++] = q;
        } else if (E->fixed[q] != x) {
          return 0;
        }
      }
    }
  }
  return 1;
}

int est_forces(gdl_ctx *ctx, est_t *E, uint32_t a, const uint32_t *rules,
               uint32_t n)
{
  const ground_t *G = E->G;
  uint32_t *stack = ctx_alloc(ctx, (E->n + 1) * sizeof *stack), i, j;
  int yes;
  memset(E->fixed, VU, E->n);
  yes = !force(E, a, V1, stack);   /* a never holds: vacuously */
  eval3_run(E);
  for (i = 0; i < n && !yes; i++) {
    int rv = V1;
    for (j = G->in_lo[rules[i]]; j < G->in_lo[rules[i] + 1] && rv == V1;
         j++) {
      int x = eval3(E, G->in[j] >> 1, 0);
      if (G->in[j] & 1)
        x = x == VU ? VU : !x;
      rv = x;
    }
    yes = rv == V1;
  }
  memset(E->fixed, VU, E->n);
  ctx_free(ctx, stack);
  return yes;
}

void est_unfix(est_t *E)
{
  memset(E->fixed, VU, E->n);
}

void est_fix(est_t *E, uint32_t p, int v)
{
  E->fixed[p] = (uint8_t)v;
}

void est_run(est_t *E)
{
  eval3_run(E);
}

int est_value(est_t *E, uint32_t p)
{
  return eval3(E, p, 0);
}

int est_fixed(const est_t *E, uint32_t p)
{
  return E->fixed[p];
}

uint32_t est_pick(const est_t *E)
{
  return E->pick;
}

uint64_t est_evals(const est_t *E)
{
  return E->evals;
}

uint32_t est_moves(const est_t *E)
{
  return E->nroles == 1 ? E->role_lo[1] : 0;
}

void est_move(const est_t *E, uint32_t k, uint32_t *does, uint32_t *legal)
{
  *does = E->mv_does[k];
  *legal = E->mv_in[E->mv_lo[k]];
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

/* A copy of E for another thread: the graph and the latches shared, read
 * only; the scratch of an estimate its own. */
est_t *est_copy(gdl_ctx *ctx, const est_t *E)
{
  est_t *C = ctx_alloc(ctx, sizeof *C);
  uint32_t N = E->nodes, n = E->n;
  *C = *E;
  C->level = ctx_alloc(ctx, (N + 1) * sizeof *C->level);
  C->via = ctx_alloc(ctx, (N + 1) * sizeof *C->via);
  C->cnt = ctx_alloc(ctx, (N + 1) * sizeof *C->cnt);
  C->list[0] = ctx_alloc(ctx, (N + 1) * sizeof *C->list[0]);
  C->list[1] = ctx_alloc(ctx, (N + 1) * sizeof *C->list[1]);
  C->need = ctx_alloc(ctx, (N + 1) * sizeof *C->need);
  C->mark = ctx_alloc(ctx, (N + 1) * sizeof *C->mark);
  C->memo = ctx_alloc(ctx, n + 1);
  C->mstamp = ctx_alloc(ctx, (n + 1) * sizeof *C->mstamp);
  C->fixed = ctx_alloc(ctx, n + 1);
  memcpy(C->fixed, E->fixed, n);
  C->first = ctx_alloc(ctx, (E->nroles + 1) * sizeof *C->first);
  C->second = ctx_alloc(ctx, E->nroles + 1);
  C->now = C->mnow = 0;
  return C;
}

void est_copy_free(gdl_ctx *ctx, est_t *C)
{
  if (!C)
    return;
  ctx_free(ctx, C->level);
  ctx_free(ctx, C->via);
  ctx_free(ctx, C->cnt);
  ctx_free(ctx, C->list[0]);
  ctx_free(ctx, C->list[1]);
  ctx_free(ctx, C->need);
  ctx_free(ctx, C->mark);
  ctx_free(ctx, C->memo);
  ctx_free(ctx, C->mstamp);
  ctx_free(ctx, C->fixed);
  ctx_free(ctx, C->first);
  ctx_free(ctx, C->second);
  ctx_free(ctx, C);
}
