/*
 * check_teach.c - the classroom commands: gdl_trace and gdl_explain
 * through the library, and play (through a pipe), graph (through dot),
 * explain and trace as a program.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define BUTTONS "puzzles/buttons-and-lights.kif"
#define WGC "puzzles/wolf-goat-cabbage.kif"

static const char chain[] =
  "(edge a b) (edge b c) (edge c d) (node a) (node d)\n"
  "(<= (reach ?x ?y) (edge ?x ?y))\n"
  "(<= (reach ?x ?z) (reach ?x ?y) (edge ?y ?z))\n"
  "(<= (stuck ?x) (node ?x) (not (reach ?x d)))\n";

static size_t count(const char *s, const char *sub)
{
  size_t n = 0, len = strlen(sub);
  for (s = strstr(s, sub); s; s = strstr(s + len, sub))
    n++;
  return n;
}

static gdl_ctx *buttons_after(const char *moves)
{
  gdl_status st;
  gdl_state s = { 0, 0, NULL };
  gdl_ctx *ctx = tu_load(&st, 0, BUTTONS, NULL);
  ck_assert_int_eq(st, GDL_OK);
  tu_play(ctx, moves, &s);
  gdl_state_release(ctx, &s);
  return ctx;
}

static gdl_term term(gdl_ctx *ctx, const char *text)
{
  gdl_term t;
  ck_assert_int_eq(gdl_parse_term(ctx, text, 1, &t), GDL_OK);
  return t;
}

/* ---- trace ------------------------------------------------------------ */

static int note_answer(void *arg, gdl_term t)
{
  gdl_ctx **c = arg;
  char *text = c[1] ? (char *)c[1] : NULL;
  char line[512];
  snprintf(line, sizeof line, "+ %s\n", gdl_term_str(c[0], t));
  ck_assert_msg(strstr(text, line), "trace lacks '%s'", line);
  return 0;
}

/* Every fact that holds after the moves is marked new exactly where the
 * trace derives it, and the phases come in order. */
START_TEST(test_trace_buttons)
{
  gdl_ctx *ctx = buttons_after("a b");
  gdl_term does = term(ctx, "c");
  const char *text;
  char *copy;
  void *arg[2];
  ck_assert_int_eq(gdl_trace(ctx, &does, &text), GDL_OK);
  copy = strdup(text);
  ck_assert_ptr_nonnull(strstr(copy, "== static"));
  ck_assert_ptr_nonnull(strstr(copy, "== state"));
  ck_assert(strstr(copy, "== static") < strstr(copy, "== state"));
  ck_assert(strstr(copy, "== state") < strstr(copy, "== move"));
  ck_assert_ptr_nonnull(strstr(copy, "(does player c)"));
  ck_assert_ptr_nonnull(strstr(copy, "buttons-and-lights.kif:59: (<= (goal "
                                     "player 100) (not dark))\n      (no "
                                     "instance"));
  /* every next, goal and legal fact that holds was derived as new, once */
  arg[0] = ctx;
  arg[1] = copy;
  ck_assert_int_eq(gdl_query(ctx, term(ctx, "(next ?x)"),
                             note_answer, arg), GDL_OK);
  ck_assert_int_eq(gdl_query(ctx, term(ctx, "(goal ?r ?v)"),
                             note_answer, arg), GDL_OK);
  ck_assert_int_eq(gdl_query(ctx, term(ctx, "(affects ?b ?l)"),
                             note_answer, arg), GDL_OK);
  ck_assert_uint_eq(count(copy, "+ (next "), 3);
  ck_assert_uint_eq(count(copy, "+ (goal "), 1);
  /* the state is the same afterwards: the engine still answers */
  ck_assert_int_eq(gdl_goal(ctx, 0), 0);
  free(copy);
  gdl_free(ctx);
}
END_TEST

