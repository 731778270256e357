/*
 * gdl.h - the public interface of libgdl: read GDL (the Game Description
 * Language of General Game Playing), check it, and evaluate it by forward
 * chaining.
 *
 * Ownership, stated once: a gdl_ctx owns every byte the library allocates.
 * Strings and arrays returned by a gdl_* function stay valid until the next
 * call on the same context that changes what they describe (loading, setting
 * a state, computing a next state), or until gdl_free().  A gdl_state is a
 * value the caller holds; its fact array is allocated through the context
 * and released with gdl_state_release().  Nothing here calls exit(); every
 * function that can fail returns a gdl_status and leaves a message in the
 * context (gdl_errmsg(), gdl_diagnostics()).
 *
 * Terms (symbols and compound terms) are interned: a gdl_term is a small
 * integer, equal terms have equal ids, and ids stay valid for the life of
 * the context.
 */
#ifndef GDL_H
#define GDL_H

#include <stddef.h>
#include <stdint.h>

#define GDL_VERSION "0.1.0"

typedef struct gdl_ctx gdl_ctx;
typedef uint32_t gdl_term;   /* an interned term; 0 is "no term" */

typedef enum {
  GDL_OK = 0,
  GDL_ENONE = 1,     /* nothing found: no answer, no plan */
  GDL_EINPUT = 2,    /* bad input: syntax, semantics, unknown move, I/O */
  GDL_ELIMIT = 3,    /* a limit (memory, facts, states, time) stopped the work */
} gdl_status;

/* A state: the set of true fluents, sorted by term id, without duplicates.
 * Initialise with {0}; the library grows `facts` through the context. */
typedef struct {
  uint32_t n, cap;   /* facts in use, facts allocated */
  gdl_term *facts;   /* fluents (the arguments of `true`) */
} gdl_state;

/* Flags for gdl_compile(). */
enum {
  GDL_CLEAN = 1,     /* accept (not (distinct a b)) as a = b, as ggp-base's cleaner does */
};

/* ---- context ---------------------------------------------------------- */

/* A new context, or NULL when memory is exhausted. */
gdl_ctx *gdl_new(void);
/* Frees the context and everything it owns.  NULL is a no-op. */
void gdl_free(gdl_ctx *ctx);
/* Memory limit in bytes for everything the context allocates (0: none).
 * Work that would exceed it stops with GDL_ELIMIT. */
void gdl_set_memory_limit(gdl_ctx *ctx, size_t bytes);
/* Bytes allocated now, and the most ever allocated at once. */
size_t gdl_memory_used(const gdl_ctx *ctx);
size_t gdl_memory_peak(const gdl_ctx *ctx);
/* A limit on the number of derived facts held at once (0: the default, 20M). */
void gdl_set_fact_limit(gdl_ctx *ctx, size_t facts);
/* When set to a non-zero value (e.g. from a signal handler, or from
 * another thread with an atomic store: __atomic_store_n), long work stops
 * at the next check with GDL_ELIMIT. */
void gdl_set_interrupt(gdl_ctx *ctx, volatile int *flag);
/* A time limit: `seconds` from now (<= 0: none, the default), long work
 * stops with GDL_ELIMIT ("time limit reached").  The interrupt and the
 * time are looked at inside every long loop (a derivation's joins, the
 * grounding, the analyses, a search, random play) about once a
 * millisecond, so that work stops soon after them (doc/engine.md,
 * "Limits", says how soon); the context stays whole and answers as
 * before once the limit is lifted (an interrupted gdl_set_state leaves no
 * current state).  gdl_solve's max_seconds stops its search at the
 * earlier of the two. */
void gdl_set_time_limit(gdl_ctx *ctx, double seconds);

/* The message of the last failure (one line, no trailing newline). */
const char *gdl_errmsg(const gdl_ctx *ctx);
/* Every diagnostic so far, formatted as FILE:LINE:COL: error|warning:
 * message, the source line and a caret line; "" when none. */
const char *gdl_diagnostics(const gdl_ctx *ctx);
size_t gdl_error_count(const gdl_ctx *ctx);
size_t gdl_warning_count(const gdl_ctx *ctx);

/* ---- loading and checking --------------------------------------------- */

