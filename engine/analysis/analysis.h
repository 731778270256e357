/*
 * analysis.h - what the searches read off the grounded network: distance
 * estimates and dead ends, groups of fluents, move budgets, stubborn
 * sets, step counters.  Included by the searches and the bindings above
 * them; each analysis's file says when it applies and why it is sound.
 */
#ifndef GDL_ANALYSIS_H
#define GDL_ANALYSIS_H
#include "network/network.h"

typedef struct kernel kern_t;       /* the kernel (kernel.c) */
typedef struct estimator est_t;     /* an estimator (estimate.c) */
typedef struct stubborn stub_t;     /* stubborn sets (stubborn.c) */
typedef struct counter counter_t;   /* a step counter (counter.c) */
typedef struct budget bud_t;        /* a move budget (budget.c) */
typedef struct groups groups_t;     /* groups summed (groups.c) */
typedef struct pdb pdb_t;           /* a pattern database (pdb.c) */

/* ---- the analyses of one game (analyses.c) ------------------------------ */

/* Every analysis of one game, each computed when first asked (by the
 * getter in its own file: kern_get, est_get, stub_get, counter_start,
 * bud_get, groups_get), from the arguments of that first call, and kept
 * until analyses_free.  gdl_solve makes one and frees it at its end: the
 * searches of a solve share it, and nothing of it outlives the solve. */
typedef struct analyses {
  kern_t *kern;                /* the kernel, or NULL: not yet asked */
  est_t *est;                  /* the estimator (NULL: none) */
  int est_tried;               /* ... once asked */
  stub_t *stub;                /* the stubborn sets (NULL: the rules do */
  int stub_tried;              /* not allow them), once asked */
  bud_t *bud;                  /* the move budget (NULL: none), */
  int bud_tried;               /* once asked */
  groups_t *groups;            /* the groups summed (NULL: none), */
  int groups_tried;            /* once asked */
  double deadline;             /* the solve's (ctx_clock() time; 0: none):
                                  the groups and their pattern databases,
                                  which all its searches read, are made
                                  within it, not a search's share; */
  double grace;                /* ... the seconds that took, which the
                                  search that asked has on top of its
                                  share (within the solve's deadline) */
  uint32_t *counter_mask;      /* the step counter's slots, as bits, */
  uint32_t counter_slots;      /* ... how many (0: none), */
  int counter_ends;            /* ... whether terminal reads them, */
  uint32_t *counter_tr;        /* ... terminal's rules that do not (Tr), */
  uint32_t counter_ntr;        /* ... how many, */
  int counter_tried;           /* ... once asked */
} analyses_t;
/* A set of analyses starts empty, all zero (memset: none asked yet, no
 * memory); everything computed into it released, empty again. */
void analyses_free(gdl_ctx *ctx, analyses_t *A);

/* ---- the kernel (kernel.c) ---------------------------------------------- */

/* Bit i of the words w: a fluent slot's in a state's bits, or a set's. */
static inline int word_bit(const uint32_t *w, uint32_t i)
{
  return (w[i >> 5] >> (i & 31)) & 1;
}

/* The three values of a proposition in a three-valued evaluation. */
enum { V0, V1, VU };           /* false, true, unknown */
/* What a proposition is to an evaluation: one of rules, a fluent's
 * `true`, a `does` no role can make, `always`, a head of a recursive
 * group, a move's `does`. */
enum { K_RULES, K_TRUE, K_INPUT, K_ALWAYS, K_RECURSIVE, K_MOVE };

/* The network as every analysis reads it, built once per network and
 * shared, read-only. */
struct kernel {
  ground_t *G;
  uint32_t n;                  /* propositions */
  uint32_t *bh_lo, *bh;        /* per proposition: its rules, bh[bh_lo[p],
                                  bh_lo[p + 1]) */
  uint8_t *kind;               /* per proposition: K_* */
};
/* The kernel of the grounded network, built at A's first call (kept in
 * A->kern); its release. */
kern_t *kern_get(gdl_ctx *ctx, analyses_t *A);
void kern_free(gdl_ctx *ctx, kern_t *K);

/* A three-valued evaluation on the kernel: one a thread, its memory one
 * block.  A proposition is fixed to V0 or V1, or VU (not fixed); a run
 * evaluates the rest from what is fixed, each proposition once. */
