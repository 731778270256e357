/*
 * cli_teach.c - the commands for the classroom and for playing: explain,
 * trace, graph and play.  Like the rest of the command, it sees only
 * gdl.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The moves of --does: one per role; 0 or the exit status. */
static int parse_does(gdl_ctx *ctx, const opts_t *o, gdl_term **mv)
{
  size_t n = 0, k = gdl_role_count(ctx);
  gdl_status st;
  *mv = NULL;
  if (!o->does)
    return 0;
  if (!gdl_is_game(ctx)) {
    fprintf(stderr, "gdl: --does needs a game: %s\n",
            gdl_not_game_reason(ctx));
    return 2;
  }
  if ((st = gdl_parse_terms(ctx, "--does", o->does, 0, mv, &n)) != GDL_OK)
    return fail(ctx, st);
  if (n != k) {
    fprintf(stderr, "gdl: --does takes one move per role (%zu), not %zu\n",
            k, n);
    return 2;
  }
  if (gdl_terminal(ctx)) {
    fprintf(stderr, "gdl: --does: the state is terminal: no move can be "
            "played\n");
    return 2;
  }
  return 0;
}

/* Loads, replays --moves, reads --does; 0 or the exit status. */
static int teach_setup(gdl_ctx *ctx, const opts_t *o, gdl_term **does)
{
  gdl_state s = { 0, 0, NULL };
  int rc = load(ctx, o);
  if (rc)
    return rc;
  if (gdl_is_game(ctx)) {
    if ((rc = replay(ctx, o, &s)) != 0)
      return rc;
  } else if (o->moves) {
    fprintf(stderr, "gdl: --moves needs a game: %s\n",
            gdl_not_game_reason(ctx));
    return 2;
  }
  return parse_does(ctx, o, does);
}

/* ---- explain, trace --------------------------------------------------- */

int cmd_explain(gdl_ctx *ctx, const opts_t *o)
{
  gdl_term *does, fact;
  gdl_status st;
  const char *text;
  int holds, rc = teach_setup(ctx, o, &does);
  if (rc)
    return rc;
  if ((st = gdl_parse_term(ctx, o->term, 1, &fact)) != GDL_OK)
    return fail(ctx, st);
  if ((st = gdl_explain(ctx, fact, does, &holds, &text)) != GDL_OK)
    return fail(ctx, st);
  fputs(text, stdout);
  return holds ? 0 : 1;
}

int cmd_trace(gdl_ctx *ctx, const opts_t *o)
{
  gdl_term *does;
  gdl_status st;
  const char *text;
  int rc = teach_setup(ctx, o, &does);
  if (rc)
    return rc;
  if ((st = gdl_trace(ctx, does, &text)) != GDL_OK)
    return fail(ctx, st);
  fputs(text, stdout);
  return 0;
}

/* ---- graph ------------------------------------------------------------- */

/* The DOT text is made by the library (gdl_graph_dot), so that the
 * browser playground draws the same picture. */
int cmd_graph(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state s = { 0, 0, NULL };
  gdl_graph_info info;
  gdl_status st;
  const char *dot, *name = strrchr(o->files[0], '/');
  int rc = load(ctx, o);
  if (rc || (rc = need_game(ctx, o)) || (rc = replay(ctx, o, &s)))
    return rc;
  st = gdl_graph_dot(ctx, &s, name ? name + 1 : o->files[0],
                     o->max_states ? (size_t)o->max_states : 0, o->plan,
                     &dot, &info);
  if (st != GDL_OK) {
    rc = fail(ctx, st);
    goto out;
  }
  if (o->plan && !info.goal_found)
    fprintf(stderr, "gdl: graph: no state with goal 100 among the %u "
            "states: no plan to draw\n", info.states);
  fputs(dot, stdout);
  if (!info.complete) {
    fprintf(stderr, "gdl: graph: stopped at %u states (--max-states); the "
            "states with moves to states left out are dashed\n",
            info.states);
    rc = 3;
  }
out:
  gdl_state_release(ctx, &s);
  return rc;
}

/* ---- play ------------------------------------------------------------- */

static const char play_help[] =
  "Type the number of a move, or the move itself.  u undo, h hint (the\n"
  "first move of a shortest plan from here), r restart, q quit, ? help.\n";

