/*
 * cli_solve.c - gdl solve: the options given to gdl_solve, the progress
 * line, and the plan and summary printed (as text, or as the library's
 * JSON, gdl_solve_json), for build/gdl and, with the ranks' counts,
 * build/gdl-mpi.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"


typedef struct {
  int live;                   /* stderr is a terminal and not --quiet */
  int shown;
} progress_t;

static void show_progress(void *arg, const gdl_progress *p)
{
  progress_t *pr = arg;
  gdl_algorithm a;
  if (!pr->live)
    return;
  fprintf(stderr, "\r\033[K%s  %s %u  expanded %llu  generated %llu  "
          "%.0f states/s  %.1f MB", p->algorithm,
          gdl_algorithm_parse(p->algorithm, &a) == 0 ? gdl_algorithm_label(a)
                                                     : "depth",
          p->depth,
          (unsigned long long)p->expanded, (unsigned long long)p->generated,
          p->seconds > 0 ? (double)p->expanded / p->seconds : 0.0,
          (double)p->memory / 1048576.0);
  pr->shown = 1;
}

void solve_options(const opts_t *o, gdl_solve_opts *so)
{
  memset(so, 0, sizeof *so);
  so->algorithm = GDL_AUTO;     /* none named: auto */
  gdl_algorithm_parse(o->algorithm, &so->algorithm);
  so->prune = o->prune;
  so->fewest_first = o->fewest_first;
  so->stubborn = o->stubborn;
  so->counter = o->counter;
  so->pdb = o->pdb;
  so->pdb_entries = o->pdb_entries;
  so->pdb_cache = o->pdb_cache;
  so->shorten = o->shorten;
  so->cooperate = o->cooperate;
  so->threads = o->threads;
  so->max_states = o->max_states;
  so->max_seconds = o->max_seconds;
  so->max_steps = o->max_steps > 0 ? (size_t)o->max_steps : 0;
}

/* The seconds left of --max-seconds, which counts from main's start. */
static double seconds_left(const opts_t *o)
{
  double left = o->max_seconds - (now() - o->started);
  return left > 1e-6 ? left : 1e-6;
}

/* --max-seconds S is the wall time of the whole command: the library's
 * time limit, set before the files are read, bounds the set-up (the
 * grounding attempt stops there, and the interpreter is kept), and the
 * search gets what is left. */
int cmd_solve(gdl_ctx *ctx, const opts_t *o)
{
  gdl_solve_opts so;
  gdl_solve_result res;
  progress_t pr = { 0, 0 };
  gdl_status st;
  int rc;
  if (o->max_seconds > 0)
    gdl_set_time_limit(ctx, seconds_left(o));
  rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)))
    return rc;
  solve_options(o, &so);
  if (o->max_seconds > 0)
    so.max_seconds = seconds_left(o);
  pr.live = !o->quiet && isatty(2);
  so.progress = show_progress;
  so.progress_arg = &pr;
  st = gdl_solve(ctx, &so, &res);
  if (pr.shown)
    fprintf(stderr, "\r\033[K");
  if (st != GDL_OK)
    return fail(ctx, st);
  if (res.pdb_cache_warning[0])  /* the solve went on without it */
    fprintf(stderr, "gdl: warning: --pdb-cache: %s (the tables are not "
            "kept)\n", res.pdb_cache_warning);
  if (res.status == GDL_LIMIT && o->max_seconds > 0 &&
      strncmp(res.why, "time limit", 10) == 0)
    snprintf(res.why, sizeof res.why, "time limit of %g s reached",
             o->max_seconds);
  return solve_report(ctx, o, &res, NULL);
}

/* What proved the puzzle unsolvable, and which search did: the summary's
 * first part. */
static void unsolvable_text(const gdl_solve_result *r)
{
  const char *by = gdl_algorithm_name(r->found_by);
  if (r->dead_start && strcmp(r->dead_start, "wins") == 0) {
    /* sat's one solve over a state of free fluents */
    printf("; unsolvable: no plan: no state is terminal with goal 100 (its "
           "fluents free, but for those latched at the start's value), "
           "proven by sat");
  } else if (r->dead_start) {
    /* no state expanded: an analysis of the rules proved it */
    const char *why =
        strcmp(r->dead_start, "h_max") == 0
            ? "h_max, the estimate of the relaxed game, is infinite"
        : strcmp(r->dead_start, "groups") == 0
            ? "the groups' estimate is infinite"
        : strcmp(r->dead_start, "latches") == 0
            ? "a latched fluent rules goal 100 out"
            : "the move budget: the moves still possible cannot last as "
              "long as the step counter demands";
    printf("; unsolvable: no plan: the start is a dead end (%s), proven by "
           "%s before any state was expanded (--no-prune searches anyway, "
           "for the best goal)", why, by);
  } else if (r->found_by == GDL_SAT) {
    /* no plan of depth steps or fewer, and no play lasts one step more */
    printf("; unsolvable: no plan of %u steps or fewer, and every play "
           "is over within %u steps, proven by sat", r->depth, r->depth);
  } else if (r->goal_bound && r->goal >= 0) {
    printf("; unsolvable: no terminal state with goal 100 is reachable, "
           "proven by %s; the best goal found is %ld (the plan above; a "
           "step counter was left out: --no-counter finds the best)", by,
           r->goal);
  } else if (r->goal_bound) {
    printf("; unsolvable: no terminal state with goal 100 is reachable, "
           "proven by %s (a step counter was left out: --no-counter finds "
           "the best goal)", by);
  } else if (r->goal >= 0) {
    printf("; unsolvable: no terminal state with goal 100 is reachable, "
           "proven by %s; the best goal reachable is %ld (the plan above)",
           by, r->goal);
  } else if (r->pruned) {
    printf("; unsolvable: no terminal state with goal 100 is reachable, "
           "proven by %s (dead ends were left out: --no-prune finds the "
           "best goal)", by);
  } else {
    printf("; unsolvable: no terminal state with a goal is reachable, "
           "proven by %s", by);
  }
}