/* A recursive stratum runs in semi-naive rounds until one adds nothing. */
START_TEST(test_trace_rounds)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, chain);
  const char *text, *r1, *r2;
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_int_eq(gdl_trace(ctx, NULL, &text), GDL_OK);
  ck_assert_ptr_nonnull(strstr(text, "(static, recursive): reach/2"));
  r1 = strstr(text, "  round 1: every rule");
  r2 = strstr(text, "  round 2: with the facts new");
  ck_assert_ptr_nonnull(r1);
  ck_assert_ptr_nonnull(r2);
  ck_assert_ptr_null(strstr(text, "  round 3"));
  /* the three-step path is found by the recursive rule, and the last
   * round adds nothing new */
  ck_assert_ptr_nonnull(strstr(r1, "+ (reach a d)"));
  ck_assert_ptr_nonnull(strstr(r2, "= (reach a d)"));
  ck_assert_ptr_nonnull(strstr(r2, "stratum 4"));
  ck_assert(strstr(r2, "+ ") > strstr(r2, "stratum 4"));
  ck_assert_ptr_nonnull(strstr(text, "+ (stuck d)"));
  ck_assert_ptr_null(strstr(text, "+ (stuck a)"));
  gdl_free(ctx);
}
END_TEST

START_TEST(test_trace_bad_moves)
{
  gdl_status st;
  gdl_ctx *ctx = buttons_after("");
  gdl_ctx *rb = tu_load_text(&st, 0, chain);
  gdl_term bad = term(ctx, "(press z)"), m = term(rb, "a");
  const char *text;
  int holds;
  ck_assert_int_eq(gdl_trace(ctx, &bad, &text), GDL_EINPUT);
  ck_assert_ptr_nonnull(strstr(gdl_errmsg(ctx), "not a legal move"));
  ck_assert_int_eq(gdl_explain(rb, term(rb, "(reach a b)"), &m, &holds,
                               &text), GDL_EINPUT);
  gdl_free(ctx);
  gdl_free(rb);
}
END_TEST

/* ---- explain ---------------------------------------------------------- */

START_TEST(test_explain_holds)
{
  gdl_ctx *ctx = buttons_after("a b");
  const char *text;
  int holds = -1;
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(goal player 0)"), NULL,
                               &holds, &text), GDL_OK);
  ck_assert_int_eq(holds, 1);
  ck_assert_str_eq(text,
    "(goal player 0)  <- rule puzzles/buttons-and-lights.kif:60: "
    "(<= (goal player 0) dark)\n"
    "  dark  <- rule puzzles/buttons-and-lights.kif:57: "
    "(<= dark (true (lamp ?x off)))\n"
    "    (true (lamp r off))  <- in the state\n");
  gdl_free(ctx);
}
END_TEST

START_TEST(test_explain_next)
{
  gdl_ctx *ctx = buttons_after("a b");
  gdl_term c = term(ctx, "c");
  const char *text;
  int holds = -1;
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(next (lamp p off))"), &c,
                               &holds, &text), GDL_OK);
  ck_assert_int_eq(holds, 1);
  ck_assert_ptr_nonnull(strstr(text, "  (does player c)  <- the move played"));
  ck_assert_ptr_nonnull(strstr(text, "  (not (affects c p))  <- (affects c p) "
                                     "does not hold"));
  /* with a variable: one tree per instance */
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(next ?x)"), &c, &holds,
                               &text), GDL_OK);
  ck_assert_uint_eq(count(text, "\n(next "), 2);
  ck_assert(strncmp(text, "(next ", 6) == 0);
  gdl_free(ctx);
}
END_TEST

START_TEST(test_explain_why_not)
{
  gdl_ctx *ctx = buttons_after("a b");
  const char *text;
  int holds = -1;
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(goal player 100)"), NULL,
                               &holds, &text), GDL_OK);
  ck_assert_int_eq(holds, 0);
  ck_assert_ptr_nonnull(strstr(text, "(goal player 100) does not hold."));
  ck_assert_ptr_nonnull(strstr(text, "    fails: (not dark)  <- it holds\n"
                                     "      dark  <- rule"));
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(true (lamp p on))"), NULL,
                               &holds, &text), GDL_OK);
  ck_assert_int_eq(holds, 0);
  ck_assert_ptr_nonnull(strstr(text, "not a fact of the state"));
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(nosuch 1)"), NULL,
                               &holds, &text), GDL_OK);
  ck_assert_ptr_nonnull(strstr(text, "no rule or fact defines nosuch/1"));
  gdl_free(ctx);
}
END_TEST

