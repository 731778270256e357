/*
 * groups.c - an estimate that adds: groups of fluents of which at most one
 * holds in any state (a tile's square, a square's content), each with the
 * graph of the moves between its values, summed over groups of which no
 * move changes two at once.  On a sliding puzzle it is the Manhattan
 * distance, where h_max sees only how far the blank is.
 *
 * Invariant: a group is summed only when "at most one holds" is proven by
 * induction over the moves from the start, and no two groups summed are
 * changed by one move; each value's distance is the fewest edges to a
 * goal value.  So the sum never exceeds the moves still needed, and is
 * consistent.  Every question the proof asks is answered by a DPLL search
 * over partial states (three-valued evaluation, kernel.c); one it cannot
 * settle is answered "can", which only makes the sum smaller.
 * doc/solving.md ("Estimates and dead ends") has the argument.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/groups_int.h"

/* ---- the search over partial states ----------------------------------- */

/* p fixed to v, on the trail. */
static void fix_on_trail(build_t *b, uint32_t p, int v)
{
  kern_fix(b->X, p, v);
  b->trail[b->ntrail++] = p;
}

/* q, other than p, made false; 0 where it is true. */
static int other_false(build_t *b, uint32_t q, uint32_t p)
{
  int c;
  if (q == NONE || q == p)
    return 1;
  c = kern_fixed(b->X, q);
  if (c == VU)
    fix_on_trail(b, q, V0);
  return c != V1;
}

/* Fixes p to v and what the candidates and the one move force; 0 on a
 * contradiction. */
static int fix(build_t *b, uint32_t p, int v)
{
  const ground_t *G = b->G;
  uint32_t i, j;
  int c = kern_fixed(b->X, p);
  if (c == VU && b->move_of[p] && b->on != NONE)
    c = V0;                    /* another move is made */
  if (c != VU)
    return c == v;
  fix_on_trail(b, p, v);
  if (v != V1)
    return 1;
  if (G->tslot[p]) {
    uint32_t s = G->tslot[p] - 1;
    for (i = b->sg_lo[s]; i < b->sg_lo[s + 1]; i++) {
      uint32_t g = b->sg[i];
      if (!b->alive[g])
        continue;
      b->steps += grp_size(b, g);
      for (j = b->lo[g]; j < b->lo[g + 1]; j++)
        if (!other_false(b, G->tprop[b->slot[j]], p))
          return 0;
    }
  } else if (b->move_of[p]) {
    b->on = b->move_of[p] - 1;  /* (it was NONE: see above) */
    b->X->onmove = p;          /* the others false, in the evaluation */
  }
  return 1;
}

static void undo(build_t *b, uint32_t mark)
{
  while (b->ntrail > mark) {
    uint32_t p = b->trail[--b->ntrail];
    if (b->move_of[p] && kern_fixed(b->X, p) == V1) {
      b->on = NONE;
      b->X->onmove = NONE;
    }
    kern_fix(b->X, p, VU);
  }
}

/* Whether some move can still be made: its `does` not fixed false, its
 * legal proposition and gate not false.  A question about a step wants
 * one (a play makes one move a step: with none, every fluent that a
 * frame rule keeps only "when a move is made" would go). */
static int some_move(build_t *b)
{
  uint32_t m;
  for (m = 0; m < b->nm; m++)
    if ((b->does[m] == NONE || kern_fixed(b->X, b->does[m]) != V0) &&
        kern_value(b->X, b->legal[m]) != V0 &&
        (b->gate[m] == NONE || kern_value(b->X, b->gate[m]) != V0))
      return 1;
  return 0;
}

/* Whether the literals want[0, n) can hold with what is fixed, by a
 * DPLL search over the unknown fluents and moves the evaluation reads
 * (doc/solving.md, "Groups of fluents summed"); what it fixes on the way
 * is left for the caller to undo. */
static int satisfiable(build_t *b, const uint32_t *want, uint32_t n)
{
  kern_eval_t *X = b->X;
  uint32_t i, q, mark;
  int res = V1, x;
  uint64_t used = X->evals - b->work0 + b->steps;
  /* past the budget, or (proving) past the least and on the way to more
   * than the budget, at the work a question so far */
  if (b->over || used > b->work ||
      (b->qleft && used > WORK_MIN && b->asked &&
       used / b->asked * (b->asked + b->qleft) > b->work)) {
    b->over = 1;
    return 1;
  }
  if (used - b->q0 > QUESTION_WORK)
    return 1;                  /* this question: "can" */
  kern_poll(b->ctx, X);
  kern_run(X);
  for (i = 0; i < n; i++) {
    x = kern_value(X, want[i] >> 1);
    if (x == VU)
      res = VU;
    else if (x != (int)(want[i] & 1))
      return 0;
  }
  if (b->on != NONE) {         /* the move made is legal: its gate too */
    x = kern_value(X, b->legal[b->on]);
    if (b->gate[b->on] != NONE && x != V0) {
      int y = kern_value(X, b->gate[b->on]);
      x = y == V0 ? V0 : y == VU ? VU : x;
    }
    if (x == V0)
      return 0;
    if (x == VU)
      res = VU;
  }
  if (res == V1)
    return !b->step || b->on != NONE || some_move(b);
  q = X->pick;
  if (q == NONE)
    return 1;                  /* nothing to branch on */
  mark = b->ntrail;
  if (fix(b, q, V1) && satisfiable(b, want, n))
    return 1;
  undo(b, mark);
  if (fix(b, q, V0) && satisfiable(b, want, n))
    return 1;
  undo(b, mark);
  return 0;
}

