/*
 * check_solve_json.c - gdl_solve_json, the one writer of a solve's result
 * as JSON (engine/search/solve_json.c): its keys in their order for a plan
 * found, a limit and no plan; strings escaped; the text the same as
 * `gdl solve --json` prints but for the time; out of memory a status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

void gdl_test_fail_alloc(gdl_ctx *ctx, long n);

/* Every key, in the order written; "limit" only at a limit. */
static const char *const keys[] = {
  "status", "length", "goal", "plan", "expanded", "generated", "stored",
  "depth", "seconds", "peak_memory_bytes", "bytes_per_state", "algorithm",
  "optimal", "pruned", "estimate", "latches", "stubborn", "budget",
  "groups", "counter", "goal_bound", "shortened_from", "threads",
  "dead_start", "searches", "limit",
};

#define NKEYS ((int)(sizeof keys / sizeof *keys))

/* Asserts that text is one object with keys[0..n) in order (each as
 * `"key": ` at the start or after `, `) and nothing after its '}'. */
static void assert_keys(const char *text, size_t len, int n)
{
  const char *at = text;
  char want[64];
  int i;
  ck_assert_uint_eq(strlen(text), len);
  ck_assert_msg(text[0] == '{' && text[len - 1] == '}', "%s", text);
  for (i = 0; i < n; i++) {
    const char *p;
    snprintf(want, sizeof want, "%s\"%s\": ", i ? ", " : "{", keys[i]);
    p = strstr(at, want);
    ck_assert_msg(p != NULL, "key %s missing or out of order in %s",
                  keys[i], text);
    at = p + strlen(want);
  }
  snprintf(want, sizeof want, "\"%s\": ", "limit");
  if (n < NKEYS)
    ck_assert_msg(!strstr(text, want), "limit without a limit: %s", text);
}

static gdl_ctx *load_game(const char *path)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load(&st, 0, path, NULL);
  ck_assert_msg(st == GDL_OK, "%s: %s", path, gdl_errmsg(ctx));
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_AUTO), GDL_OK);
  return ctx;
}

/* text with the value of "seconds" left out (malloc'd). */
static char *without_seconds(const char *text)
{
  char *s = strdup(text), *p = strstr(s, "\"seconds\": ");
  ck_assert_ptr_nonnull(p);
  memmove(p, strstr(p, ", ") + 2, strlen(strstr(p, ", ") + 2) + 1);
  return s;
}

/* Wolf, goat and cabbage by bfs on one thread: the plan, then the same
 * text (but the time) as the command prints. */
START_TEST(test_json_solved)
{
  gdl_ctx *ctx = load_game("puzzles/wolf-goat-cabbage.kif");
  gdl_solve_opts o;
  gdl_solve_result res;
  const char *text;
  size_t len;
  char *out = NULL, *mine, *cli;
  memset(&o, 0, sizeof o);
  o.algorithm = GDL_BFS;
  o.threads = 1;
  ck_assert_int_eq(gdl_solve(ctx, &o, &res), GDL_OK);
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, &len), GDL_OK);
  assert_keys(text, len, NKEYS - 1);
  ck_assert_msg(strncmp(text, "{\"status\": \"solved\", \"length\": 7, "
                        "\"goal\": 100, \"plan\": [\"(cross goat)\", ",
                        60) == 0, "%s", text);
  ck_assert_ptr_nonnull(strstr(text, "\"algorithm\": \"bfs\", "
                                     "\"optimal\": true, "));
  ck_assert_ptr_nonnull(strstr(text, ", \"threads\": 1, "
                                     "\"dead_start\": null, "));
  {
    /* one search, whose counts are the result's */
    char want[160];
    snprintf(want, sizeof want, ", \"searches\": [{\"search\": \"bfs\", "
             "\"states_expanded\": %llu, \"states_generated\": %llu}]}",
             (unsigned long long)res.expanded,
             (unsigned long long)res.generated);
    ck_assert_str_eq(text + len - strlen(want), want);
  }
  /* gdl solve --json: the same object, but for the time and the memory
   * (its process holds what this one does not) */
  ck_assert_int_eq(tu_gdl_run(&out, NULL, "solve puzzles/wolf-goat-cabbage.kif"
                              " --algorithm bfs --threads 1 --json"), 0);
  ck_assert_msg(strlen(out) > 0 && out[strlen(out) - 1] == '\n', "%s", out);
  out[strlen(out) - 1] = 0;     /* the command ends the line */
  mine = without_seconds(text);
  cli = without_seconds(out);
  *strstr(mine, "\"peak_memory_bytes\"") = 0;
  *strstr(cli, "\"peak_memory_bytes\"") = 0;
  ck_assert_str_eq(cli, mine);
  ck_assert_str_eq(strstr(out, "\"bytes_per_state\""),
                   strstr(text, "\"bytes_per_state\""));
  free(mine);
  free(cli);
  free(out);
  gdl_free(ctx);
}
END_TEST