typedef struct {
  const kern_t *K;
  const uint8_t *kind;         /* K's, and the network's rules, at hand */
  const uint32_t *bh_lo, *bh, *in_lo, *in;
  uint8_t *fixed;              /* per proposition: V0, V1 or VU */
  uint8_t *memo;               /* per proposition: its value this run */
  uint32_t *stamp, now;        /* memo[p] is of this run: stamp[p] == now */
  uint32_t pick;               /* the first fluent or move read unknown
                                  this run, or UINT32_MAX */
  uint32_t onmove;             /* a game of one role: the move made, its
                                  `does` true and every other false
                                  without their being fixed one by one;
                                  or UINT32_MAX */
  uint64_t evals;              /* propositions evaluated, in all: work */
  uint64_t polled;             /* evals when kern_poll last counted them */
  int record;                  /* runs recorded (see kern_read) */
  uint64_t work;               /* recorded runs: rules read, each its
                                  literals plus one, in all */
  gdl_ctx *ctx;                /* polled by recorded runs */
  void *block;                 /* the memory of fixed, memo and stamp */
} kern_eval_t;
/* X opened on K (every proposition unfixed), and closed. */
void kern_eval_open(gdl_ctx *ctx, const kern_t *K, kern_eval_t *X);
void kern_eval_close(gdl_ctx *ctx, kern_eval_t *X);
/* Every proposition unfixed; a new run (what was evaluated is old);
 * p's value in the run (V0, V1 or VU). */
void kern_unfix(kern_eval_t *X);
void kern_run(kern_eval_t *X);
int kern_value(kern_eval_t *X, uint32_t p);
/* POLL (core.h) for the propositions X evaluated since the last call,
 * each a step: an analysis's loop looks at the limits after about a
 * millisecond of the kernel's work however much a turn of it asks.  Not
 * on a worker thread (it may throw). */
static inline void kern_poll(gdl_ctx *ctx, kern_eval_t *X)
{
  uint64_t n = X->evals - X->polled;
  X->polled = X->evals;
  POLL_N(ctx, n < 65536 ? n + 1 : 65536);
}
/* With X->record set, a run memoizes every proposition it reads, and
 * this is p's value in the last run, VU where the run did not read p; a
 * head that has a rule of one literal holding by what is fixed is true
 * without its rules read; X->work counts the rules read.  (The stubborn
 * sets, stubborn.c, ask what the run read; runs not recorded are
 * cheaper.) */
int kern_read(const kern_eval_t *X, uint32_t p);
/* p fixed to v (VU: unfixed), and what it is fixed to. */
static inline void kern_fix(kern_eval_t *X, uint32_t p, int v)
{
  X->fixed[p] = (uint8_t)v;
}
static inline int kern_fixed(const kern_eval_t *X, uint32_t p)
{
  return X->fixed[p];
}
/* 1 when a rule of head p of one literal holds by what is fixed (as
 * playable <= the legal move, with that fixed true): p is then true
 * whatever its other rules say. */
static inline int kern_fixed_rule(const kern_eval_t *X, uint32_t p)
{
  uint32_t i;
  for (i = X->bh_lo[p]; i < X->bh_lo[p + 1]; i++) {
    uint32_t r = X->bh[i], x = X->in[X->in_lo[r]];
    if (X->in_lo[r + 1] - X->in_lo[r] == 1 && X->fixed[x >> 1] != VU &&
        X->fixed[x >> 1] == (x & 1 ? V0 : V1))
      return 1;
  }
  return 0;
}
/* 1 when, wherever proposition a holds, one of rules[0, n) fires, as far
 * as an evaluation of them shows with what a holding forces (the literals
 * of a's one rule, and so on) fixed and the rest unknown.  Leaves every
 * proposition unfixed. */
int kern_forces(gdl_ctx *ctx, kern_eval_t *X, uint32_t a,
                const uint32_t *rules, uint32_t n);

/* ---- estimates (estimate.c) ------------------------------------------- */

/* Distance estimates and dead ends from the grounded network (see
 * estimate.c for how each is computed and why it is sound). */
#define EST_DEAD UINT32_MAX
/* The estimator of the grounded network (K its kernel), or NULL where
 * states are not bits of it (the interpreter: every estimate is then 0);
 * its release. */
