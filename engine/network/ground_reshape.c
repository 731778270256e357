/*
 * ground_reshape.c - the grounded engine's network as it is built: atoms
 * numbered as propositions, ground rules waiting in buffers, and the
 * passes that reshape the rules before they run: one move (ground_exclusive),
 * shared inputs, unrolling, gates, aliases and dead rules.  Each pass
 * says why where it is defined; ground.c calls them in order.
 */
#include <stdlib.h>
#include <string.h>

#include "network/network.h"

#define MAX_INPUTS (8u << 20)     /* 32 MB of inputs */

/* The byte of term t in (*m)[], grown (zeroed) to the terms there are. */
uint8_t *ground_term_byte(gdl_ctx *ctx, uint8_t **m, uint32_t *cap,
                          gdl_term t)
{
  if (t >= *cap) {
    uint32_t old = *cap, c = ctx->termcap > t ? ctx->termcap : t + 1;
    *m = ctx_realloc(ctx, *m, c);
    memset(*m + old, 0, c - old);
    *cap = c;
  }
  return &(*m)[t];
}

/* Whether term t is marked in (*m)[]; it is from now on. */
int ground_mark_term(gdl_ctx *ctx, uint8_t **m, uint32_t *cap, gdl_term t)
{
  uint8_t *b = ground_term_byte(ctx, m, cap, t);
  if (*b)
    return 1;
  *b = 1;
  return 0;
}