/* On a rule base: a recursive proof that does not loop, and the literal
 * that fails with the bindings that got furthest. */
START_TEST(test_explain_recursive)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load_text(&st, 0, chain);
  const char *text;
  int holds;
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(reach a d)"), NULL, &holds,
                               &text), GDL_OK);
  ck_assert_int_eq(holds, 1);
  ck_assert_str_eq(text,
    "(reach a d)  <- rule test.kif:3: (<= (reach ?x ?z) (reach ?x ?y) "
    "(edge ?y ?z))\n"
    "  (reach a c)  <- rule test.kif:3: (<= (reach ?x ?z) (reach ?x ?y) "
    "(edge ?y ?z))\n"
    "    (reach a b)  <- rule test.kif:2: (<= (reach ?x ?y) (edge ?x ?y))\n"
    "      (edge a b)  <- a fact, test.kif:1\n"
    "    (edge b c)  <- a fact, test.kif:1\n"
    "  (edge c d)  <- a fact, test.kif:1\n");
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(reach d ?y)"), NULL, &holds,
                               &text), GDL_OK);
  ck_assert_int_eq(holds, 0);
  ck_assert_ptr_nonnull(strstr(text, "fails: (edge d ?y)  <- no fact "
                                     "written in the file matches"));
  ck_assert_int_eq(gdl_explain(ctx, term(ctx, "(stuck a)"), NULL, &holds,
                               &text), GDL_OK);
  ck_assert_int_eq(holds, 0);
  ck_assert_ptr_nonnull(strstr(text, "    holds: (node a)\n"
                                     "    fails: (not (reach a d))  <- it "
                                     "holds\n"));
  gdl_free(ctx);
}
END_TEST

/* ---- the commands ----------------------------------------------------- */

START_TEST(test_cli_explain_trace)
{
  char *out, *err;
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain " BUTTONS " --moves 'a b' "
                       "'(goal player 100)'"), 1);
  ck_assert_ptr_nonnull(strstr(out, "does not hold"));
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain " BUTTONS " --does 'c' "
                       "'(next (lamp q off))'"), 0);
  ck_assert_ptr_nonnull(strstr(out, "(does player c)  <- the move played"));
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain " BUTTONS " --does 'a b' "
                       "'(next ?x)'"), 2);
  ck_assert_ptr_nonnull(strstr(err, "one move per role"));
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "trace rules/reachability.kif"), 0);
  ck_assert_ptr_nonnull(strstr(out, "recursive): reachable/2"));
  ck_assert_ptr_nonnull(strstr(out, "+ (unreachable e a)"));
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "trace rules/reachability.kif --moves a"),
                   2);
  free(out);
  free(err);
  /* a fact of a recursive relation on a rule base, and a fact written */
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain rules/reachability.kif "
                       "'(reachable a e)'"), 0);
  ck_assert(strncmp(out, "(reachable a e)  <- rule rules/reachability.kif:",
                    48) == 0);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain rules/reachability.kif "
                       "'(node a)'"), 0);
  ck_assert_str_eq(out, "(node a)  <- a fact, rules/reachability.kif:29\n");
  free(out);
  free(err);
  /* a game with lazy relations (evaluated on demand): explain computes
   * them in full, and the evaluation makes new terms under its feet */
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain %s '(legal robot (mark 3 2 3 3 "
                       "1))'", tu_corpus("single/sudokuGrade1.kif")), 0);
  ck_assert_ptr_nonnull(strstr(out, "(true (cell 3 2 3 3 b))  <- in the "
                                    "state"));
  free(out);
  free(err);
}
END_TEST

/* ---- the words: each answer exactly, in KIF and in infix ------------- */

/* The same game in the two syntaxes, line for line, its facts written
 * out of order (tests/teach/). */
#define KIF "tests/teach/lamps.kif"
#define HRF "tests/teach/lamps.hrf"

