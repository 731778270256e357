/*
 * core.h - the core layer's types and calls, for every folder above it.  Not
 * installed.
 *
 * Memory: every allocation goes through ctx_alloc()/ctx_realloc(), which
 * count bytes against the context's limit and keep every block on a list,
 * so gdl_free() releases all of it.  When memory runs out, or a limit
 * trips, the allocator (or ctx_throw()) long-jumps to the innermost public
 * entry point (PROTECT), which returns the status; structures are always
 * updated after the allocation they need succeeded, so they stay whole.
 */
#ifndef GDL_CORE_H
#define GDL_CORE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "gdl.h"
#include "../../grammar/ast.h"

/* ---- invariants ------------------------------------------------------- */

/* gdl_assert(c): c always holds, whatever the input; a failure is a bug
 * in gdl.  Checked only in debug builds (-DGDL_DEBUG, which `make asan`
 * sets for the whole test suite), as Lua's lua_assert and SQLite's
 * assert(); elsewhere c is compiled (so it stays valid) but never
 * evaluated, and costs nothing.  Each is cheap, since the suite runs with
 * them.  Bad input is never asserted against: it gets a diagnostic or a
 * status. */
#ifdef GDL_DEBUG
#include <assert.h>
#define gdl_assert(c) assert(c)
#else
#define gdl_assert(c) ((void)sizeof((c) ? 1 : 0))
#endif

/* ---- memory (mem.c) --------------------------------------------------- */

void *ctx_alloc(gdl_ctx *ctx, size_t n);             /* zeroed */
void *ctx_realloc(gdl_ctx *ctx, void *p, size_t n);
/* The same, NULL (p kept) instead of a throw: for worker threads. */
void *ctx_try_realloc(gdl_ctx *ctx, void *p, size_t n);
/* Grows *p (*cap elements of sz bytes, doubled from `first`) so that
 * need of them fit, as ctx_try_realloc: 0, *p kept, where it cannot. */
int ctx_try_grow(gdl_ctx *ctx, void **p, uint64_t *cap, uint64_t need,
                 size_t sz, uint64_t first);
void ctx_free(gdl_ctx *ctx, void *p);
void *ctx_arena(gdl_ctx *ctx, size_t n);             /* zeroed, freed with ctx */
char *ctx_strdup(gdl_ctx *ctx, const char *s, size_t n);
/* Grows *p (elements of size `sz`) so that index `need` fits. */
void ctx_grow(gdl_ctx *ctx, void **p, uint32_t *cap, uint32_t need, size_t sz);
#define GROW(ctx, arr, cap, need) \
  ctx_grow((ctx), (void **)&(arr), &(cap), (need), sizeof *(arr))

/* memcpy that accepts (NULL, 0), which memcpy itself does not. */
#define COPY(dst, src, n)                                                \
  do {                                                                   \
    if ((n) > 0)                                                         \
      memcpy((dst), (src), (n));                                         \
  } while (0)

/* Stops the current operation with `st`; the message is kept. */
_Noreturn void ctx_throw(gdl_ctx *ctx, gdl_status st, const char *fmt, ...);
void ctx_setmsg(gdl_ctx *ctx, const char *fmt, ...);
/* 1 when the interrupt flag is set or the deadline has passed, with the
 * message set ("interrupted", "time limit reached"); 0 else.  For a loop
 * that stops cleanly, with what it has, rather than throw. */
int ctx_limit(gdl_ctx *ctx);
/* 1 when the interrupt flag or the cancel flag is set. */
int ctx_interrupted(const gdl_ctx *ctx);
/* Polls the interrupt flag and the deadline; throws GDL_ELIMIT. */
void ctx_poll(gdl_ctx *ctx);
/* The same about once a millisecond, however long a step between two
 * POLLs takes: a countdown of steps, cheap enough for inner loops (a join
 * step, a rule of a network).  ctx_poll_tick, at the end of a run, sizes
 * the next run by the time this one took (mem.c). */
