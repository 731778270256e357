/*
 * ground_batch.c - the grounded network evaluated for 64 states at once,
 * a bit of each proposition's word per state (its lane), for a search
 * that expands many states: breadth-first search a level at a time.
 *
 * One full pass over the rules costs the same for 64 lanes as for one:
 * a rule is the AND of its inputs' words (a negated input's word
 * inverted), a head the OR of its rules', in the evaluation order of
 * ground_prop.c's full pass (run), recursive groups until no word grows.
 * The states' bits come in as rows, one per lane, and are turned into
 * columns, one word per fluent slot, by 64 x 64 bit transposes; legal
 * moves and next states go out the same way.  A joint move is played in
 * every lane at once, each lane its own: the move phase runs once per
 * joint move number, lanes with fewer joint moves left out; or, with one
 * role, once per move, in the lanes where it is legal, running only what
 * the move changes (see "the move phase of one move"), whichever reads
 * fewer inputs (gbatch_expand).
 *
 * Nothing here changes the network: a batch keeps its words to itself,
 * so threads each with a batch of their own share one network.
 */
#include <stdlib.h>
#include <string.h>

#include "network/network.h"

#define NONE UINT32_MAX

/* Rules prule[lo, hi) of a move's pass, all of one stratum of the pass
 * (none reads another's head) and, but for gate NONE, all reading the
 * proposition gate: where it holds in none of the move's lanes, none of
 * them holds there, and the segment is skipped. */
struct seg {
  uint32_t gate, lo, hi;
  uint32_t cost;               /* its rules' inputs */
};

struct gbatch {
  const ground_t *G;
  uint32_t nroles;
  uint32_t words;              /* 32-bit words of a state */
  uint32_t nblk;               /* 64-slot blocks of a state */
  uint64_t *v;                 /* per proposition: its lanes that hold */
  uint64_t lanes;              /* the lanes set */
  uint32_t **does;             /* per role and legal entry: its `does`
                                  proposition, or NONE */
  long *goalv;                 /* per goal entry of role 0: its value */
  uint32_t *lc;                /* per lane and role: its legal entries */
  uint32_t *le;                /* per lane: the entries, role by role */
  uint32_t *lfrom, lsum;       /* per role: its first in a lane's le */
  uint64_t cfree;              /* inputs of the move phase's rules that
                                  run whatever is played */
  uint64_t *centry;            /* one role: per legal entry, the inputs
                                  of the rules of its move */
  uint64_t *col;               /* per fluent slot: the lanes that have it */
  uint32_t *nextp;             /* per `next` slot: its proposition */
  uint64_t *d;                 /* the lanes where a `next` slot changes */
  uint32_t *di;                /* ... which slot, for those that do */
  uint32_t *keep;              /* per word of a state: its `next` slots */
  /* one role, no recursive move group: per legal entry e, what a pass
   * of its move runs once a pass with no move has run (make_plans) */
  int plans;
  uint32_t *slo;               /* its segments seg[slo[e], slo[e + 1]) */
  struct seg *seg;
  uint32_t *prule;             /* the segments' rules */
  uint32_t *hlo, *hprop;       /* the propositions it makes again from
                                  nothing, hprop[hlo[e], hlo[e + 1]) */
  uint32_t *ran;               /* scratch: the segments a pass ran */
  uint64_t *vb;                /* per proposition of the move phase: its
                                  lanes in the pass with no move */
  uint32_t *nomove, nnomove;   /* the rules that pass runs: those that
                                  read no proposition that holds nowhere
                                  without a move, in evaluation order */
  uint64_t cnomove;            /* ... their inputs */
  const uint32_t *in[64];      /* the lanes' states */
  uint64_t cols[64];           /* scratch for a transpose */
};

/* One round of the transpose: the j x j blocks off the diagonal of each
 * 2j x 2j block swapped (m: the low j bits of each 2j), two words at a
 * time where j > 1 (GCC's and Clang's vector extension). */
typedef uint64_t pair_t __attribute__((vector_size(16)));

static inline void transpose_round(uint64_t a[64], unsigned j, uint64_t m)
{
  unsigned k, i;
  if (j == 1) {
    for (i = 0; i < 64; i += 2) {
      uint64_t t = ((a[i] >> 1) ^ a[i + 1]) & m;
      a[i] ^= t << 1;
      a[i + 1] ^= t;
    }
    return;
  }
  for (k = 0; k < 64; k += 2 * j)
    for (i = k; i < k + j; i += 2) {
      pair_t x, y, t, mm = {m, m};
      memcpy(&x, a + i, sizeof x);
      memcpy(&y, a + i + j, sizeof y);
      t = ((x >> j) ^ y) & mm;
      x ^= t << j;
      y ^= t;
      memcpy(a + i, &x, sizeof x);
      memcpy(a + i + j, &y, sizeof y);
    }
}

