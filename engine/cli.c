/*
 * cli.c - the gdl command: reads the command line, loads the description,
 * runs one command, prints the result.  It sees only gdl.h.
 *
 * Exit status (the contract in doc/gdl.1): 0 done or solved; 1 searched
 * everything and found no plan; 2 bad input or usage; 3 a limit stopped
 * the work.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* ---- options ---------------------------------------------------------- */


static volatile int interrupted;

static void on_sigint(int sig)
{
  (void)sig;
  interrupted = 1;
}


/* ---- help ------------------------------------------------------------- */

static const char main_help[] =
  "usage: gdl COMMAND FILE... [OPTIONS]\n"
  "\n"
  "gdl reads game descriptions written in GDL (the Game Description Language\n"
  "of General Game Playing), checks them, computes legal moves and next\n"
  "states by forward chaining, and solves puzzles by search.  Several FILEs\n"
  "form one description.\n"
  "\n"
  "commands:\n"
  "  check    FILE...               check a description; print warnings and errors\n"
  "  solve    FILE... [options]     find a plan (shortest with bfs and iddfs)\n"
  "  legal    FILE... [--moves M]   the legal moves after the moves M\n"
  "  state    FILE... [--moves M]   the true facts after the moves M\n"
  "  query    FILE... [--moves M] TERM  every instance of TERM that holds\n"
  "  playout  FILE... [--seed S]    random playouts, every step printed\n"
  "  bench    FILE... [--seconds S] random playouts: states per second\n"
  "  cat      FILE... [--syntax S]  the description as one KIF (or infix) file\n"
  "  play     FILE... [--moves M]   play it in the terminal (u undo, h hint)\n"
  "  explain  FILE... [--moves M] FACT  why FACT holds, or why not\n"
  "  trace    FILE... [--moves M]   forward chaining, round by round\n"
  "  graph    FILE... [--plan]      the reachable states as Graphviz DOT\n"
  "  fmt      FILE [--check|--write] the file in the canonical layout\n"
  "\n"
  "Commands that evaluate take --engine auto|ground|interp (default auto:\n"
  "the grounded engine where the game fits, else the interpreter) and\n"
  "--clean (read (not (distinct A B)) as A = B).  FILEs ending in .hrf or\n"
  ".gdl are infix GDL (legal(R, m) :- true(p(R)) & ~q), the others KIF;\n"
  "--syntax infix|kif says which, whatever the ending.\n"
  "Run 'gdl COMMAND --help' for a command's options.\n"
  "exit status: 0 done, 1 no plan exists, 2 bad input or usage, 3 a limit\n"
  "(states, memory, time, Ctrl-C) stopped the work.\n";

