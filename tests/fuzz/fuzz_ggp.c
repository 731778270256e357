/*
 * fuzz_ggp.c - libFuzzer target (e): the GGP player's message reader and
 * replies (engine/cli/ggp.c, ggp_player_reply: what gdl player answers
 * to an HTTP body), without sockets.
 *
 * An input is a first byte of flags, then messages separated by NUL
 * bytes, each given to one player in turn as gdl player gives a request's
 * body.  Flag bit 0: the player first STARTs the match "m" of a small
 * game (GAME below: matching pennies for three rounds, two roles moving
 * at once) as red (bit 1 clear) or blue, so that PLAY, STOP and ABORT
 * with moves, legal or garbled, reach the match; the messages may START
 * games of their own too.  The player chooses at random (the search is
 * not what is fuzzed here) and each match's context is held to 16 MB
 * and 10,000 derived facts.
 *
 * The oracle, besides the sanitizers: every reply is there; the status
 * is -1 exactly when the reply starts "error: "; INFO says busy exactly
 * when a match is played; a PLAY answered without an error is answered
 * with a legal move of the player's role in the match's state.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/ggp.h"
#include "fuzz.h"

#define GAME                                                              \
  "(role red) (role blue) (init (step 0))"                                \
  " (succ 0 1) (succ 1 2) (succ 2 3) (side a) (side b)"                   \
  " (<= (legal ?r (pick ?s)) (role ?r) (side ?s))"                        \
  " (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))"                  \
  " (<= (next (picked ?r ?s)) (does ?r (pick ?s)))"                       \
  " (<= same (true (picked red ?s)) (true (picked blue ?s)))"             \
  " (<= terminal (true (step 3)))"                                        \
  " (<= (goal red 100) same) (<= (goal red 0) (not same))"                \
  " (<= (goal blue 0) same) (<= (goal blue 100) (not same))"

/* Whether the message's first element is the keyword kw. */
static int is_kw(const char *msg, size_t n, const char *kw)
{
  ggp_span it[16];
  int count;
  return ggp_list(msg, n, it, 16, &count) == 0 && count > 0 &&
         it[0].len == strlen(kw) &&
         strncasecmp(msg + it[0].start, kw, it[0].len) == 0;
}

/* One message answered, and the answer held to the oracle. */
static void send_msg(ggp_player *p, const char *msg, size_t n)
{
  char *reply = NULL;
  int rc = ggp_player_reply(p, msg, n, ggp_now(), &reply);
  if (!reply)
    abort();                    /* malloc does not fail here */
  if ((rc == -1) != (strncmp(reply, "error: ", 7) == 0) ||
      (rc != 0 && rc != -1))
    abort();
  if (rc == 0 && is_kw(msg, n, "info") &&
      (strstr(reply, "busy") != NULL) != (p->ctx != NULL))
    abort();
  if (rc == 0 && is_kw(msg, n, "play")) {
    gdl_term move;
    if (!p->ctx)
      abort();                  /* a move, yet no match */
    if (gdl_set_state(p->ctx, &p->state) == GDL_OK &&
        (gdl_parse_term(p->ctx, reply, 0, &move) != GDL_OK ||
         !gdl_is_legal(p->ctx, p->role, move)))
      abort();                  /* not a legal move of its role */
  }
  free(reply);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ggp_player p;
  const char *text = (const char *)data + 1;
  size_t n = size ? size - 1 : 0, i = 0;
  ggp_player_init(&p, 1, "gdl", NULL);
  p.kind = GDL_CHOOSE_RANDOM;
  p.memory_limit = 16u << 20;
  p.fact_limit = 10000;
  if (size && (data[0] & 1)) {
    const char *start = data[0] & 2 ? "(START m blue (" GAME ") 10 1)"
                                    : "(START m red (" GAME ") 10 1)";
    send_msg(&p, start, strlen(start));
    if (!p.ctx)
      abort();                  /* the small game does not start */
  }
  while (i < n) {
    const char *nul = memchr(text + i, 0, n - i);
    size_t len = nul ? (size_t)(nul - (text + i)) : n - i;
    send_msg(&p, text + i, len);
    i += len + 1;
  }
  ggp_player_end(&p);
  return 0;
}
