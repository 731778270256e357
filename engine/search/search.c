/*
 * search.c - finding plans: breadth-first, iterative deepening with cycle
 * pruning and a transposition table, depth-first.
 *
 * States are stored once in a store: their facts (term ids) in one pool,
 * and per state its parent and the joint move that reached it, so a plan is
 * read back by following parents.  With the grounded engine a state is
 * its bits over the fluent slots instead (ground_state_words, in
 * ground.c), in as many 32-bit words, stored and compared the same way:
 * the engine sets them and makes them without looking a fact up.
 * Breadth-first search visits the states in the order they were stored,
 * which is the queue; depth-first search keeps a stack of state ids.  A
 * state is tested (terminal, goal 100) when it is taken up for expansion,
 * and terminal states are never expanded.
 *
 * Iterative deepening stores only the path: it never repeats a state of the
 * current path, and a bounded transposition table remembers the depth left
 * with which each state was searched in this iteration, so a state met
 * again with no more depth left is skipped.  An iteration in which no
 * branch was cut by the depth limit has seen every reachable state.
 *
 * The informed searches read estimates off the grounded network
 * (estimate.c): A* takes up the stored state of least moves made + h_max
 * (ties: the most moves made), greedy best-first the one whose parent
 * had the least h_ff (ties: the last stored; each state is estimated
 * when taken up), both from a binary heap; IDA* is iterative
 * deepening whose bound is on moves made + h_max.  A successor that is a
 * dead end (no relaxed plan, or a latch against goal 100) is left out
 * where pruning is on.  auto runs A*, bfs, greedy best-first and
 * depth-first, each with a share of the time (solve_auto), and gives the
 * first result.
 *
 * With a step counter (counter.c), states are stored without it and get it
 * back by their depth when taken up; a stored state reached again by
 * fewer moves is taken up again.  A plan not proven shortest is made
 * shorter (auto's, or any with opts.shorten) by a breadth-first search of
 * its neighbourhood (search_near).
 */
#include <stdio.h>
#include <string.h>

#include "search/search.h"

#if GDL_THREADS
#include <pthread.h>
#endif

/* search_near's: the plan whose neighbourhood is searched */
typedef struct {
  const gdl_term *plan;
  size_t len;                 /* its steps */
  unsigned radius;            /* the moves off it searched */
  uint32_t *keys, n;          /* its states as stored (words each), the
                                 start first */
  uint32_t *tab, mask;        /* ... a hash set of them: index + 1 */
  uint32_t *tmp;              /* a child as stored */
  uint8_t *off;               /* per stored state: moves off the plan */
  uint32_t offcap, parent;
  uint64_t cut;               /* children left out, too far off */
  uint64_t uneven;            /* states met again by a way of another
                                 length */
} near_t;

typedef struct {
  gdl_ctx *ctx;
  const gdl_solve_opts *o;
  gdl_solve_result *res;
  uint32_t k;                 /* roles */
  uint32_t words;             /* a state is its bits in this many words
                                 (the grounded engine), or 0: its facts */
  int played;                 /* the network has had joint move S->joint */
  double t0, next_report;
  /* the store */
  gdl_term *pool;             /* facts of all states */
  uint64_t npool, poolcap;
  struct slot {               /* per state, what a lookup reads (one line);
                                 none where states are bits, all of one
                                 size: state id is at pool + id * words */
    uint64_t off;             /* offset in pool */
    uint32_t nfacts, hash;
  } *slot;
  uint32_t *parent;
  uint32_t *depth;            /* per state: moves from the start */
  gdl_term *moves;            /* per state: the k moves that reached it */
  uint32_t nstates, cap;
  uint32_t *table;            /* hash set: state id + 1 in the bits of the
                                 mask, the hash's bits above them (so a
                                 probe looks at a state only when they
                                 match); 0 empty */
  uint32_t mask;
  /* scratch */
  gdl_state cur, child;
  gdl_term *joint;
  long best_goal;
  uint32_t best_state;        /* state with the best terminal goal */
  /* estimates (estimate.c) */
  est_t *E;                   /* or NULL: every estimate 0 */
  stub_t *T;                  /* or NULL: every legal move searched */
  counter_t *C;                   /* a step counter left out of stored
                                 states, or NULL (counter.c) */
  int reopen;                 /* a stored state reached by fewer moves
                                 is taken up again (store) */
  int prune;                  /* dead ends left out */
  int best;                   /* BEST_ASTAR or BEST_GBFS, or 0 */
  uint32_t *hval;             /* astar, gbfs: per state, its estimate */
  uint8_t *closed;            /* astar, gbfs: per state, expanded */
  struct pq { uint64_t key; uint32_t id; } *heap;
  uint32_t nheap, heapcap;
  /* best-first: the children of the state being expanded, estimated
   * together, on several threads where that pays (estimate_kids) */
  uint32_t *kbits;            /* words each */
  gdl_term *kmoves;           /* k each */
  uint32_t *khm, *khf;
  uint8_t *kdead;
  uint32_t nkids, kidcap;
  est_t **Es;                 /* per thread but the first: a copy of E */
  bud_t *B;                   /* the move budget (pruning only), or NULL */
  bud_t **Bs;                 /* per thread but the first: a copy of B */
  const groups_t *D;             /* groups summed (groups.c), or NULL */
  unsigned nthreads;
  double est_cost;            /* seconds an estimate, as last measured */
  int together;               /* bfs, dfs: dead ends found among a
                                 state's children together (threads) */
  const char *running;        /* the search's name, for progress */
  near_t *N;                  /* search_near's, or NULL */
  uint32_t fanout;            /* successors of the state being expanded */
} search_t;

enum { BEST_ASTAR = 1, BEST_GBFS = 2 };
#define EVALUATED 2           /* closed[]: open, its estimate its own */
#define EAGER_FANOUT 16       /* gbfs: successors evaluated when made */

/* The hash of a state's facts, or of its bits. */
static inline uint32_t state_hash32(const search_t *S, const gdl_term *f,
                                    uint32_t n)
{
  gdl_state s;
  uint64_t h;
  if (S->words)
    return words_hash(f, n);
  s.n = n;
  s.facts = (gdl_term *)f;
  h = gdl_state_hash(&s);
  return (uint32_t)(h ^ (h >> 32));
}

static void report(search_t *S, unsigned depth, int force)
{
  double t = ctx_clock();
  gdl_solve_result *r = S->res;
  r->seconds = t - S->t0;
  r->peak_memory = gdl_memory_peak(S->ctx);
  if (S->o->max_seconds > 0 && r->seconds > S->o->max_seconds)
    ctx_throw(S->ctx, GDL_ELIMIT, "time limit of %g s reached",
              S->o->max_seconds);
  ctx_poll(S->ctx);
  if (S->o->progress && (force || t >= S->next_report)) {
    gdl_progress p;
    p.depth = depth;
    p.expanded = r->expanded;
    p.generated = r->generated;
    p.seconds = r->seconds;
    p.memory = gdl_memory_used(S->ctx);
    p.algorithm = S->running;
    S->o->progress(S->o->progress_arg, &p);
    S->next_report = t + 0.25;
  }
}

/* ---- the store -------------------------------------------------------- */

/* The facts (or bits) of stored state id. */
static const gdl_term *stored(const search_t *S, uint32_t id, uint32_t *n)
{
  if (S->words) {
    *n = S->words;
    return S->pool + (size_t)id * S->words;
  }
  *n = S->slot[id].nfacts;
  return S->pool + S->slot[id].off;
}

/* Whether stored state id is s (its hash h; the table's bits of the hash
 * matched). */
static int same_state(const search_t *S, uint32_t id, const gdl_state *s,
                      uint32_t h)
{
  const struct slot *x;
  if (S->words)
    return same_words(S->pool + (size_t)id * S->words, s->facts, S->words);
  x = &S->slot[id];
  return x->hash == h && x->nfacts == s->n &&
         memcmp(S->pool + x->off, s->facts, s->n * sizeof *s->facts) == 0;
}

static void rehash(search_t *S)
{
  uint32_t cap = S->mask ? (S->mask + 1) * 2 : 1024, i, j;
  uint32_t *t;
  if (cap == 0)
    ctx_throw(S->ctx, GDL_ELIMIT, "more than 2^31 states");
  t = ctx_alloc(S->ctx, (size_t)cap * sizeof *t);
  for (i = 0; i < S->nstates; i++) {
    uint32_t h, n;
    const gdl_term *f = stored(S, i, &n);
    h = S->words ? state_hash32(S, f, n) : S->slot[i].hash;
    for (j = h & (cap - 1); t[j]; j = (j + 1) & (cap - 1))
      ;
    t[j] = (h & ~(cap - 1)) | (i + 1);   /* ids stay below cap / 2 */
  }
  ctx_free(S->ctx, S->table);
  S->table = t;
  S->mask = cap - 1;
}

/* Adds s (its hash h, state_hash32; parent, moves) unless stored;
 * returns its id, *isnew 1 when new, 2 when stored but now reached by
 * fewer moves (S->reopen: it takes the new way), else 0.  With a step
 * counter, s is without it (unclocked). */
