/*
 * ggp.h - the GGP protocol without sockets (ggp.c): messages read as KIF
 * lists, a player's matches and its replies, a game written as one line
 * for a START message.  The HTTP server (cli_player.c, libmicrohttpd) and
 * the match host (cli_match.c, libcurl) sit on it; the tests call it
 * directly (tests/check_ggp.c).  It sees only gdl.h of the library.
 */
#ifndef GDL_GGP_H
#define GDL_GGP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gdl.h"

/* A piece of a message: bytes [start, start + len) of it. */
typedef struct {
  size_t start, len;
} ggp_span;

/* The elements of the list that `text` (n bytes) holds, in order, as
 * spans of text (an atom, or a list with its parentheses): at most max of
 * them into items, their count into *count.  Comments (';' to the end of
 * the line) are white space.  0, or -1 when text is not one balanced list
 * (nothing but white space after it), or holds more than max elements, or
 * nests deeper than 1,000. */
int ggp_list(const char *text, size_t n, ggp_span *items, int max,
             int *count);

/* Text with comments dropped and each run of white space made one space,
 * trimmed (malloc'd; NULL when memory runs out): a game description as
 * the START message carries it. */
char *ggp_flatten(const char *text, size_t n);

/* Seconds on a monotonic clock. */
double ggp_now(void);

/* The seconds a player keeps in hand on a play clock of `clock` seconds:
 * a tenth of it, at least 1 s, at most half the clock. */
double ggp_margin(double clock);

/* A player: at most one match at a time.  ggp_player_reply may be called
 * from several threads at once (gdl player serves each connection on a
 * thread of its own): a message that reads or changes the match waits for
 * `lock`; INFO, PING, PREVIEW and a START while in a match are answered
 * at once; a STOP or ABORT of the match that comes while a PLAY thinks
 * sets the search's interrupt (`stop`), so that the PLAY answers at once
 * with its best move so far, and is answered after it. */
typedef struct {
  gdl_ctx *ctx;             /* the match's game, NULL between matches */
  char id[256];             /* the match's id */
  size_t role;              /* the role it plays */
  double startclock, playclock;
  gdl_state state;          /* the state now */
  uint64_t seed;            /* the search's seed, varied by move */
  unsigned steps;           /* joint moves played in the match */
  gdl_chooser kind;         /* how it chooses (mcts) */
  unsigned threads;         /* the search's threads (0: one) */
  const char *name;         /* its name in INFO replies */
  double margin;            /* seconds kept in hand (<= 0: ggp_margin) */
  size_t memory_limit;      /* bytes a match's context may hold (0: none) */
  size_t fact_limit;        /* its derived facts at once (0: the default) */
  FILE *log;                /* a line per message, or NULL */
  uint64_t matches;         /* matches started */
  uint64_t interrupted;     /* searches stopped by a STOP or ABORT */
  pthread_mutex_t lock;     /* held while a message of the match is answered */
  pthread_mutex_t look;     /* guards busy, thinking and the setting of stop */
  int busy;                 /* in a match (what INFO and PING say) */
  int thinking;             /* a PLAY is searching */
  int stop_pending;         /* a STOP or ABORT of the match waits for lock */
  volatile int stop;        /* the match context's interrupt, set (atomically)
                               only while thinking */
} ggp_player;

/* A new player (all zero but what is given); free with ggp_player_end. */
void ggp_player_init(ggp_player *p, uint64_t seed, const char *name,
                     FILE *log);
/* Ends any match and frees what the player holds (no thread may be in
 * ggp_player_reply then). */
void ggp_player_end(ggp_player *p);

/* The reply to one message (n bytes of text, received at `received`,
 * ggp_now()'s time) into *reply (malloc'd; NULL when memory runs out):
 * INFO, PING, PREVIEW, START, PLAY, STOP, ABORT in any case.  Returns 0,
 * or -1 when the message is malformed or does not fit the match (*reply
 * then says why, starting "error: "); the player goes on either way.
 * A PLAY is answered with a legal move within the play clock less the
 * margin, counted from `received`, or sooner when a STOP or ABORT of the
 * match comes meanwhile from another thread.  Thread-safe (above). */
int ggp_player_reply(ggp_player *p, const char *msg, size_t n,
                     double received, char **reply);

#endif
