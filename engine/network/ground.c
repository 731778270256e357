/*
 * ground.c - the grounded engine: the rules instantiated once per game into
 * a propositional network, a state as the truth values of its atoms.  This
 * file builds the network; network/network.h says which file does what.
 *
 * 1. Over-approximation.  The interpreter runs "relaxed": every `not` of a
 *    relation that depends on the state holds, `true` holds for every
 *    fluent seen so far (init, then every `next` derived) and `does` for
 *    every `legal` move.  Nothing is ever retracted, so this reaches a
 *    fixpoint that contains every atom any reachable state can derive.
 * 2. Instantiation.  Each rule that depends on the state is joined once
 *    over those facts; each instance becomes a ground rule: a head atom,
 *    positive and negative input atoms.  Literals over static relations
 *    are decided now and dropped, and so is a `not` of an atom that can
 *    never hold.  Every atom left is a proposition with a number.
 * 3. Reshaping (ground_reshape.c).  Rules are factored into independent
 *    parts (factor_rule), parts of one move are built from the moves left
 *    out (ground_exclusive), rules of one head share their common inputs
 *    (ground_share_inputs), recursion without cycles over atoms is
 *    unrolled (ground_unroll), aliases go (ground_drop_aliases) and legal
 *    moves lose the turn they all read (ground_gate_legal): each says why
 *    where it is defined.
 * 4. Evaluation.  The ground rules keep the order of the rule components
 *    (strata.c), so one pass in that order computes every proposition of a
 *    state; a recursive component is passed over until nothing changes.  A
 *    rule's inputs are checked `does` first, so in the move phase a rule
 *    about another move costs one byte read.  After the first state only
 *    what changed is propagated (see "incrementally" in ground_prop.c).
 *
 * Where the network would be too large (a limit on inputs), ground_build
 * fails with GDL_ELIMIT and the interpreter stays in use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "network/network.h"

#define MAX_RELAXED_FACTS 2000000
/* cc -DGROUND_SECONDS=100: a build for valgrind */
#ifndef GROUND_SECONDS
#define GROUND_SECONDS 5.0
#endif

static void bucket_group(gdl_ctx *ctx, ground_t *G, group_t *g);
static void incr_build(gdl_ctx *ctx, ground_t *G);

static int is_does(const gdl_ctx *ctx, const ground_t *G, uint32_t p)
{
  const term_t *t = &ctx->terms[G->atom[p]];
  return t->kind == T_FN && t->sym == S_DOES && t->arity == 2;
}

/* ---- factoring --------------------------------------------------------
 *
 * A rule's instances are the product of its body's independent parts: in
 * the 8-puzzle's frame rule
 *   (next (cell ?u ?v ?z)) <= (true (cell ?u ?v ?z))
 *       (does player (move ?x ?y)) (or (distinct ?x ?u) (distinct ?y ?v))
 *       (true (cell ?x1 ?y1 b)) (or (distinct ?x1 ?u) (distinct ?y1 ?v))
 * the move and the blank share no variable but the head's, so 81 cells x
 * 9 moves x 9 blanks x 4 instances say no more than "the move is not here
 * and the blank is not here", per cell.  Body literals are put together
 * when they share a variable that is not in the head; each such part
 * that has a variable of its own becomes a proposition of its own (an
 * auxiliary, keyed by the head variables it uses), derived by one ground
 * rule per instance of the part, and the rule itself reads the
 * auxiliaries: sum, not product.  Instances repeat (each part's instance
 * comes once per combination with the others), so ground rules are kept
 * once, told apart by a term of their variables' values (G->seen).  Only
 * rules outside recursion are factored, and only when it can pay: two
 * parts or more, or one part beside literals of the head's variables. */

typedef struct {
  uint32_t sym, isym;      /* functor of its auxiliaries, of its instances */
  uint8_t phase;
  uint8_t one_move;        /* its one input is a `does` (see
                              ground_exclusive) */
  uint32_t nkey, nall;
  uint32_t *key, *all;     /* the head variables it uses; all its vars */
} part_t;

struct factor {
  uint8_t *part;           /* per body literal: 0 the rule's own, k + 1
                              part k */
  uint32_t nparts;
  part_t *parts;
  uint32_t msym, nm, *m;   /* the rule's own instances: head variables and
                              those of its own literals */
};

/* Adds the variables of t to *m; 0 when one is past 64. */
static int vars_of(const gdl_ctx *ctx, gdl_term t, uint64_t *m)
{
  const term_t *x = &ctx->terms[t];
  uint32_t i;
  if (x->ground)
    return 1;
  if (x->kind == T_VAR) {
    if (x->sym >= 64)
      return 0;
    *m |= (uint64_t)1 << x->sym;
    return 1;
  }
  for (i = 0; i < x->arity; i++)
    if (!vars_of(ctx, TARG(ctx, t, i), m))
      return 0;
  return 1;
}

static uint32_t *var_list(gdl_ctx *ctx, uint64_t m, uint32_t *n)
{
  uint32_t *v = ctx_alloc(ctx, 65 * sizeof *v), i;
  *n = 0;
  for (i = 0; i < 64; i++)
    if ((m >> i) & 1)
      v[(*n)++] = i;
  return v;
}

/* The variables of literal l; 0 when one is past 64. */
static int lit_vars(const gdl_ctx *ctx, const lit_t *l, uint64_t *m)
{
  *m = 0;
  return vars_of(ctx, l->a, m) &&
         (l->kind == L_POS || l->kind == L_NEG || vars_of(ctx, l->b, m));
}

/* Whether literal l gives an input to ground rules (not decided when
 * grounding). */
static int lit_input(const gdl_ctx *ctx, const lit_t *l)
{
  return (l->kind == L_POS || l->kind == L_NEG) &&
         ctx->rels[l->rel].phase != P_STATIC;
}