est_t *est_build(gdl_ctx *ctx, const kern_t *K);
void est_free(gdl_ctx *ctx, est_t *E);
/* A's estimator, built at A's first call (est_build). */
est_t *est_get(gdl_ctx *ctx, analyses_t *A);
/* For the state of bits w (ground_state_words): h_max, never more than
 * the moves still needed, and h_ff, FF's relaxed plan; both EST_DEAD when
 * the relaxed game cannot reach goal 100 from it.  hff NULL: h_max alone
 * (the relaxed plan's walk is a quarter of the time). */
void est_state(est_t *E, const uint32_t *w, uint32_t *hmax, uint32_t *hff);
/* 1 when, by the latched fluents of state w, goal 100 can never hold. */
int est_dead(est_t *E, const uint32_t *w);
/* The fluents found latched. */
uint32_t est_latches(const est_t *E);
/* 1 when fluent slot s, once it has value v (0 or 1), keeps it. */
int est_latched(const est_t *E, uint32_t s, uint32_t v);
/* A copy of E for another thread (the graph shared, read-only, the
 * scratch its own), and its release. */
est_t *est_copy(gdl_ctx *ctx, const est_t *E);
void est_copy_free(gdl_ctx *ctx, est_t *C);
/* The three-valued evaluation of E's thread, which the latches and dead
 * ends use, lent to the analyses built on E (budget.c, groups.c,
 * counter.c) so that a thread has one. */
kern_eval_t *est_eval(est_t *E);
/* The moves of a game of one role (0 with more roles), and move k's
 * `does` (UINT32_MAX: none) and `legal` propositions, and the gate its
 * legal rules no longer read (ground_gate_legal; UINT32_MAX: none), which
 * must hold too. */
uint32_t est_moves(const est_t *E);
void est_move(const est_t *E, uint32_t k, uint32_t *does, uint32_t *legal,
              uint32_t *gate);
/* The propositions goal 100 (of the first role) and terminal, or
 * UINT32_MAX. */
uint32_t est_goal(const est_t *E);
uint32_t est_terminal(const est_t *E);

/* ---- move budgets (budget.c) ------------------------------------------ */

/* What once-only moves in conflict and a step counter allow (see
 * budget.c for when it applies and why its dead ends are sound). */
/* The budget of the grounded network (E its estimator), or NULL where
 * its rules have none or its clock bounds nothing from state `start`
 * (bits). */
bud_t *bud_build(gdl_ctx *ctx, est_t *E, const uint32_t *start);
void bud_free(gdl_ctx *ctx, bud_t *B);
/* A's budget, built at A's first call, with A's estimator, from state
 * `start` of that call. */
bud_t *bud_get(gdl_ctx *ctx, analyses_t *A, const uint32_t *start);
/* A copy for another thread (the analysis shared), and its release. */
bud_t *bud_copy(gdl_ctx *ctx, const bud_t *B);
void bud_copy_free(gdl_ctx *ctx, bud_t *C);
/* 1 when no plan from state w (bits, not terminal) fits the budget (E:
 * the estimator B was built with, or a copy of it). */
int bud_dead(bud_t *B, est_t *E, const uint32_t *w);

/* ---- groups of fluents, summed (groups.c) -------------------------------- */

/* An estimate that adds the distances of groups of fluents of which at
 * most one holds (see groups.c for how they are proven, and why the sum
 * never exceeds the moves still needed). */
/* The groups of the grounded network (E its estimator, one role), proven
 * from state `start` (bits), or NULL where none helps; with pattern
 * databases of at most `most` placements each over them (0: none),
 * read from and written to directory `cache` (pdb_cache.c; NULL or "":
 * solved each time). */
groups_t *groups_build(gdl_ctx *ctx, est_t *E, const uint32_t *start,
                       uint64_t most, const char *cache);
void groups_free(gdl_ctx *ctx, groups_t *D);
/* A's groups, proven at A's first call, with A's estimator, from state
 * `start` of that call. */
groups_t *groups_get(gdl_ctx *ctx, analyses_t *A, const uint32_t *start,
                     uint64_t most, const char *cache);
/* 1 when every group proven holds in state w: a start the sum speaks
 * of. */
