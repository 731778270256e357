/* check_play.c - the move chooser (gdl_choose_move): MCTS takes a win in
 * one and blocks a threat on tic-tac-toe whatever the seed, is the same
 * given the seed, beats a random player, plays simultaneous moves; the
 * random chooser plays legal moves; the errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static gdl_ctx *ttt(void)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load(&st, 0, tu_corpus("multi/ticTacToe.kif"), NULL);
  ck_assert_int_eq(st, GDL_OK);
  return ctx;
}

/* xplayer's move chosen after `moves` with `playouts` rounds and a seed,
 * by trees on `threads` threads. */
static char *x_move_on(gdl_ctx *ctx, const char *moves, uint64_t playouts,
                       uint64_t seed, unsigned threads, gdl_choose_info *info)
{
  gdl_state s = { 0, 0, NULL };
  gdl_choose_opts o;
  gdl_term mv;
  char *txt;
  memset(&o, 0, sizeof o);
  o.kind = GDL_CHOOSE_MCTS;
  o.playouts = playouts;
  o.seed = seed;
  o.threads = threads;
  tu_play(ctx, moves, &s);
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 0, &o, &mv, info), GDL_OK);
  ck_assert(gdl_is_legal(ctx, 0, mv));
  txt = strdup(gdl_term_str(ctx, mv));
  gdl_state_release(ctx, &s);
  return txt;
}

static char *x_move(gdl_ctx *ctx, const char *moves, uint64_t playouts,
                    uint64_t seed, gdl_choose_info *info)
{
  return x_move_on(ctx, moves, playouts, seed, 1, info);
}

/* X on 1 1 and 1 2, O on 2 1 and 2 2: X wins at 1 3, proven. */
START_TEST(test_mcts_takes_win)
{
  gdl_ctx *ctx = ttt();
  gdl_choose_info info;
  char *m = x_move(ctx, "(mark 1 1) noop noop (mark 2 1) (mark 1 2) noop "
                        "noop (mark 2 2)", 2000, (uint64_t)_i * 7919 + 1,
                   &info);
  ck_assert_str_eq(m, "(mark 1 3)");
  ck_assert_int_eq(info.proven, 1);
  ck_assert_int_eq(info.proven_goal, 100);
  ck_assert_uint_le(info.playouts, 2000);
  free(m);
  gdl_free(ctx);
}
END_TEST

/* X on 1 1 and 3 3, O on 2 1 and 2 2 threatening 2 3: X blocks there. */
START_TEST(test_mcts_blocks)
{
  gdl_ctx *ctx = ttt();
  gdl_choose_info info;
  char *m = x_move(ctx, "(mark 1 1) noop noop (mark 2 1) (mark 3 3) noop "
                        "noop (mark 2 2)", 3000, (uint64_t)_i * 104729 + 3,
                   &info);
  ck_assert_str_eq(m, "(mark 2 3)");
  free(m);
  gdl_free(ctx);
}
END_TEST

/* The same seed and budget: the same move and the same counts. */
START_TEST(test_mcts_deterministic)
{
  gdl_ctx *ctx = ttt();
  gdl_choose_info a, b;
  char *m1 = x_move(ctx, "", 1500, 42, &a);
  char *m2 = x_move(ctx, "", 1500, 42, &b);
  ck_assert_str_eq(m1, m2);
  ck_assert_uint_eq(a.playouts, b.playouts);
  ck_assert_uint_eq(a.nodes, b.nodes);
  ck_assert(a.value == b.value);
  ck_assert_uint_eq(a.playouts, 1500);
  free(m1);
  free(m2);
  gdl_free(ctx);
}
END_TEST

/* Plays a whole game, role 0 by `c0`, role 1 by `c1`; the state
 * terminal at the end; returns role 0's goal. */
