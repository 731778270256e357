/*
 * ground.c - the grounded engine: the rules instantiated once per game into
 * a propositional network, a state as the truth values of its atoms.
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
 * 3. Reshaping.  Rules are factored into independent parts (factor_rule),
 *    parts of one move are built from the moves left out (exclusive),
 *    rules of one head share their common inputs (share_inputs),
 *    recursion without cycles over atoms is unrolled (unroll), aliases go
 *    (drop_aliases) and legal moves lose the turn they all read
 *    (gate_legal): each says why where it is defined.
 * 4. Evaluation.  The ground rules keep the order of the rule components
 *    (check.c), so one pass in that order computes every proposition of a
 *    state; a recursive component is passed over until nothing changes.  A
 *    rule's inputs are checked `does` first, so in the move phase a rule
 *    about another move costs one byte read.  After the first state only
 *    what changed is propagated (see "incrementally" below).
 *
 * Where the network would be too large (a limit on inputs), ground_build
 * fails with GDL_ELIMIT and the interpreter stays in use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_INPUTS (8u << 20)     /* 32 MB of inputs */
#define MAX_RELAXED_FACTS 2000000
/* Whether the processor counts bits in one instruction (see
 * ground_random_steps); where the compiler cannot ask, one copy serves. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_TARGET_POPCNT 1
#define HAVE_POPCNT() (__builtin_cpu_init(), __builtin_cpu_supports("popcnt"))
#else
#define HAVE_TARGET_POPCNT 0
#define HAVE_POPCNT() 1
#endif
#ifndef GROUND_SECONDS           /* cc -DGROUND_SECONDS=100: a build for valgrind */
#define GROUND_SECONDS 5.0
#endif

/* Rules wait in G->buf[] while the components that come one after the
 * other read none of each other's relations (see ground_build), then
 * become groups in this order: the auxiliaries of the state, of the move
 * (parts, see factor_rule), the parts of a single move (see exclusive),
 * the disjunctions of the state, of the move (see share_inputs), then the
 * rules of the state, of the move. */
enum {
  BUF_STATE, BUF_MOVE, BUF_EXCL, BUF_OR_STATE, BUF_OR_MOVE,
  BUF_RULES_STATE, BUF_RULES_MOVE, NBUF
};
#define BUF_RULES(phase) ((phase) == P_MOVE ? BUF_RULES_MOVE : BUF_RULES_STATE)

typedef struct {
  uint32_t prop;             /* a `does` proposition */
  uint32_t lo, hi;           /* its rules: order[lo, hi) of the group */
} bucket_t;

typedef struct {
  uint32_t lo, hi;           /* ground rules [lo, hi) */
  uint8_t phase, recursive;
  /* move phase: the rules that need no move are order[0, free); the
   * others are bucketed by the first `does` they need, so a joint move
   * looks only at the rules of its own moves */
  uint32_t *order, free;
  bucket_t *buckets;
  uint32_t nbuckets;
} group_t;

typedef struct {
  uint32_t prop;
  gdl_term term;             /* the move, goal value or fluent */
} out_t;

/* A role's legal moves read off the output bits, where its moves have at
 * most MAX_LGATES gates besides `always` (see gate_legal): each gate is
 * looked at once, not the gate of every move whose rule holds, which in
 * a game of turns is mostly the moves of the turn the role has not. */
#define MAX_LGATES 4
struct lread {
  const out_t *o;            /* legal[r] */
  uint32_t *does;            /* per legal[r] entry: its `does`
                                proposition, or UINT32_MAX */
  gdl_term *buf;             /* legalbuf[r] */
  uint32_t word, nw;         /* its first output word, its words */
  uint32_t ng;               /* gates, or 0: look at each move's */
  uint32_t gate[MAX_LGATES];
  uint64_t *mask;            /* per word, MAX_LGATES + 1 masks: its
                                slots gated by `always`, by gate[0], ... */
};

struct ground {
  /* propositions */
  uint32_t nprops, propcap;
  uint32_t *propof;          /* per term id: proposition + 1, or 0 */
  uint32_t propofcap;
  gdl_term *atom;            /* per proposition */
  uint8_t *phase;
  uint8_t *val;              /* per proposition: holds now */
  /* ground rules, inputs in one array: prop * 2 + negated */
  uint32_t nrules, rulecap;
  uint32_t *head, *in_lo;    /* per rule; in_lo[nrules] ends the last */
  uint32_t *in;
  uint32_t nin, incap;
  group_t *groups;
  uint32_t ngroups, groupcap;
  uint32_t *phg[3], nphg[3]; /* per phase: its groups, in order */
  uint32_t *mset, nmset;     /* move propositions set by the last pass */
  int mset_ok;               /* ... and no other holds */
  /* outputs */
  out_t **legal, **goal;     /* per role, sorted by term */
  gdl_term **legalbuf;       /* per role: room for its legal moves */
  uint32_t **lgate;          /* per role and legal[] entry: the
                                proposition its rule no longer reads
                                (gate_legal), or `always`: one must hold
                                too, so a read needs no branch */
  uint32_t *nlegal, *ngoal;
  out_t *next;               /* sorted by fluent id */
  uint32_t nnext;
  uint32_t terminal;         /* proposition + 1, or 0 */
  uint32_t *moveprops;       /* propositions of the move phase */
  uint32_t nmoveprops;
  uint32_t always;           /* a proposition that always holds: the
                                outputs given by static facts */
  /* building */
  struct factor **factor;    /* per rule: its parts, or NULL */
  uint8_t *seen;             /* per term: a ground rule of it is kept */
  uint32_t seencap;
  uint8_t *incommon;         /* share_inputs: per input code, in C */
  uint32_t *incount, ncodes; /* ... scratch counts; codes they have */
  uint32_t orsym, andsym;    /* functors of disjunctions, conjunctions */
  uint8_t *orcnt;            /* per term: heads that would read it */
  uint32_t orcntcap;
  struct onemove { uint32_t part, aux, does; } *om;   /* see exclusive */
  uint32_t nom, omcap;
  uint32_t *buf[NBUF], nbuf[NBUF], bufcap[NBUF];  /* rules waiting */
  /* the state phase, incrementally (see ground_set_state) */
  int incr;                  /* the network allows it */
  int ready;                 /* cnt and support match val */
  uint32_t *cnt;             /* per rule of a plain state group: inputs
                                that do not hold now */
  uint32_t *support;         /* per proposition: its rules in plain state
                                groups that fire now */
  uint32_t *recgroup;        /* per proposition: 1 + the recursive state
                                group whose rules derive it, or 0 */
  uint32_t *fan_lo, *fan;    /* per proposition: the plain state rules
                                that read it, rule * 2 + negated */
  uint32_t *gfan_lo, *gfan;  /* ... and the recursive groups that do */
  uint32_t *recg, nrecg;     /* the recursive state groups, in order */
  uint32_t **gheads, *ngheads;  /* per recursive group: its heads */
  uint8_t *dirty, *oldval;   /* per group; scratch per head */
  uint32_t *events, nevents, eventcap;  /* proposition * 2 + new value */
  /* rules of one move: a plain rule with one `does` input counts its other
   * inputs only; when they all hold it is ready, on the list of its move,
   * and fires while the move holds (as of the events handled: dval) */
  uint32_t *dkcode;          /* per rule: 1 + the code of its one `does`
                                input, or 0 */
  uint32_t ndk;              /* rules of one move */
  int dk_on;                 /* ... made (ground_search_mode) */
  uint32_t *ready_lo, *nready, *readyr;  /* per code of a move: its rules
                                            that are ready */
  uint32_t *rpos;            /* per rule of one move: its place there */
  uint8_t *dval;             /* per proposition: its value as of the events
                                handled */
  uint8_t *read;             /* per proposition: 1 a rule reads it, 2
                                it is the move of rules of one move (ready
                                lists), 8 it has an output slot, 16 more
                                than one */
  uint32_t *outof;           /* per proposition: 1 + its output slot, or
                                0 */
  uint32_t *outlo, *outs;    /* ... all of them, outs[outlo[p], outlo[p +
                                1]) (see alias_outputs: may be several) */
  uint64_t *outbits;         /* per output slot: holds (once ready; the
                                `next` ones too) */
  uint32_t *legalslot;       /* per role: its first slot, legal[r][0] */
  struct lread *lread;       /* per role: reading its legal moves */
  uint32_t nslots;           /* next[i] has slot i; each role's begin on
                                a word */
  /* fluent slots: slot i < nnext is the fluent of next[i], so that a
   * next state is read off outbits as it is (see "states as bits"); the
   * fluents no rule derives, whose `true` a rule reads, come after */
  uint32_t *tslot;           /* per `true` proposition: 1 + its slot */
  uint32_t *tprop, ntslots;  /* per slot: its `true` proposition, or
                                UINT32_MAX where no rule reads it */
  uint64_t *tmask;           /* per slot: has a `true` proposition */
  int bits_ok;               /* every slot has a fluent of its own */
  uint64_t *statebits;       /* per slot: the state ground_advance made,
                                fluents no rule reads too */
  uint64_t *curbits, *newbits;   /* per slot: holds now; scratch */
  /* per fluent term: 2 + its `true` proposition, 1 none, 0 not looked
   * up yet; per role and move term the same for `does` */
  uint32_t *trueof, trueofcap;
  uint32_t *joint;           /* ground_random_steps' joint move: its
                                `does` propositions */
  int popcnt;                /* ... and the processor has popcnt */
  uint32_t doesp[64];        /* per role: its `does` proposition that
                                holds now, or UINT32_MAX */
  uint32_t **doesof, *doesofcap;
  /* a checkpoint: the whole network as it was once the last state set
   * from facts had propagated, saved when that state is set a second time
   * in a row (not for every state set), so that setting it again (a
   * playout starts from the initial state each time) is a copy, not a
   * propagation of every change the playout made; see ground_set_state */
  int cp_ok;                 /* the network is saved, for cpkey */
  uint64_t *cpkey;           /* the last state set from facts: its slots */
  uint8_t *cpval;
  uint32_t *cpcnt, *cpsupport;
  uint64_t *cpout;
  uint32_t cpdoes[64];
};