/* The two syntaxes of GDL: KIF, (<= (legal ?r a) (true (p ?r))), and infix
 * ("human-readable", as in Stanford's course notes), legal(R,a) :- true(
 * p(R)).  Both read to the same description (doc/dialect.md, "Infix
 * GDL"). */
typedef enum {
  GDL_SYNTAX_AUTO,   /* by the file name: .hrf and .gdl infix, else KIF */
  GDL_SYNTAX_KIF,
  GDL_SYNTAX_INFIX,
} gdl_syntax;

/* The syntax of the files named by later gdl_load_file(),
 * gdl_load_string() and gdl_format() calls (default AUTO).  A file they
 * #include goes by its own name's ending when it is .kif, .hrf or .gdl,
 * else it is written as the file that names it. */
void gdl_set_syntax(gdl_ctx *ctx, gdl_syntax syntax);
/* The syntax file i (as gdl_file_name() counts) was read in: KIF or
 * INFIX (AUTO when there is no such file). */
gdl_syntax gdl_file_syntax(const gdl_ctx *ctx, size_t i);

/* Reads and parses a file (and the files it names with `;#include "F"`).
 * Several loads before gdl_compile() form one description. */
gdl_status gdl_load_file(gdl_ctx *ctx, const char *path);
/* The same for text in memory; `name` is used in messages. */
gdl_status gdl_load_string(gdl_ctx *ctx, const char *name, const char *text,
                           size_t len);
/* The files read so far (those named, those they #include, and those
 * gdl_format() read), in the order they were read: name and whole text. */
size_t gdl_file_count(const gdl_ctx *ctx);
const char *gdl_file_name(const gdl_ctx *ctx, size_t i);
const char *gdl_file_text(const gdl_ctx *ctx, size_t i, size_t *len);

/* Checks everything loaded and prepares it for evaluation.  GDL_EINPUT when
 * there are errors (see gdl_diagnostics()).  A description that mentions no
 * game keyword is a plain rule base: it compiles, and gdl_is_game() is 0. */
gdl_status gdl_compile(gdl_ctx *ctx, unsigned flags);
/* 1 when the description is a game (has role, legal, goal, terminal). */
int gdl_is_game(const gdl_ctx *ctx);
/* When the description is not a complete game: why (one line), else NULL. */
const char *gdl_not_game_reason(const gdl_ctx *ctx);

/* ---- formatting ------------------------------------------------------ */

/* Reads and parses the one file at `path` (not the files it names with
 * `;#include`, and with no semantic checks) and sets *text and *len to its
 * canonical layout (an infix file, see gdl_set_syntax(), in the infix
 * layout of doc/dialect.md): each top-level form from column 1; a fact or any form
 * that is not a rule on one line with single spaces; a rule as `(<= HEAD`
 * and then each body literal on a line of its own, indented 4 spaces;
 * keywords in lower case; comments kept (one inside a form goes on a line
 * of its own, and the form over several lines); blank lines between forms
 * kept (a run as one); a final newline.  The layout of the layout is
 * itself, and it parses to the same forms.
 * The file is not part of the description: gdl_compile() ignores it, and a
 * later gdl_load_file() of the same path reads it.  Its text is then the
 * last one gdl_file_text() lists.  GDL_EINPUT on a syntax error or when it
 * cannot be read (see gdl_diagnostics()).  *text stays valid until the
 * next gdl_format() or gdl_free(). */
gdl_status gdl_format(gdl_ctx *ctx, const char *path, const char **text,
                      size_t *len);

/* The whole description (every file read for it, in the order read) as
 * one file in the syntax `to` (KIF or INFIX), as gdl cat writes it: a
 * first comment line naming the files, then for each file a comment line
 * with its name and its forms in the canonical layout of that syntax
 * (for KIF gdl_format()'s, but for comments inside a form, which go before
 * or after it or between two body literals; doc/dialect.md), comments
 * kept (';' and '%' swapped) and each #include line turned into a comment
 * saying what was included there.  The files are only parsed (call it
 * before or after gdl_compile()).  GDL_EINPUT, with a message, when infix
 * cannot write a form (a list that does not start with a constant).  Reading the text back gives the same description; converting
 * KIF to infix and back gives the same text but for the names in the
 * comment lines.  *text stays valid until the next gdl_write() or
 * gdl_format(). */
gdl_status gdl_write(gdl_ctx *ctx, gdl_syntax to, const char **text,
                     size_t *len);

/* ---- engines ---------------------------------------------------------- */