static long play_game(gdl_ctx *ctx, gdl_chooser c0, gdl_chooser c1,
                      uint64_t playouts, uint64_t seed)
{
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  gdl_term joint[2];
  long g;
  int steps = 0;
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ctx, &s), GDL_OK);
  while (!gdl_terminal(ctx)) {
    size_t r;
    for (r = 0; r < 2; r++) {
      gdl_choose_opts o;
      memset(&o, 0, sizeof o);
      o.kind = r ? c1 : c0;
      o.playouts = playouts;
      o.seed = seed + (uint64_t)steps * 31 + r;
      ck_assert_int_eq(gdl_choose_move(ctx, &s, r, &o, &joint[r], NULL), GDL_OK);
      ck_assert(gdl_is_legal(ctx, r, joint[r]));
    }
    ck_assert_int_eq(gdl_next(ctx, joint, &nx), GDL_OK);
    ck_assert_int_eq(gdl_state_copy(ctx, &s, &nx), GDL_OK);
    ck_assert_int_eq(gdl_set_state(ctx, &s), GDL_OK);
    ck_assert_int_lt(++steps, 100);
  }
  g = gdl_goal(ctx, 0);
  gdl_state_release(ctx, &s);
  gdl_state_release(ctx, &nx);
  return g;
}

/* As either side, MCTS with 2,000 rounds a move never loses to random
 * play on tic-tac-toe, and wins most games. */
START_TEST(test_mcts_beats_random)
{
  gdl_ctx *ctx = ttt();
  int i, wins = 0;
  for (i = 0; i < 6; i++) {
    long gx = play_game(ctx, i % 2 ? GDL_CHOOSE_RANDOM : GDL_CHOOSE_MCTS,
                        i % 2 ? GDL_CHOOSE_MCTS : GDL_CHOOSE_RANDOM, 2000,
                        (uint64_t)i * 1000 + 17);
    long mine = i % 2 ? 100 - gx : gx;
    ck_assert_msg(mine >= 50, "game %d: MCTS lost (xplayer's goal %ld)", i, gx);
    wins += mine == 100;
  }
  ck_assert_int_ge(wins, 3);
  gdl_free(ctx);
}
END_TEST

/* perfect: the game's value from each state.  Against itself tic-tac-toe
 * is a draw; against MCTS or random play it never loses, as either side;
 * it takes a win in one, proven, without a playout. */
START_TEST(test_perfect_play)
{
  gdl_ctx *ctx = ttt();
  gdl_state s = { 0, 0, NULL };
  gdl_choose_opts o;
  gdl_choose_info info;
  gdl_term mv;
  int i;
  ck_assert_int_eq(play_game(ctx, GDL_CHOOSE_PERFECT, GDL_CHOOSE_PERFECT,
                             0, 5), 50);
  for (i = 0; i < 4; i++) {
    gdl_chooser other = i < 2 ? GDL_CHOOSE_MCTS : GDL_CHOOSE_RANDOM;
    long gx = play_game(ctx, i % 2 ? other : GDL_CHOOSE_PERFECT,
                        i % 2 ? GDL_CHOOSE_PERFECT : other, 200,
                        (uint64_t)i * 77 + 3);
    ck_assert_msg((i % 2 ? 100 - gx : gx) >= 50, "game %d: perfect lost "
                  "(xplayer's goal %ld)", i, gx);
  }
  memset(&o, 0, sizeof o);
  o.kind = GDL_CHOOSE_PERFECT;
  tu_play(ctx, "(mark 1 1) noop noop (mark 2 1) (mark 1 2) noop noop "
          "(mark 2 2)", &s);
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 0, &o, &mv, &info), GDL_OK);
  ck_assert_str_eq(gdl_term_str(ctx, mv), "(mark 1 3)");
  ck_assert_int_eq(info.proven, 1);
  ck_assert_int_eq(info.proven_goal, 100);
  ck_assert_uint_eq(info.playouts, 0);
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
}
END_TEST