static const struct {
  const char *cmd, *help;
} cmd_help[] = {
  { "check",
    "usage: gdl check FILE... [--clean]\n"
    "Checks a GDL description: syntax, keywords, arities, safety of rules,\n"
    "stratified negation, the recursion restriction, and that a game defines\n"
    "role, legal, goal and terminal.  Prints nothing and exits 0 when clean;\n"
    "prints warnings and exits 0 when there are only warnings; prints errors\n"
    "(FILE:LINE:COL, the line and a caret) and exits 2 otherwise.\n"
    "  --clean    read (not (distinct A B)) as A = B, as ggp-base does\n" },
  { "legal",
    "usage: gdl legal FILE... [--moves 'M1 M2 ...'] [--json]\n"
    "Prints the legal moves of each role in the state reached from the\n"
    "initial state by the moves.  With k roles each step takes k moves in\n"
    "role order.  Moves are KIF terms: noop, (move dog tree well).\n" },
  { "state",
    "usage: gdl state FILE... [--moves 'M1 M2 ...'] [--json]\n"
    "Prints the true facts of the state reached by the moves, whether it is\n"
    "terminal, and each role's goal.\n" },
  { "query",
    "usage: gdl query FILE... [--moves 'M1 M2 ...'] [--json] TERM\n"
    "Prints every instance of TERM that holds, one per line; variables are\n"
    "written ?x.  Examples: '(legal ?r ?m)', '(ancestor ?x ?y)'.  Works on\n"
    "plain rule bases that are not games too.\n" },
  { "playout",
    "usage: gdl playout FILE... [--seed S] [--playouts K] [--max-steps M]\n"
    "                   [--engine E]\n"
    "Plays K random playouts (default 1) of at most M steps (default 200)\n"
    "and prints every state, legal move set, goal and chosen move in the\n"
    "trace format of doc/engine.md (the differential tests compare it with\n"
    "a Prolog reference).\n" },
  { "bench",
    "usage: gdl bench FILE... [--seconds S] [--playouts N] [--seed N]\n"
    "                 [--engine E] [--json]\n"
    "Random playouts from the initial state for S seconds (default 5):\n"
    "states per second, playouts per second, set-up time.  With --playouts\n"
    "N, exactly N playouts, whatever the time: the same work every run, to\n"
    "compare builds by instruction counts (valgrind --tool=callgrind).\n" },
  { "cat",
    "usage: gdl cat FILE... [--syntax kif|infix]\n"
    "Writes the description (the files and the files they #include) as one\n"
    "standard KIF file that other GGP tools can read: KIF files as they\n"
    "are, infix ones written as KIF.  With --syntax, the files (KIF or\n"
    "infix, by their names' endings) are only parsed, not checked, and\n"
    "written again in that syntax, each in its canonical layout with its\n"
    "comments: --syntax infix turns KIF into infix GDL, --syntax kif infix\n"
    "into KIF.\n" },
  { "explain",
    "usage: gdl explain FILE... [--moves 'M1 M2 ...'] [--does 'M ...'] FACT\n"
    "Says why FACT holds in the state reached by the moves: a proof tree,\n"
    "each fact with the rule that derived it (FILE:LINE) and the facts of\n"
    "that rule's body indented below it, down to the true facts of the\n"
    "state.  When FACT does not hold, it shows for each rule whose head\n"
    "matches which literal of its body fails, and what held before it.\n"
    "FACT may have variables (?x): each instance that holds is explained.\n"
    "  --does M   one move per role played in that state, to explain facts\n"
    "             that depend on the moves: (next ...), (does ...)\n"
    "Exit 0 when FACT holds, 1 when it does not.\n" },
  { "trace",
    "usage: gdl trace FILE... [--moves 'M1 M2 ...'] [--does 'M ...']\n"
    "Shows forward chaining on the state reached by the moves, round by\n"
    "round: the strata in the order they are evaluated (static ones first,\n"
    "then those that depend on the state, then with --does those that\n"
    "depend on the moves), and in each the facts every rule derived, '+'\n"
    "for a new fact and '=' for one already known.  A recursive stratum\n"
    "runs in rounds until one adds nothing new (semi-naive evaluation).\n" },
  { "graph",
    "usage: gdl graph FILE... [--max-states N] [--plan] [--moves M]\n"
    "Writes the graph of the states reachable from the start (or from the\n"
    "state after --moves) in Graphviz DOT: each state a node labelled with\n"
    "its facts, each move an edge; the start has a double border, terminal\n"
    "states are boxes, green where the goal is 100 and red otherwise.\n"
    "  --plan          draw a shortest plan to goal 100 in bold red\n"
    "  --max-states N  stop after N states (default 2000; exit 3, and the\n"
    "                  states with moves to states left out are dashed)\n"
    "Render it with: gdl graph puzzle.kif | dot -Tsvg > puzzle.svg\n" },
  { "play",
    "usage: gdl play FILE... [--moves M]\n"
    "Plays the game in the terminal: shows the state (facts grouped by\n"
    "relation) and the numbered legal moves; type a number or a move.\n"
    "  u  undo the last move      h  hint: the first move of a shortest plan\n"
    "  r  restart                 q  quit          ?  this help\n"
    "With several roles you choose each role's move in turn (a role with a\n"
    "single legal move plays it by itself).  Reads one command per line,\n"
    "so it can be driven through a pipe.\n" },
  { "fmt",
    "usage: gdl fmt FILE [--check | --write] [--syntax kif|infix]\n"
    "Prints FILE in the canonical layout: every top-level form starts in\n"
    "column 1; a fact, or any form that is not a rule, is one line with\n"
    "single spaces; a rule is (<= HEAD on its first line and then each body\n"
    "literal on a line of its own, indented 4 spaces.  Keywords are written\n"
    "in lower case, other symbols as they are.  Comments are kept (inside a\n"
    "form, on lines of their own), and so is one blank line where forms were\n"
    "apart.  Formatting the output again changes nothing.  Only FILE is\n"
    "read, not the files it #includes, and only its syntax is checked:\n"
    "a syntax error prints the error and exits 2.  An infix file (.hrf,\n"
    ".gdl, --syntax infix) is laid out as infix: HEAD :- then each literal\n"
    "on a line of its own, indented 4 spaces, joined by &.\n"
    "  --check    print nothing; exit 0 when FILE is in the canonical\n"
    "             layout, else name its first line that differs and exit 1\n"
    "  --write    rewrite FILE in the canonical layout (when it differs)\n" },
  { "solve",
    "usage: gdl solve FILE... [--algorithm A] [--max-states N]\n"
    "                 [--max-seconds S] [--max-memory SIZE] [--engine E]\n"
    "                 [--prune | --no-prune] [--json] [--quiet]\n"
    "Finds a sequence of moves from the initial state to a terminal state\n"
    "where the goal is 100.  Prints the plan, one move per line, then a\n"
    "summary that says whether it is proven shortest.  Algorithms:\n"
    "  auto     (the default) astar, then gbfs, then dfs, each with a share\n"
    "           of the time: the first plan found\n"
    "  astar    A* with h_max, an estimate read off the rules: shortest\n"
    "  idastar  iterative deepening A*: shortest, little memory\n"
    "  gbfs     greedy best-first on FF's relaxed plan: some plan, fast\n"
    "  bfs, iddfs  blind: shortest;   dfs  blind: some plan\n"
    "--prune leaves out states from which goal 100 cannot be reached (the\n"
    "default of the informed searches), --no-prune keeps them.\n"
    "Exit 0 solved, 1 no plan exists (the best goal reachable is reported),\n"
    "3 a limit or Ctrl-C stopped the search.\n" },
};

static const char *help_for(const char *cmd)
{
  size_t i;
  for (i = 0; i < sizeof cmd_help / sizeof *cmd_help; i++)
    if (strcmp(cmd_help[i].cmd, cmd) == 0)
      return cmd_help[i].help;
  return NULL;
}