static const struct {
  const char *args;            /* the command after `gdl` */
  int rc;                      /* its exit status */
  const char *out;             /* its standard output, exactly */
} words[] = {
  /* the question's variables keep their names, in the file's syntax */
  { "explain " KIF " '(lit ?which)'", 1,
    "(lit ?which) does not hold.\n"
    "  rule tests/teach/lamps.kif:17: (<= (lit ?l) (true (lamp ?l on)))\n"
    "    fails: (true (lamp ?l on))  <- not in the state\n" },
  { "explain " HRF " 'lit(Which)'", 1,
    "lit(Which) does not hold.\n"
    "  rule tests/teach/lamps.hrf:17: lit(L) :- true(lamp(L, on))\n"
    "    fails: true(lamp(L, on))  <- not in the state\n" },
  { "explain " HRF " '(lit ?which)'", 1,
    "lit(Which) does not hold.\n"
    "  rule tests/teach/lamps.hrf:17: lit(L) :- true(lamp(L, on))\n"
    "    fails: true(lamp(L, on))  <- not in the state\n" },
  { "explain " KIF " '(button ?b ?b)'", 1,
    "(button ?b ?b) does not hold: none of the 2 facts written for button/2 "
    "matches it\n" },
  { "explain " HRF " 'button(B, B)'", 1,
    "button(B, B) does not hold: none of the 2 facts written for button/2 "
    "matches it\n" },
  /* a derived relation's failure: its rules, one level down */
  { "explain " KIF " '(goal player 100)'", 1,
    "(goal player 100) does not hold.\n"
    "  rule tests/teach/lamps.kif:23: (<= (goal player 100) (lit p) (lit "
    "q))\n"
    "    fails: (lit p)  <- no rule derives it here\n"
    "      rule tests/teach/lamps.kif:17: (<= (lit ?l) (true (lamp ?l on)))\n"
    "        fails: (true (lamp p on))  <- not in the state\n" },
  { "explain " HRF " 'goal(player, 100)'", 1,
    "goal(player, 100) does not hold.\n"
    "  rule tests/teach/lamps.hrf:23: goal(player, 100) :- lit(p) & lit(q)\n"
    "    fails: lit(p)  <- no rule derives it here\n"
    "      rule tests/teach/lamps.hrf:17: lit(L) :- true(lamp(L, on))\n"
    "        fails: true(lamp(p, on))  <- not in the state\n" },
  /* what depends on the moves, asked without them */
  { "explain " KIF " '(next ?f)'", 1,
    "(next ?f) does not hold: nothing about next/1 is derived without a "
    "move.\n"
    "  Give one move per role with --does, e.g. --does '(press a)'.\n" },
  { "explain " HRF " 'next(F)'", 1,
    "next(F) does not hold: nothing about next/1 is derived without a move.\n"
    "  Give one move per role with --does, e.g. --does 'press(a)'.\n" },
  { "explain " KIF " '(does player ?m)'", 1,
    "(does player ?m) does not hold: no move is played.\n"
    "  Give one move per role with --does, e.g. --does '(press a)'.\n" },
  { "explain " HRF " 'does(player, M)'", 1,
    "does(player, M) does not hold: no move is played.\n"
    "  Give one move per role with --does, e.g. --does 'press(a)'.\n" },
  /* the instances that hold, sorted */
  { "explain " KIF " --does '(press b)' '(next ?f)'", 0,
    "(next (lamp p off))  <- rule tests/teach/lamps.kif:21: (<= (next (lamp "
    "?l ?s)) (true (lamp ?l ?s)) (not (pressed ?l)))\n"
    "  (true (lamp p off))  <- in the state\n"
    "  (not (pressed p))  <- (pressed p) does not hold\n"
    "\n"
    "(next (lamp q on))  <- rule tests/teach/lamps.kif:20: (<= (next (lamp "
    "?l on)) (pressed ?l))\n"
    "  (pressed q)  <- rule tests/teach/lamps.kif:18: (<= (pressed ?l) (does "
    "player (press ?b)) (button ?b ?l))\n"
    "    (does player (press b))  <- the move played\n"
    "    (button b q)  <- a fact, tests/teach/lamps.kif:12\n" },
  { "explain " HRF " --does 'press(b)' 'next(F)'", 0,
    "next(lamp(p, off))  <- rule tests/teach/lamps.hrf:21: next(lamp(L, S)) "
    ":- true(lamp(L, S)) & ~pressed(L)\n"
    "  true(lamp(p, off))  <- in the state\n"
    "  ~pressed(p)  <- pressed(p) does not hold\n"
    "\n"
    "next(lamp(q, on))  <- rule tests/teach/lamps.hrf:20: next(lamp(L, on)) "
    ":- pressed(L)\n"
    "  pressed(q)  <- rule tests/teach/lamps.hrf:18: pressed(L) :- "
    "does(player, press(B)) & button(B, L)\n"
    "    does(player, press(b))  <- the move played\n"
    "    button(b, q)  <- a fact, tests/teach/lamps.hrf:12\n" },
  /* query answers in the file's syntax, sorted */
  { "query " KIF " '(true ?x)'", 0,
    "(true (lamp p off))\n"
    "(true (lamp q off))\n" },
  { "query " HRF " 'true(X)'", 0,
    "true(lamp(p, off))\n"
    "true(lamp(q, off))\n" },
  { "query " HRF " --moves 'press(b)' 'legal(player, M)'", 0,
    "legal(player, press(a))\n" },
  /* trace: the state given and each rule's facts sorted; the move part */
  { "trace " KIF " --does '(press b)'", 0,
    "\n"
    "== static: what does not depend on the state ==\n"
    "stratum 1 (static): role/1 init/1 button/2\n"
    "    facts as written:\n"
    "      + (role player)\n"
    "      + (init (lamp q off))\n"
    "      + (init (lamp p off))\n"
    "      + (button b q)\n"
    "      + (button a p)\n"
    "\n"
    "== state: what depends on the true facts ==\n"
    "the state (given): 2 facts\n"
    "      (true (lamp p off))\n"
    "      (true (lamp q off))\n"
    "stratum 2 (state): legal/2\n"
    "    rule tests/teach/lamps.kif:15: (<= (legal player (press ?b)) "
    "(button ?b ?l) (true (lamp ?l off)))\n"
    "      + (legal player (press a))\n"
    "      + (legal player (press b))\n"
    "stratum 3 (state): lit/1\n"
    "    rule tests/teach/lamps.kif:17: (<= (lit ?l) (true (lamp ?l on)))\n"
    "      (no instance: nothing derived)\n"
    "stratum 4 (state): goal/2\n"
    "    rule tests/teach/lamps.kif:23: (<= (goal player 100) (lit p) (lit "
    "q))\n"
    "      (no instance: nothing derived)\n"
    "    rule tests/teach/lamps.kif:24: (<= (goal player 0) (not (lit p)))\n"
    "      + (goal player 0)\n"
    "    rule tests/teach/lamps.kif:25: (<= (goal player 0) (not (lit q)))\n"
    "      = (goal player 0)\n"
    "stratum 5 (state): terminal/0\n"
    "    rule tests/teach/lamps.kif:26: (<= terminal (lit p) (lit q))\n"
    "      (no instance: nothing derived)\n"
    "\n"
    "== move: what depends on the moves ==\n"
    "the moves (given): 1 fact\n"
    "      (does player (press b))\n"
    "stratum 6 (move): pressed/1\n"
    "    rule tests/teach/lamps.kif:18: (<= (pressed ?l) (does player (press "
    "?b)) (button ?b ?l))\n"
    "      + (pressed q)\n"
    "stratum 7 (move): next/1\n"
    "    rule tests/teach/lamps.kif:20: (<= (next (lamp ?l on)) (pressed "
    "?l))\n"
    "      + (next (lamp q on))\n"
    "    rule tests/teach/lamps.kif:21: (<= (next (lamp ?l ?s)) (true (lamp "
    "?l ?s)) (not (pressed ?l)))\n"
    "      + (next (lamp p off))\n"
    "\n"
    "11 facts derived in 7 strata (1 derived again)\n" },
  { "trace " HRF, 0,
    "\n"
    "== static: what does not depend on the state ==\n"
    "stratum 1 (static): role/1 init/1 button/2\n"
    "    facts as written:\n"
    "      + role(player)\n"
    "      + init(lamp(q, off))\n"
    "      + init(lamp(p, off))\n"
    "      + button(b, q)\n"
    "      + button(a, p)\n"
    "\n"
    "== state: what depends on the true facts ==\n"
    "the state (given): 2 facts\n"
    "      true(lamp(p, off))\n"
    "      true(lamp(q, off))\n"
    "stratum 2 (state): legal/2\n"
    "    rule tests/teach/lamps.hrf:15: legal(player, press(B)) :- button(B, "
    "L) & true(lamp(L, off))\n"
    "      + legal(player, press(a))\n"
    "      + legal(player, press(b))\n"
    "stratum 3 (state): lit/1\n"
    "    rule tests/teach/lamps.hrf:17: lit(L) :- true(lamp(L, on))\n"
    "      (no instance: nothing derived)\n"
    "stratum 4 (state): goal/2\n"
    "    rule tests/teach/lamps.hrf:23: goal(player, 100) :- lit(p) & "
    "lit(q)\n"
    "      (no instance: nothing derived)\n"
    "    rule tests/teach/lamps.hrf:24: goal(player, 0) :- ~lit(p)\n"
    "      + goal(player, 0)\n"
    "    rule tests/teach/lamps.hrf:25: goal(player, 0) :- ~lit(q)\n"
    "      = goal(player, 0)\n"
    "stratum 5 (state): terminal/0\n"
    "    rule tests/teach/lamps.hrf:26: terminal :- lit(p) & lit(q)\n"
    "      (no instance: nothing derived)\n"
    "\n"
    "== move: what depends on the moves ==\n"
    "left out without a move: pressed/1 next/1\n"
    "Give one move per role with --does, e.g. --does 'press(a)'.\n"
    "\n"
    "8 facts derived in 5 strata (1 derived again)\n" },
};