/* The parts of rule ri (see above), or NULL when it is not factored. */
static struct factor *factor_rule(gdl_ctx *ctx, uint32_t ri)
{
  const rule_t *r = &ctx->rules[ri];
  uint64_t head = 0, lv[64], pv[64], pm = 0;
  uint32_t n = r->nbody, i, j, k, np = 0, own_inputs = 0, comp[64];
  uint8_t pphase[64], pin[64];
  struct factor *f;
  char name[48];
  if (n > 64 || !vars_of(ctx, r->head, &head))
    return NULL;
  for (i = 0; i < n; i++) {
    if (!lit_vars(ctx, &r->body[i], &lv[i]))
      return NULL;
    comp[i] = i;
  }
  /* literals that share a variable not in the head: one part */
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++)
      if (lv[i] & lv[j] & ~head) {
        uint32_t a = comp[i], b = comp[j];
        for (k = 0; k < n; k++)
          if (comp[k] == a)
            comp[k] = b;
      }
  /* number the parts that have a variable of their own and an input */
  for (i = 0; i < n; i++) {
    uint64_t v = 0;
    int input = 0, ph = P_STATIC;
    if (comp[i] != i)
      continue;
    for (k = 0; k < n; k++)
      if (comp[k] == i) {
        v |= lv[k];
        if (lit_input(ctx, &r->body[k])) {
          input = 1;
          if (ctx->rels[r->body[k].rel].phase > ph)
            ph = ctx->rels[r->body[k].rel].phase;
        }
      }
    if ((v & ~head) && input) {
      pv[np] = v;
      pphase[np] = (uint8_t)ph;
      pin[np] = (uint8_t)i;
      np++;
    }
  }
  for (i = 0; i < n; i++) {
    for (k = 0; k < np && comp[i] != pin[k]; k++)
      ;
    if (k == np && lit_input(ctx, &r->body[i]))
      own_inputs++;
  }
  if (np == 0 || (np == 1 && own_inputs == 0))
    return NULL;
  f = ctx_alloc(ctx, sizeof *f);
  f->part = ctx_alloc(ctx, n + 1);
  f->parts = ctx_alloc(ctx, np * sizeof *f->parts);
  f->nparts = np;
  for (i = 0; i < n; i++) {
    for (k = 0; k < np && comp[i] != pin[k]; k++)
      ;
    f->part[i] = (uint8_t)(k < np ? k + 1 : 0);
    if (k == np)
      pm |= lv[i];
  }
  for (k = 0; k < np; k++) {
    part_t *p = &f->parts[k];
    uint32_t inputs = 0, moves = 0;
    for (i = 0; i < n; i++)
      if (comp[i] == pin[k] && lit_input(ctx, &r->body[i])) {
        inputs++;
        moves += r->body[i].kind == L_POS && r->body[i].rel == ctx->r_does;
      }
    p->one_move = inputs == 1 && moves == 1;
    p->phase = pphase[k];
    p->key = var_list(ctx, pv[k] & head, &p->nkey);
    p->all = var_list(ctx, pv[k], &p->nall);
    snprintf(name, sizeof name, " aux%u.%u", ri, k);
    p->sym = sym_intern(ctx, name, strlen(name));
    snprintf(name, sizeof name, " inst%u.%u", ri, k);
    p->isym = sym_intern(ctx, name, strlen(name));
  }
  f->m = var_list(ctx, pm | head, &f->nm);
  snprintf(name, sizeof name, " inst%u", ri);
  f->msym = sym_intern(ctx, name, strlen(name));
  return f;
}

/* The term sym(values of vars), with the bindings in hand. */
static gdl_term bound_term(gdl_ctx *ctx, uint32_t sym, const uint32_t *vars,
                           uint32_t n)
{
  gdl_term v[64];
  uint32_t i;
  if (n == 0)
    return term_sym(ctx, sym);
  for (i = 0; i < n; i++)
    v[i] = ctx->bind[vars[i]];
  return term_fn(ctx, sym, n, v);
}

/* Whether term t was seen before; it is from now on. */
static int mark_seen(gdl_ctx *ctx, ground_t *G, gdl_term t)
{
  return ground_mark_term(ctx, &G->seen, &G->seencap, t);
}


/* The inputs of the body literals of rule r in part `part` (0: the
 * rule's own) into buffer b, `does` first; returns how many. */
static uint32_t lit_inputs(gdl_ctx *ctx, ground_t *G, const rule_t *r,
                           const struct factor *f, uint32_t part, int b)
{
  uint32_t i, pass, n = 0;
  for (pass = 0; pass < 2; pass++)
    for (i = 0; i < r->nbody; i++) {
      const lit_t *l = &r->body[i];
      gdl_term a;
      if (!lit_input(ctx, l) || (pass == 0) != (l->rel == ctx->r_does) ||
          (f && f->part[i] != part))
        continue;
      if (l->kind == L_POS) {
        a = eval_subst(ctx, l->a, 1);
      } else {
        a = eval_subst(ctx, l->a, 0);
        if (!a || !ctx->present[a])
          continue;            /* can never hold: the `not` always does */
      }
      ground_buf_put(ctx, G, b,
                     ground_prop_of(ctx, G, a, ctx->rels[l->rel].phase) * 2 +
                         (l->kind == L_NEG));
      n++;
    }
  return n;
}

/* One instance of rule r, with the bindings of the join in hand: a ground
 * rule into G->buf[BUF_RULES(phase)] as head, count, inputs; with its
 * parts' into the buffers of their phases when it is factored. */
static void emit_instance(gdl_ctx *ctx, const rule_t *r)
{
  ground_t *G = ctx->ground;
  const struct factor *f = G->factor ? G->factor[r - ctx->rules] : NULL;
  uint32_t aux[64], k, at, n;
  int rb = BUF_RULES(ctx->rels[r->rel].phase);
  gdl_term h;
  if (f) {
    for (k = 0; k < f->nparts; k++) {
      const part_t *p = &f->parts[k];
      int b = p->phase == P_MOVE ? BUF_MOVE : BUF_STATE;
      aux[k] = ground_prop_of(ctx, G,
                              bound_term(ctx, p->sym, p->key, p->nkey),
                              p->phase);
      if (mark_seen(ctx, G, bound_term(ctx, p->isym, p->all, p->nall)))
        continue;
      if (p->one_move) {       /* its rules are made by ground_exclusive() */
        const lit_t *l = NULL;
        uint32_t i;
        for (i = 0; i < r->nbody; i++)
          if (f->part[i] == k + 1 && lit_input(ctx, &r->body[i]))
            l = &r->body[i];
        if (G->nom >= G->omcap)
          GROW(ctx, G->om, G->omcap, G->nom);
        G->om[G->nom].part = p->sym;
        G->om[G->nom].aux = aux[k];
        G->om[G->nom++].does =
            ground_prop_of(ctx, G, eval_subst(ctx, l->a, 1), P_MOVE);
        continue;
      }
      ground_buf_put(ctx, G, b, aux[k]);
      at = G->nbuf[b];
      ground_buf_put(ctx, G, b, 0);
      n = lit_inputs(ctx, G, r, f, k + 1, b);   /* may move buf[b] */
      G->buf[b][at] = n;
    }
    if (mark_seen(ctx, G, bound_term(ctx, f->msym, f->m, f->nm)))
      return;
  }
  h = eval_subst(ctx, r->head, 1);
  ground_buf_put(ctx, G, rb,
                 ground_prop_of(ctx, G, h, ctx->rels[r->rel].phase));
  at = G->nbuf[rb];
  ground_buf_put(ctx, G, rb, 0);
  n = lit_inputs(ctx, G, r, f, 0, rb);
  G->buf[rb][at] = n;
  if (f)
    for (k = 0; k < f->nparts; k++) {
      ground_buf_put(ctx, G, rb, aux[k] * 2);
      G->buf[rb][at]++;
    }
}

