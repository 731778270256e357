/*
 * check_ground.c - the grounded engine's reshaping of the network (doc/
 * engine.md section 8), each on a small game written to need it: every
 * state reachable from the start (up to a bound) gets the same legal
 * moves, terminal, goals and next states from the grounded engine as from
 * the interpreter.  And the corpus games the reshaping is for keep their
 * small networks: a size past the bound means a step stopped applying.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---- both engines over the reachable states ----------------------------- */

typedef struct {
  gdl_term *legal[8];
  size_t nlegal[8];
  int terminal;
  long goal[8];
} answers_t;

static void answers(gdl_ctx *ctx, gdl_engine e, const gdl_state *s,
                    answers_t *a)
{
  size_t r, k = gdl_role_count(ctx);
  ck_assert_int_eq(gdl_use_engine(ctx, e), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ctx, s), GDL_OK);
  a->terminal = gdl_terminal(ctx);
  for (r = 0; r < k; r++) {
    const gdl_term *m;
    ck_assert_int_eq(gdl_legal(ctx, r, &m, &a->nlegal[r]), GDL_OK);
    a->legal[r] = malloc((a->nlegal[r] + 1) * sizeof *m);
    memcpy(a->legal[r], m, a->nlegal[r] * sizeof *m);
    a->goal[r] = gdl_goal(ctx, r);
  }
}

/* Breadth first from the start, up to max states; fails the test at the
 * first difference between the engines.  Returns the states visited. */
static size_t same_engines(gdl_ctx *ctx, size_t max)
{
  size_t k = gdl_role_count(ctx), n = 1, i, r, j;
  gdl_state *q = calloc(max + 1, sizeof *q);
  ck_assert_uint_le(k, 8);
  ck_assert_int_eq(gdl_initial(ctx, &q[0]), GDL_OK);
  for (i = 0; i < n; i++) {
    answers_t a, b;
    size_t pick[8] = { 0 };
    answers(ctx, GDL_ENGINE_INTERP, &q[i], &a);
    answers(ctx, GDL_ENGINE_GROUND, &q[i], &b);
    ck_assert_int_eq(a.terminal, b.terminal);
    for (r = 0; r < k; r++) {
      ck_assert_int_eq(a.goal[r], b.goal[r]);
      ck_assert_uint_eq(a.nlegal[r], b.nlegal[r]);
      ck_assert(memcmp(a.legal[r], b.legal[r],
                       a.nlegal[r] * sizeof *a.legal[r]) == 0);
    }
    for (r = 0; r < k && a.nlegal[r]; r++)
      ;
    while (!a.terminal && r == k) {  /* every joint move */
      gdl_term joint[8];
      gdl_state x = { 0, 0, NULL }, y = { 0, 0, NULL };
      for (r = 0; r < k; r++)
        joint[r] = a.legal[r][pick[r]];
      ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_INTERP), GDL_OK);
      ck_assert_int_eq(gdl_set_state(ctx, &q[i]), GDL_OK);
      ck_assert_int_eq(gdl_next(ctx, joint, &x), GDL_OK);
      ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_GROUND), GDL_OK);
      ck_assert_int_eq(gdl_set_state(ctx, &q[i]), GDL_OK);
      ck_assert_int_eq(gdl_next(ctx, joint, &y), GDL_OK);
      ck_assert_msg(gdl_state_equal(&x, &y), "next states differ");
      for (j = 0; j < n && !gdl_state_equal(&q[j], &x); j++)
        ;
      if (j == n && n < max)
        gdl_state_copy(ctx, &q[n++], &x);
      gdl_state_release(ctx, &x);
      gdl_state_release(ctx, &y);
      for (r = k; r-- > 0;) {          /* the last role's moves fastest */
        if (++pick[r] < a.nlegal[r])
          break;
        pick[r] = 0;
      }
      r = r == (size_t)-1 ? 0 : k;
    }
    for (r = 0; r < k; r++) {
      free(a.legal[r]);
      free(b.legal[r]);
    }
  }
  for (i = 0; i < n; i++)
    gdl_state_release(ctx, &q[i]);
  free(q);
  return n;
}

/* ---- the games -------------------------------------------------------------- */

/* Independent parts (factor_rule), aliases (drop_aliases: `hole`, and
 * `solved` through a `not`), as in the 8-puzzle: a 2x3 sliding puzzle. */
