/* check_ggp.c - the GGP protocol without sockets (engine/cli/ggp.c):
 * messages read as lists, games flattened for START, and a player's
 * replies to a whole match of tic-tac-toe, to malformed messages and to
 * messages that do not fit the match. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/ggp.h"
#include "testutil.h"

static char *span(const char *s, ggp_span sp)
{
  static char buf[4][256];
  static int i;
  char *b = buf[i++ % 4];
  snprintf(b, 256, "%.*s", (int)sp.len, s + sp.start);
  return b;
}

START_TEST(test_list)
{
  ggp_span it[8];
  int n;
  const char *m = " (PLAY m1 ((mark 1 2) noop)) \n";
  ck_assert_int_eq(ggp_list(m, strlen(m), it, 8, &n), 0);
  ck_assert_int_eq(n, 3);
  ck_assert_str_eq(span(m, it[0]), "PLAY");
  ck_assert_str_eq(span(m, it[1]), "m1");
  ck_assert_str_eq(span(m, it[2]), "((mark 1 2) noop)");
  m = "(info)";
  ck_assert_int_eq(ggp_list(m, strlen(m), it, 8, &n), 0);
  ck_assert_int_eq(n, 1);
  m = "(a ; comment )\n b)";
  ck_assert_int_eq(ggp_list(m, strlen(m), it, 8, &n), 0);
  ck_assert_int_eq(n, 2);
  ck_assert_str_eq(span(m, it[1]), "b");
  /* not one balanced list */
  ck_assert_int_eq(ggp_list("(a (b)", 6, it, 8, &n), -1);
  ck_assert_int_eq(ggp_list("(a))", 4, it, 8, &n), -1);
  ck_assert_int_eq(ggp_list("(a) (b)", 7, it, 8, &n), -1);
  ck_assert_int_eq(ggp_list("a", 1, it, 8, &n), -1);
  ck_assert_int_eq(ggp_list("", 0, it, 8, &n), -1);
  ck_assert_int_eq(ggp_list("(a b c)", 7, it, 2, &n), -1);
}
END_TEST

START_TEST(test_flatten)
{
  const char *t = "; a comment\n(role x)  ; more\n\n(<= (legal x a)\n\t(true p))\n";
  char *f = ggp_flatten(t, strlen(t));
  ck_assert_str_eq(f, "(role x) (<= (legal x a) (true p))");
  free(f);
  ck_assert(ggp_margin(30) == 3);
  ck_assert(ggp_margin(10) == 1);
  ck_assert(ggp_margin(2) == 1);
  ck_assert(ggp_margin(1) == 0.5);
  ck_assert(ggp_margin(0.6) == 0.3);
}
END_TEST

/* The reply to msg, which must succeed (ok 0) or fail (ok -1). */
static char *reply(ggp_player *p, const char *msg, int ok)
{
  char *r = NULL;
  int rc = ggp_player_reply(p, msg, strlen(msg), ggp_now(), &r);
  ck_assert_ptr_nonnull(r);
  ck_assert_msg(rc == ok, "%s -> %s", msg, r);
  return r;
}

/* The player's reply to msg is `want` (and its status ok). */
static void says(ggp_player *p, const char *msg, int ok, const char *want)
{
  char *r = reply(p, msg, ok);
  ck_assert_str_eq(r, want);
  free(r);
}

static char *rules_of(const char *path)
{
  FILE *f = fopen(path, "r");
  char *buf, *flat;
  long n;
  ck_assert_ptr_nonnull(f);
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  flat = ggp_flatten(buf, (size_t)n);
  free(buf);
  return flat;
}

/* A whole match: START, PLAY nil, PLAY with the last joint move each
 * turn, STOP; the player's moves legal, a second START busy, keywords in
 * any case. */