/* The rules of buffer b as a group of the network. */
static void flush_group(gdl_ctx *ctx, ground_t *G, int b, int phase,
                        int recursive)
{
  const uint32_t *x, *end;
  group_t *g;
  if (G->nbuf[b] == 0)
    return;
  x = G->buf[b];
  end = x + G->nbuf[b];
  GROW(ctx, G->groups, G->groupcap, G->ngroups);
  g = &G->groups[G->ngroups++];
  g->phase = (uint8_t)phase;
  g->recursive = (uint8_t)recursive;
  g->lo = G->nrules;
  while (x < end) {
    uint32_t n = x[1];
    if (G->nrules + 1 >= G->rulecap) {
      uint32_t c = G->rulecap ? G->rulecap * 2 : 1024;
      G->head = ctx_realloc(ctx, G->head, c * sizeof *G->head);
      G->in_lo = ctx_realloc(ctx, G->in_lo, (c + 1) * sizeof *G->in_lo);
      G->rulecap = c;
    }
    if (G->nin + n >= G->incap) {
      uint32_t c = G->incap ? G->incap : 4096;
      while (c <= G->nin + n)
        c *= 2;
      G->in = ctx_realloc(ctx, G->in, c * sizeof *G->in);
      G->incap = c;
    }
    G->head[G->nrules] = x[0];
    G->in_lo[G->nrules] = G->nin;
    COPY(G->in + G->nin, x + 2, n * sizeof *x);
    G->nin += n;
    G->nrules++;
    G->in_lo[G->nrules] = G->nin;
    x += 2 + n;
    if ((G->nrules & 4095) == 0)
      ctx_poll(ctx);
  }
  g = &G->groups[G->ngroups - 1];
  g->hi = G->nrules;
  if (g->recursive)
    ground_unroll(ctx, G, g);
  G->nbuf[b] = 0;
}

/* ---- building --------------------------------------------------------- */

static int cmp_term(const void *a, const void *b)
{
  gdl_term x = *(const gdl_term *)a, y = *(const gdl_term *)b;
  return x < y ? -1 : x > y;
}

/* The relaxed fixpoint (step 1 above): leaves every atom that can hold in
 * a reachable state in the database.  Relaxed, nothing derived is ever
 * false again, so the rounds keep the database and each joins only what
 * can use a fact new since the round before (eval_phase_since): a step
 * counter of 200 values costs 200 small rounds, not 200 whole
 * evaluations. */
static void relaxed_fixpoint(gdl_ctx *ctx)
{
  const rel_t *init = &ctx->rels[ctx->r_init];
  const rel_t *legal = &ctx->rels[ctx->r_legal];
  const rel_t *next = &ctx->rels[ctx->r_next];
  uint32_t *since = NULL, *now = ctx_alloc(ctx, (ctx->nrels + 1) *
                                                sizeof *now);
  uint32_t i, rounds = 0, nlegal = 0, nnext = 0;
  gdl_term *f = ctx_alloc(ctx, (init->n + 1) * sizeof *f);
  for (i = 0; i < init->n; i++)
    f[i] = TARG(ctx, init->facts[i], 0);
  qsort(f, init->n, sizeof *f, cmp_term);    /* the initial state, by id */
  eval_clear(ctx, P_STATE);
  for (i = 0; i < init->n; i++)
    eval_insert(ctx, ctx->r_true, term_fn(ctx, S_TRUE, 1, &f[i]));
  ctx_free(ctx, f);
  ctx->relaxed = 1;
  for (;;) {
    for (i = 0; i < ctx->nrels; i++)
      now[i] = ctx->rels[i].n;
    eval_phase_since(ctx, P_STATE, since);
    for (; nlegal < legal->n; nlegal++) {
      gdl_term args[2];
      args[0] = TARG(ctx, legal->facts[nlegal], 0);
      args[1] = TARG(ctx, legal->facts[nlegal], 1);
      eval_insert(ctx, ctx->r_does, term_fn(ctx, S_DOES, 2, args));
    }
    eval_phase_since(ctx, P_MOVE, since);
    if (nnext == next->n)
      break;
    for (; nnext < next->n; nnext++) {
      gdl_term x = TARG(ctx, next->facts[nnext], 0);  /* targs may move */
      eval_insert(ctx, ctx->r_true, term_fn(ctx, S_TRUE, 1, &x));
    }
    if (!since)
      since = ctx_alloc(ctx, (ctx->nrels + 1) * sizeof *since);
    memcpy(since, now, ctx->nrels * sizeof *since);
    if (++rounds % 16 == 0)
      ctx_poll(ctx);
  }
  ctx->relaxed = 0;
  ctx_free(ctx, since);
  ctx_free(ctx, now);
}

/* Join orders for grounding (on: with `true` indexed by its fluents'
 * functors, which in the relaxed database are of every kind there can
 * be: hex's instantiation 4x faster), or again for the interpreter. */
void ground_plan(gdl_ctx *ctx, int on)
{
  ctx->plan_ground = on;
  eval_plan(ctx, 1);
}

static int cmp_out_term(gdl_ctx *ctx, const out_t *a, const out_t *b)
{
  return gdl_term_cmp(ctx, a->term, b->term);
}

