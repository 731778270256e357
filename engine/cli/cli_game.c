/*
 * cli_game.c - the commands that ask the game: legal (the moves), state
 * (the facts, terminal, the goals), query (any relation, of a game or a
 * plain rule base), playout (random play, every step printed) and bench
 * (random play timed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static char **state_text(gdl_ctx *ctx, const gdl_state *s)
{
  return terms_text(ctx, s->facts, s->n);
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

static void print_state_json(gdl_ctx *ctx, const gdl_state *s)
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

int cmd_legal(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state s = { 0, 0, NULL };
  size_t r, k, n, i;
  const gdl_term *mv;
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)) || (rc = replay(ctx, o, &s)))
    return rc;
  if (o->json) {
    print_state_json(ctx, &s);
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

int cmd_state(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state s = { 0, 0, NULL };
  size_t r, k, n, i;
  const gdl_term *vals;
  char **facts;
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)) || (rc = replay(ctx, o, &s)))
    return rc;
  if (o->json) {
    print_state_json(ctx, &s);
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

/* An answer as text: in the description's syntax (infix for an infix
 * file), but in KIF in JSON, as every JSON gdl writes. */
static int print_answer(void *arg, gdl_term t)
{
  answers_t *a = arg;
  if (a->json) {
    printf(a->count ? ", " : "");
    json_str(gdl_term_str(a->ctx, t));
  } else {
    printf("%s\n", gdl_term_text(a->ctx, t, GDL_SYNTAX_AUTO));
  }
  a->count++;
  return 0;
}

int cmd_query(gdl_ctx *ctx, const opts_t *o)
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
  else if (a.count == 0 && gdl_depends_on_moves(ctx, q))
    fprintf(stderr, "gdl: no answers: %s depends on the moves, and query "
            "asks a state without them: gdl explain --does M asks it after "
            "a move\n", o->term);
  return 0;
}

int cmd_playout(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  uint64_t rng = o->seed ? o->seed : 1;
  long p, step, playouts = o->playouts ? o->playouts : 1;
  long max_steps = o->max_steps ? o->max_steps : 200;
  size_t k, r, n, i;
  gdl_term *joint;
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)))
    return rc;
  k = gdl_role_count(ctx);
  joint = calloc(k + 1, sizeof *joint);
  for (p = 1; p <= playouts; p++) {
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
      if (step >= max_steps) {
        printf("end maxsteps\n");
        break;
      }
      for (r = 0; r < k; r++) {
        char **txt;
        size_t pick;
        gdl_legal(ctx, r, &mv, &n);
        txt = terms_text(ctx, mv, n);
        pick = gdl_random(&rng, n);
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

/* gdl bench.  --seconds S (default 5) is the wall time of the whole
 * command, set-up included: the clock runs from main's start, and the
 * library's time limit (gdl_set_time_limit) stops the work soon after S
 * (doc/engine.md, "Limits"), in the middle of a derivation, of the
 * grounding or of a playout.  With --engine auto, the grounding attempt
 * gets at most half of S (and at most its own budget), so that the
 * playouts have the other half at least whichever engine runs them;
 * --engine ground gives it all of S.  A playout cut by the limit is not
 * counted; its states are.  The rates are over the playouts' time.
 * Ctrl-C stops it the same way: the counts so far, exit status 3. */
int cmd_bench(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state init = { 0, 0, NULL };
  uint64_t rng = o->seed ? o->seed : 1;
  double secs = o->seconds > 0 ? o->seconds : o->playouts ? 0 : 5;
  double setup, start, el;
  unsigned long long states = 0, playouts = 0;
  gdl_status st = GDL_OK;
  size_t props, rules, inputs;
  int rc;
  if (secs > 0) {
    double left = secs - (now() - o->started);
    gdl_set_time_limit(ctx, left > 1e-6 ? left : 1e-6);
    if ((!o->engine || strcmp(o->engine, "auto") == 0) &&
        gdl_ground_seconds(ctx) > secs / 2)
      gdl_set_ground_seconds(ctx, secs / 2);
  }
  rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)))
    return rc;
  start = now();
  setup = (start - o->started) * 1000.0;
  while (!o->playouts || playouts < (unsigned long long)o->playouts) {
    size_t n;
    int over = 0;
    if (!init.facts && (st = gdl_initial(ctx, &init)) != GDL_OK)
      break;
    if ((st = gdl_set_state(ctx, &init)) != GDL_OK)
      break;
    /* 10,000 steps at most: a playout may never end */
    st = gdl_random_steps(ctx, &rng, 10000, &n, &over);
    states += n;
    if (st != GDL_OK)
      break;
    playouts++;
  }
  el = now() - start;
  if (st != GDL_OK && !cli_interrupted &&
      strncmp(gdl_errmsg(ctx), "time limit", 10) != 0)
    return fail(ctx, st);      /* memory, or bad input */
  props = gdl_ground_size(ctx, &rules, &inputs);
  if (!o->json && props)
    printf("%s: ground network: %zu propositions, %zu rules, %zu inputs\n",
           o->files[0], props, rules, inputs);
  else if (!o->json && gdl_engine_note(ctx)[0])
    printf("%s: not grounded: %s\n", o->files[0], gdl_engine_note(ctx));
  if (o->json) {
    /* the network's size (0 when interpreted) and why not grounded, so a
     * table of every game (tests/bench_corpus.sh) needs one run a game */
    printf("{\"file\": \"%s\", \"engine\": \"%s\", \"states_per_second\": "
           "%.1f, \"playouts_per_second\": %.2f, \"setup_ms\": %.2f, "
           "\"states\": %llu, \"playouts\": %llu, \"seconds\": %.3f, "
           "\"propositions\": %zu, \"rules\": %zu, \"inputs\": %zu, "
           "\"engine_note\": ",
           o->files[0], gdl_engine_name(ctx), el > 0 ? states / el : 0,
           el > 0 ? playouts / el : 0, setup, states, playouts, el, props,
           rules, inputs);
    json_str(gdl_engine_note(ctx));
    printf("}\n");
  } else
    printf("%s: %.0f states/s, %.1f playouts/s, set-up %.1f ms (engine "
           "%s; %llu states, %llu playouts in %.2f s)\n", o->files[0],
           el > 0 ? states / el : 0, el > 0 ? playouts / el : 0, setup,
           gdl_engine_name(ctx), states, playouts, el);
  if (cli_interrupted) {
    fprintf(stderr, "gdl: interrupted\n");
    return 3;
  }
  return 0;
}
