/*
 * solve.c - gdl_solve: the table of algorithms, one search run with the
 * analyses its row asks for and a jump target for its limits, auto's
 * portfolio, and a plan not proven shortest made shorter in rounds.
 * Adding an algorithm is a file with its run function and a row here
 * (doc/engine.md, "How to add a search algorithm").
 */
#include <stdio.h>
#include <string.h>

#include "search/search.h"

/* The algorithms, by gdl_algorithm.  auto's turns, each with a share of
 * the time left; the first to solve the puzzle or to prove it unsolvable
 * gives the result:
 *   1 bfs    up to 1,024 states: a puzzle this small is solved the same
 *            way on every machine, whatever would win the race of turn 2;
 *   2 astar  a glance (1/20 of the time, at most 0.5 s): where the
 *            estimates or the dead ends cut the space down, this is all;
 *            bfs beside it, with as long, where there is a second core
 *            (beside_start, below);
 *   3 bfs    (1/9, at most 3 s): a small space is searched fastest blind,
 *            no estimate to compute;
 *   4 astar  (1/6 of what is left, or 10 s): optimal where it can finish;
 *   5 dfs    a glance, blind (1/20, at most 1 s): where plans are many
 *            and deep (peg solitaire), the cheapest way to one;
 *   6 dfs    fewest moves first (1/10, at most 5 s): knight's tours;
 *   7 gbfs   (3/4 of what is left, or 40 s): some plan, guided by h_ff;
 *   8 dfs    (the rest, or no limit), dead ends pruned;
 * and from turn 3, sat beside them on a thread of its own where it
 * applies. */
#define TINY_STATES 1024       /* bfs's first turn */
#define GLANCE 2                /* A*'s glance, bfs beside it */
static const search_algorithm algorithms[] = {
  [GDL_BFS] = {
    .name = "bfs", .run = search_bfs, .shortest = 1, .counter = 1,
    .budget = 1, .groups = 1, .kids = KIDS_ON_THREADS_PRUNING,
    .turns = { { 1, 1, 0, 0, 0, TINY_STATES }, { 3, 1.0 / 9, 3, 0, 0, 0 } },
    .help = "blind: shortest", .label = "depth" },
  [GDL_IDDFS] = {
    .name = "iddfs", .run = search_iddfs, .shortest = 1, .stubborn = 1,
    .budget = 1, .groups = 1, .kids = KIDS_ON_ONE,
    .help = "blind: shortest", .label = "depth" },
  [GDL_DFS] = {
    .name = "dfs", .run = search_dfs, .stubborn = 1, .counter = 1,
    .budget = 1, .groups = 1, .kids = KIDS_ON_THREADS_PRUNING,
    .turns = { { 5, 1.0 / 20, 1, 0, -1, 0 }, { 6, 1.0 / 10, 5, 1, -1, 0 },
               { 8, 1, 0, 0, 1, 0 } },
    .help = "blind: some plan", .label = "depth" },
  [GDL_ASTAR] = {
    .name = "astar", .run = search_astar, .shortest = 1, .informed = 1,
    .stubborn = 1, .counter = 1, .budget = 1, .groups = 1,
    .kids = KIDS_ON_THREADS,
    .turns = { { GLANCE, 1.0 / 20, 0.5, 0, 0, 0 }, { 4, 1.0 / 6, 10, 0, 0, 0 } },
    .help = "A* on estimates read off the rules: shortest",
    .label = "bound" },
  [GDL_IDASTAR] = {
    .name = "idastar", .run = search_idastar, .shortest = 1,
    .informed = 1, .stubborn = 1, .budget = 1, .groups = 1,
    .kids = KIDS_ON_ONE,
    .help = "iterative deepening A*: shortest, little memory",
    .label = "bound" },
  [GDL_GBFS] = {
    .name = "gbfs", .run = search_gbfs, .informed = 1, .stubborn = 1,
    .counter = 1, .budget = 1, .groups = 1, .kids = KIDS_ON_THREADS,
    .turns = { { 7, 3.0 / 4, 40, 0, 0, 0 } },
    .help = "greedy best-first on FF's relaxed plan: some plan, fast",
    .label = "estimate" },
  [GDL_AUTO] = {
    .name = "auto", .run = NULL, .informed = 1, .stubborn = 1,
    .counter = 1, .budget = 1, .groups = 1, .kids = KIDS_ON_ONE,
    .shortens = 1,
    .help = "(the default) astar, bfs, dfs, gbfs, each with a share of\n"
            "           the time, bfs beside astar's glance and sat beside "
            "them\n           on a puzzle of constraints (a second core): "
            "the first\n           plan found, made shorter if it can be",
    .label = "depth" },
  [GDL_VALUE] = {
    .name = "value", .run = search_value, .kids = KIDS_ON_ONE,
    .help = "each role's goal under perfect play (in a game of\n"
            "           several roles, what auto runs)",
    .label = "depth" },
  [GDL_SAT] = {
    .name = "sat", .run = search_sat, .shortest = 1, .kids = KIDS_ON_ONE,
    .help = "planning as satisfiability (CaDiCaL), horizons 0, 1, 2, ...:\n"
            "           shortest; no plan of k steps or fewer at each",
    .label = "horizon" },
};
#define NALGORITHMS (sizeof algorithms / sizeof *algorithms)