/* The searches listed: every search that ran, in order, their counts
 * adding up to the result's; dfs's plan made shorter is two (dfs, then
 * "shorten"), auto's several of its turns.  A result made elsewhere
 * (gdl-mpi's), which lists none, lists its one search with the sums. */
START_TEST(test_json_searches)
{
  gdl_ctx *ctx = load_game("puzzles/wolf-goat-cabbage.kif");
  gdl_solve_opts o;
  gdl_solve_result res;
  const char *text;
  char want[256];
  size_t len;
  memset(&o, 0, sizeof o);
  o.algorithm = GDL_DFS;
  o.shorten = 1;
  ck_assert_int_eq(gdl_solve(ctx, &o, &res), GDL_OK);
  ck_assert_int_eq(res.status, GDL_SOLVED);
  ck_assert_uint_eq(res.nsearches, 2);
  ck_assert_str_eq(res.searches[0].name, "dfs");
  ck_assert_str_eq(res.searches[1].name, "shorten");
  ck_assert_uint_gt(res.searches[1].expanded, 0);
  ck_assert_uint_eq(res.searches[0].expanded + res.searches[1].expanded,
                    res.expanded);
  ck_assert_uint_eq(res.searches[0].generated + res.searches[1].generated,
                    res.generated);
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, &len), GDL_OK);
  assert_keys(text, len, NKEYS - 1);
  snprintf(want, sizeof want, "\"searches\": [{\"search\": \"dfs\", "
           "\"states_expanded\": %llu, \"states_generated\": %llu}, "
           "{\"search\": \"shorten\", \"states_expanded\": %llu, "
           "\"states_generated\": %llu}]}",
           (unsigned long long)res.searches[0].expanded,
           (unsigned long long)res.searches[0].generated,
           (unsigned long long)res.searches[1].expanded,
           (unsigned long long)res.searches[1].generated);
  ck_assert_str_eq(text + len - strlen(want), want);
  /* auto: its turns in the order they ran (the first A*'s glance, or
   * bfs beside it where that answered), the last the one that answered,
   * the counts adding up */
  o.algorithm = GDL_AUTO;
  o.shorten = 0;
  ck_assert_int_eq(gdl_solve(ctx, &o, &res), GDL_OK);
  ck_assert_uint_ge(res.nsearches, 1);
  ck_assert_msg(strcmp(res.searches[0].name, "astar") == 0 ||
                strcmp(res.searches[0].name, "bfs") == 0,
                "first search: %s", res.searches[0].name);
  ck_assert_str_eq(res.searches[res.nsearches - 1].name,
                   gdl_algorithm_name(res.found_by));
  {
    uint64_t e = 0, g = 0;
    unsigned i;
    for (i = 0; i < res.nsearches; i++) {
      e += res.searches[i].expanded;
      g += res.searches[i].generated;
    }
    ck_assert_uint_eq(e, res.expanded);
    ck_assert_uint_eq(g, res.generated);
  }
  /* none listed */
  res.nsearches = 0;
  res.found_by = GDL_BFS;
  res.expanded = 12;
  res.generated = 34;
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, &len), GDL_OK);
  ck_assert_ptr_nonnull(strstr(text, ", \"searches\": [{\"search\": "
                               "\"bfs\", \"states_expanded\": 12, "
                               "\"states_generated\": 34}]}"));
  gdl_free(ctx);
}
END_TEST

/* A start proven a dead end before any state was expanded: which
 * analysis proved it; null where a search went through the space. */
START_TEST(test_json_dead_start)
{
  static const char dead[] =
    "(role p)\n"
    "(init (at 0))\n"
    "(succ 0 1) (succ 1 2)\n"
    "(<= (legal p step) (true (at ?x)))\n"
    "(<= (next (at ?y)) (true (at ?x)) (succ ?x ?y))\n"
    "(<= terminal (true (at 2)))\n"
    "(<= (goal p 100) (true (at 2)) (true never))\n"
    "(<= (goal p 0) (not (true never)))\n";
  gdl_ctx *ctx = tu_text(dead, 0);
  gdl_solve_opts o;
  gdl_solve_result res;
  const char *text;
  size_t len;
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_GROUND), GDL_OK);
  memset(&o, 0, sizeof o);
  o.algorithm = GDL_ASTAR;
  ck_assert_int_eq(gdl_solve(ctx, &o, &res), GDL_OK);
  ck_assert_int_eq(res.status, GDL_UNSOLVABLE);
  ck_assert_str_eq(res.dead_start, "h_max");
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, &len), GDL_OK);
  assert_keys(text, len, NKEYS - 1);
  ck_assert_ptr_nonnull(strstr(text, ", \"dead_start\": \"h_max\", "));
  o.algorithm = GDL_BFS;
  ck_assert_int_eq(gdl_solve(ctx, &o, &res), GDL_OK);
  ck_assert_int_eq(res.status, GDL_UNSOLVABLE);
  ck_assert_ptr_null(res.dead_start);
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, &len), GDL_OK);
  ck_assert_ptr_nonnull(strstr(text, ", \"dead_start\": null, "));
  gdl_free(ctx);
}
END_TEST