#define POLL(ctx)                                                        \
  do {                                                                   \
    if (--(ctx)->poll_left <= 0)                                         \
      ctx_poll_tick(ctx);                                                \
  } while (0)
/* POLL for n steps at once: a loop whose steps differ in cost counts
 * each by its work (the analyses: the propositions the kernel evaluated),
 * so that a run sized on cheap steps is not a long one of dear steps. */
#define POLL_N(ctx, n)                                                   \
  do {                                                                   \
    if (((ctx)->poll_left -= (int32_t)(n)) <= 0)                         \
      ctx_poll_tick(ctx);                                                \
  } while (0)
void ctx_poll_tick(gdl_ctx *ctx);
double ctx_clock(void);        /* seconds, monotonic */

/* gdl_random(), inline here for the grounded engine's random steps. */
static inline size_t rng_pick(uint64_t *rng, size_t n)
{
  *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
  return (size_t)(((*rng >> 33) * (uint64_t)n) >> 31);
}

#define PROTECT(ctx)                                                     \
  jmp_buf jb_; jmp_buf *oldjb_ = (ctx)->jmp;                             \
  (ctx)->jmp = &jb_;                                                     \
  if (setjmp(jb_)) { (ctx)->jmp = oldjb_; return (ctx)->thrown; }
#define UNPROTECT(ctx) ((ctx)->jmp = oldjb_)

/* ---- diagnostics (ctx.c) ---------------------------------------------- */

enum { SEV_ERROR, SEV_WARNING, SEV_NOTE };

typedef struct {
  uint8_t sev;
  uint32_t file, start, end;
  char *msg;
} diag_t;

void diag_add(gdl_ctx *ctx, int sev, uint32_t file, uint32_t start,
              uint32_t end, const char *fmt, ...);
/* The diagnostics from index `from` on in the order of their files and
 * places, each with the notes after it (left as they are once errors
 * were dropped for being too many). */
void diag_sort(gdl_ctx *ctx, uint32_t from);
/* FILE:LINE:COL for a position (buffer must hold 64 bytes + name). */
void diag_where(const gdl_ctx *ctx, uint32_t file, uint32_t off,
                uint32_t *line, uint32_t *col);

typedef struct {
  char *name;       /* as given, for messages */
  char *text;       /* whole content */
  uint32_t len;
  int included;     /* read because another file named it (#include) */
  int alone;        /* read by gdl_format or gdl_parse_terms: not part of
                       the description, and its #includes are not read */
  int infix;        /* written in infix GDL (grammar/infix.h), not KIF */
} srcfile_t;

/* ---- symbols and terms (term.c) --------------------------------------- */

/* Keyword symbols have fixed ids, interned first. */
enum {
  S_NONE, S_ROLE, S_INIT, S_TRUE, S_DOES, S_LEGAL, S_NEXT, S_GOAL,
  S_TERMINAL, S_DISTINCT, S_NOT, S_OR, S_IMPLIES, S_BASE, S_INPUT,
  S_NKEYWORDS
};

typedef struct {
  uint32_t off, len;   /* text in ctx->symtext */
  uint32_t hash;
  int32_t num;         /* numeric value, or -1 */
} sym_t;

enum { T_SYM, T_VAR, T_FN };

typedef struct {
  uint8_t kind;        /* T_SYM, T_VAR, T_FN */
  uint8_t ground;      /* no variables inside */
  uint16_t arity;      /* T_FN: number of arguments */
  uint32_t sym;        /* T_SYM, T_FN: symbol; T_VAR: variable index */
  uint32_t args;       /* T_FN: offset of the arguments in ctx->targs */
  uint32_t hash;
} term_t;

uint32_t sym_intern(gdl_ctx *ctx, const char *s, size_t n);
const char *sym_text(const gdl_ctx *ctx, uint32_t sym);
uint32_t sym_len(const gdl_ctx *ctx, uint32_t sym);

gdl_term term_sym(gdl_ctx *ctx, uint32_t sym);
gdl_term term_var(gdl_ctx *ctx, uint32_t index);
/* The term f(args), created when missing. */
gdl_term term_fn(gdl_ctx *ctx, uint32_t f, uint32_t arity,
                 const gdl_term *args);
