/*
 * network.h - the network layer: the grounded engine's calls for the
 * folders above it (the first part), then its inner types, what a
 * proposition, a ground rule, a group and an output are, which its own
 * files and the analyses read.
 *
 *   game.c            the game API (gdl.h) over either engine
 *   ground_batch.c    the network for 64 states at once, read-only
 *   ground.c          construction: the over-approximation, instantiation
 *                     (with factoring), the outputs, the indexes that
 *                     propagation reads (fans, ready lists, slots), and
 *                     the public calls that choose the engine
 *   ground_reshape.c  the network as it is built (propositions, rules
 *                     waiting in buffers) and the passes that reshape it:
 *                     one move, shared inputs, unrolling, gates, aliases,
 *                     dead rules
 *   ground_prop.c     propagation: the full pass, events, recursive
 *                     groups, the checkpoint; a state set, a joint move
 *                     played, random steps
 *   ground_out.c      the outputs read: legal moves, goals, terminal, the
 *                     facts of a state's slots, a state as bits, the
 *                     proposition of an atom
 *
 * Each calls only the files listed below it (doc/engine.md's map lists
 * them the other way up).
 */
#ifndef GDL_NETWORK_H
#define GDL_NETWORK_H
#include "core/core.h"

/* ---- the grounded engine (ground.c) ----------------------------------- */

/* Grounds the game; GDL_OK, or GDL_ELIMIT with the reason in errmsg when
 * it would be too large (the interpreter is then used). */
gdl_status ground_build(gdl_ctx *ctx);
void ground_set_state(gdl_ctx *ctx, const gdl_state *s);
/* The join orders for grounding (on = 1), or for the interpreter (0). */
void ground_plan(gdl_ctx *ctx, int on);
/* A search expands each state by every joint move: the grounded engine
 * then follows moves read by many rules with lists of the rules ready to
 * fire (on = 1), which playouts, one move a state, do not pay for (0). */
void ground_search_mode(gdl_ctx *ctx, int on);
/* The legal moves of role, sorted, in a buffer of the network's. */
void ground_legal(gdl_ctx *ctx, size_t role, const gdl_term **moves,
                  uint32_t *n);
int ground_terminal(gdl_ctx *ctx);
void ground_goals(gdl_ctx *ctx, size_t role, gdl_term **buf, uint32_t *cap,
                  uint32_t *n);
int ground_is_legal(gdl_ctx *ctx, size_t role, gdl_term move);
void ground_next(gdl_ctx *ctx, const gdl_term *moves, gdl_state *out);
/* States as bits over the fluent slots, for a search (see ground.c). */
uint32_t ground_state_words(gdl_ctx *ctx);
/* ... and the fluent slots in them: the bits past those are 0. */
uint32_t ground_state_slots(gdl_ctx *ctx);
int ground_state_bits(gdl_ctx *ctx, const gdl_state *s, uint32_t *w);
void ground_set_bits(gdl_ctx *ctx, const uint32_t *w);
void ground_next_bits(gdl_ctx *ctx, const gdl_term *moves, uint32_t *w);
/* gdl_advance without facts (0: not possible here, nothing done). */
int ground_advance(gdl_ctx *ctx, const gdl_term *moves);
/* gdl_random_steps by the network alone (0: not possible here, nothing
 * done). */
int ground_random_steps(gdl_ctx *ctx, uint64_t *rng, size_t max_steps,
                        size_t *steps, int *over);
/* The current state's facts with the grounded engine (game.c). */
const gdl_state *cur_state(gdl_ctx *ctx);
void ground_advanced_facts(gdl_ctx *ctx, gdl_state *out);

/* ---- many states at once (ground_batch.c) --------------------------- */

/* The grounded network evaluated for up to 64 states (lanes) at once,
 * read-only: each thread of a search has a batch of its own. */