typedef enum {
  GDL_ENGINE_AUTO,     /* ground when it fits, else interpret */
  GDL_ENGINE_GROUND,   /* the propositional network; fails when too large */
  GDL_ENGINE_INTERP,   /* the non-ground evaluator */
} gdl_engine;

/* Chooses how states are evaluated (after gdl_compile).  Both engines give
 * the same answers; the grounded one instantiates the rules once and is
 * faster.  AUTO keeps the interpreter when grounding would be too large
 * (gdl_engine_note() says why).  gdl_query() always interprets. */
gdl_status gdl_use_engine(gdl_ctx *ctx, gdl_engine e);
/* The time grounding may take before AUTO keeps the interpreter
 * (<= 0: the default, 5 s); a time limit (gdl_set_time_limit) earlier
 * than it stops grounding there.  gdl_ground_seconds() gives the budget
 * in force. */
void gdl_set_ground_seconds(gdl_ctx *ctx, double seconds);
double gdl_ground_seconds(const gdl_ctx *ctx);
/* "ground" or "interp": the engine in use. */
const char *gdl_engine_name(const gdl_ctx *ctx);
/* Why AUTO kept the interpreter, or "". */
const char *gdl_engine_note(const gdl_ctx *ctx);
/* The size of the ground network: propositions (returned), rules, inputs. */
size_t gdl_ground_size(const gdl_ctx *ctx, size_t *rules, size_t *inputs);

/* ---- terms ------------------------------------------------------------ */

/* Parses KIF text as one ground term (variables allowed when
 * allow_vars).  GDL_EINPUT with a message when it is not one term. */
gdl_status gdl_parse_term(gdl_ctx *ctx, const char *text, int allow_vars,
                          gdl_term *out);
/* Parses KIF text as a sequence of terms (moves on a command line);
 * `label` names the text in messages.  The array lives in the context.
 * The names of the text's variables are kept until the next call, so
 * that gdl_explain() and gdl_term_text() write a question back with the
 * names it was asked with (equal terms share an id whatever their
 * variables were called: ask, then explain or write, before parsing
 * again). */
gdl_status gdl_parse_terms(gdl_ctx *ctx, const char *label, const char *text,
                           int allow_vars, gdl_term **out, size_t *n);
/* The term as KIF text with single spaces.  Valid until the next call. */
const char *gdl_term_str(gdl_ctx *ctx, gdl_term t);
/* The term as text in `syntax`: KIF, INFIX, or AUTO for the syntax of
 * the description (of its first file), as gdl query, trace and explain
 * answer; variables by the names of the text parsed last (see
 * gdl_parse_terms()).  Valid until the next call of this or
 * gdl_term_str(). */
const char *gdl_term_text(gdl_ctx *ctx, gdl_term t, gdl_syntax syntax);
/* Appends the KIF text of t to buf (size n, always terminated); returns the
 * length the full text needs. */
size_t gdl_term_write(const gdl_ctx *ctx, gdl_term t, char *buf, size_t n);
/* Sorts n terms in place by their KIF text (byte order), the order in
 * which gdl state, trace, explain and graph list facts.  GDL_ELIMIT when
 * memory runs out. */
gdl_status gdl_sort_terms(gdl_ctx *ctx, gdl_term *terms, size_t n);
/* Structural order on terms by symbol text: deterministic across runs. */
int gdl_term_cmp(const gdl_ctx *ctx, gdl_term a, gdl_term b);
/* The integer value of a numeric symbol, or -1. */
long gdl_term_int(const gdl_ctx *ctx, gdl_term t);

/* ---- the game --------------------------------------------------------- */

size_t gdl_role_count(const gdl_ctx *ctx);
gdl_term gdl_role(const gdl_ctx *ctx, size_t i);
/* The index of a role term, or -1. */
int gdl_role_index(const gdl_ctx *ctx, gdl_term role);
/* When t is (legal R M), (goal R V), (does R M) or (input R M) with a
 * ground R that is not a role of the game: one line saying so and naming
 * the roles there are ("farmer is not a role of this game; its roles:
 * player"); else NULL.  Valid until the next call. */
const char *gdl_role_note(gdl_ctx *ctx, gdl_term t);
/* 1 when t is an atom of a relation of the game that depends on the
 * moves (next, does, and what is derived from them): it holds only once
 * a move per role is given, so a question about a state alone finds
 * none (gdl_query()); else 0. */