static uint32_t store(search_t *S, const gdl_state *s, uint32_t h,
                      uint32_t parent, const gdl_term *moves, int *isnew)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t j, id, e;
  if (S->mask)
    for (j = h & S->mask; (e = S->table[j]) != 0; j = (j + 1) & S->mask)
      if ((e & ~S->mask) == (h & ~S->mask) &&
          same_state(S, (e & S->mask) - 1, s, h)) {
        id = (e & S->mask) - 1;
        *isnew = 0;
        if (S->reopen && id && S->depth[parent] + 1 < S->depth[id]) {
          /* reached by fewer moves: the shorter way kept */
          S->parent[id] = parent;
          S->depth[id] = S->depth[parent] + 1;
          COPY(S->moves + (size_t)id * S->k, moves, S->k * sizeof *moves);
          *isnew = 2;
        }
        return id;
      }
  if (S->o->max_states && S->nstates >= S->o->max_states)
    ctx_throw(ctx, GDL_ELIMIT, "state limit of %llu reached",
              (unsigned long long)S->o->max_states);
  if (S->nstates >= S->cap) {
    uint32_t c = S->cap ? S->cap * 2 : 1024;
    if (!S->words)
      S->slot = ctx_realloc(ctx, S->slot, (size_t)c * sizeof *S->slot);
    S->parent = ctx_realloc(ctx, S->parent, (size_t)c * sizeof *S->parent);
    S->depth = ctx_realloc(ctx, S->depth, (size_t)c * sizeof *S->depth);
    S->moves = ctx_realloc(ctx, S->moves, (size_t)c * S->k * sizeof *S->moves);
    if (S->best) {
      S->hval = ctx_realloc(ctx, S->hval, (size_t)c * sizeof *S->hval);
      S->closed = ctx_realloc(ctx, S->closed, c);
    }
    S->cap = c;
  }
  if (!S->pool || S->npool + s->n > S->poolcap) {   /* (a state of no
                                                      facts needs a pool) */
    uint64_t c = S->poolcap ? S->poolcap * 2 : 65536;
    while (c < S->npool + s->n)
      c *= 2;
    S->pool = ctx_realloc(ctx, S->pool, (size_t)c * sizeof *S->pool);
    S->poolcap = c;
  }
  id = S->nstates;
  if (S->words) {
    copy_words(S->pool + S->npool, s->facts, s->n);
  } else {
    COPY(S->pool + S->npool, s->facts, s->n * sizeof *s->facts);
    S->slot[id].off = S->npool;
    S->slot[id].nfacts = s->n;
    S->slot[id].hash = h;
  }
  S->npool += s->n;
  S->parent[id] = parent;
  S->depth[id] = id ? S->depth[parent] + 1 : 0;
  if (S->best)
    S->closed[id] = 0;
  for (j = 0; moves && j < S->k; j++)
    S->moves[(size_t)id * S->k + j] = moves[j];
  S->nstates++;
  S->res->stored = S->nstates;
  if (!S->mask || S->nstates * 2 > S->mask) {
    rehash(S);
  } else {
    for (j = h & S->mask; S->table[j]; j = (j + 1) & S->mask)
      ;
    S->table[j] = (h & ~S->mask) | (id + 1);
  }
  *isnew = 1;
  return id;
}

/* State bits w without the step counter, as stored. */
static void unclocked(search_t *S, uint32_t *w)
{
  if (S->C)
    counter_out(S->C, w);
}

/* Stored state id into s, the step counter's value at its depth put
 * back. */
static void load_state(search_t *S, uint32_t id, gdl_state *s)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t n;
  const gdl_term *f = stored(S, id, &n);
  if (s->cap < n + 1) {
    s->facts = ctx_realloc(ctx, s->facts, (n + 1) * sizeof *s->facts);
    s->cap = n + 1;
  }
  COPY(s->facts, f, n * sizeof *s->facts);
  s->n = n;
  if (S->C)
    counter_in(S->C, s->facts, S->depth[id]);
}

/* The plan to state id, from the parents. */
static void plan_to(search_t *S, uint32_t id)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *r = S->res;
  uint32_t len = 0, x, i;
  for (x = id; x != 0; x = S->parent[x])
    len++;
  r->plan = ctx_arena(ctx, ((size_t)len * S->k + 1) * sizeof *r->plan);
  r->length = len;
  for (x = id, i = len; x != 0; x = S->parent[x]) {
    i--;
    COPY(r->plan + (size_t)i * S->k, S->moves + (size_t)x * S->k,
           S->k * sizeof *r->plan);
  }
}

static void bytes_per_state(search_t *S)
{
  if (S->nstates)
    S->res->bytes_per_state =
        (double)(S->poolcap * sizeof *S->pool +
                 (size_t)S->cap * ((S->words ? 0 : sizeof *S->slot) +
                                   sizeof *S->parent +
                                   sizeof *S->depth +
                                   S->k * sizeof *S->moves) +
                 (size_t)(S->mask + 1) * sizeof *S->table) /
        S->nstates;
}

/* ---- successors ------------------------------------------------------- */

/* Sets the current state to stored state s. */
static void set_state(search_t *S, const gdl_state *s)
{
  gdl_ctx *ctx = S->ctx;
  gdl_status st;
  if (S->words) {
    ground_set_bits(ctx, s->facts);
    ctx->have_state = 1;      /* for gdl_terminal and gdl_goal */
    ctx->db_state = 0;
    return;
  }
  if ((st = gdl_set_state(ctx, s)) != GDL_OK)
    ctx_throw(ctx, st, "%s", ctx->errmsg);
}

/* Sets the current state to `s` and tests it.  Returns 1 when it is a
 * solution, -1 when terminal (not to be expanded), 0 otherwise. */
static int test_state(search_t *S, const gdl_state *s, uint32_t id)
{
  gdl_ctx *ctx = S->ctx;
  long g;
  set_state(S, s);
  if (!gdl_terminal(ctx))
    return 0;
  g = gdl_goal(ctx, 0);
  if (g > S->best_goal) {
    S->best_goal = g;
    S->best_state = id;
  }
  return g == 100 ? 1 : -1;
}

/* Whether state w is a dead end by its latches or by the move budget. */
static int dead(est_t *E, bud_t *B, const uint32_t *w)
{
  return est_dead(E, w) || (B && bud_dead(B, E, w));
}

/* E's h_max and h_ff of state w, each raised to D's sum of the groups'
 * distances (groups.c; NULL: none), into *hmax and *hff. */
static void estimates(est_t *E, const groups_t *D, const uint32_t *w,
                      uint32_t *hmax, uint32_t *hff)
{
  uint32_t d;
  est_state(E, w, hmax, hff);
  if (!D || *hmax == EST_DEAD)
    return;
  d = groups_sum(D, w);
  if (d == EST_DEAD)
    *hmax = *hff = EST_DEAD;
  else {
    if (d > *hmax)
      *hmax = d;
    if (d > *hff)
      *hff = d;
  }
}

/* The estimates of a state of bits w into *hmax and *hff (0 without
 * estimates); 0 when it is a dead end left out (counted), else 1.  Where
 * pruning is off a dead end is searched like any state, estimated 0. */
static int estimate(search_t *S, const uint32_t *w, uint32_t *hmax,
                    uint32_t *hff)
{
  *hmax = *hff = 0;
  if (!S->E)
    return 1;
  if ((++S->ctx->poll & 63) == 0)   /* an estimate can take a while */
    ctx_poll(S->ctx);
  estimates(S->E, S->D, w, hmax, hff);
  if (*hmax == EST_DEAD || (S->prune && dead(S->E, S->B, w))) {
    if (S->prune) {
      S->res->pruned++;
      return 0;
    }
    *hmax = *hff = 0;
  }
  return 1;
}

/* Whether pruning leaves out the state of bits w (a blind search). */
static int pruned(search_t *S, const uint32_t *w)
{
  uint32_t hm, hf;
  return S->prune && S->E && !estimate(S, w, &hm, &hf);
}

/* Calls each(S, arg, i) once per joint move of the current state, with
 * S->joint set, S->child the successor and i its place among them (the
 * last role's moves vary fastest).  With `first` and states of bits, the
 * joint move played last comes first where it is legal here, the others
 * after it in their order, wrapping around: the network has that move
 * already, so its child costs no propagation of a change of move (in bfs,
 * the parent's other children can mostly undo the move that made them). */
typedef int (*succ_fn)(search_t *S, void *arg, size_t place);

/* Role r's legal moves in the current state into *mv: how many. */
static size_t role_moves(search_t *S, uint32_t r, const gdl_term **mv)
{
  gdl_ctx *ctx = S->ctx;
  gdl_status st;
  size_t n;
  if (S->words) {
    uint32_t u;
    ground_legal(ctx, r, mv, &u);
    return u;
  }
  if ((st = gdl_legal(ctx, r, mv, &n)) != GDL_OK)
    ctx_throw(ctx, st, "%s", ctx->errmsg);
  return n;
}