/* A limit: no length, and why at the end. */
START_TEST(test_json_limit)
{
  gdl_ctx *ctx = load_game("puzzles/eight-puzzle-31.kif");
  gdl_solve_opts o;
  gdl_solve_result res;
  const char *text;
  size_t len;
  memset(&o, 0, sizeof o);
  o.algorithm = GDL_BFS;
  o.max_states = 10;
  ck_assert_int_eq(gdl_solve(ctx, &o, &res), GDL_OK);
  ck_assert_int_eq(res.status, GDL_LIMIT);
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, &len), GDL_OK);
  assert_keys(text, len, NKEYS);
  ck_assert_msg(strncmp(text, "{\"status\": \"limit\", \"length\": null, "
                        "\"goal\": null, \"plan\": [], ", 60) == 0, "%s",
                text);
  gdl_free(ctx);
}
END_TEST

/* A result made by hand: no plan, no goal, and a why that needs escapes;
 * *len may be NULL. */
START_TEST(test_json_escapes)
{
  gdl_ctx *ctx = load_game("puzzles/wolf-goat-cabbage.kif");
  gdl_solve_result res;
  const char *text;
  memset(&res, 0, sizeof res);
  res.status = GDL_UNSOLVABLE;
  res.goal = -1;
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, NULL), GDL_OK);
  assert_keys(text, strlen(text), NKEYS - 1);
  ck_assert_ptr_nonnull(strstr(text, "\"status\": \"unsolvable\", "
                                     "\"length\": 0, \"goal\": null, "
                                     "\"plan\": [], "));
  res.status = GDL_LIMIT;
  strcpy(res.why, "a \"b\" \\ c\n\t");
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, NULL), GDL_OK);
  ck_assert_ptr_nonnull(strstr(text, ", \"limit\": \"a \\\"b\\\" \\\\ "
                                     "c\\u000a\\u0009\"}"));
  gdl_free(ctx);
}
END_TEST

/* Memory running out while writing is a status, not a crash. */
START_TEST(test_json_no_memory)
{
  gdl_ctx *ctx = load_game("puzzles/wolf-goat-cabbage.kif");
  gdl_solve_result res;
  const char *text = NULL;
  memset(&res, 0, sizeof res);
  res.goal = -1;
  gdl_test_fail_alloc(ctx, 0);
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, NULL), GDL_ELIMIT);
  gdl_test_fail_alloc(ctx, -1);
  ck_assert_int_eq(gdl_solve_json(ctx, &res, &text, NULL), GDL_OK);
  ck_assert_ptr_nonnull(text);
  gdl_free(ctx);
}
END_TEST

/* gdl_json_escape, the one escaper: quotes and backslashes escaped,
 * control bytes as \u00XX (a NUL inside the n bytes too), the rest
 * as it is, in pieces that add up to the whole. */
struct text { char s[128]; size_t n; unsigned pieces; };

static void collect(void *arg, const char *p, size_t len)
{
  struct text *t = arg;
  ck_assert_uint_le(t->n + len, sizeof t->s - 1);
  memcpy(t->s + t->n, p, len);
  t->n += len;
  t->s[t->n] = 0;
  t->pieces++;
}

START_TEST(test_json_escape)
{
  static const char in[] = "a\"b\\c\nd\001\000\037e \x7f\xc3\xa9";
  struct text t = { { 0 }, 0, 0 };
  gdl_json_escape(in, sizeof in - 1, collect, &t);
  ck_assert_str_eq(t.s, "a\\\"b\\\\c\\u000ad\\u0001\\u0000\\u001fe \x7f\xc3\xa9");
  t.n = 0, t.s[0] = 0, t.pieces = 0;
  gdl_json_escape("", 0, collect, &t);
  ck_assert_uint_eq(t.pieces, 0);
}
END_TEST

Suite *solve_json_suite(void)
{
  Suite *s = suite_create("solve_json");
  TCase *tc = tcase_create("solve_json");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_json_solved);
  tcase_add_test(tc, test_json_limit);
  tcase_add_test(tc, test_json_searches);
  tcase_add_test(tc, test_json_dead_start);
  tcase_add_test(tc, test_json_escapes);
  tcase_add_test(tc, test_json_no_memory);
  tcase_add_test(tc, test_json_escape);
  suite_add_tcase(s, tc);
  return s;
}