/* The row of a, or NULL where there is none. */
static const search_algorithm *row_of(gdl_algorithm a)
{
  return (unsigned)a < NALGORITHMS && algorithms[a].name ? &algorithms[a]
                                                         : NULL;
}

const char *gdl_algorithm_name(gdl_algorithm a)
{
  const search_algorithm *A = row_of(a);
  return A ? A->name : "?";
}

int gdl_algorithm_parse(const char *name, gdl_algorithm *a)
{
  size_t i;
  for (i = 0; name && i < NALGORITHMS; i++)
    if (algorithms[i].name && strcmp(name, algorithms[i].name) == 0) {
      *a = (gdl_algorithm)i;
      return 0;
    }
  return -1;
}

const char *gdl_algorithm_help(gdl_algorithm a)
{
  const search_algorithm *A = row_of(a);
  return A ? A->help : NULL;
}

const char *gdl_algorithm_label(gdl_algorithm a)
{
  const search_algorithm *A = row_of(a);
  return A ? A->label : "depth";
}

/* ---- one search ------------------------------------------------------- */

/* The store and the scratch states go back to the context. */
static void search_free(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  store_free(S);
  ctx_free(ctx, S->joint);
  ctx_free(ctx, S->hval);
  ctx_free(ctx, S->closed);
  ctx_free(ctx, S->heap);
  ctx_free(ctx, S->kbits);
  ctx_free(ctx, S->kmoves);
  ctx_free(ctx, S->khm);
  ctx_free(ctx, S->khf);
  ctx_free(ctx, S->kdead);
  ctx_free(ctx, S->gv);
  ctx_free(ctx, S->kgv);
  groups_free(ctx, S->Dgrown);
  S->Dgrown = NULL;
  counter_free(ctx, S->C);
  if (S->value_free)
    S->value_free(S);
  if (S->N)
    near_free(ctx, S->N);
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

static void search_finish(search_t *S)
{
  /* a board reached again by more moves, left out, may have ended the
   * game by the counter there: the best goal is the best found */
  S->res->goal_bound = S->res->status == GDL_UNSOLVABLE && counter_ends(S->C);
  S->res->seconds = ctx_clock() - S->t0;
  S->res->peak_memory = gdl_memory_peak(S->ctx);
  if (S->o->progress)
    search_report(S, S->res->depth, 1);
}

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

/* Runs the search with a jump target, so that a limit, an interrupt or
 * exhausted memory ends it with the counts so far.  S lives in the
 * caller's frame, so its fields are intact after the jump. */
static gdl_status run_protected(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *res = S->res;
  const search_algorithm *A = S->alg;
  jmp_buf jb, *old = ctx->jmp;
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    search_mode_off(ctx);
    store_measure(S);
    search_free(S);
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
  if (GROUND(ctx) && (S->prune || A->informed)) {
    S->E = est_get(ctx, S->A);
    res->latches = S->E ? est_latches(S->E) : 0;
  }
  if (GROUND(ctx) && S->k == 1 && S->o->stubborn >= 0 && A->stubborn) {
    S->T = stub_get(ctx, S->A);
    res->stubborn = S->T != NULL;
  }

  S->nthreads = 1;
  if (S->E && (A->kids == KIDS_ON_THREADS ||
               (S->prune && A->kids == KIDS_ON_THREADS_PRUNING))) {
    unsigned t;                /* estimates on every core: a copy each */
    S->nthreads = bfs_threads(S->o->threads);
    S->Es = ctx_alloc(ctx, (S->nthreads + 1) * sizeof *S->Es);
    for (t = 1; t < S->nthreads; t++)
      S->Es[t] = est_copy(ctx, S->E);
    res->threads = S->nthreads;
    S->together = S->prune && S->nthreads > 1 &&
                  A->kids == KIDS_ON_THREADS_PRUNING;
  }
  if (S->N)
    search_near(S);
  else
    A->run(S);
  search_finish(S);
  search_free(S);
  ctx->jmp = old;
  search_mode_off(ctx);
  return GDL_OK;
}

/* One search, by opts->algorithm (not auto), reading the analyses of an
 * (the solve's); with N, the search of the neighbourhood of its plan
 * (search_near). */
static gdl_status solve_one(gdl_ctx *ctx, analyses_t *an,
                            const gdl_solve_opts *opts,
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
  S.A = an;
  S.o = opts;
  S.alg = &algorithms[a];
  S.res = res;
  S.k = ctx->nroles;
  S.t0 = ctx_clock();
  S.best_goal = -1;
  S.prune = opts->prune > 0 || (opts->prune == 0 && S.alg->informed);
  S.running = S.alg->name;
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
      res->optimal = res->status == GDL_SOLVED && S.alg->shortest;
    res->nsearches = 1;
    res->searches[0].name = S.running;
    res->searches[0].expanded = res->expanded;
    res->searches[0].generated = res->generated;
    return st;
  }
}