START_TEST(test_player_match)
{
  ggp_player p;
  char *rules = rules_of(tu_corpus("multi/ticTacToe.kif"));
  char *msg = malloc(strlen(rules) + 200), *r;
  gdl_status st;
  gdl_ctx *ref = tu_load(&st, 0, tu_corpus("multi/ticTacToe.kif"), NULL);
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  char last[256] = "nil";
  int turn;
  ck_assert_int_eq(st, GDL_OK);
  ggp_player_init(&p, 1, "gdl", NULL);
  says(&p, "(INFO)", 0, "((name gdl) (status available))");
  sprintf(msg, "(start m.1 oplayer (%s) 10 1)", rules);
  says(&p, msg, 0, "ready");
  says(&p, msg, 0, "busy");
  says(&p, "(Info)", 0, "((name gdl) (status busy))");
  ck_assert_int_eq(gdl_initial(ref, &s), GDL_OK);
  for (turn = 0; turn < 20; turn++) {
    gdl_term joint[2], t;
    const gdl_term *mv;
    size_t n;
    ck_assert_int_eq(gdl_set_state(ref, &s), GDL_OK);
    if (gdl_terminal(ref))
      break;
    sprintf(msg, "(Play m.1 %s)", last);
    r = reply(&p, msg, 0);
    ck_assert_int_eq(gdl_parse_term(ref, r, 0, &t), GDL_OK);
    ck_assert_msg(gdl_is_legal(ref, 1, t), "illegal: %s", r);
    free(r);
    /* xplayer: its first legal move */
    ck_assert_int_eq(gdl_legal(ref, 0, &mv, &n), GDL_OK);
    joint[0] = mv[0];
    joint[1] = t;
    snprintf(last, sizeof last, "(%s ", gdl_term_str(ref, joint[0]));
    snprintf(last + strlen(last), sizeof last - strlen(last), "%s)",
             gdl_term_str(ref, joint[1]));
    ck_assert_int_eq(gdl_next(ref, joint, &nx), GDL_OK);
    ck_assert_int_eq(gdl_state_copy(ref, &s, &nx), GDL_OK);
  }
  ck_assert(gdl_terminal(ref));
  /* xplayer played its first move each time: the player won or drew */
  ck_assert_int_ge(gdl_goal(ref, 1), 50);
  sprintf(msg, "(STOP m.1 %s)", last);
  says(&p, msg, 0, "done");
  says(&p, "(INFO)", 0, "((name gdl) (status available))");
  /* the next match, aborted */
  sprintf(msg, "(START m.2 xplayer (%s) 10 1)", rules);
  says(&p, msg, 0, "ready");
  says(&p, "(ABORT m.2)", 0, "aborted");
  ck_assert_uint_eq(p.matches, 2);
  ggp_player_end(&p);
  gdl_state_release(ref, &s);
  gdl_state_release(ref, &nx);
  gdl_free(ref);
  free(msg);
  free(rules);
}
END_TEST

/* Malformed messages and messages that do not fit: an error reply, and
 * the match goes on. */
static const struct {
  const char *msg, *why;
} bad[] = {
  { "", "error: not a GGP message" },
  { "garbage", "error: not a GGP message" },
  { "(PLAY m.1 nil", "error: not a GGP message" },
  { "((PLAY) m.1 nil)", "error: not a GGP message" },
  { "(HELLO)", "error: unknown message HELLO" },
  { "(PLAY m.1)", "error: PLAY takes a match id" },
  { "(PLAY other nil)", "error: PLAY for other, which is not the match played (m.1)" },
  { "(PLAY m.1 ((mark 9 9) noop))", "error: (mark 9 9) is not a legal move of xplayer" },
  { "(PLAY m.1 (noop))", "error: the moves are not a list of 2 moves" },
  { "(PLAY m.1 ((mark 1 1)))", "error: the moves are not a list of 2 moves" },
  { "(STOP other nil)", "error: STOP for other" },
  { "(START m.3 oplayer (role x) 10)", "error: START takes a match id" },
};

