/*
 * pdb.c - pattern databases: the distances to the goal of every
 * placement of a few groups of fluents (groups.c), found by a backward
 * breadth-first search in the abstract game, one byte a placement.
 *
 * Invariant: the abstract game has a state per placement (a value of
 * each group of the pattern, numbered in mixed radix: a perfect hash),
 * and a move per edge of a group (value i to value u) allowed where each
 * other group of the pattern has a value the edge's mask allows; groups.c
 * gives an edge and a mask only where some real move may do it (its
 * questions answer "can" where unsure), so every real move that changes
 * the pattern is an abstract move, and a real plan projects onto an
 * abstract one no longer than the real moves that change the pattern.
 * A placement's entry is the fewest abstract moves to a goal placement
 * (every group at a value the goal allows); never more than the real
 * moves needed, and PDB_NONE where none reaches one (a dead end).
 * doc/solving.md ("Pattern databases") has the argument.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

#define PDB_NONE 0xff           /* an entry: no abstract plan */
#define MAXV 64                 /* values of a group: bits of a mask */
#define NONE UINT32_MAX
#define NONE64 UINT64_MAX

typedef struct {
  uint32_t from, to;            /* the group's values */
  uint64_t *mask;               /* per group of the pattern: its values
                                   allowed (the edge's own group and the
                                   one it moves with: all) */
  uint32_t co, cfrom, cto;      /* a group that moves with it (NONE: none),
                                   from cfrom to cto */
} pedge_t;

struct pdb {
  uint32_t ng;                  /* groups */
  uint32_t *nv;                 /* per group: values */
  uint64_t *radix;              /* per group: its place's weight */
  uint8_t **goal;               /* per group, per value: a goal value */
  uint8_t *free;                /* per group: 1 where its own edges cost
                                   nothing */
  pedge_t **edge;               /* per group: its edges */
  uint32_t *ne, *ecap;
  uint64_t n;                   /* placements */
  uint8_t *tab;                 /* per placement: its distance */
  uint32_t maxd;                /* the largest entry but PDB_NONE */
};

pdb_t *pdb_open(gdl_ctx *ctx, uint32_t ng, const uint32_t *nv,
                uint64_t most)
{
  pdb_t *T;
  uint32_t g;
  uint64_t n = 1;
  for (g = 0; g < ng; g++) {
    if (nv[g] == 0 || nv[g] > MAXV || n > most / nv[g])
      return NULL;
    n *= nv[g];
  }
  T = ctx_alloc(ctx, sizeof *T);
  T->ng = ng;
  T->n = n;
  T->nv = ctx_alloc(ctx, (ng + 1) * sizeof *T->nv);
  T->radix = ctx_alloc(ctx, (ng + 1) * sizeof *T->radix);
  T->goal = ctx_alloc(ctx, (ng + 1) * sizeof *T->goal);
  T->edge = ctx_alloc(ctx, (ng + 1) * sizeof *T->edge);
  T->ne = ctx_alloc(ctx, (ng + 1) * sizeof *T->ne);
  T->ecap = ctx_alloc(ctx, (ng + 1) * sizeof *T->ecap);
  T->free = ctx_alloc(ctx, ng + 1);
  for (g = ng, n = 1; g-- > 0;) {
    T->nv[g] = nv[g];
    T->radix[g] = n;
    n *= nv[g];
    T->goal[g] = ctx_alloc(ctx, nv[g] + 1);
  }
  return T;
}

void pdb_goal(pdb_t *T, uint32_t g, uint32_t v)
{
  T->goal[g][v] = 1;
}

void pdb_free_group(pdb_t *T, uint32_t g)
{
  T->free[g] = 1;
}

void pdb_co_edge(gdl_ctx *ctx, pdb_t *T, uint32_t g, uint32_t from,
                 uint32_t to, const uint64_t *mask, uint32_t co,
                 uint32_t cfrom, uint32_t cto)
{
  pedge_t *e;
  GROW(ctx, T->edge[g], T->ecap[g], T->ne[g]);
  e = &T->edge[g][T->ne[g]++];
  e->from = from;
  e->to = to;
  e->co = co;
  e->cfrom = cfrom;
  e->cto = cto;
  e->mask = ctx_alloc(ctx, (T->ng + 1) * sizeof *e->mask);
  COPY(e->mask, mask, T->ng * sizeof *mask);
  if (co != NONE)
    e->mask[co] = ~0ull;
}