START_TEST(test_words)
{
  char *out, *err;
  int rc = tu_gdl_run(&out, &err, "%s", words[_i].args);
  ck_assert_msg(rc == words[_i].rc, "gdl %s: exit %d: %s", words[_i].args,
                rc, err);
  ck_assert_msg(strcmp(out, words[_i].out) == 0, "gdl %s:\n%s",
                words[_i].args, out);
  free(out);
  free(err);
}
END_TEST

/* A legal move asked in the initial state, refused because of the state:
 * the answer says that --moves asks a later one; refused by the rules
 * alone, it does not.  query says why it has no answers about next. */
START_TEST(test_words_hints)
{
  char *out, *err;
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain " WGC " '(legal player "
                              "(cross wolf))'"), 1);
  ck_assert_ptr_nonnull(strstr(out, "\n  (in the initial state: --moves M "
                                    "asks after the moves M)\n"));
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain " WGC " --moves "
                              "'(cross goat)' '(legal player (cross wolf))'"),
                   1);
  ck_assert_ptr_null(strstr(out, "initial state"));
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "explain " KIF " '(legal player "
                              "(press c))'"), 1);
  ck_assert_ptr_null(strstr(out, "initial state"));
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "query " HRF " 'next(F)'"), 0);
  ck_assert_str_eq(out, "");
  ck_assert_str_eq(err, "gdl: no answers: next(F) depends on the moves, and "
                        "query asks a state without them: gdl explain --does "
                        "M asks it after a move\n");
  free(out);
  free(err);
}
END_TEST