/* ---- a plan made shorter ---------------------------------------------- */

/* A plan not proven shortest made shorter in at most `seconds` (see
 * shorten.c), its counts added to res: its neighbourhood within 1 move,
 * then 2, ..., a round that finds a shorter plan searching around that
 * one at the same radius; until a round meets a limit, or leaves nothing
 * out (then the plan is the shortest), or NEAR_IDLE rounds in a row found
 * nothing that were idle: took more than a twentieth of the time, or met
 * no state again by a way of another length than it was stored with (in
 * a peg solitaire every way to a board has one length, and every plan
 * too; a cheap round that met some does not count: a wider one may find
 * a way round). */
#define NEAR_RADIUS 64
#define NEAR_IDLE 3
static void shorten(gdl_ctx *ctx, analyses_t *an, const gdl_solve_opts *opts,
                    gdl_solve_result *res, double seconds)
{
  double t0 = ctx_clock();
  unsigned radius = 1, idle = 0;
  size_t first = res->length;
  gdl_search_count *rounds = NULL;   /* their counts, one search's */
  if (res->nsearches < GDL_MAX_SEARCHES) {
    rounds = &res->searches[res->nsearches];
    memset(rounds, 0, sizeof *rounds);
    rounds->name = "shorten";
  }
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
    if (solve_one(ctx, an, &o, &nr, &N) != GDL_OK)
      break;                   /* (the plan as found stands) */
    res->expanded += nr.expanded;
    res->generated += nr.generated;
    if (rounds) {
      rounds->expanded += nr.expanded;
      rounds->generated += nr.generated;
      res->nsearches = (unsigned)(rounds - res->searches) + 1;
    }
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

/* ---- auto ------------------------------------------------------------- */

#if GDL_THREADS && !defined(__EMSCRIPTEN__)
#include <pthread.h>
#define BESIDE 1

/* A search beside auto's turns, on a thread of its own, in a twin of the
 * context (twin.c), where there is a second core:
 * - bfs beside A*'s glance, with the glance's share of the time: a small
 *   space is searched fastest blind, a large one by the estimates, and
 *   which one this is shows only by searching (the unsolvable 8-puzzle:
 *   A*'s estimates cost more than they save; firefighter: A* needs 49
 *   states);
 * - sat from auto's second turn on, beside bfs, where the glance has not
 *   ended the search (the space is not small), the moves commute (the
 *   rules allow stubborn sets) or make placements (latched fluents: once
 *   made they stay, so the plan is a set of moves more than a sequence: a
 *   puzzle of constraints), the network is grounded and gdl has CaDiCaL.
 * Whichever ends first stops the other through its cancel flag: the
 * search beside with a plan or with a proof that there is none, auto's
 * turn with theirs.  A plan of auto's not proven shortest gives way to
 * one beside that is. */
typedef struct {
  twin_t w;
  gdl_algorithm alg;
  char *start;                /* the start's facts as text (NULL: the
                                 initial state), in the caller's context */
  double until;               /* ctx_clock() time to stop at (0: none) */
  size_t max_steps;
  uint64_t max_states;
  int *stop_auto;             /* set when the search beside has the answer */
  int cancel;                 /* set by the caller: the search beside stops */
  gdl_ctx *h;                 /* its context */
  gdl_solve_result res;       /* its result, in h */
  int done;                   /* it has the answer (solved or no plan) */
} beside_t;

static void *beside_run(void *arg)
{
  beside_t *B = arg;
  gdl_solve_opts o;
  gdl_state s = { 0, 0, NULL };
  double left = B->until ? B->until - ctx_clock() : 0;
  if ((B->until && left <= 0) || !(B->h = twin_new(&B->w, left)))
    return NULL;
  memset(&o, 0, sizeof o);
  o.algorithm = B->alg;
  o.threads = 1;
  o.max_steps = B->max_steps;
  o.max_states = B->max_states;
  o.max_seconds = B->until ? B->until - ctx_clock() : 0;
  if (B->until && o.max_seconds <= 0)
    return NULL;
  if (B->start) {
    if (!twin_state(B->h, B->start, &s))
      return NULL;
    o.start = &s;
  }
  if (gdl_solve(B->h, &o, &B->res) == GDL_OK &&
      (B->res.status == GDL_SOLVED || B->res.status == GDL_UNSOLVABLE)) {
    B->done = 1;
    __atomic_store_n(B->stop_auto, 1, __ATOMIC_RELAXED);
  }
  gdl_state_release(B->h, &s);
  return NULL;
}

/* A game past this much memory (its network, mostly) is not loaded
 * again for bfs beside the glance: its twin would cost as much, and its
 * grounding more than the glance's half second (ruleDepthExponential,
 * 500 MB, grounded in some 2 s). */
#define BESIDE_GLANCE_MOST (64u << 20)

/* Search alg started beside auto until ctx_clock() time `until` (0: no
 * limit), or NULL where it cannot be (one role and a second core). */
static beside_t *beside_start(gdl_ctx *ctx, const gdl_solve_opts *opts,
                              gdl_algorithm alg, double until,
                              int *stop_auto, pthread_t *th)
{
  beside_t *B;
  if (ctx->nroles != 1 || bfs_threads(opts->threads) < 2 ||
      (alg == GDL_BFS && gdl_memory_used(ctx) > BESIDE_GLANCE_MOST) ||
      !(B = ctx_try_realloc(ctx, NULL, sizeof *B)))
    return NULL;
  memset(B, 0, sizeof *B);
  if (!twin_of(ctx, &B->w, 1) ||
      (opts->start && !(B->start = twin_state_text(ctx, opts->start)))) {
    ctx_free(ctx, B);
    return NULL;
  }
  B->alg = alg;
  B->w.cancel = &B->cancel;
  B->until = until;
  B->max_steps = opts->max_steps;
  B->max_states = opts->max_states;
  B->stop_auto = stop_auto;
  *stop_auto = 0;
  ctx->cancel = stop_auto;
  if (pthread_create(th, NULL, beside_run, B) != 0) {
    ctx->cancel = NULL;
    ctx_free(ctx, B->start);
    ctx_free(ctx, B);
    return NULL;
  }
  return B;
}

/* Whether sat goes beside auto's turns (the header above says when). */
static int sat_beside(gdl_ctx *ctx, analyses_t *an)
{
#ifdef GDL_HAVE_CADICAL
  return GROUND(ctx) && (an->stub || (an->est && est_latches(an->est) > 0));
#else
  (void)ctx;
  (void)an;
  return 0;
#endif
}

/* The answer of the search beside as the result, its plan's moves made
 * terms of ctx. */
static gdl_status take_beside(gdl_ctx *ctx, const beside_t *B,
                              gdl_solve_result *res)
{
  const gdl_solve_result *r = &B->res;
  size_t i, n = r->length * ctx->nroles;
  gdl_term *volatile plan = NULL;
  PROTECT(ctx);
  if (r->status == GDL_SOLVED) {
    plan = ctx_arena(ctx, (n + 1) * sizeof *plan);
    for (i = 0; i < n; i++)
      if (!(plan[i] = twin_term(ctx, B->h, r->plan[i]))) {
        UNPROTECT(ctx);
        return GDL_OK;         /* not a move here: auto's result stands */
      }
  }
  UNPROTECT(ctx);
  res->status = r->status;
  res->plan = plan;
  res->length = r->length;
  res->goal = r->goal;
  res->optimal = r->optimal;
  res->found_by = B->alg;
  res->depth = r->depth;
  res->dead_start = r->dead_start;
  res->why[0] = 0;
  return GDL_OK;
}

/* The search beside stopped (it may have ended already) and its thread
 * joined; its answer taken where auto's turns have none as good; its
 * counts the last of `ran` (sat's are horizons and clauses, not states:
 * the caller leaves them out of the sums).  *took, where took is not
 * NULL: its answer was taken. */
static gdl_status beside_end(gdl_ctx *ctx, beside_t *B, pthread_t th,
                             gdl_solve_result *res, gdl_search_count *ran,
                             unsigned *n, int *took)
{
  gdl_status st = GDL_OK;
  int taken = 0;
  __atomic_store_n(&B->cancel, 1, __ATOMIC_RELAXED);
  pthread_join(th, NULL);
  ctx->cancel = NULL;
  if (B->h && *n < GDL_MAX_SEARCHES) {
    ran[*n].name = gdl_algorithm_name(B->alg);
    ran[*n].expanded = B->res.expanded;
    ran[(*n)++].generated = B->res.generated;
  }
  if (B->done && (res->status == GDL_LIMIT ||
                  (res->status == GDL_SOLVED && !res->optimal &&
                   B->res.optimal))) {
    st = take_beside(ctx, B, res);
    taken = res->found_by == B->alg;
  }
  if (took)
    *took = taken;
  gdl_free(B->h);
  ctx_free(ctx, B->start);
  ctx_free(ctx, B);
  return st;
}
#endif

/* The turn auto takes `turn`th (from 1), its algorithm into *a; NULL
 * past the last. */
static const search_turn *auto_turn(unsigned turn, gdl_algorithm *a)
{
  size_t i, j;
  for (i = 0; i < NALGORITHMS; i++)
    for (j = 0; j < sizeof algorithms[i].turns / sizeof *algorithms[i].turns;
         j++)
      if (algorithms[i].turns[j].turn == turn) {
        *a = (gdl_algorithm)i;
        return &algorithms[i].turns[j];
      }
  return NULL;
}

/* auto: the table's turns in order (see the table).  A limit of the
 * user's (memory, states of one search, Ctrl-C, the time as a whole) ends
 * it there.  The estimate it reports is that of its searches that prove
 * plans shortest (A*'s: admissible). */
static gdl_status solve_auto(gdl_ctx *ctx, analyses_t *an,
                             const gdl_solve_opts *opts,
                             gdl_solve_result *res)
{
  const search_turn *t;
  gdl_algorithm a, next;
  unsigned turn;
  double t0 = ctx_clock();
  uint64_t npruned = 0;
  unsigned h0 = 0, n = 0, i;
  gdl_search_count ran[GDL_MAX_SEARCHES];   /* each search's counts */
  gdl_status st = GDL_OK;
#ifdef BESIDE
  beside_t *B = NULL;
  pthread_t th;
  int stop_auto = 0;
#endif
  /* no turn at all where the set-up took the whole time */
  res->status = GDL_LIMIT;
  snprintf(res->why, sizeof res->why, "time limit reached");
  for (turn = 1; (t = auto_turn(turn, &a)) != NULL; turn++) {
    gdl_solve_opts o = *opts;
    double left = opts->max_seconds - (ctx_clock() - t0);
    int last = auto_turn(turn + 1, &next) == NULL;
    search_turn ida;
    uint64_t entries;
    int own_cap;               /* the turn's cap on states is the lower */
    if (a == GDL_ASTAR && turn > GLANCE &&
        groups_patterns(an->groups, &entries)) {
      /* pattern databases were built: a space large enough for A*'s glance
       * and bfs not to end it goes to IDA*, which needs no store, with
       * nine tenths of the time left and no cap (Korf's fifteen-puzzles:
       * the later turns' plans would not be shortest) */
      ida = *t;
      ida.part = 9.0 / 10;
      ida.most = 0;
      t = &ida;
      a = GDL_IDASTAR;
    }
    o.algorithm = a;
    o.fewest_first = opts->fewest_first || t->fewest;
    if (opts->max_seconds > 0) {
      if (left <= 0)
        break;
      o.max_seconds = left * t->part;
      if (t->most > 0 && o.max_seconds > t->most)
        o.max_seconds = t->most;
    } else {
      o.max_seconds = t->most;
    }
    if (t->prune && o.prune == 0)
      o.prune = t->prune;
    own_cap = t->states && (!o.max_states || o.max_states > t->states);
    if (own_cap) {
      o.max_states = t->states;
      o.threads = 1;           /* too few states to share */
    }
#ifdef BESIDE
    if (turn == GLANCE &&
        (B = beside_start(ctx, opts, GDL_BFS, ctx_clock() + o.max_seconds,
                          &stop_auto, &th)) != NULL)
      o.threads = 1;           /* the second core is bfs's */
    else if (turn == GLANCE + 1 && sat_beside(ctx, an))
      B = beside_start(ctx, opts, GDL_SAT,
                       opts->max_seconds > 0 ? t0 + opts->max_seconds : 0,
                       &stop_auto, &th);
#endif
    st = solve_one(ctx, an, &o, res, NULL);
    if (own_cap && st == GDL_OK && res->status == GDL_LIMIT &&
        strncmp(res->why, "state limit", 11) == 0 && !ctx_interrupted(ctx))
      continue;                /* not so small: its few states left out of
                                  the counts, as a glance's that did not
                                  answer */
    npruned += res->pruned;
    if (n < GDL_MAX_SEARCHES)
      ran[n++] = res->searches[0];
    if (algorithms[a].shortest && algorithms[a].informed)
      h0 = res->estimate;
#ifdef BESIDE
    if (B && turn == GLANCE) { /* the glances end together */
      int took, answered = res->status != GDL_LIMIT;
      unsigned n0 = n;         /* A*'s counts are ran[n0 - 1] */
      gdl_status b = beside_end(ctx, B, th, res, ran, &n, &took);
      B = NULL;
      if (st == GDL_OK)
        st = b;
      /* where one glance answered, the other's work, stopped partway on
       * the other core, is left out of the counts (which it would make
       * vary from run to run) */
      if (took && n > n0)
        ran[n0 - 1] = ran[n0];
      if (took || answered)
        n = n0;
      if (took)
        break;
    }
#endif
    if (st != GDL_OK || res->status != GDL_LIMIT || last)
      break;
    /* its own share ran out: the next search; anything else stops */
    if (strncmp(res->why, "time limit", 10) != 0 ||
        ctx_interrupted(ctx))
      break;
  }
#ifdef BESIDE
  if (B) {
    gdl_status sat = beside_end(ctx, B, th, res, ran, &n, NULL);
    if (st == GDL_OK)
      st = sat;
  }
#endif
  /* the states of the searches run (sat's counts are not states) */
  res->expanded = res->generated = 0;
  for (i = 0; i < n; i++)
    if (strcmp(ran[i].name, "sat") != 0) {
      res->expanded += ran[i].expanded;
      res->generated += ran[i].generated;
    }
  res->nsearches = n;
  memcpy(res->searches, ran, n * sizeof *ran);
  res->pruned = npruned;
  res->estimate = h0;
  res->seconds = ctx_clock() - t0;
  if (res->status == GDL_LIMIT && opts->max_seconds > 0 &&
      strncmp(res->why, "time limit", 10) == 0)
    snprintf(res->why, sizeof res->why, "time limit of %g s reached",
             opts->max_seconds);
  return st;
}

/* The search or auto's portfolio (row A), and a plan not proven
 * shortest made shorter; the searches read the analyses of an. */
static gdl_status solve_analysed(gdl_ctx *ctx, analyses_t *an,
                                 const search_algorithm *A,
                                 const gdl_solve_opts *opts,
                                 gdl_solve_result *res)
{
  double t0 = ctx_clock(), spent, most;
  gdl_status st = A->run ? solve_one(ctx, an, opts, res, NULL)
                         : solve_auto(ctx, an, opts, res);
  if (st != GDL_OK || res->status != GDL_SOLVED || res->optimal ||
      res->game ||
      opts->shorten < 0 || (opts->shorten == 0 && !A->shortens))
    return st;
  /* half as long as the search took (at least 1 s), within the limit */
  spent = ctx_clock() - t0;
  most = spent / 2 > 1 ? spent / 2 : 1;
  if (opts->max_seconds > 0 && opts->max_seconds - spent < most)
    most = opts->max_seconds - spent;
  shorten(ctx, an, opts, res, most);
  res->seconds = ctx_clock() - t0;
  return GDL_OK;
}

gdl_status gdl_solve(gdl_ctx *ctx, const gdl_solve_opts *opts,
                     gdl_solve_result *res)
{
  const search_algorithm *A = row_of(opts->algorithm);
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
  if (!A) {
    ctx_setmsg(ctx, "no such search algorithm");
    return GDL_EINPUT;
  }
  {
    /* the game's analyses, each computed when a search first asks,
     * shared by the searches of this solve and released at its end */
    analyses_t an;
    gdl_status st;
    gdl_solve_opts o = *opts;
    if (o.algorithm == GDL_AUTO && ctx->nroles > 1 && !o.cooperate) {
      o.algorithm = GDL_VALUE;       /* a game: its value */
      A = row_of(GDL_VALUE);
    }
    memset(&an, 0, sizeof an);
    if (opts->max_seconds > 0)
      an.deadline = ctx_clock() + opts->max_seconds;
    st = solve_analysed(ctx, &an, A, &o, res);
    analyses_free(ctx, &an);
    return st;
  }
}
