/*
 * ggp.c - the GGP protocol without sockets: messages read as KIF lists,
 * a player's replies, a game as one line for START (doc/ggp.md).
 *
 * A message is one list whose first element is its keyword, in any case:
 *   (INFO)  (PING)                        -> ((name N) (status available|busy))
 *                                            / available|busy
 *   (PREVIEW (rules) clock)               -> ready
 *   (START id role (rules) start play)    -> ready, or busy in a match
 *   (PLAY id nil) (PLAY id (m1 ... mk))   -> a legal move of its role
 *   (STOP id moves)                       -> done
 *   (ABORT id)                            -> aborted
 * The moves of PLAY and STOP are the last joint move in role order (nil
 * before the first).  A message that is not one of these, or a PLAY for
 * another match or with moves that are not legal, gets "error: why" and
 * the player goes on as before.  A PLAY is answered by gdl_choose_move
 * within the play clock less the margin, counted from the message's
 * arrival, and with the first legal move should the search fail.
 *
 * Threads (gdl player answers each connection on its own): the match is
 * read and changed only under p->lock, held for the whole answer to
 * START, PLAY, STOP and ABORT; INFO, PING and PREVIEW, and a START while
 * in a match, are answered from p->busy under the short p->look without
 * waiting.  A STOP or ABORT of the match being thought about sets, under
 * p->look and before it waits for p->lock, the interrupt of the match's
 * context (p->stop, written and read atomically), which PLAY arms only
 * for its search: the search stops at its next look at its limits, PLAY
 * answers with the best move so far and lets go of p->lock, and the STOP
 * is answered after it.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/ggp.h"

double ggp_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double ggp_margin(double clock)
{
  double m = clock / 10;
  if (m < 1)
    m = 1;
  if (m > clock / 2)
    m = clock / 2;
  return m;
}

/* ---- reading --------------------------------------------------------- */

static size_t skip_space(const char *s, size_t n, size_t i)
{
  while (i < n) {
    if (isspace((unsigned char)s[i])) {
      i++;
    } else if (s[i] == ';') {
      while (i < n && s[i] != '\n')
        i++;
    } else {
      break;
    }
  }
  return i;
}

/* The end of the element at i (an atom or a balanced list); 0 when it
 * is not one. */
static size_t element_end(const char *s, size_t n, size_t i)
{
  int depth = 0;
  if (i >= n || s[i] == ')')
    return 0;
  if (s[i] != '(') {
    while (i < n && !isspace((unsigned char)s[i]) && s[i] != '(' &&
           s[i] != ')' && s[i] != ';')
      i++;
    return i;
  }
  while (i < n) {
    if (s[i] == ';') {
      while (i < n && s[i] != '\n')
        i++;
      continue;
    }
    if (s[i] == '(' && ++depth > 1000)
      return 0;
    if (s[i] == ')' && --depth == 0)
      return i + 1;
    i++;
  }
  return 0;
}

int ggp_list(const char *text, size_t n, ggp_span *items, int max,
             int *count)
{
  size_t i = skip_space(text, n, 0), end;
  *count = 0;
  if (i >= n || text[i] != '(' || (end = element_end(text, n, i)) == 0 ||
      skip_space(text, n, end) != n)
    return -1;
  i++;
  for (;;) {
    size_t e;
    i = skip_space(text, n, i);
    if (i >= end - 1)
      return 0;
    if ((e = element_end(text, end - 1, i)) == 0 || *count == max)
      return -1;
    items[*count].start = i;
    items[*count].len = e - i;
    ++*count;
    i = e;
  }
}

char *ggp_flatten(const char *text, size_t n)
{
  char *out = malloc(n + 1);
  size_t i = 0, o = 0;
  int space = 0;
  if (!out)
    return NULL;
  while (i < n) {
    char c = text[i];
    if (c == ';') {
      while (i < n && text[i] != '\n')
        i++;
      space = 1;
      continue;
    }
    if (isspace((unsigned char)c) || c == 0) {
      space = 1;
      i++;
      continue;
    }
    if (space && o > 0)
      out[o++] = ' ';
    space = 0;
    out[o++] = c;
    i++;
  }
  out[o] = 0;
  return out;
}

/* ---- replies ---------------------------------------------------------- */

static char *text_of(const char *fmt, ...)
{
  va_list ap;
  int len;
  char *s;
  va_start(ap, fmt);
  len = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (len < 0 || !(s = malloc((size_t)len + 1)))
    return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)len + 1, fmt, ap);
  va_end(ap);
  return s;
}