int groups_hold(const groups_t *D, const uint32_t *w);
/* The groups summed (0 for NULL): the length of a values array. */
uint32_t groups_count(const groups_t *D);
/* The pattern databases (0 for NULL), their placements into *entries. */
uint32_t groups_patterns(const groups_t *D, uint64_t *entries);
/* Of them, those read from the cache (0 for NULL); *why: why a table
 * could not be written to it (one line), or NULL. */
uint32_t groups_cached(const groups_t *D, const char **why);
/* The sum of state w's distances, or EST_DEAD where one is infinite;
 * read only, so threads share D. */
uint32_t groups_sum(const groups_t *D, const uint32_t *w);
/* How many of them a pattern has. */
uint32_t groups_patterned(const groups_t *D);
/* The seconds their pattern databases took to build. */
double groups_seconds(const groups_t *D);
/* The values a state has of them: the groups', and the free group's
 * (read by the pattern databases; groups.c). */
uint32_t groups_nvalues(const groups_t *D);
/* The groups' values in state w, into v (groups_nvalues of them). */
void groups_values(const groups_t *D, const uint32_t *w, uint32_t *v);
/* The values v of state w from those pv of state pw (words each): only
 * the groups of the slots that differ are read again. */
void groups_step(const groups_t *D, const uint32_t *pw, const uint32_t *pv,
                 const uint32_t *w, uint32_t words, uint32_t *v);
/* The estimate of values v: the groups' distances, those in a pattern
 * read from its database, summed; EST_DEAD where one is infinite; 0
 * where v is not a state the proof speaks of.  Never less than
 * groups_sum, never more than the moves still needed. */
uint32_t groups_h(const groups_t *D, const uint32_t *v);

/* ---- pattern databases (pdb.c) ------------------------------------------ */

/* An abstract game over ng groups, nv[g] values each: NULL where its
 * placements would be more than `most`. */
pdb_t *pdb_open(gdl_ctx *ctx, uint32_t ng, const uint32_t *nv, uint64_t most);
/* Value v of group g is one the goal allows. */
void pdb_goal(pdb_t *T, uint32_t g, uint32_t v);
/* A move of group g from value `from` to `to`, allowed where each group
 * h of the pattern has a value of mask[h] (bits). */
void pdb_edge(gdl_ctx *ctx, pdb_t *T, uint32_t g, uint32_t from, uint32_t to,
              const uint64_t *mask);
/* The same, where group co moves with it from value cfrom to cto (its
 * mask is not read). */
void pdb_co_edge(gdl_ctx *ctx, pdb_t *T, uint32_t g, uint32_t from,
                 uint32_t to, const uint64_t *mask, uint32_t co,
                 uint32_t cfrom, uint32_t cto);
/* Group g's own moves cost nothing (the free group of groups.c). */
void pdb_free_group(pdb_t *T, uint32_t g);
/* Every placement's distance to a goal one, by a backward breadth-first
 * search (moves that cost nothing taken within a level); 0 where
 * ctx_clock() passed `until` (0: no limit) first. */
int pdb_solve(gdl_ctx *ctx, pdb_t *T, double until);
/* The distance of placement v (a value per group), or EST_DEAD. */
uint32_t pdb_value(const pdb_t *T, const uint32_t *v);
/* Its placements (0 for NULL). */
uint64_t pdb_size(const pdb_t *T);
void pdb_free(gdl_ctx *ctx, pdb_t *T);
/* Its groups, and group g's values. */
uint32_t pdb_groups(const pdb_t *T);
uint32_t pdb_values(const pdb_t *T, uint32_t g);
/* The abstract game as bytes (*len of them; the caller's to free), in
 * another numbering: group g the gpos[g]-th, its value v the
 * vpos[g][v]-th (permutations).  The whole of what pdb_solve reads, so
 * two games of equal keys, in any numberings, have the same table in
 * theirs (pdb_cache.c keys its files by it). */
uint8_t *pdb_key(gdl_ctx *ctx, const pdb_t *T, const uint32_t *gpos,
                 uint32_t *const *vpos, size_t *len);
/* A table of T's placements, src, into dst in that other numbering
 * (to_new 1), or back (0). */
void pdb_relabel(const pdb_t *T, const uint32_t *gpos, uint32_t *const *vpos,
                 const uint8_t *src, uint8_t *dst, int to_new);
/* Its table, a byte a placement (NULL: not solved). */
const uint8_t *pdb_table(const pdb_t *T);
/* Takes tab (pdb_size bytes, from ctx_alloc) as its table: one pdb_solve
 * made of an abstract game of the same key. */