/* The same, but 0 when the term does not exist yet. */
gdl_term term_find(const gdl_ctx *ctx, uint32_t f, uint32_t arity,
                   const gdl_term *args);
#define TERM(ctx, t) (&(ctx)->terms[t])
#define TARG(ctx, t, i) ((ctx)->targs[(ctx)->terms[t].args + (i)])
/* The relation key of an atom term: symbol and arity. */
uint32_t term_functor(const gdl_ctx *ctx, gdl_term t);
uint32_t term_arity(const gdl_ctx *ctx, gdl_term t);
/* 1 + the largest variable index in t, or 0 when t is ground. */
uint32_t term_max_var(const gdl_ctx *ctx, gdl_term t);
/* Sets mark[v] for each variable index v in t (mark: room for them all). */
void term_vars(const gdl_ctx *ctx, gdl_term t, uint8_t *mark);

/* Writes KIF text into a growing buffer. */
typedef struct {
  char *s;
  uint32_t n, cap;
} strbuf_t;
void sb_putc(gdl_ctx *ctx, strbuf_t *b, char c);
void sb_puts(gdl_ctx *ctx, strbuf_t *b, const char *s, size_t n);
void sb_printf(gdl_ctx *ctx, strbuf_t *b, const char *fmt, ...);
void sb_term(gdl_ctx *ctx, strbuf_t *b, gdl_term t, const uint32_t *varnames);
/* Term t as text in ctx->termtext, written by put(ctx, b, t, arg); "?"
 * when memory runs out (gdl_term_str, gdl_term_text). */
const char *term_text(gdl_ctx *ctx, gdl_term t,
                      void (*put)(gdl_ctx *, strbuf_t *, gdl_term, int),
                      int arg);
/* Sorts terms in place by their KIF text, byte order: the order gdl lists
 * facts in for a person (gdl state, trace, explain, graph). */
void term_sort_text(gdl_ctx *ctx, gdl_term *a, uint32_t n);

/* ---- the program (check.c) -------------------------------------------- */

enum { L_POS, L_NEG, L_DISTINCT, L_EQUAL };

typedef struct {
  uint8_t kind;          /* L_POS, L_NEG, L_DISTINCT, L_EQUAL */
  uint8_t rec;           /* may use a rule of its own rule's component */
  uint32_t rel;          /* L_POS, L_NEG: relation */
  gdl_term a, b;         /* L_POS/L_NEG: the atom in a; else the two terms */
  const gdl_node *src;   /* where it was written */
} lit_t;

typedef struct {
  uint32_t lit;          /* body literal */
  int32_t key;           /* index of the relation to look in (rel_t.idx),
                            -1 none (scan), -2 the whole atom is known */
  gdl_term keypat;       /* the part of the atom whose value is known */
  uint32_t cols;         /* or, for an index on several arguments, which
                            (rel_t.idx[key].cols) */
  uint32_t fkey;         /* or, for an index on an argument's functor,
                            the key (eval_functor_key) */
} step_t;

typedef struct {
  step_t *steps;
  uint32_t n;
} plan_t;

typedef struct {
  uint32_t rel;          /* head relation */
  gdl_term head;         /* head atom */
  lit_t *body;
  uint32_t nbody;
  uint32_t nvars;
  uint32_t *varnames;    /* symbol of each variable */
  const gdl_node *src;   /* the whole rule or fact as written */
  const gdl_node *hsrc;  /* its head */
  uint32_t scc;
  plan_t full;           /* the join order for a whole evaluation */
  plan_t *delta;         /* per positive body literal: the join order with
                            it first, over its new facts (semi-naive); made
                            for those in the same SCC, and for all when
                            planning for grounding (eval_phase_since reads
                            them); else n = 0 */
  plan_t lazy;           /* lazy relations: the join order with the
                            head's key arguments (rel_t.lazykey) known */
} rule_t;

enum { P_STATIC, P_STATE, P_MOVE };

