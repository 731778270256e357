/*
 * alphabeta.c - the value of a two-role constant-sum turn-taking game
 * where its reachable graph does not fit (value.c stops at --max-states or
 * --max-memory): alpha-beta over the whole game, depth first to the
 * terminal states, with a transposition table of fixed size.  The table
 * keeps each state whole (its bits), so a hit is never a collision, and
 * bounds proven of its value (no depth limit: a bound holds for the game
 * from there); an entry is replaced by the next state that hashes to it.
 * Values are the first role's goal; the second's is the constant sum less
 * it.  A state where both roles choose, or a terminal state whose goals
 * sum otherwise than the first one seen, stops the search: minimax does
 * not apply.  At a limit the root's mover can make sure of at least the
 * best of its moves searched to the end.
 */
#include <stdio.h>
#include <string.h>

#include "search/search.h"

#define AB_MAX_PLY 10000      /* deeper: a cycle of states, surely */

typedef struct {
  uint32_t *kids;             /* the children's bits, words each */
  gdl_term *moves;            /* their joint moves, k each */
  uint32_t n, cap, mcap;
} ply_t;

typedef struct {
  uint32_t words, mask;       /* the table has mask + 1 entries */
  uint32_t *key;              /* per entry: the state's bits */
  int16_t *lo, *hi;           /* per entry: bounds of its value (lo > hi:
                                 empty) */
  uint16_t *best;             /* per entry: its best child's place */
  ply_t *ply;
  uint32_t nply;
  long sum;                   /* the goals' constant sum (-1: none seen) */
  uint32_t steps;
} ab_t;

static void ab_free(gdl_ctx *ctx, ab_t *T)
{
  uint32_t i;
  for (i = 0; i < T->nply; i++) {
    ctx_free(ctx, T->ply[i].kids);
    ctx_free(ctx, T->ply[i].moves);
  }
  ctx_free(ctx, T->ply);
  ctx_free(ctx, T->key);
  ctx_free(ctx, T->lo);
  ctx_free(ctx, T->hi);
  ctx_free(ctx, T->best);
}

/* The entry of state w: its index, *hit 1 when it holds w. */
static uint32_t ab_slot(const ab_t *T, const uint32_t *w, int *hit)
{
  uint32_t j = words_hash(w, T->words) & T->mask;
  *hit = T->lo[j] <= T->hi[j] &&
         same_words(T->key + (size_t)j * T->words, w, T->words);
  return j;
}

/* An expand_fn: the child and its joint move kept at its place. */
static int ab_keep(search_t *S, void *arg, size_t place)
{
  ply_t *P = arg;
  uint32_t at = (uint32_t)place, w = S->words;
  if ((at + 1) * w >= P->cap)
    GROW(S->ctx, P->kids, P->cap, (at + 1) * w);
  if ((at + 1) * S->k >= P->mcap)
    GROW(S->ctx, P->moves, P->mcap, (at + 1) * S->k);
  copy_words(P->kids + (size_t)at * w, S->child.facts, w);
  COPY(P->moves + (size_t)at * S->k, S->joint, S->k * sizeof *S->joint);
  if (at + 1 > P->n)
    P->n = at + 1;
  return 0;
}

/* State w set as the current one: 1 when it is terminal (its first
 * role's goal into *g), else 0 with its children at T->ply[ply] and the
 * role that chooses into *mover (0 where none does). */