/* Solves buttons-and-lights by typing the solver's plan into play, with
 * undo, restart, hint and mistakes on the way. */
START_TEST(test_cli_play_pipe)
{
  char *plan, *out, *err, cmd[4096], *p;
  size_t at = 0;
  ck_assert_int_eq(tu_gdl_run(&plan, &err, "solve --quiet " BUTTONS), 0);
  free(err);
  at = (size_t)snprintf(cmd, sizeof cmd, "printf 'h\\nzz(\\n9\\n(press q)"
                        "\\nu\\n1\\nu\\nr\\n");
  for (p = plan; *p && *p != ';' && at + 3 < sizeof cmd; p++) {
    if (*p == '\n') {            /* the plan's lines, as printf escapes */
      cmd[at++] = '\\';
      cmd[at++] = 'n';
    } else {
      cmd[at++] = *p;
    }
  }
  snprintf(cmd + at, sizeof cmd - at, "u\\nq\\n' | %s play %s", tu_gdl(),
           BUTTONS);
  ck_assert_int_eq(tu_run(cmd, &out, &err), 0);
  ck_assert_str_eq(err, "");
  ck_assert_ptr_nonnull(strstr(out, "hint: a  (a shortest plan from here "
                                    "takes 6 moves)"));
  ck_assert_ptr_nonnull(strstr(out, "Not a move or a command: zz("));
  ck_assert_ptr_nonnull(strstr(out, "There is no move 9: pick 1 to 3."));
  ck_assert_ptr_nonnull(strstr(out, "(press q) is not a legal move"));
  ck_assert_ptr_nonnull(strstr(out, "Nothing to undo"));
  ck_assert_ptr_nonnull(strstr(out, "Restarted."));
  ck_assert_ptr_nonnull(strstr(out, "State after 6 moves:\n"
                                    "  lamp: p on | q on | r on\n"
                                    "The game is over: player goal 100.  "
                                    "Solved!"));
  ck_assert_ptr_nonnull(strstr(out, "Undone.\n\nState after 5 moves:"));
  free(plan);
  free(out);
  free(err);
  /* the end of the input ends the game quietly */
  snprintf(cmd, sizeof cmd, "printf '1\\n' | %s play %s", tu_gdl(), BUTTONS);
  ck_assert_int_eq(tu_run(cmd, &out, &err), 0);
  free(out);
  free(err);
}
END_TEST