#define IDX_FUNCTOR (-2)
typedef struct {
  int16_t arg, sub;      /* indexed on argument arg, or on argument sub of
                            argument arg when sub >= 0, or on the functor
                            of argument arg when sub is IDX_FUNCTOR */
  uint32_t cols;         /* or, when not 0, on the arguments of these bits
                            together (a hash of their values) */
  uint32_t *head;        /* map slot -> key term; 0 empty (NULL: not built) */
  uint32_t *val;         /* map slot -> last fact index + 1 */
  uint32_t mask;         /* slots - 1 */
  uint32_t used;
  uint32_t *chain;       /* per fact: previous fact index + 1 with that key */
  uint32_t chaincap;
} index_t;

typedef struct {
  uint32_t sym;
  uint32_t arity;
  uint8_t phase;         /* P_STATIC, P_STATE or P_MOVE */
  uint8_t defined;       /* has a rule or a fact */
  uint8_t bare, parens;  /* seen as `p`, seen as `(p)` (arity 0) */
  uint8_t lazy;          /* evaluated on demand, key by key (eval.c) */
  uint8_t *lazykey;      /* lazy: per argument, 1 when every use binds it
                            (the key the answers are looked up by) */
  uint32_t nkey;         /* lazy: key arguments; arity: asked with all known */
  uint32_t *descent;     /* lazy and recursive: triples (S, i, j), static
                            relations whose facts lead (argument i to
                            argument j) from a rule head's value at one key
                            position to its recursive literal's; asking
                            ends when they make no cycle
                            (eval_check_descent) */
  uint32_t ndescent;     /* triples in descent */
  gdl_term *facts;       /* derived facts (atoms), insertion order */
  uint32_t n, cap;
  index_t *idx;          /* indexes the plans use, built when first needed */
  uint32_t nidx;
  uint32_t dlo, dhi;     /* semi-naive: the delta range */
  uint32_t nfactrules;   /* facts written for it */
  uint32_t nrules;       /* rules with a body for it */
} rel_t;

typedef struct {
  uint32_t *rels, nrels;       /* the relations its rules add to */
  uint32_t *rules, nrules;
  uint8_t recursive;
  uint8_t phase;
} scc_t;

uint32_t rel_get(gdl_ctx *ctx, uint32_t sym, uint32_t arity);
int rel_find(const gdl_ctx *ctx, uint32_t sym, uint32_t arity);
/* gdl_compile's first half: everything loaded checked and made into
 * rules and relations (GDL_EINPUT with the diagnostics when it has
 * errors); compile.c's gdl_compile makes them ready for evaluation. */
gdl_status check_program(gdl_ctx *ctx, unsigned flags);

/* ---- likely slips (typos.c) ------------------------------------------- */

/* Where the checker saw a name used as a relation, indexed by symbol (as
 * many as there were when it began): the atoms as written (a list, or
 * the symbol of a 0-ary atom). */
typedef struct {
  const gdl_node *def;       /* its first fact or rule head */
  const gdl_node *def_own;   /* the same outside `;#include`d files */
  const gdl_node *read;      /* its first use in a rule's body */
  const gdl_node *read_own;  /* the same outside `;#include`d files */
} relseen_t;

/* The optimal string alignment distance of a and b (insertions,
 * deletions, substitutions and swaps of neighbours, 1 each), or
 * UINT32_MAX when either is longer than 64 bytes. */
uint32_t typo_distance(const char *a, size_t na, const char *b, size_t nb);
/* That distance when b is a likely spelling meant by a, else 0 (the
 * policy of doc/dialect.md 3.9). */
uint32_t typo_near(const char *a, size_t na, const char *b, size_t nb);
/* The variable of vars (n of them, symbols with their '?') that var was
 * likely meant to be, or 0. */
uint32_t typo_var_meant(gdl_ctx *ctx, uint32_t var, const uint32_t *vars,
                        uint32_t n);
/* Warnings for a description without errors: names read as relations
 * that nothing defines, names a game defines that nothing reads near a
 * name that is read, variables written once near another of their rule;
 * in the order of the files and places.  For check_program. */
