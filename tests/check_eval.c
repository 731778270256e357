/*
 * check_eval.c - what the evaluator saves: recursive relations asked top
 * down where their recursion descends (and computed in full where it
 * could go round), and a new state computed again only where it changed
 * (doc/engine.md, sections 6 and 7).  Each test fails where the saving
 * gives a wrong answer or is not made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---- lazy recursion ----------------------------------------------------- */

/* A shooter at 0 on a line of 120 cells, with a wall at 50, may shoot a
 * target it sees: (clear ?lane ?x ?z), every cell between free, is
 * recursive and has about 14,000 facts a state, but is asked only with
 * its arguments known, and its recursion descends along succ: lazy, asked
 * top down.  With (step ?x ?y) both ways instead of succ, the recursion
 * could go round (clear left 3 9) -> (clear left 4 9) -> (clear left 3 9):
 * it is evaluated in full, bottom up. */
static char *shooter_game(int both_ways)
{
  static const char rules[] =
    "(role p)\n"
    "(init (at 0))\n"
    "(init (blocked 50))\n"
    "(target 10) (target 60) (target 110)\n"
    "(lane left) (lane right)\n"
    "(<= (clear ?l ?x ?z) (lane ?l) (step ?x ?z))\n"
    "(<= (clear ?l ?x ?z) (step ?x ?y) (not (true (blocked ?y)))\n"
    "    (clear ?l ?y ?z))\n"
    "(<= (legal p (shoot ?z)) (true (at ?x)) (target ?z)\n"
    "    (clear left ?x ?z))\n"
    "(<= (legal p remove) (true (blocked ?y)))\n"
    "(<= (next (at ?x)) (true (at ?x)))\n"
    "(<= (next (blocked ?y)) (true (blocked ?y)) (not (does p remove)))\n"
    "(<= (next done) (does p (shoot 110)))\n"
    "(<= terminal (true done))\n"
    "(<= (goal p 100) (true (at 0)))\n";
  char *text = malloc(sizeof rules + 120 * 24 + 128);
  size_t n = 0;
  int i;
  n += (size_t)sprintf(text + n, "(<= (step ?x ?y) (succ ?x ?y))\n");
  if (both_ways)
    n += (size_t)sprintf(text + n, "(<= (step ?x ?y) (succ ?y ?x))\n");
  for (i = 0; i < 119; i++)
    n += (size_t)sprintf(text + n, "(succ %d %d)\n", i, i + 1);
  memcpy(text + n, rules, sizeof rules);
  return text;
}

/* Lazy recursion: answers right before and after the wall goes, under a
 * fact limit that evaluating (clear ?x ?z) in full would pass; the same
 * answers where the recursion could cycle, which then needs the facts. */
START_TEST(test_lazy_recursive)
{
  int both = _i;
  char *text = shooter_game(both), *a;
  gdl_ctx *ctx = gdl_new();
  gdl_state s = { 0, 0, NULL };
  gdl_set_fact_limit(ctx, 3000);
  ck_assert_int_eq(gdl_load_string(ctx, "shooter.kif", text, strlen(text)),
                   GDL_OK);
  ck_assert_int_eq(gdl_compile(ctx, 0), GDL_OK);
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_INTERP), GDL_OK);
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  if (both) {      /* in full: 2 x 120 x 120 facts, over the limit */
    ck_assert_int_eq(gdl_set_state(ctx, &s), GDL_ELIMIT);
    gdl_set_fact_limit(ctx, 100000);
  }
  tu_play(ctx, "", &s);
  a = tu_legal_text(ctx, 0);
  ck_assert_str_eq(a, "(shoot 10) remove");
  free(a);
  tu_play(ctx, "remove", &s);
  a = tu_legal_text(ctx, 0);
  ck_assert_str_eq(a, "(shoot 10) (shoot 110) (shoot 60)");
  free(a);
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
  free(text);
}
END_TEST

/* ---- a new state ------------------------------------------------------ */

/* A walker on 0..5 goes right through open cells; (open ?x ?y) reads only
 * the walls, which stay from state to state unless a wall is broken: the
 * interpreter keeps its facts while the walls stay, and must compute them
 * again when the walls change, by a move or by a jump to another state. */
START_TEST(test_new_state_keeps)
{
  static const char text[] =
    "(role w)\n"
    "(init (at 0)) (init (wall 2)) (init (wall 4))\n"
    "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)\n"
    "(<= (open ?x ?y) (succ ?x ?y) (not (true (wall ?y))))\n"
    "(<= (legal w (go ?y)) (true (at ?x)) (open ?x ?y))\n"
    "(<= (legal w (break ?y)) (true (at ?x)) (succ ?x ?y)\n"
    "    (true (wall ?y)))\n"
    "(<= (next (at ?y)) (does w (go ?y)))\n"
    "(<= (next (at ?x)) (true (at ?x)) (does w (break ?y)))\n"
    "(<= (next (wall ?y)) (true (wall ?y)) (not (does w (break ?y))))\n"
    "(<= terminal (true (at 5)))\n"
    "(<= (goal w 100) (true (at 5)))\n"
    "(<= (goal w 0) (not (true (at 5))))\n";
  static const struct { const char *moves, *legal; } steps[] = {
    { "", "(go 1)" },
    { "(go 1)", "(break 2)" },
    { "(go 1) (break 2)", "(go 2)" },
    { "(go 1) (break 2) (go 2) (go 3)", "(break 4)" },
    { "", "(go 1)" },                     /* back: the walls again */
    { "(go 1) (break 2) (go 2) (go 3) (break 4)", "(go 4)" },
    { "(go 1)", "(break 2)" },
  };
  gdl_ctx *ctx = gdl_new();
  gdl_state s = { 0, 0, NULL };
  size_t i;
  ck_assert_int_eq(gdl_load_string(ctx, "walls.kif", text, strlen(text)),
                   GDL_OK);
  ck_assert_int_eq(gdl_compile(ctx, 0), GDL_OK);
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_INTERP), GDL_OK);
  for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    char *a;
    tu_play(ctx, steps[i].moves, &s);
    a = tu_legal_text(ctx, 0);
    ck_assert_msg(strcmp(a, steps[i].legal) == 0, "after '%s': %s, not %s",
                  steps[i].moves, a, steps[i].legal);
    free(a);
  }
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
}
END_TEST

Suite *eval_suite(void)
{
  Suite *s = suite_create("eval");
  TCase *tc = tcase_create("lazy");
  tcase_add_loop_test(tc, test_lazy_recursive, 0, 2);
  suite_add_tcase(s, tc);
  tc = tcase_create("state");
  tcase_add_test(tc, test_new_state_keeps);
  suite_add_tcase(s, tc);
  return s;
}