/* Two roles: each chooses in turn; a role with one move plays it. */
START_TEST(test_cli_play_two_roles)
{
  char *out, *err, cmd[2048];
  snprintf(cmd, sizeof cmd, "printf '1\\n(mark 2 2)\\nq\\n' | %s play %s",
           tu_gdl(), tu_corpus("multi/ticTacToe.kif"));
  ck_assert_int_eq(tu_run(cmd, &out, &err), 0);
  ck_assert_ptr_nonnull(strstr(out, "oplayer plays noop (its only move)"));
  ck_assert_ptr_nonnull(strstr(out, "xplayer plays noop (its only move)"));
  ck_assert_ptr_nonnull(strstr(out, "State after 2 moves:"));
  ck_assert_ptr_nonnull(strstr(out, "2 2 o"));
  free(out);
  free(err);
}
END_TEST

/* The wolf-goat-cabbage graph through dot: every state a node, every move
 * an edge, the plan's edges red, as many as the solver's plan is long. */
START_TEST(test_cli_graph_dot)
{
  char *dotsrc, *svg, *err, *sol, cmd[1024];
  size_t nodes, edges, red;
  ck_assert_int_eq(tu_gdl_run(&dotsrc, &err, "graph --plan " WGC), 0);
  free(err);
  nodes = count(dotsrc, "\n  s") - count(dotsrc, " -> ");
  edges = count(dotsrc, " -> ");
  red = count(dotsrc, "penwidth=3");
  ck_assert_uint_gt(nodes, 5);
  ck_assert_uint_eq(count(dotsrc, "peripheries=2"), 1);
  ck_assert_uint_ge(count(dotsrc, "#a8e6a1"), 1);
  ck_assert_int_eq(tu_gdl_run(&sol, &err, "solve --json " WGC), 0);
  ck_assert_ptr_nonnull(strstr(sol, "\"length\": 7"));
  ck_assert_uint_eq(red, 7);
  free(sol);
  free(err);
  snprintf(cmd, sizeof cmd, "%s graph --plan %s | dot -Tsvg", tu_gdl(), WGC);
  ck_assert_int_eq(tu_run(cmd, &svg, &err), 0);
  ck_assert_ptr_nonnull(strstr(svg, "<svg"));
  ck_assert_ptr_nonnull(strstr(svg, "</svg>"));
  ck_assert_uint_eq(count(svg, "class=\"node\""), nodes);
  ck_assert_uint_eq(count(svg, "class=\"edge\""), edges);
  ck_assert_ptr_nonnull(strstr(svg, "(cross goat)"));
  free(dotsrc);
  free(svg);
  free(err);
  /* a limit: the states found so far, the unexpanded ones dashed, exit 3 */
  ck_assert_int_eq(tu_gdl_run(&dotsrc, &err, "graph --max-states 20 "
                       "puzzles/eight-puzzle-easy.kif"), 3);
  ck_assert_uint_eq(count(dotsrc, "\n  s") - count(dotsrc, " -> "), 20);
  ck_assert_uint_gt(count(dotsrc, "style=dashed"), 0);
  ck_assert_ptr_nonnull(strstr(err, "stopped at 20 states"));
  free(dotsrc);
  free(err);
}
END_TEST