typedef struct gbatch gbatch_t;
/* NULL where states are not bits of the grounded network. */
gbatch_t *gbatch_new(gdl_ctx *ctx);
void gbatch_free(gdl_ctx *ctx, gbatch_t *B);
/* The lanes: n states of bits (ground_state_words each), evaluated. */
void gbatch_states(gbatch_t *B, const uint32_t *const *w, uint32_t n);
/* The lanes whose state is terminal; lane's goal value of role 0 (-1:
 * none). */
uint64_t gbatch_terminal(const gbatch_t *B);
long gbatch_goal(const gbatch_t *B, uint32_t lane);
/* The joint moves of a lane (0 when a role has none), numbered as
 * expand_successors() (search/expand.c) counts them: the last role's
 * moves vary fastest; joint move j of a lane as terms, one a role. */
uint64_t gbatch_joints(const gbatch_t *B, uint32_t lane);
void gbatch_joint(const gbatch_t *B, uint32_t lane, uint64_t j,
                  gdl_term *moves);
/* Plays in each lane l of `lanes` its joint move pick[l]; its next
 * state's bits to out[l]. */
void gbatch_play(gbatch_t *B, const uint64_t *pick, uint64_t lanes,
                 uint32_t *const *out);
/* Where each lane of `lanes`, with j[l] joint moves, has its children in
 * one buffer, lane after lane: off[l], in states; returns their number. */
uint64_t gbatch_layout(uint64_t lanes, const uint64_t *j, uint64_t *off);
/* Every joint move of each lane of `lanes`: lane l's children to
 * buf + off[l] states (words each), in the order of its joint moves. */
void gbatch_expand(gbatch_t *B, uint64_t lanes, const uint64_t *off,
                   uint32_t *buf);

/* Threads: POSIX threads, except in the browser's build (one thread). */
#if !defined(__EMSCRIPTEN__)
#define GDL_THREADS 1
#else
#define GDL_THREADS 0
#endif

/* States of bits come in pairs of 32-bit words (ground_state_words):
 * the searches read, compare and hash them 64 bits at a time. */
static inline uint64_t load64(const uint32_t *w)
{
  uint64_t x;
  memcpy(&x, w, sizeof x);
  return x;
}

static inline void copy_words(uint32_t *d, const uint32_t *s, uint32_t n)
{
  uint32_t i;
  for (i = 0; i < n; i += 2)
    memcpy(d + i, s + i, sizeof(uint64_t));
}

static inline int same_words(const uint32_t *a, const uint32_t *b, uint32_t n)
{
  uint32_t i;
  for (i = 0; i < n; i += 2)
    if (load64(a + i) != load64(b + i))
      return 0;
  return 1;
}