static const char slide[] =
  "(role p)\n"
  "(init (tile 1 1 a)) (init (tile 1 2 b)) (init (tile 1 3 c))\n"
  "(init (tile 2 1 d)) (init (tile 2 2 e)) (init (tile 2 3 blank))\n"
  "(row 1) (row 2) (col 1) (col 2) (col 3) (rs 1 2) (cs 1 2) (cs 2 3)\n"
  "(<= (adj ?r ?c ?r2 ?c) (col ?c) (rs ?r ?r2))\n"
  "(<= (adj ?r ?c ?r2 ?c) (col ?c) (rs ?r2 ?r))\n"
  "(<= (adj ?r ?c ?r ?c2) (row ?r) (cs ?c ?c2))\n"
  "(<= (adj ?r ?c ?r ?c2) (row ?r) (cs ?c2 ?c))\n"
  "(<= (hole ?r ?c) (true (tile ?r ?c blank)))\n"
  "(<= (legal p (slide ?r ?c)) (hole ?br ?bc) (adj ?r ?c ?br ?bc))\n"
  "(<= (next (tile ?r ?c blank)) (does p (slide ?r ?c)))\n"
  "(<= (next (tile ?u ?v ?t)) (does p (slide ?x ?y)) (true (tile ?x ?y ?t))\n"
  "    (hole ?u ?v))\n"
  "(<= (next (tile ?u ?v ?t)) (true (tile ?u ?v ?t))\n"
  "    (does p (slide ?x ?y)) (or (distinct ?x ?u) (distinct ?y ?v))\n"
  "    (true (tile ?x1 ?y1 blank)) (or (distinct ?x1 ?u) (distinct ?y1 ?v)))\n"
  "(<= unsolved (true (tile 1 1 b)))\n"
  "(<= solved (not unsolved))\n"
  "(<= done solved)\n"
  "(<= (goal p 100) done)\n"
  "(<= (goal p 0) (not done))\n"
  "(<= terminal (true (tile 1 1 b)) (true (tile 1 2 a)))\n";

/* One move (exclusive) and gates (gate_legal): two roles take turns
 * moving one of their pieces a step on a 4x4 board, the other noops; a
 * cell keeps its piece unless the move leaves or enters it, so a cell's
 * part holds for all the moves of a role but the few that touch it. */
static const char pieces[] =
  "(role white) (role black)\n"
  "(init (cell 1 1 white)) (init (cell 2 1 white))\n"
  "(init (cell 3 4 black)) (init (cell 4 4 black))\n"
  "(init (control white)) (init (step 0))\n"
  "(n 1) (n 2) (n 3) (n 4) (s 1 2) (s 2 3) (s 3 4)\n"
  "(s 0 1) (s 4 5) (s 5 6)\n"
  "(<= (near ?a ?b) (s ?a ?b)) (<= (near ?a ?b) (s ?b ?a))\n"
  "(<= (near ?a ?a) (n ?a))\n"
  "(<= (step1 ?x ?y ?x2 ?y2) (n ?x) (n ?y) (near ?x ?x2) (near ?y ?y2)\n"
  "    (n ?x2) (n ?y2) (distinct ?x ?x2))\n"
  "(<= (step1 ?x ?y ?x ?y2) (n ?x) (n ?y) (near ?y ?y2) (n ?y2)\n"
  "    (distinct ?y ?y2))\n"
  "(<= (occupied ?x ?y) (true (cell ?x ?y ?p)))\n"
  "(other white black) (other black white)\n"
  "(<= (legal ?p (move ?x ?y ?x2 ?y2)) (true (control ?p))\n"
  "    (true (cell ?x ?y ?p)) (step1 ?x ?y ?x2 ?y2)\n"
  "    (not (occupied ?x2 ?y2)))\n"
  "(<= (legal ?p noop) (true (control ?q)) (other ?p ?q))\n"
  "(<= (differ ?x1 ?y1 ?x2 ?y2) (n ?x1) (n ?y1) (n ?x2) (n ?y2)\n"
  "    (distinct ?x1 ?x2))\n"
  "(<= (differ ?x1 ?y1 ?x2 ?y2) (n ?x1) (n ?y1) (n ?x2) (n ?y2)\n"
  "    (distinct ?y1 ?y2))\n"
  "(<= (next (cell ?x2 ?y2 ?p)) (does ?p (move ?x1 ?y1 ?x2 ?y2)))\n"
  "(<= (next (cell ?x ?y ?q)) (true (cell ?x ?y ?q))\n"
  "    (does ?p (move ?x1 ?y1 ?x2 ?y2))\n"
  "    (differ ?x1 ?y1 ?x ?y) (differ ?x2 ?y2 ?x ?y))\n"
  "(<= (next (control ?q)) (true (control ?p)) (other ?p ?q))\n"
  "(<= (next (step ?b)) (true (step ?a)) (s ?a ?b))\n"
  "(<= terminal (true (step 3)))\n"
  "(<= won (true (cell ?x 4 white)))\n"
  "(<= (goal white 100) won)\n"
  "(<= (goal white 0) (not won))\n"
  "(goal black 50)\n";