static int successors(search_t *S, succ_fn each, void *arg, int first)
{
  gdl_ctx *ctx = S->ctx;
  const gdl_term *mv[64];
  size_t nm[64], r, pick[64], start[64], place = 0;
  uint32_t k = S->k;
  gdl_status st;
  for (r = 0; r < k; r++) {
    if ((nm[r] = role_moves(S, (uint32_t)r, &mv[r])) == 0)
      return 0;
    pick[r] = 0;
  }
  if (S->T && (nm[0] = stub_reduce(ctx, S->T, mv[0], nm[0], &mv[0])) == 0) {
    S->res->pruned++;          /* no move of a stubborn set: a dead end */
    return 0;
  }
  for (r = 0; first && S->words && S->played && r < k; r++) {
    size_t j;
    for (j = 0; j < nm[r] && mv[r][j] != S->joint[r]; j++)
      ;
    if (j == nm[r] || place > (size_t)-1 / nm[r])   /* or too many */
      break;
    place = place * nm[r] + j;
    pick[r] = j;
  }
  if (r < k) {                 /* from the first joint move */
    place = 0;
    memset(pick, 0, k * sizeof *pick);
  }
  for (r = 0; r < k; r++)
    start[r] = pick[r];
  S->res->expanded++;
  for (r = 0, S->fanout = 1; r < k; r++)     /* successors to come */
    S->fanout = S->fanout > UINT32_MAX / nm[r] ? UINT32_MAX
                                                : S->fanout * (uint32_t)nm[r];
  for (;;) {
    for (r = 0; r < k; r++)
      S->joint[r] = mv[r][pick[r]];
    if (S->words) {
      ground_next_bits(ctx, S->joint, S->child.facts);
      S->played = 1;
    } else if ((st = gdl_next(ctx, S->joint, &S->child)) != GDL_OK) {
      ctx_throw(ctx, st, "%s", ctx->errmsg);
    }
    S->res->generated++;
    if (each(S, arg, place))
      return 1;
    /* the last role's moves vary fastest */
    for (r = k; r-- > 0;) {
      if (++pick[r] < nm[r])
        break;
      pick[r] = 0;
    }
    place = r == (size_t)-1 ? 0 : place + 1;
    for (r = 0; r < k && pick[r] == start[r]; r++)
      ;
    if (r == k)
      return 0;
  }
}

/* ---- children estimated together ----------------------------------- */

/* Keeps state w (bits), made by `moves`, among the children to estimate
 * together. */
static void keep_bits(search_t *S, const uint32_t *w, const gdl_term *moves)
{
  uint32_t n = S->nkids, c;
  if (n >= S->kidcap) {
    c = S->kidcap ? S->kidcap * 2 : 64;
    S->kbits = ctx_realloc(S->ctx, S->kbits, (size_t)c * S->words * sizeof *S->kbits);
    S->kmoves = ctx_realloc(S->ctx, S->kmoves, (size_t)c * S->k * sizeof *S->kmoves);
    S->khm = ctx_realloc(S->ctx, S->khm, (size_t)c * sizeof *S->khm);
    S->khf = ctx_realloc(S->ctx, S->khf, (size_t)c * sizeof *S->khf);
    S->kdead = ctx_realloc(S->ctx, S->kdead, c);
    S->kidcap = c;
  }
  copy_words(S->kbits + (size_t)n * S->words, w, S->words);
  COPY(S->kmoves + (size_t)n * S->k, moves, S->k * sizeof *moves);
  S->nkids++;
}

/* Keeps the child at its place among its parent's (successors'). */
static int keep_kid(search_t *S, void *arg, size_t place)
{
  (void)arg;
  (void)place;
  keep_bits(S, S->child.facts, S->joint);
  return 0;
}

typedef struct {
  search_t *S;
  est_t *E;
  bud_t *B;
  uint32_t lo, hi;
} est_job;

/* The estimates of children [lo, hi), and whether each is a dead end. */
static void *estimate_part(void *arg)
{
  est_job *j = arg;
  search_t *S = j->S;
  uint32_t i;
  for (i = j->lo; i < j->hi; i++) {
    const uint32_t *w = S->kbits + (size_t)i * S->words;
    estimates(j->E, S->D, w, &S->khm[i], &S->khf[i]);
    S->kdead[i] = S->khm[i] == EST_DEAD || (S->prune && dead(j->E, j->B, w));
  }
  return NULL;
}

/* The children's estimates, on the search's threads where the children
 * are many or their estimates dear (each thread with its copy of the
 * estimator); the values, and so the search, are the same on any number
 * of threads.  A dead end is left out where pruning is on (counted),
 * else searched with the estimates 0, as estimate() does. */
static void estimate_kids(search_t *S)
{
  est_job job[64];
  uint32_t n = S->nkids, t, nt = 1, i;
  double t0 = ctx_clock();
  if (S->nthreads > 1 && n >= 2 && n * S->est_cost >= 500e-6)
    nt = S->nthreads < n ? S->nthreads : n;
  for (t = 0; t < nt; t++) {
    job[t].S = S;
    job[t].E = t ? S->Es[t] : S->E;
    job[t].B = !t ? S->B : S->Bs ? S->Bs[t] : NULL;
    job[t].lo = (uint32_t)((uint64_t)n * t / nt);
    job[t].hi = (uint32_t)((uint64_t)n * (t + 1) / nt);
  }
#if GDL_THREADS
  {
    pthread_t th[64];
    unsigned started = 1;
    for (t = 1; t < nt; t++, started++)
      if (pthread_create(&th[t], NULL, estimate_part, &job[t]) != 0)
        break;
    estimate_part(&job[0]);
    for (t = 1; t < started; t++)
      pthread_join(th[t], NULL);
    for (t = started; t < nt; t++)
      estimate_part(&job[t]);
  }
#else
  for (t = 0; t < nt; t++)
    estimate_part(&job[t]);
#endif
  if (nt == 1 && n) {          /* the cost of one, for the next choice:
                                  a running mean, so that one stall
                                  (the machine's, not ours) counts little */
    double c = (ctx_clock() - t0) / n;
    S->est_cost = S->est_cost > 0 ? 0.9 * S->est_cost + 0.1 * c : c;
  }
  for (i = 0; i < n; i++)
    if (S->kdead[i]) {
      if (S->prune)
        S->res->pruned++;
      else
        S->khm[i] = S->khf[i] = 0;
    }
  ctx_poll(S->ctx);
}

/* ---- breadth-first and depth-first ------------------------------------ */

/* The children of one expanded state, stored once all are made, so that
 * their table slots come from memory while the others are computed (and,
 * in bfs, while the next state's are). */
#define PRUNED UINT32_MAX     /* kid.n of a dead end left out */

typedef struct {
  uint32_t parent;
  gdl_term *facts, *moves;
  uint32_t nfacts, factcap, movecap;
  struct kid { uint32_t off, n, hash; } *kids;
  uint32_t nkids, kidcap;
} kids_t;

typedef struct {
  uint32_t *stack;            /* dfs: ids to expand */
  uint32_t nstack, stackcap;
  uint64_t *nmoves;           /* dfs, fewest first: the new children's
                                 joint moves */
  uint32_t nmovescap;
  int dfs;
  kids_t set[2];              /* bfs: the last state's, the one before's */
  int cur;
} bfs_arg;

/* The child at its place among its parent's: made in another order (see
 * successors), stored in this one. */
static int bfs_each(search_t *S, void *arg, size_t place)
{
  bfs_arg *a = arg;
  kids_t *c = &a->set[a->cur];
  struct kid *k;
  uint32_t n = S->child.n, at = (uint32_t)place, r;
  if (at >= c->kidcap || c->nfacts + n >= c->factcap ||
      (at + 1) * S->k >= c->movecap) {
    GROW(S->ctx, c->kids, c->kidcap, at);
    GROW(S->ctx, c->facts, c->factcap, c->nfacts + n);
    GROW(S->ctx, c->moves, c->movecap, (at + 1) * S->k);
  }
  k = &c->kids[at];
  if (!S->together && pruned(S, S->child.facts)) {
    k->n = PRUNED;             /* a place left empty */
    c->nkids++;
    return 0;
  }
  k->off = c->nfacts;
  k->n = n;
  if (S->words)
    copy_words(c->facts + c->nfacts, S->child.facts, n);
  else
    COPY(c->facts + c->nfacts, S->child.facts, n * sizeof *c->facts);
  if (!S->together)           /* (together: once estimated, store_kids) */
    unclocked(S, c->facts + c->nfacts);
  k->hash = state_hash32(S, c->facts + c->nfacts, n);
  for (r = 0; r < S->k; r++)
    c->moves[at * S->k + r] = S->joint[r];
  c->nfacts += n;
  c->nkids++;
  if (S->mask)
    __builtin_prefetch(&S->table[k->hash & S->mask]);
  return 0;
}

/* The joint moves of stored state id, which becomes the current state
 * (0 where it is terminal: it is tested first). */