START_TEST(test_cli_teach_help)
{
  static const char *const cmds[] = { "play", "explain", "trace", "graph" };
  size_t i;
  for (i = 0; i < 4; i++) {
    char *out, *err;
    ck_assert_int_eq(tu_gdl_run(&out, &err, "%s --help", cmds[i]), 0);
    ck_assert_ptr_nonnull(strstr(out, cmds[i]));
    ck_assert_uint_gt(count(out, "\n"), 4);
    free(out);
    free(err);
  }
}
END_TEST

/* ---- graph ------------------------------------------------------------ */

/* gdl_graph_dot from a state: buttons and lights has 8 states and 21
 * moves; the plan is drawn in red only when asked; a limit leaves the
 * graph incomplete and its frontier dashed; the current state is the
 * start again afterwards. */
START_TEST(test_graph_dot)
{
  gdl_ctx *ctx = buttons_after("a");
  gdl_state s = { 0, 0, NULL }, after = { 0, 0, NULL };
  gdl_graph_info info;
  const char *dot;
  ck_assert_int_eq(gdl_current(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_graph_dot(ctx, &s, "b\"l", 0, 1, &dot, &info), GDL_OK);
  ck_assert_uint_eq(info.states, 8);
  ck_assert_uint_eq(info.edges, 21);     /* the goal state is terminal */
  ck_assert(info.complete && info.goal_found);
  ck_assert_msg(strncmp(dot, "digraph \"b\\\"l\" {\n",
                        strlen("digraph \"b\\\"l\" {\n")) == 0, "%s", dot);
  ck_assert_int_eq(count(dot, ", color=red"), 5);   /* 5 moves from p on */
  ck_assert_int_eq(count(dot, "/* start */"), 1);
  ck_assert_int_eq(count(dot, "terminal, goal 100"), 1);
  ck_assert_int_eq(gdl_current(ctx, &after), GDL_OK);
  ck_assert(gdl_state_equal(&s, &after));
  ck_assert_int_eq(gdl_graph_dot(ctx, &s, "b", 3, 0, &dot, &info), GDL_OK);
  ck_assert_uint_eq(info.states, 3);
  ck_assert(!info.complete);
  ck_assert_int_eq(count(dot, ", color=red"), 0);
  ck_assert_int_ge(count(dot, "style=dashed"), 1);
  gdl_state_release(ctx, &s);
  gdl_state_release(ctx, &after);
  gdl_free(ctx);
}
END_TEST

Suite *teach_suite(void)
{
  Suite *s = suite_create("teach");
  TCase *t = tcase_create("library");
  TCase *c = tcase_create("commands");
  tcase_add_test(t, test_trace_buttons);
  tcase_add_test(t, test_trace_rounds);
  tcase_add_test(t, test_trace_bad_moves);
  tcase_add_test(t, test_explain_holds);
  tcase_add_test(t, test_explain_next);
  tcase_add_test(t, test_explain_why_not);
  tcase_add_test(t, test_explain_recursive);
  tcase_add_test(t, test_graph_dot);
  tcase_set_timeout(c, 60);
  tcase_add_test(c, test_cli_explain_trace);
  tcase_add_test(c, test_cli_play_pipe);
  tcase_add_test(c, test_cli_play_two_roles);
  tcase_add_test(c, test_cli_graph_dot);
  tcase_add_test(c, test_cli_teach_help);
  tcase_add_loop_test(c, test_words, 0, sizeof words / sizeof *words);
  tcase_add_test(c, test_words_hints);
  suite_add_tcase(s, t);
  suite_add_tcase(s, c);
  return s;
}
