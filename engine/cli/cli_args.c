/*
 * cli_args.c - the gdl command's options: a table with a row per option
 * (its names, the sets of commands that take it, the field of opts_t it
 * sets and how its value is read), and the arguments parsed against a
 * command's row (cli.h): the part of the command line that build/gdl and
 * build/gdl-mpi share.  Adding an option is a field of opts_t and a row.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* ---- values ----------------------------------------------------------- */

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

/* A value read into its field of opts_t: 0, or the exit status.  opt is
 * the option as given, for the message. */
typedef int value_reader(const char *opt, const char *value, void *field);

static int read_text(const char *opt, const char *v, void *field)
{
  (void)opt;
  *(const char **)field = v;
  return 0;
}

static int read_list(const char *opt, const char *v, void *field)
{
  cli_list *l = field;
  if (l->n == CLI_LIST_MAX)
    return usage_error("%s may be given at most %d times", opt, CLI_LIST_MAX);
  l->v[l->n++] = v;
  return 0;
}

static int read_port(const char *opt, const char *v, void *field)
{
  double d;
  if (parse_number(opt, v, &d))
    return 2;
  if (d > 65535 || d != (long)d)
    return usage_error("%s is a port from 0 to 65535, not '%s'", opt, v);
  *(long *)field = d == 0 ? -1 : (long)d;     /* -1: any free port */
  return 0;
}

static int read_syntax(const char *opt, const char *v, void *field)
{
  (void)opt;
  if (strcmp(v, "infix") && strcmp(v, "kif"))
    return usage_error("--syntax is infix or kif, not '%s'", v);
  *(const char **)field = v;
  return 0;
}

static int read_engine(const char *opt, const char *v, void *field)
{
  (void)opt;
  if (strcmp(v, "auto") && strcmp(v, "ground") && strcmp(v, "interp"))
    return usage_error("--engine is auto, ground or interp, not '%s'", v);
  *(const char **)field = v;
  return 0;
}

static int read_algorithm(const char *opt, const char *v, void *field)
{
  gdl_algorithm a;
  (void)opt;
  if (gdl_algorithm_parse(v, &a) != 0)
    return usage_error("--algorithm is auto, astar, idastar, gbfs, bfs, "
                       "iddfs, dfs, value or sat, not '%s'", v);
  *(const char **)field = v;
  return 0;
}

static int read_threads(const char *opt, const char *v, void *field)
{
  double d;
  if (parse_size(opt, v, 1000, 1, &d))
    return 2;
  if (d < 1 || d > 64)
    return usage_error("--threads is a number from 1 to 64, not '%s'", v);
  *(unsigned *)field = (unsigned)d;
  return 0;
}

static int read_seconds(const char *opt, const char *v, void *field)
{
  return parse_number(opt, v, (double *)field) ? 2 : 0;
}

static int read_state_count(const char *opt, const char *v, void *field)
{
  double d;
  if (parse_size(opt, v, 1000, 1, &d))
    return 2;
  *(unsigned long long *)field = (unsigned long long)d;
  return 0;
}

static int read_memory_size(const char *opt, const char *v, void *field)
{
  double d;
  if (parse_size(opt, v, 1024, 1048576, &d))   /* plain: megabytes */
    return 2;
  *(size_t *)field = (size_t)d;
  return 0;
}

static int read_seed(const char *opt, const char *v, void *field)
{
  double d;
  if (parse_number(opt, v, &d))
    return 2;
  *(unsigned long long *)field = strtoull(v, NULL, 10);
  return 0;
}

static int read_count(const char *opt, const char *v, void *field)
{
  double d;
  if (parse_number(opt, v, &d))
    return 2;
  *(long *)field = (long)d;
  return 0;
}

/* ---- the options ------------------------------------------------------ */

typedef struct {
  const char *name, *alias;   /* --quiet, and -q or NULL */
  unsigned sets;              /* the CLI_OPTS_ sets it is in */
  size_t field;               /* offsetof(opts_t, the field it sets) */
  value_reader *read;         /* reads its value; NULL: a flag */
  int flag;                   /* a flag's value in its int field */
} cli_option;

