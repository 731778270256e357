/*
 * mcts.c - a move chooser for games of one or more roles: Monte Carlo tree
 * search (UCT) over the game API, or a uniform random legal move.
 *
 * The tree.  A node is a state reached from the root by joint moves; it
 * holds each role's legal moves and, for each role and move, the rounds in
 * which that role chose that move and the sum of the role's goals they
 * ended with (decoupled UCT: every role chooses by UCB1 on its own
 * statistics, so simultaneous moves need nothing more; in a turn-taking
 * game the roles that wait have one move and it is plain UCT).  A child is
 * found by (parent, joint move index) in one hash table; nodes hold no
 * state: a round sets the root's state and plays the joint moves down the
 * tree with gdl_advance, then finishes with gdl_random_steps (the fast
 * random playouts), and adds the goals reached along its path.  One node
 * is added per round.
 *
 * Proof (MCTS-Solver).  A terminal node is proven, its value each role's
 * goal.  A node where one role moves (the others have one move) is proven
 * as soon as a child gives the mover 100, with that child's values, or
 * when every child is proven, with the values of the child best for the
 * mover (the first in move order on a tie).  A node where several roles
 * move is proven only when all its children are proven with the same
 * values.  A proven win makes its parent proven, so it is always taken; a
 * proven loss (goal 0) is chosen only when all is lost; a child proven
 * in between is chosen by UCB1 on its proven value; a proven root ends
 * the search.  The move at the root is the one played
 * most often, never one proven worse than another proven move, and a
 * proven move is preferred to an unproven one whose mean is lower.
 *
 * Threads (root parallelism).  With opts->threads n > 1 the caller's
 * thread and n - 1 others each grow a tree of their own from the same
 * root, with seeds of their own, and share the rounds; at the end each
 * root move's rounds and goals are summed over the trees (a move proven
 * in one tree is proven), and the move is picked from the sums as from
 * one tree.  The engine is not shared: each other thread has a context
 * of its own, loaded with the description as gdl_write gives it (KIF),
 * compiled with the same flags and on the same engine, made by the
 * thread at the first call (so that the grounding runs in parallel) and
 * kept in the caller's context (ctx->subs, freed with it).  The root
 * state and the moves go from one context to the other as text.  A tree
 * that proves the root stops the others.
 *
 * Everything is deterministic given the seed and the number of threads
 * (with a budget of rounds, and unless a tree proves the root while
 * others run): the random generator of gdl_random, and the order of the
 * legal moves.  Memory comes from the context
 * (ctx_try_realloc); when it runs out the tree stops growing and the
 * rounds go on from its leaves.
 */
#include <math.h>
#include <string.h>

#include "search/search.h"
#if GDL_THREADS
#include <pthread.h>
#endif

#define NONE UINT32_MAX
#define EMPTY UINT64_MAX

typedef struct {
  gdl_term move;
  uint32_t n;                 /* rounds in which the role chose it */
  double sum;                 /* the role's goals summed over them */
} stat_t;

typedef struct {
  uint32_t first;             /* the node's stats: role 0's moves, then
                                 role 1's, ... (NONE: not expanded) */
  uint32_t cnt;               /* offset of its k move counts in T->cnt */
  uint32_t val;               /* offset of its k proven values (NONE) */
  uint32_t visits;            /* rounds through the node */
  uint64_t joints;            /* the number of joint moves (their product) */
  uint8_t proven;             /* val holds the value under best play */
} node_t;

typedef struct {
  gdl_ctx *ctx;
  size_t k;                   /* roles */
  node_t *node;
  uint64_t nnode, capnode;
  stat_t *st;
  uint64_t nst, capst;
  uint32_t *cnt;
  uint64_t ncnt, capcnt;
  int16_t *val;
  uint64_t nval, capval;
  uint64_t *key;              /* the children: (parent << 32 | joint) */
  uint32_t *kid;              /* the child of key[i] */
  uint64_t capkey, nkey;
  int full;                   /* memory ran out: no more nodes */
  uint64_t rng;
  double c;                   /* exploration constant on goals / 100 */
  /* the round's path: nodes and each role's choice at each */
  uint32_t *pnode, *pchoice;
  uint64_t cappath, cappchoice;
  gdl_term *joint;
  int *goal;
} tree_t;