/* A game perfect cannot prove in its time (connect four from the start,
 * 0.2 s) is played by MCTS for the time left: a legal move, not proven. */
START_TEST(test_perfect_falls_back)
{
  gdl_status st;
  gdl_ctx *ctx = tu_load(&st, 0, tu_corpus("multi/connectFour.kif"), NULL);
  gdl_state s = { 0, 0, NULL };
  gdl_choose_opts o;
  gdl_choose_info info;
  gdl_term mv;
  ck_assert_int_eq(st, GDL_OK);
  memset(&o, 0, sizeof o);
  o.kind = GDL_CHOOSE_PERFECT;
  o.seconds = 0.2;
  tu_play(ctx, "", &s);
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 0, &o, &mv, &info), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ctx, &s), GDL_OK);
  ck_assert(gdl_is_legal(ctx, 0, mv));
  ck_assert_int_eq(info.proven, 0);
  ck_assert_uint_gt(info.playouts, 0);
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
}
END_TEST

/* Simultaneous moves: each picks a number; the higher wins, the same is
 * a draw; 3 is legal only for the row player.  The row player's best move,
 * 3, is found by its own statistics. */
static const char simultaneous[] =
  "(role row) (role col)\n"
  "(init (turn 0))\n"
  "(n 1) (n 2)\n"
  "(<= (legal ?r (pick ?x)) (role ?r) (n ?x))\n"
  "(legal row (pick 3))\n"
  "(<= (next (picked ?r ?x)) (does ?r (pick ?x)))\n"
  "(next done)\n"
  "(<= terminal (true done))\n"
  "(gt 2 1) (gt 3 1) (gt 3 2)\n"
  "(<= (wins ?r) (true (picked ?r ?x)) (true (picked ?s ?y)) (gt ?x ?y))\n"
  "(<= (goal ?r 100) (role ?r) (wins ?r))\n"
  "(<= (goal ?r 0) (role ?r) (true (picked ?r ?x)) (true (picked ?s ?y))\n"
  "    (gt ?y ?x))\n"
  "(<= (goal ?r 50) (role ?r) (true (picked ?r ?x)) (true (picked ?s ?x)))\n"
  "(<= (goal ?r 50) (role ?r) (true (turn 0)))\n";

START_TEST(test_mcts_simultaneous)
{
  gdl_ctx *ctx = tu_text(simultaneous, 0);
  gdl_state s = { 0, 0, NULL };
  gdl_choose_opts o;
  gdl_choose_info info;
  gdl_term mv;
  memset(&o, 0, sizeof o);
  o.playouts = 500;
  o.seed = 5;
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 0, &o, &mv, &info), GDL_OK);
  ck_assert_str_eq(gdl_term_str(ctx, mv), "(pick 3)");
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 1, &o, &mv, &info), GDL_OK);
  ck_assert(gdl_is_legal(ctx, 1, mv));
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
}
END_TEST

/* random: a legal move, the same for the same seed; errors. */
START_TEST(test_choose_random_and_errors)
{
  gdl_ctx *ctx = ttt();
  gdl_state s = { 0, 0, NULL };
  gdl_choose_opts o;
  gdl_term a, b;
  memset(&o, 0, sizeof o);
  o.kind = GDL_CHOOSE_RANDOM;
  o.seed = 9;
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 0, &o, &a, NULL), GDL_OK);
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 0, &o, &b, NULL), GDL_OK);
  ck_assert_uint_eq(a, b);
  ck_assert(gdl_is_legal(ctx, 0, a));
  /* oplayer has one move: noop, at once */
  o.kind = GDL_CHOOSE_MCTS;
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 1, &o, &a, NULL), GDL_OK);
  ck_assert_str_eq(gdl_term_str(ctx, a), "noop");
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 2, &o, &a, NULL), GDL_EINPUT);
  /* a terminal state */
  tu_play(ctx, "(mark 1 1) noop noop (mark 2 1) (mark 1 2) noop "
               "noop (mark 2 2) (mark 1 3) noop", &s);
  ck_assert(gdl_terminal(ctx));
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 1, &o, &a, NULL), GDL_EINPUT);
  ck_assert_int_eq(gdl_chooser_parse("mcts", &o.kind), 0);
  ck_assert_int_eq(o.kind, GDL_CHOOSE_MCTS);
  ck_assert_int_eq(gdl_chooser_parse("perfect", &o.kind), 0);
  ck_assert_int_eq(o.kind, GDL_CHOOSE_PERFECT);
  ck_assert_int_eq(gdl_chooser_parse("best", &o.kind), -1);
  ck_assert_str_eq(gdl_chooser_name(GDL_CHOOSE_RANDOM), "random");
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
}
END_TEST