static uint64_t joint_moves(search_t *S, uint32_t id)
{
  gdl_ctx *ctx = S->ctx;
  uint64_t n = 1;
  uint32_t r;
  load_state(S, id, &S->cur);
  set_state(S, &S->cur);
  S->played = 0;
  if (gdl_terminal(ctx))
    return 0;
  for (r = 0; r < S->k && n; r++) {
    const gdl_term *mv;
    size_t m = role_moves(S, r, &mv);
    n = m && n > UINT64_MAX / m ? UINT64_MAX : n * m;
  }
  return n;
}

/* dfs, fewest first: the children just pushed, stack[base, nstack),
 * ordered so that the one with the fewest joint moves is taken first
 * (the top), ties as they came. */
static void fewest_on_top(search_t *S, bfs_arg *a, uint32_t base)
{
  uint32_t n = a->nstack - base, *st = a->stack + base, i, j;
  if (n < 2)
    return;
  GROW(S->ctx, a->nmoves, a->nmovescap, n);
  for (i = 0; i < n; i++)
    a->nmoves[i] = joint_moves(S, st[i]);
  for (i = 1; i < n; i++) {    /* insertion sort: few, and stable */
    uint64_t m = a->nmoves[i];
    uint32_t id = st[i];
    for (j = i; j > 0 && a->nmoves[j - 1] < m; j--) {
      a->nmoves[j] = a->nmoves[j - 1];
      st[j] = st[j - 1];
    }
    a->nmoves[j] = m;
    st[j] = id;
  }
}

static void store_kids(search_t *S, bfs_arg *a, kids_t *c)
{
  uint32_t i, base = a->nstack;
  if (S->together && c->nkids) {
    /* the dead ends among them found together, on the threads */
    S->nkids = 0;
    for (i = 0; i < c->nkids; i++)
      keep_bits(S, c->facts + c->kids[i].off, c->moves + i * S->k);
    estimate_kids(S);
    for (i = 0; i < c->nkids; i++)
      if (S->kdead[i]) {
        c->kids[i].n = PRUNED;
      } else if (S->C) {
        unclocked(S, c->facts + c->kids[i].off);
        c->kids[i].hash = state_hash32(S, c->facts + c->kids[i].off,
                                       c->kids[i].n);
      }
  }
  for (i = 0; S->mask && i < c->nkids; i++) {
    if (c->kids[i].n == PRUNED)
      continue;
    /* the stored state it may be, in turn: the first whose hash bits in
     * the table match */
    uint32_t h = c->kids[i].hash, j = h & S->mask, e;
    for (; (e = S->table[j]) != 0; j = (j + 1) & S->mask)
      if ((e & ~S->mask) == (h & ~S->mask)) {
        uint32_t n;
        __builtin_prefetch(S->words ? stored(S, (e & S->mask) - 1, &n)
                                    : (const void *)&S->slot[(e & S->mask) - 1]);
        break;
      }
  }
  for (i = 0; i < c->nkids; i++) {
    const struct kid *k = &c->kids[i];
    gdl_state s;
    int isnew;
    uint32_t id;
    if (k->n == PRUNED)
      continue;
    s.facts = c->facts + k->off;
    s.n = s.cap = k->n;
    id = store(S, &s, k->hash, c->parent, c->moves + i * S->k, &isnew);
    if (isnew && a->dfs) {
      GROW(S->ctx, a->stack, a->stackcap, a->nstack);
      a->stack[a->nstack++] = id;
    }
  }
  if (a->dfs && S->o->fewest_first)
    fewest_on_top(S, a, base);
  c->nkids = c->nfacts = 0;
}

static void bfs_free(search_t *S, bfs_arg *a)
{
  int i;
  ctx_free(S->ctx, a->stack);
  ctx_free(S->ctx, a->nmoves);
  for (i = 0; i < 2; i++) {
    ctx_free(S->ctx, a->set[i].facts);
    ctx_free(S->ctx, a->set[i].moves);
    ctx_free(S->ctx, a->set[i].kids);
  }
}

/* The move budget (budget.c) of the game, found once, from the first
 * pruning search's start; a copy for each thread that estimates. */
static void use_budget(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  unsigned t;
  if (!ctx->bud_tried) {
    ctx->bud = bud_build(ctx, S->E, S->cur.facts);
    ctx->bud_tried = 1;
  }
  S->B = ctx->bud;
  S->res->budget = S->B != NULL;
  if (S->B && S->Es && !S->Bs) {
    S->Bs = ctx_alloc(ctx, (S->nthreads + 1) * sizeof *S->Bs);
    for (t = 1; t < S->nthreads; t++)
      S->Bs[t] = bud_copy(ctx, S->B);
  }
}

/* The groups summed (groups.c) of the game, found once, from the first
 * search's start; used where the search's start is one they speak of. */
static void use_groups(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  if (!ctx->groups_tried) {
    ctx->groups = groups_build(ctx, S->E, S->cur.facts);
    ctx->groups_tried = 1;
  }
  S->D = ctx->groups && groups_hold(ctx->groups, S->cur.facts) ? ctx->groups : NULL;
  S->res->groups = groups_count(S->D);
}

/* The state the search starts from: the initial one, or opts->start;
 * with the grounded engine as bits where the network keeps states so
 * (ground_state_words), else as facts. */
static void start_state(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t w = GROUND(ctx) ? ground_state_words(ctx) : 0;
  if (S->o->start)
    gdl_state_copy(ctx, &S->cur, S->o->start);
  else
    gdl_initial(ctx, &S->cur);
  if (w) {
    gdl_state b;
    b.facts = ctx_alloc(ctx, (w + 1) * sizeof *b.facts);
    b.n = b.cap = w;
    if (ground_state_bits(ctx, &S->cur, b.facts)) {
      S->words = w;
      gdl_state_copy(ctx, &S->cur, &b);
      S->child.facts = ctx_realloc(ctx, S->child.facts,
                                   (w + 1) * sizeof *S->child.facts);
      S->child.n = S->child.cap = w;
    }
    ctx_free(ctx, b.facts);
  }
  if (!S->words)               /* estimates are of states as bits */
    S->E = NULL;
  if (S->words && S->o->counter >= 0 && S->o->algorithm != GDL_IDDFS &&
      S->o->algorithm != GDL_IDASTAR) {
    S->C = counter_start(ctx, S->cur.facts);
    S->res->counter = counter_slots(S->C);
  }
  S->reopen = S->best == BEST_ASTAR || S->C;
  if (S->words && S->E && S->prune)
    use_budget(S);
  if (S->words && S->E)
    use_groups(S);
}

/* Stores the start, without its step counter, as state 0. */
static void store_start(search_t *S)
{
  int isnew;
  unclocked(S, S->cur.facts);
  store(S, &S->cur, state_hash32(S, S->cur.facts, S->cur.n), 0, NULL, &isnew);
}

static void search_bfs(search_t *S, int dfs)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *r = S->res;
  bfs_arg a;
  uint32_t next = 0, id;
  unsigned depth = 0;
  memset(&a, 0, sizeof a);
  a.dfs = dfs;
  start_state(S);
  r->threads = 1;
  if (!dfs && S->words && !(S->prune && S->E) &&
      bfs_levels(ctx, S->o, r, S->cur.facts, S->C))
    return;                    /* by levels, 64 states at a time (bfs.c) */
  store_start(S);
  if (dfs) {
    GROW(ctx, a.stack, a.stackcap, 0);
    a.stack[a.nstack++] = 0;
  }
  for (;;) {
    int t;
    if (dfs) {
      if (a.nstack == 0)
        break;
      id = a.stack[--a.nstack];
    } else {
      if (next >= S->nstates)           /* the last children first */
        store_kids(S, &a, &a.set[!a.cur]);
      if (next >= S->nstates)
        break;
      id = next++;
    }
    if ((r->expanded & 255) == 0) {
      bytes_per_state(S);
      report(S, depth, 0);
    }
    load_state(S, id, &S->cur);
    t = test_state(S, &S->cur, id);
    if (!dfs) {
      depth = S->depth[id];
      /* every state of a smaller depth has been tested */
      r->depth = depth ? depth - 1 : 0;
    }
    if (t == 1) {
      if (!dfs)                /* as if stored when they were made */
        store_kids(S, &a, &a.set[!a.cur]);
      r->status = GDL_SOLVED;
      r->goal = 100;
      plan_to(S, id);
      r->depth = (unsigned)r->length;
      bytes_per_state(S);
      bfs_free(S, &a);
      return;
    }
    if (t < 0)
      continue;
    a.set[a.cur].parent = id;
    successors(S, bfs_each, &a, 1);
    if (!dfs)                  /* bfs: this state's children wait a turn */
      a.cur = !a.cur;
    store_kids(S, &a, &a.set[a.cur]);
  }
  r->status = GDL_UNSOLVABLE;
  r->depth = dfs ? 0 : depth;
  r->goal = S->best_goal;
  if (S->best_goal >= 0)
    plan_to(S, S->best_state);
  bytes_per_state(S);
  bfs_free(S, &a);
}

/* ---- iterative deepening ---------------------------------------------- */

typedef struct {
  uint64_t *key;              /* state hash (64 bits), 0 empty */
  uint32_t *check;            /* a second, independent hash of the state:
                                 two states must agree on 96 bits to be
                                 taken for one another */
  uint8_t *left;              /* depth left when searched */
  uint32_t mask, used, max;
} tt_t;