/* The state's facts grouped by relation: "  rel: args | args". */
static void show_state(gdl_ctx *ctx, const gdl_state *s, size_t step)
{
  char **facts = terms_text(ctx, s->facts, s->n);
  uint32_t i;
  size_t lastlen = 0;
  const char *last = NULL;
  printf("\nState after %zu move%s:\n", step, step == 1 ? "" : "s");
  for (i = 0; facts && i < s->n; i++) {
    const char *f = facts[i], *name = f, *args = "";
    size_t len = strlen(f);
    if (f[0] == '(') {
      name = f + 1;
      len = strcspn(name, " )");
      args = name + len;
      if (*args == ' ')
        args++;
    }
    if (!last || len != lastlen || memcmp(last, name, len) != 0) {
      printf(last ? "\n  %.*s:" : "  %.*s:", (int)len, name);
      last = name;
      lastlen = len;
    } else if (*args) {
      printf(" |");
    }
    if (*args)
      printf(" %.*s", (int)(strlen(args) - (f[0] == '(')), args);
  }
  if (facts && s->n)
    printf("\n");
  if (s->n == 0)
    printf("  (no facts)\n");
  free_text(facts, s->n);
}

/* Reads one line into buf, trimmed; 0 at the end of input. */
static int read_line(char *buf, size_t len)
{
  size_t n;
  char *p = buf;
  if (!fgets(buf, (int)len, stdin))
    return 0;
  n = strlen(buf);
  if (n && buf[n - 1] != '\n') {      /* too long: drop the rest */
    int c;
    while ((c = getchar()) != EOF && c != '\n')
      ;
  }
  while (n && isspace((unsigned char)buf[n - 1]))
    buf[--n] = 0;
  while (isspace((unsigned char)*p))
    p++;
  memmove(buf, p, strlen(p) + 1);
  return 1;
}

/* The first move of a shortest plan from s for role r. */
static void show_hint(gdl_ctx *ctx, const gdl_state *s, size_t r)
{
  gdl_solve_opts so;
  gdl_solve_result res;
  memset(&so, 0, sizeof so);
  so.algorithm = GDL_BFS;
  so.max_seconds = 10;
  so.max_states = 5000000;
  so.start = s;
  if (gdl_solve(ctx, &so, &res) != GDL_OK) {
    printf("no hint: %s\n", gdl_errmsg(ctx));
  } else if (res.status == GDL_SOLVED && res.length > 0) {
    printf("hint: %s  (a shortest plan from here takes %zu move%s)\n",
           gdl_term_str(ctx, res.plan[r]), res.length,
           res.length == 1 ? "" : "s");
  } else if (res.status == GDL_UNSOLVABLE) {
    printf("no hint: goal 100 cannot be reached from here (every state "
           "reachable was searched); undo with u\n");
  } else {
    printf("no hint: the search stopped (%s) after %llu states\n", res.why,
           (unsigned long long)res.expanded);
  }
  gdl_set_state(ctx, s);
}

/* Each role's goal once the game is over, and what can be done. */
static void show_game_over(gdl_ctx *ctx)
{
  size_t r, k = gdl_role_count(ctx);
  printf("The game is over:");
  for (r = 0; r < k; r++) {
    long g = gdl_goal(ctx, r);
    printf("%s %s %s", r ? "," : "", gdl_term_str(ctx, gdl_role(ctx, r)),
           g >= 0 ? "" : "has no goal");
    if (g >= 0)
      printf("goal %ld", g);
  }
  printf(".%s\n", k == 1 && gdl_goal(ctx, 0) == 100 ? "  Solved!" : "");
  printf("u undo, r restart, q quit\n");
}

/* --against ROLE=KIND into comp[r] (-1: a person plays r); 0 or the exit
 * status. */
static int parse_against(gdl_ctx *ctx, const opts_t *o, int *comp)
{
  size_t k = gdl_role_count(ctx), r;
  int i;
  for (r = 0; r < k; r++)
    comp[r] = -1;
  for (i = 0; i < o->against.n; i++) {
    const char *a = o->against.v[i], *v;
    gdl_chooser kind;
    int ri = role_option(ctx, "--against", "ROLE=mcts, ROLE=perfect or "
                         "ROLE=random", a, &v);
    if (ri < 0)
      return 2;
    if (gdl_chooser_parse(v, &kind) != 0)
      return usage_error("--against %s: the computer plays mcts, perfect or "
                         "random, not '%s'", a, v);
    comp[ri] = (int)kind;
  }
  return 0;
}

/* The computer's move for role r in s into *t, said; 0 or the exit
 * status. */