/* gdl play --against: the computer takes the win in one and blocks a
 * threat, through the command; both roles by the computer play a whole
 * game; bad --against values are usage errors. */
START_TEST(test_play_against)
{
  char *out, *err, ttt_path[4096], cmd[8192];
  snprintf(ttt_path, sizeof ttt_path, "%s", tu_corpus("multi/ticTacToe.kif"));
  ck_assert_int_eq(tu_gdl_run(&out, &err, "play %s --against xplayer=mcts "
                   "--playouts 2000 --moves '(mark 1 1) noop noop (mark 2 1) "
                   "(mark 1 2) noop noop (mark 2 2)' </dev/null", ttt_path), 0);
  ck_assert_msg(strstr(out, "xplayer plays (mark 1 3)  (mcts: ") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "proven: goal 100)") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "The game is over: xplayer goal 100, oplayer "
                       "goal 0.") != NULL, "%s", out);
  free(out);
  free(err);
  /* O threatens 2 3; the person plays O and the computer X, then quits */
  snprintf(cmd, sizeof cmd, "printf 'q\\n' | %s play %s "
                   "--against xplayer=mcts --playouts 3000 --moves '(mark 1 "
                   "1) noop noop (mark 2 1) (mark 3 3) noop noop (mark 2 2)'",
                   tu_gdl(), ttt_path);
  ck_assert_int_eq(tu_run(cmd, &out, &err), 0);
  ck_assert_msg(strstr(out, "xplayer plays (mark 2 3)") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "Moves for oplayer:") != NULL, "%s", out);
  free(out);
  free(err);
  /* a person's number, then the computer's answer, then undo goes back
   * to the person's turn */
  snprintf(cmd, sizeof cmd, "printf '5\\nu\\nq\\n' | %s play "
           "%s --against oplayer=random --seed 4", tu_gdl(), ttt_path);
  ck_assert_int_eq(tu_run(cmd, &out, &err), 0);
  ck_assert_msg(strstr(out, "The computer plays oplayer (random).") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "oplayer plays (mark ") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "Undone.\n\nState after 0 moves:") != NULL, "%s", out);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "play %s --against xplayer=mcts "
                   "--against oplayer=mcts --playouts 300 </dev/null",
                   ttt_path), 0);
  ck_assert_msg(strstr(out, "The game is over: xplayer goal ") != NULL, "%s", out);
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "play %s --against foo=mcts",
                   ttt_path), 2);
  ck_assert_str_eq(err, "gdl: --against foo=mcts: foo is not a role of this "
                   "game; its roles: xplayer oplayer\n");
  free(out);
  free(err);
  ck_assert_int_eq(tu_gdl_run(&out, &err, "play %s --against oplayer=best",
                   ttt_path), 2);
  ck_assert_str_eq(err, "gdl: --against oplayer=best: the computer plays "
                   "mcts, perfect or random, not 'best'\n");
  free(out);
  free(err);
}
END_TEST

/* Trees on several threads, on either engine: the win in one taken and
 * the threat blocked; the rounds shared out add up to the budget, and
 * the same seed and threads give the same move and counts; the threads'
 * contexts are kept from one call to the next (and freed with the
 * context: the sanitizers and valgrind would tell). */