/* ---- argument parsing ------------------------------------------------- */

/* A count or a size with an optional suffix: k, M, G or T (and for sizes
 * kB, MiB, ...), each `base` times the one before: 10k states, 512M of
 * memory.  Without a suffix the number is times `plain`. */
static int parse_size(const char *opt, const char *s, double base,
                      double plain, double *out)
{
  static const char units[] = "kMGT";
  const char *u;
  char *end;
  double scale = plain;
  errno = 0;
  *out = strtod(s, &end);
  if (errno || end == s || *out < 0 || *out != *out)
    goto bad;
  if (*end) {
    u = strchr(units, *end == 'K' ? 'k' : *end);
    if (!u)
      goto bad;
    for (scale = base; u > units; u--)
      scale *= base;
    end++;
    if (base == 1024 && (strcmp(end, "B") == 0 || strcmp(end, "iB") == 0))
      end += strlen(end);
    if (*end)
      goto bad;
  }
  *out *= scale;
  if (*out >= 1.8e19)
    goto bad;
  return 0;
bad:
  return usage_error("%s needs a non-negative number with an optional "
                     "suffix k, M, G or T (as in %s), not '%s'", opt,
                     base == 1024 ? "512M or 2G" : "10k or 2M", s);
}

static int parse_number(const char *opt, const char *s, double *out)
{
  char *end;
  errno = 0;
  *out = strtod(s, &end);
  if (errno || end == s || *end || *out < 0)
    return usage_error("%s needs a non-negative number, not '%s'", opt, s);
  return 0;
}

static int parse_args(int argc, char **argv, opts_t *o)
{
  int i, rest = 0;
  const char *cmd = o->cmd;
  int takes_term = strcmp(cmd, "query") == 0 || strcmp(cmd, "explain") == 0;
  o->files = calloc((size_t)argc + 1, sizeof *o->files);
  if (!o->files)
    return usage_error("out of memory");
  for (i = 2; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    double d;
    if (rest || a[0] != '-' || a[1] == 0) {
      o->files[o->nfiles++] = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      rest = 1;
      continue;
    }
#define OPT(name) (strcmp(a, name) == 0)
    if (strcmp(cmd, "fmt") == 0 && !OPT("--check") && !OPT("--write") &&
        !OPT("-w") && !OPT("--syntax"))
      return usage_error("unknown option '%s' for 'gdl fmt' (see gdl fmt "
                         "--help)", a);
#define VALUE()                                                          \
    do {                                                                 \
      if (i + 1 >= argc)                                                 \
        return usage_error("%s needs a value", a);                       \
      v = argv[++i];                                                     \
    } while (0)
    if (OPT("--json")) {
      o->json = 1;
    } else if (OPT("--quiet") || OPT("-q")) {
      o->quiet = 1;
    } else if (OPT("--clean")) {
      o->clean = 1;
    } else if (OPT("--check") && strcmp(cmd, "fmt") == 0) {
      o->check = 1;
    } else if ((OPT("--write") || OPT("-w")) && strcmp(cmd, "fmt") == 0) {
      o->write = 1;
    } else if (OPT("--syntax")) {
      VALUE();
      if (strcmp(v, "infix") && strcmp(v, "kif"))
        return usage_error("--syntax is infix or kif, not '%s'", v);
      o->syntax = v;
    } else if (OPT("--engine")) {
      VALUE();
      if (strcmp(v, "auto") && strcmp(v, "ground") && strcmp(v, "interp"))
        return usage_error("--engine is auto, ground or interp, not '%s'", v);
      o->engine = v;
    } else if (OPT("--moves")) {
      VALUE();
      o->moves = v;
    } else if (OPT("--does")) {
      VALUE();
      o->does = v;
    } else if (OPT("--plan")) {
      o->plan = 1;
    } else if (OPT("--algorithm") || OPT("-a")) {
      VALUE();
      if (strcmp(v, "bfs") && strcmp(v, "iddfs") && strcmp(v, "dfs") &&
          strcmp(v, "astar") && strcmp(v, "idastar") && strcmp(v, "gbfs") &&
          strcmp(v, "auto"))
        return usage_error("--algorithm is auto, astar, idastar, gbfs, bfs, "
                           "iddfs or dfs, not '%s'", v);
      o->algorithm = v;
    } else if (OPT("--prune")) {
      o->prune = 1;
    } else if (OPT("--no-prune")) {
      o->prune = -1;
    } else if (OPT("--max-seconds")) {
      VALUE();
      if (parse_number(a, v, &o->max_seconds))
        return 2;
    } else if (OPT("--seconds")) {
      VALUE();
      if (parse_number(a, v, &o->seconds))
        return 2;
    } else if (OPT("--max-states")) {
      VALUE();
      if (parse_size(a, v, 1000, 1, &d))
        return 2;
      o->max_states = (unsigned long long)d;
    } else if (OPT("--max-memory")) {
      VALUE();
      if (parse_size(a, v, 1024, 1048576, &d))   /* plain: megabytes */
        return 2;
      o->max_memory = (size_t)d;
    } else if (OPT("--seed")) {
      VALUE();
      if (parse_number(a, v, &d))
        return 2;
      o->seed = strtoull(v, NULL, 10);
    } else if (OPT("--playouts")) {
      VALUE();
      if (parse_number(a, v, &d))
        return 2;
      o->playouts = (long)d;
    } else if (OPT("--max-steps")) {
      VALUE();
      if (parse_number(a, v, &d))
        return 2;
      o->max_steps = (long)d;
    } else {
      return usage_error("unknown option '%s' for 'gdl %s' (see gdl %s "
                         "--help)", a, cmd, cmd);
    }
#undef OPT
#undef VALUE
  }
  if (takes_term) {
    if (o->nfiles < 2)
      return usage_error("'gdl %s' needs FILE... and a %s (see gdl %s "
                         "--help)", cmd, strcmp(cmd, "query") ? "FACT"
                                                               : "TERM", cmd);
    o->term = o->files[--o->nfiles];
  }
  if (strcmp(cmd, "fmt") == 0 && o->nfiles > 1)
    return usage_error("'gdl fmt' takes one FILE, not %d (see gdl fmt "
                       "--help)", o->nfiles);
  if (o->check && o->write)
    return usage_error("'gdl fmt' takes --check or --write, not both");
  if (o->nfiles == 0 && strcmp(cmd, "fmt") == 0)
    return usage_error("'gdl fmt' needs a FILE (see gdl fmt --help)");
  if (o->nfiles == 0)
    return usage_error("'gdl %s' needs at least one FILE (see gdl %s "
                       "--help)", cmd, cmd);
  return 0;
}

