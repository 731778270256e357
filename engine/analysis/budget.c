/*
 * budget.c - the moves a game can still make: a dead-end test for games
 * of one role where every move can be made at most once (once(a), a
 * fluent its legality needs, latched false, that it makes false), some
 * pairs of moves end the game or lose it for good (their effects latched
 * true make terminal true or goal 100 false), and a clock (autonomous
 * fluents, counter.c) says how many moves the game must still last.
 *
 * Invariant: a state is called a dead end only when the moves still
 * possible there hold no set free of conflicts as large as the clock
 * demands (bounded by a greedy cover by cliques, and by a maximum
 * matching where the conflicts are bipartite): then no plan exists from
 * it.  doc/solving.md ("Move budgets") has the argument.
 */
#include <string.h>

#include "analysis/analysis.h"

#define NONE UINT32_MAX
#define MAX_MOVES 1024         /* more: no budget (pairs cost n^2) */
#define MEMO_CAP 4096          /* clock values remembered, per copy */

struct budget {
  ground_t *G;
  uint32_t nm;                 /* moves of the one role */
  uint32_t *once;              /* per move: slot once(a) */
  uint32_t *eff_lo, *eff;      /* per move: slots of eff(a) */
  uint8_t *self;               /* per move: a conflict by itself */
  uint32_t rw;                 /* words of a row of adj */
  uint32_t *adj;               /* nm rows: the conflicts */
  uint8_t *side;               /* per move: its side, or NULL where the
                                  conflict graph is not bipartite */
  int ends;                    /* some conflict is an end conflict */
  uint32_t ncl, *cl;           /* the clock's slots */
  uint32_t cw;                 /* words of a clock value */
  uint32_t lim;                /* moves simulated at most */
  uint32_t goal, terminal;     /* the propositions goal 100, terminal */
  struct budget_scratch {      /* each copy its own, one block */
    uint32_t *mkey, *mval, nmemo;  /* clock value -> t, open addressing */
    uint32_t *cur, *nxt;       /* clock values */
    uint32_t *left, *common, *ban; /* rows of moves */
    uint32_t *mate, *mark, now;  /* matching */
    void *block;               /* the memory of the arrays above */
  } s;
};

static void set_bit(uint32_t *w, uint32_t i)
{
  w[i >> 5] |= 1u << (i & 31);
}

/* ---- finding it ------------------------------------------------------- */

/* The fixed values: move j played, the role's other moves not. */
static void play_only(kern_eval_t *X, const uint32_t *does, uint32_t nm,
                      uint32_t j)
{
  uint32_t i;
  kern_unfix(X);
  for (i = 0; i < nm; i++)
    if (does[i] != NONE)
      kern_fix(X, does[i], i == j ? V1 : V0);
  kern_run(X);
}

/* Whether slot s can be once(j): latched false once false, and made
 * false by the values fixed (play_only, j). */
static int makes_false(const ground_t *G, est_t *E, uint32_t s)
{
  return est_latched(E, s, 0) &&
         (s >= G->nnext || kern_value(est_eval(E), G->next[s].prop) == V0);
}

/* Slot once(j) of move j, whose legal proposition is L, or NONE: L's
 * fluent, or a positive `true` literal of each rule of L, that
 * makes_false. */
static uint32_t find_once(const ground_t *G, est_t *E, const uint32_t *bh_lo,
                          const uint32_t *bh, uint32_t L)
{
  uint32_t i, k, r0;
  if (G->tslot[L])             /* legal is the fluent itself */
    return makes_false(G, E, G->tslot[L] - 1) ? G->tslot[L] - 1 : NONE;
  if (bh_lo[L] == bh_lo[L + 1])
    return NONE;
  r0 = bh[bh_lo[L]];
  for (k = G->in_lo[r0]; k < G->in_lo[r0 + 1]; k++) {
    uint32_t q = G->in[k] >> 1, ok = 1;
    if ((G->in[k] & 1) || !G->tslot[q] || !makes_false(G, E, G->tslot[q] - 1))
      continue;
    for (i = bh_lo[L] + 1; i < bh_lo[L + 1] && ok; i++) {
      uint32_t r = bh[i], m;
      ok = 0;
      for (m = G->in_lo[r]; m < G->in_lo[r + 1]; m++)
        ok |= G->in[m] == (q << 1);
    }
    if (ok)
      return G->tslot[q] - 1;
  }
  return NONE;
}