/* Shared inputs (share_inputs): the frame of a 2x2 board of digits says a
 * cell keeps its digit when the mark differs in the row, or in the
 * column; the two rests are the same for the three digits of a cell. */
static const char digits[] =
  "(role p)\n"
  "(init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 2 1 b))\n"
  "(init (cell 2 2 b))\n"
  "(i 1) (i 2) (d 1) (d 2) (d 3)\n"
  "(<= (legal p (mark ?x ?y ?v)) (true (cell ?x ?y b)) (d ?v)\n"
  "    (not (used ?x ?v)))\n"
  "(<= (used ?x ?v) (true (cell ?x ?y ?v)) (d ?v))\n"
  "(<= (next (cell ?x ?y ?v)) (does p (mark ?x ?y ?v)))\n"
  "(<= (next (cell ?x ?y ?v)) (true (cell ?x ?y ?v))\n"
  "    (does p (mark ?s ?t ?w)) (distinct ?s ?x))\n"
  "(<= (next (cell ?x ?y ?v)) (true (cell ?x ?y ?v))\n"
  "    (does p (mark ?s ?t ?w)) (distinct ?t ?y))\n"
  "(<= open (true (cell ?x ?y b)))\n"
  "(<= terminal (not open))\n"
  "(<= (goal p 100) (not open))\n"
  "(<= (goal p 0) open)\n";

/* Recursion (unroll): the height of a stack reads the height below it,
 * which has no cycle over atoms and is unrolled; reachability over doors
 * has one (r2 and r3 reach each other, and neither once the door from r1
 * closes) and stays recursive. */
static const char stacks[] =
  "(role p)\n"
  "(init (on a floor)) (init (on b a)) (init (on c floor))\n"
  "(init (open r1 r2)) (init (open r2 r3)) (init (open r3 r2))\n"
  "(init (at r1))\n"
  "(block a) (block b) (block c) (room r1) (room r2) (room r3) (room r4)\n"
  "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)\n"
  "(door r1 r2) (door r2 r3) (door r3 r2) (door r3 r4)\n"
  "(height floor 0)\n"
  "(<= (height ?x ?n) (true (on ?x ?y)) (height ?y ?m) (succ ?m ?n))\n"
  "(<= (clear ?x) (block ?x) (not (covered ?x)))\n"
  "(<= (covered ?y) (true (on ?x ?y)))\n"
  "(reach r1)\n"
  "(<= (reach ?y) (reach ?x) (true (open ?x ?y)))\n"
  "(<= (legal p (put ?x ?y)) (clear ?x) (clear ?y) (distinct ?x ?y))\n"
  "(<= (legal p (put ?x floor)) (clear ?x) (true (on ?x ?y))\n"
  "    (distinct ?y floor))\n"
  "(<= (legal p (toggle ?x ?y)) (door ?x ?y) (reach ?x))\n"
  "(<= (next (on ?x ?y)) (does p (put ?x ?y)))\n"
  "(<= (next (on ?x ?y)) (true (on ?x ?y)) (not (moved ?x)))\n"
  "(<= (moved ?x) (does p (put ?x ?y)))\n"
  "(<= (next (open ?x ?y)) (does p (toggle ?x ?y)) (not (true (open ?x ?y))))\n"
  "(<= (next (open ?x ?y)) (true (open ?x ?y)) (not (does p (toggle ?x ?y))))\n"
  "(<= (next (at ?x)) (true (at ?x)))\n"
  "(<= tall (height ?x 3))\n"
  "(<= terminal tall (reach r4))\n"
  "(<= (goal p 100) tall)\n"
  "(<= (goal p 0) (not tall))\n";