/* The second hash: another multiplier, another mixing. */
static uint32_t check_hash(const gdl_state *s)
{
  uint64_t h = 0x9e3779b97f4a7c15ull;
  uint32_t i;
  for (i = 0; i < s->n; i++) {
    h = (h + s->facts[i]) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  return (uint32_t)(h >> 16);
}

typedef struct {
  gdl_state *path;            /* states on the current path */
  gdl_term *pathmoves;        /* k per level */
  uint32_t len, cap;
  unsigned limit;
  int cutoff;                 /* some branch was cut by the limit */
  int ida;                    /* IDA*: the limit is on moves made + h_max */
  unsigned next;              /* ... and the least of it over the cut */
  tt_t tt;
  gdl_state *kids;            /* per level: the children, flattened */
  uint32_t *nkids;
  gdl_term **kidmoves;
  uint32_t *kidcap, *kidmovecap;
  gdl_term **kidfacts;
  uint32_t *kidfactcap, *kidfactn;
  uint32_t **kidoff;
  uint32_t *kidoffcap;
  /* the best terminal goal seen, with its path */
  gdl_term *bestplan;
  uint32_t bestlen;
} iddfs_t;

/* Returns 1 when the state was searched before with at least `left` depth
 * to spare; else records it. */
static int tt_seen(gdl_ctx *ctx, tt_t *t, const gdl_state *s, unsigned left)
{
  uint64_t h = gdl_state_hash(s);
  uint32_t j, c = check_hash(s);
  if (!h)
    h = 1;
  if (!t->key) {
    uint32_t cap = 1024;
    t->key = ctx_alloc(ctx, cap * sizeof *t->key);
    t->check = ctx_alloc(ctx, cap * sizeof *t->check);
    t->left = ctx_alloc(ctx, cap);
    t->mask = cap - 1;
  }
  for (j = (uint32_t)h & t->mask; t->key[j]; j = (j + 1) & t->mask)
    if (t->key[j] == h && t->check[j] == c) {
      if (t->left[j] >= left)
        return 1;
      t->left[j] = (uint8_t)(left > 255 ? 255 : left);
      return 0;
    }
  if (t->used >= t->max)
    return 0;                 /* full: search it again rather than grow */
  if ((t->used + 1) * 2 > t->mask) {
    uint32_t cap = (t->mask + 1) * 2, i, k;
    uint64_t *nk = ctx_alloc(ctx, cap * sizeof *nk);
    uint32_t *nc = ctx_alloc(ctx, cap * sizeof *nc);
    uint8_t *nl = ctx_alloc(ctx, cap);
    for (i = 0; i <= t->mask; i++) {
      if (!t->key[i])
        continue;
      for (k = (uint32_t)t->key[i] & (cap - 1); nk[k]; k = (k + 1) & (cap - 1))
        ;
      nk[k] = t->key[i];
      nc[k] = t->check[i];
      nl[k] = t->left[i];
    }
    ctx_free(ctx, t->key);
    ctx_free(ctx, t->check);
    ctx_free(ctx, t->left);
    t->key = nk;
    t->check = nc;
    t->left = nl;
    t->mask = cap - 1;
    for (j = (uint32_t)h & t->mask; t->key[j]; j = (j + 1) & t->mask)
      ;
  }
  t->key[j] = h;
  t->check[j] = c;
  t->left[j] = (uint8_t)(left > 255 ? 255 : left);
  t->used++;
  return 0;
}

static void tt_clear(tt_t *t)
{
  if (t->key) {
    memset(t->key, 0, (t->mask + 1) * sizeof *t->key);
    t->used = 0;
  }
}

typedef struct {
  iddfs_t *I;
  uint32_t level;
} kid_arg;

/* Collects the children of the current state at a level (in their order:
 * successors without `first`). */
static int collect_kid(search_t *S, void *arg, size_t place)
{
  (void)place;
  kid_arg *a = arg;
  iddfs_t *I = a->I;
  uint32_t L = a->level, n = I->nkids[L];
  gdl_ctx *ctx = S->ctx;
  GROW(ctx, I->kidoff[L], I->kidoffcap[L], n + 1);
  GROW(ctx, I->kidmoves[L], I->kidmovecap[L], (n + 1) * S->k);
  GROW(ctx, I->kidfacts[L], I->kidfactcap[L], I->kidfactn[L] + S->child.n);
  COPY(I->kidfacts[L] + I->kidfactn[L], S->child.facts,
         S->child.n * sizeof *S->child.facts);
  I->kidoff[L][n] = I->kidfactn[L];
  I->kidfactn[L] += S->child.n;
  I->kidoff[L][n + 1] = I->kidfactn[L];
  COPY(I->kidmoves[L] + (size_t)n * S->k, S->joint,
         S->k * sizeof *S->joint);
  I->nkids[L]++;
  return 0;
}

static int on_path(const iddfs_t *I, const gdl_state *s)
{
  uint32_t i;
  for (i = 0; i < I->len; i++)
    if (gdl_state_equal(&I->path[i], s))
      return 1;
  return 0;
}

static void path_push(search_t *S, iddfs_t *I, const gdl_state *s,
                      const gdl_term *moves)
{
  gdl_ctx *ctx = S->ctx;
  if (I->len >= I->cap) {
    uint32_t c = I->cap ? I->cap * 2 : 64, i;
    I->path = ctx_realloc(ctx, I->path, c * sizeof *I->path);
    I->pathmoves = ctx_realloc(ctx, I->pathmoves, c * S->k * sizeof *I->pathmoves);
    I->nkids = ctx_realloc(ctx, I->nkids, c * sizeof *I->nkids);
    I->kidmoves = ctx_realloc(ctx, I->kidmoves, c * sizeof *I->kidmoves);
    I->kidmovecap = ctx_realloc(ctx, I->kidmovecap, c * sizeof *I->kidmovecap);
    I->kidfacts = ctx_realloc(ctx, I->kidfacts, c * sizeof *I->kidfacts);
    I->kidfactcap = ctx_realloc(ctx, I->kidfactcap, c * sizeof *I->kidfactcap);
    I->kidfactn = ctx_realloc(ctx, I->kidfactn, c * sizeof *I->kidfactn);
    I->kidoff = ctx_realloc(ctx, I->kidoff, c * sizeof *I->kidoff);
    I->kidoffcap = ctx_realloc(ctx, I->kidoffcap, c * sizeof *I->kidoffcap);
    for (i = I->cap; i < c; i++) {
      memset(&I->path[i], 0, sizeof I->path[i]);
      I->kidmoves[i] = NULL;
      I->kidmovecap[i] = 0;
      I->kidfacts[i] = NULL;
      I->kidfactcap[i] = 0;
      I->kidoff[i] = NULL;
      I->kidoffcap[i] = 0;
    }
    I->cap = c;
  }
  gdl_state_copy(ctx, &I->path[I->len], s);
  if (moves)
    COPY(I->pathmoves + (size_t)I->len * S->k, moves,
           S->k * sizeof *moves);
  I->len++;
}

static void keep_best(search_t *S, iddfs_t *I, long g)
{
  if (g <= S->best_goal)
    return;
  S->best_goal = g;
  I->bestlen = I->len - 1;
  I->bestplan = ctx_realloc(S->ctx, I->bestplan,
                            ((size_t)I->bestlen * S->k + 1) *
                                sizeof *I->bestplan);
  COPY(I->bestplan, I->pathmoves + S->k,
         (size_t)I->bestlen * S->k * sizeof *I->bestplan);
}

/* Depth-first below the last state of the path, `left` steps to go.
 * Returns 1 when the path ends in a solution. */
static int dls(search_t *S, iddfs_t *I, unsigned left)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t L = I->len - 1, i;
  gdl_state *s = &I->path[L];
  kid_arg a;
  set_state(S, s);
  if (gdl_terminal(ctx)) {
    long g = gdl_goal(ctx, 0);
    keep_best(S, I, g);
    return g == 100;
  }
  if (left == 0) {
    I->cutoff = 1;
    if (I->limit + 1 < I->next)
      I->next = I->limit + 1;
    return 0;
  }
  if ((S->res->expanded & 255) == 0)
    report(S, I->limit, 0);
  if (S->o->max_states && S->res->expanded >= S->o->max_states)
    ctx_throw(ctx, GDL_ELIMIT, "state limit of %llu reached",
              (unsigned long long)S->o->max_states);
  a.I = I;
  a.level = L;
  I->nkids[L] = 0;
  I->kidfactn[L] = 0;
  successors(S, collect_kid, &a, 0);
  for (i = 0; i < I->nkids[L]; i++) {
    gdl_state kid;
    kid.facts = I->kidfacts[L] + I->kidoff[L][i];
    kid.n = I->kidoff[L][i + 1] - I->kidoff[L][i];
    kid.cap = kid.n;
    if (on_path(I, &kid))
      continue;
    if (S->E && (S->prune || I->ida)) {
      uint32_t hm, hf;
      if (!estimate(S, kid.facts, &hm, &hf))
        continue;              /* a dead end */
      if (I->ida && hm > left - 1) {   /* past the bound: cut */
        unsigned f = I->limit - left + 1 + hm;
        I->cutoff = 1;
        if (f < I->next)
          I->next = f;
        continue;
      }
    }
    if (tt_seen(ctx, &I->tt, &kid, left - 1))
      continue;
    path_push(S, I, &kid, I->kidmoves[L] + (size_t)i * S->k);
    if (dls(S, I, left - 1))
      return 1;
    I->len--;
  }
  return 0;
}

