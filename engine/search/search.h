/*
 * search.h - the searches' shared parts: the search's state (search_t),
 * the state store, the successors and estimates, the table of algorithms
 * (solve.c), and the breadth-first search by levels (bfs.c) with what it
 * shares with gdl-mpi's (levels.c).
 */
#ifndef GDL_SEARCH_H
#define GDL_SEARCH_H
#include "analysis/analysis.h"

typedef struct search search_t;

/* ---- a context of its own for another thread (twin.c) --------------- */

/* What a twin of a context needs of it, read in the caller's thread. */
typedef struct {
  const char *rules;          /* the description as KIF (gdl_write's text:
                                 valid until the caller's next gdl_write) */
  size_t len;
  unsigned flags;             /* gdl_compile's */
  int ground;                 /* the grounded engine, else the interpreter */
  size_t limit, fact_limit;
  volatile int *interrupt, *cancel;
} twin_t;
/* With the description (rules: 1; only what makes a twin needs it), or
 * only the limits (0: for twins made before); 0 when the description
 * cannot be written (memory). */
int twin_of(gdl_ctx *ctx, twin_t *w, int rules);
/* A context loaded, compiled and on its engine as w says, within
 * `seconds` (0: no limit); NULL when that fails.  Freed by gdl_free. */
gdl_ctx *twin_new(const twin_t *w, double seconds);
/* A term's, or a state's facts', KIF text, allocated in ctx (ctx_free);
 * NULL when memory runs out. */
char *twin_text(gdl_ctx *ctx, gdl_term t);
char *twin_state_text(gdl_ctx *ctx, const gdl_state *s);
/* The facts of text as a state of h (gdl_state_release); 0 when not. */
int twin_state(gdl_ctx *h, const char *text, gdl_state *s);
/* Term t of h as a term of ctx (0 when that fails). */
gdl_term twin_term(gdl_ctx *ctx, gdl_ctx *h, gdl_term t);

/* ---- the table of algorithms (solve.c) ------------------------------ */

/* One of auto's turns: auto runs the turns of all rows in the order of
 * `turn`, each with a share of the time left. */
typedef struct {
  unsigned turn;              /* its place in auto's order, from 1; 0: no
                                 turn */
  double part, most;          /* of the time left; at most seconds (0: no
                                 most, or no limit where none is set) */
  int fewest;                 /* fewest moves first (dfs) */
  int prune;                  /* where the user said neither: 1 pruned,
                                 -1 not, 0 the search's default */
  uint64_t states;            /* at most so many states stored (0: the
                                 user's limit alone), then the next turn */
} search_turn;

/* Where a search estimates the children of a state on several threads
 * (kids_estimate). */
enum { KIDS_ON_ONE, KIDS_ON_THREADS, KIDS_ON_THREADS_PRUNING };

/* An algorithm, a row of the table: all that gdl_solve, auto and the
 * command line need to know of it. */
typedef struct {
  const char *name;           /* gdl_algorithm_name; NULL: no such row */
  void (*run)(search_t *S);   /* the search; NULL: auto's portfolio */
  int shortest;               /* a plan it finds is proven shortest */
  int informed;               /* reads estimates: built for it, and dead
                                 ends pruned by default */
  int stubborn;               /* searches a stubborn set's moves where
                                 the rules allow */
  int counter;                /* stores states without the step counter
                                 where the rules allow */
  int budget;                 /* prunes by the move budget too */
  int groups;                 /* adds the groups' distances to the
                                 estimates */
  int kids;                   /* KIDS_*: children estimated on threads */
  int shortens;               /* its plan made shorter by default */
  search_turn turns[3];       /* auto's turns of it */
  const char *help;           /* its line in `gdl solve --help` */
  const char *label;          /* what the progress line's depth is */
} search_algorithm;

/* ---- the search's state --------------------------------------------- */