/* Whether the question's literals, lit[0, nlit), can hold together. */
int grp_can_hold(build_t *b)
{
  uint32_t mark = b->ntrail, i, k = 0;
  int r = 0;
  b->asked++;
  if (b->qleft)
    b->qleft--;
  b->q0 = b->X->evals - b->work0 + b->steps;
  for (i = 0; i < b->nlit; i++) {
    uint32_t p = b->lit[i] >> 1;
    if (b->G->tslot[p] || b->move_of[p]) {
      if (!fix(b, p, (int)(b->lit[i] & 1)))
        goto done;
    } else {
      b->want[k++] = b->lit[i];
    }
  }
  r = satisfiable(b, b->want, k);
done:
  undo(b, mark);
  b->nlit = 0;
  b->step = 0;
  return r;
}

/* ---- the questions' literals ------------------------------------------ */

static void add_lit(build_t *b, uint32_t lit)
{
  b->lit[b->nlit++] = lit;
}

/* Group g has value i (its size: none). */
void grp_add_value(build_t *b, uint32_t g, uint32_t i)
{
  uint32_t j;
  if (i < grp_size(b, g)) {
    add_lit(b, LIT(b->G->tprop[b->slot[b->lo[g] + i]], 1));
    return;
  }
  for (j = b->lo[g]; j < b->lo[g + 1]; j++)
    add_lit(b, LIT(b->G->tprop[b->slot[j]], 0));
}

/* The next state has value i of group g (i its size: none); 0 where it
 * cannot (a fluent no `next` derives). */
int grp_add_next(build_t *b, uint32_t g, uint32_t i)
{
  const ground_t *G = b->G;
  uint32_t j, s;
  if (i < grp_size(b, g)) {
    s = b->slot[b->lo[g] + i];
    if (s >= G->nnext)
      return 0;
    add_lit(b, LIT(G->next[s].prop, 1));
    b->step = 1;
    return 1;
  }
  for (j = b->lo[g]; j < b->lo[g + 1]; j++)
    if (b->slot[j] < G->nnext)
      add_lit(b, LIT(G->next[b->slot[j]].prop, 0));
  b->step = 1;
  return 1;
}

/* Value i of group g is left: its fluent's `next` fails (nothing where
 * no `next` derives it). */
static void add_leave(build_t *b, uint32_t g, uint32_t i)
{
  uint32_t s = b->slot[b->lo[g] + i];
  if (s < b->G->nnext)
    add_lit(b, LIT(b->G->next[s].prop, 0));
  b->step = 1;
}

/* ---- 1. candidates ---------------------------------------------------- */

typedef struct {
  uint64_t h;                  /* the group's key */
  uint64_t fam;                /* its family's: relation and mask */
  uint32_t slot;
} gkey_t;