int gdl_depends_on_moves(const gdl_ctx *ctx, gdl_term t);

/* The initial state (the init facts) into *out. */
gdl_status gdl_initial(gdl_ctx *ctx, gdl_state *out);
/* Makes `s` the current state: legal, goal and terminal are computed. */
gdl_status gdl_set_state(gdl_ctx *ctx, const gdl_state *s);
/* The legal moves of a role in the current state, sorted by gdl_term_cmp. */
gdl_status gdl_legal(gdl_ctx *ctx, size_t role, const gdl_term **moves,
                     size_t *n);
/* 1 when the current state is terminal. */
int gdl_terminal(gdl_ctx *ctx);
/* The goal values of a role in the current state (usually one), sorted. */
gdl_status gdl_goals(gdl_ctx *ctx, size_t role, const gdl_term **vals,
                     size_t *n);
/* The goal of a role as a number: the largest numeric value, or -1. */
long gdl_goal(gdl_ctx *ctx, size_t role);
/* The next state from the current one with moves[i] played by role i. */
gdl_status gdl_next(gdl_ctx *ctx, const gdl_term *moves, gdl_state *out);
/* Plays moves[i] for role i: the next state becomes the current one.  The
 * same as gdl_next() and gdl_set_state() of what it gives, but with the
 * grounded engine the state is never made into facts: the cheapest step
 * from a state to the next (random playouts use it). */
gdl_status gdl_advance(gdl_ctx *ctx, const gdl_term *moves);
/* Random play from the current state: up to max_steps joint moves, each
 * role's move picked by gdl_random() among its legal moves (in the order
 * gdl_legal() gives them), each played as by gdl_advance().  *steps gets
 * the joint moves played; *over is 1 when play stopped because the state
 * is terminal or a role has no legal move.  The cheapest way to play: with
 * the grounded engine no step leaves the network (gdl bench uses it).  A
 * time limit or an interrupt stops play between two steps, or inside one
 * on the interpreter: GDL_ELIMIT, with *steps the steps played and the
 * last state reached current (none when the limit met its evaluation). */
gdl_status gdl_random_steps(gdl_ctx *ctx, uint64_t *rng, size_t max_steps,
                            size_t *steps, int *over);
/* A random index below n (n > 0), from the generator whose state is *rng
 * (any value to start; it is advanced).  The top 31 bits of a 64-bit
 * linear congruential generator, scaled to n: tests/ref/gdlref.pl picks
 * the same. */
size_t gdl_random(uint64_t *rng, size_t n);
/* The current state's facts into *out. */
gdl_status gdl_current(gdl_ctx *ctx, gdl_state *out);
/* 1 when move is legal for role in the current state. */
int gdl_is_legal(gdl_ctx *ctx, size_t role, gdl_term move);

/* ---- states ----------------------------------------------------------- */

void gdl_state_release(gdl_ctx *ctx, gdl_state *s);
gdl_status gdl_state_copy(gdl_ctx *ctx, gdl_state *dst, const gdl_state *src);
uint64_t gdl_state_hash(const gdl_state *s);
int gdl_state_equal(const gdl_state *a, const gdl_state *b);

/* ---- questions -------------------------------------------------------- */

/* Calls fn for every instance of `pattern` (a term with variables) that
 * holds in the current state (or, for a rule base, at all), in
 * gdl_term_cmp order.  fn returns non-zero to stop. */
typedef int (*gdl_answer_fn)(void *arg, gdl_term answer);
gdl_status gdl_query(gdl_ctx *ctx, gdl_term pattern, gdl_answer_fn fn,
                     void *arg);

/* ---- teaching --------------------------------------------------------- */

/* Forward chaining shown round by round, as text in *text: the current
 * state is evaluated again from nothing (the static strata too, and with
 * `moves`, one legal move per role, the strata that depend on them: next),
 * and every stratum in evaluation order lists, round by round, each rule
 * (with its FILE:LINE) and the facts it derived, sorted by gdl_sort_terms(),
 * marked `+` when new and `=` when already known.  Without moves, a game's
 * trace ends by naming the relations left out and how to give a move.
 * Rules are written in the syntax of their file, facts in that of the
 * description.  Works on plain rule bases too (moves NULL).
 * Both this and gdl_explain() compute every relation in full, those the
 * evaluator would ask on demand too, and leave them so. */
