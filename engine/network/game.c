/*
 * game.c - the game API on top of the evaluator: roles, the initial state,
 * legal moves, next states, goals, terminal; states as values; questions.
 *
 * The context holds one current state.  Setting it clears the relations
 * that depend on `true` and evaluates them again; computing a next state
 * clears only those that depend on `does`.  So a searcher sets a state
 * once and asks for the successor of each joint move in turn.
 */
#include <stdlib.h>
#include <string.h>

#include "network/network.h"

/* Merge sort of terms, by id (by_text = 0) or by gdl_term_cmp. */
static void sort_terms(gdl_ctx *ctx, gdl_term *a, uint32_t n, int by_text)
{
  gdl_term *tmp;
  uint32_t width, i;
  if (n < 2)
    return;
  if (n <= 16) {              /* insertion sort: states are often small */
    for (i = 1; i < n; i++) {
      gdl_term x = a[i];
      uint32_t j = i;
      while (j > 0 && (by_text ? gdl_term_cmp(ctx, a[j - 1], x) > 0
                               : a[j - 1] > x)) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
    return;
  }
  GROW(ctx, ctx->tmp, ctx->tmpcap, n);
  tmp = ctx->tmp;
  for (width = 1; width < n; width *= 2) {
    for (i = 0; i < n; i += 2 * width) {
      uint32_t lo = i, mid = i + width < n ? i + width : n;
      uint32_t hi = i + 2 * width < n ? i + 2 * width : n;
      uint32_t x = lo, y = mid, k = lo;
      while (x < mid && y < hi) {
        int c = by_text ? gdl_term_cmp(ctx, a[x], a[y])
                        : (a[x] > a[y]) - (a[x] < a[y]);
        tmp[k++] = c <= 0 ? a[x++] : a[y++];
      }
      while (x < mid)
        tmp[k++] = a[x++];
      while (y < hi)
        tmp[k++] = a[y++];
    }
    COPY(a, tmp, n * sizeof *a);
  }
}

static uint32_t dedup(gdl_term *a, uint32_t n)
{
  uint32_t i, k = 0;
  for (i = 0; i < n; i++)
    if (k == 0 || a[k - 1] != a[i])
      a[k++] = a[i];
  return k;
}

static void need_game(gdl_ctx *ctx)
{
  if (!ctx->compiled)
    ctx_throw(ctx, GDL_EINPUT, "no description compiled");
  if (!ctx->is_game)
    ctx_throw(ctx, GDL_EINPUT, "%s", ctx->not_game[0] ? ctx->not_game
                                                       : "not a game");
}

static void need_state(gdl_ctx *ctx)
{
  need_game(ctx);
  if (!ctx->have_state)
    ctx_throw(ctx, GDL_EINPUT, "no current state");
}

/* The arguments of every fact of rel (arity 1), sorted by id, into *out. */
static void collect_args(gdl_ctx *ctx, uint32_t rel, gdl_state *out)
{
  const rel_t *r = &ctx->rels[rel];
  uint32_t i;
  if (r->n > out->cap || !out->facts) {
    out->facts = ctx_realloc(ctx, out->facts, (r->n + 1) * sizeof *out->facts);
    out->cap = r->n + 1;
  }
  for (i = 0; i < r->n; i++)
    out->facts[i] = TARG(ctx, r->facts[i], 0);
  sort_terms(ctx, out->facts, r->n, 0);
  out->n = dedup(out->facts, r->n);
}

gdl_status gdl_initial(gdl_ctx *ctx, gdl_state *out)
{
  PROTECT(ctx);
  need_game(ctx);
  collect_args(ctx, ctx->r_init, out);
  UNPROTECT(ctx);
  return GDL_OK;
}

/* The interpreter's database with the current state's facts. */
static void db_set_state(gdl_ctx *ctx, const gdl_state *s)
{
  uint32_t i;
  gdl_term *atoms = ctx_alloc(ctx, (s->n + 1) * sizeof *atoms);
  ctx->db_state = 0;
  for (i = 0; i < s->n; i++) {
    gdl_term f = s->facts[i];
    if (f >= ctx->truewrapcap || !ctx->truewrap[f]) {
      gdl_term t = term_fn(ctx, S_TRUE, 1, &f);
      GROW(ctx, ctx->truewrap, ctx->truewrapcap, f);
      ctx->truewrap[f] = t;
    }
    atoms[i] = ctx->truewrap[f];
  }
  eval_new_state(ctx, atoms, (uint32_t)s->n);
  ctx_free(ctx, atoms);
  ctx->db_state = 1;
}

gdl_status gdl_set_state(gdl_ctx *ctx, const gdl_state *s)
{
  PROTECT(ctx);
  need_game(ctx);
  ctx->have_state = 0;
  if (GROUND(ctx)) {
    ctx->db_state = 0;
    ctx->cur_stale = 0;
    if (ctx->cur.cap < s->n + 1) {
      ctx->cur.facts = ctx_realloc(ctx, ctx->cur.facts,
                                   (s->n + 1) * sizeof *ctx->cur.facts);
      ctx->cur.cap = s->n + 1;
    }
    COPY(ctx->cur.facts, s->facts, s->n * sizeof *s->facts);
    ctx->cur.n = s->n;
    ground_set_state(ctx, s);
  } else {
    db_set_state(ctx, s);
  }
  memset(ctx->legal_ok, 0, ctx->nroles);
  ctx->have_state = 1;
  UNPROTECT(ctx);
  return GDL_OK;
}

gdl_status gdl_legal(gdl_ctx *ctx, size_t role, const gdl_term **moves,
                     size_t *n)
{
  /* with the grounded engine, bits read off: nothing can fail, so no
   * jump target is set */
  if (GROUND(ctx) && ctx->have_state && role < ctx->nroles) {
    uint32_t k;
    ground_legal(ctx, role, moves, &k);
    *n = k;
    return GDL_OK;
  }
  PROTECT(ctx);
  need_state(ctx);
  if (role >= ctx->nroles)
    ctx_throw(ctx, GDL_EINPUT, "no role %zu", role);
  if (!ctx->legal_ok[role]) {
    const rel_t *r = &ctx->rels[ctx->r_legal];
    uint32_t i, k = 0, cap = 0;
    gdl_term *m = ctx->legal[role];
    for (i = 0; i < r->n; i++)
      if (TARG(ctx, r->facts[i], 0) == ctx->roles[role])
        cap++;
    m = ctx_realloc(ctx, m, (cap + 1) * sizeof *m);
    ctx->legal[role] = m;
    for (i = 0; i < r->n; i++)
      if (TARG(ctx, r->facts[i], 0) == ctx->roles[role])
        m[k++] = TARG(ctx, r->facts[i], 1);
    sort_terms(ctx, m, k, 1);
    ctx->nlegal[role] = k;
    ctx->legal_ok[role] = 1;
  }
  *moves = ctx->legal[role];
  *n = ctx->nlegal[role];
  UNPROTECT(ctx);
  return GDL_OK;
}

int gdl_is_legal(gdl_ctx *ctx, size_t role, gdl_term move)
{
  gdl_term args[2];
  gdl_term t;
  if (role >= ctx->nroles || !ctx->have_state)
    return 0;
  if (GROUND(ctx))
    return ground_is_legal(ctx, role, move);
  args[0] = ctx->roles[role];
  args[1] = move;
  t = term_find(ctx, S_LEGAL, 2, args);
  return t && ctx->present[t];
}

int gdl_terminal(gdl_ctx *ctx)
{
  if (!ctx->have_state)
    return 0;
  return GROUND(ctx) ? ground_terminal(ctx) : ctx->rels[ctx->r_terminal].n > 0;
}

gdl_status gdl_goals(gdl_ctx *ctx, size_t role, const gdl_term **vals,
                     size_t *n)
{
  const rel_t *r;
  uint32_t i, k = 0;
  PROTECT(ctx);
  need_state(ctx);
  r = &ctx->rels[ctx->r_goal];
  if (GROUND(ctx)) {
    if (role < ctx->nroles)
      ground_goals(ctx, role, &ctx->goalbuf, &ctx->goalcap, &k);
    *vals = ctx->goalbuf;
    *n = k;
    UNPROTECT(ctx);
    return GDL_OK;
  }
  GROW(ctx, ctx->goalbuf, ctx->goalcap, r->n);
  for (i = 0; i < r->n; i++)
    if (role < ctx->nroles && TARG(ctx, r->facts[i], 0) == ctx->roles[role])
      ctx->goalbuf[k++] = TARG(ctx, r->facts[i], 1);
  sort_terms(ctx, ctx->goalbuf, k, 1);
  *vals = ctx->goalbuf;
  *n = k;
  UNPROTECT(ctx);
  return GDL_OK;
}

long gdl_goal(gdl_ctx *ctx, size_t role)
{
  const rel_t *r;
  uint32_t i;
  long best = -1;
  if (!ctx->have_state || role >= ctx->nroles)
    return -1;
  if (GROUND(ctx)) {
    const gdl_term *v;
    size_t n;
    if (gdl_goals(ctx, role, &v, &n) != GDL_OK)
      return -1;
    for (i = 0; i < n; i++)
      if (gdl_term_int(ctx, v[i]) > best)
        best = gdl_term_int(ctx, v[i]);
    return best;
  }
  r = &ctx->rels[ctx->r_goal];
  for (i = 0; i < r->n; i++)
    if (TARG(ctx, r->facts[i], 0) == ctx->roles[role]) {
      long v = gdl_term_int(ctx, TARG(ctx, r->facts[i], 1));
      if (v > best)
        best = v;
    }
  return best;
}

/* The current state's facts with the grounded engine (ctx->cur), made
 * again from the network after gdl_advance. */
const gdl_state *cur_state(gdl_ctx *ctx)
{
  if (ctx->cur_stale) {
    ground_advanced_facts(ctx, &ctx->cur);
    ctx->cur_stale = 0;
  }
  return &ctx->cur;
}

gdl_status gdl_advance(gdl_ctx *ctx, const gdl_term *moves)
{
  gdl_status st;
  PROTECT(ctx);
  need_state(ctx);
  if (GROUND(ctx) && ground_advance(ctx, moves)) {
    ctx->cur_stale = 1;
    ctx->db_state = 0;         /* a question loads the new state */
    UNPROTECT(ctx);
    return GDL_OK;
  }
  UNPROTECT(ctx);
  if ((st = gdl_next(ctx, moves, &ctx->adv)) != GDL_OK)
    return st;
  return gdl_set_state(ctx, &ctx->adv);
}

size_t gdl_random(uint64_t *rng, size_t n)
{
  return rng_pick(rng, n);
}

/* Random play looks at the interrupt and the clock between runs of steps
 * (ctx->steps_run) about a millisecond long: a run is doubled while the
 * time between two looks is under a quarter of one and halved while it
 * is over two.  So a limit stops play within a few milliseconds of it,
 * between two steps (the network whole), while the looks (a clock read,
 * 25 to 150 ns) cost nothing beside a millisecond of steps, however
 * cheap a step is.  `done` steps were played since the last call; 1 when
 * a limit is met (the message set). */
static int steps_look(gdl_ctx *ctx, size_t done)
{
  double t, dt;
  if (done < ctx->steps_left) {
    ctx->steps_left -= (uint32_t)done;
    return 0;
  }
  t = ctx_clock();
  dt = t - ctx->steps_t;
  if (ctx->steps_run == 0)
    ctx->steps_run = 16;
  else if (dt < 0.00025 && ctx->steps_run < (1u << 20))
    ctx->steps_run *= 2;
  else if (dt > 0.002 && ctx->steps_run > 1)
    ctx->steps_run /= 2;
  ctx->steps_t = t;
  ctx->steps_left = ctx->steps_run;
  return ctx_limit(ctx);
}

/* gdl_random_steps' play, *steps counted as it goes (so a throw out of
 * it leaves the steps played): by bits in the network where it can,
 * else by the public calls. */
static gdl_status random_play(gdl_ctx *ctx, uint64_t *rng, size_t max_steps,
                              size_t *steps, int *over)
{
  size_t r, n, run, got;
  const gdl_term *mv;
  gdl_status st = GDL_OK;
  if (steps_look(ctx, 1))      /* a call counts as a step: a game over */
    return GDL_ELIMIT;         /* at the start plays none */
  if (GROUND(ctx)) {
    while (*steps < max_steps && !*over) {
      /* in runs, with a look at the limits before each */
      if (steps_look(ctx, 0))
        return GDL_ELIMIT;
      run = max_steps - *steps < ctx->steps_left ? max_steps - *steps
                                                 : ctx->steps_left;
      if (!ground_random_steps(ctx, rng, run, &got, over))
        break;                 /* not by bits (at the first run) */
      *steps += got;
      ctx->steps_left -= (uint32_t)got;
      if (got) {
        ctx->cur_stale = 1;
        ctx->db_state = 0;
      }
    }
    if (*steps || *over)
      return GDL_OK;
  }
  if (!ctx->joint)
    ctx->joint = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *ctx->joint);
  while (*steps < max_steps && !(*over = gdl_terminal(ctx))) {
    if (steps_look(ctx, 1))
      return GDL_ELIMIT;
    for (r = 0; r < ctx->nroles; r++) {
      if ((st = gdl_legal(ctx, r, &mv, &n)) != GDL_OK || n == 0)
        break;
      ctx->joint[r] = mv[gdl_random(rng, n)];
    }
    if (r < ctx->nroles) {
      *over = st == GDL_OK;            /* a role with no legal move */
      break;
    }
    if ((st = gdl_advance(ctx, ctx->joint)) != GDL_OK)
      break;
    ++*steps;
  }
  return st;
}