static int ab_open(search_t *S, ab_t *T, const uint32_t *w, uint32_t ply,
                   long *g, int *mover)
{
  gdl_ctx *ctx = S->ctx;
  gdl_state s;
  ply_t *P;
  uint32_t r, choosers = 0;
  s.facts = (gdl_term *)w;
  s.n = s.cap = S->words;
  state_set(S, &s);
  S->played = 0;
  if ((++T->steps & 1023) == 0)
    search_report(S, ply, 0);
  *mover = 0;
  if (!gdl_terminal(ctx)) {
    for (r = 0; r < 2; r++) {
      const gdl_term *mv;
      size_t m = state_legal(S, r, &mv);
      if (m == 0)
        break;
      if (m > 1) {
        choosers++;
        *mover = (int)r;
      }
    }
    if (r == 2) {
      if (choosers > 1)
        ctx_throw(ctx, GDL_ELIMIT, "both roles choose at once: alpha-beta "
                  "does not apply");
      if (ply >= AB_MAX_PLY)
        ctx_throw(ctx, GDL_ELIMIT, "a line of %u moves: a cycle of states, "
                  "the game need not end", ply);
      if (ply >= T->nply) {
        uint32_t c = T->nply;
        GROW(ctx, T->ply, c, ply);   /* (c: the new capacity, zeroed) */
        T->nply = c;
      }
      P = &T->ply[ply];
      P->n = 0;
      expand_successors(S, ab_keep, P, 0);
      return 0;
    }
  }
  {                             /* terminal (or a role cannot move) */
    long g0 = gdl_goal(ctx, 0), g1 = gdl_goal(ctx, 1);
    long sum = (g0 < 0 ? 0 : g0) + (g1 < 0 ? 0 : g1);
    S->res->expanded++;
    if (T->sum < 0)
      T->sum = sum;
    else if (sum != T->sum)
      ctx_throw(ctx, GDL_ELIMIT, "the goals do not always sum to %ld: "
                "alpha-beta does not apply", T->sum);
    *g = g0 < 0 ? 0 : g0;
    return 1;
  }
}

/* The first role's value of state w (at ply), fail-soft within
 * (alpha, beta): exact where it falls inside, else a bound beyond. */
static long ab_search(search_t *S, ab_t *T, const uint32_t *w, uint32_t ply,
                      long alpha, long beta)
{
  long g, best, a0 = alpha, b0 = beta;
  int mover, hit;
  uint32_t j, i, n, first = 0, bi = 0, wd = T->words;
  if (ab_open(S, T, w, ply, &g, &mover))
    return g;
  j = ab_slot(T, w, &hit);
  if (hit) {
    if (T->lo[j] >= beta)
      return T->lo[j];
    if (T->hi[j] <= alpha)
      return T->hi[j];
    if (T->lo[j] == T->hi[j])
      return T->lo[j];
    if (T->lo[j] > alpha)
      alpha = T->lo[j];
    if (T->hi[j] < beta)
      beta = T->hi[j];
    first = T->best[j];
    a0 = alpha;                /* (the window searched) */
    b0 = beta;
  }
  n = T->ply[ply].n;
  if (first >= n)
    first = 0;
  best = mover == 0 ? -1 : 100001;
  for (i = 0; i < n; i++) {
    /* the table's best child first, then the others in order */
    uint32_t c = i == 0 ? first : i <= first ? i - 1 : i;
    long v;
    uint32_t *kid = T->ply[ply].kids + (size_t)c * wd;
    /* (the ply's buffer is not touched deeper: copy not needed) */
    v = ab_search(S, T, kid, ply + 1, alpha, beta);
    if (mover == 0 ? v > best : v < best) {
      best = v;
      bi = c;
    }
    if (mover == 0 && best > alpha)
      alpha = best;
    if (mover == 1 && best < beta)
      beta = best;
    if (ply == 0 && T->sum >= 0) {      /* what the root's mover has */
      S->res->bound_role = mover;
      S->res->bound = mover == 0 ? best : T->sum - best;
      S->res->bound_searched = i + 1;
      S->res->bound_moves = n;
    }
    if (alpha >= beta)
      break;
  }
  /* stored: bounds proven of w's value, merged with what was there */
  j = ab_slot(T, w, &hit);
  if (!hit) {
    copy_words(T->key + (size_t)j * wd, w, wd);
    T->lo[j] = -1;
    T->hi[j] = 30000;
  }
  if (best > a0 && best < b0)
    T->lo[j] = T->hi[j] = (int16_t)best;
  else if (best <= a0)
    T->hi[j] = (int16_t)(best < T->hi[j] ? best : T->hi[j]);
  else
    T->lo[j] = (int16_t)(best > T->lo[j] ? best : T->lo[j]);
  T->best[j] = (uint16_t)(bi > UINT16_MAX ? 0 : bi);
  return best;
}