/* search_near's (shorten.c): the plan whose neighbourhood is searched */
typedef struct {
  const gdl_term *plan;
  size_t len;                 /* its steps */
  unsigned radius;            /* the moves off it searched */
  uint32_t *keys, n;          /* its states as stored (words each), the
                                 start first */
  uint32_t *tab, mask;        /* ... a hash set of them: index + 1 */
  uint32_t *tmp;              /* a child as stored */
  uint8_t *off;               /* per stored state: moves off the plan */
  uint32_t offcap, parent;
  uint64_t cut;               /* children left out, too far off */
  uint64_t uneven;            /* states met again by a way of another
                                 length */
} near_t;

struct search {
  gdl_ctx *ctx;
  const gdl_solve_opts *o;
  const search_algorithm *alg;  /* the row of o->algorithm */
  gdl_solve_result *res;
  uint32_t k;                 /* roles */
  uint32_t words;             /* a state is its bits in this many words
                                 (the grounded engine), or 0: its facts */
  int played;                 /* the network has had joint move S->joint */
  double t0, next_report;
  double grace;               /* seconds on top of o->max_seconds: the
                                 groups' analysis made in this search */
  /* the store (store.c) */
  gdl_term *pool;             /* facts of all states */
  uint64_t npool, poolcap;
  struct facts_slot {         /* per state, what a lookup reads (one line);
                                 none where states are bits, all of one
                                 size: state id is at pool + id * words */
    uint64_t off;             /* offset in pool */
    uint32_t nfacts, hash;
  } *slot;
  uint32_t *parent;
  uint32_t *depth;            /* per state: moves from the start */
  gdl_term *moves;            /* per state: the k moves that reached it */
  uint32_t nstates, cap;
  uint32_t *table;            /* hash set: state id + 1 in the bits of the
                                 mask, the hash's bits above them (so a
                                 probe looks at a state only when they
                                 match); 0 empty */
  uint32_t mask;
  /* scratch */
  gdl_state cur, child;
  gdl_term *joint;
  long best_goal;
  uint32_t best_state;        /* state with the best terminal goal */
  analyses_t *A;              /* the game's analyses, the solve's: shared
                                 by its searches (analyses.c) */
  /* estimates (estimate.c) */
  est_t *E;                   /* or NULL: every estimate 0 */
  stub_t *T;                  /* or NULL: every legal move searched */
  counter_t *C;               /* a step counter left out of stored
                                 states, or NULL (counter.c) */
  int reopen;                 /* a stored state reached by fewer moves
                                 is taken up again (store_add) */
  int prune;                  /* dead ends left out */
  int best;                   /* BEST_ASTAR or BEST_GBFS, or 0; the store
                                 keeps hval and closed where not 0 */
  uint32_t *hval;             /* astar, gbfs: per state, its estimate */
  uint8_t *closed;            /* astar, gbfs: per state, expanded */
  struct pq { uint64_t key; uint32_t id; } *heap;
  uint32_t nheap, heapcap;
  /* best-first: the children of the state being expanded, estimated
   * together, on several threads where that pays (kids_estimate) */
  uint32_t *kbits;            /* words each */
  gdl_term *kmoves;           /* k each */
  uint32_t *khm, *khf;
  uint8_t *kdead;
  uint32_t nkids, kidcap;
  est_t **Es;                 /* per thread but the first: a copy of E */
  bud_t *B;                   /* the move budget (pruning only), or NULL */
  bud_t **Bs;                 /* per thread but the first: a copy of B */
  const groups_t *D;          /* groups summed (groups.c), or NULL */
  groups_t *Dgrown;           /* ... this search's own, with bigger
                                 tables (search_grow_groups), or NULL */
  int grow_tried;
  uint32_t ngv;               /* ... its values a state (groups_nvalues) */
  uint32_t *gv, gvcap;        /* scratch: a state's values */
  uint32_t *kgv, kgvcap;      /* the kept children's, ngv each */
  int hm_skip;                /* h_max, h_ff only raise the groups' (not
                                 gbfs) and are watched: */
  int hm_off;                 /* ... left off, as they never helped */
  uint32_t hm_tried, hm_won;  /* ... states estimated with them, and
                                 where they raised the groups' */
  unsigned nthreads;
  double est_cost;            /* seconds an estimate, as last measured */
  int together;               /* bfs, dfs: dead ends found among a
                                 state's children together (threads) */
  const char *running;        /* the search's name, for progress */
  near_t *N;                  /* search_near's, or NULL */
  uint32_t fanout;            /* successors of the state being expanded */
  struct value *value;        /* value.c's, or NULL */
  void (*value_free)(search_t *S);   /* ... its memory back (search_free) */
};