gdl_status gdl_random_steps(gdl_ctx *ctx, uint64_t *rng, size_t max_steps,
                            size_t *steps, int *over)
{
  gdl_status st;
  *steps = 0;
  *over = 0;
  PROTECT(ctx);
  need_state(ctx);
  st = random_play(ctx, rng, max_steps, steps, over);
  UNPROTECT(ctx);
  return st;
}

gdl_status gdl_current(gdl_ctx *ctx, gdl_state *out)
{
  PROTECT(ctx);
  need_state(ctx);
  if (GROUND(ctx))
    gdl_state_copy(ctx, out, cur_state(ctx));
  else
    collect_args(ctx, ctx->r_true, out);
  UNPROTECT(ctx);
  return GDL_OK;
}

gdl_status gdl_next(gdl_ctx *ctx, const gdl_term *moves, gdl_state *out)
{
  uint32_t i;
  PROTECT(ctx);
  need_state(ctx);
  if (GROUND(ctx)) {
    ground_next(ctx, moves, out);
    UNPROTECT(ctx);
    return GDL_OK;
  }
  eval_clear(ctx, P_MOVE);
  for (i = 0; i < ctx->nroles; i++) {
    gdl_term args[2];
    args[0] = ctx->roles[i];
    args[1] = moves[i];
    eval_insert(ctx, ctx->r_does, term_fn(ctx, S_DOES, 2, args));
  }
  eval_phase(ctx, P_MOVE);
  collect_args(ctx, ctx->r_next, out);
  UNPROTECT(ctx);
  return GDL_OK;
}