static int keyword_is(const char *msg, ggp_span sp, const char *kw)
{
  return sp.len == strlen(kw) && strncasecmp(msg + sp.start, kw, sp.len) == 0;
}

/* An element as a NUL-terminated string (malloc'd). */
static char *span_dup(const char *msg, ggp_span sp)
{
  char *s = malloc(sp.len + 1);
  if (s) {
    memcpy(s, msg + sp.start, sp.len);
    s[sp.len] = 0;
  }
  return s;
}

static int span_number(const char *msg, ggp_span sp, double *out)
{
  char buf[64], *end;
  if (sp.len == 0 || sp.len >= sizeof buf)
    return -1;
  memcpy(buf, msg + sp.start, sp.len);
  buf[sp.len] = 0;
  *out = strtod(buf, &end);
  return *end || *out < 0 ? -1 : 0;
}

static void say(ggp_player *p, const char *fmt, ...)
{
  va_list ap;
  if (!p->log)
    return;
  va_start(ap, fmt);
  vfprintf(p->log, fmt, ap);
  va_end(ap);
  fputc('\n', p->log);
  fflush(p->log);
}

void ggp_player_init(ggp_player *p, uint64_t seed, const char *name,
                     FILE *log)
{
  memset(p, 0, sizeof *p);
  p->seed = seed;
  p->kind = GDL_CHOOSE_MCTS;
  p->name = name ? name : "gdl";
  p->log = log;
  pthread_mutex_init(&p->lock, NULL);
  pthread_mutex_init(&p->look, NULL);
}

static void set_busy(ggp_player *p, int busy)
{
  pthread_mutex_lock(&p->look);
  p->busy = busy;
  p->stop_pending = 0;
  pthread_mutex_unlock(&p->look);
}

static int is_busy(ggp_player *p)
{
  int busy;
  pthread_mutex_lock(&p->look);
  busy = p->busy;
  pthread_mutex_unlock(&p->look);
  return busy;
}

static void match_end(ggp_player *p)
{
  if (p->ctx) {
    gdl_state_release(p->ctx, &p->state);
    gdl_free(p->ctx);
  }
  p->ctx = NULL;
  set_busy(p, 0);
  p->id[0] = 0;                 /* after busy: interrupt_search reads it */
  memset(&p->state, 0, sizeof p->state);
}

void ggp_player_end(ggp_player *p)
{
  match_end(p);
  pthread_mutex_destroy(&p->lock);
  pthread_mutex_destroy(&p->look);
}

/* An error reply: -1, *reply "error: ...". */
static int error_reply(ggp_player *p, char **reply, const char *fmt, ...)
{
  va_list ap;
  char buf[512];
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  *reply = text_of("error: %s", buf);
  say(p, "error: %s", buf);
  return -1;
}

/* The match's id must be the one played. */
static int same_match(ggp_player *p, const char *msg, ggp_span id)
{
  return p->ctx && id.len == strlen(p->id) &&
         memcmp(msg + id.start, p->id, id.len) == 0;
}

/* The first line of the diagnostics that is an error (not a warning, nor
 * a source line or a caret), or NULL. */
static const char *first_error(const char *d)
{
  while (d && *d) {
    size_t len = strcspn(d, "\n");
    const char *e = strstr(d, ": error: ");
    if (e && e < d + len)
      return d;
    d += len + (d[len] == '\n');
  }
  return NULL;
}