/* A relation whose rules are in two components: lit comes from `on`
 * (the first) and along wires (the second, recursive).  The relaxed
 * fixpoint's round that first has an `on` must run the recursive rule
 * over that new lit too, though no wire is new then: else (lit c) and
 * (shine c) are missing from the network. */
static const char wires[] =
  "(role p)\n"
  "(init (step 0))\n"
  "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)\n"
  "(adj a b) (adj b c) (adj c d) (adj d e)\n"
  "(<= (lit ?x) (true (on ?x)))\n"
  "(<= (lit ?y) (lit ?x) (adj ?x ?y) (true (wire ?x)))\n"
  "(<= (legal p (wire ?x)) (adj ?x ?y) (not (true (wire ?x))))\n"
  "(<= (legal p (put b)) (true (step 2)))\n"
  "(<= (legal p (shine ?x)) (lit ?x))\n"
  "(<= (legal p wait) (true (step ?n)))\n"
  "(<= (next (wire ?x)) (does p (wire ?x)))\n"
  "(<= (next (wire ?x)) (true (wire ?x)))\n"
  "(<= (next (on ?x)) (does p (put ?x)))\n"
  "(<= (next (on ?x)) (true (on ?x)))\n"
  "(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))\n"
  "(<= terminal (true (step 5)))\n"
  "(<= (goal p 100) (lit e))\n"
  "(<= (goal p 0) (not (lit e)))\n";

static const struct {
  const char *text;
  size_t max, min;         /* states to visit at most, reached at least */
} games[] = {
  { slide, 400, 300 },     /* all 360 but the terminal ones' children */
  { pieces, 600, 100 },
  { digits, 600, 50 },
  { stacks, 600, 100 },
  { wires, 600, 40 },
};

START_TEST(test_same_answers)
{
  gdl_ctx *ctx = tu_text(games[_i].text, 0);
  ck_assert_uint_ge(same_engines(ctx, games[_i].max), games[_i].min);
  gdl_free(ctx);
}
END_TEST

/* ---- playouts ------------------------------------------------------------ */

static int count_answer(void *arg, gdl_term t)
{
  (void)t;
  ++*(size_t *)arg;
  return 0;
}

/* The current state of ctx as text (malloc'd). */
static char *current_text(gdl_ctx *ctx, gdl_state *s)
{
  ck_assert_int_eq(gdl_current(ctx, s), GDL_OK);
  return tu_terms_text(ctx, s->facts, s->n);
}

/* gdl_advance: random playouts with a grounded and an interpreted context
 * side by side, the same joint move played in both; at every step the
 * same facts (gdl_current), terminal, legal moves and goals, and a
 * question about the grounded state sees it (its facts are made again
 * from the network after an advance).  The contexts' term ids differ, so
 * they are compared as text. */