void typos_report(gdl_ctx *ctx, const relseen_t *seen, uint32_t nseen);

/* ---- evaluation order (strata.c) -------------------------------------- */

/* The rules' components in evaluation order (ctx->sccs, rule_t.scc,
 * lit_t.rec), negation through recursion and the recursion restriction
 * checked, each relation's phase and the restricted dependencies
 * checked: errors go to the diagnostics.  For check_program. */
void strata_build(gdl_ctx *ctx);

/* ---- evaluation (eval.c) ---------------------------------------------- */

/* Watching an evaluation (teach.c): round() at the start of each round
 * of a stratum (round 1 runs every rule, later rounds the semi-naive
 * ones), fact() for every rule instance found, with isnew = 1 when its
 * head was not known yet.  The variable bindings of the instance are in
 * ctx->bind during fact(). */
typedef struct {
  void (*round)(gdl_ctx *ctx, const scc_t *s, unsigned round);
  void (*fact)(gdl_ctx *ctx, const rule_t *r, gdl_term head, int isnew);
} tracer_t;

/* Evaluates every stratum of a phase, in order. */
void eval_phase(gdl_ctx *ctx, int phase);
/* The same for the components that add to a relation marked in dirty
 * (NULL: all of them). */
void eval_phase_dirty(gdl_ctx *ctx, int phase, const uint8_t *dirty);
/* eval_state.c: the state phase for the state whose `true` atoms are
 * atoms[0..n): the relations that read no fluent whose facts changed
 * since the state held keep their facts, the others are computed again. */
void eval_new_state(gdl_ctx *ctx, const gdl_term *atoms, uint32_t n);
/* The same over a database that has only grown since each relation r had
 * since[r] facts, every one of which the phase's rules have seen (the
 * relaxed rounds of network/ground.c): only joins that use a newer fact
 * run.  since = NULL: eval_phase. */
void eval_phase_since(gdl_ctx *ctx, int phase, const uint32_t *since);
/* Empties the relations of a phase (and of the later phases). */
void eval_clear(gdl_ctx *ctx, int phase);
/* A new state's clearing that keeps some of the state phase: the facts of
 * `true`, of the move phase and of the state relations marked in dirty
 * dropped, every state and move memo entry ended. */
void eval_clear_dirty(gdl_ctx *ctx, const uint8_t *dirty);
/* Empties one relation. */
void eval_drop(gdl_ctx *ctx, uint32_t rel);
/* Adds a fact; returns 1 when it is new. */
int eval_insert(gdl_ctx *ctx, uint32_t rel, gdl_term atom);
/* The slot in rel_t.idx of relation r's index on argument arg (on its
 * argument sub when sub >= 0), or on the arguments of the bits of cols
 * when cols is not 0; made (not built) when new. */
int32_t eval_index_slot(gdl_ctx *ctx, uint32_t r, int arg, int sub,
                        uint32_t cols);
/* Once the static relations are known: each lazy recursive relation whose
 * recursion could go round in a cycle (its descent edges have one) is
 * evaluated in full from then on. */
void eval_check_descent(gdl_ctx *ctx);
/* The lazy relations rel depends on (all: rel < 0) evaluated in full, up
 * to a phase, and lazy no more. */
void eval_unlazy(gdl_ctx *ctx, int upto, int rel);
/* Runs one rule over the facts there are (with ctx->grounding set, each
 * instance goes to that function instead of the database). */
void eval_rule(gdl_ctx *ctx, const rule_t *r);
/* The substitution of a pattern with the current bindings (create = 0:
 * 0 when that term does not exist). */
gdl_term eval_subst(gdl_ctx *ctx, gdl_term p, int create);
/* Matching a pattern against a ground term, with ctx->bind; eval_undo
 * forgets the bindings made since the trail had `mark` entries. */