/* A game's value (res->game): each role's, how it was found, or at a
 * limit what is proven so far. */
static void value_text(gdl_ctx *ctx, const gdl_solve_result *r)
{
  size_t k = gdl_role_count(ctx), i;
  if (r->status == GDL_SOLVED) {
    printf("; value: ");
    for (i = 0; i < k && i < 64; i++)
      printf("%s%s %ld", i ? ", " : "", gdl_term_str(ctx, gdl_role(ctx, i)),
             r->values[i]);
    if (r->simultaneous)
      printf(", proven: where roles move at once each role's pure-strategy "
             "security value (maximin: the most it can make sure of "
             "knowing the others' moves only afterwards)");
    else if (r->alphabeta)
      printf(", proven by alpha-beta (two roles, constant sum; the "
             "graph did not fit, a table of %llu states)",
             (unsigned long long)r->alphabeta);
    else if (r->constant_sum)
      printf(", proven by minimax over the graph (two roles, constant "
             "sum)");
    else
      printf(", proven by backward induction (among moves equal for the "
             "mover, the one that gives the others least in sum, then the "
             "first)");
    printf("; the line of perfect play above (%zu move%s)", r->length,
           r->length == 1 ? "" : "s");
  } else {
    if (r->alphabeta)
      printf("; limit: %s, searching by alpha-beta with a table of %llu "
             "states (the graph did not fit); not proven", r->why,
             (unsigned long long)r->alphabeta);
    else
      printf("; limit: %s, %llu states stored; not proven", r->why,
             (unsigned long long)r->stored);
    if (r->bound_role >= 0 && r->bound >= 0)
      printf(": %s can make sure of at least %ld (%u of its %u first moves "
             "searched to the end)",
             gdl_term_str(ctx, gdl_role(ctx, (size_t)r->bound_role)),
             r->bound, r->bound_searched, r->bound_moves);
    else
      printf(": nothing yet");
  }
}

int solve_report(gdl_ctx *ctx, const opts_t *o, const gdl_solve_result *r,
                 const char *json_extra)
{
  gdl_solve_result res = *r;
  size_t k, i;
  char step[4096];
  k = gdl_role_count(ctx);
  if (o->json) {
    /* the library's object, with gdl-mpi's members before its '}' */
    const char *text;
    size_t len;
    gdl_status st = gdl_solve_json(ctx, &res, &text, &len);
    if (st != GDL_OK)
      return fail(ctx, st);
    printf("%.*s%s}\n", (int)(len - 1), text, json_extra ? json_extra : "");
  } else {
    for (i = 0; i < res.length && res.plan; i++) {
      step_text(ctx, res.plan + i * k, k, step, sizeof step);
      printf("%s\n", step);
    }
    if (res.game) {
      value_text(ctx, &res);
    } else if (res.status == GDL_SOLVED) {
      printf("; solved: %zu move%s", res.length, res.length == 1 ? "" : "s");
      if (res.shortened_from)
        printf(" (%zu as found, made shorter)", res.shortened_from);
      printf(", goal 100, %s (%s)",
             res.optimal ? "shortest" : "not proven shortest",
             gdl_algorithm_name(res.found_by));
    } else if (res.status == GDL_UNSOLVABLE) {
      unsolvable_text(&res);
    } else if (res.found_by == GDL_SAT && res.expanded) {
      printf("; limit: %s; no plan of %u steps or fewer (sat)", res.why,
             res.depth);
    } else {
      printf("; limit: %s after searching depth %u completely", res.why,
             res.depth);
    }
    if (res.found_by == GDL_SAT && res.nsearches <= 1)  /* horizons, clauses */
      printf("; %llu horizons settled, %llu clauses, %.3f s, %.1f MB peak "
             "(the solver's memory not counted)",
             (unsigned long long)res.expanded,
             (unsigned long long)res.generated, res.seconds,
             (double)res.peak_memory / 1048576.0);
    else
      printf("; %llu states expanded, %llu generated, %.3f s, %.1f MB peak",
             (unsigned long long)res.expanded,
             (unsigned long long)res.generated, res.seconds,
             (double)res.peak_memory / 1048576.0);
    if (o->pdb_cache && res.patterns)
      printf("; %u pattern database%s (%u read from the cache)",
             res.patterns, res.patterns == 1 ? "" : "s",
             res.patterns_cached);
    if (res.nsearches > 1) {
      /* the counts above are sums: say over what */
      printf("; summed over the searches %s: ",
             !o->algorithm || strcmp(o->algorithm, "auto") == 0
                 ? "auto ran" : "run");
      for (i = 0; i < res.nsearches; i++)
        printf(strcmp(res.searches[i].name, "sat") == 0
                   ? (i ? ", %s beside them %llu horizons and %llu clauses" : "%s %llu horizons and %llu clauses")
                   : i ? ", %s %llu and %llu" : "%s %llu expanded and %llu generated",
               res.searches[i].name,
               (unsigned long long)res.searches[i].expanded,
               (unsigned long long)res.searches[i].generated);
    }
    putchar('\n');
  }
  return res.status == GDL_SOLVED ? 0 : res.status == GDL_UNSOLVABLE ? 1 : 3;
}

