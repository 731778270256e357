/*
 * cli.h - what the parts of the gdl command share: the command table
 * (cli_commands.c: a row per command, which main in cli.c, the help and
 * the option checks read), the options (cli_args.c), loading, replaying
 * --moves, error reporting and output helpers (cli_util.c), and the
 * commands themselves (cli_file.c, cli_game.c, cli_solve.c,
 * cli_teach.c).  The command sees only gdl.h of the library.
 */
#ifndef GDL_CLI_H
#define GDL_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gdl.h"

typedef struct cli_command cli_command;

/* The values of an option that may be given several times, in order. */
#define CLI_LIST_MAX 32
typedef struct {
  const char *v[CLI_LIST_MAX];
  int n;
} cli_list;

typedef struct {
  const cli_command *command; /* the command's row */
  const char **files;
  int nfiles;
  const char *moves;          /* --moves */
  const char *term;           /* the TERM of query / explain */
  int json, quiet, clean;
  int strict;                 /* --strict: warnings make the exit status 2 */
  const char *algorithm;      /* solve */
  int prune;                  /* solve: --prune 1, --no-prune -1 */
  int fewest_first;           /* solve: --fewest-first */
  int stubborn;               /* solve: --no-stubborn: -1 */
  int counter;                /* solve: --no-counter: -1 */
  unsigned long long pdb_entries;  /* solve: --pdb-entries (0: default) */
  int pdb;                    /* solve: --no-pdb: -1 */
  const char *pdb_cache;      /* solve: --pdb-cache DIR (NULL: none) */
  int shorten;                /* solve: --shorten 1, --no-shorten -1 */
  int cooperate;              /* solve: --cooperate (a game planned as a
                                 puzzle for the first role) */
  unsigned threads;           /* --threads (0: not given) */
  const char *engine;         /* --engine auto|ground|interp */
  double max_seconds;
  double seconds;             /* bench */
  unsigned long long max_states;
  size_t max_memory;          /* bytes */
  unsigned long long seed;
  long playouts, max_steps;
  const char *does;           /* --does: one move per role (explain, trace) */
  int plan;                   /* --plan (graph) */
  int check, write;           /* fmt --check, --write */
  const char *syntax;         /* --syntax infix|kif: how to read the files
                                 (cat: the syntax to write) */
  double started;             /* now() when main began (bench's set-up) */
  cli_list against;           /* play --against ROLE=KIND */
  double think;               /* play --think: seconds a computer move */
  cli_list players;           /* match --player ROLE=URL */
  double startclock, playclock;   /* match: the clocks in seconds */
  const char *record;         /* match --record FILE.json */
  long port;                  /* player --port (0: 9147; -1: any free) */
  const char *listen;         /* player --listen ADDR (NULL: 127.0.0.1) */
} opts_t;

/* The sets of options a command takes (cli_command.options), each option
 * in one or more (cli_args.c).  Every command but fmt takes every option
 * but fmt's own and uses those it needs, as it always has. */
enum {
  CLI_OPTS_ALL = 1,           /* all but --check and --write */
  CLI_OPTS_FMT = 2            /* --check, --write, --syntax */
};

/* What sets a command's arguments and set-up apart (cli_command.flags). */
enum {
  CLI_ONE_FILE = 1,           /* exactly one FILE (fmt) */
  CLI_READS_ONLY = 2,         /* evaluates nothing: no engine is chosen */
  CLI_SYNTAX_WRITTEN = 4,     /* --syntax is the syntax to write, not the
                                 one to read the files in (cat) */
  CLI_NO_FILE = 8             /* takes no FILE (player) */
};

/* A row of the command table (cli_commands.c): all there is to know about
 * a command.  main finds the row by name and runs it; gdl --help lists
 * the rows' summaries, gdl help NAME and gdl NAME --help print its help;
 * cli_parse accepts only the options of its sets. */
struct cli_command {
  const char *name;
  int (*run)(gdl_ctx *ctx, const opts_t *o);   /* the exit status */
  unsigned options;           /* CLI_OPTS_ALL or CLI_OPTS_FMT */
  unsigned flags;             /* CLI_ONE_FILE, ... */
  const char *operand;        /* the argument after the FILEs ("TERM",
                                 "FACT", in o->term), or NULL */
  const char *summary;        /* its line of gdl --help, after the name:
                                 the arguments, what it does */
  const char *help;           /* the help of gdl help NAME */
};

