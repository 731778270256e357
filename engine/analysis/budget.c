/*
 * budget.c - the moves a game can still make: a dead-end test for games
 * of one role where every move can be made once and some pairs of moves
 * end the game, or lose it, for good (placing knights or queens that must
 * not attack each other), while a step counter says how many moves the
 * game must still last.
 *
 * What is found on the grounded network, once per game (bud_build):
 *   - the clock: the autonomous fluents whose `next` reads only each
 *     other (counter.c, counter_autonomous), so that their values after t more
 *     moves follow from their values now;
 *   - per move a of the one role, a fluent once(a) that its legality needs
 *     (a `true` literal of every rule of its `legal`) and that is latched
 *     false once false (estimate.c), and that playing a makes false (a
 *     three-valued evaluation of its `next` with a played, every other
 *     move not, the rest unknown): so a is played at most once;
 *   - per move a, the fluents latched true once true that playing a makes
 *     true, eff(a);
 *   - the conflicts: a pair a, b (or a alone) such that, with eff(a) and
 *     eff(b) true and everything else unknown, terminal is true (an "end"
 *     conflict) or goal 100 is false (a "goal" conflict).  Those fluents
 *     stay true, so after both moves the game has ended, or goal 100 can
 *     never hold again.
 * Where any move has no once(a), the game has no budget.
 *
 * The test of a state s that is not terminal (bud_dead): let t be the
 * fewest moves after which the clock allows the game to end with goal
 * 100 (a three-valued evaluation of terminal and goal 100 with only the
 * clock's values fixed; simulated from s's clock and remembered per
 * value; 0 where it allows it in s itself, and then nothing is said).  A
 * plan from s makes T >= t moves m1 ... mT, distinct (each once), each
 * with once(m) true in s (once false, it stays false).  None of
 * m1 ... m(T-1) may complete a conflict, with another of them or with a
 * move already made (one whose eff is true in s): an end conflict would
 * end the game early, a goal conflict lose it; where no conflict is an end
 * conflict, mT may not either.  So the moves still possible, those with
 * once(m) true that complete no conflict with a move made, hold an
 * independent set of the conflict graph of k = t - 1 moves (t where no
 * conflict ends the game).  The size of such a set is at most the number
 * of cliques of any cover of them by cliques (greedy, in the moves'
 * order: a queen's row is a clique), and at most their number less that
 * of a matching (a vertex of each matched edge at most): where either is
 * below k, no plan exists from s.  The matching is computed where the
 * conflict graph is bipartite (knights: a knight's jump changes colour),
 * a maximum one by augmenting paths, and the bound is then exact
 * (Konig's theorem).
 */
#include <string.h>

#include "analysis/analysis.h"

#define NONE UINT32_MAX
#define MAX_MOVES 1024         /* more: no budget (pairs cost n^2) */
#define MEMO_CAP 4096          /* clock values remembered, per copy */
enum { V0, V1, VU };

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
  /* scratch, each copy its own */
  uint32_t *mkey, *mval, nmemo;  /* clock value -> t, open addressing */
  uint32_t *cur, *nxt;         /* clock values */
  uint32_t *left, *common, *ban; /* rows of moves */
  uint32_t *mate, *mark, now;  /* matching */
};

static int bit(const uint32_t *w, uint32_t i)
{
  return (w[i >> 5] >> (i & 31)) & 1;
}

static void set_bit(uint32_t *w, uint32_t i)
{
  w[i >> 5] |= 1u << (i & 31);
}

/* ---- finding it ------------------------------------------------------- */

/* The fixed values: move j played, the role's other moves not. */
static void play_only(est_t *E, const uint32_t *does, uint32_t nm, uint32_t j)
{
  uint32_t i;
  est_unfix(E);
  for (i = 0; i < nm; i++)
    if (does[i] != NONE)
      est_fix(E, does[i], i == j ? V1 : V0);
  est_run(E);
}

/* Whether slot s can be once(j): latched false once false, and made
 * false by the values fixed (play_only, j). */
