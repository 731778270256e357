/*
 * patterns.c - the pattern databases of the groups summed (groups.c): the
 * groups cut into patterns, each pattern's abstract game asked of the
 * rules (what one move may do to a group while the others hold a value),
 * and solved by pdb.c.  doc/solving.md ("Pattern databases").
 */
#include <string.h>

#include "analysis/groups_int.h"

/* The KIF text of fluent slot s (one a rule reads with `true`: a
 * group's), from ctx_alloc. */
static char *slot_text(gdl_ctx *ctx, const ground_t *G, uint32_t s)
{
  gdl_term f = TARG(ctx, G->atom[G->tprop[s]], 0);
  size_t n = gdl_term_write(ctx, f, NULL, 0);
  char *p = ctx_alloc(ctx, n + 1);
  gdl_term_write(ctx, f, p, n + 1);
  return p;
}

/* Group g of D: its candidate, and its edges (a row per value). */
static uint32_t cand_of(const build_t *b, const groups_t *D, uint32_t g)
{
  return g < D->ng ? b->use[b->duse[g]] : b->fc;
}

static const uint8_t *edges_of(const build_t *b, const groups_t *D,
                               uint32_t g)
{
  return g < D->ng ? b->edge[b->duse[g]] : b->fe;
}

/* Whether one move may take candidate cg from value i to u while
 * candidate ch goes from value v to w (w == v: keeps it). */
static int moves_with(build_t *b, uint32_t cg, uint32_t i, uint32_t u,
                      uint32_t ch, uint32_t v, uint32_t w)
{
  grp_add_value(b, cg, i);
  grp_add_value(b, ch, v);
  if (!grp_add_next(b, cg, u) || !grp_add_next(b, ch, w)) {
    b->nlit = 0;
    return 0;
  }
  return grp_can_hold(b);
}

/* The masks of a move of the pattern's a-th group (candidate cg) from
 * value i to u: per other group but the free one (f), its values that
 * allow it; 1 where some are held back, -1 where one group allows none
 * (no such move). */
static int masks(build_t *b, const groups_t *D, const uint32_t *pg, uint32_t k, uint32_t a, uint32_t f,
                 uint32_t cg, uint32_t i, uint32_t u, const uint32_t *nv,
                 uint64_t *mask)
{
  uint32_t c, v;
  int restricted = 0;
  for (c = 0; c < k; c++) {
    uint32_t h = pg[c], nh = D->lo[h + 1] - D->lo[h] + 1;
    const uint32_t *ch = D->cm + D->lo[h] + h;
    mask[c] = ~0ull;
    if (c == a || c == f)
      continue;
    mask[c] = 0;
    for (v = 0; v < nh; v++)
      if (ch[v] != NONE &&
          moves_with(b, cg, i, u, cand_of(b, D, h), v, v))
        mask[c] |= 1ull << ch[v];
    if (!mask[c])
      return -1;
    if (mask[c] != (nv[c] < 64 ? (1ull << nv[c]) - 1 : ~0ull))
      restricted = 1;
  }
  return restricted;
}

/* Pattern p of D (groups pat_g[pat_lo[p] ..)) as an abstract game: its goal values, its edges and
 * what each allows of the others; solved, or NULL where it does not fit
 * `most` placements or the time, or (*useless set) where no group holds
 * back another's moves.  The free group (groups.c), last where
 * a pattern has it, moves with the others' moves where a real move may
 * take both, and on its own for nothing. */