void pdb_adopt(gdl_ctx *ctx, pdb_t *T, uint8_t *tab);

/* ---- pattern databases kept between runs (pdb_cache.c) ---------------- */

/* T's table: read from directory dir where a file there holds that of
 * an abstract game of T's key (*cached 1), else solved (pdb_solve) and
 * written there (created if missing) for a later run.  Its key is taken
 * in a numbering of its own: group a's value v is named names[a][v]
 * (the fluent's text; "" for none), the values in the order of their
 * names and the groups in that of their names' lists, so that puzzles
 * whose terms are numbered in another order (other starts) share the
 * table; where two names, or two groups' lists, are the same it is only
 * solved.  Returns what pdb_solve would (0: past `until`).  A file that
 * does not match (other key, version, size or checksum) is solved again;
 * where dir cannot be written, why[] (wn bytes) gets a one-line reason,
 * if still empty, and the table is only solved. */
int pdb_cache_solve(gdl_ctx *ctx, pdb_t *T, double until, const char *dir,
                    const char *const *const *names, int *cached, char *why,
                    size_t wn);

/* ---- partial-order reduction (stubborn.c) ----------------------------- */

/* Strong stubborn sets of moves (see stubborn.c for when they apply and
 * why a shortest plan is kept). */
/* The reduction for the grounded network, or NULL where its rules do not
 * allow it. */
stub_t *stub_build(gdl_ctx *ctx, const kern_t *K, const est_t *E,
                   const analyses_t *A);
void stub_free(gdl_ctx *ctx, stub_t *T);
/* A's reduction, built at A's first call, with A's kernel and estimator. */
stub_t *stub_get(gdl_ctx *ctx, analyses_t *A);
/* Whether state w (bits) is one the analysis speaks of: of each pair of
 * fluents whose effects assume that one of the two holds, one does. */
int stub_holds(const stub_t *T, const uint32_t *w);
/* Of the current state's legal moves mv[0..n), those to search, into
 * *out (mv itself where all are): how many; 0 when no plan goes on from
 * the state. */
size_t stub_reduce(gdl_ctx *ctx, stub_t *T, const gdl_term *mv, size_t n,
                   const gdl_term **out);
/* The moves (legal[0] entries) that do not commute with move b, b
 * itself among them, into out[] (room for every move): how many.  Move
 * a commutes with b when neither changes a fluent the other's being
 * playable (legal, and the state not terminal, unless every terminal
 * state is a win) reads, nor one the other changes: then where a then b
 * is played, b then a is too, to the same state, through a state that
 * is not terminal or ends a shorter plan (doc/solving.md, "Planning as
 * satisfiability"). */
uint32_t stub_dependent(gdl_ctx *ctx, const stub_t *T, uint32_t b,
                        uint32_t *out);

/* ---- step counters (counter.c) ----------------------------------------- */

/* A step counter (see counter.c for what one is and why leaving it out of
 * the stored states loses no plan): its fluents' bits in a state, and
 * their values after each number of moves from a search's start. */
/* The counter of the grounded network from `start` (bits), or NULL where
 * the rules have none.  Its slots are found once, at A's first call, and
 * kept in A; the counter is the caller's (counter_free), A may go first. */
counter_t *counter_start(gdl_ctx *ctx, analyses_t *A, const uint32_t *start);
/* The clock's slots (A->counter_mask), found once per game: how many (0:
 * none, or read where only terminal may read it). */
uint32_t counter_clock(gdl_ctx *ctx, analyses_t *A);
void counter_free(gdl_ctx *ctx, counter_t *C);
/* State w (bits) without the counter, and with its value after `depth`
 * moves. */
void counter_out(const counter_t *C, uint32_t *w);
void counter_in(const counter_t *C, uint32_t *w, uint32_t depth);
/* The fluent slots it has (0 for NULL). */
uint32_t counter_slots(const counter_t *C);
/* 1 when it can end the game (terminal reads it), 0 for NULL. */
int counter_ends(const counter_t *C);
/* The autonomous fluent slots whose `next` reads only each other, into
 * auton[] (one per slot), whoever reads them (K: the kernel): how many. */
uint32_t counter_autonomous(gdl_ctx *ctx, const kern_t *K, uint8_t *auton);

#endif