static int do_start(ggp_player *p, const char *msg, const ggp_span *it,
                    int n, double received, char **reply)
{
  gdl_term role;
  int ri, oom;
  char *rolename;
  double sc, pc;
  gdl_status st;
  if (n != 6)
    return error_reply(p, reply, "START takes a match id, a role, the rules "
                       "and two clocks: (START id role (rules) start play)");
  if (p->ctx) {
    *reply = text_of("busy");
    say(p, "START while in match %s: busy", p->id);
    return 0;
  }
  if (it[1].len >= sizeof p->id || msg[it[1].start] == '(')
    return error_reply(p, reply, "START: the match id is not a name");
  if (msg[it[3].start] != '(')
    return error_reply(p, reply, "START: the rules are not a list");
  if (span_number(msg, it[4], &sc) || span_number(msg, it[5], &pc))
    return error_reply(p, reply, "START: the clocks are not numbers of "
                       "seconds");
  if (!(p->ctx = gdl_new()))
    return error_reply(p, reply, "out of memory");
  if (p->memory_limit)
    gdl_set_memory_limit(p->ctx, p->memory_limit);
  if (p->fact_limit)
    gdl_set_fact_limit(p->ctx, p->fact_limit);
  gdl_set_interrupt(p->ctx, &p->stop);
  memcpy(p->id, msg + it[1].start, it[1].len);
  p->id[it[1].len] = 0;
  p->startclock = sc;
  p->playclock = pc;
  p->steps = 0;
  gdl_set_syntax(p->ctx, GDL_SYNTAX_KIF);
  /* grounding within the start clock, less the margin */
  gdl_set_ground_seconds(p->ctx, sc > 1 ? (sc - ggp_margin(sc)) / 2 : 0.25);
  gdl_set_time_limit(p->ctx, sc - ggp_margin(sc) - (ggp_now() - received));
  if ((st = gdl_load_string(p->ctx, p->id, msg + it[3].start + 1,
                            it[3].len - 2)) != GDL_OK ||
      (st = gdl_compile(p->ctx, 0)) != GDL_OK || !gdl_is_game(p->ctx) ||
      (st = gdl_use_engine(p->ctx, GDL_ENGINE_AUTO)) != GDL_OK) {
    char why[400];
    const char *d = first_error(gdl_diagnostics(p->ctx));
    const char *nog = st == GDL_OK ? gdl_not_game_reason(p->ctx) : NULL;
    snprintf(why, sizeof why, "%s", d ? d : nog && *nog ? nog
                                                 : gdl_errmsg(p->ctx));
    why[strcspn(why, "\n")] = 0;
    match_end(p);
    return error_reply(p, reply, "START: the rules do not load: %s", why);
  }
  gdl_set_time_limit(p->ctx, 0);
  rolename = span_dup(msg, it[2]);
  oom = !rolename;
  st = oom ? GDL_ELIMIT : gdl_parse_term(p->ctx, rolename, 0, &role);
  free(rolename);
  if (st == GDL_OK && (ri = gdl_role_index(p->ctx, role)) >= 0) {
    p->role = (size_t)ri;
    st = gdl_initial(p->ctx, &p->state);
  } else if (st != GDL_ELIMIT) {
    match_end(p);
    return error_reply(p, reply, "START: %.*s is not a role of the game",
                       (int)(it[2].len > 100 ? 100 : it[2].len),
                       msg + it[2].start);
  }
  if (st != GDL_OK) {         /* a limit (--max-memory), or no initial state */
    char why[400];
    snprintf(why, sizeof why, "%s", oom ? "out of memory"
                                        : gdl_errmsg(p->ctx));
    match_end(p);
    return error_reply(p, reply, "START: %s", why);
  }
  p->matches++;
  set_busy(p, 1);
  say(p, "START %s: %s, clocks %g s and %g s (engine %s)", p->id,
      gdl_term_str(p->ctx, gdl_role(p->ctx, p->role)), sc, pc,
      gdl_engine_name(p->ctx));
  *reply = text_of("ready");
  return 0;
}

/* The joint move of PLAY or STOP applied to the state: 0, or -1 with the
 * reply made. */
static int apply_moves(ggp_player *p, const char *msg, ggp_span mv,
                       char **reply)
{
  ggp_span m[64];
  gdl_term joint[64];
  gdl_state nx = { 0, 0, NULL };
  size_t k = gdl_role_count(p->ctx), r;
  int n;
  if (keyword_is(msg, mv, "nil")) {
    if (p->steps == 0)
      return 0;
    return error_reply(p, reply, "nil after the first move of the match");
  }
  if (k > 64 || ggp_list(msg + mv.start, mv.len, m, 64, &n) != 0 ||
      (size_t)n != k)
    return error_reply(p, reply, "the moves are not a list of %zu moves, "
                       "one per role", k);
  if (gdl_set_state(p->ctx, &p->state) != GDL_OK)
    return error_reply(p, reply, "%s", gdl_errmsg(p->ctx));
  for (r = 0; r < k; r++) {
    ggp_span s = m[r];
    char *t;
    s.start += mv.start;
    t = span_dup(msg, s);
    if (!t || gdl_parse_term(p->ctx, t, 0, &joint[r]) != GDL_OK ||
        !gdl_is_legal(p->ctx, r, joint[r])) {
      free(t);
      return error_reply(p, reply, "%.*s is not a legal move of %s",
                         (int)(s.len > 100 ? 100 : s.len), msg + s.start,
                         gdl_term_str(p->ctx, gdl_role(p->ctx, r)));
    }
    free(t);
  }
  if (gdl_next(p->ctx, joint, &nx) != GDL_OK ||
      gdl_state_copy(p->ctx, &p->state, &nx) != GDL_OK) {
    gdl_state_release(p->ctx, &nx);
    return error_reply(p, reply, "%s", gdl_errmsg(p->ctx));
  }
  gdl_state_release(p->ctx, &nx);
  p->steps++;
  return 0;
}