/* a[i] bit j becomes a[j] bit i; each round with its constants, which
 * the compiler unrolls. */
static void transpose64(uint64_t a[64])
{
  transpose_round(a, 32, 0x00000000ffffffffull);
  transpose_round(a, 16, 0x0000ffff0000ffffull);
  transpose_round(a, 8, 0x00ff00ff00ff00ffull);
  transpose_round(a, 4, 0x0f0f0f0f0f0f0f0full);
  transpose_round(a, 2, 0x3333333333333333ull);
  transpose_round(a, 1, 0x5555555555555555ull);
}

/* ---- the move phase of one move ---------------------------------------
 *
 * With one role, a pass per move runs the move phase with one `does`
 * proposition D set, in the lanes where the move is legal.  Most of the
 * phase does not depend on D: the frame rules (next(p) :- true(p),
 * not does(m)) of every other move give the same in every pass.  So the
 * phase runs once with no move, and a pass of D then runs only what D
 * changes, from those values:
 *   - a rule that needs another `does` than D holds nowhere in the pass
 *     (one role plays one move), as in the pass with no move;
 *   - a rule that reads what D changes, and reads (not negated) D or
 *     another proposition that holds nowhere without a move, held
 *     nowhere without the move: it only adds to its head;
 *   - any other rule that reads what D changes (D negated, say) may hold
 *     in fewer lanes than without the move: its head is made again from
 *     nothing, by all its rules that can hold in the pass;
 * the heads of those rules are what D changes, in turn.  In a
 * non-recursive phase the rules run once each, in evaluation order.  A
 * pass restores what it changed to the values of the pass with no move.
 *
 * Only the lanes where D is played matter in its pass (the others are
 * restored, and their next states not read).  So the pass's rules are
 * ordered by stratum and, within one, grouped into segments by an input
 * they share (say hole(2, 3), when D's rules are one per blank
 * position): a segment whose input holds in none of those lanes holds
 * there nowhere, and is skipped.  The pass with no move runs only the
 * rules that read no `does` (and nothing derived from one alone). */

static int is_does(const gdl_ctx *ctx, const ground_t *G, uint32_t p)
{
  const gdl_term a = G->atom[p];
  return G->phase[p] == P_MOVE && ctx->terms[a].kind == T_FN &&
         ctx->terms[a].sym == S_DOES && ctx->terms[a].arity == 2;
}

/* Whether rule r needs a `does` proposition other than d. */
static int needs_other(const ground_t *G, const uint8_t *isdoes, uint32_t r,
                       uint32_t d)
{
  uint32_t m;
  for (m = G->in_lo[r]; m < G->in_lo[r + 1]; m++)
    if (!(G->in[m] & 1) && isdoes[G->in[m] >> 1] && G->in[m] >> 1 != d)
      return 1;
  return 0;
}

/* Whether rule r reads a proposition that holds nowhere without a move
 * (zero[p] == 1). */
static int reads_zero(const ground_t *G, const uint8_t *zero, uint32_t r)
{
  uint32_t m;
  for (m = G->in_lo[r]; m < G->in_lo[r + 1]; m++)
    if (!(G->in[m] & 1) && zero[G->in[m] >> 1] == 1)
      return 1;
  return 0;
}

/* Per proposition p, the move phase's rules idx[lo[p], lo[p + 1]) that
 * read it (by_head 0) or derive it (1). */
static void index_rules(gdl_ctx *ctx, const ground_t *G, int by_head,
                        uint32_t **lo, uint32_t **idx)
{
  uint32_t np = G->nprops, g, i, r, k, *c;
  c = *lo = ctx_alloc(ctx, ((size_t)np + 2) * sizeof **lo);
  memset(c, 0, ((size_t)np + 2) * sizeof *c);
  for (i = 0; i < 2; i++) {
    for (g = 0; g < G->nphg[P_MOVE]; g++) {
      const group_t *gr = &G->groups[G->phg[P_MOVE][g]];
      for (r = gr->lo; r < gr->hi; r++) {
        if (by_head) {
          if (i)
            (*idx)[c[G->head[r] + 1]++] = r;
          else
            c[G->head[r] + 2]++;
          continue;
        }
        for (k = G->in_lo[r]; k < G->in_lo[r + 1]; k++)
          if (i)
            (*idx)[c[(G->in[k] >> 1) + 1]++] = r;
          else
            c[(G->in[k] >> 1) + 2]++;
      }
    }
    if (i == 0) {
      for (k = 2; k < np + 2; k++)
        c[k] += c[k - 1];
      *idx = ctx_alloc(ctx, ((size_t)c[np + 1] + 1) * sizeof **idx);
    }
  }
}

/* A rule of a move's pass, as segments are made of it. */
struct prule {
  uint32_t st, gate, pos, r;
};