static pdb_t *pattern_db(build_t *b, groups_t *D, uint32_t p,
                         uint64_t most, double until,
                         int *useless)
{
  gdl_ctx *ctx = b->ctx;
  uint32_t k = D->pat_lo[p + 1] - D->pat_lo[p], *pg = D->pat_g + D->pat_lo[p];
  uint32_t nv[64] = { 0 }, a, i, u, v, w, f = NONE, nf = 0, cf = NONE;
  const uint32_t *fm = NULL;
  const uint8_t *fe = NULL;
  uint64_t mask[64];
  int restricted = 0;
  pdb_t *T;
  for (a = 0; a < k; a++) {
    uint32_t g = pg[a], n = D->lo[g + 1] - D->lo[g] + 1;
    for (i = 0; i < n; i++)
      nv[a] += D->cm[D->lo[g] + g + i] != NONE;
  }
  if (!(T = pdb_open(ctx, k, nv, most)))
    return NULL;
  if (pg[k - 1] == D->ng) {    /* the free group */
    f = k - 1;
    nf = D->lo[D->ng + 1] - D->lo[D->ng] + 1;
    fm = D->cm + D->lo[D->ng] + D->ng;
    fe = b->fe;
    cf = b->fc;
    pdb_free_group(T, f);
  }
  for (a = 0; a < k; a++) {
    uint32_t g = pg[a], n = D->lo[g + 1] - D->lo[g] + 1;
    uint32_t cg = cand_of(b, D, g);
    const uint32_t *cm = D->cm + D->lo[g] + g;
    const uint8_t *e = edges_of(b, D, g);
    for (i = 0; i < n; i++)
      if (cm[i] != NONE && D->dist[D->lo[g] + g + i] == 0)
        pdb_goal(T, a, cm[i]);
    for (i = 0; i < n; i++)
      for (u = 0; u < n; u++) {
        if (!e[i * n + u] || cm[i] == NONE || cm[u] == NONE)
          continue;
        int r = masks(b, D, pg, k, a, f, cg, i, u, nv, mask);
        if (r < 0)
          continue;
        restricted |= r;
        if (f == NONE || a == f) {
          pdb_edge(ctx, T, a, cm[i], cm[u], mask);
          continue;
        }
        mask[f] = 0;           /* the free group as it is, or moved */
        for (v = 0; v < nf; v++)
          if (fm[v] != NONE && moves_with(b, cg, i, u, cf, v, v))
            mask[f] |= 1ull << fm[v];
        if (mask[f])
          pdb_edge(ctx, T, a, cm[i], cm[u], mask);
        for (v = 0; v < nf; v++)
          for (w = 0; w < nf; w++)
            if (fe[v * nf + w] && fm[v] != NONE && fm[w] != NONE &&
                moves_with(b, cg, i, u, cf, v, w))
              pdb_co_edge(ctx, T, a, cm[i], cm[u], mask, f, fm[v], fm[w]);
      }
  }
  /* no move of one group held back by another's value (a move of the
   * free group going with one of a group, and then either may be
   * anywhere): the table would be the groups' distances summed, which
   * they are without it */
  if (!restricted) {
    *useless = 1;
    pdb_free(ctx, T);
    return NULL;
  }
  if (b->cache) {
    int cached = 0, done;
    char ***names = ctx_alloc(ctx, (k + 1) * sizeof *names);
    for (a = 0; a < k; a++) {  /* each value's fluent, "" for none */
      uint32_t g = pg[a], n = D->lo[g + 1] - D->lo[g] + 1;
      const uint32_t *cm = D->cm + D->lo[g] + g;
      names[a] = ctx_alloc(ctx, (nv[a] + 1) * sizeof **names);
      for (i = 0; i < n; i++)
        if (cm[i] != NONE)
          names[a][cm[i]] = i + 1 < n
                                ? slot_text(ctx, b->G, D->slot[D->lo[g] + i])
                                : ctx_alloc(ctx, 1);
    }
    done = pdb_cache_solve(ctx, T, until, b->cache,
                           (const char *const *const *)names, &cached,
                           D->cache_why, sizeof D->cache_why);
    for (a = 0; a < k; a++) {
      for (i = 0; i < nv[a]; i++)
        ctx_free(ctx, names[a][i]);
      ctx_free(ctx, names[a]);
    }
    ctx_free(ctx, names);
    if (!done) {
      pdb_free(ctx, T);
      return NULL;
    }
    D->ncached += cached;
  } else if (!pdb_solve(ctx, T, until)) {
    pdb_free(ctx, T);
    return NULL;
  }
  return T;
}

/* Whether the goal text x (NULL: none, last) comes before y. */
static int text_before(const char *x, const char *y)
{
  return x && (!y || strcmp(x, y) < 0);
}

/* D's groups in patterns: in the order of their goal values' texts (so
 * that groups whose goals lie together share one; the texts, not the
 * slots, whose numbers follow the order of the description's terms, so
 * that two starts of one puzzle get the same patterns, and share their
 * tables through pdb_cache.c), each pattern as many
 * as fit `most` placements; each of two groups or more gets a database.
 * A pattern whose questions pass the work is built with what was
 * answered: unsure answers are "can", which only lowers its entries. */