START_TEST(test_player_errors)
{
  ggp_player p;
  char *rules = rules_of(tu_corpus("multi/ticTacToe.kif"));
  char *msg = malloc(strlen(rules) + 200), *r;
  size_t i;
  ggp_player_init(&p, 1, "gdl", NULL);
  /* before any match */
  r = reply(&p, "(PLAY m.1 nil)", -1);
  ck_assert_str_eq(r, "error: PLAY for m.1, which is not the match played "
                   "(none)");
  free(r);
  r = reply(&p, "(START m.0 oplayer ((role x) (<= (legal x a)) ) 10 1)", -1);
  ck_assert_msg(strncmp(r, "error: START: the rules do not load: ", 37) == 0, "%s", r);
  /* why: not the warning (a rule with an empty body) that comes first */
  ck_assert_msg(strstr(r, "warning") == NULL && strstr(r, "nothing defines"), "%s", r);
  free(r);
  r = reply(&p, "(START m.0 x ((role x) (<= (legal x a)) (<= (p ?y)) (init q)"
            " (goal x 100) (<= terminal (true q))) 10 1)", -1);
  ck_assert_msg(strstr(r, ": error: ") && !strstr(r, "warning"), "%s", r);
  free(r);
  says(&p, "(START m.0 nobody ((role x) (init p) (legal x a) (goal x 100)"
                " (<= terminal (true p))) 10 1)", -1, "error: START: nobody is not a role of the game");
  says(&p, "(START m.0 x role 10 1)", -1, "error: START: the rules are not a list");
  sprintf(msg, "(START m.1 oplayer (%s) 10 ten)", rules);
  says(&p, msg, -1, "error: START: the clocks are not numbers of seconds");
  sprintf(msg, "(START m.1 xplayer (%s) 10 1)", rules);
  r = reply(&p, msg, 0);
  free(r);
  for (i = 0; i < sizeof bad / sizeof *bad; i++) {
    r = reply(&p, bad[i].msg, -1);
    ck_assert_msg(strncmp(r, bad[i].why, strlen(bad[i].why)) == 0,
                  "%s -> %s", bad[i].msg, r);
    free(r);
  }
  /* the match goes on: a legal first move */
  r = reply(&p, "(PLAY m.1 NIL)", 0);
  ck_assert_msg(strncmp(r, "(mark ", 6) == 0, "%s", r);
  free(r);
  /* a PLAY sent again (a host that retries) is answered again */
  r = reply(&p, "(PLAY m.1 nil)", 0);
  ck_assert_msg(strncmp(r, "(mark ", 6) == 0, "%s", r);
  free(r);
  says(&p, "(PLAY m.1 ((mark 1 1) noop))", 0, "noop");
  says(&p, "(PLAY m.1 nil)", -1, "error: nil after the first move of the match");
  says(&p, "(ping)", 0, "busy");
  says(&p, "(PREVIEW ((role x)) 10)", 0, "ready");
  ggp_player_end(&p);
  /* a match's context held to a memory limit (gdl player --max-memory):
   * a START that needs more gets the limit's message, the next fits */
  ggp_player_init(&p, 1, "gdl", NULL);
  p.memory_limit = 64u << 10;
  r = reply(&p, msg, -1);
  ck_assert_msg(strncmp(r, "error: START: ", 14) == 0 &&
                strstr(r, "memory limit"), "%s", r);
  free(r);
  says(&p, "(INFO)", 0, "((name gdl) (status available))");
  p.memory_limit = 64u << 20;
  says(&p, msg, 0, "ready");
  ggp_player_end(&p);
  free(msg);
  free(rules);
}
END_TEST

/* A play clock shorter than the margin's floor: the search gets half of
 * it, a limit of the context stops it mid-round, and the answer is a
 * legal move every turn (connectFour, whose playouts are long). */
START_TEST(test_player_short_clock)
{
  ggp_player p;
  char *rules = rules_of(tu_corpus("multi/connectFour.kif"));
  char *msg = malloc(strlen(rules) + 200), *r, last[256] = "nil";
  gdl_status st;
  gdl_ctx *ref = tu_load(&st, 0, tu_corpus("multi/connectFour.kif"), NULL);
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  int turn;
  ck_assert_int_eq(st, GDL_OK);
  ggp_player_init(&p, 3, "gdl", NULL);
  sprintf(msg, "(START c4 red (%s) 5 0.05)", rules);
  says(&p, msg, 0, "ready");
  ck_assert_int_eq(gdl_initial(ref, &s), GDL_OK);
  for (turn = 0; turn < 6; turn++) {
    gdl_term joint[2];
    const gdl_term *mv;
    size_t n;
    ck_assert_int_eq(gdl_set_state(ref, &s), GDL_OK);
    sprintf(msg, "(PLAY c4 %s)", last);
    r = reply(&p, msg, 0);
    ck_assert_int_eq(gdl_parse_term(ref, r, 0, &joint[0]), GDL_OK);
    ck_assert_msg(gdl_is_legal(ref, 0, joint[0]), "illegal: %s", r);
    free(r);
    ck_assert_int_eq(gdl_legal(ref, 1, &mv, &n), GDL_OK);
    joint[1] = mv[n - 1];
    snprintf(last, sizeof last, "(%s ", gdl_term_str(ref, joint[0]));
    snprintf(last + strlen(last), sizeof last - strlen(last), "%s)",
             gdl_term_str(ref, joint[1]));
    ck_assert_int_eq(gdl_next(ref, joint, &nx), GDL_OK);
    ck_assert_int_eq(gdl_state_copy(ref, &s, &nx), GDL_OK);
  }
  ggp_player_end(&p);
  gdl_state_release(ref, &s);
  gdl_state_release(ref, &nx);
  gdl_free(ref);
  free(msg);
  free(rules);
}
END_TEST