/* ---- states ----------------------------------------------------------- */

void gdl_state_release(gdl_ctx *ctx, gdl_state *s)
{
  ctx_free(ctx, s->facts);
  s->facts = NULL;
  s->n = s->cap = 0;
}

gdl_status gdl_state_copy(gdl_ctx *ctx, gdl_state *dst, const gdl_state *src)
{
  PROTECT(ctx);
  if (dst->cap < src->n || !dst->facts) {
    dst->facts = ctx_realloc(ctx, dst->facts,
                             (src->n + 1) * sizeof *dst->facts);
    dst->cap = src->n + 1;
  }
  if (src->n)
    COPY(dst->facts, src->facts, src->n * sizeof *dst->facts);
  dst->n = src->n;
  UNPROTECT(ctx);
  return GDL_OK;
}

uint64_t gdl_state_hash(const gdl_state *s)
{
  uint64_t h = 1469598103934665603ull;
  uint32_t i;
  for (i = 0; i < s->n; i++) {
    h ^= s->facts[i];
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

int gdl_state_equal(const gdl_state *a, const gdl_state *b)
{
  return a->n == b->n &&
         (a->n == 0 || memcmp(a->facts, b->facts, a->n * sizeof *a->facts) == 0);
}

/* ---- questions -------------------------------------------------------- */

gdl_status gdl_query(gdl_ctx *ctx, gdl_term pattern, gdl_answer_fn fn,
                     void *arg)
{
  const term_t *p;
  int r;
  uint32_t i, k = 0, nv;
  gdl_term *ans;
  PROTECT(ctx);
  if (!ctx->compiled)
    ctx_throw(ctx, GDL_EINPUT, "no description compiled");
  p = &ctx->terms[pattern];
  if (p->kind == T_VAR)
    ctx_throw(ctx, GDL_EINPUT, "a question must name a relation");
  if (GROUND(ctx) && ctx->have_state && !ctx->db_state)
    db_set_state(ctx, cur_state(ctx));   /* questions are interpreted */
  r = rel_find(ctx, p->sym, p->kind == T_FN ? p->arity : 0);
  if (r < 0) {
    UNPROTECT(ctx);
    return GDL_OK;
  }
  if (ctx->nlazy)                   /* a question asks for them all */
    eval_unlazy(ctx, !ctx->have_state ? P_STATIC
                     : ctx->db_state ? P_STATE : P_STATIC, r);
  nv = term_max_var(ctx, pattern) + 1;
  eval_reserve(ctx, nv);
  ans = ctx_alloc(ctx, (ctx->rels[r].n + 1) * sizeof *ans);
  for (i = 0; i < ctx->rels[r].n; i++) {
    memset(ctx->bind, 0, nv * sizeof *ctx->bind);
    ctx->ntrail = 0;
    if (eval_match(ctx, pattern, ctx->rels[r].facts[i]))
      ans[k++] = ctx->rels[r].facts[i];
  }
  sort_terms(ctx, ans, k, 1);
  UNPROTECT(ctx);
  for (i = 0; i < k; i++)
    if (fn(arg, ans[i]))
      break;
  ctx_free(ctx, ans);
  return GDL_OK;
}