static inline uint32_t words_hash(const uint32_t *w, uint32_t n)
{
  uint64_t h = 0x9e3779b97f4a7c15ull;
  uint32_t i;
  for (i = 0; i < n; i += 2) {
    h = (h ^ load64(w + i)) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  h *= 0x94d049bb133111ebull;
  return (uint32_t)(h >> 32);
}



/* Whether the processor counts bits in one instruction (see
 * ground_random_steps); where the compiler cannot ask, one copy serves. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_TARGET_POPCNT 1
#define HAVE_POPCNT() (__builtin_cpu_init(), __builtin_cpu_supports("popcnt"))
#else
#define HAVE_TARGET_POPCNT 0
#define HAVE_POPCNT() 1
#endif

/* Rules wait in G->buf[] while the components that come one after the
 * other read none of each other's relations (see ground_build), then
 * become groups in this order: the auxiliaries of the state, of the move
 * (parts, see factor_rule), the parts of a single move (see
 * ground_exclusive), the disjunctions of the state, of the move (see
 * ground_share_inputs), then the rules of the state, of the move. */
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
 * most MAX_LGATES gates besides `always` (see ground_gate_legal): each gate is
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
  uint8_t *incommon;         /* ground_share_inputs: per input code, in C */
  uint32_t *incount, ncodes; /* ... scratch counts; codes they have */
  uint32_t orsym, andsym;    /* functors of disjunctions, conjunctions */
  uint8_t *orcnt;            /* per term: heads that would read it */
  uint32_t orcntcap;
  struct onemove { uint32_t part, aux, does; } *om;  /* ground_exclusive */
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


/* ---- ground_reshape.c ------------------------------------------------- */

/* The byte of term t in (*m)[], grown (zeroed) to the terms there are. */
uint8_t *ground_term_byte(gdl_ctx *ctx, uint8_t **m, uint32_t *cap,
                          gdl_term t);
/* Whether term t is marked in (*m)[]; it is from now on. */
int ground_mark_term(gdl_ctx *ctx, uint8_t **m, uint32_t *cap, gdl_term t);
/* Term ids in increasing order (short lists). */
void ground_sort_ids(gdl_term *v, uint32_t n);
/* qsort's order of uint64_t. */
int ground_cmp_u64(const void *a, const void *b);
/* The proposition of an atom, numbered when it is new. */
uint32_t ground_prop_of(gdl_ctx *ctx, ground_t *G, gdl_term atom, int phase);
/* Appends x to buffer b (GDL_ELIMIT past MAX_INPUTS inputs). */
void ground_buf_put(gdl_ctx *ctx, ground_t *G, int b, uint32_t x);
/* The rules of each proposition p: by[lo[p], lo[p + 1]) (for the
 * analyses of the network, estimate.c and stubborn.c). */
void ground_rules_by_head(gdl_ctx *ctx, const ground_t *G, uint32_t **lo,
                          uint32_t **by);
/* The reshaping passes: each says why where it is defined. */
void ground_unroll(gdl_ctx *ctx, ground_t *G, group_t *g);
void ground_exclusive(gdl_ctx *ctx, ground_t *G);
void ground_share_inputs(gdl_ctx *ctx, ground_t *G, int rb);
void ground_gate_legal(gdl_ctx *ctx, ground_t *G);
void ground_alias_outputs(gdl_ctx *ctx, ground_t *G);
void ground_drop_aliases(gdl_ctx *ctx, ground_t *G);
void ground_drop_dead(gdl_ctx *ctx, ground_t *G);

/* ---- ground_out.c ----------------------------------------------------- */

/* The facts of the first n slots that are set in bits; those of next[]'s
 * slots come first, sorted by id as next[] is. */
void ground_slot_facts(gdl_ctx *ctx, const ground_t *G, const uint64_t *bits,
                       uint32_t n, gdl_state *out);

/* Whether the current state is terminal. */
static inline int net_terminal(const ground_t *G)
{
  return G->terminal && G->val[G->terminal - 1];
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

/* The proposition of an atom of k arguments, or UINT32_MAX when the
 * network has none (no rule reads it), remembered in (*cache)[key]. */
uint32_t ground_lookup_prop(gdl_ctx *ctx, const ground_t *G,
                            uint32_t **cache, uint32_t *cap, gdl_term key,
                            uint32_t sym, uint32_t k, const gdl_term *args);

static inline uint32_t cached_prop(gdl_ctx *ctx, const ground_t *G,
                                   uint32_t **cache, uint32_t *cap,
                                   gdl_term key, uint32_t sym, uint32_t k,
                                   const gdl_term *args)
{
  if (key < *cap && (*cache)[key])
    return (*cache)[key] - 2;
  return ground_lookup_prop(ctx, G, cache, cap, key, sym, k, args);
}

/* The `true` proposition of fluent f, or UINT32_MAX when no rule reads it. */
static inline uint32_t true_prop(gdl_ctx *ctx, ground_t *G, gdl_term f)
{
  return cached_prop(ctx, G, &G->trueof, &G->trueofcap, f, S_TRUE, 1, &f);
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


#endif