/* cli_commands.c: the row of the command called name, or NULL; the
 * general help, listing every command, written to out. */
const cli_command *cli_command_named(const char *name);
void cli_main_help(FILE *out);

/* "gdl: MESSAGE" on stderr; returns 2, the exit status of bad usage. */
int usage_error(const char *fmt, ...);
/* Option opt's argument a, ROLE=VALUE (takes: its form, for the usage
 * error): the role's index, VALUE in *value; or -1, the error said (a
 * usage error, or the game's roles when ROLE is none of them). */
/* The threads a computer player searches on: --threads, else one per
 * core, or one where a number of rounds (--playouts) makes the moves
 * depend on the seed alone. */
unsigned cli_choose_threads(const opts_t *o);
int role_option(gdl_ctx *ctx, const char *opt, const char *takes,
                const char *a, const char **value);
/* Set by on_sigint, the SIGINT handler: the library stops (the flag is
 * handed to gdl_set_interrupt), and so does gdl bench. */
extern volatile int cli_interrupted;
void on_sigint(int sig);
double now(void);
/* Loads and compiles the files (and chooses the engine); 0, or the exit
 * status. */
int load(gdl_ctx *ctx, const opts_t *o);
/* 0 when the description is a game, else says why and returns 2. */
int need_game(gdl_ctx *ctx, const opts_t *o);
/* Reports a failed call (its diagnostics or message); the exit status. */
int fail(gdl_ctx *ctx, gdl_status st);
/* Sets *s to the state reached by --moves, and makes it current; 0 or the
 * exit status. */
int replay(gdl_ctx *ctx, const opts_t *o, gdl_state *s);
void json_str(const char *s);
/* Terms as text, sorted by their text (byte order); free_text frees. */
char **terms_text(gdl_ctx *ctx, const gdl_term *t, size_t n);
void free_text(char **v, uint32_t n);
/* One joint move as text: the roles' moves in role order, with spaces. */
void step_text(gdl_ctx *ctx, const gdl_term *mv, size_t k, char *buf,
               size_t len);

/* cli_args.c: the arguments after argv[1] (the command c, whose row says
 * which options it takes) parsed into o: 0, or the exit status. */
int cli_parse(int argc, char **argv, const cli_command *c, opts_t *o);

/* cli_solve.c: gdl solve; its options as gdl_solve's; the result printed
 * as text or JSON (json_extra, when not NULL, ends the JSON object: ", "
 * and more members), returning the exit status (0 solved, 1 unsolvable,
 * 3 a limit). */
int cmd_solve(gdl_ctx *ctx, const opts_t *o);
void solve_options(const opts_t *o, gdl_solve_opts *so);
int solve_report(gdl_ctx *ctx, const opts_t *o, const gdl_solve_result *res,
                 const char *json_extra);

/* cli_file.c: the commands on the description's files. */
int cmd_check(gdl_ctx *ctx, const opts_t *o);
int cmd_cat(gdl_ctx *ctx, const opts_t *o);
int cmd_fmt(gdl_ctx *ctx, const opts_t *o);

/* cli_game.c: the game's moves, states and facts, and random play. */
int cmd_legal(gdl_ctx *ctx, const opts_t *o);
int cmd_state(gdl_ctx *ctx, const opts_t *o);
int cmd_query(gdl_ctx *ctx, const opts_t *o);
int cmd_playout(gdl_ctx *ctx, const opts_t *o);
int cmd_bench(gdl_ctx *ctx, const opts_t *o);

/* cli_teach.c: the classroom's commands. */
int cmd_explain(gdl_ctx *ctx, const opts_t *o);
int cmd_trace(gdl_ctx *ctx, const opts_t *o);
int cmd_graph(gdl_ctx *ctx, const opts_t *o);
int cmd_play(gdl_ctx *ctx, const opts_t *o);

/* cli_player.c, cli_match.c: the GGP player (on libmicrohttpd) and the
 * match host (on libcurl); where gdl was built without the library, they
 * say so and exit 2. */
int cmd_player(gdl_ctx *ctx, const opts_t *o);
int cmd_match(gdl_ctx *ctx, const opts_t *o);

#endif