static int do_play(ggp_player *p, const char *msg, const ggp_span *it, int n,
                   double received, char **reply)
{
  gdl_choose_opts o;
  gdl_choose_info info;
  gdl_term move = 0;
  const gdl_term *mv;
  size_t nmv;
  double think;
  if (n != 3)
    return error_reply(p, reply, "PLAY takes a match id and the last moves: "
                       "(PLAY id nil) or (PLAY id (m1 m2 ...))");
  if (!same_match(p, msg, it[1]))
    return error_reply(p, reply, "PLAY for %.*s, which is not the match "
                       "played (%s)", (int)(it[1].len > 100 ? 100 : it[1].len),
                       msg + it[1].start, p->ctx ? p->id : "none");
  if (apply_moves(p, msg, it[2], reply) != 0)
    return -1;
  if (gdl_set_state(p->ctx, &p->state) != GDL_OK ||
      gdl_legal(p->ctx, p->role, &mv, &nmv) != GDL_OK || nmv == 0 ||
      gdl_terminal(p->ctx))
    return error_reply(p, reply, "no legal move in this state");
  move = mv[0];              /* the answer when in doubt */
  think = p->playclock - (p->margin > 0 ? p->margin : ggp_margin(p->playclock)) -
          (ggp_now() - received);
  memset(&o, 0, sizeof o);
  memset(&info, 0, sizeof info);
  o.kind = p->kind;
  o.seed = p->seed + p->matches * 1000003u + p->steps;
  o.seconds = think > 0.01 ? think : 0.01;
  o.threads = p->threads;
  gdl_set_time_limit(p->ctx, o.seconds + 0.05);
  {
    gdl_term chosen = 0;
    gdl_status st;
    int stopped;
    pthread_mutex_lock(&p->look);         /* a STOP may interrupt it now */
    __atomic_store_n(&p->stop, p->stop_pending, __ATOMIC_RELAXED);
    p->stop_pending = 0;
    p->thinking = 1;
    pthread_mutex_unlock(&p->look);
    st = gdl_choose_move(p->ctx, &p->state, p->role, &o, &chosen, &info);
    pthread_mutex_lock(&p->look);
    p->thinking = 0;
    stopped = __atomic_load_n(&p->stop, __ATOMIC_RELAXED);
    __atomic_store_n(&p->stop, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&p->look);
    if (stopped)
      p->interrupted++;
    gdl_set_time_limit(p->ctx, 0);
    if (st == GDL_OK && chosen && gdl_set_state(p->ctx, &p->state) == GDL_OK &&
        gdl_is_legal(p->ctx, p->role, chosen))
      move = chosen;
    say(p, "PLAY %s step %u: %s (%llu playouts in %.2f s of %.2f%s)", p->id,
        p->steps + 1, gdl_term_str(p->ctx, move),
        (unsigned long long)info.playouts, info.seconds, o.seconds,
        stopped ? ", stopped by STOP or ABORT" : "");
  }
  *reply = text_of("%s", gdl_term_str(p->ctx, move));
  return 0;
}

static int do_stop(ggp_player *p, const char *msg, const ggp_span *it, int n,
                   int abort, char **reply)
{
  const char *kw = abort ? "ABORT" : "STOP";
  if (n < 2 || n > 3)
    return error_reply(p, reply, "%s takes a match id%s", kw,
                       abort ? "" : " and the last moves");
  if (!same_match(p, msg, it[1]))
    return error_reply(p, reply, "%s for %.*s, which is not the match "
                       "played (%s)", kw, (int)(it[1].len > 100 ? 100 : it[1].len),
                       msg + it[1].start, p->ctx ? p->id : "none");
  if (!abort && n == 3) {
    char *ignored = NULL;
    if (apply_moves(p, msg, it[2], &ignored) == 0 &&
        gdl_set_state(p->ctx, &p->state) == GDL_OK)
      say(p, "STOP %s: goal %ld", p->id, gdl_goal(p->ctx, p->role));
    free(ignored);
  } else {
    say(p, "%s %s", kw, p->id);
  }
  match_end(p);
  *reply = text_of(abort ? "aborted" : "done");
  return 0;
}