/* The conflict of eff(a) and eff(b) (b = a: alone): 1 end, 2 goal, 0
 * none. */
static int conflict(const bud_t *B, kern_eval_t *X, uint32_t a, uint32_t b)
{
  const ground_t *G = B->G;
  uint32_t i;
  kern_unfix(X);
  for (i = B->eff_lo[a]; i < B->eff_lo[a + 1]; i++)
    kern_fix(X, G->tprop[B->eff[i]], V1);
  for (i = B->eff_lo[b]; i < B->eff_lo[b + 1]; i++)
    kern_fix(X, G->tprop[B->eff[i]], V1);
  kern_run(X);
  if (kern_value(X, B->terminal) == V1)
    return 1;
  return kern_value(X, B->goal) == V0 ? 2 : 0;
}

/* Two colours for the conflict graph, or 0 where it has an odd cycle. */
static int two_sides(gdl_ctx *ctx, bud_t *B)
{
  uint32_t nm = B->nm, *queue = ctx_alloc(ctx, (nm + 1) * sizeof *queue);
  uint8_t *seen = ctx_alloc(ctx, nm + 1);
  uint32_t s, h, t, v, u;
  int ok = 1;
  B->side = ctx_alloc(ctx, nm + 1);
  for (s = 0; s < nm && ok; s++) {
    if (seen[s])
      continue;
    seen[s] = 1;
    queue[0] = s;
    for (h = 0, t = 1; h < t && ok; h++)
      for (v = queue[h], u = 0; u < nm && ok; u++) {
        if (!word_bit(B->adj + (size_t)v * B->rw, u))
          continue;
        if (!seen[u]) {
          seen[u] = 1;
          B->side[u] = !B->side[v];
          queue[t++] = u;
        } else if (B->side[u] == B->side[v]) {
          ok = 0;
        }
      }
  }
  ctx_free(ctx, queue);
  ctx_free(ctx, seen);
  if (!ok) {
    ctx_free(ctx, B->side);
    B->side = NULL;
  }
  return ok;
}

/* B's scratch, for one thread, in one block: a field added to its
 * struct is either an array carved here or zeroed, so no copy shares
 * it. */
static void scratch_open(gdl_ctx *ctx, bud_t *B)
{
  struct budget_scratch *S = &B->s;
  size_t cw = B->cw + 1, rw = B->rw + 1, nm = B->nm + 1;
  size_t memo = (size_t)MEMO_CAP * B->cw + 1, vals = MEMO_CAP + 1;
  uint32_t *at;
  memset(S, 0, sizeof *S);
  S->block = ctx_alloc(ctx, (memo + vals + 2 * cw + 3 * rw + 2 * nm) *
                                sizeof(uint32_t));
  at = S->block;
  S->mkey = at, at += memo;
  S->mval = at, at += vals;
  S->cur = at, at += cw;
  S->nxt = at, at += cw;
  S->left = at, at += rw;
  S->common = at, at += rw;
  S->ban = at, at += rw;
  S->mate = at, at += nm;
  S->mark = at;
  memset(S->mval, 0xff, MEMO_CAP * sizeof *S->mval);
}

static void scratch_close(gdl_ctx *ctx, bud_t *B)
{
  ctx_free(ctx, B->s.block);
  B->s.block = NULL;
}