/* ---- commands --------------------------------------------------------- */

static char **state_text(gdl_ctx *ctx, const gdl_state *s)
{
  return terms_text(ctx, s->facts, s->n);
}


static int cmd_check(gdl_ctx *ctx, const opts_t *o)
{
  int rc = load(ctx, o);
  if (rc)
    return rc;
  if (!gdl_is_game(ctx) && !o->quiet)
    fprintf(stderr, "%s: note: %s\n", o->files[0], gdl_not_game_reason(ctx));
  return 0;
}

static void print_goals_json(gdl_ctx *ctx)
{
  size_t r, k = gdl_role_count(ctx);
  printf("\"goals\": {");
  for (r = 0; r < k; r++) {
    long g = gdl_goal(ctx, r);
    if (r)
      printf(", ");
    json_str(gdl_term_str(ctx, gdl_role(ctx, r)));
    if (g >= 0)
      printf(": %ld", g);
    else
      printf(": null");
  }
  printf("}");
}

static void print_legal_json(gdl_ctx *ctx)
{
  size_t r, k = gdl_role_count(ctx), n, i;
  const gdl_term *mv;
  printf("\"legal\": {");
  for (r = 0; r < k; r++) {
    if (r)
      printf(", ");
    json_str(gdl_term_str(ctx, gdl_role(ctx, r)));
    printf(": [");
    if (!gdl_terminal(ctx) && gdl_legal(ctx, r, &mv, &n) == GDL_OK)
      for (i = 0; i < n; i++) {
        if (i)
          printf(", ");
        json_str(gdl_term_str(ctx, mv[i]));
      }
    printf("]");
  }
  printf("}");
}

static void print_json(gdl_ctx *ctx, const gdl_state *s)
{
  size_t r, k = gdl_role_count(ctx);
  char **facts = state_text(ctx, s);
  uint32_t i;
  printf("{\"roles\": [");
  for (r = 0; r < k; r++) {
    if (r)
      printf(", ");
    json_str(gdl_term_str(ctx, gdl_role(ctx, r)));
  }
  printf("], ");
  print_legal_json(ctx);
  printf(", \"state\": [");
  for (i = 0; facts && i < s->n; i++) {
    if (i)
      printf(", ");
    json_str(facts[i]);
  }
  printf("], \"terminal\": %s, ", gdl_terminal(ctx) ? "true" : "false");
  print_goals_json(ctx);
  printf("}\n");
  free_text(facts, s->n);
}

static int cmd_legal(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state s = { 0, 0, NULL };
  size_t r, k, n, i;
  const gdl_term *mv;
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)) || (rc = replay(ctx, o, &s)))
    return rc;
  if (o->json) {
    print_json(ctx, &s);
    return 0;
  }
  k = gdl_role_count(ctx);
  if (gdl_terminal(ctx))
    printf("; the state is terminal: no moves\n");
  for (r = 0; r < k && !gdl_terminal(ctx); r++) {
    char *role = strdup(gdl_term_str(ctx, gdl_role(ctx, r)));
    if (gdl_legal(ctx, r, &mv, &n) != GDL_OK) {
      free(role);
      return fail(ctx, GDL_EINPUT);
    }
    if (n == 0)
      printf("; %s has no legal move\n", role);
    for (i = 0; i < n; i++)
      printf("%s %s\n", role, gdl_term_str(ctx, mv[i]));
    free(role);
  }
  return 0;
}

static int cmd_state(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state s = { 0, 0, NULL };
  size_t r, k, n, i;
  const gdl_term *vals;
  char **facts;
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)) || (rc = replay(ctx, o, &s)))
    return rc;
  if (o->json) {
    print_json(ctx, &s);
    return 0;
  }
  facts = state_text(ctx, &s);
  for (i = 0; facts && i < s.n; i++)
    printf("(true %s)\n", facts[i]);
  free_text(facts, s.n);
  printf("terminal: %s\n", gdl_terminal(ctx) ? "yes" : "no");
  k = gdl_role_count(ctx);
  for (r = 0; r < k; r++) {
    printf("goal %s:", gdl_term_str(ctx, gdl_role(ctx, r)));
    if (gdl_goals(ctx, r, &vals, &n) == GDL_OK)
      for (i = 0; i < n; i++)
        printf(" %s", gdl_term_str(ctx, vals[i]));
    if (n == 0)
      printf(" none");
    printf("\n");
  }
  return 0;
}