static int by_key(const void *a, const void *b)
{
  const gkey_t *x = a, *y = b;
  if (x->h != y->h)
    return x->h < y->h ? -1 : 1;
  return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static uint64_t mix(uint64_t h, uint64_t x)
{
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

/* The fluent relations (symbol and arity) of the network, at most
 * MAX_RELS of them looked at for the candidates across two. */
#define MAX_RELS 64
typedef struct {
  uint32_t n, sym[MAX_RELS], arity[MAX_RELS];
} rels_t;

/* The fluent of slot s, where it is a compound of at most MAX_ARITY
 * arguments (else 0). */
static gdl_term slot_fluent(const build_t *b, uint32_t s)
{
  gdl_ctx *ctx = b->ctx;
  gdl_term f;
  const term_t *t;
  if (b->G->tprop[s] == NONE)
    return 0;
  f = TARG(ctx, b->G->atom[b->G->tprop[s]], 0);
  t = TERM(ctx, f);
  return t->kind == T_FN && t->arity <= MAX_ARITY ? f : 0;
}

static void rels_of(const build_t *b, rels_t *R)
{
  uint32_t s, r;
  R->n = 0;
  for (s = 0; s < b->G->ntslots; s++) {
    gdl_term f = slot_fluent(b, s);
    const term_t *t;
    if (!f)
      continue;
    t = TERM(b->ctx, f);
    for (r = 0; r < R->n && (R->sym[r] != t->sym ||
                             R->arity[r] != t->arity); r++)
      ;
    if (r == R->n && R->n < MAX_RELS) {
      R->sym[R->n] = t->sym;
      R->arity[R->n++] = t->arity;
    }
  }
}

/* Across two relations, q has at least this many arguments: a place
 * (a square's row and column), not a single value (a step counter's,
 * a control's), which would pair with every relation's fluents of that
 * value, and whose candidates cost the proof time and find nothing. */
#define CROSS_LEAST 2

/* Key h of fluent f (slot s), of its family h, with the arguments of
 * mask m, into *k. */
static void key_put(gdl_ctx *ctx, gkey_t *k, uint64_t h, gdl_term f,
                    uint32_t m, uint32_t s)
{
  uint32_t i;
  k->fam = h;
  for (i = 0; i < TERM(ctx, f)->arity; i++)
    if (m >> i & 1)
      h = mix(h, TARG(ctx, f, i));
  k->h = h;
  k->slot = s;
}

/* The family of a key across two relations: p's (its symbol, arity and
 * the mask of its arguments held fixed) beside q's symbol. */
static uint64_t cross_family(uint32_t psym, uint32_t parity, uint32_t mp,
                             uint32_t qsym)
{
  return mix(mix(mix(mix(psym, parity), mp), qsym), 1);
}

/* The keys of fluent f (its slot s) into k (where k is NULL, only
 * counted): per choice (mask) of its arguments held fixed, a key of its
 * relation, the mask and those arguments; and across two relations,
 * each fluent of a relation q (of CROSS_LEAST arguments or more) with
 * another's, p's, of as many arguments held fixed, with the same values:
 * (blank 2 3) with (tile ?t 2 3), what a square holds where the blank is
 * a relation of its own.  The family of a key across two is p's, its
 * mask and q. */
static uint32_t keys_of(const build_t *b, const rels_t *R, uint32_t s,
                        gdl_term f, gkey_t *k)
{
  gdl_ctx *ctx = b->ctx;
  const term_t *t = TERM(ctx, f);
  uint32_t n = 0, m, mp, r, full = (1u << t->arity) - 1;
  for (m = 0; m <= full; m++) {
    uint32_t fixed = (uint32_t)__builtin_popcount(m);
    if (m < full) {            /* its own relation's key */
      if (k)
        key_put(ctx, k + n, mix(mix(t->sym, t->arity), m), f, m, s);
      n++;
    }
    for (r = 0; r < R->n; r++) {
      if ((R->sym[r] == t->sym && R->arity[r] == t->arity) ||
          fixed < CROSS_LEAST)
        continue;
      if (m < full && R->arity[r] == fixed) {  /* as p, beside q = r */
        if (k)
          key_put(ctx, k + n, cross_family(t->sym, t->arity, m, R->sym[r]),
                  f, m, s);
        n++;
      } else if (m == full) {  /* as q, beside each mask of p = r */
        for (mp = 1; mp < (1u << R->arity[r]) - 1; mp++)
          if ((uint32_t)__builtin_popcount(mp) == fixed) {
            if (k)
              key_put(ctx, k + n,
                      cross_family(R->sym[r], R->arity[r], mp, t->sym), f, m,
                      s);
            n++;
          }
      }
    }
  }
  return n;
}

/* The candidates: the slots of one key (keys_of) are a group.  Two keys
 * that collide make one bigger group, which is as good a candidate (any
 * set of fluents is). */
static void candidates(build_t *b)
{
  gdl_ctx *ctx = b->ctx;
  const ground_t *G = b->G;
  gkey_t *k;
  rels_t R;
  uint32_t n = 0, s, i, j, ng = 0, nin = 0;
  gdl_term f;
  rels_of(b, &R);
  for (s = 0; s < G->ntslots; s++)
    if ((f = slot_fluent(b, s)))
      n += keys_of(b, &R, s, f, NULL);
  k = ctx_alloc(ctx, (n + 1) * sizeof *k);
  n = 0;
  for (s = 0; s < G->ntslots; s++)
    if ((f = slot_fluent(b, s)))
      n += keys_of(b, &R, s, f, k + n);
  if (n > 1)
    qsort(k, n, sizeof *k, by_key);
  /* runs of one key of 2 to MAX_GROUP slots (each once) */
  b->lo = ctx_alloc(ctx, (n + 2) * sizeof *b->lo);
  b->slot = ctx_alloc(ctx, (n + 1) * sizeof *b->slot);
  b->fam = ctx_alloc(ctx, (n + 1) * sizeof *b->fam);
  for (i = 0; i < n; i = j) {
    uint32_t c = 0;
    for (j = i; j < n && k[j].h == k[i].h; j++)
      if (j == i || k[j].slot != k[j - 1].slot)
        b->slot[nin + c++] = k[j].slot;
    if (c >= 2 && c <= MAX_GROUP) {
      b->fam[ng] = k[i].fam;
      nin += c;
      b->lo[++ng] = nin;
    }
  }
  ctx_free(ctx, k);
  b->ng = ng;
  b->alive = ctx_alloc(ctx, ng + 1);
  memset(b->alive, 1, ng);
  /* copies: a group equal to one before it (same slots, in order),
   * found among those of one hash of their slots */
  {
    gkey_t *c = ctx_alloc(ctx, (ng + 1) * sizeof *c);
    for (i = 0; i < ng; i++) {
      c[i].h = grp_size(b, i);
      for (j = b->lo[i]; j < b->lo[i + 1]; j++)
        c[i].h = mix(c[i].h, b->slot[j]);
      c[i].slot = i;
    }
    if (ng > 1)
      qsort(c, ng, sizeof *c, by_key);
    for (i = 1; i < ng; i++)
      for (j = i; j-- > 0 && c[j].h == c[i].h;)
        if (b->alive[c[j].slot] && grp_size(b, c[i].slot) == grp_size(b, c[j].slot) &&
            !memcmp(b->slot + b->lo[c[i].slot], b->slot + b->lo[c[j].slot],
                    grp_size(b, c[i].slot) * sizeof *b->slot)) {
          b->alive[c[i].slot] = 0;
          break;
        }
    ctx_free(ctx, c);
  }
  /* per slot, its groups */
  b->sg_lo = ctx_alloc(ctx, (G->ntslots + 2) * sizeof *b->sg_lo);
  b->sg = ctx_alloc(ctx, (nin + 1) * sizeof *b->sg);
  for (i = 0; i < nin; i++)
    b->sg_lo[b->slot[i] + 1]++;
  for (s = 0; s < G->ntslots; s++)
    b->sg_lo[s + 1] += b->sg_lo[s];
  {
    uint32_t *at = ctx_alloc(ctx, (G->ntslots + 1) * sizeof *at);
    COPY(at, b->sg_lo, G->ntslots * sizeof *at);
    for (i = 0; i < ng; i++)
      for (j = b->lo[i]; j < b->lo[i + 1]; j++)
        b->sg[at[b->slot[j]]++] = i;
    ctx_free(ctx, at);
  }
}

/* ---- 2. at most one holds --------------------------------------------- */

/* Whether candidate g lies in a bigger one still alive (so that it holds
 * wherever that one does). */
static int inside(const build_t *b, uint32_t g)
{
  uint32_t s0 = b->slot[b->lo[g]], i, j, k;
  for (i = b->sg_lo[s0]; i < b->sg_lo[s0 + 1]; i++) {
    uint32_t h = b->sg[i];
    if (h == g || !b->alive[h] || grp_size(b, h) <= grp_size(b, g))
      continue;
    for (j = b->lo[g]; j < b->lo[g + 1]; j++) {
      for (k = b->lo[h]; k < b->lo[h + 1] && b->slot[k] != b->slot[j]; k++)
        ;
      if (k == b->lo[h + 1])
        break;
    }
    if (j == b->lo[g + 1])
      return 1;
  }
  return 0;
}

/* The candidates that hold in every state reached from `start` (by
 * induction over the moves).  One inside a bigger candidate is not asked
 * about: it holds where that one does, which is proven, or fails and is
 * dropped, and then it is asked about in the next round. */
static void prove(build_t *b, const uint32_t *start)
{
  const ground_t *G = b->G;
  uint32_t g, i, j;
  int changed;
  for (g = 0; g < b->ng; g++)
    if (b->alive[g] && grp_value(b->slot + b->lo[g], grp_size(b, g), start) == NONE)
      b->alive[g] = 0;
  for (g = 0; g < b->ng; g++)  /* the questions of a round, at most */
    if (b->alive[g] && !inside(b, g))
      b->qleft += (uint64_t)grp_size(b, g) * (grp_size(b, g) - 1) / 2;
  do {
    changed = 0;
    for (g = 0; g < b->ng; g++) {
      if (!b->alive[g] || inside(b, g))
        continue;
      for (i = b->lo[g]; b->alive[g] && i < b->lo[g + 1]; i++)
        for (j = i + 1; b->alive[g] && j < b->lo[g + 1]; j++) {
          uint32_t x = b->slot[i], y = b->slot[j];
          if (x >= G->nnext || y >= G->nnext)
            continue;
          add_lit(b, LIT(G->next[x].prop, 1));
          add_lit(b, LIT(G->next[y].prop, 1));
          b->step = 1;
          if (grp_can_hold(b)) {
            b->alive[g] = 0;
            changed = 1;
          }
          if (b->over) {       /* not proven: none is */
            memset(b->alive, 0, b->ng);
            b->qleft = 0;
            return;
          }
        }
    }
  } while (changed);
  b->qleft = 0;
}

/* ---- 3. values and distances ------------------------------------------ */

/* Whether value i of group g can hold where the game ends won. */
static int at_goal(build_t *b, uint32_t g, uint32_t i)
{
  grp_add_value(b, g, i);
  add_lit(b, LIT(est_goal(b->E), 1));
  add_lit(b, LIT(est_terminal(b->E), 1));
  return grp_can_hold(b);
}

/* Group g's edges into e (a row of size + 1 bytes per value): value i
 * to u where one move may take it there. */
static void edges(build_t *b, uint32_t g, uint8_t *e)
{
  uint32_t n = grp_size(b, g) + 1, i, u;
  for (i = 0; i < n; i++)
    for (u = 0; u < n; u++) {
      e[i * n + u] = 0;
      if (u == i)
        continue;
      grp_add_value(b, g, i);
      if (grp_add_next(b, g, u))
        e[i * n + u] = (uint8_t)grp_can_hold(b);
      else
        b->nlit = 0;
    }
}

/* Group g's distances (values 0 .. size, none last) into d, and its
 * edges into e: 0 where every distance is 0. */
static int distances(build_t *b, uint32_t g, uint32_t *d, uint8_t *e)
{
  uint32_t n = grp_size(b, g) + 1, i, u, lv, nonzero = 0;
  for (i = 0; i < n; i++) {
    d[i] = at_goal(b, g, i) ? 0 : INF;
    if (d[i])
      nonzero = 1;
  }
  if (!nonzero)
    return 0;
  edges(b, g, e);
  /* backwards from the goal values, a level at a time */
  for (lv = 0;; lv++) {
    int more = 0;
    for (i = 0; i < n; i++)
      if (d[i] == INF)
        for (u = 0; u < n; u++)
          if (e[i * n + u] && d[u] == lv) {
            d[i] = lv + 1;
            more = 1;
            break;
          }
    if (!more)
      break;
  }
  for (i = 0; i < n; i++)
    if (d[i] != 0)
      return 1;
  return 0;
}

/* ---- 4. the groups summed --------------------------------------------- */

/* The ways group g can change (e its edges), into w as pairs: a value
 * i left (NONE), or none left for value u (i none, u). */
static uint32_t changes_of(const build_t *b, uint32_t g, const uint8_t *e,
                           uint32_t *w)
{
  uint32_t n = grp_size(b, g) + 1, i, u, k = 0;
  for (i = 0; i < n; i++)
    for (u = 0; u < n; u++)
      if (e[i * n + u]) {
        w[k++] = i;
        w[k++] = i < n - 1 ? NONE : u;
        if (i < n - 1)
          break;               /* a value is left once, whatever next */
      }
  return k / 2;
}

static void add_way(build_t *b, uint32_t g, const uint32_t *w)
{
  grp_add_value(b, g, w[0]);
  if (w[1] == NONE)
    add_leave(b, g, w[0]);
  else
    grp_add_next(b, g, w[1]);
}

/* Whether one move can change groups g and h at once (eg, eh their
 * edges). */
static int conflict(build_t *b, uint32_t g, const uint8_t *eg, uint32_t h,
                    const uint8_t *eh)
{
  uint32_t ng = changes_of(b, g, eg, b->wg), i, j;
  uint32_t nh = changes_of(b, h, eh, b->wh);
  for (i = 0; i < ng; i++)
    for (j = 0; j < nh; j++) {
      add_way(b, g, b->wg + 2 * i);
      add_way(b, h, b->wh + 2 * j);
      if (grp_can_hold(b))
        return 1;
    }
  return 0;
}

/* The useful groups, their distances, weights and conflicts. */
static void useful(build_t *b, const uint32_t *start)
{
  gdl_ctx *ctx = b->ctx;
  uint32_t g, i, j;
  b->use = ctx_alloc(ctx, (b->ng + 1) * sizeof *b->use);
  b->dist = ctx_alloc(ctx, (b->ng + 1) * sizeof *b->dist);
  b->edge = ctx_alloc(ctx, (b->ng + 1) * sizeof *b->edge);
  for (g = 0; g < b->ng && !b->over; g++) {
    uint32_t n = grp_size(b, g) + 1;
    if (!b->alive[g] || inside(b, g))
      continue;                /* in a bigger one: that one's is used */
    b->dist[b->nu] = ctx_alloc(ctx, n * sizeof **b->dist);
    b->edge[b->nu] = ctx_alloc(ctx, n * n);
    if (distances(b, g, b->dist[b->nu], b->edge[b->nu])) {
      b->use[b->nu++] = g;
    } else {
      ctx_free(ctx, b->dist[b->nu]);
      ctx_free(ctx, b->edge[b->nu]);
    }
  }
  b->conf = ctx_alloc(ctx, (size_t)b->nu * b->nu + 1);
  b->wt = ctx_alloc(ctx, (b->nu + 1) * sizeof *b->wt);
  b->d0 = ctx_alloc(ctx, (b->nu + 1) * sizeof *b->d0);
  for (i = 0; i < b->nu; i++) {
    uint32_t u = b->use[i], n = grp_size(b, u) + 1, maxd = 0;
    uint32_t v = grp_value(b->slot + b->lo[u], n - 1, start);   /* proven */
    for (j = 0; j < n; j++)
      if (b->dist[i][j] != INF && b->dist[i][j] > maxd)
        maxd = b->dist[i][j];
    b->d0[i] = b->dist[i][v] == INF ? 1u << 20 : b->dist[i][v];
    b->wt[i] = 4 * b->d0[i] + maxd;
    for (j = 0; j < i; j++)    /* past the work: in conflict */
      if (b->over || conflict(b, u, b->edge[i], b->use[j], b->edge[j]))
        b->conf[i * b->nu + j] = b->conf[j * b->nu + i] = 1;
  }
}

/* Greedily, a set of no two in conflict (st: 1 free, 2 chosen, 0 not),
 * largest weight over one more than the free groups it conflicts with
 * first; returns the sum of the start's distances of those chosen. */
static uint64_t choose(const build_t *b, uint8_t *st, uint32_t *deg)
{
  uint32_t nu = b->nu, i, j, k;
  uint64_t sum = 0;
  for (i = 0; i < nu; i++)
    for (j = 0, deg[i] = 0; j < nu; j++)
      deg[i] += st[j] == 1 && b->conf[i * nu + j];
  for (;;) {
    uint32_t best = NONE;
    for (i = 0; i < nu; i++)   /* wt / (deg + 1), compared as products */
      if (st[i] == 1 &&
          (best == NONE || (uint64_t)b->wt[i] * (deg[best] + 1) >
                               (uint64_t)b->wt[best] * (deg[i] + 1)))
        best = i;
    if (best == NONE)
      break;
    st[best] = 2;
    for (j = 0; j < nu; j++)
      if (st[j] == 1 && b->conf[best * nu + j]) {
        st[j] = 0;
        for (k = 0; k < nu; k++)
          if (st[k] == 1 && b->conf[j * nu + k])
            deg[k]--;
      }
  }
  for (i = 0; i < nu; i++)
    if (st[i] == 2)
      sum += b->d0[i];
  return sum;
}

/* The groups summed: of the sets chosen from the groups of one family
 * first (then any that fit) and from all at once, the one of the largest
 * sum at the start (the first of equal ones), into best (2: chosen). */
static void choose_groups(build_t *b, uint8_t *best)
{
  uint32_t nu = b->nu, i, j, f;
  uint8_t *st = ctx_alloc(b->ctx, nu + 1);
  uint32_t *deg = ctx_alloc(b->ctx, (nu + 1) * sizeof *deg);
  uint64_t top = 0;
  int any = 0;
  for (f = 0; f <= nu; f++) {  /* family of use[f]; nu: all at once */
    uint64_t sum;
    if (f < nu) {
      for (j = 0; j < f && b->fam[b->use[j]] != b->fam[b->use[f]]; j++)
        ;
      if (j < f)
        continue;              /* a family seen */
      for (i = 0; i < nu; i++)
        st[i] = b->fam[b->use[i]] == b->fam[b->use[f]];
      choose(b, st, deg);
      for (i = 0; i < nu; i++)
        if (st[i] != 2) {
          st[i] = 1;
          for (j = 0; j < nu; j++)
            if (st[j] == 2 && b->conf[i * nu + j])
              st[i] = 0;
        }
    } else {
      memset(st, 1, nu);
    }
    sum = choose(b, st, deg);
    if (!any || sum > top) {
      top = sum;
      any = 1;
      COPY(best, st, nu);
    }
  }
  ctx_free(b->ctx, st);
  ctx_free(b->ctx, deg);
}

/* ---- 5. the free group ------------------------------------------------
 *
 * A group that every move changes, and that one move may change together
 * with several of the groups summed: the blank of a sliding puzzle, the
 * place of a robot.  It is not summed (so no move is counted twice), but
 * every pattern has it (patterns.c), its own moves free: a pattern's tile
 * then moves only into the blank, and the blank goes around the
 * pattern's tiles, not through them, as in Korf and Felner's additive
 * databases.  Of those that qualify, the largest; into b->fc and its
 * edges b->fe. */
static void free_group(build_t *b, const uint8_t *best)
{
  gdl_ctx *ctx = b->ctx;
  uint32_t g, i, j, v, n, top = 0, c = 0;
  uint8_t *taken = ctx_alloc(ctx, b->G->ntslots + 1);
  b->fc = NONE;
  for (i = 0; i < b->nu; i++)  /* a slot of a group summed is not free */
    if (best[i] == 2)
      for (j = b->lo[b->use[i]]; j < b->lo[b->use[i] + 1]; j++)
        taken[b->slot[j]] = 1;
  for (g = 0; g < b->ng && !b->over; g++) {
    n = grp_size(b, g) + 1;
    if (!b->alive[g] || n > 64 || n <= top || inside(b, g))
      continue;
    for (j = b->lo[g]; j < b->lo[g + 1] && !taken[b->slot[j]]; j++)
      ;
    if (j < b->lo[g + 1])
      continue;
    for (v = 0; v < n; v++) {  /* no move leaves it as it is */
      grp_add_value(b, g, v);
      if (grp_add_next(b, g, v) && grp_can_hold(b))
        break;
      b->nlit = 0;
    }
    if (v == n) {
      b->fc = g;
      top = n;
    }
  }
  ctx_free(ctx, taken);
  if (b->fc == NONE || b->over)
    return;
  b->fe = ctx_alloc(ctx, (size_t)top * top);
  edges(b, b->fc, b->fe);
  for (i = 0; i < b->nu && c < 2; i++)
    if (best[i] == 2 && conflict(b, b->fc, b->fe, b->use[i], b->edge[i]))
      c++;
  if (c < 2 || b->over) {      /* it would add nothing */
    ctx_free(ctx, b->fe);
    b->fe = NULL;
    b->fc = NONE;
  }
}

/* Group g's values numbered, into cm (size + 1 of them, none last): those
 * reached from value `at` by its edges e (and, where dist is given, of
 * finite distance) from 0 on; NONE the others. */
static void number_values(uint32_t n, const uint8_t *e, uint32_t at,
                          const uint32_t *dist, uint32_t *cm)
{
  uint32_t j, u, k;
  for (j = 0; j <= n; j++)
    cm[j] = NONE;
  cm[at] = 0;
  for (k = 1; k;)              /* (cm: 0 reached, NONE not yet) */
    for (j = 0, k = 0; j <= n; j++)
      for (u = 0; cm[j] == 0 && u <= n; u++)
        if (e[j * (n + 1) + u] && cm[u] == NONE) {
          cm[u] = 0;
          k = 1;
        }
  for (j = 0, k = 0; j <= n; j++)
    cm[j] = cm[j] == NONE || (dist && dist[j] == INF) ? NONE : k++;
}

/* The estimate of the groups chosen (best[i] 2) and the free group, and
 * every group proven for the test of another start. */
static groups_t *groups_made(build_t *b, const uint8_t *best,
                             const uint32_t *start)
{
  gdl_ctx *ctx = b->ctx;
  groups_t *D = ctx_alloc(ctx, sizeof *D);
  uint32_t i, g, ns = 0, at = 0, nd = 0, nf = 0;
  for (i = 0; i < b->nu; i++)
    ns += best[i] == 2;
  if (b->fc != NONE)
    nf = grp_size(b, b->fc);
  D->lo = ctx_alloc(ctx, (ns + 3) * sizeof *D->lo);
  for (i = 0; i < b->nu; i++)
    if (best[i] == 2) {
      at += grp_size(b, b->use[i]);
      nd += grp_size(b, b->use[i]) + 1;
      D->lo[++D->ng] = at;
    }
  D->slot = ctx_alloc(ctx, (at + nf + 1) * sizeof *D->slot);
  D->dist = ctx_alloc(ctx, (nd + nf + 2) * sizeof *D->dist);
  for (i = 0, g = 0; i < b->nu; i++)
    if (best[i] == 2) {
      uint32_t n = grp_size(b, b->use[i]);
      COPY(D->slot + D->lo[g], b->slot + b->lo[b->use[i]],
           n * sizeof *D->slot);
      COPY(D->dist + D->lo[g] + g, b->dist[i], (n + 1) * sizeof *D->dist);
      g++;
    }
  if (b->fc != NONE) {         /* the free group last: distance 0 at */
    D->nfree = 1;              /* the values that can hold at the goal */
    D->lo[g + 1] = at + nf;
    COPY(D->slot + at, b->slot + b->lo[b->fc], nf * sizeof *D->slot);
    for (i = 0; i <= nf; i++)
      D->dist[at + ns + i] = at_goal(b, b->fc, i) ? 0 : INF;
  }
  D->nslots = b->G->ntslots;
  D->sgroup = ctx_alloc(ctx, (D->nslots + 1) * sizeof *D->sgroup);
  D->splace = ctx_alloc(ctx, (D->nslots + 1) * sizeof *D->splace);
  D->cm = ctx_alloc(ctx, (nd + nf + 2) * sizeof *D->cm);
  for (i = 0, g = 0; i <= b->nu; i++)  /* the values numbered: those of */
    if (i < b->nu ? best[i] == 2 : D->nfree) { /* finite distance reached */
      uint32_t n = D->lo[g + 1] - D->lo[g], j;   /* from the start's */
      const uint32_t *slot = D->slot + D->lo[g];
      for (j = 0; j < n; j++) {
        D->sgroup[slot[j]] = g + 1;
        D->splace[slot[j]] = j;
      }
      number_values(n, i < b->nu ? b->edge[i] : b->fe,
                    grp_value(slot, n, start),        /* proven: one */
                    i < b->nu ? b->dist[i] : NULL, D->cm + D->lo[g] + g);
      g++;
    }
  D->all_lo = ctx_alloc(ctx, (b->ng + 2) * sizeof *D->all_lo);
  D->all = ctx_alloc(ctx, (b->lo[b->ng] + 1) * sizeof *D->all);
  for (g = 0, at = 0; g < b->ng; g++)
    if (b->alive[g]) {
      COPY(D->all + at, b->slot + b->lo[g], grp_size(b, g) * sizeof *D->all);
      at += grp_size(b, g);
      D->all_lo[++D->nall] = at;
    }
  return D;
}

void grp_build_free(build_t *b)
{
  gdl_ctx *ctx = b->ctx;
  uint32_t i;
  for (i = 0; i < b->nu; i++) {
    ctx_free(ctx, b->dist[i]);
    ctx_free(ctx, b->edge[i]);
  }
  ctx_free(ctx, b->use);
  ctx_free(ctx, b->dist);
  ctx_free(ctx, b->edge);
  ctx_free(ctx, b->fe);
  ctx_free(ctx, b->duse);
  ctx_free(ctx, b->conf);
  ctx_free(ctx, b->wt);
  ctx_free(ctx, b->d0);
  ctx_free(ctx, b->does);
  ctx_free(ctx, b->legal);
  ctx_free(ctx, b->gate);
  ctx_free(ctx, b->move_of);
  ctx_free(ctx, b->trail);
  ctx_free(ctx, b->want);
  ctx_free(ctx, b->lit);
  ctx_free(ctx, b->wg);
  ctx_free(ctx, b->wh);
  ctx_free(ctx, b->lo);
  ctx_free(ctx, b->slot);
  ctx_free(ctx, b->fam);
  ctx_free(ctx, b->alive);
  ctx_free(ctx, b->sg_lo);
  ctx_free(ctx, b->sg);
}

groups_t *grp_build(build_t *b, gdl_ctx *ctx, est_t *E,
                    const uint32_t *start, int with_free, const char *cache)
{
  ground_t *G = ctx->ground;
  groups_t *D = NULL;
  uint32_t i, g = 0;
  memset(b, 0, sizeof *b);
  b->ctx = ctx;
  if (!E || est_moves(E) == 0 || est_moves(E) > MAX_MOVES ||
      est_goal(E) == NONE || est_terminal(E) == NONE)
    return NULL;
  b->E = E;
  b->G = G;
  b->on = NONE;
  b->fc = NONE;
  b->cache = cache && cache[0] ? cache : NULL;
  b->nm = est_moves(E);
  b->does = ctx_alloc(ctx, (b->nm + 1) * sizeof *b->does);
  b->legal = ctx_alloc(ctx, (b->nm + 1) * sizeof *b->legal);
  b->gate = ctx_alloc(ctx, (b->nm + 1) * sizeof *b->gate);
  b->move_of = ctx_alloc(ctx, (G->nprops + 1) * sizeof *b->move_of);
  for (i = 0; i < b->nm; i++) {
    est_move(E, i, &b->does[i], &b->legal[i], &b->gate[i]);
    if (b->does[i] != NONE)
      b->move_of[b->does[i]] = i + 1;
  }
  b->trail = ctx_alloc(ctx, (G->nprops + 1) * sizeof *b->trail);
  b->want = ctx_alloc(ctx, (4 * MAX_GROUP + 8) * sizeof *b->want);
  b->lit = ctx_alloc(ctx, (4 * MAX_GROUP + 8) * sizeof *b->lit);
  b->wg = ctx_alloc(ctx, (4 * MAX_GROUP + 8) * sizeof *b->wg);
  b->wh = ctx_alloc(ctx, (4 * MAX_GROUP + 8) * sizeof *b->wh);
  b->X = est_eval(E);
  b->work0 = b->X->evals;
  b->work = WORK_PER_PROP2 * G->nprops * G->nprops;
  b->work = b->work < WORK_MIN ? WORK_MIN
            : b->work > WORK_MAX ? WORK_MAX : b->work;
  kern_unfix(b->X);
  candidates(b);
  prove(b, start);
  useful(b, start);
  kern_unfix(b->X);
  if (b->nu) {
    uint8_t *best = ctx_alloc(ctx, b->nu + 1);
    choose_groups(b, best);
    if (with_free)
      free_group(b, best);
    D = groups_made(b, best, start);
    b->duse = ctx_alloc(ctx, (b->nu + 1) * sizeof *b->duse);
    for (i = 0; i < b->nu; i++)
      if (best[i] == 2)
        b->duse[g++] = i;
    ctx_free(ctx, best);
  }
  return D;
}

void groups_free(gdl_ctx *ctx, groups_t *D)
{
  uint32_t g;
  if (!D)
    return;
  ctx_free(ctx, D->lo);
  ctx_free(ctx, D->slot);
  ctx_free(ctx, D->dist);
  for (g = 0; g < D->npat; g++)
    pdb_free(ctx, D->pat[g]);
  ctx_free(ctx, D->pat);
  ctx_free(ctx, D->pat_lo);
  ctx_free(ctx, D->pat_g);
  ctx_free(ctx, D->inpat);
  ctx_free(ctx, D->sgroup);
  ctx_free(ctx, D->splace);
  ctx_free(ctx, D->cm);
  ctx_free(ctx, D->all_lo);
  ctx_free(ctx, D->all);
  ctx_free(ctx, D);
}

int groups_hold(const groups_t *D, const uint32_t *w)
{
  uint32_t g;
  for (g = 0; g < D->nall; g++)
    if (grp_value(D->all + D->all_lo[g], D->all_lo[g + 1] - D->all_lo[g], w) ==
        NONE)
      return 0;
  return 1;
}

uint32_t groups_count(const groups_t *D)
{
  return D ? D->ng : 0;
}

uint32_t groups_cached(const groups_t *D, const char **why)
{
  *why = D && D->cache_why[0] ? D->cache_why : NULL;
  return D ? D->ncached : 0;
}

uint32_t groups_patterned(const groups_t *D)
{
  uint32_t g, n = 0;
  for (g = 0; D && D->inpat && g < D->ng; g++)
    n += D->inpat[g] != 0;
  return n;
}

double groups_seconds(const groups_t *D)
{
  return D ? D->seconds : 0;
}

uint32_t groups_patterns(const groups_t *D, uint64_t *entries)
{
  uint32_t p;
  *entries = 0;
  for (p = 0; D && p < D->npat; p++)
    *entries += pdb_size(D->pat[p]);
  return D ? D->npat : 0;
}

uint32_t groups_nvalues(const groups_t *D)
{
  return D ? D->ng + D->nfree : 0;
}

void groups_values(const groups_t *D, const uint32_t *w, uint32_t *v)
{
  uint32_t g;
  for (g = 0; g < D->ng + D->nfree; g++)
    v[g] = grp_value(D->slot + D->lo[g], D->lo[g + 1] - D->lo[g], w);
}

void groups_step(const groups_t *D, const uint32_t *pw, const uint32_t *pv,
                 const uint32_t *w, uint32_t words, uint32_t *v)
{
  uint32_t k;
  COPY(v, pv, (D->ng + D->nfree) * sizeof *v);
  for (k = 0; k < words; k++) {
    uint32_t x = pw[k] ^ w[k];
    while (x) {
      uint32_t s = k * 32 + (uint32_t)__builtin_ctz(x), g;
      x &= x - 1;
      uint32_t n;
      if (s >= D->nslots || (g = D->sgroup[s]) == 0)
        continue;
      g--;
      n = D->lo[g + 1] - D->lo[g];
      /* the slots that came to hold or ceased to, one at a time, in any
       * order: a value whose slot holds no more is left; two that hold
       * at once (where the proof does not speak of the state) are NONE,
       * from which a group is read in full */
      if (v[g] == NONE)
        v[g] = grp_value(D->slot + D->lo[g], n, w);
      else if (word_bit(w, s))
        v[g] = v[g] == n || !word_bit(w, D->slot[D->lo[g] + v[g]])
                   ? D->splace[s] : NONE;
      else if (v[g] == D->splace[s])
        v[g] = n;
    }
  }
}

uint32_t groups_h(const groups_t *D, const uint32_t *v)
{
  uint32_t g, p, i, sum = 0, all = 0, cv[64];
  for (g = 0; g < D->ng; g++) {
    uint32_t d;
    if (v[g] == NONE)
      return 0;                /* not a state the proof speaks of */
    d = D->dist[D->lo[g] + g + v[g]];
    if (d == INF)
      return EST_DEAD;
    all += d;
    if (!D->inpat || !D->inpat[g])
      sum += d;
  }
  if (D->nfree && D->npat &&
      (v[g] == NONE || D->cm[D->lo[g] + g + v[g]] == NONE))
    return all;                /* a free value no table has */
  for (p = 0; p < D->npat; p++) {
    uint32_t d;
    for (i = D->pat_lo[p]; i < D->pat_lo[p + 1]; i++) {
      g = D->pat_g[i];
      cv[i - D->pat_lo[p]] = D->cm[D->lo[g] + g + v[g]];
    }
    d = pdb_value(D->pat[p], cv);
    if (d == EST_DEAD)
      return EST_DEAD;
    sum += d;
  }
  return sum;
}

uint32_t groups_sum(const groups_t *D, const uint32_t *w)
{
  uint32_t g, sum = 0;
  for (g = 0; g < D->ng; g++) {
    uint32_t v = grp_value(D->slot + D->lo[g], D->lo[g + 1] - D->lo[g], w), d;
    if (v == NONE)
      return 0;                /* not a state the proof speaks of */
    d = D->dist[D->lo[g] + g + v];
    if (d == INF)
      return EST_DEAD;
    sum += d;
  }
  return sum;
}