void pdb_edge(gdl_ctx *ctx, pdb_t *T, uint32_t g, uint32_t from, uint32_t to,
              const uint64_t *mask)
{
  pdb_co_edge(ctx, T, g, from, to, mask, NONE, 0, 0);
}

/* Placement x's values into v. */
static void decode(const pdb_t *T, uint64_t x, uint32_t *v)
{
  uint32_t g;
  for (g = 0; g < T->ng; g++) {
    v[g] = (uint32_t)(x / T->radix[g]);
    x %= T->radix[g];
  }
}

/* Group g's edges, by the value they go to: into[at[g][u] .. at[g][u + 1]). */
static void edges_by_target(gdl_ctx *ctx, const pdb_t *T, uint32_t g,
                            uint32_t *at, const pedge_t **into)
{
  uint32_t i, u, *k = ctx_alloc(ctx, (T->nv[g] + 1) * sizeof *k);
  for (i = 0; i < T->ne[g]; i++)
    at[T->edge[g][i].to + 1]++;
  for (u = 0; u < T->nv[g]; u++)
    at[u + 1] += at[u];
  COPY(k, at, T->nv[g] * sizeof *k);
  for (i = 0; i < T->ne[g]; i++)
    into[k[T->edge[g][i].to]++] = &T->edge[g][i];
  ctx_free(ctx, k);
}

/* Placement y's predecessor by edge e of group g (y's values v), or
 * NONE where the edge cannot lead to y. */
static uint64_t before(const pdb_t *T, uint32_t g, const pedge_t *e,
                       uint64_t y, const uint32_t *v)
{
  uint32_t h;
  for (h = 0; h < T->ng && (e->mask[h] >> v[h] & 1); h++)
    ;
  if (h < T->ng || (e->co != NONE && v[e->co] != e->cto))
    return NONE64;
  y += ((uint64_t)e->from - e->to) * T->radix[g];
  if (e->co != NONE)
    y += ((uint64_t)e->cfrom - e->cto) * T->radix[e->co];
  return y;
}

int pdb_solve(gdl_ctx *ctx, pdb_t *T, double until)
{
  uint32_t *cur, *nxt, *sw, v[MAXV], g, i, lv, *at[MAXV];
  const pedge_t **into[MAXV];
  uint64_t x, ncur = 0, nnxt, head;
  int done = 1;
  if (T->ng > MAXV || T->n > UINT32_MAX)
    return 0;
  for (g = 0; g < T->ng; g++) {
    at[g] = ctx_alloc(ctx, (T->nv[g] + 2) * sizeof **at);
    into[g] = ctx_alloc(ctx, (T->ne[g] + 1) * sizeof **into);
    edges_by_target(ctx, T, g, at[g], into[g]);
  }
  T->tab = ctx_alloc(ctx, T->n);
  memset(T->tab, PDB_NONE, T->n);
  cur = ctx_alloc(ctx, T->n * sizeof *cur);
  nxt = ctx_alloc(ctx, T->n * sizeof *nxt);
  for (x = 0; x < T->n; x++) {  /* the goal placements */
    decode(T, x, v);
    for (g = 0; g < T->ng && T->goal[g][v[g]]; g++)
      ;
    if (g == T->ng) {
      T->tab[x] = 0;
      cur[ncur++] = (uint32_t)x;
    }
  }
  /* backwards, a level at a time: a placement one move before one of
   * level lv; a move of group g from `from` to `to` (and of the group
   * that moves with it), allowed by the others' values (which it leaves
   * as they are).  A free group's move costs nothing: its placement is
   * of level lv too, and is taken in this level (a placement on the
   * next level's list that comes to lv is passed over there). */
  for (lv = 0; ncur > 0 && done; lv++) {
    if (lv + 1 >= PDB_NONE)
      break;
    for (head = 0, nnxt = 0; head < ncur; head++) {
      uint64_t y = cur[head];
      if ((head & 0xffff) == 0 && until > 0 && ctx_clock() > until) {
        done = 0;
        break;
      }
      if (T->tab[y] != lv)
        continue;
      decode(T, y, v);
      for (g = 0; g < T->ng; g++)
        for (i = at[g][v[g]]; i < at[g][v[g] + 1]; i++) {
          uint64_t p = before(T, g, into[g][i], y, v);
          if (p == NONE64)
            continue;
          if (T->free[g]) {
            if (T->tab[p] == PDB_NONE || T->tab[p] > lv) {
              T->tab[p] = (uint8_t)lv;
              cur[ncur++] = (uint32_t)p;
            }
          } else if (T->tab[p] == PDB_NONE) {
            T->tab[p] = (uint8_t)(lv + 1);
            T->maxd = lv + 1;
            nxt[nnxt++] = (uint32_t)p;
          }
        }
    }
    sw = cur;
    cur = nxt;
    nxt = sw;
    ncur = nnxt;
  }
  ctx_free(ctx, cur);
  ctx_free(ctx, nxt);
  for (g = 0; g < T->ng; g++) {
    ctx_free(ctx, at[g]);
    ctx_free(ctx, into[g]);
  }
  if (!done) {
    ctx_free(ctx, T->tab);
    T->tab = NULL;
  }
  return done;
}