typedef struct {
  gdl_ctx *ctx;
  int json;
  size_t count;
} answers_t;

static int print_answer(void *arg, gdl_term t)
{
  answers_t *a = arg;
  if (a->json) {
    printf(a->count ? ", " : "");
    json_str(gdl_term_str(a->ctx, t));
  } else {
    printf("%s\n", gdl_term_str(a->ctx, t));
  }
  a->count++;
  return 0;
}

static int cmd_query(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state s = { 0, 0, NULL };
  gdl_term q;
  gdl_status st;
  answers_t a = { ctx, o->json, 0 };
  int rc = load(ctx, o);
  if (rc)
    return rc;
  if (gdl_is_game(ctx) && (rc = replay(ctx, o, &s)))
    return rc;
  if (!gdl_is_game(ctx) && o->moves) {
    fprintf(stderr, "gdl: --moves needs a game: %s\n",
            gdl_not_game_reason(ctx));
    return 2;
  }
  if ((st = gdl_parse_term(ctx, o->term, 1, &q)) != GDL_OK)
    return fail(ctx, st);
  if (o->json) {
    printf("{\"query\": ");
    json_str(o->term);
    printf(", \"answers\": [");
  }
  if ((st = gdl_query(ctx, q, print_answer, &a)) != GDL_OK)
    return fail(ctx, st);
  if (o->json)
    printf("], \"count\": %zu}\n", a.count);
  if (a.count == 0 && gdl_role_note(ctx, q))
    fprintf(stderr, "gdl: no answers: %s\n", gdl_role_note(ctx, q));
  return 0;
}

static int cmd_playout(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  uint64_t x = o->seed ? o->seed : 1;
  long p, step, K = o->playouts ? o->playouts : 1;
  long M = o->max_steps ? o->max_steps : 200;
  size_t k, r, n, i;
  gdl_term *joint;
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)))
    return rc;
  k = gdl_role_count(ctx);
  joint = calloc(k + 1, sizeof *joint);
  for (p = 1; p <= K; p++) {
    printf("playout %ld\n", p);
    if (gdl_initial(ctx, &s) != GDL_OK)
      return fail(ctx, GDL_EINPUT);
    for (step = 0;; step++) {
      char **facts;
      const gdl_term *vals, *mv;
      gdl_status st;
      printf("step %ld\n", step);
      if ((st = gdl_set_state(ctx, &s)) != GDL_OK)
        return fail(ctx, st);
      facts = state_text(ctx, &s);
      for (i = 0; facts && i < s.n; i++)
        printf("true %s\n", facts[i]);
      free_text(facts, s.n);
      printf("terminal %s\n", gdl_terminal(ctx) ? "yes" : "no");
      for (r = 0; r < k; r++) {
        char **txt;
        printf("goal %s", gdl_term_str(ctx, gdl_role(ctx, r)));
        gdl_goals(ctx, r, &vals, &n);
        txt = terms_text(ctx, vals, n);
        for (i = 0; i < n; i++)
          printf(" %s", txt[i]);
        free_text(txt, (uint32_t)n);
        printf("\n");
      }
      if (gdl_terminal(ctx)) {
        printf("end terminal\n");
        break;
      }
      /* legal moves sorted by their text, as the reference sorts them */
      {
        int nolegal = -1;
        for (r = 0; r < k; r++) {
          char **txt;
          gdl_legal(ctx, r, &mv, &n);
          txt = terms_text(ctx, mv, n);
          for (i = 0; i < n; i++)
            printf("legal %s %s\n", gdl_term_str(ctx, gdl_role(ctx, r)),
                   txt[i]);
          free_text(txt, (uint32_t)n);
          if (n == 0 && nolegal < 0)
            nolegal = (int)r;
        }
        if (nolegal >= 0) {
          printf("end nolegal %s\n", gdl_term_str(ctx, gdl_role(ctx, (size_t)nolegal)));
          break;
        }
      }
      if (step >= M) {
        printf("end maxsteps\n");
        break;
      }
      for (r = 0; r < k; r++) {
        char **txt;
        size_t pick;
        gdl_legal(ctx, r, &mv, &n);
        txt = terms_text(ctx, mv, n);
        pick = gdl_random(&x, n);
        for (i = 0; i < n; i++)
          if (strcmp(gdl_term_str(ctx, mv[i]), txt[pick]) == 0)
            joint[r] = mv[i];
        printf("does %s %s\n", gdl_term_str(ctx, gdl_role(ctx, r)),
               txt[pick]);
        free_text(txt, (uint32_t)n);
      }
      {
        gdl_status st2 = gdl_next(ctx, joint, &nx);
        if (st2 != GDL_OK)
          return fail(ctx, st2);
      }
      gdl_state_copy(ctx, &s, &nx);
    }
  }
  free(joint);
  return 0;
}