void bud_free(gdl_ctx *ctx, bud_t *B)
{
  if (!B)
    return;
  ctx_free(ctx, B->once);
  ctx_free(ctx, B->eff_lo);
  ctx_free(ctx, B->eff);
  ctx_free(ctx, B->self);
  ctx_free(ctx, B->adj);
  ctx_free(ctx, B->side);
  ctx_free(ctx, B->cl);
  scratch_close(ctx, B);
  ctx_free(ctx, B);
}

static uint32_t moves_to_end(bud_t *B, kern_eval_t *X, const uint32_t *w);

bud_t *bud_build(gdl_ctx *ctx, est_t *E, const uint32_t *start)
{
  ground_t *G = ctx->ground;
  bud_t *B = NULL;
  kern_eval_t *X = est_eval(E);
  const kern_t *K = X->K;      /* E's kernel */
  uint32_t nm, i, j, s, *does = NULL, neff = 0;
  uint32_t effcap = 0;
  uint8_t *auton = NULL;
  if (ctx->nroles != 1 || G->nlegal[0] == 0 || G->nlegal[0] > MAX_MOVES ||
      est_goal(E) == NONE || est_terminal(E) == NONE || !est_latches(E))
    return NULL;
  nm = G->nlegal[0];
  B = ctx_alloc(ctx, sizeof *B);
  memset(B, 0, sizeof *B);
  B->G = G;
  B->nm = nm;
  B->goal = est_goal(E);
  B->terminal = est_terminal(E);
  /* the clock */
  auton = ctx_alloc(ctx, G->ntslots + 1);
  B->ncl = counter_autonomous(ctx, K, auton);
  if (!B->ncl)
    goto none;
  B->cl = ctx_alloc(ctx, (B->ncl + 1) * sizeof *B->cl);
  for (s = 0, i = 0; s < G->ntslots; s++)
    if (auton[s])
      B->cl[i++] = s;
  B->cw = (B->ncl + 31) / 32;
  B->lim = nm + 2;
  /* once(a), each move */
  does = ctx_alloc(ctx, (nm + 1) * sizeof *does);
  for (j = 0; j < nm; j++)
    does[j] = does_prop(ctx, G, 0, G->legal[0][j].term);
  B->once = ctx_alloc(ctx, (nm + 1) * sizeof *B->once);
  B->eff_lo = ctx_alloc(ctx, (nm + 2) * sizeof *B->eff_lo);
  for (j = 0; j < nm; j++) {
    if (does[j] == NONE)
      goto none;
    play_only(X, does, nm, j);
    if ((s = find_once(G, E, K->bh_lo, K->bh, G->legal[0][j].prop)) == NONE)
      goto none;
    B->once[j] = s;
    for (s = 0; s < G->nnext; s++)     /* eff(a) */
      if (G->tprop[s] != NONE && est_latched(E, s, 1) &&
          kern_value(X, G->next[s].prop) == V1) {
        GROW(ctx, B->eff, effcap, neff);
        B->eff[neff++] = s;
      }
    B->eff_lo[j + 1] = neff;
    kern_poll(ctx, X);
  }
  /* the conflicts */
  B->rw = (nm + 31) / 32;
  B->adj = ctx_alloc(ctx, ((size_t)nm * B->rw + 1) * sizeof *B->adj);
  B->self = ctx_alloc(ctx, nm + 1);
  for (i = 0; i < nm; i++) {
    int c;
    if (B->eff_lo[i] == B->eff_lo[i + 1])
      continue;                /* eff(a) empty: in no conflict */
    if ((c = conflict(B, X, i, i)) != 0) {
      B->self[i] = 1;
      B->ends |= c == 1;
      continue;
    }
    for (j = i + 1; j < nm; j++) {
      if (B->eff_lo[j] < B->eff_lo[j + 1] && (c = conflict(B, X, i, j))) {
        set_bit(B->adj + (size_t)i * B->rw, j);
        set_bit(B->adj + (size_t)j * B->rw, i);
        B->ends |= c == 1;
      }
      kern_poll(ctx, X);
    }
  }
  kern_unfix(X);
  two_sides(ctx, B);
  scratch_open(ctx, B);
  if (moves_to_end(B, X, start) <= (uint32_t)B->ends)
    goto none;                 /* the clock says nothing from the start (a
                                  fluent that never changes is a clock) */
  ctx_free(ctx, auton);
  ctx_free(ctx, does);
  return B;
none:
  kern_unfix(X);
  ctx_free(ctx, auton);
  ctx_free(ctx, does);
  bud_free(ctx, B);
  return NULL;
}