static int cmp_prule(const void *a, const void *b)
{
  const struct prule *x = a, *y = b;
  if (x->st != y->st)
    return x->st < y->st ? -1 : 1;
  if (x->gate != y->gate)
    return x->gate < y->gate ? -1 : 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The rules pr[0, n) of move d's pass (in evaluation order) ordered by
 * stratum (one more than the highest of the pass's rules whose heads it
 * reads), then by gate: of the inputs a rule reads (not negated) other
 * than d, the one most of the pass's rules read, where two or more do.
 * st[] and cnt[] are zero per proposition, and are left so. */
static void gate_rules(const ground_t *G, uint32_t d, struct prule *pr,
                       uint32_t n, uint32_t *st, uint32_t *cnt)
{
  uint32_t x, k;
  for (x = 0; x < n; x++) {
    uint32_t r = pr[x].r, s = 0;
    for (k = G->in_lo[r]; k < G->in_lo[r + 1]; k++) {
      uint32_t p = G->in[k] >> 1;
      if (st[p] > s)
        s = st[p];
      if (!(G->in[k] & 1) && p != d)
        cnt[p]++;
    }
    pr[x].st = s + 1;
    if (st[G->head[r]] < s + 1)
      st[G->head[r]] = s + 1;
  }
  for (x = 0; x < n; x++) {
    uint32_t r = pr[x].r, best = 1;
    pr[x].gate = NONE;
    for (k = G->in_lo[r]; k < G->in_lo[r + 1]; k++) {
      uint32_t p = G->in[k] >> 1;
      if (!(G->in[k] & 1) && p != d && cnt[p] > best) {
        best = cnt[p];
        pr[x].gate = p;
      }
    }
  }
  for (x = 0; x < n; x++) {
    uint32_t r = pr[x].r;
    st[G->head[r]] = 0;
    for (k = G->in_lo[r]; k < G->in_lo[r + 1]; k++)
      cnt[G->in[k] >> 1] = 0;
  }
  qsort(pr, n, sizeof *pr, cmp_prule);
}

static void make_plans(gdl_ctx *ctx, gbatch_t *B)
{
  const ground_t *G = B->G;
  uint32_t np = G->nprops, ne = G->nlegal[0], g, i, e, n = 0, nr = 0, nh = 0;
  uint32_t *pos, *rlo, *rd, *hrlo, *hr, *hl, *st, *cnt, capr = 0, caph = 0;
  uint32_t ns = 0, caps = 0;
  struct prule *list;
  uint8_t *isdoes, *aff, *scratch, *in_plan, *zero;
  for (g = 0; g < G->nphg[P_MOVE]; g++)
    if (G->groups[G->phg[P_MOVE][g]].recursive)
      return;
  pos = ctx_alloc(ctx, ((size_t)G->nrules + 1) * sizeof *pos);
  for (g = 0; g < G->nphg[P_MOVE]; g++) {
    const group_t *gr = &G->groups[G->phg[P_MOVE][g]];
    uint32_t r;
    for (r = gr->lo; r < gr->hi; r++)
      pos[r] = n++;
  }
  index_rules(ctx, G, 0, &rlo, &rd);
  index_rules(ctx, G, 1, &hrlo, &hr);
  isdoes = ctx_alloc(ctx, (size_t)np + 1);
  aff = ctx_alloc(ctx, (size_t)np + 1);
  scratch = ctx_alloc(ctx, (size_t)np + 1);
  zero = ctx_alloc(ctx, (size_t)np + 1);
  in_plan = ctx_alloc(ctx, (size_t)G->nrules + 1);
  for (i = 0; i < np; i++) {
    isdoes[i] = (uint8_t)is_does(ctx, G, i);
    aff[i] = scratch[i] = 0;
    zero[i] = isdoes[i] ? 1 : 2;   /* 2: no rule of it seen yet */
  }
  /* zero[p]: p holds nowhere in the pass with no move (a `does`, or
   * each of its rules reads one such); rules come in evaluation order,
   * all of a head's before any that reads it */
  for (g = 0; g < G->nphg[P_MOVE]; g++) {
    const group_t *gr = &G->groups[G->phg[P_MOVE][g]];
    uint32_t r;
    for (r = gr->lo; r < gr->hi; r++) {
      uint8_t *z = &zero[G->head[r]];
      *z = (uint8_t)(*z != 0 && reads_zero(G, zero, r));
    }
  }
  for (i = 0; i < np; i++)
    zero[i] = zero[i] == 1;
  B->nomove = ctx_alloc(ctx, ((size_t)n + 1) * sizeof *B->nomove);
  for (g = 0; g < G->nphg[P_MOVE]; g++) {
    const group_t *gr = &G->groups[G->phg[P_MOVE][g]];
    uint32_t r;
    for (r = gr->lo; r < gr->hi; r++)
      if (!reads_zero(G, zero, r)) {
        B->nomove[B->nnomove++] = r;
        B->cnomove += G->in_lo[r + 1] - G->in_lo[r];
      }
  }
  memset(in_plan, 0, (size_t)G->nrules + 1);
  list = ctx_alloc(ctx, ((size_t)n + 1) * sizeof *list);
  hl = ctx_alloc(ctx, ((size_t)np + 1) * sizeof *hl);
  st = ctx_alloc(ctx, ((size_t)np + 1) * sizeof *st);
  cnt = ctx_alloc(ctx, ((size_t)np + 1) * sizeof *cnt);
  memset(st, 0, ((size_t)np + 1) * sizeof *st);
  memset(cnt, 0, ((size_t)np + 1) * sizeof *cnt);
  B->slo = ctx_alloc(ctx, ((size_t)ne + 1) * sizeof *B->slo);
  B->hlo = ctx_alloc(ctx, ((size_t)ne + 1) * sizeof *B->hlo);
  for (e = 0; e < ne; e++) {
    uint32_t d = B->does[0][e], nlist = 0, nhl = 0, k, x;
    B->slo[e] = ns;
    B->hlo[e] = nh;
    if (d == NONE)
      continue;
    /* what D changes, and the rules that change it */
    aff[d] = 1;
    hl[nhl++] = d;
    for (x = 0; x < nhl; x++)
      for (k = rlo[hl[x]]; k < rlo[hl[x] + 1]; k++) {
        uint32_t r = rd[k], h = G->head[r];
        if (in_plan[r] || needs_other(G, isdoes, r, d))
          continue;
        in_plan[r] = 1;
        list[nlist++].r = r;
        if (!reads_zero(G, zero, r))
          scratch[h] = 1;      /* it may have held without the move */
        if (!aff[h]) {
          aff[h] = 1;
          hl[nhl++] = h;
        }
      }
    /* a head made again from nothing: all its rules that can hold */
    for (x = 1; x < nhl; x++)
      for (k = hrlo[hl[x]]; scratch[hl[x]] && k < hrlo[hl[x] + 1]; k++) {
        uint32_t r = hr[k];
        if (!in_plan[r] && !needs_other(G, isdoes, r, d)) {
          in_plan[r] = 1;
          list[nlist++].r = r;
        }
      }
    for (x = 0; x < nlist; x++) {
      in_plan[list[x].r] = 0;
      list[x].pos = pos[list[x].r];
      list[x].st = list[x].gate = 0;
    }
    qsort(list, nlist, sizeof *list, cmp_prule);   /* evaluation order */
    if ((uint64_t)nr + nlist > 4 * (uint64_t)n + 4096) {
      ctx_free(ctx, B->prule);
      ctx_free(ctx, B->hprop);
      ctx_free(ctx, B->nomove);
      ctx_free(ctx, B->slo);
      ctx_free(ctx, B->seg);
      ctx_free(ctx, B->hlo);
      B->prule = B->hprop = B->slo = B->hlo = B->nomove = NULL;
      B->nnomove = 0;
      B->seg = NULL;
      break;                   /* too many: the whole phase each pass */
    }
    gate_rules(G, d, list, nlist, st, cnt);
    for (x = 0; x < nlist; x++) {
      uint32_t r = list[x].r;
      if (x == 0 || list[x].st != list[x - 1].st ||
          list[x].gate != list[x - 1].gate) {
        GROW(ctx, B->seg, caps, ns);
        B->seg[ns].gate = list[x].gate;
        B->seg[ns].cost = 0;
        B->seg[ns++].lo = nr;
      }
      GROW(ctx, B->prule, capr, nr);
      B->prule[nr++] = r;
      B->seg[ns - 1].hi = nr;
      B->seg[ns - 1].cost += G->in_lo[r + 1] - G->in_lo[r];
    }
    for (x = 0; x < nhl; x++) {
      if (scratch[hl[x]]) {
        GROW(ctx, B->hprop, caph, nh);
        B->hprop[nh++] = hl[x];
      }
      aff[hl[x]] = scratch[hl[x]] = 0;
    }
  }
  if (B->slo) {
    B->slo[ne] = ns;
    B->hlo[ne] = nh;
    B->ran = ctx_alloc(ctx, ((size_t)ns + 1) * sizeof *B->ran);
    B->vb = ctx_alloc(ctx, ((size_t)np + 1) * sizeof *B->vb);
    B->plans = 1;
  }
  ctx_free(ctx, pos);
  ctx_free(ctx, rlo);
  ctx_free(ctx, rd);
  ctx_free(ctx, hrlo);
  ctx_free(ctx, hr);
  ctx_free(ctx, isdoes);
  ctx_free(ctx, aff);
  ctx_free(ctx, scratch);
  ctx_free(ctx, zero);
  ctx_free(ctx, in_plan);
  ctx_free(ctx, list);
  ctx_free(ctx, hl);
  ctx_free(ctx, st);
  ctx_free(ctx, cnt);
}

gbatch_t *gbatch_new(gdl_ctx *ctx)
{
  const ground_t *G = ctx->ground;
  gbatch_t *B;
  uint32_t r, j;
  if (!GROUND(ctx) || !ground_state_words(ctx))
    return NULL;
  B = ctx_alloc(ctx, sizeof *B);
  B->G = G;
  B->nroles = (uint32_t)ctx->nroles;
  B->words = ground_state_words(ctx);
  B->nblk = B->words / 2;
  B->v = ctx_alloc(ctx, ((size_t)G->nprops + 1) * sizeof *B->v);
  B->does = ctx_alloc(ctx, (B->nroles + 1) * sizeof *B->does);
  for (r = 0; r < B->nroles; r++) {
    B->does[r] = ctx_alloc(ctx, ((size_t)G->nlegal[r] + 1) * sizeof **B->does);
    for (j = 0; j < G->nlegal[r]; j++)
      B->does[r][j] = G->lread[r].does[j];
  }
  B->lc = ctx_alloc(ctx, (size_t)64 * (B->nroles + 1) * sizeof *B->lc);
  B->lfrom = ctx_alloc(ctx, (B->nroles + 1) * sizeof *B->lfrom);
  for (r = 0; r < B->nroles; r++) {
    B->lfrom[r] = B->lsum;
    B->lsum += G->nlegal[r];
  }
  B->le = ctx_alloc(ctx, ((size_t)64 * B->lsum + 1) * sizeof *B->le);
  B->col = ctx_alloc(ctx, ((size_t)B->nblk * 64 + 1) * sizeof *B->col);
  B->d = ctx_alloc(ctx, ((size_t)G->nnext + 1) * sizeof *B->d);
  B->di = ctx_alloc(ctx, ((size_t)G->nnext + 1) * sizeof *B->di);
  B->nextp = ctx_alloc(ctx, ((size_t)G->nnext + 1) * sizeof *B->nextp);
  for (j = 0; j < G->nnext; j++)
    B->nextp[j] = G->next[j].prop;
  B->keep = ctx_alloc(ctx, ((size_t)B->words + 1) * sizeof *B->keep);
  for (j = 0; j < G->nnext; j++)
    B->keep[j / 32] |= (uint32_t)1 << (j & 31);
  /* what a pass of the move phase costs, in inputs read */
  B->centry = ctx_alloc(ctx, ((B->nroles ? G->nlegal[0] : 0) + 1) *
                                 sizeof *B->centry);
  for (j = 0; j < G->nphg[P_MOVE]; j++) {
    const group_t *gr = &G->groups[G->phg[P_MOVE][j]];
    uint32_t i, b;
    if (!gr->order) {
      B->cfree += G->in_lo[gr->hi] - G->in_lo[gr->lo];
      continue;
    }
    for (i = 0; i < gr->free; i++)
      B->cfree += G->in_lo[gr->order[i] + 1] - G->in_lo[gr->order[i]];
    for (b = 0; B->nroles == 1 && b < gr->nbuckets; b++) {
      uint64_t c = 0;
      for (i = gr->buckets[b].lo; i < gr->buckets[b].hi; i++)
        c += G->in_lo[gr->order[i] + 1] - G->in_lo[gr->order[i]];
      for (r = 0; r < G->nlegal[0]; r++)
        if (B->does[0][r] == gr->buckets[b].prop)
          B->centry[r] += c;
    }
  }
  if (B->nroles == 1)
    make_plans(ctx, B);
  if (B->nroles) {
    B->goalv = ctx_alloc(ctx, ((size_t)G->ngoal[0] + 1) * sizeof *B->goalv);
    for (j = 0; j < G->ngoal[0]; j++)
      B->goalv[j] = gdl_term_int(ctx, G->goal[0][j].term);
  }
  return B;
}

void gbatch_free(gdl_ctx *ctx, gbatch_t *B)
{
  uint32_t r;
  if (!B)
    return;
  for (r = 0; r < B->nroles; r++)
    ctx_free(ctx, B->does[r]);
  ctx_free(ctx, B->does);
  ctx_free(ctx, B->lc);
  ctx_free(ctx, B->le);
  ctx_free(ctx, B->lfrom);
  ctx_free(ctx, B->centry);
  ctx_free(ctx, B->col);
  ctx_free(ctx, B->d);
  ctx_free(ctx, B->di);
  ctx_free(ctx, B->nextp);
  ctx_free(ctx, B->keep);
  ctx_free(ctx, B->goalv);
  ctx_free(ctx, B->slo);
  ctx_free(ctx, B->seg);
  ctx_free(ctx, B->prule);
  ctx_free(ctx, B->nomove);
  ctx_free(ctx, B->hlo);
  ctx_free(ctx, B->hprop);
  ctx_free(ctx, B->ran);
  ctx_free(ctx, B->vb);
  ctx_free(ctx, B->v);
  ctx_free(ctx, B);
}

/* ---- a pass ----------------------------------------------------------- */

static inline uint64_t rule_lanes(const ground_t *G, const uint64_t *v,
                                  uint32_t r)
{
  const uint32_t *in = G->in + G->in_lo[r], *end = G->in + G->in_lo[r + 1];
  uint64_t w = ~(uint64_t)0;
  for (; in < end && w; in++)
    w &= v[*in >> 1] ^ ((uint64_t)0 - (*in & 1));
  return w;
}

/* Rules order[lo, hi) (lo..hi-1 without order); whether a head grew. */
static int run_lanes(const ground_t *G, uint64_t *v, const uint32_t *order,
                     uint32_t lo, uint32_t hi)
{
  uint32_t i;
  int grew = 0;
  for (i = lo; i < hi; i++) {
    uint32_t r = order ? order[i] : i, h = G->head[r];
    uint64_t w = rule_lanes(G, v, r) & ~v[h];
    if (w) {
      v[h] |= w;
      grew = 1;
    }
  }
  return grew;
}

/* The groups of a phase in evaluation order, as full_pass() in
 * ground_prop.c does: a group with buckets runs its free rules and the
 * buckets of the moves some lane plays. */
static void run_phase(const ground_t *G, uint64_t *v, int phase)
{
  uint32_t i, b;
  for (i = 0; i < G->nphg[phase]; i++) {
    const group_t *gr = &G->groups[G->phg[phase][i]];
    int grew;
    do {
      if (!gr->order) {
        grew = run_lanes(G, v, NULL, gr->lo, gr->hi);
        continue;
      }
      grew = run_lanes(G, v, gr->order, 0, gr->free);
      for (b = 0; b < gr->nbuckets; b++)
        if (v[gr->buckets[b].prop])
          grew |= run_lanes(G, v, gr->order, gr->buckets[b].lo,
                            gr->buckets[b].hi);
    } while (grew && gr->recursive);
  }
}

/* ---- states in, moves and states out ---------------------------------- */

void gbatch_states(gbatch_t *B, const uint32_t *const *w, uint32_t n)
{
  const ground_t *G = B->G;
  uint64_t *v = B->v, *a = B->cols;
  uint32_t blk, l, t, r, j;
  memset(v, 0, (size_t)G->nprops * sizeof *v);
  v[G->always] = ~(uint64_t)0;
  B->lanes = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
  for (blk = 0; blk < B->nblk; blk++) {
    for (l = 0; l < 64; l++) {
      uint64_t x = 0;
      if (l < n)
        memcpy(&x, w[l] + 2 * blk, sizeof x);
      a[l] = x;
    }
    transpose64(a);
    memcpy(B->col + blk * 64, a, sizeof B->cols);
    for (t = 0; t < 64 && blk * 64 + t < G->ntslots; t++) {
      uint32_t p = G->tprop[blk * 64 + t];
      if (p != NONE)
        v[p] = a[t];
    }
  }
  run_phase(G, v, P_STATE);
  /* the legal moves: each lane's entries, by the lanes of each entry
   * (few hold in a lane: no transpose) */
  memcpy(B->in, w, n * sizeof *w);
  memset(B->lc, 0, (size_t)n * B->nroles * sizeof *B->lc);
  for (r = 0; r < B->nroles; r++) {
    const out_t *o = G->legal[r];
    const uint32_t *gate = G->lgate[r];
    for (j = 0; j < G->nlegal[r]; j++) {
      uint64_t x = v[o[j].prop] & v[gate[j]] & B->lanes;
      for (; x; x &= x - 1) {
        uint32_t *c;
        l = (uint32_t)__builtin_ctzll(x);
        c = &B->lc[l * B->nroles + r];
        B->le[(size_t)l * B->lsum + B->lfrom[r] + (*c)++] = j;
      }
    }
  }
}

uint64_t gbatch_terminal(const gbatch_t *B)
{
  const ground_t *G = B->G;
  return G->terminal ? B->v[G->terminal - 1] & B->lanes : 0;
}

long gbatch_goal(const gbatch_t *B, uint32_t lane)
{
  const ground_t *G = B->G;
  long best = -1;
  uint32_t j;
  for (j = 0; B->nroles && j < G->ngoal[0]; j++)
    if ((B->v[G->goal[0][j].prop] >> lane & 1) && B->goalv[j] > best)
      best = B->goalv[j];
  return best;
}

uint64_t gbatch_joints(const gbatch_t *B, uint32_t lane)
{
  const uint32_t *c = B->lc + lane * B->nroles;
  uint64_t n = 1;
  uint32_t r;
  for (r = 0; r < B->nroles; r++) {
    if (c[r] == 0)
      return 0;
    n = n > UINT32_MAX / c[r] ? UINT32_MAX : n * c[r];
  }
  return n;
}

/* Joint move number j of lane l (the last role's moves vary fastest, each
 * role's in the order of its legal entries, as expand_successors()
 * counts them): per role, its legal entry. */
static void joint_entries(const gbatch_t *B, uint32_t l, uint64_t j,
                          uint32_t *e)
{
  const uint32_t *c = B->lc + l * B->nroles, *le = B->le + (size_t)l * B->lsum;
  uint32_t r;
  if (B->nroles == 1) {        /* no division */
    e[0] = le[j];
    return;
  }
  for (r = B->nroles; r-- > 0;) {
    e[r] = le[B->lfrom[r] + j % c[r]];
    j /= c[r];
  }
}

void gbatch_joint(const gbatch_t *B, uint32_t lane, uint64_t j,
                  gdl_term *moves)
{
  uint32_t e[64], r;
  joint_entries(B, lane, j, e);
  for (r = 0; r < B->nroles; r++)
    moves[r] = B->G->legal[r][e[r]].term;
}

/* The lanes' next states, once the move phase has run. */
static void write_next(gbatch_t *B, uint64_t lanes, uint32_t *const *out)
{
  const ground_t *G = B->G;
  uint64_t *v = B->v, *a = B->cols, x;
  uint32_t i, k, blk, t, nz;
  /* A next state is mostly its state (the frame): where few slots change,
   * each lane's state is copied and the changes flipped; else the slots
   * are turned into rows. */
  for (i = 0, nz = 0; i < G->nnext; i++) {   /* the slots that change */
    x = (v[B->nextp[i]] ^ B->col[i]) & lanes;
    B->d[nz] = x;
    B->di[nz] = i;
    nz += x != 0;
  }
  if (nz * 4 <= G->nnext * 3 + 4) {
    for (x = lanes; x; x &= x - 1) {
      uint32_t l = (uint32_t)__builtin_ctzll(x);
      for (i = 0; i < B->words; i += 2) {
        uint64_t w = load64(B->in[l] + i) & load64(B->keep + i);
        memcpy(out[l] + i, &w, sizeof w);
      }
    }
    for (k = 0; k < nz; k++)
      for (i = B->di[k], x = B->d[k]; x; x &= x - 1)
        out[__builtin_ctzll(x)][i / 32] ^= (uint32_t)1 << (i & 31);
    return;
  }
  for (blk = 0; blk < B->nblk; blk++) {
    for (t = 0; t < 64; t++) {
      i = blk * 64 + t;
      a[t] = i < G->nnext ? v[B->nextp[i]] : 0;
    }
    transpose64(a);
    for (x = lanes; x; x &= x - 1) {
      uint32_t l = (uint32_t)__builtin_ctzll(x);
      out[l][2 * blk] = (uint32_t)a[l];
      out[l][2 * blk + 1] = (uint32_t)(a[l] >> 32);
    }
  }
}

void gbatch_play(gbatch_t *B, const uint64_t *pick, uint64_t lanes,
                 uint32_t *const *out)
{
  const ground_t *G = B->G;
  uint64_t *v = B->v, x;
  uint32_t i, r, e[64];
  for (i = 0; i < G->nmoveprops; i++)
    v[G->moveprops[i]] = 0;
  for (x = lanes; x; x &= x - 1) {
    uint32_t l = (uint32_t)__builtin_ctzll(x);
    joint_entries(B, l, pick[l], e);
    for (r = 0; r < B->nroles; r++)
      if (B->does[r][e[r]] != NONE)
        v[B->does[r][e[r]]] |= (uint64_t)1 << l;
  }
  run_phase(G, v, P_MOVE);
  write_next(B, lanes, out);
}

/* What move e's pass in lanes `on` costs, in inputs read: its segments
 * but those whose gate holds in none of them (a gate the move phase
 * derives is taken to hold). */
static uint64_t plan_cost(const gbatch_t *B, uint32_t e, uint64_t on)
{
  uint64_t c = 0;
  uint32_t k;
  for (k = B->slo[e]; k < B->slo[e + 1]; k++) {
    const struct seg *sg = &B->seg[k];
    if (sg->gate == NONE || B->G->phase[sg->gate] == P_MOVE ||
        (B->v[sg->gate] & on))
      c += sg->cost;
  }
  return c;
}

/* Move e's pass in lanes `on`, once the pass with no move has run: its
 * segments whose gate holds in one of them, the next states, then what
 * the pass changed put back as the pass with no move left it. */
static void run_plan(gbatch_t *B, uint32_t e, uint64_t on,
                     uint32_t *const *out)
{
  const ground_t *G = B->G;
  uint64_t *v = B->v;
  uint32_t d = B->does[0][e], k, i, nran = 0;
  for (k = B->hlo[e]; k < B->hlo[e + 1]; k++)
    v[B->hprop[k]] = 0;
  if (d != NONE)
    v[d] = on;
  for (k = B->slo[e]; k < B->slo[e + 1]; k++) {
    const struct seg *sg = &B->seg[k];
    if (sg->gate == NONE || (v[sg->gate] & on)) {
      run_lanes(G, v, B->prule, sg->lo, sg->hi);
      B->ran[nran++] = k;
    }
  }
  write_next(B, on, out);
  for (k = B->hlo[e]; k < B->hlo[e + 1]; k++)
    v[B->hprop[k]] = B->vb[B->hprop[k]];
  for (k = 0; k < nran; k++) {
    const struct seg *sg = &B->seg[B->ran[k]];
    for (i = sg->lo; i < sg->hi; i++)
      v[G->head[B->prule[i]]] = B->vb[G->head[B->prule[i]]];
  }
  if (d != NONE)
    v[d] = 0;                  /* no move in the pass with none */
}

uint64_t gbatch_layout(uint64_t lanes, const uint64_t *j, uint64_t *off)
{
  uint64_t total = 0, x;
  for (x = lanes; x; x &= x - 1) {
    uint32_t l = (uint32_t)__builtin_ctzll(x);
    off[l] = total;
    total += j[l];
  }
  return total;
}

void gbatch_expand(gbatch_t *B, uint64_t lanes, const uint64_t *off,
                   uint32_t *buf)
{
  uint32_t *base[64];
  const ground_t *G = B->G;
  uint64_t *v = B->v, x, most = 0, j;
  uint32_t *out[64], n[64], e, i;
  uint64_t by_move = 0, by_number = B->cfree, active = 0;
  for (x = lanes; x; x &= x - 1)
    base[__builtin_ctzll(x)] = buf + off[__builtin_ctzll(x)] * B->words;
  if (B->nroles == 1) {
    /* a pass per move costs its rules and the free ones (with plans,
     * what its move changes, after one pass with no move); a pass per
     * joint move number costs the rules of every move some lane plays,
     * and the free ones, as many times as the most moves a lane has;
     * each pass reads every `next` slot */
    for (e = 0; e < G->nlegal[0]; e++) {
      uint64_t on = v[G->legal[0][e].prop] & v[G->lgate[0][e]] & lanes;
      if (on) {
        by_move += G->nnext + (B->plans ? plan_cost(B, e, on)
                                        : B->cfree + B->centry[e]);
        active += B->centry[e];
      }
    }
    if (B->plans)
      by_move += B->cnomove;   /* the pass with no move */
    for (x = lanes; x; x &= x - 1)
      if (B->lc[__builtin_ctzll(x)] > most)
        most = B->lc[__builtin_ctzll(x)];
    by_number = most * (G->nnext + B->cfree + active);
    most = 0;
  }
  if (B->nroles != 1 || by_number <= by_move) {  /* the m-th of each */
    uint64_t pick[64], nj[64];
    for (x = lanes; x; x &= x - 1) {
      uint32_t l = (uint32_t)__builtin_ctzll(x);
      if ((nj[l] = gbatch_joints(B, l)) > most)
        most = nj[l];
    }
    for (j = 0; j < most; j++) {
      uint64_t on = 0;
      for (x = lanes; x; x &= x - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(x);
        if (j < nj[l]) {
          on |= (uint64_t)1 << l;
          pick[l] = j;
          out[l] = base[l] + j * B->words;
        }
      }
      gbatch_play(B, pick, on, out);
    }
    return;
  }
  /* one role: a pass per move, in every lane where it is legal, so that
   * each pass runs the rules of one move; a lane's children come in the
   * order of its moves all the same */
  for (x = lanes; x; x &= x - 1)
    n[__builtin_ctzll(x)] = 0;
  if (B->plans) {              /* the pass with no move */
    for (i = 0; i < G->nmoveprops; i++)
      v[G->moveprops[i]] = 0;
    run_lanes(G, v, B->nomove, 0, B->nnomove);
    for (i = 0; i < G->nmoveprops; i++)
      B->vb[G->moveprops[i]] = v[G->moveprops[i]];
  }
  for (e = 0; e < G->nlegal[0]; e++) {
    uint64_t on = v[G->legal[0][e].prop] & v[G->lgate[0][e]] & lanes;
    if (!on)
      continue;
    for (x = on; x; x &= x - 1) {
      uint32_t l = (uint32_t)__builtin_ctzll(x);
      out[l] = base[l] + (uint64_t)n[l]++ * B->words;
    }
    if (!B->plans) {
      for (i = 0; i < G->nmoveprops; i++)
        v[G->moveprops[i]] = 0;
      if (B->does[0][e] != NONE)
        v[B->does[0][e]] = on;
      run_phase(G, v, P_MOVE);
      write_next(B, on, out);
      continue;
    }
    run_plan(B, e, on, out);
  }
}