gdl_status gdl_trace(gdl_ctx *ctx, const gdl_term *moves, const char **text);

/* Why `fact` holds in the current state (after `moves`, one per role, for
 * facts such as next that depend on them): a proof tree in *text, each
 * fact with the rule that derived it (FILE:LINE) and the facts of that
 * rule's body below it; `true` and `does` facts are the leaves.  A fact
 * with variables explains each instance that holds (up to 20, sorted by
 * gdl_sort_terms()).  When it does not hold (*holds = 0), *text says, for
 * each rule whose head matches, how far a search of its body got and which
 * literal fails, and for a failed literal of a relation that rules derive,
 * the same for its rules, one level down; for a relation that depends on
 * the moves asked without them, how to give them.  Rules are written in
 * the syntax of their file with their variables' names, facts in that of
 * the description, and `fact` with the names it was parsed with (see
 * gdl_parse_terms()). */
gdl_status gdl_explain(gdl_ctx *ctx, gdl_term fact, const gdl_term *moves,
                       int *holds, const char **text);

/* The states reachable from `start`, breadth first, as Graphviz DOT in
 * *dot: one node per state (its facts sorted by text, one a line), one edge
 * per joint move (labelled with the move, or "role: move" per role); the
 * start state drawn with a double border, terminal states as boxes, green
 * when the first role's goal is 100, red otherwise; states whose moves lead
 * to states left out (past max_states) dashed.  With `plan`, the edges of a
 * shortest path to the first goal-100 terminal state found are red.
 * max_states: 0 for 2,000; at most 1,000,000.  `name` names the graph.
 * *info gets the counts, whether every reachable state is in (complete)
 * and whether a goal-100 terminal state was found.  *dot is valid until
 * the next gdl_graph_dot(), gdl_trace() or gdl_explain(); `start` is the
 * current state afterwards. */
typedef struct {
  uint32_t states, edges;
  int complete;      /* 1 when max_states did not stop the exploration */
  int goal_found;    /* 1 when a terminal state with goal 100 is drawn */
} gdl_graph_info;
gdl_status gdl_graph_dot(gdl_ctx *ctx, const gdl_state *start,
                         const char *name, size_t max_states, int plan,
                         const char **dot, gdl_graph_info *info);

/* ---- search ----------------------------------------------------------- */

/* The searches (doc/solving.md says what each guarantees).  The
 * informed ones read estimates off the grounded network; with the
 * interpreter every estimate is 0 and they search blind. */
typedef enum {
  GDL_BFS,                 /* breadth-first: a shortest plan */
  GDL_IDDFS,               /* iterative deepening: a shortest plan */
  GDL_DFS,                 /* depth-first: some plan */
  GDL_ASTAR,               /* A* on moves made + h_max: a shortest plan */
  GDL_IDASTAR,             /* IDA* on the same: a shortest plan, memory
                              for one path and a transposition table */
  GDL_GBFS,                /* greedy best-first on h_ff: some plan, fast */
  GDL_AUTO,                /* astar, bfs, dfs, gbfs, each with a
                              share of the time: the best plan found;
                              in a game of several roles, value (unless
                              opts.cooperate) */
  GDL_VALUE,               /* a game's value: each role's goal under
                              perfect play (value.c) */
  GDL_SAT,                 /* planning as satisfiability (CaDiCaL): the
                              network unrolled over horizons 0, 1, 2, ...:
                              a shortest plan */
} gdl_algorithm;

/* "bfs", "iddfs", "dfs", "astar", "idastar", "gbfs", "auto" or "sat" ("?" for
 * no algorithm). */
const char *gdl_algorithm_name(gdl_algorithm a);
/* The algorithm whose gdl_algorithm_name is `name` into *a: 0, or -1
 * (and *a untouched) when there is none. */
int gdl_algorithm_parse(const char *name, gdl_algorithm *a);
/* Its line in `gdl solve --help`: what it searches and guarantees (a
 * static string; NULL for no algorithm). */
const char *gdl_algorithm_help(gdl_algorithm a);
/* What gdl_progress.depth is while it runs: "depth", "bound" (moves made
 * + estimate), "estimate" or "horizon" (sat: the steps of the formula
 * being solved) (a static string; "depth" for no algorithm). */