/* The line of perfect play from the start (value v): at each state the
 * first child of the same value. */
static void ab_line(search_t *S, ab_t *T, const uint32_t *start, long v)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *res = S->res;
  uint32_t wd = T->words, len = 0, i, pcap = 0;
  uint32_t *cur = ctx_alloc(ctx, (wd + 1) * sizeof *cur);
  gdl_term *plan = NULL;
  copy_words(cur, start, wd);
  for (;;) {
    long g;
    int mover;
    uint32_t n;
    if (ab_open(S, T, cur, 0, &g, &mover))
      break;
    n = T->ply[0].n;
    for (i = 0; i < n; i++) {
      /* (the search below fills plies from 1: ply 0's children stay) */
      if (ab_search(S, T, T->ply[0].kids + (size_t)i * wd, 1, v - 1,
                    v + 1) == v)
        break;
    }
    if (i == n)
      break;                   /* (cannot be: some child has its value) */
    GROW(ctx, plan, pcap, (len + 1) * S->k);
    COPY(plan + (size_t)len * S->k, T->ply[0].moves + (size_t)i * S->k,
         S->k * sizeof *plan);
    copy_words(cur, T->ply[0].kids + (size_t)i * wd, wd);
    len++;
  }
  res->plan = ctx_arena(ctx, ((size_t)len * S->k + 1) * sizeof *res->plan);
  COPY(res->plan, plan, (size_t)len * S->k * sizeof *plan);
  res->length = len;
  res->depth = len;
  ctx_free(ctx, plan);
  ctx_free(ctx, cur);
}

void value_alphabeta(search_t *S, uint64_t entries, const char *after)
{
  gdl_ctx *ctx = S->ctx;
  gdl_solve_result *res = S->res;
  ab_t T;
  uint32_t *start;
  uint64_t n = 64, j;
  long v;
  jmp_buf jb, *old = ctx->jmp;
  memset(&T, 0, sizeof T);
  T.words = S->words;
  T.sum = -1;
  while (n * 2 <= entries && n < ((uint64_t)1 << 31))
    n *= 2;
  T.mask = (uint32_t)(n - 1);
  res->alphabeta = n;
  res->bound_role = -1;
  res->bound = -1;
  start = ctx_alloc(ctx, (T.words + 1) * sizeof *start);
  ctx->jmp = &jb;
  if (setjmp(jb)) {             /* a limit: the table's memory back */
    char why[sizeof ctx->errmsg];
    gdl_status st = ctx->thrown;
    ctx->jmp = old;
    snprintf(why, sizeof why, "%s", ctx->errmsg);
    ab_free(ctx, &T);
    ctx_free(ctx, start);
    ctx_throw(ctx, st, "%.200s; alpha-beta searched on after the graph "
              "search's %.100s", why, after);
  }
  T.key = ctx_alloc(ctx, (size_t)n * T.words * sizeof *T.key);
  T.lo = ctx_alloc(ctx, (size_t)n * sizeof *T.lo);
  T.hi = ctx_alloc(ctx, (size_t)n * sizeof *T.hi);
  T.best = ctx_alloc(ctx, (size_t)n * sizeof *T.best);
  for (j = 0; j < n; j++) {
    T.lo[j] = 1;               /* empty */
    T.hi[j] = 0;
  }
  copy_words(start, S->cur.facts, T.words);
  v = ab_search(S, &T, start, 0, -2, 100002);
  res->status = GDL_SOLVED;
  res->values[0] = v;
  res->values[1] = T.sum - v;
  res->goal = v;
  res->constant_sum = 1;
  res->bound_role = -1;
  {
    uint64_t e = res->expanded, g = res->generated;
    ab_line(S, &T, start, v);
    res->expanded = e;
    res->generated = g;
  }
  ctx->jmp = old;
  ab_free(ctx, &T);
  ctx_free(ctx, start);
}
