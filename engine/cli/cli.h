/*
 * cli.h - what the parts of the gdl command share: the options (parsed by
 * cli.c), loading, replaying --moves, error reporting and output helpers
 * (cli_util.c), and the commands for the classroom (cli_teach.c: explain,
 * trace, graph, play), which cli.c calls.  The command sees only gdl.h of
 * the library.
 */
#ifndef GDL_CLI_H
#define GDL_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "gdl.h"

typedef struct {
  const char *cmd;
  const char **files;
  int nfiles;
  const char *moves;          /* --moves */
  const char *term;           /* the TERM of query / explain */
  int json, quiet, clean;
  const char *algorithm;      /* solve */
  int prune;                  /* solve: --prune 1, --no-prune -1 */
  int fewest_first;           /* solve: --fewest-first */
  int stubborn;               /* solve: --no-stubborn: -1 */
  int counter;                /* solve: --no-counter: -1 */
  int shorten;                /* solve: --shorten 1, --no-shorten -1 */
  unsigned threads;       /* solve --threads (0: one per core) */
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
} opts_t;

/* "gdl: MESSAGE" on stderr; returns 2, the exit status of bad usage. */
int usage_error(const char *fmt, ...);
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

/* cli_args.c: the help texts; the options after argv[1] (the command,
 * already in o->cmd) parsed into o: 0, or the exit status. */
extern const char cli_main_help[];
const char *cli_help_for(const char *cmd);
int cli_parse(int argc, char **argv, opts_t *o);

/* cli_solve.c: gdl solve; its options as gdl_solve's; the result printed
 * as text or JSON (json_extra, when not NULL, ends the JSON object: ", "
 * and more members), returning the exit status (0 solved, 1 unsolvable,
 * 3 a limit). */
int cmd_solve(gdl_ctx *ctx, const opts_t *o);
void solve_options(const opts_t *o, gdl_solve_opts *so);
int solve_report(gdl_ctx *ctx, const opts_t *o, const gdl_solve_result *res,
                 const char *json_extra);

int cmd_explain(gdl_ctx *ctx, const opts_t *o);
int cmd_trace(gdl_ctx *ctx, const opts_t *o);
int cmd_graph(gdl_ctx *ctx, const opts_t *o);
int cmd_play(gdl_ctx *ctx, const opts_t *o);

#endif