const char *gdl_algorithm_label(gdl_algorithm a);

typedef struct {
  unsigned depth;          /* depth being searched (bfs: of the frontier;
                              astar, idastar: the bound on moves made +
                              estimate; gbfs: the best estimate) */
  uint64_t expanded;       /* states whose successors were computed */
  uint64_t generated;      /* successor states computed */
  double seconds;
  size_t memory;           /* bytes the context holds */
  const char *algorithm;   /* the search running (auto runs several) */
} gdl_progress;

typedef struct {
  gdl_algorithm algorithm;
  uint64_t max_states;     /* states stored (bfs, dfs, astar, gbfs) or
                              expanded (iddfs, idastar); 0: none */
  double max_seconds;      /* 0: none */
  size_t tt_entries;       /* iddfs transposition table size (0: 1M) */
  const gdl_state *start;  /* where to search from (NULL: the initial state) */
  void (*progress)(void *arg, const gdl_progress *p);  /* or NULL */
  void *progress_arg;
  int prune;               /* dead ends (estimate.c): 0 default, pruned by
                              astar, idastar, gbfs and auto, not by the
                              blind searches; 1 pruned; -1 not */
  unsigned threads;        /* bfs: threads to search on (0: one per core
                              of the machine; 1: the caller's only) */
  int fewest_first;        /* dfs: of a state's new successors, the one
                              with the fewest joint moves expanded first
                              (Warnsdorff's rule), not the last made */
  int stubborn;            /* of a state's moves only a stubborn set's
                              (stubborn.c): 0 default, by every search
                              but bfs where the rules allow it; -1 not */
  int shorten;             /* a plan not proven shortest made shorter by
                              a search of its neighbourhood: 0 default,
                              auto's; 1 every search's; -1 none */
  int cooperate;           /* a game of several roles: auto plans for all
                              roles together toward the first role's
                              goal 100 (as a puzzle), not its value */
  int counter;             /* a step counter's fluents (counter.c) left out
                              of the stored states, put back by depth: 0
                              default, by every search but iddfs and
                              idastar where the rules allow it; -1 not */
  size_t max_steps;        /* sat: the longest horizon tried (0: none) */
  int pdb;                 /* pattern databases over the groups of fluents
                              (groups.c, pdb.c) added to the informed
                              searches' estimate: 0 default, where the
                              groups allow; -1 not */
  uint64_t pdb_entries;    /* placements of a pattern at most (0: 2^20) */
  const char *pdb_cache;   /* a directory (made if missing) the pattern
                              databases are written to and read from
                              where one of exactly the same abstract game
                              was written before (doc/solving.md,
                              "Pattern databases"); NULL: none */
} gdl_solve_opts;

typedef enum { GDL_SOLVED, GDL_UNSOLVABLE, GDL_LIMIT } gdl_solve_status;

/* One search of a solve and its counts: auto runs several (its turns),
 * and the rounds that make a plan shorter are one more. */
typedef struct {
  const char *name;        /* the algorithm's name (gdl_algorithm_name), or
                              "shorten": the rounds that made the plan
                              shorter (opts.shorten) */
  uint64_t expanded, generated;
} gdl_search_count;
#define GDL_MAX_SEARCHES 10 /* auto's seven turns, bfs and sat beside them,
                               and "shorten" */