enum { BEST_ASTAR = 1, BEST_GBFS = 2 };

/* ---- the store (store.c) --------------------------------------------
 * States as facts (term ids, the interpreter) or as bits (the grounded
 * engine, S->words of them); the functions below take either, so that a
 * search need not ask which. */

/* The hash of a state's facts, or of its bits. */
static inline uint32_t store_hash(const search_t *S, const gdl_term *f,
                                  uint32_t n)
{
  gdl_state s;
  uint64_t h;
  if (S->words)
    return words_hash(f, n);
  s.n = n;
  s.facts = (gdl_term *)f;
  h = gdl_state_hash(&s);
  return (uint32_t)(h ^ (h >> 32));
}

/* The facts (or bits) of stored state id, *n of them. */
static inline const gdl_term *store_get(const search_t *S, uint32_t id,
                                        uint32_t *n)
{
  if (S->words) {
    *n = S->words;
    return S->pool + (size_t)id * S->words;
  }
  *n = S->slot[id].nfacts;
  return S->pool + S->slot[id].off;
}

/* A state's n facts (or bits) from src to dst. */
static inline void store_copy(const search_t *S, gdl_term *dst,
                              const gdl_term *src, uint32_t n)
{
  if (S->words)
    copy_words(dst, src, n);
  else
    COPY(dst, src, n * sizeof *dst);
}

/* State bits w without the step counter, as stored. */
static inline void store_unclocked(search_t *S, uint32_t *w)
{
  if (S->C)
    counter_out(S->C, w);
}

/* Fetches the line a lookup of hash h reads first: the table's, or the
 * first stored state whose hash bits in the table match. */
static inline void store_prefetch_slot(const search_t *S, uint32_t h)
{
  if (S->mask)
    __builtin_prefetch(&S->table[h & S->mask]);
}
static inline void store_prefetch_state(const search_t *S, uint32_t h)
{
  uint32_t j = h & S->mask, e, n;
  for (; (e = S->table[j]) != 0; j = (j + 1) & S->mask)
    if ((e & ~S->mask) == (h & ~S->mask)) {
      __builtin_prefetch(S->words ? store_get(S, (e & S->mask) - 1, &n)
                                  : (const void *)&S->slot[(e & S->mask) - 1]);
      break;
    }
}

/* States as bits where the grounded network keeps them so (S->cur, the
 * start, turned into bits; S->child made room for), else as facts. */
void store_choose(search_t *S);
/* Adds s (its hash h, store_hash; parent, moves) unless stored; returns
 * its id, *isnew 1 when new, 2 when stored but now reached by fewer moves
 * (S->reopen: it takes the new way), else 0.  With a step counter, s is
 * without it (store_unclocked). */
uint32_t store_add(search_t *S, const gdl_state *s, uint32_t h,
                   uint32_t parent, const gdl_term *moves, int *isnew);
/* Stores the start (S->cur), without its step counter, as state 0. */
void store_start(search_t *S);
/* Stored state id into s, the step counter's value at its depth put
 * back. */
void store_load(search_t *S, uint32_t id, gdl_state *s);
/* The plan to state id, from the parents, into S->res. */
void store_plan(search_t *S, uint32_t id);
/* S->res->bytes_per_state: the store's memory per state. */
void store_measure(search_t *S);
/* The store's memory back to the context. */
void store_free(search_t *S);
/* The network's (or the interpreter's) current state set to s. */
void state_set(search_t *S, const gdl_state *s);
/* Role r's legal moves in the current state into *mv: how many. */
size_t state_legal(search_t *S, uint32_t r, const gdl_term **mv);
/* The successor of the current state by S->joint into S->child. */
void state_next(search_t *S);

/* ---- successors and estimates (expand.c) ---------------------------- */