uint32_t pdb_value(const pdb_t *T, const uint32_t *v)
{
  uint64_t x = 0;
  uint32_t g;
  for (g = 0; g < T->ng; g++)
    x += v[g] * T->radix[g];
  return T->tab[x] == PDB_NONE ? EST_DEAD : T->tab[x];
}

/* Appends the n low bytes of x, least significant first. */
static size_t put(uint8_t *out, size_t at, uint64_t x, unsigned n)
{
  unsigned i;
  for (i = 0; i < n; i++)
    if (out)
      out[at + i] = (uint8_t)(x >> (8 * i));
  return at + n;
}

static int by_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Mask m of group h's values (bits) in the numbering vpos[h]. */
static uint64_t relabel_mask(const pdb_t *T, uint32_t *const *vpos,
                             uint32_t h, uint64_t m)
{
  uint64_t r = 0;
  uint32_t v;
  for (v = 0; v < T->nv[h]; v++)
    if (m >> v & 1)
      r |= 1ull << vpos[h][v];
  return r;
}

/* Edge e of group g's place in the order of the key: by its values, and
 * those of the group that moves with it, in the numbering vpos. */
static uint32_t edge_rank(uint32_t g, uint32_t *const *vpos,
                          const pedge_t *e)
{
  uint32_t r = vpos[g][e->from] * MAXV + vpos[g][e->to];
  r = r * (MAXV + 1) + (e->co == NONE ? 0 : 1 + vpos[e->co][e->cfrom]);
  return r * MAXV + (e->co == NONE ? 0 : vpos[e->co][e->cto]);
}

/* The abstract game in the numbering given (group g is the gpos[g]-th,
 * its value v the vpos[g][v]-th), as bytes: the groups, each one's
 * values, its goal values (a byte each), its edges sorted by their
 * values (from, to, and the mask of each group); `out` NULL: only the
 * length.  Masks hold only bits of values (pdb_solve reads no other). */