static void search_iddfs(search_t *S, int ida)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *r = S->res;
  iddfs_t I;
  uint32_t h0 = 0, hf;
  memset(&I, 0, sizeof I);
  I.tt.max = S->o->tt_entries ? (uint32_t)S->o->tt_entries : 1u << 20;
  I.ida = ida && S->E;
  start_state(S);
  if ((S->prune || I.ida) && S->words && !estimate(S, S->cur.facts, &h0, &hf))
    goto none;                 /* the start is a dead end */
  S->res->estimate = h0;
  for (I.limit = I.ida ? h0 : 0;; I.limit = I.next) {
    I.len = 0;
    I.cutoff = 0;
    I.next = UINT32_MAX;
    tt_clear(&I.tt);
    path_push(S, &I, &S->cur, NULL);
    report(S, I.limit, 1);
    if (dls(S, &I, I.limit)) {
      uint32_t n = I.len - 1;
      r->status = GDL_SOLVED;
      r->goal = 100;
      r->length = n;
      r->plan = ctx_arena(ctx, ((size_t)n * S->k + 1) * sizeof *r->plan);
      COPY(r->plan, I.pathmoves + S->k, (size_t)n * S->k * sizeof *r->plan);
      r->depth = I.limit;
      return;
    }
    if (!I.cutoff) {
      r->depth = I.limit;
      break;
    }
    r->depth = I.next - 1;     /* plans shorter than the next bound: none */
    if (I.next > 250)
      ctx_throw(ctx, GDL_ELIMIT, "depth limit of 250 reached");
  }
none:
  r->status = GDL_UNSOLVABLE;
  r->goal = S->best_goal;
  if (S->best_goal >= 0) {
    r->length = I.bestlen;
    r->plan = ctx_arena(ctx, ((size_t)I.bestlen * S->k + 1) * sizeof *r->plan);
    COPY(r->plan, I.bestplan, (size_t)I.bestlen * S->k * sizeof *r->plan);
  }
}

/* ---- best-first: A* and greedy ---------------------------------------- */

static void heap_push(search_t *S, uint64_t key, uint32_t id)
{
  uint32_t i = S->nheap++;
  GROW(S->ctx, S->heap, S->heapcap, i);
  while (i > 0 && S->heap[(i - 1) / 2].key > key) {
    S->heap[i] = S->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  S->heap[i].key = key;
  S->heap[i].id = id;
}

static struct pq heap_pop(search_t *S)
{
  struct pq top = S->heap[0], last = S->heap[--S->nheap];
  uint32_t i = 0, n = S->nheap;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && S->heap[c + 1].key < S->heap[c].key)
      c++;
    if (S->heap[c].key >= last.key)
      break;
    S->heap[i] = S->heap[c];
    i = c;
  }
  if (n)
    S->heap[i] = last;
  return top;
}

/* A*: least moves made + h_max first, then the most moves made (the key
 * keeps the moves made, so an entry whose state was since reached by
 * fewer is known stale); greedy: least h_ff first, then the last stored
 * (depth first among equals, where a move counter makes most of them). */
static void push_state(search_t *S, uint32_t id)
{
  uint64_t g = S->depth[id], h = S->hval[id];
  if (S->best == BEST_ASTAR)
    heap_push(S, (g + h) << 32 | (UINT32_MAX - g), id);
  else
    heap_push(S, h << 32 | (UINT32_MAX - id), id);
}

/* Child s of state parent, made by `moves`, its estimate h: stored, and
 * taken up later, unless it was reached before by as few moves. */
static void best_child(search_t *S, uint32_t parent, gdl_state *s,
                       const gdl_term *moves, uint32_t h)
{
  uint32_t id;
  int isnew;
  unclocked(S, s->facts);
  id = store(S, s, state_hash32(S, s->facts, s->n), parent, moves, &isnew);
  if (isnew == 1) {
    S->hval[id] = h;
    S->closed[id] = S->best == BEST_GBFS && S->fanout <= EAGER_FANOUT
                        ? EVALUATED : 0;
  } else if (isnew == 2) {     /* reached by fewer moves: taken up again */
    if (S->closed[id] == 1)    /* (its estimate is its own by now) */
      S->closed[id] = S->best == BEST_GBFS ? EVALUATED : 0;
  } else {
    return;
  }
  push_state(S, id);
}

/* Without an estimator (the interpreter, states of facts), each child
 * stored as it is made, estimated 0. */
static int best_child_now(search_t *S, void *arg, size_t place)
{
  (void)place;
  best_child(S, *(uint32_t *)arg, &S->child, S->joint, 0);
  return 0;
}

/* The children of state id, estimated (greedy search among many: not
 * now, see below) and stored. */
static void best_expand(search_t *S, uint32_t id)
{
  uint32_t i;
  int lazy;
  if (!S->E) {
    successors(S, best_child_now, &id, 1);
    return;
  }
  S->nkids = 0;
  successors(S, keep_kid, NULL, 1);
  lazy = S->best == BEST_GBFS && S->nkids > EAGER_FANOUT;
  if (!lazy)
    estimate_kids(S);
  for (i = 0; i < S->nkids; i++) {
    gdl_state s;
    s.facts = S->kbits + (size_t)i * S->words;
    s.n = s.cap = S->words;
    if (lazy)                  /* evaluated when taken up: see below */
      best_child(S, id, &s, S->kmoves + (size_t)i * S->k, S->hval[id]);
    else if (!S->kdead[i] || !S->prune)
      best_child(S, id, &s, S->kmoves + (size_t)i * S->k,
                 S->best == BEST_ASTAR ? S->khm[i] : S->khf[i]);
  }
}

static void search_best(search_t *S, int which)
{
  gdl_solve_result *r = S->res;
  uint32_t id, hm, hf;
  S->best = which;
  start_state(S);
  if (!estimate(S, S->cur.facts, &hm, &hf))
    goto none;                 /* the start is a dead end */
  r->estimate = hm;
  store_start(S);
  S->hval[0] = which == BEST_ASTAR ? hm : hf;
  push_state(S, 0);
  while (S->nheap) {
    struct pq e = heap_pop(S);
    unsigned f = (unsigned)(e.key >> 32);
    int t;
    id = e.id;
    if (S->closed[id] == 1 ||
        (which == BEST_ASTAR && UINT32_MAX - (uint32_t)e.key != S->depth[id]))
      continue;                /* expanded, or since reached by fewer */
    if ((r->expanded & 255) == 0) {
      bytes_per_state(S);
      report(S, f, 0);
    }
    load_state(S, id, &S->cur);
    if (which == BEST_GBFS && id && S->closed[id] != EVALUATED) {
      /* among many successors, greedy search evaluates a state when it
       * is taken up, not when it is made (deferred evaluation, as Fast
       * Downward's lazy search): they wait with their parent's estimate,
       * so a state with hundreds of them costs one estimate, not
       * hundreds; a few (up to EAGER_FANOUT) are told apart at once */
      if (!estimate(S, S->cur.facts, &hm, &hf)) {
        S->closed[id] = 1;
        continue;
      }
      S->hval[id] = hf;
    }
    t = test_state(S, &S->cur, id);
    if (which == BEST_ASTAR)   /* every plan of fewer moves is ruled out */
      r->depth = f ? f - 1 : 0;
    if (t == 1) {
      r->status = GDL_SOLVED;
      r->goal = 100;
      plan_to(S, id);
      if (which == BEST_ASTAR)
        r->depth = (unsigned)r->length;
      bytes_per_state(S);
      return;
    }
    S->closed[id] = 1;
    if (t < 0)
      continue;
    best_expand(S, id);
  }
none:
  r->status = GDL_UNSOLVABLE;
  r->goal = S->best_goal;
  if (S->best_goal >= 0)
    plan_to(S, S->best_state);
  bytes_per_state(S);
}

/* ---- a plan made shorter --------------------------------------------- */

/* A plan found by a search that does not prove it shortest is made
 * shorter by a breadth-first search of its neighbourhood (Nakhost and
 * Mueller's plan neighbourhood graph search): the states of the plan, and
 * those at most S->radius moves off it.  The plan itself lies within, so
 * the search finds a plan no longer, and the shortest of those in the
 * neighbourhood: a loop of the plan cut out, a detour taken straight. */
static int on_plan(const search_t *S, const near_t *N, const uint32_t *w,
                   uint32_t h)
{
  uint32_t j, e;
  for (j = h & N->mask; (e = N->tab[j]) != 0; j = (j + 1) & N->mask)
    if (same_words(N->keys + (size_t)(e - 1) * S->words, w, S->words))
      return 1;
  return 0;
}