START_TEST(test_mcts_threads)
{
  gdl_ctx *ctx = ttt();
  gdl_choose_info a, b;
  char *m;
  unsigned threads = 2 + (unsigned)_i % 3;
  if (_i >= 3)
    ck_assert_int_eq(gdl_use_engine(ctx, GDL_ENGINE_INTERP), GDL_OK);
  m = x_move_on(ctx, "(mark 1 1) noop noop (mark 2 1) (mark 1 2) noop "
                "noop (mark 2 2)", 2000, (uint64_t)_i * 7919 + 1, threads, &a);
  ck_assert_str_eq(m, "(mark 1 3)");
  ck_assert_int_eq(a.proven, 1);
  ck_assert_int_eq(a.proven_goal, 100);
  free(m);
  m = x_move_on(ctx, "(mark 1 1) noop noop (mark 2 1) (mark 3 3) noop "
                "noop (mark 2 2)", 3000, (uint64_t)_i * 104729 + 3, threads, &a);
  ck_assert_str_eq(m, "(mark 2 3)");
  free(m);
  m = x_move_on(ctx, "", 1501, 42, threads, &a);
  free(m);
  m = x_move_on(ctx, "", 1501, 42, threads, &b);
  ck_assert_uint_eq(a.playouts, 1501);
  ck_assert_uint_eq(b.playouts, 1501);
  ck_assert_uint_eq(a.nodes, b.nodes);
  ck_assert(a.value == b.value);
  free(m);
  gdl_free(ctx);
}
END_TEST

#include <pthread.h>
#include <unistd.h>

static void *interrupt_soon(void *flag)
{
  usleep(300000);
  __atomic_store_n((volatile int *)flag, 1, __ATOMIC_RELAXED);
  return NULL;
}

/* The context's interrupt stops every thread's tree: a search of ten
 * minutes returns its move once the flag is set (Check's timeout fails
 * the test otherwise). */
START_TEST(test_mcts_threads_interrupt)
{
  gdl_ctx *ctx = ttt();
  gdl_state s = { 0, 0, NULL };
  gdl_choose_opts o;
  gdl_choose_info info;
  gdl_term mv;
  volatile int flag = 0;
  pthread_t th;
  memset(&o, 0, sizeof o);
  o.seconds = 600;
  o.threads = 2;
  gdl_set_interrupt(ctx, &flag);
  ck_assert_int_eq(gdl_initial(ctx, &s), GDL_OK);
  ck_assert_int_eq(pthread_create(&th, NULL, interrupt_soon, (void *)&flag), 0);
  ck_assert_int_eq(gdl_choose_move(ctx, &s, 0, &o, &mv, &info), GDL_OK);
  pthread_join(th, NULL);
  ck_assert_uint_gt(info.playouts, 0);
  ck_assert_int_eq(flag, 1);
  gdl_state_release(ctx, &s);
  gdl_free(ctx);
}
END_TEST

Suite *play_suite(void)
{
  Suite *s = suite_create("play");
  TCase *tc = tcase_create("mcts");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_mcts_takes_win, 0, 5);
  tcase_add_loop_test(tc, test_mcts_blocks, 0, 5);
  tcase_add_test(tc, test_mcts_deterministic);
  tcase_add_test(tc, test_mcts_beats_random);
  tcase_add_test(tc, test_perfect_play);
  tcase_add_test(tc, test_perfect_falls_back);
  tcase_add_test(tc, test_mcts_simultaneous);
  tcase_add_test(tc, test_choose_random_and_errors);
  tcase_add_test(tc, test_play_against);
  suite_add_tcase(s, tc);
  tc = tcase_create("threads");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_mcts_threads, 0, 6);
  tcase_add_test(tc, test_mcts_threads_interrupt);
  suite_add_tcase(s, tc);
  return s;
}