/* Insertion sort by term (lists are short: a role's moves, goals). */
static void sort_outs(gdl_ctx *ctx, out_t *v, uint32_t n, int by_id)
{
  uint32_t i, j;
  for (i = 1; i < n; i++) {
    out_t x = v[i];
    POLL(ctx);                 /* quadratic: 0.28 s on pancakes88's moves */
    for (j = i; j > 0 && (by_id ? v[j - 1].term > x.term
                                : cmp_out_term(ctx, &v[j - 1], &x) > 0); j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

/* An output atom: terminal, (next F), (legal R M), (goal R V). */
static void add_output(gdl_ctx *ctx, ground_t *G, uint32_t p, gdl_term a)
{
  const term_t *t = &ctx->terms[a];
  if (t->kind == T_SYM && t->sym == S_TERMINAL)
    G->terminal = p + 1;
  if (t->kind != T_FN)
    return;
  if (t->sym == S_NEXT && t->arity == 1) {
    G->next[G->nnext].prop = p;
    G->next[G->nnext++].term = TARG(ctx, a, 0);
  } else if ((t->sym == S_LEGAL || t->sym == S_GOAL) && t->arity == 2) {
    int role = gdl_role_index(ctx, TARG(ctx, a, 0));
    out_t *o;
    if (role < 0)
      return;
    o = t->sym == S_LEGAL ? &G->legal[role][G->nlegal[role]++]
                          : &G->goal[role][G->ngoal[role]++];
    o->prop = p;
    o->term = TARG(ctx, a, 1);
  }
}

static void build_outputs(gdl_ctx *ctx, ground_t *G)
{
  static const uint32_t kw[] = { S_LEGAL, S_GOAL, S_NEXT, S_TERMINAL };
  uint32_t p, r, k = ctx->nroles, i, j, nstatic = 0;
  /* outputs that static facts give hold in every state */
  G->always = ground_prop_of(ctx, G,
                             term_sym(ctx, sym_intern(ctx, " always", 7)),
                             P_STATE);
  for (i = 0; i < ctx->nrels; i++)
    if (ctx->rels[i].phase == P_STATIC)
      for (j = 0; j < 4; j++)
        if (ctx->rels[i].sym == kw[j])
          nstatic += ctx->rels[i].n;
  G->legal = ctx_alloc(ctx, (k + 1) * sizeof *G->legal);
  G->goal = ctx_alloc(ctx, (k + 1) * sizeof *G->goal);
  G->nlegal = ctx_alloc(ctx, (k + 1) * sizeof *G->nlegal);
  G->ngoal = ctx_alloc(ctx, (k + 1) * sizeof *G->ngoal);
  for (r = 0; r < k; r++) {
    G->legal[r] = ctx_alloc(ctx, (G->nprops + nstatic + 1) * sizeof(out_t));
    G->goal[r] = ctx_alloc(ctx, (G->nprops + nstatic + 1) * sizeof(out_t));
  }
  G->next = ctx_alloc(ctx, (G->nprops + nstatic + 1) * sizeof *G->next);
  G->moveprops = ctx_alloc(ctx, (G->nprops + 1) * sizeof *G->moveprops);
  for (p = 0; p < G->nprops; p++) {
    if (G->phase[p] == P_MOVE)
      G->moveprops[G->nmoveprops++] = p;
    add_output(ctx, G, p, G->atom[p]);
  }
  for (i = 0; i < ctx->nrels; i++)
    if (ctx->rels[i].phase == P_STATIC)
      for (j = 0; j < 4; j++)
        if (ctx->rels[i].sym == kw[j]) {
          uint32_t f;
          for (f = 0; f < ctx->rels[i].n; f++)
            add_output(ctx, G, G->always, ctx->rels[i].facts[f]);
        }
  G->legalbuf = ctx_alloc(ctx, (k + 1) * sizeof *G->legalbuf);
  for (r = 0; r < k; r++) {
    G->legalbuf[r] = ctx_alloc(ctx, (G->nlegal[r] + 1) * sizeof(gdl_term));
    sort_outs(ctx, G->legal[r], G->nlegal[r], 0);
    sort_outs(ctx, G->goal[r], G->ngoal[r], 0);
  }
  sort_outs(ctx, G->next, G->nnext, 1);
}

gdl_status ground_build(gdl_ctx *ctx)
{
  ground_t *G;
  uint32_t s, i;
  uint8_t *pending;
  PROTECT(ctx);
  if (ctx->ground)
    ctx_throw(ctx, GDL_EINPUT, "already grounded");
  G = ctx_alloc(ctx, sizeof *G);
  /* the network has every atom: no relation stays lazy, and the static
   * ones that were are evaluated now (within the grounding budget) */
  eval_unlazy(ctx, P_STATIC, -1);
  ground_plan(ctx, 1);
  relaxed_fixpoint(ctx);
  ctx->ground = G;
  G->factor = ctx_alloc(ctx, (ctx->nrules + 1) * sizeof *G->factor);
  for (s = 0; s < ctx->nsccs; s++) {
    const scc_t *c = &ctx->sccs[s];
    if (c->phase != P_STATIC && !c->recursive)
      for (i = 0; i < c->nrules; i++)
        G->factor[c->rules[i]] = factor_rule(ctx, c->rules[i]);
  }
  G->orsym = sym_intern(ctx, " or", 3);
  G->andsym = sym_intern(ctx, " and", 4);
  ctx->grounding = emit_instance;
  ctx->relaxed = 1;
  pending = ctx_alloc(ctx, ctx->nrels + 1);
  for (s = 0; s <= ctx->nsccs; s++) {
    const scc_t *c = s < ctx->nsccs ? &ctx->sccs[s] : NULL;
    int reads = !c || c->recursive;
    if (c && (c->phase == P_STATIC || c->nrules == 0))
      continue;
    /* components outside recursion wait together, so that rules of one
     * head meet in ground_share_inputs, until one reads a relation of
     * theirs */
    for (i = 0; c && !reads && i < c->nrules; i++) {
      const rule_t *r = &ctx->rules[c->rules[i]];
      uint32_t j;
      for (j = 0; j < r->nbody; j++)
        if ((r->body[j].kind == L_POS || r->body[j].kind == L_NEG) &&
            pending[r->body[j].rel])
          reads = 1;
    }
    if (reads) {
      ground_exclusive(ctx, G);
      ground_share_inputs(ctx, G, BUF_RULES_STATE);
      ground_share_inputs(ctx, G, BUF_RULES_MOVE);
      flush_group(ctx, G, BUF_STATE, P_STATE, 0);
      flush_group(ctx, G, BUF_MOVE, P_MOVE, 0);
      flush_group(ctx, G, BUF_EXCL, P_MOVE, 0);
      flush_group(ctx, G, BUF_OR_STATE, P_STATE, 0);
      flush_group(ctx, G, BUF_OR_MOVE, P_MOVE, 0);
      flush_group(ctx, G, BUF_RULES_STATE, P_STATE, 0);
      flush_group(ctx, G, BUF_RULES_MOVE, P_MOVE, 0);
      memset(pending, 0, ctx->nrels);
    }
    if (!c)
      break;
    for (i = 0; i < c->nrules; i++) {
      eval_rule(ctx, &ctx->rules[c->rules[i]]);
      pending[ctx->rules[c->rules[i]].rel] = 1;
    }
    if (c->recursive) {
      flush_group(ctx, G, BUF_RULES(c->phase), c->phase, 1);
      memset(pending, 0, ctx->nrels);
    }
  }
  ctx_free(ctx, pending);
  ctx->grounding = NULL;
  ctx->relaxed = 0;
  for (i = 0; i < ctx->nrules; i++)
    if (G->factor[i]) {
      struct factor *f = G->factor[i];
      uint32_t k;
      for (k = 0; k < f->nparts; k++) {
        ctx_free(ctx, f->parts[k].key);
        ctx_free(ctx, f->parts[k].all);
      }
      ctx_free(ctx, f->parts);
      ctx_free(ctx, f->part);
      ctx_free(ctx, f->m);
      ctx_free(ctx, f);
    }
  ctx_free(ctx, G->factor);
  ctx_free(ctx, G->seen);
  ctx_free(ctx, G->incommon);
  ctx_free(ctx, G->incount);
  ctx_free(ctx, G->om);
  ctx_free(ctx, G->orcnt);
  for (i = 0; i < NBUF; i++)
    ctx_free(ctx, G->buf[i]);
  G->factor = NULL;
  G->seen = NULL;
  if (!G->in_lo) {
    G->in_lo = ctx_alloc(ctx, sizeof *G->in_lo);
    G->head = ctx_alloc(ctx, sizeof *G->head);
  }
  ground_plan(ctx, 0);
  ground_drop_aliases(ctx, G);
  ground_drop_dead(ctx, G);
  build_outputs(ctx, G);
  ground_gate_legal(ctx, G);
  ground_alias_outputs(ctx, G);
  for (i = 0; i < G->ngroups; i++)
    if (G->groups[i].phase == P_MOVE)
      bucket_group(ctx, G, &G->groups[i]);
  for (i = 0; i < 3; i++)
    G->phg[i] = ctx_alloc(ctx, (G->ngroups + 1) * sizeof *G->phg[i]);
  for (i = 0; i < G->ngroups; i++) {
    uint32_t ph = G->groups[i].phase;
    G->phg[ph][G->nphg[ph]++] = i;
  }
  G->val = ctx_alloc(ctx, G->nprops + 1);
  G->mset = ctx_alloc(ctx, (G->nmoveprops + 1) * sizeof *G->mset);
  incr_build(ctx, G);
  eval_clear(ctx, P_STATE);
  ctx->have_state = 0;
  UNPROTECT(ctx);
  return GDL_OK;
}

/* The buckets of a move-phase group (see group_t). */
static void bucket_group(gdl_ctx *ctx, ground_t *G, group_t *g)
{
  uint32_t n = g->hi - g->lo, i, j, *key;
  if (n < 8)
    return;
  g->order = ctx_alloc(ctx, n * sizeof *g->order);
  key = ctx_alloc(ctx, n * sizeof *key);
  for (i = 0; i < n; i++) {
    uint32_t r = g->lo + i, lo = G->in_lo[r];
    gdl_term a;
    g->order[i] = r;
    key[i] = UINT32_MAX;
    if (lo == G->in_lo[r + 1] || (G->in[lo] & 1))
      continue;
    a = G->atom[G->in[lo] >> 1];
    if (ctx->terms[a].kind == T_FN && ctx->terms[a].sym == S_DOES &&
        ctx->terms[a].arity == 2)
      key[i] = G->in[lo] >> 1;
  }
  /* by key, free rules (UINT32_MAX) first, else in rule order */
  {
    uint64_t *kr = ctx_alloc(ctx, (n + 1) * sizeof *kr);
    for (i = 0; i < n; i++)
      kr[i] = (uint64_t)(key[i] + 1) << 32 | i;   /* UINT32_MAX + 1 = 0 */
    qsort(kr, n, sizeof *kr, ground_cmp_u64);
    for (i = 0; i < n; i++) {
      key[i] = (uint32_t)(kr[i] >> 32) - 1;
      g->order[i] = g->lo + (uint32_t)kr[i];
    }
    ctx_free(ctx, kr);
  }
  for (i = 0; i < n && key[i] == UINT32_MAX; i++)
    ;
  g->free = i;
  g->buckets = ctx_alloc(ctx, (n + 1) * sizeof *g->buckets);
  for (; i < n; i = j) {
    for (j = i; j < n && key[j] == key[i]; j++)
      ;
    g->buckets[g->nbuckets].prop = key[i];
    g->buckets[g->nbuckets].lo = i;
    g->buckets[g->nbuckets].hi = j;
    g->nbuckets++;
  }
  ctx_free(ctx, key);
}

/* A move read by this many rules or more is followed with ready lists: in
 * a search, or in playouts, one joint move a state, where the lists cost
 * more than counting but for moves read by very many rules (pancakes88's
 * flips, each read by the 40,320 rules of its next orders: 5,600 states
 * a second before, 225,000 after). */
#define DK_READERS 8
#define DK_READERS_PLAYOUT 4096

/* The readers of each proposition (fan, gfan), the ready lists of the
 * rules of one move read by many rules (see one_move_event; many: with dk
 * for a search, DK_READERS, else DK_READERS_PLAYOUT), whose other inputs
 * are in fan like any rule's, and the flags of each proposition (read).
 * Made again when the search asks for rules of one move and when it is
 * done (ground_search_mode). */
static void build_fans(gdl_ctx *ctx, ground_t *G, int dk)
{
  uint32_t g, r, i, p, n = G->nprops;
  uint32_t *at, *gat;
  uint8_t *many;               /* per proposition: a move many rules read */
  ctx_free(ctx, G->fan_lo);
  ctx_free(ctx, G->fan);
  ctx_free(ctx, G->ready_lo);
  ctx_free(ctx, G->readyr);
  ctx_free(ctx, G->gfan_lo);
  ctx_free(ctx, G->gfan);
  G->fan_lo = ctx_alloc(ctx, (2 * n + 2) * sizeof *G->fan_lo);
  G->ready_lo = ctx_alloc(ctx, (2 * n + 2) * sizeof *G->ready_lo);
  G->gfan_lo = ctx_alloc(ctx, (n + 2) * sizeof *G->gfan_lo);
  memset(G->dkcode, 0, G->nrules * sizeof *G->dkcode);
  G->ndk = 0;
  /* a move read by few rules is counted like any input: the ready lists
   * pay where a move is read by many rules that cannot fire (DK_READERS) */
  many = ctx_alloc(ctx, n + 1);
  {
    uint32_t *readers = ctx_alloc(ctx, (n + 1) * sizeof *readers);
    uint32_t least = dk ? DK_READERS : DK_READERS_PLAYOUT;
    dk = 0;
    for (i = 0; i < G->nin; i++)
      readers[G->in[i] >> 1]++;
    for (p = 0; p < n; p++)
      if (is_does(ctx, G, p) && readers[p] >= least)
        many[p] = dk = 1;
    ctx_free(ctx, readers);
  }
  /* count, then place: fan_lo[p + 1] counts first */
  for (g = 0; g < G->ngroups; g++) {
    const group_t *gr = &G->groups[g];
    for (r = gr->lo; r < gr->hi; r++) {
      uint32_t moves = 0, code = 0;
      for (i = G->in_lo[r]; dk && !gr->recursive && i < G->in_lo[r + 1]; i++)
        if (is_does(ctx, G, G->in[i] >> 1)) {
          moves++;
          code = G->in[i];
        }
      if (moves == 1 && many[code >> 1]) {
        G->dkcode[r] = code + 1;
        G->ndk++;
        G->ready_lo[code + 1]++;
      }
      for (i = G->in_lo[r]; i < G->in_lo[r + 1]; i++)
        if (gr->recursive)
          G->gfan_lo[(G->in[i] >> 1) + 1]++;
        else if (G->in[i] + 1 != G->dkcode[r])
          G->fan_lo[G->in[i] + 1]++;
    }
  }
  for (p = 0; p < 2 * n; p++) {
    G->fan_lo[p + 1] += G->fan_lo[p];
    G->ready_lo[p + 1] += G->ready_lo[p];
  }
  for (p = 0; p < n; p++)
    G->gfan_lo[p + 1] += G->gfan_lo[p];
  G->fan = ctx_alloc(ctx, (G->fan_lo[2 * n] + 1) * sizeof *G->fan);
  G->readyr = ctx_alloc(ctx, (G->ready_lo[2 * n] + 1) * sizeof *G->readyr);
  G->gfan = ctx_alloc(ctx, (G->gfan_lo[n] + 1) * sizeof *G->gfan);
  at = ctx_alloc(ctx, (2 * n + 1) * sizeof *at);
  gat = ctx_alloc(ctx, (n + 1) * sizeof *gat);
  COPY(at, G->fan_lo, 2 * n * sizeof *at);
  COPY(gat, G->gfan_lo, n * sizeof *gat);
  for (g = 0; g < G->ngroups; g++) {
    const group_t *gr = &G->groups[g];
    for (r = gr->lo; r < gr->hi; r++)
      for (i = G->in_lo[r]; i < G->in_lo[r + 1]; i++) {
        p = G->in[i] >> 1;
        if (gr->recursive) {
          if (gat[p] == G->gfan_lo[p] || G->gfan[gat[p] - 1] != g)
            G->gfan[gat[p]++] = g;
        } else if (G->in[i] + 1 != G->dkcode[r]) {
          G->fan[at[G->in[i]]++] = r;
        }
      }
  }
  /* a group counted once per proposition: close the gaps left by the
   * duplicates skipped */
  for (p = 0; p < n; p++)
    for (i = gat[p]; i < G->gfan_lo[p + 1]; i++)
      G->gfan[i] = UINT32_MAX;
  ctx_free(ctx, at);
  ctx_free(ctx, gat);
  ctx_free(ctx, many);
  for (p = 0; p < n; p++) {
    int d = G->ready_lo[2 * p] != G->ready_lo[2 * p + 2];
    G->read[p] = (uint8_t)((G->fan_lo[2 * p] != G->fan_lo[2 * p + 2] ||
                            G->gfan_lo[p] != G->gfan_lo[p + 1] || d) |
                           (d ? 2 : 0) |
                           (G->outof[p] ? 8 : 0) |
                           (G->outlo[p + 1] - G->outlo[p] > 1 ? 16 : 0) |
                           (G->outlo[p + 1] - G->outlo[p] > 2 ? 32 : 0));
  }
}

static void lread_build(gdl_ctx *ctx, ground_t *G)
{
  uint32_t r, j, k;
  G->lread = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *G->lread);
  for (r = 0; r < ctx->nroles; r++) {
    struct lread *L = &G->lread[r];
    uint32_t ng = 0;
    L->o = G->legal[r];
    L->buf = G->legalbuf[r];
    L->does = ctx_alloc(ctx, (G->nlegal[r] + 1) * sizeof *L->does);
    for (j = 0; j < G->nlegal[r]; j++)
      L->does[j] = does_prop(ctx, G, r, L->o[j].term);
    L->word = G->legalslot[r] / 64;
    L->nw = (G->nlegal[r] + 63) / 64;
    L->mask = ctx_alloc(ctx, ((MAX_LGATES + 1) * L->nw + 1) * sizeof *L->mask);
    for (j = 0; j < G->nlegal[r]; j++) {
      uint32_t g = G->lgate[r][j];
      if (g == G->always) {
        k = 0;
      } else {
        for (k = 0; k < ng && L->gate[k] != g; k++)
          ;
        if (k == MAX_LGATES)
          break;
        if (k == ng)
          L->gate[ng++] = g;
        k++;
      }
      L->mask[j / 64 * (MAX_LGATES + 1) + k] |= (uint64_t)1 << (j % 64);
    }
    L->ng = j < G->nlegal[r] ? 0 : ng + 1;
  }
}

/* The output slots of each proposition (outlo, outs): next[] then each
 * role's legal[]; `always` has none, it never changes.  Counted first,
 * then placed (outlo[p + 1] counts). */
static void out_slots(gdl_ctx *ctx, ground_t *G)
{
  uint32_t pass, i, j, n = G->nprops, *at = NULL;
  G->outlo = ctx_alloc(ctx, (n + 2) * sizeof *G->outlo);
  for (pass = 0; pass < 2; pass++) {
    for (i = 0; i < G->nnext; i++)
      if (G->next[i].prop != G->always) {
        if (pass)
          G->outs[at[G->next[i].prop]++] = i;
        else
          G->outlo[G->next[i].prop + 1]++;
      }
    for (i = 0; i < ctx->nroles; i++)
      for (j = 0; j < G->nlegal[i]; j++)
        if (G->legal[i][j].prop != G->always) {
          if (pass)
            G->outs[at[G->legal[i][j].prop]++] = G->legalslot[i] + j;
          else
            G->outlo[G->legal[i][j].prop + 1]++;
        }
    if (pass)
      break;
    for (i = 0; i < n; i++)
      G->outlo[i + 1] += G->outlo[i];
    G->outs = ctx_alloc(ctx, (G->outlo[n] + 1) * sizeof *G->outs);
    at = ctx_alloc(ctx, (n + 1) * sizeof *at);
    COPY(at, G->outlo, n * sizeof *at);
  }
  ctx_free(ctx, at);
  G->outof = ctx_alloc(ctx, (n + 1) * sizeof *G->outof);
  for (i = 0; i < n; i++)
    if (G->outlo[i] != G->outlo[i + 1])
      G->outof[i] = G->outs[G->outlo[i]] + 1;
}

static void incr_build(gdl_ctx *ctx, ground_t *G)
{
  uint32_t g, r, i, p, n = G->nprops;
  G->incr = ctx->nroles <= 64;     /* a role has a place in doesp[] */
  if (!G->incr)
    return;
  G->recgroup = ctx_alloc(ctx, (n + 1) * sizeof *G->recgroup);
  G->dirty = ctx_alloc(ctx, G->ngroups + 1);
  G->recg = ctx_alloc(ctx, (G->ngroups + 1) * sizeof *G->recg);
  G->gheads = ctx_alloc(ctx, (G->ngroups + 1) * sizeof *G->gheads);
  G->ngheads = ctx_alloc(ctx, (G->ngroups + 1) * sizeof *G->ngheads);
  G->cnt = ctx_alloc(ctx, (G->nrules + 1) * sizeof *G->cnt);
  G->support = ctx_alloc(ctx, (n + 1) * sizeof *G->support);
  G->tslot = ctx_alloc(ctx, (n + 1) * sizeof *G->tslot);
  G->tprop = ctx_alloc(ctx, (G->nnext + n + 1) * sizeof *G->tprop);
  G->bits_ok = 1;
  for (i = 0; i < G->nnext; i++) {     /* the slots of next[] first */
    p = true_prop(ctx, G, G->next[i].term);
    G->tprop[i] = p;
    if (p != UINT32_MAX)
      G->tslot[p] = i + 1;
    if (i > 0 && G->next[i].term == G->next[i - 1].term)
      G->bits_ok = 0;          /* one fluent, two slots */
  }
  G->ntslots = G->nnext;
  for (p = 0; p < n; p++) {
    const term_t *t = &ctx->terms[G->atom[p]];
    if (t->kind == T_FN && t->sym == S_TRUE && t->arity == 1 &&
        !G->tslot[p]) {
      G->tprop[G->ntslots] = p;
      G->tslot[p] = ++G->ntslots;
    }
  }
  G->curbits = ctx_alloc(ctx, (G->ntslots / 64 + 1) * sizeof *G->curbits);
  G->newbits = ctx_alloc(ctx, (G->ntslots / 64 + 1) * sizeof *G->newbits);
  G->tmask = ctx_alloc(ctx, (G->ntslots / 64 + 1) * sizeof *G->tmask);
  G->statebits = ctx_alloc(ctx, (G->ntslots / 64 + 1) * sizeof *G->statebits);
  for (i = 0; i < G->ntslots; i++)
    if (G->tprop[i] != UINT32_MAX)
      G->tmask[i >> 6] |= (uint64_t)1 << (i & 63);
  for (g = 0; g < G->ngroups; g++) {
    const group_t *gr = &G->groups[g];
    if (!gr->recursive)
      continue;
    G->recg[G->nrecg++] = g;
    for (r = gr->lo; r < gr->hi; r++) {
      uint32_t h = G->head[r];
      if (G->recgroup[h] && G->recgroup[h] != g + 1) {
        G->incr = 0;           /* two recursive groups derive one atom */
        return;
      }
      G->recgroup[h] = g + 1;
    }
  }
  for (i = 0; i < G->nrecg; i++) {
    const group_t *gr = &G->groups[G->recg[i]];
    uint32_t *h = ctx_alloc(ctx, (gr->hi - gr->lo + 1) * sizeof *h), k = 0;
    for (r = gr->lo; r < gr->hi; r++) {
      uint32_t j;
      for (j = 0; j < k && h[j] != G->head[r]; j++)
        ;
      if (j == k)
        h[k++] = G->head[r];
    }
    G->gheads[G->recg[i]] = h;
    G->ngheads[G->recg[i]] = k;
  }
  G->oldval = ctx_alloc(ctx, G->nrules + 1);
  /* output slots: next[], then each role's legal[] from a word on */
  G->legalslot = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *G->legalslot);
  G->nslots = G->nnext;
  for (i = 0; i < ctx->nroles; i++) {
    G->legalslot[i] = (G->nslots + 63) & ~63u;
    G->nslots = G->legalslot[i] + G->nlegal[i];
  }
  G->outbits = ctx_alloc(ctx, (G->nslots / 64 + 1) * sizeof *G->outbits);
  out_slots(ctx, G);
  G->dkcode = ctx_alloc(ctx, (G->nrules + 1) * sizeof *G->dkcode);
  G->nready = ctx_alloc(ctx, (2 * n + 2) * sizeof *G->nready);
  G->rpos = ctx_alloc(ctx, (G->nrules + 1) * sizeof *G->rpos);
  G->dval = ctx_alloc(ctx, n + 1);
  G->read = ctx_alloc(ctx, n + 1);
  lread_build(ctx, G);
  G->joint = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *G->joint);
  G->popcnt = HAVE_POPCNT();
  G->cpkey = ctx_alloc(ctx, (G->ntslots / 64 + 1) * sizeof *G->cpkey);
  G->cpval = ctx_alloc(ctx, n + 1);
  G->cpcnt = ctx_alloc(ctx, (G->nrules + 1) * sizeof *G->cpcnt);
  G->cpsupport = ctx_alloc(ctx, (n + 1) * sizeof *G->cpsupport);
  G->cpout = ctx_alloc(ctx, (G->nslots / 64 + 1) * sizeof *G->cpout);
  build_fans(ctx, G, 0);
}

