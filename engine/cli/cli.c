/*
 * cli.c - the gdl command's main: finds the command's row in the table
 * (cli_commands.c), answers --help and --version, parses the options,
 * makes the context and runs the command.  It sees only gdl.h.
 *
 * Exit status (the contract in doc/gdl.1): 0 done or solved; 1 searched
 * everything and found no plan; 2 bad input or usage; 3 a limit stopped
 * the work.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int is_help(const char *arg)
{
  return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int main(int argc, char **argv)
{
  opts_t o;
  gdl_ctx *ctx;
  const cli_command *c;
  int rc;
  memset(&o, 0, sizeof o);
  o.started = now();
  if (argc < 2) {
    cli_main_help(stderr);
    return 2;
  }
  if (is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
    if (argc > 2 && (c = cli_command_named(argv[2])) != NULL)
      fputs(c->help, stdout);
    else
      cli_main_help(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("gdl %s\n", GDL_VERSION);
    return 0;
  }
  if (!(c = cli_command_named(argv[1])))
    return usage_error("unknown command '%s' (see gdl --help)", argv[1]);
  if (argc > 2 && is_help(argv[2])) {
    fputs(c->help, stdout);
    return 0;
  }
  if ((rc = cli_parse(argc, argv, c, &o)) != 0) {
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
  if (o.syntax && !(c->flags & CLI_SYNTAX_WRITTEN))
    gdl_set_syntax(ctx, strcmp(o.syntax, "infix") == 0 ? GDL_SYNTAX_INFIX
                                                       : GDL_SYNTAX_KIF);
  signal(SIGINT, on_sigint);
  gdl_set_interrupt(ctx, &cli_interrupted);
  rc = c->run(ctx, &o);
  gdl_free(ctx);
  free(o.files);
  fflush(stdout);
  return rc;
}
