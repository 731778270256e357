/*
 * search.h - the searches' parts shared with the bindings above them
 * (gdl-mpi): the breadth-first search by levels (bfs.c), and what it
 * shares with gdl-mpi's (levels.c).
 */
#ifndef GDL_SEARCH_H
#define GDL_SEARCH_H
#include "analysis/analysis.h"

/* ---- breadth-first by levels (bfs.c) -------------------------------- */

/* Breadth-first search of states as bits from `start` (ground_state_words
 * of them) on bfs_threads(o->threads) threads, into r; 0 when states are
 * not bits here (nothing done).  States are stored without step counter
 * C (NULL: none; counter.c).  Throws GDL_ELIMIT at a limit, with the
 * counts so far in r. */
int bfs_levels(gdl_ctx *ctx, const gdl_solve_opts *o, gdl_solve_result *r,
               const uint32_t *start, const counter_t *C);
/* The threads a search runs on when `asked` (0: the machine's cores). */
unsigned bfs_threads(unsigned asked);

/* ---- a level's batch, the limits, the plan by parents (levels.c) ---- */
/* What bfs.c's threads and gdl-mpi's ranks share as they expand a level
 * 64 states at a time: the states evaluated at once, the terminal ones
 * tested, the children made without the step counter, the limits
 * polled, and the plan read back from the goal, a parent at a time. */

/* Grows *p (*cap elements of sz bytes) to hold need; 0 when memory is
 * out (the caller's search then stops). */
typedef int (*level_grow_fn)(void *arg, void **p, uint64_t *cap,
                             uint64_t need, size_t sz);

typedef struct {              /* what a search's batches share */
  const counter_t *C;         /* the step counter states are stored
                                 without (counter.c), or NULL */
  uint32_t words;             /* 32-bit words of a state */
  level_grow_fn grow;         /* how the children's buffers grow */
  void *grow_arg;
} level_setup_t;

typedef struct {              /* a batch: one a thread */
  gbatch_t *B;                /* the network evaluated for 64 states */
  const uint32_t *lane[64];   /* the lanes' states, set by the caller;
                                 with a step counter, words of its own
                                 that the counter is put back into */
} level_batch_t;

/* The n lanes' states, of depth `depth`, evaluated in L's batch (the step
 * counter put back first). */
void level_states_in(const level_setup_t *S, level_batch_t *L, uint32_t n,
                     uint32_t depth);
/* ... and, as level_states_in, taken up: *term the terminal lanes, their
 * goals in goal[] (NULL: not tested), to the first of goal 100 where
 * `first` (the lanes after it are left alone).  Returns the lanes to
 * expand (not terminal, with a joint move), their joint moves in j[]. */
uint64_t level_take_up(const level_setup_t *S, level_batch_t *L, uint32_t n,
                       uint32_t depth, int first, uint64_t *j,
                       uint64_t *term, long *goal);
/* The children of the lanes taken up, each lane's in the order of its
 * joint moves, to *out (*cap words, grown by S->grow) without the step
 * counter: lane l's from off[l].  Returns how many, or UINT64_MAX when
 * memory is out. */
uint64_t level_children(const level_setup_t *S, level_batch_t *L,
                        uint64_t lanes, const uint64_t *j, uint64_t *off,
                        uint32_t **out, uint64_t *cap);

/* The search a level at a time: level(arg, d) expands level d (d = 0:
 * the start state) and says how it ended; at a goal or with no new state
 * r's status and depth are set and plan(arg, solved, d) reads the plan
 * back: to the first state of goal 100 (solved), else, if r->goal >= 0
 * (gdl-mpi: if any rank's best goal is), to the first terminal state of
 * the best goal.  At LEVEL_STOP, r is the level function's to fill. */
enum { LEVEL_MORE, LEVEL_GOAL, LEVEL_NO_NEW, LEVEL_STOP };
typedef int (*level_fn)(void *arg, unsigned d);
typedef void (*level_plan_fn)(void *arg, int solved, unsigned d);
void level_search(gdl_solve_result *r, level_fn level, level_plan_fn plan,
                  void *arg);

/* A limit met: the interrupt (ctx->interrupt) or the clock (deadline, a
 * ctx_clock() time; 0: none).  LEVEL_GOING when neither. */
enum { LEVEL_GOING, LEVEL_INTERRUPTED, LEVEL_TIME_OUT };
int level_limit(const gdl_ctx *ctx, double deadline);
/* The message of a limit (LEVEL_INTERRUPTED or LEVEL_TIME_OUT; max_seconds
 * the time given) to why[n]. */
void level_limit_why(int limit, double max_seconds, char *why, size_t n);

/* One step of a plan read back: the state at depth lv (after the step
 * before, or the plan's last state) becomes its parent, and the moves
 * that made it of that parent go to moves[k]. */
typedef void (*level_parent_fn)(void *arg, unsigned lv, gdl_term *moves);
/* r->plan (of k roles) and r->length: the plan to a state at depth len,
 * read back by parent(arg, lv, ...) from lv = len down to 1. */
void level_plan(gdl_ctx *ctx, gdl_solve_result *r, unsigned len, uint32_t k,
                level_parent_fn parent, void *arg);

#endif