static int computer_move(gdl_ctx *ctx, const opts_t *o, const gdl_state *s,
                         size_t r, int kind, size_t step, gdl_term *t)
{
  gdl_choose_opts co;
  gdl_choose_info info;
  gdl_status st;
  memset(&co, 0, sizeof co);
  co.kind = (gdl_chooser)kind;
  co.seed = o->seed + step * 1000003u + r;
  co.playouts = o->playouts > 0 ? (uint64_t)o->playouts : 0;
  co.seconds = o->think > 0 ? o->think : o->playouts > 0 ? 0 : 1;
  co.threads = cli_choose_threads(o);
  if ((st = gdl_choose_move(ctx, s, r, &co, t, &info)) != GDL_OK)
    return fail(ctx, st);
  printf("%s plays ", gdl_term_str(ctx, gdl_role(ctx, r)));
  printf("%s", gdl_term_str(ctx, *t));
  if (co.kind == GDL_CHOOSE_PERFECT && info.proven && !info.playouts) {
    printf("  (perfect: %llu states in %.2f s, goal %ld under perfect play)",
           (unsigned long long)info.nodes, info.seconds, info.proven_goal);
  } else if (co.kind != GDL_CHOOSE_RANDOM && info.playouts) {
    printf("  (%s%s: %llu playouts in %.2f s",
           co.kind == GDL_CHOOSE_PERFECT ? "perfect not proven in time; " : "",
           gdl_chooser_name(GDL_CHOOSE_MCTS),
           (unsigned long long)info.playouts, info.seconds);
    if (info.proven)
      printf(", proven: goal %ld", info.proven_goal);
    else if (info.value >= 0)
      printf(", expects goal %.0f", info.value);
    printf(")");
  } else if (co.kind != GDL_CHOOSE_RANDOM) {
    printf("  (its only move)");
  } else {
    printf("  (%s)", gdl_chooser_name(co.kind));
  }
  printf("\n");
  return 0;
}

/* 1 when a person has a choice in s (more than one legal move). */
static int person_chooses(gdl_ctx *ctx, const gdl_state *s, const int *comp)
{
  size_t r, n, k = gdl_role_count(ctx);
  const gdl_term *mv;
  if (gdl_set_state(ctx, s) != GDL_OK)
    return 1;
  for (r = 0; r < k; r++)
    if (comp[r] < 0 && gdl_legal(ctx, r, &mv, &n) == GDL_OK && n > 1)
      return 1;
  return 0;
}