/* Term ids in increasing order (short lists). */
void ground_sort_ids(gdl_term *v, uint32_t n)
{
  uint32_t i, j;
  for (i = 1; i < n; i++) {
    gdl_term x = v[i];
    for (j = i; j > 0 && v[j - 1] > x; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

int ground_cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Whether proposition p is a `does` atom. */
uint32_t ground_prop_of(gdl_ctx *ctx, ground_t *G, gdl_term atom, int phase)
{
  uint32_t p;
  if (atom >= G->propofcap) {
    uint32_t old = G->propofcap, c = ctx->termcap > atom ? ctx->termcap
                                                          : atom + 1;
    G->propof = ctx_realloc(ctx, G->propof, c * sizeof *G->propof);
    memset(G->propof + old, 0, (c - old) * sizeof *G->propof);
    G->propofcap = c;
  }
  if (G->propof[atom]) {
    gdl_assert(G->atom[G->propof[atom] - 1] == atom);
    return G->propof[atom] - 1;
  }
  p = G->nprops;
  if (p >= G->propcap) {
    uint32_t c = G->propcap ? G->propcap * 2 : 1024;
    G->atom = ctx_realloc(ctx, G->atom, c * sizeof *G->atom);
    G->phase = ctx_realloc(ctx, G->phase, c);
    G->propcap = c;
  }
  G->atom[p] = atom;
  G->phase[p] = (uint8_t)phase;
  G->propof[atom] = ++G->nprops;
  return p;
}

void ground_buf_put(gdl_ctx *ctx, ground_t *G, int b, uint32_t x)
{
  if (G->nbuf[b] >= G->bufcap[b]) {
    if (G->nin + G->nbuf[b] > MAX_INPUTS)
      ctx_throw(ctx, GDL_ELIMIT, "the ground network would have more "
                "than %u inputs", MAX_INPUTS);
    GROW(ctx, G->buf[b], G->bufcap[b], G->nbuf[b]);
  }
  G->buf[b][G->nbuf[b]++] = x;
}

/* A component that recurses over relations often does not over atoms:
 * hanoi's (tower ?x ?h) reads (tower ?y ?h1) of a smaller height, so
 * its ground rules have an order in which each reads only atoms already
 * done.  Then the group is put in that order and is recursive no more:
 * one pass computes it, and incrementally its rules count like any. */
void ground_unroll(gdl_ctx *ctx, ground_t *G, group_t *g)
{
  uint32_t lo = g->lo, n = g->hi - lo, np = G->nprops, i, j, k, qn = 0;
  uint32_t *left = ctx_alloc(ctx, (np + 1) * sizeof *left);
  uint32_t *pend = ctx_alloc(ctx, (n + 1) * sizeof *pend);
  uint32_t *rd_lo = ctx_alloc(ctx, (np + 2) * sizeof *rd_lo);
  uint32_t *rd, *order = ctx_alloc(ctx, (n + 1) * sizeof *order);
  for (i = lo; i < g->hi; i++)
    left[G->head[i]]++;
  for (i = lo; i < g->hi; i++)
    for (j = G->in_lo[i]; j < G->in_lo[i + 1]; j++)
      if (left[G->in[j] >> 1]) {
        pend[i - lo]++;
        rd_lo[(G->in[j] >> 1) + 1]++;
      }
  for (i = 0; i < np; i++)
    rd_lo[i + 1] += rd_lo[i];
  rd = ctx_alloc(ctx, (rd_lo[np] + 1) * sizeof *rd);
  {
    uint32_t *at = ctx_alloc(ctx, (np + 1) * sizeof *at);
    COPY(at, rd_lo, np * sizeof *at);
    for (i = lo; i < g->hi; i++)
      for (j = G->in_lo[i]; j < G->in_lo[i + 1]; j++)
        if (left[G->in[j] >> 1])
          rd[at[G->in[j] >> 1]++] = i - lo;
    ctx_free(ctx, at);
  }
  /* rules whose group inputs are all done, in turn (order[] is the queue) */
  for (i = 0; i < n; i++)
    if (pend[i] == 0)
      order[qn++] = i;
  for (k = 0; k < qn; k++) {
    uint32_t h = G->head[lo + order[k]];
    if (--left[h] == 0)
      for (j = rd_lo[h]; j < rd_lo[h + 1]; j++)
        if (--pend[rd[j]] == 0)
          order[qn++] = rd[j];
  }
  if (qn == n) {               /* no cycle: the rules in that order */
    uint32_t *head = ctx_alloc(ctx, (n + 1) * sizeof *head);
    uint32_t *inlo = ctx_alloc(ctx, (n + 1) * sizeof *inlo);
    uint32_t base = G->in_lo[lo], len = G->in_lo[g->hi] - base, at = base;
    uint32_t *in = ctx_alloc(ctx, (len + 1) * sizeof *in);
    COPY(head, G->head + lo, n * sizeof *head);
    COPY(inlo, G->in_lo + lo, n * sizeof *inlo);
    COPY(in, G->in + base, len * sizeof *in);
    for (k = 0; k < n; k++) {
      uint32_t r = order[k], m = (r + 1 < n ? inlo[r + 1] : base + len) -
                                 inlo[r];
      G->head[lo + k] = head[r];
      G->in_lo[lo + k] = at;
      COPY(G->in + at, in + (inlo[r] - base), m * sizeof *in);
      at += m;
    }
    g->recursive = 0;
    ctx_free(ctx, head);
    ctx_free(ctx, inlo);
    ctx_free(ctx, in);
  }
  ctx_free(ctx, left);
  ctx_free(ctx, pend);
  ctx_free(ctx, rd_lo);
  ctx_free(ctx, rd);
  ctx_free(ctx, order);
}

/* Whether atom a is an output: terminal, (next F), (legal R M), (goal R V). */
static int is_output(const gdl_ctx *ctx, gdl_term a)
{
  const term_t *t = &ctx->terms[a];
  if (t->kind == T_SYM)
    return t->sym == S_TERMINAL;
  return t->kind == T_FN &&
         ((t->sym == S_NEXT && t->arity == 1) ||
          ((t->sym == S_LEGAL || t->sym == S_GOAL) && t->arity == 2));
}

/* The rules whose head is not `gone` kept, in their order, their groups
 * closed up around them. */
static void keep_rules(ground_t *G, const uint8_t *gone)
{
  uint32_t g, r, k, at = 0, nr = 0;
  for (g = 0; g < G->ngroups; g++) {
    group_t *gr = &G->groups[g];
    uint32_t first = nr;
    for (r = gr->lo; r < gr->hi; r++) {
      uint32_t a = G->in_lo[r], b = G->in_lo[r + 1];
      if (gone[G->head[r]])
        continue;
      G->head[nr] = G->head[r];
      G->in_lo[nr] = at;
      for (k = a; k < b; k++)
        G->in[at++] = G->in[k];
      nr++;
    }
    gr->lo = first;
    gr->hi = nr;
  }
  G->nrules = nr;
  G->nin = at;
  G->in_lo[nr] = at;
}

/* A proposition with one rule of one input, (hole ?r ?c) <= (true (tile
 * ?r ?c blank)), is that input under another name: its readers read the
 * input itself and its rule goes, one change and one rule fewer each
 * time.  Not for outputs, whose propositions the output lists name, nor
 * for the heads of recursive groups. */
void ground_drop_aliases(gdl_ctx *ctx, ground_t *G)
{
  uint32_t n = G->nprops, g, r, i;
  uint32_t *rules = ctx_alloc(ctx, (n + 1) * sizeof *rules);
  uint32_t *to = ctx_alloc(ctx, (n + 1) * sizeof *to);   /* code + 1 */
  uint8_t *gone;
  int any = 0;
  for (g = 0; g < G->ngroups; g++)
    for (r = G->groups[g].lo; r < G->groups[g].hi; r++)
      rules[G->head[r]] += G->groups[g].recursive ? 2 : 1;
  for (g = 0; g < G->ngroups; g++)
    for (r = G->groups[g].lo; r < G->groups[g].hi; r++) {
      uint32_t h = G->head[r];
      if (!G->groups[g].recursive && rules[h] == 1 &&
          G->in_lo[r + 1] - G->in_lo[r] == 1 &&
          !is_output(ctx, G->atom[h])) {
        to[h] = G->in[G->in_lo[r]] + 1;
        any = 1;
      }
    }
  if (any) {
    /* chains end on a proposition that is no alias; parities add up */
    for (i = 0; i < n; i++) {
      uint32_t c = to[i], steps = 0;
      while (c && to[(c - 1) >> 1] && steps++ < n) {
        uint32_t next = to[(c - 1) >> 1] - 1;
        c = (next ^ ((c - 1) & 1)) + 1;
      }
      to[i] = c;
    }
    /* readers read the input; the alias rules go */
    gone = ctx_alloc(ctx, n + 1);
    for (i = 0; i < G->nin; i++) {
      uint32_t c = G->in[i];
      if (to[c >> 1])
        G->in[i] = (to[c >> 1] - 1) ^ (c & 1);
    }
    for (i = 0; i < n; i++)
      gone[i] = to[i] != 0;
    keep_rules(G, gone);
    ctx_free(ctx, gone);
  }
  ctx_free(ctx, rules);
  ctx_free(ctx, to);
}

/* Rules that no output depends on go: their propositions are read only
 * by each other (ticTacToe derives (row 1 b) for (line b), which no rule
 * of legal, goal, terminal or next reads), and every change of their
 * inputs would still count them.  Such a proposition is never derived;
 * nothing looks at it.  The outputs are the roots, and every input of a
 * rule kept is needed. */
void ground_drop_dead(gdl_ctx *ctx, ground_t *G)
{
  uint32_t n = G->nprops, r, i, k, top = 0, p;
  uint32_t *lo = ctx_alloc(ctx, (n + 2) * sizeof *lo);   /* rules by head */
  uint32_t *by = ctx_alloc(ctx, (G->nrules + 1) * sizeof *by);
  uint32_t *stack = ctx_alloc(ctx, (n + 1) * sizeof *stack);
  uint8_t *gone = ctx_alloc(ctx, n + 1);
  for (r = 0; r < G->nrules; r++)
    lo[G->head[r] + 2]++;
  for (p = 0; p < n; p++)
    lo[p + 2] += lo[p + 1];
  for (r = 0; r < G->nrules; r++)
    by[lo[G->head[r] + 1]++] = r;
  memset(gone, 1, n);
  for (p = 0; p < n; p++)
    if (is_output(ctx, G->atom[p])) {
      gone[p] = 0;
      stack[top++] = p;
    }
  while (top) {
    p = stack[--top];
    for (k = lo[p]; k < lo[p + 1]; k++)
      for (i = G->in_lo[by[k]]; i < G->in_lo[by[k] + 1]; i++)
        if (gone[G->in[i] >> 1]) {
          gone[G->in[i] >> 1] = 0;
          stack[top++] = G->in[i] >> 1;
        }
  }
  keep_rules(G, gone);
  ctx_free(ctx, lo);
  ctx_free(ctx, by);
  ctx_free(ctx, stack);
  ctx_free(ctx, gone);
}

/* ---- one move ---------------------------------------------------------
 *
 * A part whose one input is a `does` holds when the move is one of a
 * set: breakthrough's frame keeps a cell when the move neither leaves nor
 * enters it, which is some 300 moves per cell, so each move is read by the
 * parts of 62 cells.  A role makes one move at a time, so among a role's
 * moves in the part (D) the part holds iff one of D does and none of the
 * moves left out of its set does: A :- any(D), (not other(D - S)).  Where
 * the moves left out are fewer than those in, the part is built that way:
 * each move is then read by any(D) and the others of the cells it
 * touches.  Disjunctions are named by terms of their atoms, so one serves
 * every part with the same moves. */

static int cmp_om(const void *a, const void *b)
{
  const struct onemove *x = a, *y = b;
  if (x->part != y->part)
    return x->part < y->part ? -1 : 1;
  if (x->aux != y->aux)
    return x->aux < y->aux ? -1 : 1;
  return x->does < y->does ? -1 : x->does > y->does;
}

/* The proposition that holds when one of props[0..n-1] (moves) does, its
 * rules into BUF_MOVE when it is new. */
static uint32_t any_of(gdl_ctx *ctx, ground_t *G, const uint32_t *props,
                       uint32_t n)
{
  gdl_term *a = ctx_alloc(ctx, (n + 1) * sizeof *a), t;
  uint32_t i, p;
  for (i = 0; i < n; i++)
    a[i] = G->atom[props[i]];
  ground_sort_ids(a, n);
  t = term_fn(ctx, G->orsym, n, a);
  ctx_free(ctx, a);
  if (t < G->propofcap && G->propof[t])
    return G->propof[t] - 1;
  p = ground_prop_of(ctx, G, t, P_MOVE);
  for (i = 0; i < n; i++) {
    ground_buf_put(ctx, G, BUF_MOVE, p);
    ground_buf_put(ctx, G, BUF_MOVE, 1);
    ground_buf_put(ctx, G, BUF_MOVE, props[i] * 2);
  }
  return p;
}

void ground_exclusive(gdl_ctx *ctx, ground_t *G)
{
  struct onemove *om = G->om;
  uint32_t a, b, i, j, n = 0, *d, *role, *in, *out;
  uint64_t *rd;
  if (G->nom == 0)
    return;
  qsort(om, G->nom, sizeof *om, cmp_om);
  for (i = 0; i < G->nom; i++)        /* without repeats */
    if (n == 0 || cmp_om(&om[n - 1], &om[i]) != 0)
      om[n++] = om[i];
  d = ctx_alloc(ctx, (n + 1) * sizeof *d);
  rd = ctx_alloc(ctx, (n + 1) * sizeof *rd);
  role = ctx_alloc(ctx, (n + 1) * sizeof *role);
  in = ctx_alloc(ctx, (n + 1) * sizeof *in);
  out = ctx_alloc(ctx, (n + 1) * sizeof *out);
  for (a = 0; a < n; a = b) {
    uint32_t nd = 0, c, e;
    for (b = a; b < n && om[b].part == om[a].part; b++)
      d[nd++] = om[b].does;
    /* D: the part's moves, by role then proposition */
    for (i = 0; i < nd; i++)
      rd[i] = (uint64_t)TARG(ctx, G->atom[d[i]], 0) << 32 | d[i];
    qsort(rd, nd, sizeof *rd, ground_cmp_u64);
    for (i = j = 0; i < nd; i++)
      if (j == 0 || rd[j - 1] != rd[i])
        rd[j++] = rd[i];
    nd = j;
    for (i = 0; i < nd; i++) {
      role[i] = (uint32_t)(rd[i] >> 32);
      d[i] = (uint32_t)rd[i];
    }
    for (c = a; c < b; c = e) {         /* each auxiliary of the part */
      uint32_t lo, hi;
      for (e = c; e < b && om[e].aux == om[c].aux; e++)
        ;
      for (lo = 0; lo < nd; lo = hi) {  /* each role */
        uint32_t nin = 0, nout = 0, k = c;
        for (hi = lo; hi < nd && role[hi] == role[lo]; hi++)
          ;
        for (i = lo; i < hi; i++) {     /* S and D - S of this role */
          while (k < e && om[k].does < d[i])
            k++;
          if (k < e && om[k].does == d[i])
            in[nin++] = d[i];
          else
            out[nout++] = d[i];
        }
        if (nin == 0)
          continue;
        if (nin > 4 * (nout + 2) && hi - lo <= 65535) {
          uint32_t any = any_of(ctx, G, d + lo, hi - lo);
          ground_buf_put(ctx, G, BUF_EXCL, om[c].aux);
          ground_buf_put(ctx, G, BUF_EXCL, nout ? 2 : 1);
          ground_buf_put(ctx, G, BUF_EXCL, any * 2);
          if (nout)
            ground_buf_put(ctx, G, BUF_EXCL,
                           any_of(ctx, G, out, nout) * 2 + 1);
        } else {
          for (i = 0; i < nin; i++) {
            ground_buf_put(ctx, G, BUF_EXCL, om[c].aux);
            ground_buf_put(ctx, G, BUF_EXCL, 1);
            ground_buf_put(ctx, G, BUF_EXCL, in[i] * 2);
          }
        }
      }
    }
  }
  ctx_free(ctx, d);
  ctx_free(ctx, rd);
  ctx_free(ctx, role);
  ctx_free(ctx, in);
  ctx_free(ctx, out);
  G->nom = 0;
}

/* ---- shared inputs ----------------------------------------------------
 *
 * Rules of one head often differ in a single input: sudoku's frame rules
 * say a cell keeps its digit when the move differs from it in the first
 * coordinate, or the second, the third, the fourth, so each of the four
 * (after factoring) reads the cell and an auxiliary that 270 cells read.
 * A head's rules that share inputs C become one rule, C and a disjunction
 * of what is left of each (h :- C, B; B :- rest1; B :- rest2 ...), and
 * one disjunction serves every head that has the same rests (it is named
 * by a term of them, so equal ones are one proposition): sudoku's frame
 * then costs a cell's four moves-elsewhere, not 270 cells per change of
 * the move.  Inputs from earlier groups only, so the rules of a component
 * outside recursion: a disjunction comes in a group of its own before the
 * rules that read it. */

/* The term that names input code c: the atom, or (not atom). */
static gdl_term input_term(gdl_ctx *ctx, const ground_t *G, uint32_t c)
{
  gdl_term a = G->atom[c >> 1];
  return c & 1 ? term_fn(ctx, S_NOT, 1, &a) : a;
}

/* The term that names the disjunction of the rests of rules k[0..nk-1]
 * (their inputs not marked in G->incommon), and its phase. */
static gdl_term rest_term(gdl_ctx *ctx, ground_t *G, const uint32_t **k,
                          uint32_t nk, int *phase)
{
  uint32_t j, i, conjcap = 0;
  gdl_term *rest = ctx_alloc(ctx, (nk + 1) * sizeof *rest), t;
  gdl_term *conj = NULL;
  *phase = P_STATE;
  for (j = 0; j < nk; j++) {
    uint32_t n = 0;
    for (i = 0; i < k[j][1]; i++) {
      uint32_t c = k[j][2 + i];
      if (G->incommon[c])
        continue;
      GROW(ctx, conj, conjcap, n);
      conj[n++] = input_term(ctx, G, c);
      if (G->phase[c >> 1] == P_MOVE)
        *phase = P_MOVE;
    }
    ground_sort_ids(conj, n);
    rest[j] = n == 1 ? conj[0] : term_fn(ctx, G->andsym, n, conj);
  }
  ground_sort_ids(rest, nk);
  t = term_fn(ctx, G->orsym, nk, rest);
  ctx_free(ctx, rest);
  ctx_free(ctx, conj);
  return t;
}

/* How many heads would read disjunction t (saturating); bumps it with
 * `add`. */
static uint32_t or_uses(gdl_ctx *ctx, ground_t *G, gdl_term t, int add)
{
  uint8_t *b = ground_term_byte(ctx, &G->orcnt, &G->orcntcap, t);
  if (add && *b < 255)
    (*b)++;
  return *b;
}

/* The proposition of disjunction t of the rests of rules k[0..nk-1], its
 * rules put in a buffer when it is new. */
static uint32_t disjunction(gdl_ctx *ctx, ground_t *G, gdl_term t, int phase,
                            const uint32_t **k, uint32_t nk)
{
  uint32_t j, i, p, b;
  if (t < G->propofcap && G->propof[t])
    return G->propof[t] - 1;      /* the same disjunction, made before */
  p = ground_prop_of(ctx, G, t, phase);
  b = phase == P_MOVE ? BUF_OR_MOVE : BUF_OR_STATE;
  for (j = 0; j < nk; j++) {
    uint32_t at, n = 0;
    ground_buf_put(ctx, G, b, p);
    at = G->nbuf[b];
    ground_buf_put(ctx, G, b, 0);
    for (i = 0; i < k[j][1]; i++)
      if (!G->incommon[k[j][2 + i]]) {
        ground_buf_put(ctx, G, b, k[j][2 + i]);
        n++;
      }
    G->buf[b][at] = n;
  }
  return p;
}

/* Out: rule x (head, count, inputs), with only the inputs marked in
 * G->incommon, and disjunction d (UINT32_MAX: none). */
static void put_rule(gdl_ctx *ctx, ground_t *G, uint32_t *out, uint32_t *no,
                     const uint32_t *x, int common, uint32_t d)
{
  uint32_t i, n = 0, at;
  out[(*no)++] = x[0];
  at = (*no)++;
  for (i = 0; i < x[1]; i++)
    if (!common || G->incommon[x[2 + i]])
      out[(*no)++] = x[2 + i], n++;
  if (d != UINT32_MAX)
    out[(*no)++] = d * 2, n++;
  out[at] = n;
  (void)ctx;
}

void ground_share_inputs(gdl_ctx *ctx, ground_t *G, int rb)
{
  uint32_t *x = G->buf[rb], nx = G->nbuf[rb];
  uint32_t nr = 0, i, j, a, b, no = 0, *out, *cnt, pass;
  const uint32_t **r;
  uint8_t *done;
  if (nx == 0)
    return;
  for (i = 0; i < nx; i += 2 + x[i + 1])
    nr++;
  r = ctx_alloc(ctx, (nr + 1) * sizeof *r);
  done = ctx_alloc(ctx, nr + 1);
  nr = 0;
  for (i = 0; i < nx; i += 2 + x[i + 1])
    r[nr++] = x + i;
  /* by head, and in the order they came within one head */
  {
    uint64_t *key = ctx_alloc(ctx, (nr + 1) * sizeof *key);
    const uint32_t **r2 = ctx_alloc(ctx, (nr + 1) * sizeof *r2);
    for (i = 0; i < nr; i++)
      key[i] = (uint64_t)r[i][0] << 32 | i;
    qsort(key, nr, sizeof *key, ground_cmp_u64);
    for (i = 0; i < nr; i++)
      r2[i] = r[(uint32_t)key[i]];
    COPY(r, r2, nr * sizeof *r);
    ctx_free(ctx, key);
    ctx_free(ctx, r2);
  }
  if (G->ncodes < 2 * G->nprops + 2) {   /* all zero between uses */
    uint32_t c = 2 * G->nprops + 2;
    G->incommon = ctx_realloc(ctx, G->incommon, c);
    G->incount = ctx_realloc(ctx, G->incount, c * sizeof *G->incount);
    memset(G->incommon + G->ncodes, 0, c - G->ncodes);
    memset(G->incount + G->ncodes, 0, (c - G->ncodes) * sizeof *G->incount);
    G->ncodes = c;
  }
  /* the output is no longer than the input plus a disjunction per rule */
  out = ctx_alloc(ctx, (nx + nr + 1) * sizeof *out);
  cnt = G->incount;
  /* twice: first to count the heads that would read each disjunction,
   * then to make those that more than one would (sudoku: the ten digits
   * of a cell); one head alone gains nothing from it (tic-tac-toe) */
  for (pass = 0; pass < 2; pass++)
  for (memset(done, 0, nr), a = 0; a < nr; a = b) {
    for (b = a + 1; b < nr && r[b][0] == r[a][0]; b++)
      ;
    for (;;) {
      /* the input most of the head's rules left read */
      uint32_t best = 0, bestc = UINT32_MAX, nk = 0, k;
      const uint32_t **kr;
      int bare = 0;
      for (j = a; j < b; j++)
        if (!done[j])
          for (i = 0; i < r[j][1]; i++)
            if (++cnt[r[j][2 + i]] > best) {
              best = cnt[r[j][2 + i]];
              bestc = r[j][2 + i];
            }
      for (j = a; j < b; j++)
        if (!done[j])
          for (i = 0; i < r[j][1]; i++)
            cnt[r[j][2 + i]] = 0;
      if (best < 2)
        break;
      /* the rules that read it, and the inputs all of them read */
      kr = ctx_alloc(ctx, (b - a + 1) * sizeof *kr);
      for (j = a; j < b; j++)
        if (!done[j])
          for (i = 0; i < r[j][1]; i++)
            if (r[j][2 + i] == bestc) {
              kr[nk++] = r[j];
              done[j] = 1;
              break;
            }
      for (k = 0; k < nk; k++)
        for (i = 0; i < kr[k][1]; i++)
          cnt[kr[k][2 + i]]++;
      for (k = 0; k < nk; k++)
        for (i = 0; i < kr[k][1]; i++) {
          uint32_t c = kr[k][2 + i];
          if (cnt[c] == nk)
            G->incommon[c] = 1;
        }
      for (k = 0; k < nk; k++) {
        uint32_t n = 0;
        for (i = 0; i < kr[k][1]; i++)
          n += !G->incommon[kr[k][2 + i]];
        bare |= n == 0;       /* C alone is enough for the head */
      }
      if (bare) {
        if (pass)
          put_rule(ctx, G, out, &no, kr[0], 1, UINT32_MAX);
      } else {
        int phase;
        gdl_term t = rest_term(ctx, G, kr, nk, &phase);
        if (!pass)
          or_uses(ctx, G, t, 1);
        else if (or_uses(ctx, G, t, 0) > 1 ||
                 (t < G->propofcap && G->propof[t]))
          put_rule(ctx, G, out, &no, kr[0], 1,
                   disjunction(ctx, G, t, phase, kr, nk));
        else
          for (k = 0; k < nk; k++)
            put_rule(ctx, G, out, &no, kr[k], 0, UINT32_MAX);
      }
      for (k = 0; k < nk; k++)
        for (i = 0; i < kr[k][1]; i++) {
          cnt[kr[k][2 + i]] = 0;
          G->incommon[kr[k][2 + i]] = 0;
        }
      ctx_free(ctx, kr);
    }
    for (j = a; pass && j < b; j++)
      if (!done[j])
        put_rule(ctx, G, out, &no, r[j], 0, UINT32_MAX);
  }
  /* out replaces the buffer */
  G->nbuf[rb] = 0;
  for (i = 0; i < no; i++)
    ground_buf_put(ctx, G, rb, out[i]);
  ctx_free(ctx, out);
  ctx_free(ctx, r);
  ctx_free(ctx, done);
}

/* ---- gates ------------------------------------------------------------
 *
 * Most games say whose turn it is in every legal rule: breakthrough's 350
 * moves of a role each read (true (control white)), so each turn 700
 * rules change count only to say what the turn already says.  A legal
 * move whose one rule reads a proposition that many rules read (the
 * gate) and that nothing but the output reads, keeps its rule without the
 * gate: the proposition then holds when the rest of the rule does, and
 * ground_legal and ground_is_legal look at the gate themselves.  The
 * gate's input becomes `always`, which never changes. */

#define GATE_READERS 8

/* Per proposition: the rules that derive it (a recursive one counts 2:
 * never one), the last of them, and the rules that read it. */
typedef struct {
  uint32_t *rules, *rule, *readers;
} derive_t;

static void derive_counts(gdl_ctx *ctx, const ground_t *G, derive_t *d)
{
  uint32_t n = G->nprops, g, i;
  d->readers = ctx_alloc(ctx, (n + 1) * sizeof *d->readers);
  d->rules = ctx_alloc(ctx, (n + 1) * sizeof *d->rules);
  d->rule = ctx_alloc(ctx, (n + 1) * sizeof *d->rule);
  for (i = 0; i < G->nin; i++)
    d->readers[G->in[i] >> 1]++;
  for (g = 0; g < G->ngroups; g++)
    for (i = G->groups[g].lo; i < G->groups[g].hi; i++) {
      uint32_t h = G->head[i];
      d->rules[h] += G->groups[g].recursive ? 2 : 1;
      d->rule[h] = i;
    }
}

static void derive_free(gdl_ctx *ctx, derive_t *d)
{
  ctx_free(ctx, d->readers);
  ctx_free(ctx, d->rules);
  ctx_free(ctx, d->rule);
}

void ground_gate_legal(gdl_ctx *ctx, ground_t *G)
{
  uint32_t r, j;
  derive_t d;
  derive_counts(ctx, G, &d);
  G->lgate = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *G->lgate);
  for (r = 0; r < ctx->nroles; r++) {
    G->lgate[r] = ctx_alloc(ctx, (G->nlegal[r] + 1) * sizeof **G->lgate);
    for (j = 0; j < G->nlegal[r]; j++)
      G->lgate[r][j] = G->always;
  }
  for (r = 0; r < ctx->nroles; r++)
    for (j = 0; j < G->nlegal[r]; j++) {
      uint32_t p = G->legal[r][j].prop, k, best = UINT32_MAX, bestn = 0;
      uint32_t lo, hi;
      if (p == G->always || d.rules[p] != 1 || d.readers[p] != 0)
        continue;
      lo = G->in_lo[d.rule[p]];
      hi = G->in_lo[d.rule[p] + 1];
      if (hi - lo < 2)
        continue;
      for (k = lo; k < hi; k++) {
        uint32_t q = G->in[k] >> 1;
        if (!(G->in[k] & 1) && q != G->always && d.readers[q] > bestn) {
          best = k;
          bestn = d.readers[q];
        }
      }
      if (bestn < GATE_READERS)
        continue;
      G->lgate[r][j] = G->in[best] >> 1;
      G->in[best] = G->always * 2;
    }
  derive_free(ctx, &d);
}

/* An output whose one rule reads one proposition (and `always`), which
 * no rule reads, is that proposition: tic-tac-toe's (next (control
 * oplayer)) <= (true (control xplayer)), or a gated legal move <= (true
 * (cell 1 1 b)).  The output names the input instead and the rule goes:
 * a change of the input sets the output's bit itself (an input may then
 * have several output slots), where it was one more rule to count, one
 * more proposition to change and one more event. */
void ground_alias_outputs(gdl_ctx *ctx, ground_t *G)
{
  uint32_t r, j, i, n = G->nprops;
  uint8_t *gone = ctx_alloc(ctx, n + 1);
  int any = 0;
  derive_t d;
  derive_counts(ctx, G, &d);
  for (r = 0; r <= 2 * ctx->nroles; r++) {
    out_t *o = r == 2 * ctx->nroles ? G->next
               : r % 2 ? G->goal[r / 2] : G->legal[r / 2];
    uint32_t no = r == 2 * ctx->nroles ? G->nnext
                  : r % 2 ? G->ngoal[r / 2] : G->nlegal[r / 2];
    for (j = 0; j < no; j++) {
      uint32_t p = o[j].prop, q = UINT32_MAX, k = 0;
      if (p == G->always || d.rules[p] != 1 || d.readers[p] != 0)
        continue;
      for (i = G->in_lo[d.rule[p]]; i < G->in_lo[d.rule[p] + 1]; i++)
        if (G->in[i] != G->always * 2) {
          q = G->in[i];
          k++;
        }
      if (k != 1 || (q & 1))
        continue;
      o[j].prop = q >> 1;
      gone[p] = 1;
      any = 1;
    }
  }
  if (any)
    keep_rules(G, gone);
  derive_free(ctx, &d);
  ctx_free(ctx, gone);
}


void ground_rules_by_head(gdl_ctx *ctx, const ground_t *G, uint32_t **lo,
                          uint32_t **by)
{
  uint32_t n = G->nprops, r, p, *at;
  *lo = ctx_alloc(ctx, (n + 2) * sizeof **lo);
  for (r = 0; r < G->nrules; r++)
    (*lo)[G->head[r] + 1]++;
  for (p = 0; p < n; p++)
    (*lo)[p + 1] += (*lo)[p];
  *by = ctx_alloc(ctx, (G->nrules + 1) * sizeof **by);
  at = ctx_alloc(ctx, (n + 1) * sizeof *at);
  COPY(at, *lo, n * sizeof *at);
  for (r = 0; r < G->nrules; r++)
    (*by)[at[G->head[r]]++] = r;
  ctx_free(ctx, at);
}