#define ALL CLI_OPTS_ALL
#define FMT CLI_OPTS_FMT
#define FIELD(field) offsetof(opts_t, field)
static const cli_option options[] = {
  { "--json", NULL, ALL, FIELD(json), NULL, 1 },
  { "--quiet", "-q", ALL, FIELD(quiet), NULL, 1 },
  { "--clean", NULL, ALL, FIELD(clean), NULL, 1 },
  { "--strict", NULL, ALL, FIELD(strict), NULL, 1 },
  { "--check", NULL, FMT, FIELD(check), NULL, 1 },
  { "--write", "-w", FMT, FIELD(write), NULL, 1 },
  { "--syntax", NULL, ALL | FMT, FIELD(syntax), read_syntax, 0 },
  { "--engine", NULL, ALL, FIELD(engine), read_engine, 0 },
  { "--moves", NULL, ALL, FIELD(moves), read_text, 0 },
  { "--does", NULL, ALL, FIELD(does), read_text, 0 },
  { "--plan", NULL, ALL, FIELD(plan), NULL, 1 },
  { "--algorithm", "-a", ALL, FIELD(algorithm), read_algorithm, 0 },
  { "--prune", NULL, ALL, FIELD(prune), NULL, 1 },
  { "--no-prune", NULL, ALL, FIELD(prune), NULL, -1 },
  { "--fewest-first", NULL, ALL, FIELD(fewest_first), NULL, 1 },
  { "--no-stubborn", NULL, ALL, FIELD(stubborn), NULL, -1 },
  { "--no-counter", NULL, ALL, FIELD(counter), NULL, -1 },
  { "--no-pdb", NULL, ALL, FIELD(pdb), NULL, -1 },
  { "--pdb-entries", NULL, ALL, FIELD(pdb_entries), read_state_count, 0 },
  { "--pdb-cache", NULL, ALL, FIELD(pdb_cache), read_text, 0 },
  { "--shorten", NULL, ALL, FIELD(shorten), NULL, 1 },
  { "--cooperate", NULL, ALL, FIELD(cooperate), NULL, 1 },
  { "--no-shorten", NULL, ALL, FIELD(shorten), NULL, -1 },
  { "--threads", NULL, ALL, FIELD(threads), read_threads, 0 },
  { "--max-seconds", NULL, ALL, FIELD(max_seconds), read_seconds, 0 },
  { "--seconds", NULL, ALL, FIELD(seconds), read_seconds, 0 },
  { "--max-states", NULL, ALL, FIELD(max_states), read_state_count, 0 },
  { "--max-memory", NULL, ALL, FIELD(max_memory), read_memory_size, 0 },
  { "--seed", NULL, ALL, FIELD(seed), read_seed, 0 },
  { "--playouts", NULL, ALL, FIELD(playouts), read_count, 0 },
  { "--max-steps", NULL, ALL, FIELD(max_steps), read_count, 0 },
  { "--against", NULL, ALL, FIELD(against), read_list, 0 },
  { "--think", NULL, ALL, FIELD(think), read_seconds, 0 },
  { "--player", NULL, ALL, FIELD(players), read_list, 0 },
  { "--startclock", NULL, ALL, FIELD(startclock), read_seconds, 0 },
  { "--playclock", NULL, ALL, FIELD(playclock), read_seconds, 0 },
  { "--record", NULL, ALL, FIELD(record), read_text, 0 },
  { "--port", NULL, ALL, FIELD(port), read_port, 0 },
  { "--listen", NULL, ALL, FIELD(listen), read_text, 0 },
};
#undef ALL
#undef FMT
#undef FIELD

static const cli_option *option_named(const char *arg)
{
  size_t i;
  for (i = 0; i < sizeof options / sizeof *options; i++)
    if (strcmp(options[i].name, arg) == 0 ||
        (options[i].alias && strcmp(options[i].alias, arg) == 0))
      return &options[i];
  return NULL;
}

/* ---- the arguments ---------------------------------------------------- */

/* Files and options in any order; after "--" only files; then the
 * command's operand (the last argument) and its count of FILEs. */
int cli_parse(int argc, char **argv, const cli_command *c, opts_t *o)
{
  int i, rc, rest = 0;
  const char *cmd = c->name;
  o->command = c;
  o->files = calloc((size_t)argc + 1, sizeof *o->files);
  if (!o->files)
    return usage_error("out of memory");
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    const cli_option *opt;
    if (rest || a[0] != '-' || a[1] == 0) {
      o->files[o->nfiles++] = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      rest = 1;
      continue;
    }
    opt = option_named(a);
    if (!opt || !(opt->sets & c->options))
      return usage_error("unknown option '%s' for 'gdl %s' (see gdl %s "
                         "--help)", a, cmd, cmd);
    if (!opt->read) {
      *(int *)((char *)o + opt->field) = opt->flag;
      continue;
    }
    if (i + 1 >= argc)
      return usage_error("%s needs a value", a);
    if ((rc = opt->read(a, argv[++i], (char *)o + opt->field)) != 0)
      return rc;
  }
  if (c->operand) {
    if (o->nfiles < 2)
      return usage_error("'gdl %s' needs FILE... and a %s (see gdl %s "
                         "--help)", cmd, c->operand, cmd);
    o->term = o->files[--o->nfiles];
  }
  if ((c->flags & CLI_ONE_FILE) && o->nfiles > 1)
    return usage_error("'gdl %s' takes one FILE, not %d (see gdl %s "
                       "--help)", cmd, o->nfiles, cmd);
  if (o->check && o->write)
    return usage_error("'gdl %s' takes --check or --write, not both", cmd);
  if (c->flags & CLI_NO_FILE) {
    if (o->nfiles)
      return usage_error("'gdl %s' takes no FILE: '%s' (see gdl %s --help)",
                         cmd, o->files[0], cmd);
    return 0;
  }
  if (o->nfiles == 0 && (c->flags & CLI_ONE_FILE))
    return usage_error("'gdl %s' needs a FILE (see gdl %s --help)", cmd,
                       cmd);
  if (o->nfiles == 0)
    return usage_error("'gdl %s' needs at least one FILE (see gdl %s "
                       "--help)", cmd, cmd);
  return 0;
}