int cmd_play(gdl_ctx *ctx, const opts_t *o)
{
  gdl_state start = { 0, 0, NULL }, cur = { 0, 0, NULL };
  gdl_state nx = { 0, 0, NULL };
  gdl_state *hist = NULL;
  size_t nhist = 0, caphist = 0, k, r = 0, n, i;
  gdl_term *joint;
  const gdl_term *mv;
  char line[4096];
  int rc = load(ctx, o), shown = 0, listed = 0, *comp = NULL;
  if (rc || (rc = need_game(ctx, o)) || (rc = replay(ctx, o, &start)))
    return rc;
  k = gdl_role_count(ctx);
  joint = calloc(k + 1, sizeof *joint);
  comp = calloc(k + 1, sizeof *comp);
  if (!joint || !comp || gdl_state_copy(ctx, &cur, &start) != GDL_OK) {
    free(joint);
    free(comp);
    return usage_error("out of memory");
  }
  if ((rc = parse_against(ctx, o, comp)) != 0) {
    free(joint);
    free(comp);
    gdl_state_release(ctx, &cur);
    gdl_state_release(ctx, &start);
    return rc;
  }
  for (i = 0; i < k; i++)
    if (comp[i] >= 0)
      printf("The computer plays %s (%s).\n",
             gdl_term_str(ctx, gdl_role(ctx, i)),
             gdl_chooser_name((gdl_chooser)comp[i]));
  printf("Playing %s (%zu role%s).\n%s", o->files[0], k, k == 1 ? "" : "s",
         play_help);
  for (;;) {
    gdl_status st;
    if (!shown) {
      show_state(ctx, &cur, nhist);
      shown = 1;
      listed = 0;
      r = 0;
      if (gdl_terminal(ctx))
        show_game_over(ctx);
    }
    if (!gdl_terminal(ctx) && !listed) {
      /* a role with one move plays it by itself, the computer's roles
       * by the computer */
      while (r < k && gdl_legal(ctx, r, &mv, &n) == GDL_OK && n > 0 &&
             ((n == 1 && k > 1) || comp[r] >= 0)) {
        if (n > 1) {
          if ((rc = computer_move(ctx, o, &cur, r, comp[r], nhist,
                                  &joint[r])) != 0)
            goto out;
        } else {
          joint[r] = mv[0];
          printf("%s plays ", gdl_term_str(ctx, gdl_role(ctx, r)));
          printf("%s (its only move)\n", gdl_term_str(ctx, mv[0]));
        }
        r++;
      }
      if (r == k)
        goto move;
      if (gdl_legal(ctx, r, &mv, &n) != GDL_OK) {
        rc = fail(ctx, GDL_EINPUT);
        break;
      }
      if (n == 0) {
        printf("%s has no legal move here: the game is stuck.  "
               "u undo, r restart, q quit\n",
               gdl_term_str(ctx, gdl_role(ctx, r)));
      } else {
        printf("Moves for %s:\n", gdl_term_str(ctx, gdl_role(ctx, r)));
        for (i = 0; i < n; i++)
          printf("  %2zu  %s\n", i + 1, gdl_term_str(ctx, mv[i]));
      }
      listed = 1;
    }
    if (!gdl_terminal(ctx) && gdl_legal(ctx, r, &mv, &n) != GDL_OK) {
      rc = fail(ctx, GDL_EINPUT);
      break;
    }
    printf("%s> ", gdl_terminal(ctx) ? "" : gdl_term_str(ctx, gdl_role(ctx, r)));
    fflush(stdout);
    if (!read_line(line, sizeof line)) {
      printf("\n");
      break;
    }
    if (line[0] == 0)
      continue;
    if (strcmp(line, "q") == 0 || strcmp(line, "quit") == 0)
      break;
    if (strcmp(line, "?") == 0 || strcmp(line, "help") == 0) {
      fputs(play_help, stdout);
      listed = 0;                 /* and the moves again */
      continue;
    }
    if (strcmp(line, "r") == 0 || strcmp(line, "restart") == 0) {
      nhist = 0;
      gdl_state_copy(ctx, &cur, &start);
      gdl_set_state(ctx, &cur);
      printf("Restarted.\n");
      shown = 0;
      continue;
    }
    if (strcmp(line, "u") == 0 || strcmp(line, "undo") == 0) {
      if (nhist == 0) {
        printf("Nothing to undo: this is the start.\n");
        continue;
      }
      gdl_state_copy(ctx, &cur, &hist[--nhist]);
      /* back to where a person last had a choice */
      while (nhist > 0 && !person_chooses(ctx, &cur, comp))
        gdl_state_copy(ctx, &cur, &hist[--nhist]);
      gdl_set_state(ctx, &cur);
      printf("Undone.\n");
      shown = 0;
      continue;
    }
    if (gdl_terminal(ctx)) {
      printf("The game is over: u undo, r restart, q quit.\n");
      continue;
    }
    if (strcmp(line, "h") == 0 || strcmp(line, "hint") == 0) {
      show_hint(ctx, &cur, r);
      continue;
    }
    {
      char *end;
      unsigned long pick = strtoul(line, &end, 10);
      gdl_term t;
      if (isdigit((unsigned char)line[0]) && *end == 0) {
        if (pick < 1 || pick > n) {
          printf("There is no move %lu: pick 1 to %zu.\n", pick, n);
          continue;
        }
        t = mv[pick - 1];
      } else if (gdl_parse_term(ctx, line, 0, &t) != GDL_OK) {
        printf("Not a move or a command: %s (? for help)\n", line);
        continue;
      } else if (!gdl_is_legal(ctx, r, t)) {
        printf("%s is not a legal move for %s here.\n", line,
               gdl_term_str(ctx, gdl_role(ctx, r)));
        continue;
      }
      joint[r++] = t;
      if (r < k) {
        listed = 0;               /* the next role's moves */
        continue;
      }
    }
  move:
    if ((st = gdl_next(ctx, joint, &nx)) != GDL_OK) {
      rc = fail(ctx, st);
      break;
    }
    if (nhist == caphist) {
      size_t cap = caphist ? caphist * 2 : 16;
      gdl_state *h = realloc(hist, cap * sizeof *h);
      if (!h) {
        rc = usage_error("out of memory");
        break;
      }
      memset(h + caphist, 0, (cap - caphist) * sizeof *h);
      hist = h;
      caphist = cap;
    }
    gdl_state_copy(ctx, &hist[nhist++], &cur);
    gdl_state_copy(ctx, &cur, &nx);
    if ((st = gdl_set_state(ctx, &cur)) != GDL_OK) {
      rc = fail(ctx, st);
      break;
    }
    shown = 0;
  }
out:
  for (i = 0; i < caphist; i++)
    gdl_state_release(ctx, &hist[i]);
  free(hist);
  free(joint);
  free(comp);
  gdl_state_release(ctx, &nx);
  gdl_state_release(ctx, &cur);
  gdl_state_release(ctx, &start);
  return rc;
}