/* The plan's states from the start (S->cur), as stored, into N. */
static void plan_states(search_t *S, near_t *N)
{
  gdl_ctx *ctx = S->ctx;
  uint32_t w = S->words, i, j, *cur;
  N->n = (uint32_t)N->len + 1;
  N->keys = ctx_alloc(ctx, ((size_t)N->n * w + 2) * sizeof *N->keys);
  for (N->mask = 15; N->mask < 2 * N->n; N->mask = N->mask * 2 + 1)
    ;
  N->tab = ctx_alloc(ctx, ((size_t)N->mask + 1) * sizeof *N->tab);
  memset(N->tab, 0, ((size_t)N->mask + 1) * sizeof *N->tab);
  copy_words(N->keys, S->cur.facts, w);
  for (i = 0; i < N->n; i++) {
    cur = N->keys + (size_t)i * w;
    if (i + 1 < N->n) {        /* the next from the full state */
      if (S->C)
        counter_in(S->C, cur, i);
      ground_set_bits(ctx, cur);
      ground_next_bits(ctx, N->plan + (size_t)i * S->k, cur + w);
    }
    unclocked(S, cur);
    for (j = state_hash32(S, cur, w) & N->mask; N->tab[j];
         j = (j + 1) & N->mask)
      ;
    N->tab[j] = i + 1;
  }
  S->played = 0;
}

/* A child within the neighbourhood stored. */
static int near_each(search_t *S, void *arg, size_t place)
{
  near_t *N = arg;
  uint32_t h, id, off;
  int isnew;
  gdl_state s;
  (void)place;
  copy_words(N->tmp, S->child.facts, S->words);
  unclocked(S, N->tmp);
  h = state_hash32(S, N->tmp, S->words);
  off = on_plan(S, N, N->tmp, h) ? 0 : N->off[N->parent] + 1u;
  if (off > N->radius) {
    N->cut++;
    return 0;
  }
  s.facts = N->tmp;
  s.n = s.cap = S->words;
  id = store(S, &s, h, N->parent, S->joint, &isnew);
  if (!isnew && S->depth[id] != S->depth[N->parent] + 1)
    N->uneven++;
  GROW(S->ctx, N->off, N->offcap, id);
  if (isnew || off < N->off[id])
    N->off[id] = (uint8_t)off;
  return 0;
}

static void search_near(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *r = S->res;
  near_t *N = S->N;
  uint32_t id;
  start_state(S);
  r->status = GDL_LIMIT;
  snprintf(r->why, sizeof r->why, "no plan in the neighbourhood");
  if (!S->words)
    return;                    /* (states of facts: the interpreter) */
  N->tmp = ctx_alloc(ctx, (S->words + 2) * sizeof *N->tmp);
  plan_states(S, N);
  store_start(S);
  GROW(ctx, N->off, N->offcap, 0);
  N->off[0] = 0;
  for (id = 0; id < S->nstates; id++) {
    if ((r->expanded & 255) == 0) {
      bytes_per_state(S);
      report(S, S->depth[id], 0);
    }
    load_state(S, id, &S->cur);
    switch (test_state(S, &S->cur, id)) {
    case 1:
      r->status = GDL_SOLVED;
      r->goal = 100;
      plan_to(S, id);
      r->depth = (unsigned)r->length;
      /* with nothing left out so far, a breadth-first search of all */
      r->optimal = N->cut == 0;
      bytes_per_state(S);
      return;
    case -1:
      continue;
    }
    N->parent = id;
    successors(S, near_each, N, 1);
  }
  bytes_per_state(S);
}

/* ---- entry ------------------------------------------------------------ */

/* The store and the scratch states go back to the context. */
static void release(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  ctx_free(ctx, S->pool);
  ctx_free(ctx, S->slot);
  ctx_free(ctx, S->parent);
  ctx_free(ctx, S->depth);
  ctx_free(ctx, S->moves);
  ctx_free(ctx, S->table);
  ctx_free(ctx, S->joint);
  ctx_free(ctx, S->hval);
  ctx_free(ctx, S->closed);
  ctx_free(ctx, S->heap);
  ctx_free(ctx, S->kbits);
  ctx_free(ctx, S->kmoves);
  ctx_free(ctx, S->khm);
  ctx_free(ctx, S->khf);
  ctx_free(ctx, S->kdead);
  counter_free(ctx, S->C);
  if (S->N) {
    ctx_free(ctx, S->N->keys);
    ctx_free(ctx, S->N->tab);
    ctx_free(ctx, S->N->tmp);
    ctx_free(ctx, S->N->off);
  }
  if (S->Es) {
    unsigned t;
    for (t = 1; t < S->nthreads; t++)
      est_copy_free(ctx, S->Es[t]);
    ctx_free(ctx, S->Es);
  }
  if (S->Bs) {
    unsigned t;
    for (t = 1; t < S->nthreads; t++)
      bud_copy_free(ctx, S->Bs[t]);
    ctx_free(ctx, S->Bs);
  }
  gdl_state_release(ctx, &S->cur);
  gdl_state_release(ctx, &S->child);
  ctx->have_state = 0;        /* the network's is some state searched */
}

static void finish(search_t *S)
{
  /* a board reached again by more moves, left out, may have ended the
   * game by the counter there: the best goal is the best found */
  S->res->goal_bound = S->res->status == GDL_UNSOLVABLE && counter_ends(S->C);
  S->res->seconds = ctx_clock() - S->t0;
  S->res->peak_memory = gdl_memory_peak(S->ctx);
  if (S->o->progress)
    report(S, S->res->depth, 1);
}

static int informed(gdl_algorithm a)
{
  return a == GDL_ASTAR || a == GDL_IDASTAR || a == GDL_GBFS ||
         a == GDL_AUTO;
}

/* Runs the search with a jump target, so that a limit, an interrupt or
 * exhausted memory ends it with the counts so far.  S lives in the
 * caller's frame, so its fields are intact after the jump. */
/* The grounded engine back to playout mode (ground_search_mode), even
 * after a search stopped by a throw. */
static void search_mode_off(gdl_ctx *ctx)
{
  jmp_buf jb, *old = ctx->jmp;
  ctx->jmp = &jb;
  if (!setjmp(jb))
    ground_search_mode(ctx, 0);
  ctx->jmp = old;
}

static gdl_status run_protected(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *res = S->res;
  jmp_buf jb, *old = ctx->jmp;
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    search_mode_off(ctx);
    bytes_per_state(S);
    release(S);
    if (ctx->thrown != GDL_ELIMIT)
      return ctx->thrown;
    res->status = GDL_LIMIT;
    snprintf(res->why, sizeof res->why, "%.150s", ctx->errmsg);
    res->seconds = ctx_clock() - S->t0;
    res->peak_memory = gdl_memory_peak(ctx);
    res->plan = NULL;
    res->length = 0;
    return GDL_OK;
  }
  S->joint = ctx_alloc(ctx, (S->k + 1) * sizeof *S->joint);
  if (GROUND(ctx))             /* every move of each state: ready lists */
    ground_search_mode(ctx, 1);
  if (GROUND(ctx) && (S->prune || informed(S->o->algorithm))) {
    if (!ctx->est)
      ctx->est = est_build(ctx);
    S->E = ctx->est;
    res->latches = S->E ? est_latches(S->E) : 0;
  }
  if (GROUND(ctx) && S->k == 1 && S->o->stubborn >= 0 &&
      S->o->algorithm != GDL_BFS) {
    if (!ctx->est)
      ctx->est = est_build(ctx);
    if (!ctx->stub_tried) {
      ctx->stub = stub_build(ctx, ctx->est);
      ctx->stub_tried = 1;
    }
    S->T = ctx->stub;
    res->stubborn = S->T != NULL;
  }

  S->nthreads = 1;
  if (S->E && (S->o->algorithm == GDL_ASTAR || S->o->algorithm == GDL_GBFS ||
               (S->prune && (S->o->algorithm == GDL_DFS ||
                             S->o->algorithm == GDL_BFS)))) {
    unsigned t;                /* estimates on every core: a copy each */
    S->nthreads = bfs_threads(S->o->threads);
    S->Es = ctx_alloc(ctx, (S->nthreads + 1) * sizeof *S->Es);
    for (t = 1; t < S->nthreads; t++)
      S->Es[t] = est_copy(ctx, S->E);
    res->threads = S->nthreads;
    S->together = S->prune && S->nthreads > 1 &&
                  (S->o->algorithm == GDL_DFS || S->o->algorithm == GDL_BFS);
  }
  if (S->N)
    search_near(S);
  else switch (S->o->algorithm) {
  case GDL_IDDFS:
  case GDL_IDASTAR:
    search_iddfs(S, S->o->algorithm == GDL_IDASTAR);
    break;
  case GDL_ASTAR:
    search_best(S, BEST_ASTAR);
    break;
  case GDL_GBFS:
    search_best(S, BEST_GBFS);
    break;
  default:
    search_bfs(S, S->o->algorithm == GDL_DFS);
    break;
  }
  finish(S);
  release(S);
  ctx->jmp = old;
  search_mode_off(ctx);
  return GDL_OK;
}