/* A STOP or ABORT for the match played: the search of a PLAY that
 * thinks stopped (it then answers at once), or that of a PLAY about to
 * think (it holds p->lock already) stopped as it starts.  p->id is read
 * only while busy, under p->look: it is written before busy is set and
 * cleared after busy is. */
static void interrupt_search(ggp_player *p, const char *msg, ggp_span id)
{
  pthread_mutex_lock(&p->look);
  if (p->busy && id.len == strlen(p->id) &&
      memcmp(msg + id.start, p->id, id.len) == 0) {
    if (p->thinking)
      __atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
    else
      p->stop_pending = 1;
  }
  pthread_mutex_unlock(&p->look);
}

/* A PLAY, STOP or ABORT for a match that is not the one played: the
 * error reply at once, without waiting for a PLAY that thinks (-1), or 0
 * when it is the match played. */
static int other_match(ggp_player *p, const char *kw, const char *msg,
                       ggp_span id, char **reply)
{
  char played[sizeof p->id];
  int same;
  pthread_mutex_lock(&p->look);
  same = p->busy && id.len == strlen(p->id) &&
         memcmp(msg + id.start, p->id, id.len) == 0;
  snprintf(played, sizeof played, "%s", p->busy ? p->id : "none");
  pthread_mutex_unlock(&p->look);
  if (same)
    return 0;
  return error_reply(p, reply, "%s for %.*s, which is not the match "
                     "played (%s)", kw, (int)(id.len > 100 ? 100 : id.len),
                     msg + id.start, played);
}

/* The answer to a message of the match, under p->lock. */
typedef int (*match_fn)(ggp_player *, const char *, const ggp_span *, int,
                        double, char **);

static int locked(ggp_player *p, match_fn fn, const char *msg,
                  const ggp_span *it, int n, double received, char **reply)
{
  int rc;
  pthread_mutex_lock(&p->lock);
  rc = fn(p, msg, it, n, received, reply);
  pthread_mutex_unlock(&p->lock);
  return rc;
}

static int do_stop_msg(ggp_player *p, const char *msg, const ggp_span *it,
                       int n, double received, char **reply)
{
  (void)received;
  return do_stop(p, msg, it, n, 0, reply);
}

static int do_abort_msg(ggp_player *p, const char *msg, const ggp_span *it,
                        int n, double received, char **reply)
{
  (void)received;
  return do_stop(p, msg, it, n, 1, reply);
}

int ggp_player_reply(ggp_player *p, const char *msg, size_t n,
                     double received, char **reply)
{
  ggp_span it[16];
  int count;
  *reply = NULL;
  if (ggp_list(msg, n, it, 16, &count) != 0 || count == 0 ||
      msg[it[0].start] == '(')
    return error_reply(p, reply, "not a GGP message: one list, (KEYWORD "
                       "...), is expected");
  if (keyword_is(msg, it[0], "info")) {
    *reply = text_of("((name %s) (status %s))", p->name,
                     is_busy(p) ? "busy" : "available");
    return 0;
  }
  if (keyword_is(msg, it[0], "ping")) {
    *reply = text_of(is_busy(p) ? "busy" : "available");
    return 0;
  }
  if (keyword_is(msg, it[0], "preview")) {
    *reply = text_of("ready");
    return 0;
  }
  if (keyword_is(msg, it[0], "start")) {
    if (count == 6 && is_busy(p)) {     /* without waiting for a PLAY */
      *reply = text_of("busy");
      say(p, "START while in a match: busy");
      return 0;
    }
    return locked(p, do_start, msg, it, count, received, reply);
  }
  if (keyword_is(msg, it[0], "play")) {
    if (count == 3 && other_match(p, "PLAY", msg, it[1], reply))
      return -1;
    return locked(p, do_play, msg, it, count, received, reply);
  }
  if (keyword_is(msg, it[0], "stop") || keyword_is(msg, it[0], "abort")) {
    int stop = keyword_is(msg, it[0], "stop");
    if (count >= 2 && count <= 3 &&
        other_match(p, stop ? "STOP" : "ABORT", msg, it[1], reply))
      return -1;
    if (count >= 2)
      interrupt_search(p, msg, it[1]);
    return locked(p, stop ? do_stop_msg : do_abort_msg, msg, it, count,
                  received, reply);
  }
  return error_reply(p, reply, "unknown message %.*s: INFO, PING, PREVIEW, "
                     "START, PLAY, STOP or ABORT",
                     (int)(it[0].len > 40 ? 40 : it[0].len), msg + it[0].start);
}
