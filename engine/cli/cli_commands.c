/*
 * cli_commands.c - the command table: a row per command of gdl, in the
 * order gdl --help lists them, with its name, the function that runs it,
 * the options it takes, its arguments, its line of gdl --help and its
 * help (struct cli_command in cli.h).  main (cli.c), the help and the
 * option checks (cli_args.c) read the table and nothing else, so a new
 * command is its function and a row here.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* name, run, options, flags, operand; its line of gdl --help (the
 * arguments, what it does; the columns kept by hand); its help. */
static const cli_command commands[] = {
  { "check", cmd_check, CLI_OPTS_ALL, CLI_READS_ONLY, NULL,
    "FILE...               check a description; print warnings and errors",
    "usage: gdl check FILE... [--clean] [--strict] [--quiet]\n"
    "Checks a GDL description: syntax, keywords, arities, safety of rules,\n"
    "stratified negation, the recursion restriction, and that a game defines\n"
    "role, legal, goal and terminal.  Warns about likely slips: a relation\n"
    "read but never defined, or defined but never read when its name is near\n"
    "a keyword or a relation read ('did you mean'), a variable written once\n"
    "near another of its rule.  Prints nothing and exits 0 when clean;\n"
    "prints warnings and exits 0 when there are only warnings; prints errors\n"
    "(FILE:LINE:COL, the line and a caret) and exits 2 otherwise.\n"
    "  --clean    read (not (distinct A B)) as A = B, as ggp-base does\n"
    "  --strict   warnings are errors: exit 2 when there is any (every\n"
    "             command that reads a description takes it)\n"
    "  --quiet    no note that a plain rule base is not a game\n" },
  { "solve", cmd_solve, CLI_OPTS_ALL, 0, NULL,
    "FILE... [options]     find a plan (shortest with bfs and iddfs)",
    "usage: gdl solve FILE... [--algorithm A] [--max-states N]\n"
    "                 [--max-seconds S] [--max-memory SIZE] [--engine E]\n"
    "                 [--prune | --no-prune] [--threads N] [--json]\n"
    "                 [--fewest-first] [--no-stubborn] [--no-counter]\n"
    "                 [--shorten | --no-shorten] [--no-pdb]\n"
    "                 [--pdb-entries N] [--pdb-cache DIR] [--cooperate]\n"
    "                 [--max-steps K] [--quiet]\n"
    "Finds a sequence of moves from the initial state to a terminal state\n"
    "where the goal is 100.  Prints the plan, one move per line, then a\n"
    "summary: whether the plan is proven shortest, the search that found\n"
    "it or proved that none exists, and the states it expanded and\n"
    "generated (summed, and each search's listed, where several ran).\n"
    "A game of several roles gets its value instead: each role's goal\n"
    "under perfect play, the line of perfect play, and how it was proven\n"
    "(minimax, backward induction, or where roles move at once each\n"
    "role's pure-strategy security value); --cooperate plans for all\n"
    "roles together toward the first role's goal 100, as for a puzzle.\n"
    "Algorithms:\n"
    "  auto     (the default) astar, bfs, dfs, gbfs, each with a share of\n"
    "           the time, bfs beside astar's glance and sat beside them\n"
    "           on a puzzle of constraints (a second core): the first\n"
    "           plan found, made shorter if it can be\n"
    "  astar    A* on estimates read off the rules: shortest\n"
    "  idastar  iterative deepening A*: shortest, little memory\n"
    "  gbfs     greedy best-first on FF's relaxed plan: some plan, fast\n"
    "  bfs, iddfs  blind: shortest;   dfs  blind: some plan\n"
    "  value    each role's goal under perfect play (in a game of\n"
    "           several roles, what auto runs)\n"
    "  sat      planning as satisfiability (CaDiCaL), horizons 0, 1, 2, ...:\n"
    "           shortest; no plan of k steps or fewer at each\n"
    "           (--max-steps K: horizons up to K; where gdl was built\n"
    "           without libcadical-dev it says so and exits 2)\n"
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
    "--no-pdb: no pattern databases; by default astar and idastar add to\n"
    "their estimate the distances of a few groups of fluents at once (the\n"
    "tiles of a sliding puzzle), each table of at most --pdb-entries N\n"
    "placements (default 1M, a byte each; without it, IDA* builds them\n"
    "16 times bigger once it has searched 16 times as long as they took),\n"
    "built in at most a quarter of the time limit.\n"
    "--pdb-cache DIR: each table built is written to DIR (made if missing),\n"
    "and a later run whose table would be exactly the same (the same\n"
    "abstract game: groups, values, goal, moves; another start of the same\n"
    "puzzle has it) reads it instead; a file that does not match is built\n"
    "again; a DIR that cannot be written is a warning.\n"
    "--shorten: a plan not proven shortest is made shorter by a search of\n"
    "its neighbourhood, for up to half as long as the search took (at\n"
    "least 1 s); auto does so by default, --no-shorten not.\n"
    "--threads N: bfs searches on N threads (default: one per core), and\n"
    "astar, gbfs and pruning estimate on them; the same plan and counts\n"
    "as on one; with 1 auto runs no search beside its turns.\n"
    "--max-seconds S: the whole command ends within S seconds (and 10%),\n"
    "set-up included: grounding that would take longer is cut there and\n"
    "the interpreter kept.\n"
    "--quiet: no progress line (shown on standard error while it is a\n"
    "terminal); the plan and the summary are printed as without it.\n"
    "Exit 0 solved (a game: its value proven), 1 no plan exists (the best\n"
    "goal reachable is reported), 3 a limit or Ctrl-C stopped the search.\n" },
  { "legal", cmd_legal, CLI_OPTS_ALL, 0, NULL,
    "FILE... [--moves M]   the legal moves after the moves M",
    "usage: gdl legal FILE... [--moves 'M1 M2 ...'] [--json]\n"
    "Prints the legal moves of each role in the state reached from the\n"
    "initial state by the moves.  With k roles each step takes k moves in\n"
    "role order.  Moves are KIF terms: noop, (move dog tree well).\n" },
  { "state", cmd_state, CLI_OPTS_ALL, 0, NULL,
    "FILE... [--moves M]   the true facts after the moves M",
    "usage: gdl state FILE... [--moves 'M1 M2 ...'] [--json]\n"
    "Prints the true facts of the state reached by the moves, whether it is\n"
    "terminal, and each role's goal.\n" },
  { "query", cmd_query, CLI_OPTS_ALL, 0, "TERM",
    "FILE... [--moves M] TERM  every instance of TERM that holds",
    "usage: gdl query FILE... [--moves 'M1 M2 ...'] [--json] TERM\n"
    "Prints every instance of TERM that holds, one per line, sorted, in the\n"
    "syntax of the description (infix for an infix file; --json in KIF);\n"
    "variables are written ?x (or X in infix).  Examples: '(legal ?r ?m)',\n"
    "'(ancestor ?x ?y)'.  Works on plain rule bases that are not games too.\n"
    "A relation that depends on the moves (next) has no answers here:\n"
    "gdl explain --does asks it after a move.\n" },
  { "playout", cmd_playout, CLI_OPTS_ALL, 0, NULL,
    "FILE... [--seed S]    random playouts, every step printed",
    "usage: gdl playout FILE... [--seed S] [--playouts K] [--max-steps M]\n"
    "                   [--engine E]\n"
    "Plays K random playouts (default 1) of at most M steps (default 200)\n"
    "and prints every state, legal move set, goal and chosen move in the\n"
    "trace format of doc/engine.md (the differential tests compare it with\n"
    "a Prolog reference).\n" },
  { "bench", cmd_bench, CLI_OPTS_ALL, 0, NULL,
    "FILE... [--seconds S] random playouts: states per second",
    "usage: gdl bench FILE... [--seconds S] [--playouts N] [--seed N]\n"
    "                 [--engine E] [--json]\n"
    "Random playouts from the initial state: states per second, playouts\n"
    "per second, set-up time.  The whole command, set-up included, ends\n"
    "within S seconds (default 5) and 10%; the grounding attempt gets at\n"
    "most half of them (all with --engine ground), the playouts the rest.\n"
    "A playout the time cuts is not counted, its states are.  With\n"
    "--playouts N and no --seconds, N playouts whatever the time: the same\n"
    "work every run, to compare builds by instruction counts (valgrind\n"
    "--tool=callgrind).\n"
    "Ctrl-C prints the counts so far and exits 3.\n" },
  { "cat", cmd_cat, CLI_OPTS_ALL, CLI_READS_ONLY | CLI_SYNTAX_WRITTEN, NULL,
    "FILE... [--syntax S]  the description as one KIF (or infix) file",
    "usage: gdl cat FILE... [--syntax kif|infix]\n"
    "Writes the description (the files and the files they #include) as one\n"
    "standard KIF file that other GGP tools can read: KIF files as they\n"
    "are, infix ones written as KIF.  With --syntax, the files (KIF or\n"
    "infix, by their names' endings) are only parsed, not checked, and\n"
    "written again in that syntax, each in its canonical layout with its\n"
    "comments: --syntax infix turns KIF into infix GDL, --syntax kif infix\n"
    "into KIF.\n" },
  { "play", cmd_play, CLI_OPTS_ALL, 0, NULL,
    "FILE... [--against R=K] play it in the terminal, or against the computer",
    "usage: gdl play FILE... [--moves M]\n"
    "                [--against ROLE=mcts|perfect|random]...\n"
    "                [--think S | --playouts N] [--seed N] [--threads N]\n"
    "Plays the game in the terminal: shows the state (facts grouped by\n"
    "relation) and the numbered legal moves; type a number or a move.\n"
    "  u  undo the last move      h  hint: the first move of a shortest plan\n"
    "  r  restart                 q  quit          ?  this help\n"
    "With several roles you choose each role's move in turn (a role with a\n"
    "single legal move plays it by itself).  Reads one command per line,\n"
    "so it can be driven through a pipe.\n"
    "  --against ROLE=mcts|perfect|random  the computer plays ROLE (the\n"
    "             option may be given once per role): mcts, Monte Carlo tree\n"
    "             search, takes a proven win and avoids a proven loss;\n"
    "             perfect, the game's value from each state (gdl solve's)\n"
    "             and a move of perfect play, mcts where it is not proven\n"
    "             in half the time; random, a legal move at random.  u\n"
    "             undoes back to your last choice.\n"
    "  --think S  seconds the computer thinks a move (default 1)\n"
    "  --playouts N  rounds of search a move instead (the same moves for\n"
    "             the same --seed and --threads)\n"
    "  --threads N  mcts searches N trees at once, one a thread, and adds\n"
    "             up their counts (default: one per core; one with\n"
    "             --playouts)\n" },
  { "player", cmd_player, CLI_OPTS_ALL, CLI_NO_FILE, NULL,
    "[--port N]            a GGP player over HTTP (the GGP protocol)",
    "usage: gdl player [--port N] [--listen ADDR] [--seed N] [--threads N]\n"
    "                  [--max-memory SIZE] [--quiet]\n"
    "Serves the GGP protocol over HTTP, as a player for ggp-base's\n"
    "GameServer, Stanford's Gamemaster or gdl match: INFO, PING, PREVIEW,\n"
    "START, PLAY, STOP and ABORT (HTTP POST, or GET with the message as\n"
    "the path; keywords in any case).  START brings the rules as KIF; each\n"
    "PLAY is answered with a move chosen by Monte Carlo tree search within\n"
    "the play clock less a margin (a tenth of it, at least 1 s), and\n"
    "with a legal move whatever happens.  One match at a time: a START\n"
    "during a match gets busy.  Each connection has a thread: a STOP or\n"
    "ABORT that comes while a PLAY thinks stops the search, the PLAY\n"
    "answers at once and the STOP after it.  A malformed message gets an\n"
    "error reply (HTTP 400, \"error: ...\") and the player goes on; a\n"
    "connection silent for 30 s is closed.  Prints the address it listens\n"
    "on, then a line per message on stderr; runs until interrupted\n"
    "(Ctrl-C).  doc/ggp.md tells more.\n"
    "  --port N      the TCP port (default 9147; 0: any free one)\n"
    "  --listen ADDR the address to listen on (default 127.0.0.1, the\n"
    "                loopback; 0.0.0.0 or :: for every interface)\n"
    "  --seed N      the search's seed\n"
    "  --threads N   trees searched at once, one a thread (default: one\n"
    "                per core)\n"
    "  --max-memory SIZE  the memory of each match's game\n"
    "  --quiet       no line per message\n" },
  { "match", cmd_match, CLI_OPTS_ALL, CLI_ONE_FILE, NULL,
    "FILE --player R=URL.. host a match between GGP players",
    "usage: gdl match FILE --player ROLE=URL... [--startclock S]\n"
    "                 [--playclock P] [--record F.json] [--json] [--seed N]\n"
    "Hosts a match of the game FILE as a GGP game manager: sends START to\n"
    "each role's player (one --player ROLE=URL per role, e.g.\n"
    "--player xplayer=http://127.0.0.1:9147/), then PLAY with the last\n"
    "joint move (nil first) until the game ends, then STOP.  A move that is\n"
    "late (past the play clock and a second of grace), missing or illegal\n"
    "is replaced by a random legal move and recorded as an error.  Prints\n"
    "each turn and the goals; --record writes the match record as JSON\n"
    "(roles, players, moves, per-turn times and errors, goals; doc/ggp.md),\n"
    "--json prints it.  Exit 0 when the match was played to its end.\n"
    "  --startclock S  seconds for START (default 10)\n"
    "  --playclock P   seconds for each move (default 5)\n"
    "  --seed N        the replacement moves' random seed\n"
    "  --max-steps M   stop after M joint moves (exit 3)\n" },
  { "explain", cmd_explain, CLI_OPTS_ALL, 0, "FACT",
    "FILE... [--moves M] FACT  why FACT holds, or why not",
    "usage: gdl explain FILE... [--moves 'M1 M2 ...'] [--does 'M ...'] FACT\n"
    "Says why FACT holds in the state reached by the moves: a proof tree,\n"
    "each fact with the rule that derived it (FILE:LINE) and the facts of\n"
    "that rule's body indented below it, down to the true facts of the\n"
    "state.  When FACT does not hold, it shows for each rule whose head\n"
    "matches which literal of its body fails, and what held before it; a\n"
    "failed literal that other rules derive gets the same, one level down.\n"
    "FACT may have variables (?x): each instance that holds is explained,\n"
    "in sorted order.  Facts, rules and FACT are written in the syntax of\n"
    "the file (infix for an infix file), with the variables' own names.\n"
    "  --does M   one move per role played in that state, to explain facts\n"
    "             that depend on the moves: (next ...), (does ...)\n"
    "Exit 0 when FACT holds, 1 when it does not.\n" },
  { "trace", cmd_trace, CLI_OPTS_ALL, 0, NULL,
    "FILE... [--moves M]   forward chaining, round by round",
    "usage: gdl trace FILE... [--moves 'M1 M2 ...'] [--does 'M ...']\n"
    "Shows forward chaining on the state reached by the moves, round by\n"
    "round: the strata in the order they are evaluated (static ones first,\n"
    "then those that depend on the state, then with --does those that\n"
    "depend on the moves), and in each the facts every rule derived, sorted,\n"
    "'+' for a new fact and '=' for one already known.  A recursive stratum\n"
    "runs in rounds until one adds nothing new (semi-naive evaluation).\n"
    "Rules and facts are written in the syntax of the file.\n" },
  { "graph", cmd_graph, CLI_OPTS_ALL, 0, NULL,
    "FILE... [--plan]      the reachable states as Graphviz DOT",
    "usage: gdl graph FILE... [--max-states N] [--plan] [--moves M]\n"
    "Writes the graph of the states reachable from the start (or from the\n"
    "state after --moves) in Graphviz DOT: each state a node labelled with\n"
    "its facts, each move an edge; the start has a double border, terminal\n"
    "states are boxes, green where the goal is 100 and red otherwise.\n"
    "  --plan          draw a shortest plan to goal 100 in bold red\n"
    "  --max-states N  stop after N states (default 2000; exit 3, and the\n"
    "                  states with moves to states left out are dashed)\n"
    "Render it with: gdl graph puzzle.kif | dot -Tsvg > puzzle.svg\n" },
  { "fmt", cmd_fmt, CLI_OPTS_FMT, CLI_ONE_FILE, NULL,
    "FILE [--check|--write] the file in the canonical layout",
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
};

const cli_command *cli_command_named(const char *name)
{
  size_t i;
  for (i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

/* ---- gdl --help ------------------------------------------------------- */

static const char help_head[] =
  "usage: gdl COMMAND FILE... [OPTIONS]\n"
  "\n"
  "gdl reads game descriptions written in GDL (the Game Description Language\n"
  "of General Game Playing), checks them, computes legal moves and next\n"
  "states by forward chaining, and solves puzzles by search.  Several FILEs\n"
  "form one description.\n"
  "\n"
  "commands:\n";

static const char help_tail[] =
  "\n"
  "Commands that evaluate take --engine auto|ground|interp (default auto:\n"
  "the grounded engine where the game fits, else the interpreter) and\n"
  "--clean (read (not (distinct A B)) as A = B).  FILEs ending in .hrf or\n"
  ".gdl are infix GDL (legal(R, m) :- true(p(R)) & ~q), the others KIF;\n"
  "--syntax infix|kif says which, whatever the ending.\n"
  "Run 'gdl COMMAND --help' for a command's options.\n"
  "exit status: 0 done, 1 no plan exists, 2 bad input or usage, 3 a limit\n"
  "(states, memory, time, Ctrl-C) stopped the work.\n";

void cli_main_help(FILE *out)
{
  size_t i;
  fputs(help_head, out);
  for (i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fputs(help_tail, out);
}