/* gdl bench's time: up once secs have passed since start, the clock read
 * every 1024 states and playouts (done), not at each: a read can cost
 * more than a tic-tac-toe step (150 ns on a VM). */
typedef struct {
  double start, secs;
  unsigned long long check;
  int up;
} bench_clock_t;

static int time_up(bench_clock_t *c, unsigned long long done)
{
  if (!c->up && done >= c->check) {
    c->check = done + 1024;
    c->up = now() - c->start >= c->secs;
  }
  return c->up;
}

static int cmd_bench(gdl_ctx *ctx, const opts_t *o, double t0)
{
  gdl_state init = { 0, 0, NULL };
  uint64_t x = o->seed ? o->seed : 1;
  double secs = o->seconds > 0 ? o->seconds : 5, setup, start, el;
  unsigned long long states = 0, playouts = 0;
  bench_clock_t clk = { 0, 0, 0, 0 };
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)))
    return rc;
  start = now();
  setup = (start - t0) * 1000.0;
  clk.start = start;
  clk.secs = secs;
  while (!interrupted && (o->playouts ? playouts < (unsigned long long)
                                                  o->playouts
                                       : !time_up(&clk, states + playouts))) {
    size_t steps = 0, n;
    int over = 0;
    gdl_status st;
    if (!init.facts)
      gdl_initial(ctx, &init);
    if ((st = gdl_set_state(ctx, &init)) != GDL_OK)
      return fail(ctx, st);
    /* 10,000 steps at most, in runs of 64 between looks at the time (a
     * playout may never end) */
    while (!over && steps < 10000) {
      if (steps && !o->playouts && time_up(&clk, states + playouts))
        break;
      st = gdl_random_steps(ctx, &x, 10000 - steps < 64 ? 10000 - steps : 64,
                            &n, &over);
      if (st != GDL_OK)
        return fail(ctx, st);
      steps += n;
      states += n;
    }
    playouts++;
  }
  el = now() - start;
  {
    size_t rules, inputs, props = gdl_ground_size(ctx, &rules, &inputs);
    if (!o->json && props)
      printf("%s: ground network: %zu propositions, %zu rules, %zu inputs\n",
             o->files[0], props, rules, inputs);
    else if (!o->json && gdl_engine_note(ctx)[0])
      printf("%s: not grounded: %s\n", o->files[0], gdl_engine_note(ctx));
  }
  if (o->json)
    printf("{\"file\": \"%s\", \"engine\": \"%s\", \"states_per_second\": "
           "%.1f, \"playouts_per_second\": %.2f, \"setup_ms\": %.2f, "
           "\"states\": %llu, \"playouts\": %llu, \"seconds\": %.3f}\n",
           o->files[0], gdl_engine_name(ctx), states / el, playouts / el,
           setup, states, playouts, el);
  else
    printf("%s: %.0f states/s, %.1f playouts/s, set-up %.1f ms (engine "
           "%s; %llu states, %llu playouts in %.2f s)\n", o->files[0],
           states / el, playouts / el, setup, gdl_engine_name(ctx), states,
           playouts, el);
  return 0;
}

/* ---- solve ------------------------------------------------------------ */

typedef struct {
  int live;                   /* stderr is a terminal and not --quiet */
  int shown;
} progress_t;

static void show_progress(void *arg, const gdl_progress *p)
{
  progress_t *pr = arg;
  if (!pr->live)
    return;
  fprintf(stderr, "\r\033[K%s  %s %u  expanded %llu  generated %llu  "
          "%.0f states/s  %.1f MB", p->algorithm,
          strcmp(p->algorithm, "gbfs") == 0 ? "estimate"
          : strcmp(p->algorithm, "astar") == 0 ||
                  strcmp(p->algorithm, "idastar") == 0 ? "bound"
                                                       : "depth",
          p->depth,
          (unsigned long long)p->expanded, (unsigned long long)p->generated,
          p->seconds > 0 ? (double)p->expanded / p->seconds : 0.0,
          (double)p->memory / 1048576.0);
  pr->shown = 1;
}