bud_t *bud_get(gdl_ctx *ctx, analyses_t *A, const uint32_t *start)
{
  if (!A->bud_tried) {
    A->bud = bud_build(ctx, est_get(ctx, A), start);
    A->bud_tried = 1;
  }
  return A->bud;
}

/* A copy for another thread: the analysis shared, the scratch its own. */
bud_t *bud_copy(gdl_ctx *ctx, const bud_t *B)
{
  bud_t *C;
  if (!B)
    return NULL;
  C = ctx_alloc(ctx, sizeof *C);
  *C = *B;
  scratch_open(ctx, C);
  return C;
}

void bud_copy_free(gdl_ctx *ctx, bud_t *C)
{
  if (!C)
    return;
  scratch_close(ctx, C);
  ctx_free(ctx, C);
}

/* ---- the test of a state ---------------------------------------------- */

/* A new run of evaluation with the clock fixed to its value in B->s.cur. */
static void fix_clock(bud_t *B, kern_eval_t *X)
{
  const ground_t *G = B->G;
  uint32_t i;
  kern_unfix(X);
  for (i = 0; i < B->ncl; i++)
    kern_fix(X, G->tprop[B->cl[i]], word_bit(B->s.cur, i));
  kern_run(X);
}

/* In that run: whether the clock allows the game to end with goal 100. */
static int may_end(const bud_t *B, kern_eval_t *X)
{
  return kern_value(X, B->terminal) != V0 && kern_value(X, B->goal) != V0;
}

/* In that run: the clock's value after one more move, into B->s.cur; 0
 * where one of its fluents is unknown. */
static int advance(bud_t *B, kern_eval_t *X)
{
  const ground_t *G = B->G;
  uint32_t i;
  memset(B->s.nxt, 0, B->cw * sizeof *B->s.nxt);
  for (i = 0; i < B->ncl; i++) {
    int v = B->cl[i] < G->nnext ? kern_value(X, G->next[B->cl[i]].prop) : V0;
    if (v == VU)
      return 0;
    if (v == V1)
      set_bit(B->s.nxt, i);
  }
  memcpy(B->s.cur, B->s.nxt, B->cw * sizeof *B->s.cur);
  return 1;
}

static uint32_t memo_hash(const bud_t *B, const uint32_t *c)
{
  uint32_t h = 0, i;
  for (i = 0; i < B->cw; i++)
    h = (h ^ c[i]) * 0x9e3779b1u;
  return h;
}

/* t for the clock of state w (doc/solving.md, "Move budgets"): 0 where
 * the game may end in w, or nothing can be said (a value of the clock
 * unknown); B->lim where it cannot end within B->lim - 1 moves. */
static uint32_t moves_to_end(bud_t *B, kern_eval_t *X, const uint32_t *w)
{
  uint32_t i, t, h;
  int keep;
  memset(B->s.cur, 0, B->cw * sizeof *B->s.cur);
  for (i = 0; i < B->ncl; i++)
    if (word_bit(w, B->cl[i]))
      set_bit(B->s.cur, i);
  h = memo_hash(B, B->s.cur) & (MEMO_CAP - 1);
  for (; B->s.mval[h] != NONE; h = (h + 1) & (MEMO_CAP - 1))
    if (memcmp(B->s.mkey + (size_t)h * B->cw, B->s.cur,
               B->cw * sizeof *B->s.cur) == 0)
      return B->s.mval[h];
  keep = B->s.nmemo < MEMO_CAP / 2;   /* (so an empty place is always met) */
  if (keep)
    memcpy(B->s.mkey + (size_t)h * B->cw, B->s.cur, B->cw * sizeof *B->s.cur);
  for (t = 0;; t++) {
    fix_clock(B, X);
    if (may_end(B, X) || t == B->lim)
      break;
    if (!advance(B, X)) {
      t = 0;
      break;
    }
  }
  kern_unfix(X);
  if (keep) {
    B->s.mval[h] = t;
    B->s.nmemo++;
  }
  return t;
}