typedef struct {
  gdl_solve_status status;
  gdl_term *plan;          /* length steps of gdl_role_count() moves each */
  size_t length;           /* steps */
  long goal;               /* first role's goal at the end of the plan */
  uint64_t expanded, generated, stored;
  uint64_t pruned;         /* successors left out as dead ends */
  unsigned depth;          /* depth searched completely */
  double seconds;
  size_t peak_memory;      /* bytes */
  double bytes_per_state;  /* bfs, dfs: memory of the state store per state */
  char why[160];           /* GDL_LIMIT: what stopped the search */
  int optimal;             /* solved: 1 when the plan is proven shortest */
  gdl_algorithm found_by;  /* the search that gave the result (auto: the
                              one of its searches) */
  unsigned estimate;       /* h_max of the start (0 without estimates) */
  uint32_t latches;        /* fluents found latched (0 without) */
  int stubborn;            /* 1 when the search used stubborn sets */
  int budget;              /* 1 when it pruned by a move budget (one
                              role, moves made once, conflicts, a step
                              counter: budget.c) */
  uint32_t groups;         /* groups of fluents whose distances the
                              estimate adds (0: none; groups.c) */
  uint32_t patterns;       /* pattern databases in the estimate (0: none;
                              pdb.c), */
  uint64_t pattern_entries;  /* ... their placements in all */
  uint32_t patterns_cached;  /* ... of them, those read from
                              opts.pdb_cache, not built */
  char pdb_cache_warning[256];  /* why a table could not be written to
                              opts.pdb_cache (one line; the solve went
                              on without it), or "" */
  uint32_t counter;        /* fluents of a step counter left out of the
                              stored states (0: none) */
  size_t shortened_from;   /* the length of the plan found before it was
                              made shorter (opts.shorten; 0: it was not) */
  int goal_bound;          /* unsolvable: goal is the best found, not
                              proven the best reachable (a step counter
                              that can end the game was left out) */
  unsigned threads;        /* threads the search ran on */
  const char *dead_start;  /* unsolvable, proven before any state was
                              expanded: the analysis that found the start
                              a dead end ("h_max": the relaxed game cannot
                              reach goal 100; "groups": a group of fluents
                              cannot reach its goal value; "latches"; or
                              "budget": the moves left cannot last as
                              long as the step counter demands); NULL
                              otherwise */
  unsigned nsearches;      /* the searches run, in order, whose counts
                              expanded and generated are the sums */
  gdl_search_count searches[GDL_MAX_SEARCHES];
  /* a game's value (the value search; doc/solving.md, "Game values"):
   * status GDL_SOLVED when proven, plan the principal variation, goal
   * the first role's value */
  int game;                /* 1: the result is a game's value */
  long values[64];         /* solved: each role's goal under perfect play
                              (in role order; -1: no goal) */
  int constant_sum;        /* two roles whose goals always sum the same:
                              the values are minimax values */
  int simultaneous;        /* some state has several roles choosing at
                              once: there each role's pure-strategy
                              security value (maximin) */
  int bound_role;          /* at a limit: the role that moves first, or
                              -1 (none known, or several choose) */
  long bound;              /* ... which can make sure of at least this
                              goal (-1: none of its moves searched to the
                              end) */
  uint32_t bound_searched, bound_moves;  /* its moves searched to the end,
                              of all its first moves */
  uint64_t alphabeta;      /* 0; or the graph did not fit (--max-states,
                              --max-memory) and alpha-beta searched on
                              with a transposition table of this many
                              states */
} gdl_solve_result;

/* Searches for a plan from the initial state (or opts->start) to a
 * terminal state where the first role's goal is 100 (all roles move; each
 * step is a joint move).
 * bfs, iddfs, astar and idastar give a shortest plan; dfs and gbfs some
 * plan; auto the first of its searches to finish (res->optimal says
 * whether the plan is proven shortest).  Returns GDL_OK with res->status
 * set (a limit or an interrupt gives GDL_SOLVED/GDL_UNSOLVABLE/GDL_LIMIT
 * in res->status and the counts so far), or an error status for bad use.
 * A game of several roles gets its value instead where opts->algorithm
 * is GDL_AUTO (unless opts->cooperate) or GDL_VALUE: res->game 1,
 * res->values each role's goal under perfect play, res->plan the line of
 * perfect play, GDL_SOLVED when proven, GDL_LIMIT (with res->bound*) when
 * a limit came first (doc/solving.md, "Game values").
 * res->plan lives in the context until the next gdl_solve().  Afterwards
 * the context has no current state: set one with gdl_set_state(). */
gdl_status gdl_solve(gdl_ctx *ctx, const gdl_solve_opts *opts,
                     gdl_solve_result *res);

/* n bytes of s as the inside of a JSON string, given to put in pieces:
 * '"' and '\\' escaped with a backslash, bytes below 32 as \u00XX, the
 * rest as they are.  The one way gdl writes a JSON string (the command
 * line, the playground, gdl_solve_json); it allocates nothing. */
void gdl_json_escape(const char *s, size_t n,
                     void (*put)(void *arg, const char *p, size_t len),
                     void *arg);