const char *gdl_algorithm_name(gdl_algorithm a)
{
  static const char *const name[] = {
    "bfs", "iddfs", "dfs", "astar", "idastar", "gbfs", "auto"
  };
  return (unsigned)a < sizeof name / sizeof *name ? name[a] : "?";
}

/* One search, by opts->algorithm (not auto); with N, the search of the
 * neighbourhood of its plan (search_near). */
static gdl_status solve_one(gdl_ctx *ctx, const gdl_solve_opts *opts,
                            gdl_solve_result *res, near_t *N)
{
  search_t S;
  gdl_algorithm a = opts->algorithm;
  memset(res, 0, sizeof *res);
  memset(&S, 0, sizeof S);
  res->goal = -1;
  res->found_by = a;
  res->threads = 1;
  S.ctx = ctx;
  S.o = opts;
  S.res = res;
  S.k = ctx->nroles;
  S.t0 = ctx_clock();
  S.best_goal = -1;
  S.prune = opts->prune > 0 || (opts->prune == 0 && informed(a));
  S.running = gdl_algorithm_name(a);
  if (N) {
    S.N = N;
    S.running = "shorten";
    S.prune = 0;
  }
  {
    /* the deadline reaches into the evaluation of a single state too */
    double old = ctx->deadline;
    gdl_status st;
    if (opts->max_seconds > 0 &&
        (old == 0 || S.t0 + opts->max_seconds < old))
      ctx->deadline = S.t0 + opts->max_seconds;
    st = run_protected(&S);
    ctx->deadline = old;
    if (!N)
      res->optimal = res->status == GDL_SOLVED &&
                     (a == GDL_BFS || a == GDL_IDDFS || a == GDL_ASTAR ||
                      a == GDL_IDASTAR);
    return st;
  }
}

/* A plan not proven shortest made shorter in at most `seconds` (see
 * search_near), its counts added to res: its neighbourhood within 1
 * move, then 2, ..., a
 * round that finds a shorter plan searching around that one at the same
 * radius; until a round meets a limit, or leaves nothing out (then the
 * plan is the shortest), or NEAR_IDLE rounds in a row found nothing that
 * were idle: took more than a twentieth of the time, or met no state
 * again by a way of another length than it was stored with (in a peg
 * solitaire every way to a board has one length, and every plan too; a
 * cheap round that met some does not count: a wider one may find a way
 * round). */
#define NEAR_RADIUS 64
#define NEAR_IDLE 3
static void shorten(gdl_ctx *ctx, const gdl_solve_opts *opts,
                    gdl_solve_result *res, double seconds)
{
  double t0 = ctx_clock();
  unsigned radius = 1, idle = 0;
  size_t first = res->length;
  while (radius <= NEAR_RADIUS && idle < NEAR_IDLE && !res->optimal) {
    gdl_solve_opts o = *opts;
    gdl_solve_result nr;
    near_t N;
    o.max_seconds = seconds - (ctx_clock() - t0);
    if (o.max_seconds <= 0)
      break;
    o.algorithm = GDL_BFS;
    memset(&N, 0, sizeof N);
    N.plan = res->plan;
    N.len = res->length;
    N.radius = radius;
    if (solve_one(ctx, &o, &nr, &N) != GDL_OK)
      break;                   /* (the plan as found stands) */
    res->expanded += nr.expanded;
    res->generated += nr.generated;
    if (nr.status != GDL_SOLVED)
      break;
    if (nr.length < res->length || nr.optimal) {
      res->plan = nr.plan;
      res->length = nr.length;
      res->optimal = nr.optimal;
      idle = 0;
    } else {                   /* idle: costly, or no state met again
                                  by a way of another length */
      radius++;
      idle += nr.seconds > seconds / 20 || !N.uneven;
    }
  }
  if (res->length < first)
    res->shortened_from = first;
}

/* auto: a portfolio, each search with a share of the time; the first to
 * solve the puzzle or to prove it unsolvable gives the result.
 *   astar  a glance (1/20 of the time, at most 0.5 s): where the
 *          estimates or the dead ends cut the space down, this is all;
 *   bfs    (1/9, at most 3 s): a small space is searched fastest blind,
 *          no estimate to compute;
 *   astar  (1/6 of what is left, or 10 s): optimal where it can finish;
 *   dfs    a glance, blind (1/20, at most 1 s): where plans are many and
 *          deep (peg solitaire), the cheapest way to one;
 *   dfs    fewest moves first (1/10, at most 5 s): knight's tours;
 *   gbfs   (3/4 of what is left, or 40 s): some plan, guided by h_ff;
 *   dfs    (the rest, or no limit), dead ends pruned.
 * A limit of the user's (memory, states of one search, Ctrl-C, the time
 * as a whole) ends it there. */
static gdl_status solve_auto(gdl_ctx *ctx, const gdl_solve_opts *opts,
                             gdl_solve_result *res)
{
  static const struct {
    gdl_algorithm a;
    double part, most;         /* of the time left; seconds (0: none) */
    int fewest;                /* dfs: fewest moves first */
  } plan[] = {
    { GDL_ASTAR, 1.0 / 20, 0.5, 0 }, { GDL_BFS, 1.0 / 9, 3, 0 },
    { GDL_ASTAR, 1.0 / 6, 10, 0 }, { GDL_DFS, 1.0 / 20, 1, 0 },
    { GDL_DFS, 1.0 / 10, 5, 1 }, { GDL_GBFS, 3.0 / 4, 40, 0 },
    { GDL_DFS, 1, 0, 0 },
  };
  size_t np = sizeof plan / sizeof *plan, i;
  double t0 = ctx_clock();
  uint64_t expanded = 0, generated = 0, npruned = 0;
  unsigned h0 = 0;
  gdl_status st = GDL_OK;
  for (i = 0; i < np; i++) {
    gdl_solve_opts o = *opts;
    double left = opts->max_seconds - (ctx_clock() - t0);
    o.algorithm = plan[i].a;
    o.fewest_first = opts->fewest_first || plan[i].fewest;
    if (opts->max_seconds > 0) {
      if (left <= 0)
        break;
      o.max_seconds = left * plan[i].part;
      if (plan[i].most > 0 && o.max_seconds > plan[i].most)
        o.max_seconds = plan[i].most;
    } else {
      o.max_seconds = plan[i].most;
    }
    if (plan[i].a == GDL_DFS && o.prune == 0)
      o.prune = i + 1 == np ? 1 : -1;   /* the glance blind, the last not */
    st = solve_one(ctx, &o, res, NULL);
    expanded += res->expanded;
    generated += res->generated;
    npruned += res->pruned;
    if (plan[i].a == GDL_ASTAR)
      h0 = res->estimate;
    if (st != GDL_OK || res->status != GDL_LIMIT || i + 1 == np)
      break;
    /* its own share ran out: the next search; anything else stops */
    if (strncmp(res->why, "time limit", 10) != 0 ||
        (ctx->interrupt && *ctx->interrupt))
      break;
  }
  res->expanded = expanded;
  res->generated = generated;
  res->pruned = npruned;
  res->estimate = h0;
  res->seconds = ctx_clock() - t0;
  if (res->status == GDL_LIMIT && opts->max_seconds > 0 &&
      strncmp(res->why, "time limit", 10) == 0)
    snprintf(res->why, sizeof res->why, "time limit of %g s reached",
             opts->max_seconds);
  return st;
}

gdl_status gdl_solve(gdl_ctx *ctx, const gdl_solve_opts *opts,
                     gdl_solve_result *res)
{
  memset(res, 0, sizeof *res);
  res->goal = -1;
  if (!ctx->compiled || !ctx->is_game) {
    ctx_setmsg(ctx, "%s", ctx->compiled && ctx->not_game[0]
                              ? ctx->not_game : "not a game");
    return GDL_EINPUT;
  }
  if (ctx->nroles > 64) {
    ctx_setmsg(ctx, "more than 64 roles");
    return GDL_EINPUT;
  }
  if ((unsigned)opts->algorithm > GDL_AUTO) {
    ctx_setmsg(ctx, "no such search algorithm");
    return GDL_EINPUT;
  }
  {
    double t0 = ctx_clock(), spent, most;
    gdl_status st = opts->algorithm == GDL_AUTO
                        ? solve_auto(ctx, opts, res)
                        : solve_one(ctx, opts, res, NULL);
    if (st != GDL_OK || res->status != GDL_SOLVED || res->optimal ||
        opts->shorten < 0 ||
        (opts->shorten == 0 && opts->algorithm != GDL_AUTO))
      return st;
    /* half as long as the search took (at least 1 s), within the limit */
    spent = ctx_clock() - t0;
    most = spent / 2 > 1 ? spent / 2 : 1;
    if (opts->max_seconds > 0 && opts->max_seconds - spent < most)
      most = opts->max_seconds - spent;
    shorten(ctx, opts, res, most);
    res->seconds = ctx_clock() - t0;
    return GDL_OK;
  }
}