static int cmd_solve(gdl_ctx *ctx, const opts_t *o)
{
  static const char *const status_name[] = { "solved", "unsolvable",
                                             "limit" };
  gdl_solve_opts so;
  gdl_solve_result res;
  progress_t pr = { 0, 0 };
  gdl_status st;
  size_t k, i;
  char step[4096];
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)))
    return rc;
  memset(&so, 0, sizeof so);
  for (so.algorithm = GDL_BFS; so.algorithm < GDL_AUTO; so.algorithm++)
    if (o->algorithm && strcmp(o->algorithm,
                               gdl_algorithm_name(so.algorithm)) == 0)
      break;                    /* none named: auto */
  so.prune = o->prune;
  so.max_states = o->max_states;
  so.max_seconds = o->max_seconds;
  pr.live = !o->quiet && isatty(2);
  so.progress = show_progress;
  so.progress_arg = &pr;
  st = gdl_solve(ctx, &so, &res);
  if (pr.shown)
    fprintf(stderr, "\r\033[K");
  if (st != GDL_OK)
    return fail(ctx, st);
  k = gdl_role_count(ctx);
  if (o->json) {
    printf("{\"status\": \"%s\", \"length\": ", status_name[res.status]);
    if (res.status == GDL_LIMIT)
      printf("null");
    else
      printf("%zu", res.length);
    printf(", \"goal\": ");
    if (res.goal >= 0)
      printf("%ld", res.goal);
    else
      printf("null");
    printf(", \"plan\": [");
    for (i = 0; i < res.length && res.plan; i++) {
      step_text(ctx, res.plan + i * k, k, step, sizeof step);
      printf(i ? ", " : "");
      json_str(step);
    }
    printf("], \"expanded\": %llu, \"generated\": %llu, \"stored\": %llu, "
           "\"depth\": %u, \"seconds\": %.3f, \"peak_memory_bytes\": %zu, "
           "\"bytes_per_state\": %.1f, \"algorithm\": \"%s\", "
           "\"optimal\": %s, \"pruned\": %llu, \"estimate\": %u, "
           "\"latches\": %u",
           (unsigned long long)res.expanded,
           (unsigned long long)res.generated,
           (unsigned long long)res.stored, res.depth, res.seconds,
           res.peak_memory, res.bytes_per_state,
           gdl_algorithm_name(res.found_by),
           res.optimal ? "true" : "false",
           (unsigned long long)res.pruned, res.estimate, res.latches);
    if (res.status == GDL_LIMIT) {
      printf(", \"limit\": ");
      json_str(res.why);
    }
    printf("}\n");
  } else {
    for (i = 0; i < res.length && res.plan; i++) {
      step_text(ctx, res.plan + i * k, k, step, sizeof step);
      printf("%s\n", step);
    }
    if (res.status == GDL_SOLVED)
      printf("; solved: %zu move%s, goal 100, %s (%s)", res.length,
             res.length == 1 ? "" : "s",
             res.optimal ? "shortest" : "not proven shortest",
             gdl_algorithm_name(res.found_by));
    else if (res.status == GDL_UNSOLVABLE && res.goal >= 0)
      printf("; unsolvable: no terminal state with goal 100 is reachable; "
             "the best goal reachable is %ld (the plan above)", res.goal);
    else if (res.status == GDL_UNSOLVABLE)
      printf("; unsolvable: no terminal state with a goal is reachable");
    else
      printf("; limit: %s after searching depth %u completely", res.why,
             res.depth);
    printf("; %llu states expanded, %llu generated, %.3f s, %.1f MB peak\n",
           (unsigned long long)res.expanded,
           (unsigned long long)res.generated, res.seconds,
           (double)res.peak_memory / 1048576.0);
  }
  return res.status == GDL_SOLVED ? 0 : res.status == GDL_UNSOLVABLE ? 1 : 3;
}

/* ---- cat -------------------------------------------------------------- */

/* Every file of the description, includes too, as one KIF text: an
 * `;#include` line becomes a plain comment, since what it names follows. */
static int cmd_cat(gdl_ctx *ctx, const opts_t *o)
{
  size_t i, n = 0;
  int rc;
  if (o->syntax) {           /* the forms, written again in that syntax */
    const char *text;
    gdl_status st = GDL_OK;
    for (rc = 0; rc < o->nfiles && st == GDL_OK; rc++)
      st = gdl_load_file(ctx, o->files[rc]);
    if (st == GDL_OK)
      st = gdl_write(ctx, strcmp(o->syntax, "infix") == 0 ? GDL_SYNTAX_INFIX
                                                          : GDL_SYNTAX_KIF,
                     &text, &n);
    if (st != GDL_OK)
      return fail(ctx, st);
    return fwrite(text, 1, n, stdout) == n ? 0 : 2;
  }
  if ((rc = load(ctx, o)) != 0)
    return rc;
  for (i = 0; i < gdl_file_count(ctx); i++)
    if (gdl_file_syntax(ctx, i) == GDL_SYNTAX_INFIX) {
      /* standard KIF is asked for: an infix file is written as KIF */
      const char *text;
      gdl_status st = gdl_write(ctx, GDL_SYNTAX_KIF, &text, &n);
      if (st != GDL_OK)
        return fail(ctx, st);
      return fwrite(text, 1, n, stdout) == n ? 0 : 2;
    }
  printf(";;;; One description made by gdl cat from:");
  for (i = 0; i < gdl_file_count(ctx); i++)
    printf(" %s", gdl_file_name(ctx, i));
  printf("\n");
  for (i = 0; i < gdl_file_count(ctx); i++) {
    const char *t = gdl_file_text(ctx, i, &n), *p = t, *end = t + n;
    printf("\n;;;; ---- %s ----\n", gdl_file_name(ctx, i));
    while (p < end) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
      if (len >= 9 && memcmp(p, ";#include", 9) == 0)
        printf(";;;; (included here:%.*s)\n", (int)(len - 9), p + 9);
      else
        printf("%.*s\n", (int)len, p);
      p += len + 1;
    }
  }
  return 0;
}

/* ---- fmt -------------------------------------------------------------- */

/* The line of `a` (from 1) where a and b first differ. */
static size_t first_difference(const char *a, size_t na, const char *b,
                               size_t nb)
{
  size_t i, line = 1;
  for (i = 0; i < na && i < nb && a[i] == b[i]; i++)
    line += a[i] == '\n';
  return line;
}

/* Replaces the file by text: written beside it, then renamed over it (over
 * the file a symbolic link names), with the file's permissions.  0, or 2
 * with a message. */