/* A PLAY answered on a thread of its own, as gdl player answers each
 * connection. */
typedef struct {
  ggp_player *p;
  const char *msg;
  char *reply;
  int rc;
} play_call;

static void *play_thread(void *arg)
{
  play_call *c = arg;
  c->rc = ggp_player_reply(c->p, c->msg, strlen(c->msg), ggp_now(),
                           &c->reply);
  return NULL;
}

static int thinking(ggp_player *p)
{
  int t;
  pthread_mutex_lock(&p->look);
  t = p->thinking;
  pthread_mutex_unlock(&p->look);
  return t;
}

/* A STOP (or ABORT) while a PLAY thinks, from another thread: INFO is
 * answered without waiting for the search, the search is interrupted (it
 * would think 54 s of a 60 s clock), the PLAY answers a legal move, and
 * the STOP is answered done after it; the player then takes the next
 * match.  connectFour, whose first move no search proves in time. */
START_TEST(test_player_stop_mid_think)
{
  ggp_player p;
  char *rules = rules_of(tu_corpus("multi/connectFour.kif"));
  char *msg = malloc(strlen(rules) + 200);
  gdl_status st;
  gdl_ctx *ref = tu_load(&st, 0, tu_corpus("multi/connectFour.kif"), NULL);
  gdl_state s = { 0, 0, NULL };
  play_call c;
  pthread_t th;
  gdl_term t;
  int i, abort = _i;
  ck_assert_int_eq(st, GDL_OK);
  ck_assert_int_eq(gdl_initial(ref, &s), GDL_OK);
  ck_assert_int_eq(gdl_set_state(ref, &s), GDL_OK);
  ggp_player_init(&p, 5, "gdl", NULL);
  sprintf(msg, "(START c4 red (%s) 10 60)", rules);
  says(&p, msg, 0, "ready");
  memset(&c, 0, sizeof c);
  c.p = &p;
  c.msg = "(PLAY c4 nil)";
  ck_assert_int_eq(pthread_create(&th, NULL, play_thread, &c), 0);
  for (i = 0; i < 2000 && !thinking(&p); i++) {
    struct timespec nap = { 0, 5000000 };
    nanosleep(&nap, NULL);
  }
  ck_assert_msg(thinking(&p), "the PLAY never started its search");
  /* answered while the search goes on */
  says(&p, "(INFO)", 0, "((name gdl) (status busy))");
  says(&p, "(ping)", 0, "busy");
  sprintf(msg, "(START other red (%s) 10 60)", rules);
  says(&p, msg, 0, "busy");
  ck_assert_msg(thinking(&p), "INFO, PING or START waited for the search");
  /* a STOP for another match does not stop it */
  says(&p, "(ABORT other)", -1, "error: ABORT for other, which is not the "
       "match played (c4)");
  if (abort)
    says(&p, "(ABORT c4)", 0, "aborted");
  else
    says(&p, "(STOP c4 nil)", 0, "done");
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_int_eq(c.rc, 0);
  ck_assert_ptr_nonnull(c.reply);
  ck_assert_int_eq(gdl_parse_term(ref, c.reply, 0, &t), GDL_OK);
  ck_assert_msg(gdl_is_legal(ref, 0, t), "illegal: %s", c.reply);
  free(c.reply);
  ck_assert_uint_eq(p.interrupted, 1);
  says(&p, "(INFO)", 0, "((name gdl) (status available))");
  /* the next match's search is not interrupted */
  sprintf(msg, "(START c5 red (%s) 10 0.2)", rules);
  says(&p, msg, 0, "ready");
  c.msg = "(PLAY c5 nil)";
  c.reply = NULL;
  play_thread(&c);
  ck_assert_int_eq(c.rc, 0);
  free(c.reply);
  ck_assert_uint_eq(p.interrupted, 1);
  says(&p, "(ABORT c5)", 0, "aborted");
  ggp_player_end(&p);
  gdl_state_release(ref, &s);
  gdl_free(ref);
  free(msg);
  free(rules);
}
END_TEST

Suite *ggp_suite(void)
{
  Suite *s = suite_create("ggp");
  TCase *tc = tcase_create("protocol");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_list);
  tcase_add_test(tc, test_flatten);
  tcase_add_test(tc, test_player_match);
  tcase_add_test(tc, test_player_errors);
  tcase_add_test(tc, test_player_short_clock);
  tcase_add_loop_test(tc, test_player_stop_mid_think, 0, 2);
  suite_add_tcase(s, tc);
  return s;
}