int eval_match(gdl_ctx *ctx, gdl_term pat, gdl_term g);
void eval_undo(gdl_ctx *ctx, uint32_t mark);
/* Room in ctx->bind and ctx->trail for variables 0 .. nvars-1. */
void eval_reserve(gdl_ctx *ctx, uint32_t nvars);

/* ---- join orders (eval_plan.c) ---------------------------------------- */

/* Builds the join orders of every rule (again = 1: of the rules that are
 * not static, knowing the sizes of the static relations); the first time,
 * chooses the lazy relations. */
void eval_plan(gdl_ctx *ctx, int again);
/* The key of a term's functor in an index on it (IDX_FUNCTOR). */
static inline uint32_t eval_functor_key(const term_t *t)
{
  return ((t->sym << 5) | (t->arity & 31)) + 1;
}

/* ---- the roles (compile.c) -------------------------------------------- */

/* gdl_role_note's text appended to b; 0 (nothing appended) when t names
 * no role or a role of the game. */
int role_note(gdl_ctx *ctx, gdl_term t, strbuf_t *b);

/* ---- loading (load.c) ------------------------------------------------- */

/* Parses a buffer registered as file `file` into a list of forms. */
gdl_node *load_parse(gdl_ctx *ctx, uint32_t file);
uint32_t load_add_file(gdl_ctx *ctx, const char *name, const char *text,
                       size_t len);
/* Reads a file and registers it; UINT32_MAX with an error when it cannot
 * be read (`from`, start, end: the include line asking for it, or
 * UINT32_MAX when the user named it). */
uint32_t load_read(gdl_ctx *ctx, const char *path, uint32_t from,
                   uint32_t start, uint32_t end);
/* Whether file `file` is infix: by gdl_set_syntax(), else by its name's
 * ending (.hrf, .gdl), else (an included file) as the file naming it. */
void load_set_syntax(gdl_ctx *ctx, uint32_t file, uint32_t from);

/* ---- infix GDL (infix.c) ---------------------------------------------- */

/* A symbol as an infix constant, a variable name (?x) as an infix
 * variable (doc/dialect.md, "Infix GDL"). */
void infix_put_sym(gdl_ctx *ctx, strbuf_t *b, uint32_t sym);
void infix_put_var(gdl_ctx *ctx, strbuf_t *b, uint32_t sym);
/* A term in infix (varnames as in sb_term). */
void infix_term(gdl_ctx *ctx, strbuf_t *b, gdl_term t,
                const uint32_t *varnames);
/* A variable's name (?x) for a message about file `file`: as it is for a
 * KIF file, in infix (X) for an infix one.  Valid until the next call. */
const char *infix_var_shown(gdl_ctx *ctx, uint32_t file, uint32_t sym);
/* 1 when the description is infix: its first file that is not a term
 * given alone (gdl_parse_terms) is.  Answers are written in its syntax. */
int infix_described(const gdl_ctx *ctx);
/* t in KIF (infix = 0) or infix, its variables by the names they had in
 * the text gdl_parse_terms read last (?_N or __N when t has more), so
 * that a question is written back as it was asked. */
void term_put_asked(gdl_ctx *ctx, strbuf_t *b, gdl_term t, int infix);
/* Whether terms given on the command line are infix: when the description
 * is infix and the text has neither a '(' that opens a KIF list nor a
 * '?' (outside quotes); else they are KIF. */
int infix_terms_text(const gdl_ctx *ctx, const char *text);
/* The forms of file `file` (parsed alone) in the canonical layout of the
 * syntax `infix` says, appended to out. */
void infix_layout(gdl_ctx *ctx, uint32_t file, const gdl_node *forms,
                  int infix, strbuf_t *out);

/* ---- formatting (fmt.c) ----------------------------------------------- */

/* The forms of file `file` (parsed alone) in the canonical layout,
 * appended to out. */
void fmt_file(gdl_ctx *ctx, uint32_t file, const gdl_node *forms,
              strbuf_t *out);

/* ---- the context ------------------------------------------------------ */

/* What the layer above keeps in the context (network/network.h): the
 * context holds it by pointer only. */
typedef struct ground ground_t;

typedef struct block block_t;

