/*
 * expand.c - what every search does with a state: its start set up, a
 * state tested, its successors made, its estimates and dead ends read
 * (estimate.c, budget.c, groups.c), the children of one state estimated
 * together on several threads, and progress and the time limit.
 */
#include <stdio.h>
#include <string.h>

#include "search/search.h"

#if GDL_THREADS
#include <pthread.h>
#endif

void search_report(search_t *S, unsigned depth, int force)
{
  double t = ctx_clock();
  gdl_solve_result *r = S->res;
  r->seconds = t - S->t0;
  r->peak_memory = gdl_memory_peak(S->ctx);
  if (S->o->max_seconds > 0 && r->seconds > S->o->max_seconds + S->grace)
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

/* ---- the start -------------------------------------------------------- */

/* The move budget (budget.c) of the game, found once a solve (S->A),
 * from its first pruning search's start; a copy for each thread that
 * estimates. */
static void use_budget(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  unsigned t;
  S->B = bud_get(ctx, S->A, S->cur.facts);
  S->res->budget = S->B != NULL;
  if (S->B && S->Es && !S->Bs) {
    S->Bs = ctx_alloc(ctx, (S->nthreads + 1) * sizeof *S->Bs);
    for (t = 1; t < S->nthreads; t++)
      S->Bs[t] = bud_copy(ctx, S->B);
  }
}

#define PDB_ENTRIES (1u << 20)  /* a pattern's placements, by default */

/* At most `most` placements a pattern, within the memory limit: the
 * tables (a byte a placement, and 8 more while built) of a few patterns
 * take a quarter of what is left. */
static uint64_t pdb_most(search_t *S, uint64_t most)
{
  gdl_ctx *ctx = S->ctx;
  if (ctx->limit && most) {
    uint64_t left = ctx->limit > ctx->used ? ctx->limit - ctx->used : 0;
    if (most > left / 4 / 9 / 4)
      most = left / 4 / 9 / 4;
  }
  return most;
}

/* The groups summed (groups.c) of the game, found once a solve (S->A),
 * from its first search's start; used where the search's start is one
 * they speak of. */
static void use_groups(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  uint64_t most = S->o->pdb < 0 ? 0
                  : pdb_most(S, S->o->pdb_entries ? S->o->pdb_entries
                                                  : PDB_ENTRIES);
  const groups_t *D;
  const char *why;
  S->A->grace = 0;
  D = groups_get(ctx, S->A, S->cur.facts, most, S->o->pdb_cache);
  S->grace = S->A->grace;      /* the time they took, if made now */
  S->D = D && groups_hold(D, S->cur.facts) ? D : NULL;
  S->res->groups = groups_count(S->D);
  S->res->patterns = groups_patterns(S->D, &S->res->pattern_entries);
  S->res->patterns_cached = S->D ? groups_cached(S->D, &why) : 0;
  groups_cached(D, &why);      /* (built, whether the start holds or not) */
  if (why)
    snprintf(S->res->pdb_cache_warning, sizeof S->res->pdb_cache_warning,
             "%s", why);
  S->ngv = groups_nvalues(S->D);
  S->hm_skip = S->best != BEST_GBFS;   /* what h_max adds is watched */
}

int search_grow_groups(search_t *S, double since)
{
  uint64_t e0, e1 = 0, most = pdb_most(S, 16ull * PDB_ENTRIES);
  groups_t *D;
  const char *why;
  if (S->grow_tried || !S->D || S->o->pdb < 0 || S->o->pdb_entries ||
      !groups_patterns(S->D, &e0) || most <= PDB_ENTRIES ||
      ctx_clock() - since < 16 * groups_seconds(S->D))
    return 0;
  S->grow_tried = 1;
  D = groups_build(S->ctx, est_get(S->ctx, S->A), S->cur.facts, most,
                   S->o->pdb_cache);
  groups_patterns(D, &e1);
  if (!D || e1 <= e0 || groups_count(D) != groups_count(S->D) ||
      groups_patterned(D) < groups_patterned(S->D)) {
    groups_free(S->ctx, D);    /* no better (the time, the memory) */
    return 0;
  }
  S->D = S->Dgrown = D;
  S->ngv = groups_nvalues(D);
  S->res->patterns = groups_patterns(D, &S->res->pattern_entries);
  S->res->patterns_cached = groups_cached(D, &why);
  return 1;
}

void search_start(search_t *S)
{
  gdl_ctx *ctx = S->ctx;
  if (S->o->start)
    gdl_state_copy(ctx, &S->cur, S->o->start);
  else
    gdl_initial(ctx, &S->cur);
  store_choose(S);
  if (!S->words)               /* estimates are of states as bits */
    S->E = NULL;
  if (S->T && (!S->words || !stub_holds(S->T, S->cur.facts)))
    S->T = NULL;               /* a start the reduction does not speak of */
  S->res->stubborn = S->T != NULL;
  if (S->words && S->o->counter >= 0 && S->alg->counter) {
    S->C = counter_start(ctx, S->A, S->cur.facts);
    S->res->counter = counter_slots(S->C);
  }
  S->reopen = S->best == BEST_ASTAR || S->C;
  if (S->E && S->prune && S->alg->budget)
    use_budget(S);
  if (S->E && S->alg->groups)
    use_groups(S);
}

/* ---- a state tested, its successors ----------------------------------- */

int expand_test(search_t *S, const gdl_state *s, uint32_t id)
{
  gdl_ctx *ctx = S->ctx;
  long g;
  state_set(S, s);
  if (!gdl_terminal(ctx))
    return 0;
  g = gdl_goal(ctx, 0);
  if (g > S->best_goal) {
    S->best_goal = g;
    S->best_state = id;
  }
  return g == 100 ? 1 : -1;
}

int expand_successors(search_t *S, expand_fn each, void *arg, int first)
{
  gdl_ctx *ctx = S->ctx;
  const gdl_term *mv[64];
  size_t nm[64], r, pick[64], start[64], place = 0;
  uint32_t k = S->k;
  for (r = 0; r < k; r++) {
    if ((nm[r] = state_legal(S, (uint32_t)r, &mv[r])) == 0)
      return 0;
    pick[r] = 0;
  }
  if (S->T && (nm[0] = stub_reduce(ctx, S->T, mv[0], nm[0], &mv[0])) == 0) {
    S->res->pruned++;          /* no move of a stubborn set: a dead end */
    return 0;
  }
  /* (S->played: only states of bits play a move that stays) */
  for (r = 0; first && S->played && r < k; r++) {
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
    state_next(S);
    S->res->generated++;
    POLL(ctx);                 /* a successor may be dear: a large network
                                  propagated, a state interpreted */
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

/* ---- estimates and dead ends ------------------------------------------ */

/* Whether state w is a dead end by its latches or by the move budget. */
static int dead_end(est_t *E, bud_t *B, const uint32_t *w)
{
  return est_dead(E, w) || (B && bud_dead(B, E, w));
}

/* h_max and h_ff of a state (E's), each raised to the groups' estimate
 * gh (groups_h: their distances, and the pattern databases'; EST_DEAD:
 * a dead end).  Where h_max and h_ff are only a lower bound to raise
 * (astar, idastar: S->hm_skip), they are computed for the first
 * HM_TRIAL states only, and then no more where they never raised the
 * groups' estimate nor found a dead end it did not: then they would
 * change nothing that is expanded (*tried, *won count those states). */
#define HM_TRIAL 1000
static void estimates_with_groups(search_t *S, est_t *E, uint32_t gh,
                                  const uint32_t *w, uint32_t *hmax,
                                  uint32_t *hff, uint32_t *tried,
                                  uint32_t *won)
{
  if (S->D && S->hm_off) {
    *hmax = *hff = gh;
    return;
  }
  est_state(E, w, hmax, S->best == BEST_GBFS ? hff : NULL);
  if (S->best != BEST_GBFS)
    *hff = *hmax;              /* h_ff is greedy search's alone */
  if (!S->D || *hmax == EST_DEAD)
    return;
  if (S->hm_skip) {
    ++*tried;
    if (gh != EST_DEAD && *hmax > gh)
      ++*won;
  }
  if (gh == EST_DEAD)
    *hmax = *hff = EST_DEAD;
  else {
    if (gh > *hmax)
      *hmax = gh;
    if (gh > *hff)
      *hff = gh;
  }
}

/* After estimates counted in *tried and *won: h_max and h_ff left off
 * where they never helped (estimates_with_groups). */
static void hm_decide(search_t *S, uint32_t tried, uint32_t won)
{
  S->hm_tried += tried;
  S->hm_won += won;
  if (S->hm_skip && !S->hm_off && S->hm_tried >= HM_TRIAL && !S->hm_won)
    S->hm_off = 1;
}

/* The groups' estimate of state w, read in full. */
static uint32_t groups_of(search_t *S, const uint32_t *w)
{
  if (!S->D)
    return 0;
  GROW(S->ctx, S->gv, S->gvcap, S->ngv);
  groups_values(S->D, w, S->gv);
  return groups_h(S->D, S->gv);
}

int expand_estimate(search_t *S, const uint32_t *w, uint32_t *hmax,
                    uint32_t *hff)
{
  return expand_estimate_step(S, NULL, NULL, w, NULL, hmax, hff);
}

int expand_estimate_step(search_t *S, const uint32_t *pw, const uint32_t *pv,
                         const uint32_t *w, uint32_t *v, uint32_t *hmax,
                         uint32_t *hff)
{
  uint32_t tried = 0, won = 0, gh = 0;
  *hmax = *hff = 0;
  if (!S->E)
    return 1;
  POLL(S->ctx);                 /* an estimate can take a while */
  if (S->D && v) {
    if (pw)
      groups_step(S->D, pw, pv, w, S->words, v);
    else
      groups_values(S->D, w, v);
    gh = groups_h(S->D, v);
  } else {
    gh = groups_of(S, w);
  }
  estimates_with_groups(S, S->E, gh, w, hmax, hff, &tried, &won);
  hm_decide(S, tried, won);
  if (*hmax == EST_DEAD || (S->prune && dead_end(S->E, S->B, w))) {
    if (S->prune) {
      S->res->pruned++;
      return 0;
    }
    *hmax = *hff = 0;
  }
  return 1;
}

int expand_pruned(search_t *S, const uint32_t *w)
{
  uint32_t hm, hf;
  return S->prune && S->E && !expand_estimate(S, w, &hm, &hf);
}

const char *expand_dead_why(search_t *S, const uint32_t *w)
{
  uint32_t hm;
  est_state(S->E, w, &hm, NULL);
  if (hm == EST_DEAD)
    return "h_max";
  if (S->D && groups_of(S, w) == EST_DEAD)
    return "groups";
  if (est_dead(S->E, w))
    return "latches";
  return "budget";             /* what dead_end() has left */
}

/* ---- children estimated together ----------------------------------- */

/* The groups' values of the kept children, from those of S->cur (their
 * parent, or any state: only the slots that differ are read). */
static void kids_values(search_t *S)
{
  const uint32_t *pw = S->cur.facts;
  uint32_t i, n = S->nkids;
  GROW(S->ctx, S->gv, S->gvcap, S->ngv);
  groups_values(S->D, pw, S->gv);
  if ((uint64_t)n * S->ngv >= S->kgvcap)
    GROW(S->ctx, S->kgv, S->kgvcap, n * S->ngv);
  for (i = 0; i < n; i++)
    groups_step(S->D, pw, S->gv, S->kbits + (size_t)i * S->words, S->words,
                S->kgv + (size_t)i * S->ngv);
}

void kids_groups(search_t *S)
{
  uint32_t i;
  if (S->D)
    kids_values(S);
  for (i = 0; i < S->nkids; i++)
    S->khm[i] = S->khf[i] =
        S->D ? groups_h(S->D, S->kgv + (size_t)i * S->ngv) : 0;
}

void kids_keep(search_t *S, const uint32_t *w, const gdl_term *moves)
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

int kids_keep_child(search_t *S, void *arg, size_t place)
{
  (void)arg;
  (void)place;
  kids_keep(S, S->child.facts, S->joint);
  return 0;
}

typedef struct {
  search_t *S;
  est_t *E;
  bud_t *B;
  uint32_t lo, hi;
  uint32_t tried, won;         /* estimates_with_groups's counts */
} est_job;

/* Whether the interrupt is set or the deadline passed: only read, so a
 * worker thread may ask (it cannot jump); the caller's ctx_poll stops the
 * search once the threads are back. */
static int limit_passed(const gdl_ctx *ctx)
{
  return ctx_interrupted(ctx) ||
         (ctx->deadline > 0 && ctx_clock() > ctx->deadline);
}

/* The estimates of children [lo, hi), and whether each is a dead end;
 * cut short at a limit (a state's children can take seconds: 961 of
 * them on queens31lg, each estimate over a large network), looked at
 * before each child but where estimates are cheap (every 64th). */
static void *estimate_part(void *arg)
{
  est_job *j = arg;
  search_t *S = j->S;
  uint32_t i, every = S->est_cost > 0 && S->est_cost < 20e-6 ? 64 : 1;
  for (i = j->lo; i < j->hi; i++) {
    const uint32_t *w = S->kbits + (size_t)i * S->words;
    if ((i - j->lo) % every == every - 1 && limit_passed(S->ctx))
      break;
    uint32_t gh = S->D ? groups_h(S->D, S->kgv + (size_t)i * S->ngv) : 0;
    estimates_with_groups(S, j->E, gh, w, &S->khm[i], &S->khf[i], &j->tried,
                          &j->won);
    S->kdead[i] = S->khm[i] == EST_DEAD ||
                  (S->prune && dead_end(j->E, j->B, w));
  }
  return NULL;
}

/* On the search's threads where the children are many or their estimates
 * dear (each thread with its copy of the estimator); the values, and so
 * the search, are the same on any number of threads.  A dead end is left
 * out where pruning is on (counted), else searched with the estimates 0,
 * as expand_estimate does. */
void kids_estimate(search_t *S)
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
    job[t].tried = job[t].won = 0;
  }
  if (S->D)                    /* the groups' values, from the parent's */
    kids_values(S);
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
  ctx_poll(S->ctx);            /* (before reading what a limit cut short) */
  for (t = 0; t < nt; t++)
    hm_decide(S, job[t].tried, job[t].won);
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
}