/* Progress (every 0.25 s, or with force) and the time limit. */
void search_report(search_t *S, unsigned depth, int force);
/* The start (the initial state or opts->start) into S->cur, the store's
 * kind chosen, and the analyses the search reads: the step counter, the
 * move budget, the groups. */
void search_start(search_t *S);
/* The pattern databases of the groups (S->D) built again with sixteen
 * times the placements, for this search alone (its own, freed at its
 * end), once it has run, since `since`, sixteen times as long as they
 * took (so at most about as long goes to them as to the search); not
 * where the user set their size, past the memory limit, or where the
 * bigger ones come out no better.  1 where S->D is now the bigger ones:
 * its values of a state are read again (groups_values). */
int search_grow_groups(search_t *S, double since);
/* Sets the current state to s (stored as id) and tests it: 1 when it is
 * a solution, -1 when terminal (not to be expanded), 0 otherwise. */
int expand_test(search_t *S, const gdl_state *s, uint32_t id);
/* Calls each(S, arg, place) once per joint move of the current state,
 * with S->joint set, S->child the successor and `place` its place among
 * them (the last role's moves vary fastest); 1 when each stopped it.
 * With `first` and states of bits, the joint move played last comes first
 * where it is legal here, the others after it in their order, wrapping
 * around: the network has that move already, so its child costs no
 * propagation of a change of move. */
typedef int (*expand_fn)(search_t *S, void *arg, size_t place);
int expand_successors(search_t *S, expand_fn each, void *arg, int first);
/* The estimates of a state of bits w into *hmax and *hff (0 without
 * estimates); 0 when it is a dead end left out (counted), else 1.  Where
 * pruning is off a dead end is searched like any state, estimated 0. */
/* The same, where v is not NULL with the groups' values (groups_values)
 * of w into v: read again only where w differs from state pw of values
 * pv (pw NULL: in full). */
int expand_estimate_step(search_t *S, const uint32_t *pw, const uint32_t *pv,
                         const uint32_t *w, uint32_t *v, uint32_t *hmax,
                         uint32_t *hff);
int expand_estimate(search_t *S, const uint32_t *w, uint32_t *hmax,
                    uint32_t *hff);
/* Whether pruning leaves out the state of bits w (a blind search). */
int expand_pruned(search_t *S, const uint32_t *w);
/* The analysis by which expand_estimate found the state of bits w a
 * dead end: "h_max", "groups", "latches" or "budget" (gdl.h,
 * dead_start). */
const char *expand_dead_why(search_t *S, const uint32_t *w);
/* Keeps state w (bits), made by `moves`, among the children to estimate
 * together (S->kbits). */
void kids_keep(search_t *S, const uint32_t *w, const gdl_term *moves);
/* An expand_fn: the child kept (kids_keep). */
int kids_keep_child(search_t *S, void *arg, size_t place);
/* The kept children's estimates into S->khm, S->khf, S->kdead; the same
 * on any number of threads. */
void kids_estimate(search_t *S);
/* The kept children's groups' estimates alone (groups_h; 0 without
 * groups) into S->khm and S->khf: none is a dead end but by them
 * (EST_DEAD). */
void kids_groups(search_t *S);

/* ---- the algorithms (a file each) ----------------------------------- */

void search_bfs(search_t *S);       /* bfs_dfs.c */
void search_dfs(search_t *S);
void search_iddfs(search_t *S);     /* iddfs.c */
void search_idastar(search_t *S);
void search_astar(search_t *S);     /* best.c */
void search_gbfs(search_t *S);
void search_value(search_t *S);     /* value.c: a game's value */
/* alphabeta.c: the value of a two-role constant-sum turn-taking game
 * from S->cur (bits) by alpha-beta with a table of about `entries`
 * states, into S->res; throws GDL_ELIMIT at a limit or where minimax
 * does not apply, its message saying it came `after` (the limit that
 * stopped the graph search). */
void value_alphabeta(search_t *S, uint64_t entries, const char *after);
void search_sat(search_t *S);       /* sat.c */
/* The breadth-first search of S->N's neighbourhood (shorten.c); its
 * memory back to the context with near_free. */
void search_near(search_t *S);
void near_free(gdl_ctx *ctx, near_t *N);

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