static void same_playouts(gdl_ctx *g, gdl_ctx *in, int playouts, int steps)
{
  size_t k = gdl_role_count(g), r;
  gdl_state gi = { 0, 0, NULL }, ii = { 0, 0, NULL };
  gdl_state a = { 0, 0, NULL }, b = { 0, 0, NULL };
  uint64_t x = 7;
  gdl_term pat;
  int p, t;
  ck_assert_uint_le(k, 8);
  ck_assert_int_eq(gdl_use_engine(g, GDL_ENGINE_GROUND), GDL_OK);
  ck_assert_int_eq(gdl_use_engine(in, GDL_ENGINE_INTERP), GDL_OK);
  ck_assert_int_eq(gdl_parse_term(g, "(true ?x)", 1, &pat), GDL_OK);
  ck_assert_int_eq(gdl_initial(g, &gi), GDL_OK);
  ck_assert_int_eq(gdl_initial(in, &ii), GDL_OK);
  for (p = 0; p < playouts; p++) {
    ck_assert_int_eq(gdl_set_state(g, &gi), GDL_OK);
    ck_assert_int_eq(gdl_set_state(in, &ii), GDL_OK);
    for (t = 0; t < steps; t++) {
      gdl_term joint[8], ijoint[8];
      char *sa = current_text(g, &a), *sb = current_text(in, &b);
      size_t n = 0;
      ck_assert_msg(strcmp(sa, sb) == 0, "step %d: %s\nnot %s", t, sa, sb);
      free(sa);
      free(sb);
      sa = sb = NULL;
      if (t % 3 == 1) {
        ck_assert_int_eq(gdl_query(g, pat, count_answer, &n), GDL_OK);
        ck_assert_uint_eq(n, a.n);
      }
      ck_assert_int_eq(gdl_terminal(g), gdl_terminal(in));
      if (gdl_terminal(in))
        break;
      for (r = 0; r < k; r++) {
        const gdl_term *mg, *mi;
        size_t ng, ni, j;
        ck_assert_int_eq(gdl_goal(g, r), gdl_goal(in, r));
        ck_assert_int_eq(gdl_legal(g, r, &mg, &ng), GDL_OK);
        ck_assert_int_eq(gdl_legal(in, r, &mi, &ni), GDL_OK);
        ck_assert_uint_eq(ng, ni);
        for (j = 0; j < ni; j++) {  /* both in gdl_term_cmp order */
          sa = tu_terms_text(g, &mg[j], 1);
          sb = tu_terms_text(in, &mi[j], 1);
          ck_assert_str_eq(sa, sb);
          free(sa);
          free(sb);
        }
        if (ni == 0)
          break;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        j = (size_t)((x >> 33) % ni);
        joint[r] = mg[j];
        ijoint[r] = mi[j];
      }
      if (r < k)
        break;
      ck_assert_int_eq(gdl_advance(g, joint), GDL_OK);
      ck_assert_int_eq(gdl_advance(in, ijoint), GDL_OK);
    }
  }
  gdl_state_release(g, &a);
  gdl_state_release(in, &b);
  gdl_state_release(g, &gi);
  gdl_state_release(in, &ii);
}

START_TEST(test_advance_same)
{
  gdl_ctx *g = tu_text(games[_i].text, 0), *in = tu_text(games[_i].text, 0);
  same_playouts(g, in, 20, 60);
  gdl_free(g);
  gdl_free(in);
}
END_TEST

static const char *const played[] = {
  "multi/ticTacToe.kif", "multi/breakthrough.kif", "single/eightPuzzle.kif",
  "single/hanoi.kif", "multi/connectFour.kif",
  "single/pancakes88.kif",   /* moves read by ready lists in playouts too */
};

START_TEST(test_advance_corpus)
{
  gdl_status st;
  gdl_ctx *g = tu_load(&st, 0, tu_corpus(played[_i]), NULL), *in;
  ck_assert_int_eq(st, GDL_OK);
  in = tu_load(&st, 0, tu_corpus(played[_i]), NULL);
  ck_assert_int_eq(st, GDL_OK);
  same_playouts(g, in, 5, 80);
  gdl_free(g);
  gdl_free(in);
}
END_TEST

/* gdl_random_steps with each engine, from the start with one seed: the
 * same moves picked (both list them in gdl_term_cmp order), so the same
 * steps, the same end and the same facts, in runs of a few steps. */
static void same_random_steps(gdl_ctx *g, gdl_ctx *in, int playouts)
{
  gdl_state gi = { 0, 0, NULL }, ii = { 0, 0, NULL };
  gdl_state a = { 0, 0, NULL }, b = { 0, 0, NULL };
  uint64_t xg = 7, xi = 7;
  int t;
  ck_assert_int_eq(gdl_use_engine(g, GDL_ENGINE_GROUND), GDL_OK);
  ck_assert_int_eq(gdl_use_engine(in, GDL_ENGINE_INTERP), GDL_OK);
  ck_assert_int_eq(gdl_initial(g, &gi), GDL_OK);
  ck_assert_int_eq(gdl_initial(in, &ii), GDL_OK);
  for (t = 0; t < playouts; t++) {
    int og = 0, oi = 0, runs = 0;
    ck_assert_int_eq(gdl_set_state(g, &gi), GDL_OK);
    ck_assert_int_eq(gdl_set_state(in, &ii), GDL_OK);
    while (!og && runs++ < 40) {
      size_t ng, ni;
      char *sa, *sb;
      ck_assert_int_eq(gdl_random_steps(g, &xg, 3, &ng, &og), GDL_OK);
      ck_assert_int_eq(gdl_random_steps(in, &xi, 3, &ni, &oi), GDL_OK);
      ck_assert_uint_eq(ng, ni);
      ck_assert_int_eq(og, oi);
      ck_assert(ng == 3 || og);
      sa = current_text(g, &a);
      sb = current_text(in, &b);
      ck_assert_msg(strcmp(sa, sb) == 0, "playout %d: %s\nnot %s", t, sa, sb);
      free(sa);
      free(sb);
    }
    ck_assert_uint_eq(xg, xi);
  }
  gdl_state_release(g, &gi);
  gdl_state_release(in, &ii);
  gdl_state_release(g, &a);
  gdl_state_release(in, &b);
}