/* A result of gdl_solve() on this context as one JSON object on one line,
 * as `gdl solve --json` prints it (doc/solving.md lists its keys):
 * {"status" ("solved", "unsolvable" or "limit"), "length" (null at a
 * limit), "goal" (null when none), "plan" (a string per step: the moves
 * in role order, separated by spaces), "expanded", "generated", "stored",
 * "depth", "seconds", "peak_memory_bytes", "bytes_per_state",
 * "algorithm" (found_by), "optimal", "pruned", "estimate", "latches",
 * "stubborn", "budget", "groups", "counter", "goal_bound",
 * "shortened_from", "threads", "dead_start" (null when none), "searches"
 * (an object per search run: {"search" (its name), "states_expanded",
 * "states_generated"}, named unlike the keys above, so that a script
 * that finds "expanded" by its quoted name finds the sum), for a game's
 * value only (res->game) "game", "proven", "method", "values" (an object
 * of role: goal, null unless proven), "bound" and "table_states", and at
 * a limit "limit" (why)}, in this order.  *text ends in the object's closing '}' (no newline), so that a
 * caller may put members of its own before it; *len (when not NULL) gets
 * its length.  The context owns the text; it stays valid until the next
 * gdl_solve_json() or gdl_free().  GDL_ELIMIT when memory runs out. */
gdl_status gdl_solve_json(gdl_ctx *ctx, const gdl_solve_result *res,
                          const char **text, size_t *len);


/* ---- playing: a move chosen for a role -------------------------------- */

/* How a move is chosen. */
typedef enum {
  GDL_CHOOSE_MCTS,         /* Monte Carlo tree search (UCT, MCTS-Solver) */
  GDL_CHOOSE_RANDOM,       /* a legal move, uniformly at random */
  GDL_CHOOSE_PERFECT,      /* the game's value from the state (gdl_solve's
                              value search) and the role's move on the line
                              of perfect play; MCTS for the time left where
                              it is not proven in half the time */
} gdl_chooser;

/* "mcts", "random" or "perfect" ("?" for none). */
const char *gdl_chooser_name(gdl_chooser k);
/* The chooser called `name` into *k: 0, or -1 (*k untouched). */
int gdl_chooser_parse(const char *name, gdl_chooser *k);

typedef struct {
  gdl_chooser kind;
  double seconds;          /* think at most this long (<= 0: no deadline) */
  uint64_t playouts;       /* at most this many rounds (0: none); with
                              neither, 10,000 rounds */
  uint64_t seed;           /* the random generator's start: the same seed,
                              state and budget of rounds give the same move */
  double exploration;      /* UCB1's constant on goals scaled to 0..1
                              (<= 0: the default, 0.4) */
  unsigned threads;        /* trees searched at once, one a thread (0 or
                              1: one; at most 64): the others each in a
                              context of their own, loaded with this
                              one's description at the first call and
                              kept (and freed) by it, with its memory
                              limit each; the rounds are shared out and
                              the root's statistics summed */
} gdl_choose_opts;

typedef struct {
  uint64_t playouts;       /* rounds of the search (each ends in a random
                              playout or a proven node) */
  uint64_t nodes;          /* nodes of the tree */
  double seconds;
  double value;            /* the role's expected goal after the move
                              (its mean over the rounds, or its proven
                              value); -1 when unknown */
  int proven;              /* 1: the move's value is proven (best play) */
  long proven_goal;        /* the role's goal under best play then */
} gdl_choose_info;

/* A move for `role` in `state` into *move, chosen by opts->kind (NULL:
 * MCTS with the defaults): Monte Carlo tree search with UCB1 for every
 * role on its own statistics (decoupled UCT: simultaneous moves too),
 * random playouts from the leaves (gdl_random_steps), and proofs carried
 * up the tree (MCTS-Solver): a move proven to give the role 100 is always
 * taken, and one proven worse than another is never taken.  It stops at
 * opts->seconds, after opts->playouts rounds, when the state is proven,
 * or at once when the role has one legal move; a time limit or an
 * interrupt of the context stops it too (GDL_OK with the best move so
 * far, once a round is done).  Deterministic given the seed, the threads
 * and a budget of rounds.  GDL_EINPUT when the state is terminal or the role has no
 * legal move.  Afterwards `state` is the current state (unless the
 * context's time limit or interrupt, past, refused to set it).  info may
 * be NULL. */
gdl_status gdl_choose_move(gdl_ctx *ctx, const gdl_state *state, size_t role,
                           const gdl_choose_opts *opts, gdl_term *move,
                           gdl_choose_info *info);

#endif