static void bucket_group(gdl_ctx *ctx, ground_t *G, group_t *g);
static void incr_build(gdl_ctx *ctx, ground_t *G);
static uint32_t true_prop(gdl_ctx *ctx, ground_t *G, gdl_term f);
static inline uint32_t does_prop(gdl_ctx *ctx, ground_t *G, size_t r,
                                 gdl_term m);

/* The byte of term t in (*m)[], grown (zeroed) to the terms there are. */
static uint8_t *term_byte(gdl_ctx *ctx, uint8_t **m, uint32_t *cap,
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
static int mark_term(gdl_ctx *ctx, uint8_t **m, uint32_t *cap, gdl_term t)
{
  uint8_t *b = term_byte(ctx, m, cap, t);
  if (*b)
    return 1;
  *b = 1;
  return 0;
}

/* Term ids in increasing order (short lists). */
static void sort_ids(gdl_term *v, uint32_t n)
{
  uint32_t i, j;
  for (i = 1; i < n; i++) {
    gdl_term x = v[i];
    for (j = i; j > 0 && v[j - 1] > x; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Whether proposition p is a `does` atom. */
static int is_does(const gdl_ctx *ctx, const ground_t *G, uint32_t p)
{
  const term_t *t = &ctx->terms[G->atom[p]];
  return t->kind == T_FN && t->sym == S_DOES && t->arity == 2;
}

static uint32_t prop_of(gdl_ctx *ctx, ground_t *G, gdl_term atom, int phase)
{
  uint32_t p;
  if (atom >= G->propofcap) {
    uint32_t old = G->propofcap, c = ctx->termcap > atom ? ctx->termcap
                                                          : atom + 1;
    G->propof = ctx_realloc(ctx, G->propof, c * sizeof *G->propof);
    memset(G->propof + old, 0, (c - old) * sizeof *G->propof);
    G->propofcap = c;
  }
  if (G->propof[atom])
    return G->propof[atom] - 1;
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
  uint8_t one_move;        /* its one input is a `does` (see exclusive) */
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
static int seen(gdl_ctx *ctx, ground_t *G, gdl_term t)
{
  return mark_term(ctx, &G->seen, &G->seencap, t);
}


static void buf_put(gdl_ctx *ctx, ground_t *G, int b, uint32_t x)
{
  if (G->nbuf[b] >= G->bufcap[b]) {
    if (G->nin + G->nbuf[b] > MAX_INPUTS)
      ctx_throw(ctx, GDL_ELIMIT, "the ground network would have more "
                "than %u inputs", MAX_INPUTS);
    GROW(ctx, G->buf[b], G->bufcap[b], G->nbuf[b]);
  }
  G->buf[b][G->nbuf[b]++] = x;
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
      buf_put(ctx, G, b, prop_of(ctx, G, a, ctx->rels[l->rel].phase) * 2 +
                         (l->kind == L_NEG));
      n++;
    }
  return n;
}

/* One instance of rule r, with the bindings of the join in hand: a ground
 * rule into G->buf[BUF_RULES(phase)] as head, count, inputs; with its parts' into
 * the buffers of their phases when it is factored. */
void ground_emit(gdl_ctx *ctx, const rule_t *r)
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
      aux[k] = prop_of(ctx, G, bound_term(ctx, p->sym, p->key, p->nkey),
                       p->phase);
      if (seen(ctx, G, bound_term(ctx, p->isym, p->all, p->nall)))
        continue;
      if (p->one_move) {       /* its rules are made by exclusive() */
        const lit_t *l = NULL;
        uint32_t i;
        for (i = 0; i < r->nbody; i++)
          if (f->part[i] == k + 1 && lit_input(ctx, &r->body[i]))
            l = &r->body[i];
        if (G->nom >= G->omcap)
          GROW(ctx, G->om, G->omcap, G->nom);
        G->om[G->nom].part = p->sym;
        G->om[G->nom].aux = aux[k];
        G->om[G->nom++].does = prop_of(ctx, G, eval_subst(ctx, l->a, 1),
                                       P_MOVE);
        continue;
      }
      buf_put(ctx, G, b, aux[k]);
      at = G->nbuf[b];
      buf_put(ctx, G, b, 0);
      n = lit_inputs(ctx, G, r, f, k + 1, b);   /* may move buf[b] */
      G->buf[b][at] = n;
    }
    if (seen(ctx, G, bound_term(ctx, f->msym, f->m, f->nm)))
      return;
  }
  h = eval_subst(ctx, r->head, 1);
  buf_put(ctx, G, rb, prop_of(ctx, G, h, ctx->rels[r->rel].phase));
  at = G->nbuf[rb];
  buf_put(ctx, G, rb, 0);
  n = lit_inputs(ctx, G, r, f, 0, rb);
  G->buf[rb][at] = n;
  if (f)
    for (k = 0; k < f->nparts; k++) {
      buf_put(ctx, G, rb, aux[k] * 2);
      G->buf[rb][at]++;
    }
}

/* A component that recurses over relations often does not over atoms:
 * hanoi's (tower ?x ?h) reads (tower ?y ?h1) of a smaller height, so
 * its ground rules have an order in which each reads only atoms already
 * done.  Then the group is put in that order and is recursive no more:
 * one pass computes it, and incrementally its rules count like any. */
static void unroll(gdl_ctx *ctx, ground_t *G, group_t *g)
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
static void drop_aliases(gdl_ctx *ctx, ground_t *G)
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
static void drop_dead(gdl_ctx *ctx, ground_t *G)
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

/* The rules of buffer b as a group of the network. */
static void flush(gdl_ctx *ctx, ground_t *G, int b, int phase, int recursive)
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
    unroll(ctx, G, g);
  G->nbuf[b] = 0;
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
  sort_ids(a, n);
  t = term_fn(ctx, G->orsym, n, a);
  ctx_free(ctx, a);
  if (t < G->propofcap && G->propof[t])
    return G->propof[t] - 1;
  p = prop_of(ctx, G, t, P_MOVE);
  for (i = 0; i < n; i++) {
    buf_put(ctx, G, BUF_MOVE, p);
    buf_put(ctx, G, BUF_MOVE, 1);
    buf_put(ctx, G, BUF_MOVE, props[i] * 2);
  }
  return p;
}