START_TEST(test_random_steps_same)
{
  gdl_ctx *g = tu_text(games[_i].text, 0), *in = tu_text(games[_i].text, 0);
  same_random_steps(g, in, 10);
  gdl_free(g);
  gdl_free(in);
}
END_TEST

START_TEST(test_random_steps_corpus)
{
  gdl_status st;
  gdl_ctx *g = tu_load(&st, 0, tu_corpus(played[_i]), NULL), *in;
  ck_assert_int_eq(st, GDL_OK);
  in = tu_load(&st, 0, tu_corpus(played[_i]), NULL);
  ck_assert_int_eq(st, GDL_OK);
  same_random_steps(g, in, 3);
  gdl_free(g);
  gdl_free(in);
}
END_TEST

/* ---- search ------------------------------------------------------------- */

/* A search follows moves read by many rules with ready lists (the 8-puzzle's
 * slides: each read by 18 rules); playouts do not.  With the grounded
 * engine it keeps states as bits over the fluent slots.  Each algorithm
 * must find the same plan, expanding and storing the same states, with the
 * grounded engine as with the interpreter. */

/* A fluent only `init` gives, read by rules: (step 0) has a slot after
 * those of the `next` outputs. */
#define COUNTER \
  "(role p)\n" \
  "(init (step 0)) (init (lamp off))\n" \
  "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)\n" \
  "(<= (legal p tick) (true (step ?x)))\n" \
  "(<= (legal p flip) (true (step ?x)))\n" \
  "(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))\n" \
  "(<= (next (lamp on)) (does p flip) (true (lamp off)))\n" \
  "(<= (next (lamp off)) (does p flip) (true (lamp on)))\n" \
  "(<= (next (lamp ?s)) (does p tick) (true (lamp ?s)))\n" \
  "(<= terminal (true (step 4)))\n" \
  "(<= (goal p 100) (true (lamp on)))\n" \
  "(<= (goal p 0) (true (lamp off)))\n"

/* Two roles that pick at once: a search goes through joint moves, from
 * the one played last where it is legal (see expand_successors in
 * engine/search/expand.c). */
#define PICKS \
  "(role x) (role o)\n" \
  "(init (cell 0))\n" \
  "(succ 0 1) (succ 1 2) (succ 2 3)\n" \
  "(move a) (move b) (move c)\n" \
  "(<= (legal ?r (pick ?m)) (role ?r) (move ?m))\n" \
  "(<= (next (cell ?n)) (true (cell ?c)) (succ ?c ?n)\n" \
  "    (does x (pick ?m)) (does o (pick ?m2)) (distinct ?m ?m2))\n" \
  "(<= (next (cell ?c)) (true (cell ?c)) (does x (pick ?m)) (does o (pick ?m)))\n" \
  "(<= (next (last ?m ?m2)) (does x (pick ?m)) (does o (pick ?m2)))\n" \
  "(<= terminal (true (cell 3)))\n" \
  "(<= (goal x 100) (true (cell 3)) (true (last c a)))\n" \
  "(<= (goal x 0) (not (true (last c a))))\n" \
  "(<= (goal o 50) (true (cell ?c)))\n"

static const struct {
  const char *file, *text;
  int bits;                /* grounded states take fewer bytes */
} searched[] = {
  { "puzzles/eight-puzzle-31.kif", NULL, 1 },
  { "puzzles/dogbunny-2022-12-24.kif", NULL, 0 },
  { "puzzles/hanoi5.kif", NULL, 0 },
  { "puzzles/lights-out-3x3.kif", NULL, 0 },
  { NULL, COUNTER, 0 },
  { NULL, PICKS, 0 },
  /* a fact no rule reads and none derives has no slot: states stay facts */
  { NULL, COUNTER "(init (label start))\n", 0 },
};