static void patterns(build_t *b, groups_t *D, uint64_t most)
{
  gdl_ctx *ctx = b->ctx;
  uint32_t ng = D->ng, *ord, g, i, j, v, n = 0, np = 0;
  int useless = 0;
  char **key;
  uint64_t prod, pf = 1;
  double until = ctx->deadline > 0
                     ? ctx_clock() + (ctx->deadline - ctx_clock()) / 4
                     : 0;
  ord = ctx_alloc(ctx, (ng + 1) * sizeof *ord);
  key = ctx_alloc(ctx, (ng + 1) * sizeof *key);
  D->pat_lo = ctx_alloc(ctx, (ng + 2) * sizeof *D->pat_lo);
  D->pat_g = ctx_alloc(ctx, (2 * ng + 2) * sizeof *D->pat_g);
  D->pat = ctx_alloc(ctx, (ng + 1) * sizeof *D->pat);
  D->inpat = ctx_alloc(ctx, (ng + 1) * sizeof *D->inpat);
  for (g = 0; g < ng; g++) {
    uint32_t sz = D->lo[g + 1] - D->lo[g];
    key[g] = NULL;
    for (i = 0; i < sz; i++)
      if (D->dist[D->lo[g] + g + i] == 0) {
        char *t = slot_text(ctx, b->G, D->slot[D->lo[g] + i]);
        if (text_before(t, key[g])) {
          ctx_free(ctx, key[g]);
          key[g] = t;
        } else {
          ctx_free(ctx, t);
        }
      }
    for (j = n; j > 0 && text_before(key[g], key[ord[j - 1]]); j--)
      ord[j] = ord[j - 1];
    ord[j] = g;
    n++;
  }
  b->work0 = b->X->evals;
  b->steps = 0;
  b->over = 0;
  if (D->nfree)                /* the free group's values, in each */
    for (v = 0, pf = 0; v <= D->lo[ng + 1] - D->lo[ng]; v++)
      pf += D->cm[D->lo[ng] + ng + v] != NONE;
  prod = pf;
  for (i = 0, n = 0; i <= ng; i++) {
    uint32_t nv = 0;
    if (i < ng) {
      g = ord[i];
      for (v = 0; v <= D->lo[g + 1] - D->lo[g]; v++)
        nv += D->cm[D->lo[g] + g + v] != NONE;
      if (nv < 2 || nv > 64)
        continue;              /* summed on its own */
    }
    if (i == ng || prod * nv > most) {   /* the pattern so far closed */
      if (n >= 2) {
        if (D->nfree)
          D->pat_g[D->pat_lo[np] + n++] = ng;
        D->pat_lo[np + 1] = D->pat_lo[np] + n;
        if ((D->pat[np] = pattern_db(b, D, np, most, until,
                                     &useless)))
          np++;
        else if (useless)      /* the others alike: no more questions */
          break;
      }
      n = 0;
      prod = pf;
      if (i == ng)
        break;
    }
    D->pat_g[D->pat_lo[np] + n++] = g;
    prod *= nv;
  }
  D->npat = np;
  for (i = 0; i < np; i++)
    for (j = D->pat_lo[i]; j < D->pat_lo[i + 1]; j++)
      D->inpat[D->pat_g[j]] = 1;
  kern_unfix(b->X);
  for (g = 0; g < ng; g++)
    ctx_free(ctx, key[g]);
  ctx_free(ctx, ord);
  ctx_free(ctx, key);
}

groups_t *groups_build(gdl_ctx *ctx, est_t *E, const uint32_t *start,
                       uint64_t most, const char *cache)
{
  build_t b;
  groups_t *D = grp_build(&b, ctx, E, start, most > 0, cache);
  if (D && most > 0) {
    double t = ctx_clock();
    patterns(&b, D, most);
    D->seconds = ctx_clock() - t;
  }
  grp_build_free(&b);
  return D;
}

groups_t *groups_get(gdl_ctx *ctx, analyses_t *A, const uint32_t *start,
                     uint64_t most, const char *cache)
{
  if (!A->groups_tried) {
    /* (a search that throws puts its own deadline back) */
    double d = ctx->deadline, t = ctx_clock();
    est_t *E = est_get(ctx, A);
    if (d > 0 && (A->deadline == 0 || A->deadline > d))
      ctx->deadline = A->deadline;     /* the solve's, or none */
    A->groups = groups_build(ctx, E, start, most, cache);
    A->groups_tried = 1;
    if (d > 0) {               /* the search's share starts again after */
      double late = d + (ctx_clock() - t);
      ctx->deadline = A->deadline > 0 && late > A->deadline ? A->deadline
                                                            : late;
      A->grace = ctx->deadline - d;
    }
  }
  return A->groups;
}