static void exclusive(gdl_ctx *ctx, ground_t *G)
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
    qsort(rd, nd, sizeof *rd, cmp_u64);
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
          buf_put(ctx, G, BUF_EXCL, om[c].aux);
          buf_put(ctx, G, BUF_EXCL, nout ? 2 : 1);
          buf_put(ctx, G, BUF_EXCL, any * 2);
          if (nout)
            buf_put(ctx, G, BUF_EXCL, any_of(ctx, G, out, nout) * 2 + 1);
        } else {
          for (i = 0; i < nin; i++) {
            buf_put(ctx, G, BUF_EXCL, om[c].aux);
            buf_put(ctx, G, BUF_EXCL, 1);
            buf_put(ctx, G, BUF_EXCL, in[i] * 2);
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
    sort_ids(conj, n);
    rest[j] = n == 1 ? conj[0] : term_fn(ctx, G->andsym, n, conj);
  }
  sort_ids(rest, nk);
  t = term_fn(ctx, G->orsym, nk, rest);
  ctx_free(ctx, rest);
  ctx_free(ctx, conj);
  return t;
}

/* How many heads would read disjunction t (saturating); bumps it with
 * `add`. */
static uint32_t or_uses(gdl_ctx *ctx, ground_t *G, gdl_term t, int add)
{
  uint8_t *b = term_byte(ctx, &G->orcnt, &G->orcntcap, t);
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
  p = prop_of(ctx, G, t, phase);
  b = phase == P_MOVE ? BUF_OR_MOVE : BUF_OR_STATE;
  for (j = 0; j < nk; j++) {
    uint32_t at, n = 0;
    buf_put(ctx, G, b, p);
    at = G->nbuf[b];
    buf_put(ctx, G, b, 0);
    for (i = 0; i < k[j][1]; i++)
      if (!G->incommon[k[j][2 + i]]) {
        buf_put(ctx, G, b, k[j][2 + i]);
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

static void share_inputs(gdl_ctx *ctx, ground_t *G, int rb)
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
    qsort(key, nr, sizeof *key, cmp_u64);
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
    buf_put(ctx, G, rb, out[i]);
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

static void gate_legal(gdl_ctx *ctx, ground_t *G)
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
static void alias_outputs(gdl_ctx *ctx, ground_t *G)
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

/* ---- building --------------------------------------------------------- */

/* The relaxed fixpoint (step 1 above): leaves every atom that can hold in
 * a reachable state in the database. */
static void relax(gdl_ctx *ctx)
{
  gdl_state all = { 0, 0, NULL }, nx = { 0, 0, NULL };
  uint32_t i, rounds = 0, in_allcap = 0;
  uint8_t *in_all = NULL;      /* per term: a fluent of `all` */
  gdl_initial(ctx, &all);
  for (i = 0; i < all.n; i++)
    mark_term(ctx, &in_all, &in_allcap, all.facts[i]);
  ctx->relaxed = 1;
  for (;;) {
    const rel_t *legal = &ctx->rels[ctx->r_legal];
    const rel_t *next = &ctx->rels[ctx->r_next];
    uint32_t before = all.n;
    eval_clear(ctx, P_STATE);
    for (i = 0; i < all.n; i++)
      eval_insert(ctx, ctx->r_true, term_fn(ctx, S_TRUE, 1, &all.facts[i]));
    eval_phase(ctx, P_STATE);
    for (i = 0; i < legal->n; i++) {
      gdl_term args[2];
      args[0] = TARG(ctx, legal->facts[i], 0);
      args[1] = TARG(ctx, legal->facts[i], 1);
      eval_insert(ctx, ctx->r_does, term_fn(ctx, S_DOES, 2, args));
    }
    eval_phase(ctx, P_MOVE);
    /* all := all + next */
    nx.n = 0;
    for (i = 0; i < next->n; i++) {
      GROW(ctx, nx.facts, nx.cap, nx.n);
      nx.facts[nx.n++] = TARG(ctx, next->facts[i], 0);
    }
    for (i = 0; i < nx.n; i++) {
      gdl_term f = nx.facts[i];
      if (!mark_term(ctx, &in_all, &in_allcap, f)) {
        GROW(ctx, all.facts, all.cap, all.n);
        all.facts[all.n++] = f;
      }
    }
    if (all.n == before)
      break;
    if (++rounds % 16 == 0)
      ctx_poll(ctx);
  }
  ctx->relaxed = 0;
  ctx_free(ctx, all.facts);
  ctx_free(ctx, nx.facts);
  ctx_free(ctx, in_all);
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
    for (j = i; j > 0 && (by_id ? v[j - 1].term > x.term
                                : cmp_out_term(ctx, &v[j - 1], &x) > 0); j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

/* An output atom: terminal, (next F), (legal R M), (goal R V). */
static void output(gdl_ctx *ctx, ground_t *G, uint32_t p, gdl_term a)
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

static void outputs(gdl_ctx *ctx, ground_t *G)
{
  static const uint32_t kw[] = { S_LEGAL, S_GOAL, S_NEXT, S_TERMINAL };
  uint32_t p, r, k = ctx->nroles, i, j, nstatic = 0;
  /* outputs that static facts give hold in every state */
  G->always = prop_of(ctx, G, term_sym(ctx, sym_intern(ctx, " always", 7)),
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
    output(ctx, G, p, G->atom[p]);
  }
  for (i = 0; i < ctx->nrels; i++)
    if (ctx->rels[i].phase == P_STATIC)
      for (j = 0; j < 4; j++)
        if (ctx->rels[i].sym == kw[j]) {
          uint32_t f;
          for (f = 0; f < ctx->rels[i].n; f++)
            output(ctx, G, G->always, ctx->rels[i].facts[f]);
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
  relax(ctx);
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
  ctx->grounding = 1;
  ctx->relaxed = 1;
  pending = ctx_alloc(ctx, ctx->nrels + 1);
  for (s = 0; s <= ctx->nsccs; s++) {
    const scc_t *c = s < ctx->nsccs ? &ctx->sccs[s] : NULL;
    int reads = !c || c->recursive;
    if (c && (c->phase == P_STATIC || c->nrules == 0))
      continue;
    /* components outside recursion wait together, so that rules of one
     * head meet in share_inputs, until one reads a relation of theirs */
    for (i = 0; c && !reads && i < c->nrules; i++) {
      const rule_t *r = &ctx->rules[c->rules[i]];
      uint32_t j;
      for (j = 0; j < r->nbody; j++)
        if ((r->body[j].kind == L_POS || r->body[j].kind == L_NEG) &&
            pending[r->body[j].rel])
          reads = 1;
    }
    if (reads) {
      exclusive(ctx, G);
      share_inputs(ctx, G, BUF_RULES_STATE);
      share_inputs(ctx, G, BUF_RULES_MOVE);
      flush(ctx, G, BUF_STATE, P_STATE, 0);
      flush(ctx, G, BUF_MOVE, P_MOVE, 0);
      flush(ctx, G, BUF_EXCL, P_MOVE, 0);
      flush(ctx, G, BUF_OR_STATE, P_STATE, 0);
      flush(ctx, G, BUF_OR_MOVE, P_MOVE, 0);
      flush(ctx, G, BUF_RULES_STATE, P_STATE, 0);
      flush(ctx, G, BUF_RULES_MOVE, P_MOVE, 0);
      memset(pending, 0, ctx->nrels);
    }
    if (!c)
      break;
    for (i = 0; i < c->nrules; i++) {
      eval_rule(ctx, &ctx->rules[c->rules[i]]);
      pending[ctx->rules[c->rules[i]].rel] = 1;
    }
    if (c->recursive) {
      flush(ctx, G, BUF_RULES(c->phase), c->phase, 1);
      memset(pending, 0, ctx->nrels);
    }
  }
  ctx_free(ctx, pending);
  ctx->grounding = 0;
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
  drop_aliases(ctx, G);
  drop_dead(ctx, G);
  outputs(ctx, G);
  gate_legal(ctx, G);
  alias_outputs(ctx, G);
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

/* ---- evaluation ------------------------------------------------------- */

static int rule_holds(const ground_t *G, uint32_t r)
{
  const uint32_t *in = G->in + G->in_lo[r], *end = G->in + G->in_lo[r + 1];
  const uint8_t *val = G->val;
  for (; in < end; in++)
    if (val[*in >> 1] == (*in & 1))
      return 0;
  return 1;
}

/* Passes over rules order[lo, hi) (rules lo..hi-1 when order is NULL);
 * whether a head came to hold.  With `trail`, those heads are kept in
 * G->mset, to be cleared for the next joint move. */
static int run_list(ground_t *G, const uint32_t *order, uint32_t lo,
                    uint32_t hi, int trail)
{
  uint8_t *val = G->val;
  uint32_t i;
  int changed = 0;
  for (i = lo; i < hi; i++) {
    uint32_t r = order ? order[i] : i, h = G->head[r];
    if (!val[h] && rule_holds(G, r)) {
      val[h] = 1;
      changed = 1;
      if (trail)
        G->mset[G->nmset++] = h;
    }
  }
  return changed;
}

/* A full pass over the groups of a phase; in the move phase, only the
 * rules of the `does` propositions that hold (does[0..k-1]). */
static void run(ground_t *G, int phase, const uint32_t *does, uint32_t k)
{
  uint32_t i, j, trail = phase == P_MOVE;
  for (i = 0; i < G->nphg[phase]; i++) {
    const group_t *gr = &G->groups[G->phg[phase][i]];
    int changed;
    do {
      if (!gr->order) {
        changed = run_list(G, NULL, gr->lo, gr->hi, trail);
        continue;
      }
      changed = run_list(G, gr->order, 0, gr->free, trail);
      for (j = 0; j < k; j++) {
        uint32_t a = 0, b = gr->nbuckets;
        while (a < b) {        /* the bucket of this move, if any */
          uint32_t m = (a + b) / 2;
          if (gr->buckets[m].prop < does[j])
            a = m + 1;
          else
            b = m;
        }
        if (a < gr->nbuckets && gr->buckets[a].prop == does[j])
          changed |= run_list(G, gr->order, gr->buckets[a].lo,
                              gr->buckets[a].hi, trail);
      }
    } while (changed && gr->recursive);
  }
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
    qsort(kr, n, sizeof *kr, cmp_u64);
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

/* ---- incrementally -----------------------------------------------------
 *
 * Consecutive states of a game differ in a few fluents, and consecutive
 * joint moves in a few moves, so after the first state only what changed
 * is propagated: the `true` and `does` propositions are the inputs, and
 * both phases follow them.  Each rule of a plain (not recursive) group
 * counts its inputs that do not hold (cnt: it fires
 * at 0), each proposition its firing rules (support: it holds above 0).
 * A changed proposition is an event: it moves the counts of the rules that
 * read it, a rule that starts or stops firing moves its head's support,
 * and a head whose support leaves or reaches 0 changes, which is another
 * event.  Counting is exact only without cycles, so a recursive group is
 * evaluated whole, like the full pass does, when an input or the support
 * of one of its heads changed: the groups come in evaluation order, the
 * lowest dirty one first, and its heads that changed are events again. */

/* A move read by this many rules or more is followed with ready lists. */
#define DK_READERS 8

/* The readers of each proposition (fan, gfan), and with dk the ready
 * lists of the rules of one move (see one_move_event), whose other
 * inputs are in fan like any rule's, and the flags of each proposition
 * (read).  Made again when the search asks for rules of one move and when
 * it is done (ground_search_mode). */
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
  if (dk) {
    uint32_t *readers = ctx_alloc(ctx, (n + 1) * sizeof *readers);
    for (i = 0; i < G->nin; i++)
      readers[G->in[i] >> 1]++;
    for (p = 0; p < n; p++)
      many[p] = is_does(ctx, G, p) && readers[p] >= DK_READERS;
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

/* Whether rule r of one move has its move, as of the events handled. */
#define DK_HOLDS(G, r) \
  ((G)->dval[((G)->dkcode[r] - 1) >> 1] != (((G)->dkcode[r] - 1) & 1))

static inline void ready_add(ground_t *G, uint32_t r)
{
  uint32_t c = G->dkcode[r] - 1, at = G->ready_lo[c] + G->nready[c]++;
  G->readyr[at] = r;
  G->rpos[r] = at;
}

static inline void ready_del(ground_t *G, uint32_t r)
{
  uint32_t c = G->dkcode[r] - 1, last = G->ready_lo[c] + --G->nready[c];
  uint32_t moved = G->readyr[last];
  G->readyr[G->rpos[r]] = moved;
  G->rpos[moved] = G->rpos[r];
}

/* Output slots of p after its second (see alias_outputs), now v. */
static __attribute__((noinline)) void more_outs(ground_t *G, uint32_t p,
                                                int v)
{
  const uint32_t *s = G->outs + G->outlo[p] + 2;
  const uint32_t *se = G->outs + G->outlo[p + 1];
  uint64_t *ob = G->outbits, set = (uint64_t)0 - (uint64_t)v;
  for (; s < se; s++) {
    uint64_t m = (uint64_t)1 << (*s & 63);
    ob[*s >> 6] = (ob[*s >> 6] & ~m) | (m & set);
  }
}

static inline void push_event(gdl_ctx *ctx, ground_t *G, uint32_t p, int v)
{
  uint8_t f = G->read[p];
  if (f & 8) {                 /* an output: its bit */
    uint32_t i = G->outof[p] - 1;
    if (v)
      G->outbits[i >> 6] |= (uint64_t)1 << (i & 63);
    else
      G->outbits[i >> 6] &= ~((uint64_t)1 << (i & 63));
    if (f & 16) {              /* ... and a second */
      i = G->outs[G->outlo[p] + 1];
      if (v)
        G->outbits[i >> 6] |= (uint64_t)1 << (i & 63);
      else
        G->outbits[i >> 6] &= ~((uint64_t)1 << (i & 63));
      if (f & 32)              /* ... and more */
        more_outs(G, p, v);
    }
  }
  if (!(f & 1))                /* an output no rule reads */
    return;
  if (G->nevents >= G->eventcap)
    GROW(ctx, G->events, G->eventcap, G->nevents);
  G->events[G->nevents++] = p * 2 + (uint32_t)v;
}

/* Head h of a rule that started firing has one more support (rec: the
 * network has recursive groups, which h may be derived in). */
static inline __attribute__((always_inline)) void
support_up(gdl_ctx *ctx, ground_t *G, uint32_t h, const int rec)
{
  if (G->support[h]++ != 0)
    return;
  if (rec && G->recgroup[h]) {
    G->dirty[G->recgroup[h] - 1] = 1;
  } else {
    G->val[h] = 1;
    push_event(ctx, G, h, 1);
  }
}

/* ... or one less, of a rule that stopped. */
static inline __attribute__((always_inline)) void
support_down(gdl_ctx *ctx, ground_t *G, uint32_t h, const int rec)
{
  if (--G->support[h] != 0)
    return;
  if (rec && G->recgroup[h]) {
    G->dirty[G->recgroup[h] - 1] = 1;
  } else {
    G->val[h] = 0;
    push_event(ctx, G, h, 0);
  }
}

/* Event p (now v), the move of rules of one move (in a search, see
 * ground_search_mode).  A rule of one move counts its other inputs only
 * (in fan like any rule's); when they all hold it is ready, on the list
 * of its move, and it fires while its move holds, as of the events
 * handled (dval: a move changed, whose event waits, does not count yet).
 * So a change of move visits the rules that can fire, not all the rules
 * that read the move. */
static inline __attribute__((always_inline)) void
one_move_event(gdl_ctx *ctx, ground_t *G, uint32_t p, uint32_t v,
               const int rec)
{
  uint32_t now = p * 2 + !v, other = p * 2 + v;
  const uint32_t *head = G->head, *f, *fe;
  f = G->readyr + G->ready_lo[now];
  fe = f + G->nready[now];
  for (; f < fe; f++)
    support_up(ctx, G, head[*f], rec);
  f = G->readyr + G->ready_lo[other];
  fe = f + G->nready[other];
  for (; f < fe; f++)
    support_down(ctx, G, head[*f], rec);
}

/* The events to the end, with (dk = 1) or without rules of one move, in
 * a network with (rec = 1) or without recursive groups. */
static inline __attribute__((always_inline)) void
propagate_with(gdl_ctx *ctx, ground_t *G, const int dk, const int rec)
{
  uint32_t next_rec = 0, i;
  uint32_t *cnt = G->cnt;
  const uint32_t *fan = G->fan, *head = G->head;
  for (;;) {
    while (G->nevents) {
      uint32_t e = G->events[--G->nevents], p = e >> 1, v = e & 1;
      /* the readers of p whose literal holds now (p read as it is now:
       * code p * 2 + !v) count one input less, the others one more */
      uint32_t now = p * 2 + !v, other = p * 2 + v;
      const uint32_t *f = fan + G->fan_lo[now], *fe = fan + G->fan_lo[now + 1];
      if (dk && (G->read[p] & 2))   /* the move of rules of one move */
        G->dval[p] = (uint8_t)v;
      for (; f < fe; f++)
        if (--cnt[*f] == 0) {
          if (dk && G->dkcode[*f]) {    /* a rule of one move: ready */
            ready_add(G, *f);
            if (DK_HOLDS(G, *f))
              support_up(ctx, G, head[*f], rec);
          } else {
            support_up(ctx, G, head[*f], rec);
          }
        }
      f = fan + G->fan_lo[other];
      fe = fan + G->fan_lo[other + 1];
      for (; f < fe; f++)
        if (cnt[*f]++ == 0) {
          if (dk && G->dkcode[*f]) {
            ready_del(G, *f);
            if (DK_HOLDS(G, *f))
              support_down(ctx, G, head[*f], rec);
          } else {
            support_down(ctx, G, head[*f], rec);
          }
        }
      if (dk && (G->read[p] & 2))
        one_move_event(ctx, G, p, v, rec);
      if (rec)
        for (i = G->gfan_lo[p]; i < G->gfan_lo[p + 1]; i++)
          if (G->gfan[i] != UINT32_MAX)
            G->dirty[G->gfan[i]] = 1;
    }
    if (!rec)
      return;
    while (next_rec < G->nrecg && !G->dirty[G->recg[next_rec]])
      next_rec++;
    if (next_rec == G->nrecg)
      return;
    {
      uint32_t g = G->recg[next_rec++], k = G->ngheads[g];
      const uint32_t *h = G->gheads[g];
      const group_t *gr = &G->groups[g];
      G->dirty[g] = 0;
      for (i = 0; i < k; i++) {
        G->oldval[i] = G->val[h[i]];
        G->val[h[i]] = G->support[h[i]] > 0;
      }
      while (run_list(G, NULL, gr->lo, gr->hi, 0))
        ;
      for (i = 0; i < k; i++)
        if (G->val[h[i]] != G->oldval[i])
          push_event(ctx, G, h[i], G->val[h[i]]);
      /* its own heads do not make it dirty again */
      G->dirty[g] = 0;
    }
  }
}

/* Copies of the loop: playouts, without rules of one move, run the plain
 * ones, and the others are out of their way; most networks have no
 * recursive group and need not ask at every change of support. */
static __attribute__((noinline)) void propagate_dk(gdl_ctx *ctx, ground_t *G)
{
  if (G->nrecg)
    propagate_with(ctx, G, 1, 1);
  else
    propagate_with(ctx, G, 1, 0);
}

static void propagate(gdl_ctx *ctx, ground_t *G)
{
  if (G->ndk)
    propagate_dk(ctx, G);
  else if (G->nrecg)
    propagate_with(ctx, G, 0, 1);
  else
    propagate_with(ctx, G, 0, 0);
}

/* The proposition of an atom of k arguments, or UINT32_MAX when the
 * network has none (no rule reads it), remembered in (*cache)[key]. */
static uint32_t lookup_prop(gdl_ctx *ctx, const ground_t *G,
                            uint32_t **cache, uint32_t *cap, gdl_term key,
                            uint32_t sym, uint32_t k, const gdl_term *args);

static inline uint32_t cached_prop(gdl_ctx *ctx, const ground_t *G,
                                   uint32_t **cache, uint32_t *cap,
                                   gdl_term key, uint32_t sym, uint32_t k,
                                   const gdl_term *args)
{
  if (key < *cap && (*cache)[key])
    return (*cache)[key] - 2;
  return lookup_prop(ctx, G, cache, cap, key, sym, k, args);
}

static uint32_t lookup_prop(gdl_ctx *ctx, const ground_t *G,
                            uint32_t **cache, uint32_t *cap, gdl_term key,
                            uint32_t sym, uint32_t k, const gdl_term *args)
{
  gdl_term t;
  t = term_find(ctx, sym, k, args);
  GROW(ctx, *cache, *cap, key);
  (*cache)[key] = t && t < G->propofcap && G->propof[t] ? G->propof[t] + 1
                                                         : 1;   /* none */
  return (*cache)[key] - 2;
}

/* The `true` proposition of fluent f, or UINT32_MAX when no rule reads it. */
static uint32_t true_prop(gdl_ctx *ctx, ground_t *G, gdl_term f)
{
  return cached_prop(ctx, G, &G->trueof, &G->trueofcap, f, S_TRUE, 1, &f);
}

/* After a full pass: the counts that match it. */
static void incr_init(ground_t *G, uint32_t roles)
{
  uint32_t g, r, i;
  memset(G->support, 0, G->nprops * sizeof *G->support);
  memset(G->nready, 0, 2 * (size_t)G->nprops * sizeof *G->nready);
  COPY(G->dval, G->val, G->nprops);
  memset(G->doesp, 0xff, sizeof G->doesp);
  for (g = 0; g < G->ngroups; g++) {
    const group_t *gr = &G->groups[g];
    if (gr->recursive)
      continue;
    for (r = gr->lo; r < gr->hi; r++) {
      uint32_t c = 0, dk = G->dkcode[r];
      for (i = G->in_lo[r]; i < G->in_lo[r + 1]; i++)
        c += G->val[G->in[i] >> 1] == (G->in[i] & 1) && G->in[i] + 1 != dk;
      G->cnt[r] = c;
      if (dk && c == 0)
        ready_add(G, r);
      if (c == 0 && (!dk || DK_HOLDS(G, r)))
        G->support[G->head[r]]++;
    }
  }
  memset(G->dirty, 0, G->ngroups);
  memset(G->outbits, 0, (G->nslots / 64 + 1) * sizeof *G->outbits);
  for (i = 0; i < G->nnext; i++)
    if (G->val[G->next[i].prop])
      G->outbits[i >> 6] |= (uint64_t)1 << (i & 63);
  for (g = 0; g < roles; g++)
    for (i = 0; i < G->nlegal[g]; i++)
      if (G->val[G->legal[g][i].prop]) {
        r = G->legalslot[g] + i;
        G->outbits[r >> 6] |= (uint64_t)1 << (r & 63);
      }
  G->ready = 1;
}

/* The state whose slots are G->newbits, once the network is ready: the
 * slots that differ from the current ones are the events. */
static void apply_bits(gdl_ctx *ctx, ground_t *G)
{
  uint64_t *nb = G->newbits, *cb = G->curbits;
  uint32_t i, words = G->ntslots / 64 + 1;
  for (i = 0; i < words; i++) {
    uint64_t x = nb[i] ^ cb[i];
    while (x) {
      uint32_t b = (uint32_t)__builtin_ctzll(x), p = G->tprop[i * 64 + b];
      int v = (int)((nb[i] >> b) & 1);
      G->val[p] = (uint8_t)v;
      push_event(ctx, G, p, v);
      x &= x - 1;
    }
  }
  G->curbits = nb;
  G->newbits = cb;
  propagate(ctx, G);
}

/* n bytes from live to the checkpoint's cp (save), or back. */
static void cp_copy(void *cp, void *live, size_t n, int save)
{
  if (save)
    memcpy(cp, live, n);
  else
    memcpy(live, cp, n);
}

/* Saves (save = 1) the network as it is, the current state its key, or
 * puts the saved one back.  Only what propagation changes is kept: the
 * values, the counts, the supports, the output and state bits and the
 * moves that hold (no event waits, no group is dirty, once it is done). */
static void checkpoint(ground_t *G, int save)
{
  uint32_t words = G->ntslots / 64 + 1, owords = G->nslots / 64 + 1;
  cp_copy(G->cpkey, G->curbits, words * sizeof *G->cpkey, save);
  cp_copy(G->cpval, G->val, G->nprops, save);
  cp_copy(G->cpcnt, G->cnt, G->nrules * sizeof *G->cnt, save);
  cp_copy(G->cpsupport, G->support, G->nprops * sizeof *G->support, save);
  cp_copy(G->cpout, G->outbits, owords * sizeof *G->outbits, save);
  cp_copy(G->cpdoes, G->doesp, sizeof G->doesp, save);
  G->cp_ok = 1;
}

void ground_set_state(gdl_ctx *ctx, const gdl_state *s)
{
  ground_t *G = ctx->ground;
  uint32_t i, p, words = G->ntslots / 64 + 1;
  if (G->ready) {
    uint64_t *nb = G->newbits;
    memset(nb, 0, words * sizeof *nb);
    for (i = 0; i < s->n; i++)
      if ((p = true_prop(ctx, G, s->facts[i])) != UINT32_MAX) {
        uint32_t b = G->tslot[p] - 1;
        nb[b >> 6] |= (uint64_t)1 << (b & 63);
      }
    if (G->dk_on) {            /* a search: states are set by their bits */
      apply_bits(ctx, G);
      return;
    }
    if (memcmp(nb, G->cpkey, words * sizeof *nb) != 0) {
      apply_bits(ctx, G);      /* remembered: saved should it come again */
      memcpy(G->cpkey, G->curbits, words * sizeof *G->cpkey);
      G->cp_ok = 0;
    } else if (G->cp_ok) {
      checkpoint(G, 0);
    } else {                   /* the same state set a second time */
      apply_bits(ctx, G);
      checkpoint(G, 1);
    }
    return;
  }
  memset(G->val, 0, G->nprops);
  G->nmset = 0;                  /* no move proposition holds */
  G->mset_ok = 1;
  G->val[G->always] = 1;
  if (G->incr)
    memset(G->curbits, 0, words * sizeof *G->curbits);
  for (i = 0; i < s->n; i++)
    if ((p = true_prop(ctx, G, s->facts[i])) != UINT32_MAX && !G->val[p]) {
      G->val[p] = 1;
      if (G->incr) {
        uint32_t b = G->tslot[p] - 1;
        G->curbits[b >> 6] |= (uint64_t)1 << (b & 63);
      }
    }
  run(G, P_STATE, NULL, 0);
  if (G->incr) {
    /* the move phase too, with no move played: from here on a joint
     * move is a change of `does` propositions like any other */
    run(G, P_MOVE, NULL, 0);
    incr_init(G, ctx->nroles);
    memcpy(G->cpkey, G->curbits, words * sizeof *G->cpkey);
    G->cp_ok = 0;
  }
}

/* ground_legal where the network is not kept up to date, or a role has
 * too many gates: each move's gate looked at. */
static __attribute__((noinline)) void
legal_by_move(ground_t *G, size_t role, const gdl_term **moves, uint32_t *n)
{
  const out_t *o = G->legal[role];
  const uint8_t *val = G->val;
  gdl_term *m = G->legalbuf[role];
  uint32_t i, k = 0, nl = G->nlegal[role];
  const uint32_t *gate = G->lgate[role];
  if (G->ready) {              /* the bits kept by propagation */
    uint32_t lo = G->legalslot[role];
    for (i = lo / 64; i < (lo + nl + 63) / 64; i++) {
      uint64_t w = G->outbits[i];
      while (w) {
        uint32_t j = i * 64 + (uint32_t)__builtin_ctzll(w) - lo;
        m[k] = o[j].term;      /* kept when its gate holds: no branch on */
        k += val[gate[j]];     /* the turn, which changes every step */
        w &= w - 1;
      }
    }
  } else {
    for (i = 0; i < nl; i++)
      if (val[o[i].prop] && val[gate[i]])
        m[k++] = o[i].term;
  }
  *moves = m;
  *n = k;
}

/* Of a word of a role's legal moves read by gate (L->ng), whose masks
 * are mk[], the moves whose gate holds (a mask kept or not: no branch on
 * whose turn it is). */
static inline __attribute__((always_inline)) uint64_t
lread_on(const ground_t *G, const struct lread *L, const uint64_t *mk)
{
  uint64_t on = mk[0];
  uint32_t g;
  for (g = 1; g < L->ng; g++)
    on |= mk[g] & ((uint64_t)0 - G->val[L->gate[g - 1]]);
  return on;
}

void ground_legal(gdl_ctx *ctx, size_t role, const gdl_term **moves,
                  uint32_t *n)
{
  ground_t *G = ctx->ground;
  const struct lread *L = &G->lread[role];
  if (G->ready && L->ng) {     /* the bits kept, under the gates' masks */
    const uint64_t *ob = G->outbits + L->word, *mk = L->mask;
    uint32_t i, k = 0;
    uint64_t w;
    for (i = 0; i < L->nw; i++, mk += MAX_LGATES + 1) {
      const out_t *o = L->o + i * 64;
      for (w = ob[i] & lread_on(G, L, mk); w; w &= w - 1)
        L->buf[k++] = o[__builtin_ctzll(w)].term;
    }
    *moves = L->buf;
    *n = k;
    return;
  }
  legal_by_move(G, role, moves, n);
}

int ground_terminal(gdl_ctx *ctx)
{
  ground_t *G = ctx->ground;
  return G->terminal && G->val[G->terminal - 1];
}

void ground_goals(gdl_ctx *ctx, size_t role, gdl_term **buf, uint32_t *cap,
                  uint32_t *n)
{
  ground_t *G = ctx->ground;
  uint32_t i, k = 0;
  gdl_term *vals;
  GROW(ctx, *buf, *cap, G->ngoal[role]);
  vals = *buf;
  for (i = 0; i < G->ngoal[role]; i++)
    if (G->val[G->goal[role][i].prop])
      vals[k++] = G->goal[role][i].term;
  *n = k;
}

int ground_is_legal(gdl_ctx *ctx, size_t role, gdl_term move)
{
  ground_t *G = ctx->ground;
  uint32_t i;
  for (i = 0; i < G->nlegal[role]; i++)   /* static facts have no atom */
    if (G->legal[role][i].term == move) { /* of their own: look at all */
      return G->val[G->legal[role][i].prop] && G->val[G->lgate[role][i]];
    }
  return 0;
}

/* The facts of the first n slots that are set in bits; those of next[]'s
 * slots come first, sorted by id as next[] is. */
static void slot_facts(gdl_ctx *ctx, const ground_t *G, const uint64_t *bits,
                       uint32_t n, gdl_state *out)
{
  uint32_t i, k = 0;
  if (out->cap < n + 1 || !out->facts) {
    out->facts = ctx_realloc(ctx, out->facts, (n + 1) * sizeof *out->facts);
    out->cap = n + 1;
  }
  for (i = 0; i < (n + 63) / 64; i++) {
    uint64_t w = bits[i];
    while (w) {
      uint32_t b = i * 64 + (uint32_t)__builtin_ctzll(w);
      if (b >= n)
        break;
      out->facts[k++] = b < G->nnext ? G->next[b].term
                                     : TARG(ctx, G->atom[G->tprop[b]], 0);
      w &= w - 1;
    }
  }
  out->n = k;
}

/* The `does` proposition of role r making move m, or UINT32_MAX when no
 * rule reads it. */
static inline uint32_t does_prop(gdl_ctx *ctx, ground_t *G, size_t r,
                                 gdl_term m)
{
  gdl_term args[2];
  if (!G->doesof) {
    G->doesof = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *G->doesof);
    G->doesofcap = ctx_alloc(ctx, (ctx->nroles + 1) * sizeof *G->doesofcap);
  }
  args[0] = ctx->roles[r];
  args[1] = m;
  return cached_prop(ctx, G, &G->doesof[r], &G->doesofcap[r], m, S_DOES, 2,
                     args);
}

/* The joint move whose `does` propositions are does[] (one a role, in
 * role order) played in the network kept up to date: the roles' moves
 * that changed are events, like fluents in a state, then propagated. */
static inline __attribute__((always_inline)) void
play_props(gdl_ctx *ctx, ground_t *G, const uint32_t *does)
{
  uint32_t r, old;
  /* the old moves first, so that the new ones are handled first: a
   * disjunction of moves (tic-tac-toe's "a mark outside row 1") that
   * holds before and after never drops in between, which would be two
   * more events each */
  for (r = 0; r < ctx->nroles; r++)
    if (does[r] != (old = G->doesp[r]) && old != UINT32_MAX) {
      G->val[old] = 0;
      push_event(ctx, G, old, 0);
    }
  for (r = 0; r < ctx->nroles; r++)
    if (does[r] != G->doesp[r]) {
      G->doesp[r] = does[r];
      if (does[r] != UINT32_MAX) {
        G->val[does[r]] = 1;
        push_event(ctx, G, does[r], 1);
      }
    }
  propagate(ctx, G);
}

/* The joint move `moves` played in the current state: the move phase. */
static void play(gdl_ctx *ctx, ground_t *G, const gdl_term *moves)
{
  uint32_t i, r, nd = 0, does[64];
  if (G->ready) {              /* incr_build: no more than 64 roles */
    for (r = 0; r < ctx->nroles; r++)
      does[r] = does_prop(ctx, G, r, moves[r]);
    play_props(ctx, G, does);
    return;
  }
  for (r = 0; r < ctx->nroles; r++) {
    uint32_t p = does_prop(ctx, G, r, moves[r]);
    if (p != UINT32_MAX && nd < 64)
      does[nd++] = p;
  }
  if (G->mset_ok)
    for (i = 0; i < G->nmset; i++)
      G->val[G->mset[i]] = 0;
  else
    for (i = 0; i < G->nmoveprops; i++)
      G->val[G->moveprops[i]] = 0;
  G->nmset = 0;
  G->mset_ok = 1;
  for (i = 0; i < nd; i++)
    if (!G->val[does[i]]) {
      G->val[does[i]] = 1;
      G->mset[G->nmset++] = does[i];
    }
  run(G, P_MOVE, does, nd);
}

void ground_next(gdl_ctx *ctx, const gdl_term *moves, gdl_state *out)
{
  ground_t *G = ctx->ground;
  uint32_t i, k = 0;
  play(ctx, G, moves);
  if (G->ready) {              /* the bits kept by propagation */
    slot_facts(ctx, G, G->outbits, G->nnext, out);
    return;
  }
  if (out->cap < G->nnext + 1 || !out->facts) {
    out->facts = ctx_realloc(ctx, out->facts,
                             (G->nnext + 1) * sizeof *out->facts);
    out->cap = G->nnext + 1;
  }
  for (i = 0; i < G->nnext; i++)
    if (G->val[G->next[i].prop])
      out->facts[k++] = G->next[i].term;
  out->n = k;
}

/* ---- states as bits, for a search -------------------------------------
 *
 * A search stores every state it meets and compares them whole, so with
 * this engine it keeps a state as the bits of its fluent slots, in 32-bit
 * words (the store holds them like fact ids).  Slot i < nnext is the
 * fluent of next[i], so a next state is the output bits as they are, and
 * setting a stored state is an XOR with the current one: no fluent is
 * looked up in either direction. */

/* 32-bit words a state takes, or 0 when states cannot be bits here. */
uint32_t ground_state_words(gdl_ctx *ctx)
{
  const ground_t *G = ctx->ground;
  if (!G || !G->incr || !G->bits_ok)
    return 0;
  return 2 * ((G->ntslots + 63) / 64);
}

/* State s as bits (ground_state_words() words); 0 when one of its facts
 * has no slot. */
int ground_state_bits(gdl_ctx *ctx, const gdl_state *s, uint32_t *w)
{
  ground_t *G = ctx->ground;
  uint32_t i, n = ground_state_words(ctx);
  memset(w, 0, n * sizeof *w);
  for (i = 0; i < s->n; i++) {
    uint32_t p = true_prop(ctx, G, s->facts[i]), b;
    if (p != UINT32_MAX) {
      b = G->tslot[p] - 1;
    } else {                   /* no rule reads it: its next[] slot */
      uint32_t a = 0, z = G->nnext;
      while (a < z) {
        uint32_t m = (a + z) / 2;
        if (G->next[m].term < s->facts[i])
          a = m + 1;
        else
          z = m;
      }
      if (a == G->nnext || G->next[a].term != s->facts[i])
        return 0;
      b = a;
    }
    w[b >> 5] |= (uint32_t)1 << (b & 31);
  }
  return 1;
}

/* Sets the current state to the one of bits w. */
void ground_set_bits(gdl_ctx *ctx, const uint32_t *w)
{
  ground_t *G = ctx->ground;
  uint32_t i, n = ground_state_words(ctx) / 2;
  for (i = 0; i < n; i++)      /* the slots a rule reads */
    G->newbits[i] = ((uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32) &
                    G->tmask[i];
  for (; i < G->ntslots / 64 + 1; i++)
    G->newbits[i] = 0;
  if (!G->ready) {             /* a full pass, from the facts */
    gdl_state s = { 0, 0, NULL };
    slot_facts(ctx, G, G->newbits, G->ntslots, &s);
    ground_set_state(ctx, &s);
    ctx_free(ctx, s.facts);
    return;
  }
  apply_bits(ctx, G);
}

/* The next state after the joint move `moves`, as bits.  States are bits
 * only where the network is incremental, and the first one set made it
 * ready, so the output bits are kept up to date. */
void ground_next_bits(gdl_ctx *ctx, const gdl_term *moves, uint32_t *w)
{
  ground_t *G = ctx->ground;
  uint32_t i, n = ground_state_words(ctx) / 2, nw = (G->nnext + 63) / 64;
  play(ctx, G, moves);
  for (i = 0; i < n; i++) {
    uint64_t x = i < nw ? G->outbits[i] : 0;
    w[2 * i] = (uint32_t)x;
    w[2 * i + 1] = (uint32_t)(x >> 32);
  }
}

/* Once a joint move is played: the next state made the current one from
 * the output bits (a next state's slots are those of next[]). */
static void next_to_state(gdl_ctx *ctx, ground_t *G)
{
  uint32_t i, words = G->ntslots / 64 + 1, nw = (G->nnext + 63) / 64;
  for (i = 0; i < words; i++) {
    G->statebits[i] = i < nw ? G->outbits[i] : 0;
    G->newbits[i] = G->statebits[i] & G->tmask[i];
  }
  apply_bits(ctx, G);
}

/* The joint move `moves` played, and its next state made the current one;
 * 0 when the network is not kept up to date that way, and nothing done. */
int ground_advance(gdl_ctx *ctx, const gdl_term *moves)
{
  ground_t *G = ctx->ground;
  if (!G->ready || !G->bits_ok)
    return 0;
  play(ctx, G, moves);
  next_to_state(ctx, G);
  return 1;
}

/* A random legal move of a role, the one gdl_random picks of the list
 * ground_legal would make: 0 when it has none, else 1 and its `does`
 * proposition in *does.  Where the role's moves are read by gate, no list
 * is made: the moves are counted (set bits under the masks) and the one
 * picked found by its place. */
static inline __attribute__((always_inline)) int
random_legal(gdl_ctx *ctx, ground_t *G, size_t role, uint64_t *rng,
             uint32_t *does)
{
  const struct lread *L = &G->lread[role];
  const uint64_t *ob = G->outbits + L->word, *mk;
  uint64_t w = 0;
  uint32_t i, n = 0, k;
  if (!L->ng) {
    const gdl_term *mv;
    ground_legal(ctx, role, &mv, &n);
    if (n)
      *does = does_prop(ctx, G, role, mv[gdl_random(rng, n)]);
    return n != 0;
  }
  for (i = 0, mk = L->mask; i < L->nw; i++, mk += MAX_LGATES + 1)
    n += (uint32_t)__builtin_popcountll(ob[i] & lread_on(G, L, mk));
  if (n == 0)
    return 0;
  k = (uint32_t)gdl_random(rng, n);
  for (i = 0, mk = L->mask; i < L->nw; i++, mk += MAX_LGATES + 1) {
    w = ob[i] & lread_on(G, L, mk);
    n = (uint32_t)__builtin_popcountll(w);
    if (k < n)
      break;
    k -= n;
  }
  for (; k; k--)
    w &= w - 1;
  *does = L->does[i * 64 + (uint32_t)__builtin_ctzll(w)];
  return 1;
}

/* The steps of ground_random_steps; see there. */
static inline __attribute__((always_inline)) size_t
random_steps(gdl_ctx *ctx, ground_t *G, uint64_t *rng, size_t max_steps,
             int *over)
{
  size_t k = 0, r, nr = ctx->nroles;
  while (k < max_steps && !(*over = ground_terminal(ctx))) {
    for (r = 0; r < nr; r++)
      if (!random_legal(ctx, G, r, rng, &G->joint[r]))
        break;
    if (r < nr) {
      *over = 1;
      break;
    }
    play_props(ctx, G, G->joint);
    next_to_state(ctx, G);
    k++;
  }
  return k;
}

/* Counting a role's moves is a popcount a word: one instruction where the
 * processor has it (most x86-64 since 2008, but not the baseline the
 * compiler may assume), a dozen where not; so a copy for each. */
#if HAVE_TARGET_POPCNT
__attribute__((target("popcnt"))) static size_t
random_steps_popcnt(gdl_ctx *ctx, ground_t *G, uint64_t *rng,
                    size_t max_steps, int *over)
{
  return random_steps(ctx, G, rng, max_steps, over);
}
#else
#define random_steps_popcnt random_steps
#endif

/* gdl_random_steps where the network is kept up to date by bits: every
 * step in here, none through the public calls; 0 when not, and nothing
 * done. */
int ground_random_steps(gdl_ctx *ctx, uint64_t *rng, size_t max_steps,
                        size_t *steps, int *over)
{
  ground_t *G = ctx->ground;
  if (!G->ready || !G->bits_ok)
    return 0;
  *steps = G->popcnt ? random_steps_popcnt(ctx, G, rng, max_steps, over)
                     : random_steps(ctx, G, rng, max_steps, over);
  return 1;
}

/* The facts of the state ground_advance made. */
void ground_advanced_facts(gdl_ctx *ctx, gdl_state *out)
{
  slot_facts(ctx, ctx->ground, ctx->ground->statebits, ctx->ground->nnext,
             out);
}

/* ---- public ----------------------------------------------------------- */

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
    uint8_t *lazy = ctx_alloc(ctx, ctx->nrels + 1);
    uint32_t i;
    int nlazy = ctx->nlazy, own = 0;
    double deadline = ctx->deadline;
    for (i = 0; i < ctx->nrels; i++)
      lazy[i] = ctx->rels[i].lazy;
    if (ctx->fact_limit > MAX_RELAXED_FACTS)
      ctx->fact_limit = MAX_RELAXED_FACTS;
    if (deadline == 0 || ctx_clock() + GROUND_SECONDS < deadline) {
      ctx->deadline = ctx_clock() + GROUND_SECONDS;
      own = 1;
    }
    st = ground_build(ctx);
    if (st == GDL_ELIMIT && own && ctx_clock() >= ctx->deadline)
      ctx_setmsg(ctx, "grounding took more than %g s", GROUND_SECONDS);
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
      ctx->grounding = ctx->relaxed = 0;
      {
        /* the database holds relaxed facts: empty it, and the static
         * relations that are lazy again (computed in part, and counted
         * against the fact limit) */
        jmp_buf jb, *old = ctx->jmp;
        ctx->jmp = &jb;
        if (!setjmp(jb)) {
          eval_clear(ctx, P_STATE);
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