START_TEST(test_search_same)
{
  static const gdl_algorithm alg[] = { GDL_BFS, GDL_DFS, GDL_IDDFS };
  gdl_status st = GDL_OK;
  gdl_ctx *ctx = searched[_i].file ? tu_load(&st, 0, searched[_i].file, NULL)
                                   : tu_text(searched[_i].text, 0);
  size_t a;
  ck_assert_int_eq(st, GDL_OK);
  for (a = 0; a < 3; a++) {
    gdl_solve_opts o;
    gdl_solve_result g, in;
    size_t glen;
    gdl_term *gplan;
    memset(&o, 0, sizeof o);
    o.algorithm = alg[a];
    o.max_states = 200000;
    o.stubborn = -1;           /* the grounded network's alone (Lights Out) */
    ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_GROUND), GDL_OK);
    ck_assert_int_eq(gdl_solve(ctx, &o, &g), GDL_OK);
    glen = g.length;
    gplan = malloc((glen + 1) * sizeof *gplan);
    if (glen)                  /* the plan lasts until the next solve */
      memcpy(gplan, g.plan, glen * sizeof *gplan);
    ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_INTERP), GDL_OK);
    ck_assert_int_eq(gdl_solve(ctx, &o, &in), GDL_OK);
    ck_assert_int_eq(g.status, in.status);
    ck_assert_uint_eq(glen, in.length);
    ck_assert(glen == 0 || memcmp(gplan, in.plan, glen * sizeof *gplan) == 0);
    ck_assert_uint_eq(g.expanded, in.expanded);
    ck_assert_uint_eq(g.generated, in.generated);
    ck_assert_uint_eq(g.stored, in.stored);
    if (searched[_i].bits && alg[a] != GDL_IDDFS)  /* 4 words, not 9 facts */
      ck_assert_double_lt(g.bytes_per_state, in.bytes_per_state);
    free(gplan);
  }
  gdl_free(ctx);
}
END_TEST

/* ---- the corpus games each step is for ------------------------------------ */

static const struct {
  const char *file;
  size_t max_rules;        /* about twice what it grounds to now */
  size_t before;           /* what it grounded to before the step */
} sizes[] = {
  { "single/eightPuzzle.kif", 1500, 12254 },    /* independent parts */
  { "multi/breakthrough.kif", 4500, 20060 },    /* one move */
  { "single/sudokuGrade1.kif", 16000, 639008 }, /* parts, shared inputs */
  { "single/nonogram_5x5_1.kif", 1500, 2116 },  /* rules no output needs */
  /* outputs that are their input (alias_outputs): the turn's legal noops
   * and next control, and the 18 gated marks; 26 rules of 196 */
  { "multi/ticTacToe.kif", 175, 196 },
};

START_TEST(test_network_sizes)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load(&st, 0, tu_corpus(sizes[_i].file), NULL);
  size_t rules, inputs;
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_GROUND), GDL_OK);
  ck_assert_uint_gt(gdl_ground_size(ctx, &rules, &inputs), 0);
  ck_assert_msg(rules <= sizes[_i].max_rules,
                "%s: %zu ground rules (%zu before reshaping)",
                sizes[_i].file, rules, sizes[_i].before);
  gdl_free(ctx);
}
END_TEST

Suite *ground_suite(void)
{
  Suite *s = suite_create("ground");
  TCase *tc = tcase_create("reshaping");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_same_answers, 0,
                      (int)(sizeof games / sizeof games[0]));
  tcase_add_loop_test(tc, test_network_sizes, 0,
                      (int)(sizeof sizes / sizeof sizes[0]));
  tcase_add_loop_test(tc, test_search_same, 0,
                      (int)(sizeof searched / sizeof searched[0]));
  tcase_add_loop_test(tc, test_advance_same, 0,
                      (int)(sizeof games / sizeof games[0]));
  tcase_add_loop_test(tc, test_advance_corpus, 0,
                      (int)(sizeof played / sizeof played[0]));
  tcase_add_loop_test(tc, test_random_steps_same, 0,
                      (int)(sizeof games / sizeof games[0]));
  tcase_add_loop_test(tc, test_random_steps_corpus, 0,
                      (int)(sizeof played / sizeof played[0]));
  suite_add_tcase(s, tc);
  return s;
}