static int rewrite(const char *path, const char *text, size_t len)
{
  char *real = realpath(path, NULL), *tmp = NULL;
  const char *slash;
  struct stat st;
  int fd = -1, err = 0;
  FILE *f;
  if (!real || stat(real, &st) != 0) {
    err = errno;
    goto done;
  }
  slash = strrchr(real, '/');
  if (!(tmp = malloc(strlen(real) + 32))) {
    err = ENOMEM;
    goto done;
  }
  sprintf(tmp, "%.*s.gdl-fmt-XXXXXX", slash ? (int)(slash - real + 1) : 0,
          real);
  if ((fd = mkstemp(tmp)) < 0) {
    err = errno;
    goto done;
  }
  if (fchmod(fd, st.st_mode & 07777) != 0 || !(f = fdopen(fd, "wb"))) {
    err = errno;
    close(fd);
  } else {
    errno = 0;
    if (fwrite(text, 1, len, f) != len)
      err = errno ? errno : EIO;
    if (fclose(f) != 0 && !err)
      err = errno;
    if (!err && rename(tmp, real) != 0)
      err = errno;
  }
  if (err)
    remove(tmp);
done:
  if (err)
    fprintf(stderr, "gdl: cannot write %s: %s\n", path, strerror(err));
  free(tmp);
  free(real);
  return err ? 2 : 0;
}

static int cmd_fmt(gdl_ctx *ctx, const opts_t *o)
{
  const char *text, *was;
  size_t len, waslen;
  gdl_status st = gdl_format(ctx, o->files[0], &text, &len);
  if (st != GDL_OK)
    return fail(ctx, st);
  was = gdl_file_text(ctx, gdl_file_count(ctx) - 1, &waslen);
  if (o->check) {
    if (len == waslen && memcmp(text, was, len) == 0)
      return 0;
    fprintf(stderr, "%s:%zu: not formatted: gdl fmt would change this "
            "line\n", o->files[0], first_difference(was, waslen, text, len));
    return 1;
  }
  if (o->write)
    return len == waslen && memcmp(text, was, len) == 0
               ? 0
               : rewrite(o->files[0], text, len);
  if (fwrite(text, 1, len, stdout) != len)
    return 2;
  return 0;
}

/* ---- main ------------------------------------------------------------- */

int main(int argc, char **argv)
{
  opts_t o;
  gdl_ctx *ctx;
  const char *help;
  int rc;
  double t0 = now();
  memset(&o, 0, sizeof o);
  if (argc < 2) {
    fputs(main_help, stderr);
    return 2;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
      strcmp(argv[1], "help") == 0) {
    if (argc > 2 && (help = help_for(argv[2])) != NULL)
      fputs(help, stdout);
    else
      fputs(main_help, stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("gdl %s\n", GDL_VERSION);
    return 0;
  }
  o.cmd = argv[1];
  help = help_for(o.cmd);
  if (!help)
    return usage_error("unknown command '%s' (see gdl --help)", o.cmd);
  if (argc > 2 && (strcmp(argv[2], "--help") == 0 ||
                   strcmp(argv[2], "-h") == 0)) {
    fputs(help, stdout);
    return 0;
  }
  if ((rc = parse_args(argc, argv, &o)) != 0) {
    free(o.files);
    return rc;
  }
  ctx = gdl_new();
  if (!ctx) {
    free(o.files);
    return usage_error("out of memory");
  }
  if (o.max_memory)
    gdl_set_memory_limit(ctx, o.max_memory);
  if (o.syntax && strcmp(o.cmd, "cat") != 0)
    gdl_set_syntax(ctx, strcmp(o.syntax, "infix") == 0 ? GDL_SYNTAX_INFIX
                                                       : GDL_SYNTAX_KIF);
  signal(SIGINT, on_sigint);
  gdl_set_interrupt(ctx, &interrupted);
  if (strcmp(o.cmd, "check") == 0)
    rc = cmd_check(ctx, &o);
  else if (strcmp(o.cmd, "legal") == 0)
    rc = cmd_legal(ctx, &o);
  else if (strcmp(o.cmd, "state") == 0)
    rc = cmd_state(ctx, &o);
  else if (strcmp(o.cmd, "query") == 0)
    rc = cmd_query(ctx, &o);
  else if (strcmp(o.cmd, "playout") == 0)
    rc = cmd_playout(ctx, &o);
  else if (strcmp(o.cmd, "bench") == 0)
    rc = cmd_bench(ctx, &o, t0);
  else if (strcmp(o.cmd, "solve") == 0)
    rc = cmd_solve(ctx, &o);
  else if (strcmp(o.cmd, "cat") == 0)
    rc = cmd_cat(ctx, &o);
  else if (strcmp(o.cmd, "explain") == 0)
    rc = cmd_explain(ctx, &o);
  else if (strcmp(o.cmd, "trace") == 0)
    rc = cmd_trace(ctx, &o);
  else if (strcmp(o.cmd, "graph") == 0)
    rc = cmd_graph(ctx, &o);
  else if (strcmp(o.cmd, "play") == 0)
    rc = cmd_play(ctx, &o);
  else if (strcmp(o.cmd, "fmt") == 0)
    rc = cmd_fmt(ctx, &o);
  else
    rc = usage_error("'%s' is not implemented yet", o.cmd);
  gdl_free(ctx);
  free(o.files);
  fflush(stdout);
  return rc;
}