void ground_search_mode(gdl_ctx *ctx, int on)
{
  ground_t *G = ctx->ground;
  if (!G || !G->incr || G->dk_on == on)
    return;
  /* the next state: a full pass, and counts anew; should making the fans
   * run out of memory, the full passes go on (incr stays 0) */
  G->ready = 0;
  G->incr = 0;
  G->cp_ok = 0;
  build_fans(ctx, G, on);
  G->dk_on = on;
  G->incr = 1;
}

/* ---- public ----------------------------------------------------------- */

/* ctx_alloc in a public call before any jump target is set: NULL, with
 * the message, when memory runs out (tests/fuzz/regress/). */
static void *alloc_or_null(gdl_ctx *ctx, size_t n)
{
  jmp_buf jb, *old = ctx->jmp;
  void *p = NULL;
  ctx->jmp = &jb;
  if (!setjmp(jb))
    p = ctx_alloc(ctx, n);
  ctx->jmp = old;
  return p;
}

gdl_status gdl_use_engine(gdl_ctx *ctx, gdl_engine e)
{
  gdl_status st;
  if (!ctx->compiled || !ctx->is_game) {
    ctx_setmsg(ctx, "the grounded engine needs a compiled game");
    return e == GDL_ENGINE_GROUND ? GDL_EINPUT : GDL_OK;
  }
  if (e == GDL_ENGINE_INTERP) {
    ctx->ground_off = 1;
    ctx->have_state = 0;
    return GDL_OK;
  }
  ctx->ground_off = 0;
  if (ctx->ground)
    return GDL_OK;
  {
    /* grounding has its own budget (facts, time); past it the
     * interpreter stays in use */
    size_t limit = ctx->fact_limit;
    uint8_t *lazy = alloc_or_null(ctx, ctx->nrels + 1);
    uint32_t i;
    int nlazy = ctx->nlazy, own = 0;
    double deadline = ctx->deadline;
    if (!lazy)                 /* out of memory: nothing changed yet */
      return GDL_ELIMIT;
    for (i = 0; i < ctx->nrels; i++)
      lazy[i] = ctx->rels[i].lazy;
    if (ctx->fact_limit > MAX_RELAXED_FACTS)
      ctx->fact_limit = MAX_RELAXED_FACTS;
    double budget = gdl_ground_seconds(ctx);
    if (deadline == 0 || ctx_clock() + budget < deadline) {
      ctx->deadline = ctx_clock() + budget;
      own = 1;
    }
    st = ground_build(ctx);
    if (st == GDL_ELIMIT && own && ctx_clock() >= ctx->deadline)
      ctx_setmsg(ctx, "grounding took more than %g s", budget);
    ctx->deadline = deadline;
    ctx->fact_limit = limit;
    if (st != GDL_OK) {        /* back to evaluating them on demand */
      for (i = 0; i < ctx->nrels; i++)
        ctx->rels[i].lazy = lazy[i];
      ctx->nlazy = nlazy;
    }
    ctx_free(ctx, lazy);
    if (st != GDL_OK) {
      snprintf(ctx->engine_note, sizeof ctx->engine_note, "%.190s",
               ctx->errmsg);
      ctx->ground = NULL;
      ctx->grounding = NULL;
      ctx->relaxed = 0;
      {
        /* the database holds relaxed facts: empty it, and the static
         * relations that are lazy again (computed in part, and counted
         * against the fact limit) */
        jmp_buf jb, *old = ctx->jmp;
        ctx->jmp = &jb;
        if (!setjmp(jb)) {
          eval_clear(ctx, P_STATE);
          ground_plan(ctx, 0);
          for (i = 0; i < ctx->nrels; i++)
            if (ctx->rels[i].lazy && ctx->rels[i].n) {
              eval_drop(ctx, i);
              ctx_free(ctx, ctx->rels[i].facts);
              ctx->rels[i].facts = NULL;
              ctx->rels[i].cap = 0;
            }
        }
        ctx->jmp = old;
      }
      ctx->have_state = 0;
      return e == GDL_ENGINE_GROUND ? st : GDL_OK;
    }
  }
  return GDL_OK;
}

void gdl_set_ground_seconds(gdl_ctx *ctx, double seconds)
{
  ctx->ground_seconds = seconds > 0 ? seconds : 0;
}

double gdl_ground_seconds(const gdl_ctx *ctx)
{
  return ctx->ground_seconds > 0 ? ctx->ground_seconds : GROUND_SECONDS;
}

const char *gdl_engine_name(const gdl_ctx *ctx)
{
  return ctx->ground && !ctx->ground_off ? "ground" : "interp";
}

const char *gdl_engine_note(const gdl_ctx *ctx)
{
  return ctx->engine_note;
}

size_t gdl_ground_size(const gdl_ctx *ctx, size_t *rules, size_t *inputs)
{
  const ground_t *G = ctx->ground;
  if (!G) {
    *rules = *inputs = 0;
    return 0;
  }
  *rules = G->nrules;
  *inputs = G->nin;
  return G->nprops;
}