struct gdl_ctx {
  /* memory */
  block_t *blocks;             /* every live allocation */
  size_t used, peak, limit;    /* bytes */
  long fail_after;             /* tests: fail the n-th allocation (-1: off) */
  char **arenas;               /* arena chunks */
  uint32_t narenas, arenacap;
  char *arena_p;               /* free space in the current chunk */
  size_t arena_left;
  jmp_buf *jmp;                /* innermost PROTECT */
  gdl_status thrown;
  volatile int *interrupt;
  volatile int *cancel;        /* set (atomic) by a search on another
                                  thread that has the answer (solve.c's
                                  SAT beside auto): stops work as the
                                  interrupt does, "cancelled" */
  double deadline;             /* ctx_clock() time to stop at, or 0: the
                                  time limit (gdl_set_time_limit), or a
                                  solve's or the grounding's, earlier */
  int32_t poll_left;           /* POLL: steps before the next look */
  int32_t poll_run;            /* POLL: steps between two looks */
  double poll_t;               /* POLL: ctx_clock() at the last look */
  long fail_poll;              /* tests: the n-th ctx_limit() finds a
                                  limit (-1: off) */
  double ground_seconds;       /* the grounding attempt's budget
                                  (gdl_set_ground_seconds; 0: ground.c's
                                  default) */

  /* messages */
  char errmsg[512];
  diag_t *diags;
  uint32_t ndiags, diagcap;
  uint32_t nerrors, nwarnings;
  strbuf_t diagtext;

  /* sources */
  srcfile_t *files;
  uint32_t nfiles, filecap;
  gdl_node forms;              /* every top-level form loaded, in order */
  strbuf_t fmttext;            /* gdl_format's result */
  int syntax;                  /* gdl_set_syntax(): GDL_SYNTAX_* */
  uint32_t *incl_file;         /* pending includes: requesting file */
  char **incl_path;
  uint32_t *incl_start, *incl_end;
  uint32_t nincl, inclcap, incl_done;

  /* symbols */
  char *symtext;
  uint32_t symtextlen, symtextcap;
  sym_t *syms;
  uint32_t nsyms, symcap;
  uint32_t *symhash;           /* open addressing, sym ids */
  uint32_t symmask;

  /* terms */
  term_t *terms;
  uint32_t nterms, termcap;
  gdl_term *targs;
  uint32_t ntargs, targcap;
  uint32_t *termhash;
  uint32_t termmask;
  uint8_t *present;            /* per term: a fact in the database now */
  strbuf_t termtext;
  uint32_t *askedvars;         /* the names (?x symbols) of the variables
                                  of the text gdl_parse_terms read last,
                                  by index: a question written back */
  uint32_t naskedvars, askedvarcap;

