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

#include "cli/cli.h"

/* ---- options ---------------------------------------------------------- */


static volatile int interrupted;

static void on_sigint(int sig)
{
  (void)sig;
  interrupted = 1;
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
    fputs(cli_main_help, stderr);
    return 2;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
      strcmp(argv[1], "help") == 0) {
    if (argc > 2 && (help = cli_help_for(argv[2])) != NULL)
      fputs(help, stdout);
    else
      fputs(cli_main_help, stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("gdl %s\n", GDL_VERSION);
    return 0;
  }
  o.cmd = argv[1];
  help = cli_help_for(o.cmd);
  if (!help)
    return usage_error("unknown command '%s' (see gdl --help)", o.cmd);
  if (argc > 2 && (strcmp(argv[2], "--help") == 0 ||
                   strcmp(argv[2], "-h") == 0)) {
    fputs(help, stdout);
    return 0;
  }
  if ((rc = cli_parse(argc, argv, &o)) != 0) {
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
