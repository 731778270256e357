/*
 * cli_args.c - the gdl command's help texts and its options parsed: the
 * part of the command line that build/gdl and build/gdl-mpi share.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* ---- help ------------------------------------------------------------- */

const char cli_main_help[] =
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
    "                 [--prune | --no-prune] [--threads N] [--json]\n"
    "                 [--fewest-first] [--no-stubborn] [--no-counter]\n"
    "                 [--shorten | --no-shorten] [--quiet]\n"
    "Finds a sequence of moves from the initial state to a terminal state\n"
    "where the goal is 100.  Prints the plan, one move per line, then a\n"
    "summary that says whether it is proven shortest.  Algorithms:\n"
    "  auto     (the default) astar, bfs, dfs, gbfs, each with a share of\n"
    "           the time: the first plan found, made shorter if it can be\n"
    "  astar    A* on estimates read off the rules: shortest\n"
    "  idastar  iterative deepening A*: shortest, little memory\n"
    "  gbfs     greedy best-first on FF's relaxed plan: some plan, fast\n"
    "  bfs, iddfs  blind: shortest;   dfs  blind: some plan\n"
    "--prune leaves out states from which goal 100 cannot be reached (the\n"
    "default of the informed searches), --no-prune keeps them.\n"
    "--fewest-first: dfs expands first, of a state's new successors, the\n"
    "one with the fewest moves (Warnsdorff's rule for knight's tours).\n"
    "--no-stubborn: search every legal move; by default every search but\n"
    "bfs searches only a stubborn set's where the rules allow (moves that\n"
    "commute, as a sudoku's do), which keeps a shortest plan.\n"
    "--no-counter: store the fluents of a step counter with each state; by\n"
    "default every search but iddfs and idastar leaves them out where only\n"
    "terminal reads them, so that a board reached by more moves is not\n"
    "searched again, which keeps a shortest plan.\n"
    "--shorten: a plan not proven shortest is made shorter by a search of\n"
    "its neighbourhood, for up to half as long as the search took (at\n"
    "least 1 s); auto does so by default, --no-shorten not.\n"
    "--threads N: bfs searches on N threads (default: one per core), and\n"
    "astar, gbfs and pruning estimate on them; the same plan and counts\n"
    "as on one.\n"
    "Exit 0 solved, 1 no plan exists (the best goal reachable is reported),\n"
    "3 a limit or Ctrl-C stopped the search.\n" },
};

const char *cli_help_for(const char *cmd)
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

int cli_parse(int argc, char **argv, opts_t *o)
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
      gdl_algorithm alg;
      VALUE();
      if (gdl_algorithm_parse(v, &alg) != 0)
        return usage_error("--algorithm is auto, astar, idastar, gbfs, bfs, "
                           "iddfs or dfs, not '%s'", v);
      o->algorithm = v;
    } else if (OPT("--prune")) {
      o->prune = 1;
    } else if (OPT("--no-prune")) {
      o->prune = -1;
    } else if (OPT("--fewest-first")) {
      o->fewest_first = 1;
    } else if (OPT("--no-stubborn")) {
      o->stubborn = -1;
    } else if (OPT("--no-counter")) {
      o->counter = -1;
    } else if (OPT("--shorten")) {
      o->shorten = 1;
    } else if (OPT("--no-shorten")) {
      o->shorten = -1;
    } else if (OPT("--threads")) {
      VALUE();
      if (parse_size(a, v, 1000, 1, &d))
        return 2;
      if (d < 1 || d > 64)
        return usage_error("--threads is a number from 1 to 64, not '%s'", v);
      o->threads = (unsigned)d;
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