  /* the program */
  int compiled;
  int is_game;
  int game_words;              /* a game keyword is used as a relation */
  char not_game[200];          /* why it is not a game, or "" */
  rel_t *rels;
  uint32_t nrels, relcap;
  uint32_t *relhash;           /* (sym, arity) -> rel+1 */
  uint32_t relmask;
  rule_t *rules;
  uint32_t nrules, rulecap;
  scc_t *sccs;                 /* in evaluation order */
  uint32_t nsccs;
  uint32_t r_role, r_init, r_true, r_does, r_legal, r_next, r_goal,
           r_terminal;         /* relation ids of the keywords */
  size_t nfacts, fact_limit;   /* facts held now, and the limit */
  int statics_done;            /* static relations are evaluated */
  int relaxed;                 /* `not` of a non-static relation holds */
  int plan_ground;             /* join orders for grounding: `true`
                                  indexed by its fluents' functors too
                                  (eval_plan.c, pick_key), and each
                                  positive literal's semi-naive plan */
  int nlazy;                   /* lazy relations (none: all materialised) */
  struct lazymemo *lmemo[3];   /* per phase: what lazy relations answered
                                  (eval.c), valid for one epoch */
  uint32_t lmemomask[3], lmemoused[3], lmemoep[3];
  gdl_term *lkeys[3];          /* per phase: the values the memo is keyed
                                  by; emptied with a new epoch */
  uint32_t lkeysn[3], lkeyscap[3];
  uint32_t *rfirst, *rnext;    /* the rules of each relation: first, next
                                  (UINT32_MAX ends), in the rules' order */
  gdl_term *lazypool[3];       /* per phase: answer lists, each a count then
                                  the atoms; emptied with the phase */
  uint32_t lazypooln[3], lazypoolcap[3];
  uint32_t epoch[3];           /* per phase: bumped when it is cleared */
  int lazy_found;              /* a lazy rule instance was found */
  int lazy_mode;               /* emit() reports (LAZY_TEST) or collects
                                  (LAZY_COLLECT) instead of inserting */
  struct lazyout *lazy_out;    /* LAZY_COLLECT: where the answers go */
  /* when set, rule instances go to this function (ground.c's, which
   * instantiates the rules), not to the database: so evaluation needs
   * nothing of the layer above it */
  void (*grounding)(gdl_ctx *ctx, const rule_t *r);
  ground_t *ground;            /* the grounded engine, when built */
  int ground_off;              /* built, but the interpreter is chosen */
  gdl_state cur;               /* the current state (for questions) */
  int db_state;                /* the database holds the current state */
  int state_whole;             /* the state phase's relations are complete
                                  for the `true` facts held (eval.c:
                                  eval_new_state may keep some) */
  uint32_t *sdep, *sdepoff;    /* per rule, what it reads that a state can
                                  change: relations, and nrels + the
                                  functor of a fluent `true` matches
                                  (UINT32_MAX: any) */
  uint8_t *fchanged;           /* per symbol: fluents of that functor
                                  changed (eval_new_state, scratch) */
  uint32_t *fcount;            /* per symbol: scratch counts */
  uint32_t fsyms;              /* symbols fchanged and fcount have room for */
  uint8_t *rdirty;             /* per relation: recomputed (scratch) */
  int cur_stale;               /* grounded: cur lags behind the network,
                                  which gdl_advance moved on */
  gdl_state adv;               /* gdl_advance's next state, interpreted */
  gdl_term *joint;             /* gdl_random_steps' joint move, per role */
  uint32_t steps_run;          /* random steps between looks at the limits
                                  (about a millisecond of them) */
  uint32_t steps_left;         /* steps before the next look */
  double steps_t;              /* ctx_clock() at the last look */
  char engine_note[200];       /* why the interpreter is used */
  const tracer_t *tracer;      /* watching the evaluation (teach.c), or NULL */
  void *tracearg;
  strbuf_t teachtext;          /* what gdl_trace and gdl_explain wrote */
  strbuf_t notetext;           /* gdl_role_note's */
  strbuf_t solvetext;          /* gdl_solve_json's */

  /* evaluation */
  gdl_term *bind;              /* variable bindings of the rule in hand */
  uint32_t *trail;
  uint32_t ntrail, bindcap;
  gdl_term *roles;
  uint32_t nroles;
  int have_state;              /* a state is set */
  gdl_term **legal;            /* per role: sorted legal moves, cached */
  uint32_t *nlegal;
  uint8_t *legal_ok;
  gdl_term *goalbuf;
  uint32_t goalcap;
  gdl_term *tmp;
  uint32_t tmpcap;
  gdl_term *truewrap;          /* per term f: the atom (true f), or 0 */
  uint32_t truewrapcap;
  gdl_term *nextwrap;          /* per term f: the atom (next f), or 0 */
  uint32_t nextwrapcap;

  /* the move chooser's other threads (search/mcts.c): a context each,
     loaded with this one's description, owned and freed by this one */
  gdl_ctx **subs;
  uint32_t nsubs;
  unsigned compile_flags;      /* gdl_compile's flags, for them */
};

/* The grounded engine answers. */
#define GROUND(ctx) ((ctx)->ground && !(ctx)->ground_off)

/* Facts of relation r. */
#define REL(ctx, r) (&(ctx)->rels[r])

#endif