static size_t key_bytes(gdl_ctx *ctx, const pdb_t *T, const uint32_t *gpos,
                        uint32_t *const *vpos, uint8_t *out)
{
  size_t at = 0;
  uint32_t c, g, v, i, h, inv[MAXV], vinv[MAXV];
  for (g = 0; g < T->ng; g++)
    inv[gpos[g]] = g;
  at = put(out, at, T->ng, 4);
  for (c = 0; c < T->ng; c++) {
    uint64_t *ord;
    g = inv[c];
    ord = ctx_alloc(ctx, (T->ne[g] + 1) * sizeof *ord);
    for (v = 0; v < T->nv[g]; v++)
      vinv[vpos[g][v]] = v;
    at = put(out, at, T->nv[g], 4);
    at = put(out, at, T->free[g], 1);
    for (v = 0; v < T->nv[g]; v++)
      at = put(out, at, T->goal[g][vinv[v]], 1);
    at = put(out, at, T->ne[g], 4);
    for (i = 0; i < T->ne[g]; i++)
      ord[i] = (uint64_t)edge_rank(g, vpos, &T->edge[g][i]) << 32 | i;
    qsort(ord, T->ne[g], sizeof *ord, by_u64);
    for (i = 0; i < T->ne[g]; i++) {
      const pedge_t *e = &T->edge[g][(uint32_t)ord[i]];
      at = put(out, at, vpos[g][e->from], 4);
      at = put(out, at, vpos[g][e->to], 4);
      at = put(out, at, e->co == NONE ? NONE : gpos[e->co], 4);
      if (e->co != NONE) {
        at = put(out, at, vpos[e->co][e->cfrom], 4);
        at = put(out, at, vpos[e->co][e->cto], 4);
      }
      for (h = 0; h < T->ng; h++)
        at = put(out, at, relabel_mask(T, vpos, inv[h], e->mask[inv[h]]), 8);
    }
    ctx_free(ctx, ord);
  }
  return at;
}

uint8_t *pdb_key(gdl_ctx *ctx, const pdb_t *T, const uint32_t *gpos,
                 uint32_t *const *vpos, size_t *len)
{
  uint8_t *k;
  *len = key_bytes(ctx, T, gpos, vpos, NULL);
  k = ctx_alloc(ctx, *len + 1);
  key_bytes(ctx, T, gpos, vpos, k);
  return k;
}

void pdb_relabel(const pdb_t *T, const uint32_t *gpos, uint32_t *const *vpos,
                 const uint8_t *src, uint8_t *dst, int to_new)
{
  uint64_t w[MAXV], r = 1, x, y = 0;
  uint32_t v[MAXV], g, c, inv[MAXV];
  for (g = 0; g < T->ng; g++)
    inv[gpos[g]] = g;
  for (c = T->ng; c-- > 0;) {  /* the new numbering's weights */
    w[inv[c]] = r;
    r *= T->nv[inv[c]];
  }
  for (g = 0; g < T->ng; g++) {
    v[g] = 0;
    y += vpos[g][0] * w[g];
  }
  for (x = 0; x < T->n; x++) { /* x's values v, counted up; y: the same */
    if (to_new)                /* placement in the new numbering */
      dst[y] = src[x];
    else
      dst[x] = src[y];
    for (g = T->ng; g-- > 0;) {
      y -= vpos[g][v[g]] * w[g];
      if (++v[g] < T->nv[g]) {
        y += vpos[g][v[g]] * w[g];
        break;
      }
      v[g] = 0;
      y += vpos[g][0] * w[g];
    }
  }
}

uint32_t pdb_groups(const pdb_t *T)
{
  return T->ng;
}

uint32_t pdb_values(const pdb_t *T, uint32_t g)
{
  return T->nv[g];
}

const uint8_t *pdb_table(const pdb_t *T)
{
  return T->tab;
}

void pdb_adopt(gdl_ctx *ctx, pdb_t *T, uint8_t *tab)
{
  uint64_t x;
  ctx_free(ctx, T->tab);
  T->tab = tab;
  T->maxd = 0;
  for (x = 0; x < T->n; x++)
    if (tab[x] != PDB_NONE && tab[x] > T->maxd)
      T->maxd = tab[x];
}

uint64_t pdb_size(const pdb_t *T)
{
  return T ? T->n : 0;
}

void pdb_free(gdl_ctx *ctx, pdb_t *T)
{
  uint32_t g, i;
  if (!T)
    return;
  for (g = 0; g < T->ng; g++) {
    for (i = 0; i < T->ne[g]; i++)
      ctx_free(ctx, T->edge[g][i].mask);
    ctx_free(ctx, T->edge[g]);
    ctx_free(ctx, T->goal[g]);
  }
  ctx_free(ctx, T->nv);
  ctx_free(ctx, T->radix);
  ctx_free(ctx, T->goal);
  ctx_free(ctx, T->edge);
  ctx_free(ctx, T->ne);
  ctx_free(ctx, T->ecap);
  ctx_free(ctx, T->free);
  ctx_free(ctx, T->tab);
  ctx_free(ctx, T);
}