/* A maximum matching's augmenting path from u (Kuhn), over the moves in
 * left[] on the other side. */
static int augment(bud_t *B, uint32_t u)
{
  const uint32_t *row = B->adj + (size_t)u * B->rw;
  uint32_t k, v;
  for (k = 0; k < B->rw; k++) {
    uint32_t x = row[k] & B->s.left[k];
    while (x) {
      v = k * 32 + (uint32_t)__builtin_ctz(x);
      x &= x - 1;
      if (B->s.mark[v] == B->s.now)
        continue;
      B->s.mark[v] = B->s.now;
      if (B->s.mate[v] == NONE || augment(B, B->s.mate[v])) {
        B->s.mate[v] = u;
        return 1;
      }
    }
  }
  return 0;
}

int bud_dead(bud_t *B, est_t *E, const uint32_t *w)
{
  uint32_t t = moves_to_end(B, est_eval(E), w), k, i, j, n = 0, m = 0;
  uint32_t cliques = 0;
  if (t == 0)
    return 0;
  k = B->ends ? t - 1 : t;
  if (k == 0)
    return 0;
  /* the moves made (eff(a) all true) ban those they conflict with */
  memset(B->s.ban, 0, B->rw * sizeof *B->s.ban);
  for (i = 0; i < B->nm; i++) {
    uint32_t lo = B->eff_lo[i], hi = B->eff_lo[i + 1];
    for (j = lo; j < hi && word_bit(w, B->eff[j]); j++)
      ;
    if (lo < hi && j == hi)
      for (j = 0; j < B->rw; j++)
        B->s.ban[j] |= B->adj[(size_t)i * B->rw + j];
  }
  memset(B->s.left, 0, B->rw * sizeof *B->s.left);
  for (i = 0; i < B->nm; i++)
    if (word_bit(w, B->once[i]) && !B->self[i] && !word_bit(B->s.ban, i)) {
      set_bit(B->s.left, i);
      n++;
    }
  if (n < k)
    return 1;
  /* a maximum matching where the graph is bipartite */
  if (B->side) {
    for (i = 0; i < B->nm; i++)
      B->s.mate[i] = NONE;
    for (i = 0; i < B->nm && n - m >= k; i++)
      if (word_bit(B->s.left, i) && B->side[i] == 0) {
        if (++B->s.now == 0) {
          memset(B->s.mark, 0, B->nm * sizeof *B->s.mark);
          B->s.now = 1;
        }
        m += (uint32_t)augment(B, i);
      }
    if (n - m < k)
      return 1;
  }
  /* a cover by cliques, greedy, in the moves' order */
  for (i = 0; i < B->nm && cliques < k; i++) {
    if (!word_bit(B->s.left, i))
      continue;
    B->s.left[i >> 5] &= ~(1u << (i & 31));
    cliques++;
    for (j = 0; j < B->rw; j++)
      B->s.common[j] = B->adj[(size_t)i * B->rw + j] & B->s.left[j];
    for (j = 0; j < B->rw; j++)
      while (B->s.common[j]) {
        uint32_t u = j * 32 + (uint32_t)__builtin_ctz(B->s.common[j]), x;
        B->s.left[u >> 5] &= ~(1u << (u & 31));
        for (x = 0; x < B->rw; x++)
          B->s.common[x] &= B->adj[(size_t)u * B->rw + x];
      }
  }
  return cliques < k;
}