static int grow(tree_t *T, void *pp, uint64_t *cap, uint64_t need, size_t sz)
{
  if (T->full || !ctx_try_grow(T->ctx, pp, cap, need, sz, 64)) {
    T->full = 1;
    return 0;
  }
  return 1;
}

static uint64_t mix(uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

/* The child of parent by the joint move `joint`, or NONE. */
static uint32_t child_get(const tree_t *T, uint32_t parent, uint64_t joint)
{
  uint64_t key = (uint64_t)parent << 32 | joint, i;
  if (!T->capkey)
    return NONE;
  for (i = mix(key) & (T->capkey - 1); T->key[i] != EMPTY;
       i = (i + 1) & (T->capkey - 1))
    if (T->key[i] == key)
      return T->kid[i];
  return NONE;
}

static int child_put(tree_t *T, uint32_t parent, uint64_t joint, uint32_t kid)
{
  uint64_t key = (uint64_t)parent << 32 | joint, i;
  if ((T->nkey + 1) * 2 > T->capkey) {           /* rehash, doubled */
    uint64_t ncap = T->capkey ? T->capkey * 2 : 1024, j;
    uint64_t *nk = ctx_try_realloc(T->ctx, NULL, ncap * sizeof *nk);
    uint32_t *nv = ctx_try_realloc(T->ctx, NULL, ncap * sizeof *nv);
    if (!nk || !nv) {
      ctx_free(T->ctx, nk);
      ctx_free(T->ctx, nv);
      T->full = 1;
      return 0;
    }
    memset(nk, 0xff, ncap * sizeof *nk);
    for (j = 0; j < T->capkey; j++) {
      if (T->key[j] == EMPTY)
        continue;
      for (i = mix(T->key[j]) & (ncap - 1); nk[i] != EMPTY; i = (i + 1) & (ncap - 1))
        ;
      nk[i] = T->key[j];
      nv[i] = T->kid[j];
    }
    ctx_free(T->ctx, T->key);
    ctx_free(T->ctx, T->kid);
    T->key = nk;
    T->kid = nv;
    T->capkey = ncap;
  }
  for (i = mix(key) & (T->capkey - 1); T->key[i] != EMPTY; i = (i + 1) & (T->capkey - 1))
    ;
  T->key[i] = key;
  T->kid[i] = kid;
  T->nkey++;
  return 1;
}

/* A new node, not expanded; NONE when memory ran out. */
static uint32_t node_new(tree_t *T)
{
  node_t *n;
  if (T->nnode >= NONE - 1 || !grow(T, &T->node, &T->capnode, T->nnode + 1, sizeof *T->node))
    return NONE;
  n = &T->node[T->nnode];
  memset(n, 0, sizeof *n);
  n->first = n->cnt = n->val = NONE;
  return (uint32_t)T->nnode++;
}

/* Sets v's value to the current state's goals (a goal missing: 0). */
static int set_value(tree_t *T, uint32_t v, const int *goal)
{
  size_t r;
  if (!grow(T, &T->val, &T->capval, T->nval + T->k, sizeof *T->val))
    return 0;
  T->node[v].val = (uint32_t)T->nval;
  for (r = 0; r < T->k; r++)
    T->val[T->nval + r] = (int16_t)goal[r];
  T->nval += T->k;
  T->node[v].proven = 1;
  return 1;
}

static void read_goals(tree_t *T)
{
  size_t r;
  for (r = 0; r < T->k; r++) {
    long g = gdl_goal(T->ctx, r);
    T->goal[r] = g < 0 ? 0 : g > 100 ? 100 : (int)g;
  }
}

/* Expands v, whose state is current: its legal moves, or its value when
 * it is terminal (or a role has no move).  0 when it cannot (memory, or
 * an error: *st). */
static int expand(tree_t *T, uint32_t v, gdl_status *st)
{
  size_t r, n, i, tot = 0;
  const gdl_term *mv;
  uint64_t joints = 1;
  uint32_t first, cnt;
  if (gdl_terminal(T->ctx)) {
    read_goals(T);
    return set_value(T, v, T->goal);
  }
  if (!grow(T, &T->cnt, &T->capcnt, T->ncnt + T->k, sizeof *T->cnt))
    return 0;
  cnt = (uint32_t)T->ncnt;
  first = (uint32_t)T->nst;
  for (r = 0; r < T->k; r++) {
    if ((*st = gdl_legal(T->ctx, r, &mv, &n)) != GDL_OK)
      return 0;
    if (n == 0) {              /* stuck: the game ends here */
      read_goals(T);
      T->nst = first;
      return set_value(T, v, T->goal);
    }
    if (!grow(T, &T->st, &T->capst, T->nst + n, sizeof *T->st))
      return 0;
    for (i = 0; i < n; i++) {
      T->st[T->nst + i].move = mv[i];
      T->st[T->nst + i].n = 0;
      T->st[T->nst + i].sum = 0;
    }
    T->nst += n;
    T->cnt[cnt + r] = (uint32_t)n;
    tot += n;
    joints = joints > UINT32_MAX / n ? (uint64_t)UINT32_MAX + 1 : joints * n;
  }
  (void)tot;
  T->ncnt += T->k;
  T->node[v].cnt = cnt;
  T->node[v].first = first;
  T->node[v].joints = joints;
  return 1;
}

/* The one role with more than one move at v, -1 when none, -2 when
 * several. */
static int mover(const tree_t *T, const node_t *n)
{
  size_t r;
  int m = -1;
  for (r = 0; r < T->k; r++)
    if (T->cnt[n->cnt + r] > 1)
      m = m == -1 ? (int)r : -2;
  return m;
}

/* The joint index of a role's choice i at a node where only that role
 * moves (the others' choices are 0). */
static uint64_t joint_of(const tree_t *T, const node_t *n, int m, uint32_t i)
{
  uint64_t j = 0, mul = 1;
  size_t r;
  for (r = 0; r < T->k; r++) {
    if ((int)r == m)
      j += mul * i;
    mul *= T->cnt[n->cnt + r];
  }
  return j;
}

/* The proven child of v when role m plays i (only m moving), or NONE. */
static uint32_t proven_kid(const tree_t *T, uint32_t v, int m, uint32_t i)
{
  const node_t *n = &T->node[v];
  uint32_t c = child_get(T, v, joint_of(T, n, m, i));
  return c != NONE && T->node[c].proven ? c : NONE;
}

/* Role r's choice at v by UCB1; a proven child counts by its value. */
static uint32_t choose(tree_t *T, uint32_t v, size_t r, int m)
{
  const node_t *n = &T->node[v];
  uint32_t c = T->cnt[n->cnt + r], i, best = 0, unvisited = 0, off;
  double bestv = -1, logn;
  if (c == 1)
    return 0;
  off = n->first;
  for (i = 0; i < r; i++)
    off += T->cnt[n->cnt + i];
  for (i = 0; i < c; i++)
    if (T->st[off + i].n == 0 &&
        (m != (int)r || proven_kid(T, v, m, i) == NONE))
      unvisited++;
  if (unvisited) {             /* an unvisited move, at random */
    uint32_t pick = (uint32_t)rng_pick(&T->rng, unvisited);
    for (i = 0; i < c; i++)
      if (T->st[off + i].n == 0 &&
          (m != (int)r || proven_kid(T, v, m, i) == NONE) && pick-- == 0)
        return i;
  }
  logn = log((double)n->visits + 1);
  for (i = 0; i < c; i++) {
    const stat_t *s = &T->st[off + i];
    double u;
    uint32_t pk = m == (int)r ? proven_kid(T, v, m, i) : NONE;
    if (pk != NONE && T->val[T->node[pk].val + r] <= 0)
      u = -1;                  /* a proven loss: only when all are */
    else if (pk != NONE)       /* proven: its value, explored as others */
      u = T->val[T->node[pk].val + r] / 100.0 +
          T->c * sqrt(logn / (s->n ? s->n : 1));
    else
      u = s->sum / s->n / 100.0 + T->c * sqrt(logn / s->n);
    if (u > bestv) {
      bestv = u;
      best = i;
    }
  }
  return best;
}

/* Tries to prove v from its children (the header says how). */
static void prove(tree_t *T, uint32_t v)
{
  const node_t *n = &T->node[v];
  int m = mover(T, n);
  uint32_t i, c, kid, best = NONE;
  if (n->proven || n->first == NONE)
    return;
  if (m == -1) {
    kid = child_get(T, v, 0);
    best = kid != NONE && T->node[kid].proven ? kid : NONE;
  } else if (m >= 0) {
    int all = 1;
    c = T->cnt[n->cnt + m];
    for (i = 0; i < c; i++) {
      kid = proven_kid(T, v, m, i);
      if (kid == NONE) {
        all = 0;
        continue;
      }
      if (T->val[T->node[kid].val + m] >= 100) {
        best = kid;            /* a win for the mover */
        all = 1;
        break;
      }
      if (best == NONE ||
          T->val[T->node[kid].val + m] > T->val[T->node[best].val + m])
        best = kid;
    }
    if (!all)
      return;
  } else {
    uint64_t j;
    if (n->joints > 64)
      return;
    for (j = 0; j < n->joints; j++) {
      kid = child_get(T, v, j);
      if (kid == NONE || !T->node[kid].proven)
        return;
      if (best != NONE && memcmp(&T->val[T->node[kid].val],
                                 &T->val[T->node[best].val],
                                 T->k * sizeof *T->val) != 0)
        return;
      best = kid;
    }
  }
  if (best == NONE)
    return;
  {
    size_t r;
    for (r = 0; r < T->k; r++)
      T->goal[r] = T->val[T->node[best].val + r];
    set_value(T, v, T->goal);
  }
}

/* Room for a path of depth + 1 nodes (whether or not the tree is full). */
static int path_room(tree_t *T, uint64_t depth)
{
  return ctx_try_grow(T->ctx, (void **)&T->pnode, &T->cappath, depth + 1,
                      sizeof *T->pnode, 64) &&
         ctx_try_grow(T->ctx, (void **)&T->pchoice, &T->cappchoice,
                      (depth + 1) * T->k, sizeof *T->pchoice, 64);
}

/* One round from the root (whose state is set): down the tree, a node
 * added, a playout, the goals added along the path, proofs carried up.
 * GDL_OK, or the status that stopped it (a limit, an error). */
static gdl_status round_once(tree_t *T, const gdl_state *root)
{
  gdl_status st = GDL_OK;
  uint64_t depth = 0, d;
  uint32_t v = 0;
  size_t r;
  int leaf_proven = 0;
  if ((st = gdl_set_state(T->ctx, root)) != GDL_OK)
    return st;
  for (;;) {
    node_t *n = &T->node[v];
    uint64_t j = 0, mul = 1;
    uint32_t kid;
    int m;
    if (!path_room(T, depth)) {
      ctx_setmsg(T->ctx, "out of memory");
      return GDL_ELIMIT;       /* the path must fit: give up the round */
    }
    T->pnode[depth] = v;
    if (n->proven) {
      for (r = 0; r < T->k; r++)
        T->goal[r] = T->val[n->val + r];
      leaf_proven = 1;
      break;
    }
    if (n->first == NONE) {    /* the new leaf */
      if (!expand(T, v, &st)) {
        if (st != GDL_OK)
          return st;
        goto playout;          /* memory: play out from here */
      }
      n = &T->node[v];
      if (n->proven) {
        for (r = 0; r < T->k; r++)
          T->goal[r] = T->val[n->val + r];
        leaf_proven = 1;
        break;
      }
      goto playout;
    }
    m = mover(T, n);
    for (r = 0; r < T->k; r++) {
      uint32_t i = choose(T, v, r, m), off = n->first, q;
      for (q = 0; q < r; q++)
        off += T->cnt[n->cnt + q];
      T->pchoice[depth * T->k + r] = i;
      T->joint[r] = T->st[off + i].move;
      j += mul * i;
      mul *= T->cnt[n->cnt + r];
    }
    if ((st = gdl_advance(T->ctx, T->joint)) != GDL_OK)
      return st;
    depth++;
    if (n->joints > UINT32_MAX)
      kid = NONE;
    else if ((kid = child_get(T, v, j)) == NONE && !T->full) {
      kid = node_new(T);
      if (kid != NONE && !child_put(T, v, j, kid))
        kid = NONE;            /* unreachable: left as garbage */
    }
    if (kid == NONE) {         /* no room: play out below v */
      T->pnode[depth] = NONE;
      goto playout;
    }
    v = kid;
  }
  goto back;
playout:
  {
    size_t steps;
    int over;
    st = gdl_random_steps(T->ctx, &T->rng, 100000, &steps, &over);
    if (st != GDL_OK)
      return st;
    read_goals(T);
  }
back:
  for (d = depth + 1; d-- > 0;) {
    uint32_t u = T->pnode[d];
    node_t *n;
    if (u == NONE)
      continue;
    n = &T->node[u];
    n->visits++;
    if (d == depth || n->first == NONE)
      continue;
    {
      uint32_t off = n->first;
      for (r = 0; r < T->k; r++) {
        stat_t *s = &T->st[off + T->pchoice[d * T->k + r]];
        s->n++;
        s->sum += T->goal[r];
        off += T->cnt[n->cnt + r];
      }
    }
  }
  if (leaf_proven)
    for (d = depth; d-- > 0;) {
      prove(T, T->pnode[d]);
      if (!T->node[T->pnode[d]].proven)
        break;
    }
  return GDL_OK;
}

static void tree_free(tree_t *T)
{
  gdl_ctx *ctx = T->ctx;
  ctx_free(ctx, T->node);
  ctx_free(ctx, T->st);
  ctx_free(ctx, T->cnt);
  ctx_free(ctx, T->val);
  ctx_free(ctx, T->key);
  ctx_free(ctx, T->kid);
  ctx_free(ctx, T->pnode);
  ctx_free(ctx, T->pchoice);
  ctx_free(ctx, T->joint);
  ctx_free(ctx, T->goal);
}

/* A root move of the role chosen for, with its statistics summed over
 * the trees of every thread. */
typedef struct {
  gdl_term move;
  uint64_t n;                 /* rounds that chose it */
  double sum;                 /* the role's goals summed over them */
  int proven;                 /* its child is proven (the role moves alone) */
  long pval;                  /* ... with this goal for the role */
} rootstat_t;

/* Role r's moves at the root of T, with their statistics, into out
 * (room for all); returns their number. */
static uint32_t root_stats(const tree_t *T, size_t r, rootstat_t *out)
{
  const node_t *n = &T->node[0];
  int m = mover(T, n);
  uint32_t c = T->cnt[n->cnt + r], i, off = n->first, kid;
  size_t q;
  for (q = 0; q < r; q++)
    off += T->cnt[n->cnt + q];
  for (i = 0; i < c; i++) {
    kid = m == (int)r ? proven_kid(T, 0, m, i) : NONE;
    out[i].move = T->st[off + i].move;
    out[i].n = T->st[off + i].n;
    out[i].sum = T->st[off + i].sum;
    out[i].proven = kid != NONE;
    out[i].pval = kid != NONE ? T->val[T->node[kid].val + r] : 0;
  }
  return c;
}

/* The move played, of the c in s (the header says which). */
static uint32_t root_pick(const rootstat_t *s, uint32_t c, double *mean,
                          int *proven, long *pval)
{
  uint32_t i, best = NONE, pbest = NONE;
  *proven = 0;
  for (i = 0; i < c; i++) {
    if (s[i].proven && (pbest == NONE || s[i].pval > s[pbest].pval))
      pbest = i;
    if (!s[i].proven && (best == NONE || s[i].n > s[best].n))
      best = i;
  }
  if (pbest != NONE &&
      (best == NONE || s[pbest].pval >= 100 || s[best].n == 0 ||
       s[pbest].pval >= s[best].sum / s[best].n)) {
    *proven = 1;
    *pval = s[pbest].pval;
    *mean = (double)s[pbest].pval;
    return pbest;
  }
  *mean = s[best].n ? s[best].sum / s[best].n : -1;
  return best;
}

/* A tree for ctx whose root, `state`, is expanded.  GDL_EINPUT when the
 * game is over there; GDL_ELIMIT when memory runs out. */
static gdl_status tree_start(tree_t *T, gdl_ctx *ctx, const gdl_state *state,
                             const gdl_choose_opts *o, uint64_t seed)
{
  gdl_status st = GDL_OK;
  memset(T, 0, sizeof *T);
  T->ctx = ctx;
  T->k = gdl_role_count(ctx);
  T->rng = seed;
  T->c = o && o->exploration > 0 ? o->exploration : 0.4;
  T->joint = ctx_try_realloc(ctx, NULL, (T->k + 1) * sizeof *T->joint);
  T->goal = ctx_try_realloc(ctx, NULL, (T->k + 1) * sizeof *T->goal);
  if (!T->joint || !T->goal || node_new(T) != 0) {
    ctx_setmsg(ctx, "out of memory");
    return GDL_ELIMIT;
  }
  if ((st = gdl_set_state(ctx, state)) != GDL_OK || !expand(T, 0, &st)) {
    if (st == GDL_OK) {
      ctx_setmsg(ctx, "out of memory");
      st = GDL_ELIMIT;
    }
    return st;
  }
  if (T->node[0].proven) {
    ctx_setmsg(ctx, "the game is over in this state");
    return GDL_EINPUT;
  }
  return GDL_OK;
}

/* Rounds until the root is proven, `budget` rounds (0: no bound), secs
 * seconds from t0 (0: none), or *stop (set here when the root is
 * proven: the other threads' trees stop too).  A limit after a round is
 * not an error: the statistics so far stand. */
static gdl_status run_rounds(tree_t *T, const gdl_state *state,
                             uint64_t budget, double secs, double t0,
                             int *stop, uint64_t *rounds)
{
  gdl_status st = GDL_OK;
  while (!T->node[0].proven && (!budget || *rounds < budget) &&
         !__atomic_load_n(stop, __ATOMIC_RELAXED)) {
    if ((*rounds & 15) == 0 && secs && ctx_clock() - t0 >= secs)
      break;
    st = round_once(T, state);
    if (st == GDL_ELIMIT && *rounds > 0) {
      st = GDL_OK;             /* a limit: the best move found so far */
      break;
    }
    if (st != GDL_OK)
      break;
    (*rounds)++;
  }
  if (T->node[0].proven)
    __atomic_store_n(stop, 1, __ATOMIC_RELAXED);
  return st;
}

#if GDL_THREADS
/* A tree of another thread: its context (a twin of the chooser's, made
 * at the first call), its share of the rounds, and what it found.
 * Everything it reads of the chooser's context is copied here before it
 * starts; it touches only its own context. */
typedef struct {
  gdl_ctx **slot;             /* its context, in the chooser's subs[] */
  twin_t w;                   /* what the twin is made of */
  double deadline;            /* the chooser's context's, or 0 */
  const char *state;          /* the root's facts as KIF text */
  size_t role;
  gdl_choose_opts o;
  uint64_t seed, budget;
  double secs, t0;
  int *stop;
  rootstat_t *rs;             /* its statistics, in its context */
  uint32_t nrs;
  uint64_t rounds, nodes;
} job_t;

static void *job_run(void *arg)
{
  job_t *J = arg;
  gdl_ctx *h = *J->slot;
  gdl_state s = { 0, 0, NULL };
  double left = J->secs ? J->t0 + J->secs - ctx_clock() : 0;
  tree_t T;
  memset(&T, 0, sizeof T);
  if (!h && ((J->secs && left <= 0) ||
             !(h = *J->slot = twin_new(&J->w, left))))
    return NULL;               /* no context in time: it adds nothing */
  h->deadline = J->deadline;   /* the chooser's limits as they are now */
  h->interrupt = J->w.interrupt;
  h->cancel = J->w.cancel;
  h->limit = J->w.limit;
  if (twin_state(h, J->state, &s) &&
      tree_start(&T, h, &s, &J->o, J->seed) == GDL_OK) {
    run_rounds(&T, &s, J->budget, J->secs, J->t0, J->stop, &J->rounds);
    J->rs = ctx_try_realloc(h, NULL, T.cnt[T.node[0].cnt + J->role] *
                                         sizeof *J->rs);
    if (J->rs)
      J->nrs = root_stats(&T, J->role, J->rs);
    J->nodes = T.nnode;
  }
  if (T.ctx)
    tree_free(&T);
  gdl_state_release(h, &s);
  h->deadline = 0;
  return NULL;
}

/* J's statistics added to rs (the chooser's c moves, whose texts are
 * mtext): each move found by its text. */
static void merge_job(job_t *J, rootstat_t *rs, char *const *mtext,
                      uint32_t c)
{
  uint32_t i, j;
  gdl_ctx *h = *J->slot;
  for (i = 0; i < J->nrs; i++) {
    char *t = twin_text(h, J->rs[i].move);
    for (j = 0; t && j < c && (!mtext[j] || strcmp(mtext[j], t) != 0); j++)
      ;
    ctx_free(h, t);
    if (!t || j == c)
      continue;
    rs[j].n += J->rs[i].n;
    rs[j].sum += J->rs[i].sum;
    if (J->rs[i].proven) {
      rs[j].proven = 1;
      rs[j].pval = J->rs[i].pval;
    }
  }
  ctx_free(h, J->rs);
}

/* The other threads' statistics added to rs, the caller's. */
static void merge_jobs(gdl_ctx *ctx, job_t *job, unsigned started,
                       rootstat_t *rs, uint32_t c, gdl_choose_info *info)
{
  char **mtext = ctx_try_realloc(ctx, NULL, c * sizeof *mtext);
  uint32_t j;
  unsigned t;
  if (!mtext)
    return;
  for (j = 0; j < c; j++)
    mtext[j] = twin_text(ctx, rs[j].move);
  for (t = 1; t <= started; t++) {
    info->playouts += job[t].rounds;
    info->nodes += job[t].nodes;
    if (job[t].nrs)
      merge_job(&job[t], rs, mtext, c);
  }
  for (j = 0; j < c; j++)
    ctx_free(ctx, mtext[j]);
  ctx_free(ctx, mtext);
}

/* Trees on the threads but the first (the caller's, T), started before
 * it runs and merged into rs after; returns the threads started. */
static unsigned jobs_start(gdl_ctx *ctx, const gdl_state *state, size_t role,
                           const gdl_choose_opts *o, job_t *job,
                           pthread_t *th, unsigned n, uint64_t budget,
                           double secs, double t0, int *stop, char **text)
{
  twin_t w;
  unsigned t, started = 0;
  int made = 1;                /* every thread's context made before */
  if (n > ctx->nsubs) {
    gdl_ctx **subs = ctx_try_realloc(ctx, ctx->subs, n * sizeof *subs);
    if (!subs)
      return 0;
    memset(subs + ctx->nsubs, 0, (n - ctx->nsubs) * sizeof *subs);
    ctx->subs = subs;
    ctx->nsubs = n;
  }
  for (t = 1; t < n; t++)
    made &= ctx->subs[t] != NULL;
  if (!twin_of(ctx, &w, !made) || !(*text = twin_state_text(ctx, state)))
    return 0;
  for (t = 1; t < n; t++) {
    job_t *J = &job[t];
    memset(J, 0, sizeof *J);
    J->slot = &ctx->subs[t];
    J->w = w;
    J->deadline = ctx->deadline;
    J->state = *text;
    J->role = role;
    J->o = *o;
    J->seed = o->seed + t * 0x9e3779b97f4a7c15ull;
    J->budget = budget ? budget / n : 0;
    J->secs = secs;
    J->t0 = t0;
    J->stop = stop;
    if (pthread_create(&th[t], NULL, job_run, J) != 0)
      break;
    started++;
  }
  return started;
}
#endif

static gdl_status choose_mcts(gdl_ctx *ctx, const gdl_state *state,
                              size_t role, const gdl_choose_opts *o,
                              gdl_term *move, gdl_choose_info *info)
{
  tree_t T;
  gdl_status st;
  double t0 = ctx_clock();
  uint64_t budget = o && o->playouts ? o->playouts : 0;
  double secs = o && o->seconds > 0 ? o->seconds : 0;
  unsigned n = o && o->threads > 1 ? (o->threads > 64 ? 64 : o->threads) : 1;
  uint32_t c, pick;
  rootstat_t *rs = NULL;
  int stop = 0;
#if GDL_THREADS
  job_t job[64];
  pthread_t th[64];
  unsigned started = 0, t;
  char *text = NULL;
#endif
  if (!budget && !secs)
    budget = 10000;
  if ((st = tree_start(&T, ctx, state, o, o ? o->seed : 0)) != GDL_OK) {
    tree_free(&T);
    return st;
  }
  c = T.cnt[T.node[0].cnt + role];
  if (!(rs = ctx_try_realloc(ctx, NULL, c * sizeof *rs))) {
    tree_free(&T);
    ctx_setmsg(ctx, "out of memory");
    return GDL_ELIMIT;
  }
  if (c > 1) {
#if GDL_THREADS
    if (n > 1)
      started = jobs_start(ctx, state, role, o, job, th, n, budget, secs, t0,
                           &stop, &text);
    st = run_rounds(&T, state, budget ? budget - budget / n * started : 0,
                    secs, t0, &stop, &info->playouts);
    if (st != GDL_OK)          /* the others stop too */
      __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    for (t = 1; t <= started; t++)
      pthread_join(th[t], NULL);
#else
    (void)n;
    st = run_rounds(&T, state, budget, secs, t0, &stop, &info->playouts);
#endif
  }
  if (st == GDL_OK) {
    root_stats(&T, role, rs);
    info->nodes = T.nnode;
#if GDL_THREADS
    merge_jobs(ctx, job, started, rs, c, info);
#endif
    pick = root_pick(rs, c, &info->value, &info->proven, &info->proven_goal);
    *move = rs[pick].move;
  }
#if GDL_THREADS
  ctx_free(ctx, text);
#endif
  ctx_free(ctx, rs);
  tree_free(&T);
  /* the state current again (a limit past may refuse: the move stands) */
  if (st == GDL_OK)
    gdl_set_state(ctx, state);
  return st;
}

/* perfect: the game's value from the state by gdl_solve's value search
 * (retrograde over the graph, alpha-beta where it does not fit), given
 * half the time (10 s without a deadline), and the role's move on the
 * line of perfect play.  A game it does not prove in that time (or one
 * of a single role, or a dead end) is left to MCTS for the time left. */
static gdl_status choose_perfect(gdl_ctx *ctx, const gdl_state *state,
                                 size_t role, const gdl_choose_opts *o,
                                 gdl_term *move, gdl_choose_info *info)
{
  gdl_solve_opts so;
  gdl_solve_result res;
  gdl_choose_opts rest = *o;
  double t0 = ctx_clock(), left;
  gdl_status st;
  memset(&so, 0, sizeof so);
  so.algorithm = GDL_VALUE;
  so.start = state;
  so.threads = 1;
  so.max_seconds = o->seconds > 0 ? o->seconds / 2 : 10;
  st = gdl_solve(ctx, &so, &res);
  if (st == GDL_OK && res.game && res.status == GDL_SOLVED &&
      res.length > 0) {
    *move = res.plan[role];
    if ((st = gdl_set_state(ctx, state)) != GDL_OK)  /* as MCTS leaves it */
      return st;
    info->proven = 1;
    info->proven_goal = res.values[role];
    info->value = (double)res.values[role];
    info->nodes = res.stored;
    return GDL_OK;
  }
  if (st != GDL_OK && st != GDL_ELIMIT)
    return st;
  rest.kind = GDL_CHOOSE_MCTS;
  left = o->seconds - (ctx_clock() - t0);
  if (o->seconds > 0)          /* what is left, a round at the least */
    rest.seconds = left > 0.01 ? left : 0.01;
  return choose_mcts(ctx, state, role, &rest, move, info);
}

gdl_status gdl_choose_move(gdl_ctx *ctx, const gdl_state *state, size_t role,
                           const gdl_choose_opts *o, gdl_term *move,
                           gdl_choose_info *info)
{
  gdl_choose_info mine;
  gdl_status st;
  double t0 = ctx_clock();
  if (!info)
    info = &mine;
  memset(info, 0, sizeof *info);
  info->value = -1;
  *move = 0;
  if (role >= gdl_role_count(ctx)) {
    ctx_setmsg(ctx, "no role %zu: the game has %zu", role, gdl_role_count(ctx));
    return GDL_EINPUT;
  }
  if (o && o->kind == GDL_CHOOSE_RANDOM) {
    const gdl_term *mv;
    size_t n;
    uint64_t rng = o->seed;
    if ((st = gdl_set_state(ctx, state)) != GDL_OK ||
        (st = gdl_legal(ctx, role, &mv, &n)) != GDL_OK)
      return st;
    if (n == 0 || gdl_terminal(ctx)) {
      ctx_setmsg(ctx, n ? "the game is over in this state"
                        : "the role has no legal move in this state");
      return GDL_EINPUT;
    }
    *move = mv[gdl_random(&rng, n)];
    info->seconds = ctx_clock() - t0;
    return GDL_OK;
  }
  if (o && o->kind == GDL_CHOOSE_PERFECT) {
    st = choose_perfect(ctx, state, role, o, move, info);
    info->seconds = ctx_clock() - t0;
    return st;
  }
  st = choose_mcts(ctx, state, role, o, move, info);
  info->seconds = ctx_clock() - t0;
  return st;
}

const char *gdl_chooser_name(gdl_chooser k)
{
  return k == GDL_CHOOSE_MCTS ? "mcts" : k == GDL_CHOOSE_RANDOM ? "random"
         : k == GDL_CHOOSE_PERFECT ? "perfect" : "?";
}

int gdl_chooser_parse(const char *name, gdl_chooser *k)
{
  if (strcmp(name, "mcts") == 0)
    *k = GDL_CHOOSE_MCTS;
  else if (strcmp(name, "random") == 0)
    *k = GDL_CHOOSE_RANDOM;
  else if (strcmp(name, "perfect") == 0)
    *k = GDL_CHOOSE_PERFECT;
  else
    return -1;
  return 0;
}