static int makes_false(const ground_t *G, est_t *E, uint32_t s)
{
  return est_latched(E, s, 0) &&
         (s >= G->nnext || est_value(E, G->next[s].prop) == V0);
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
static int conflict(const bud_t *B, est_t *E, uint32_t a, uint32_t b)
{
  const ground_t *G = B->G;
  uint32_t i;
  est_unfix(E);
  for (i = B->eff_lo[a]; i < B->eff_lo[a + 1]; i++)
    est_fix(E, G->tprop[B->eff[i]], V1);
  for (i = B->eff_lo[b]; i < B->eff_lo[b + 1]; i++)
    est_fix(E, G->tprop[B->eff[i]], V1);
  est_run(E);
  if (est_value(E, est_terminal(E)) == V1)
    return 1;
  return est_value(E, est_goal(E)) == V0 ? 2 : 0;
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
        if (!bit(B->adj + (size_t)v * B->rw, u))
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

static void scratch(gdl_ctx *ctx, bud_t *B)
{
  B->mkey = ctx_alloc(ctx, ((size_t)MEMO_CAP * B->cw + 1) * sizeof *B->mkey);
  B->mval = ctx_alloc(ctx, (MEMO_CAP + 1) * sizeof *B->mval);
  memset(B->mval, 0xff, MEMO_CAP * sizeof *B->mval);
  B->nmemo = 0;
  B->cur = ctx_alloc(ctx, (B->cw + 1) * sizeof *B->cur);
  B->nxt = ctx_alloc(ctx, (B->cw + 1) * sizeof *B->nxt);
  B->left = ctx_alloc(ctx, (B->rw + 1) * sizeof *B->left);
  B->common = ctx_alloc(ctx, (B->rw + 1) * sizeof *B->common);
  B->ban = ctx_alloc(ctx, (B->rw + 1) * sizeof *B->ban);
  B->mate = ctx_alloc(ctx, (B->nm + 1) * sizeof *B->mate);
  B->mark = ctx_alloc(ctx, (B->nm + 1) * sizeof *B->mark);
  B->now = 0;
}

static void scratch_free(gdl_ctx *ctx, bud_t *B)
{
  ctx_free(ctx, B->mkey);
  ctx_free(ctx, B->mval);
  ctx_free(ctx, B->cur);
  ctx_free(ctx, B->nxt);
  ctx_free(ctx, B->left);
  ctx_free(ctx, B->common);
  ctx_free(ctx, B->ban);
  ctx_free(ctx, B->mate);
  ctx_free(ctx, B->mark);
}

static void bud_free(gdl_ctx *ctx, bud_t *B)
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
  scratch_free(ctx, B);
  ctx_free(ctx, B);
}

static uint32_t moves_to_end(bud_t *B, est_t *E, const uint32_t *w);

bud_t *bud_build(gdl_ctx *ctx, est_t *E, const uint32_t *start)
{
  ground_t *G = ctx->ground;
  bud_t *B = NULL;
  uint32_t nm, i, j, s, *does = NULL, *bh_lo = NULL, *bh = NULL, neff = 0;
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
  /* the clock */
  auton = ctx_alloc(ctx, G->ntslots + 1);
  B->ncl = counter_autonomous(ctx, auton);
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
  ground_rules_by_head(ctx, G, &bh_lo, &bh);
  B->once = ctx_alloc(ctx, (nm + 1) * sizeof *B->once);
  B->eff_lo = ctx_alloc(ctx, (nm + 2) * sizeof *B->eff_lo);
  for (j = 0; j < nm; j++) {
    if (does[j] == NONE)
      goto none;
    play_only(E, does, nm, j);
    if ((s = find_once(G, E, bh_lo, bh, G->legal[0][j].prop)) == NONE)
      goto none;
    B->once[j] = s;
    for (s = 0; s < G->nnext; s++)     /* eff(a) */
      if (G->tprop[s] != NONE && est_latched(E, s, 1) &&
          est_value(E, G->next[s].prop) == V1) {
        GROW(ctx, B->eff, effcap, neff);
        B->eff[neff++] = s;
      }
    B->eff_lo[j + 1] = neff;
    if ((j & 15) == 15)
      ctx_poll(ctx);
  }
  /* the conflicts */
  B->rw = (nm + 31) / 32;
  B->adj = ctx_alloc(ctx, ((size_t)nm * B->rw + 1) * sizeof *B->adj);
  B->self = ctx_alloc(ctx, nm + 1);
  for (i = 0; i < nm; i++) {
    int c;
    if (B->eff_lo[i] == B->eff_lo[i + 1])
      continue;                /* eff(a) empty: in no conflict */
    if ((c = conflict(B, E, i, i)) != 0) {
      B->self[i] = 1;
      B->ends |= c == 1;
      continue;
    }
    for (j = i + 1; j < nm; j++)
      if (B->eff_lo[j] < B->eff_lo[j + 1] && (c = conflict(B, E, i, j))) {
        set_bit(B->adj + (size_t)i * B->rw, j);
        set_bit(B->adj + (size_t)j * B->rw, i);
        B->ends |= c == 1;
      }
    ctx_poll(ctx);
  }
  est_unfix(E);
  two_sides(ctx, B);
  scratch(ctx, B);
  if (moves_to_end(B, E, start) <= (uint32_t)B->ends)
    goto none;                 /* the clock says nothing from the start (a
                                  fluent that never changes is a clock) */
  ctx_free(ctx, auton);
  ctx_free(ctx, does);
  ctx_free(ctx, bh_lo);
  ctx_free(ctx, bh);
  return B;
none:
  est_unfix(E);
  ctx_free(ctx, auton);
  ctx_free(ctx, does);
  ctx_free(ctx, bh_lo);
  ctx_free(ctx, bh);
  bud_free(ctx, B);
  return NULL;
}

/* A copy for another thread: the analysis shared, the scratch its own. */
bud_t *bud_copy(gdl_ctx *ctx, const bud_t *B)
{
  bud_t *C;
  if (!B)
    return NULL;
  C = ctx_alloc(ctx, sizeof *C);
  *C = *B;
  scratch(ctx, C);
  return C;
}

void bud_copy_free(gdl_ctx *ctx, bud_t *C)
{
  if (!C)
    return;
  scratch_free(ctx, C);
  ctx_free(ctx, C);
}

/* ---- the test of a state ---------------------------------------------- */

/* A new run of evaluation with the clock fixed to its value in B->cur. */
static void fix_clock(bud_t *B, est_t *E)
{
  const ground_t *G = B->G;
  uint32_t i;
  est_unfix(E);
  for (i = 0; i < B->ncl; i++)
    est_fix(E, G->tprop[B->cl[i]], bit(B->cur, i));
  est_run(E);
}

/* In that run: whether the clock allows the game to end with goal 100. */
static int may_end(est_t *E)
{
  return est_value(E, est_terminal(E)) != V0 &&
         est_value(E, est_goal(E)) != V0;
}

/* In that run: the clock's value after one more move, into B->cur; 0
 * where one of its fluents is unknown. */
static int advance(bud_t *B, est_t *E)
{
  const ground_t *G = B->G;
  uint32_t i;
  memset(B->nxt, 0, B->cw * sizeof *B->nxt);
  for (i = 0; i < B->ncl; i++) {
    int v = B->cl[i] < G->nnext ? est_value(E, G->next[B->cl[i]].prop) : V0;
    if (v == VU)
      return 0;
    if (v == V1)
      set_bit(B->nxt, i);
  }
  memcpy(B->cur, B->nxt, B->cw * sizeof *B->cur);
  return 1;
}

static uint32_t memo_hash(const bud_t *B, const uint32_t *c)
{
  uint32_t h = 0, i;
  for (i = 0; i < B->cw; i++)
    h = (h ^ c[i]) * 0x9e3779b1u;
  return h;
}

/* t for the clock of state w (see above): 0 where the game may end in w,
 * or nothing can be said (a value of the clock unknown); B->lim where it
 * cannot end within B->lim - 1 moves. */
static uint32_t moves_to_end(bud_t *B, est_t *E, const uint32_t *w)
{
  uint32_t i, t, h;
  int keep;
  memset(B->cur, 0, B->cw * sizeof *B->cur);
  for (i = 0; i < B->ncl; i++)
    if (bit(w, B->cl[i]))
      set_bit(B->cur, i);
  h = memo_hash(B, B->cur) & (MEMO_CAP - 1);
  for (; B->mval[h] != NONE; h = (h + 1) & (MEMO_CAP - 1))
    if (memcmp(B->mkey + (size_t)h * B->cw, B->cur,
               B->cw * sizeof *B->cur) == 0)
      return B->mval[h];
  keep = B->nmemo < MEMO_CAP / 2;   /* (so an empty place is always met) */
  if (keep)
    memcpy(B->mkey + (size_t)h * B->cw, B->cur, B->cw * sizeof *B->cur);
  for (t = 0;; t++) {
    fix_clock(B, E);
    if (may_end(E) || t == B->lim)
      break;
    if (!advance(B, E)) {
      t = 0;
      break;
    }
  }
  est_unfix(E);
  if (keep) {
    B->mval[h] = t;
    B->nmemo++;
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
    uint32_t x = row[k] & B->left[k];
    while (x) {
      v = k * 32 + (uint32_t)__builtin_ctz(x);
      x &= x - 1;
      if (B->mark[v] == B->now)
        continue;
      B->mark[v] = B->now;
      if (B->mate[v] == NONE || augment(B, B->mate[v])) {
        B->mate[v] = u;
        return 1;
      }
    }
  }
  return 0;
}

int bud_dead(bud_t *B, est_t *E, const uint32_t *w)
{
  uint32_t t = moves_to_end(B, E, w), k, i, j, n = 0, cliques = 0, m = 0;
  if (t == 0)
    return 0;
  k = B->ends ? t - 1 : t;
  if (k == 0)
    return 0;
  /* the moves made (eff(a) all true) ban those they conflict with */
  memset(B->ban, 0, B->rw * sizeof *B->ban);
  for (i = 0; i < B->nm; i++) {
    uint32_t lo = B->eff_lo[i], hi = B->eff_lo[i + 1];
    for (j = lo; j < hi && bit(w, B->eff[j]); j++)
      ;
    if (lo < hi && j == hi)
      for (j = 0; j < B->rw; j++)
        B->ban[j] |= B->adj[(size_t)i * B->rw + j];
  }
  memset(B->left, 0, B->rw * sizeof *B->left);
  for (i = 0; i < B->nm; i++)
    if (bit(w, B->once[i]) && !B->self[i] && !bit(B->ban, i)) {
      set_bit(B->left, i);
      n++;
    }
  if (n < k)
    return 1;
  /* a maximum matching where the graph is bipartite */
  if (B->side) {
    for (i = 0; i < B->nm; i++)
      B->mate[i] = NONE;
    for (i = 0; i < B->nm && n - m >= k; i++)
      if (bit(B->left, i) && B->side[i] == 0) {
        if (++B->now == 0) {
          memset(B->mark, 0, B->nm * sizeof *B->mark);
          B->now = 1;
        }
        m += (uint32_t)augment(B, i);
      }
    if (n - m < k)
      return 1;
  }
  /* a cover by cliques, greedy, in the moves' order */
  for (i = 0; i < B->nm && cliques < k; i++) {
    if (!bit(B->left, i))
      continue;
    B->left[i >> 5] &= ~(1u << (i & 31));
    cliques++;
    for (j = 0; j < B->rw; j++)
      B->common[j] = B->adj[(size_t)i * B->rw + j] & B->left[j];
    for (j = 0; j < B->rw; j++)
      while (B->common[j]) {
        uint32_t u = j * 32 + (uint32_t)__builtin_ctz(B->common[j]), x;
        B->left[u >> 5] &= ~(1u << (u & 31));
        for (x = 0; x < B->rw; x++)
          B->common[x] &= B->adj[(size_t)u * B->rw + x];
      }
  }
  return cliques < k;
}
