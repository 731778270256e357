/*
 * cli_match.c - gdl match: a match hosted as a GGP game manager over
 * HTTP with libcurl (built only where it is: the Makefile detects it).
 *
 * START goes to every role's player at once, then each turn PLAY with
 * the last joint move (nil first), then STOP; the requests of a round go
 * out together (curl's multi interface), each with the clock and a second
 * of grace as its timeout.  A reply that is late, missing, unreadable or
 * not a legal move is replaced by a random legal move (the --seed's
 * generator) and the error recorded, so that the match always ends.  The
 * record (doc/ggp.md) is written as JSON: roles, players, each turn's
 * moves, times and errors, the goals.
 */
#include <stdio.h>

#include "cli/cli.h"

#ifdef GDL_HAVE_CURL
#include <curl/curl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/ggp.h"

#define GRACE 1.0              /* seconds past a clock before a timeout */

typedef struct {
  char *buf;
  size_t n;
  int too_big;
} reply_t;

/* One player's answer in a round. */
typedef struct {
  reply_t r;
  double seconds;              /* from the request to the reply */
  char error[256];             /* "" when all went well */
  long http;                   /* HTTP status */
} answer_t;

static size_t on_data(char *data, size_t size, size_t nmemb, void *arg)
{
  reply_t *r = arg;
  size_t n = size * nmemb;
  char *nb;
  if (r->n + n > (1u << 20)) { /* a reply of more than 1 MB: cut */
    r->too_big = 1;
    return 0;
  }
  if (!(nb = realloc(r->buf, r->n + n + 1)))
    return 0;
  r->buf = nb;
  memcpy(r->buf + r->n, data, n);
  r->n += n;
  r->buf[r->n] = 0;
  return n;
}

/* Sends msgs[i] to urls[i] for i < k, all at once, each with a timeout
 * of `clock` seconds and the grace; the answers into ans[i]. */
static void round_trip(char **urls, char **msgs, size_t k, double clock,
                       answer_t *ans)
{
  CURLM *multi = curl_multi_init();
  CURL **easy = calloc(k, sizeof *easy);
  struct curl_slist *hdr = NULL;
  double t0 = ggp_now();
  int running = 0;
  size_t i;
  CURLMsg *m;
  int left;
  hdr = curl_slist_append(hdr, "Content-Type: text/acl");
  hdr = curl_slist_append(hdr, "Sender: GAMEMASTER");
  hdr = curl_slist_append(hdr, "Expect:");
  for (i = 0; i < k; i++) {
    memset(&ans[i], 0, sizeof ans[i]);
    if (!multi || !easy || !(easy[i] = curl_easy_init())) {
      snprintf(ans[i].error, sizeof ans[i].error, "out of memory");
      continue;
    }
    curl_easy_setopt(easy[i], CURLOPT_URL, urls[i]);
    curl_easy_setopt(easy[i], CURLOPT_POSTFIELDS, msgs[i]);
    curl_easy_setopt(easy[i], CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(easy[i], CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(easy[i], CURLOPT_WRITEDATA, &ans[i].r);
    curl_easy_setopt(easy[i], CURLOPT_TIMEOUT_MS,
                     (long)((clock + GRACE) * 1000));
    curl_easy_setopt(easy[i], CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy[i], CURLOPT_PRIVATE, (char *)&ans[i]);
    curl_multi_add_handle(multi, easy[i]);
  }
  if (multi) {
    do {
      curl_multi_perform(multi, &running);
      if (running)
        curl_multi_poll(multi, NULL, 0, 100, NULL);
      while ((m = curl_multi_info_read(multi, &left)) != NULL) {
        answer_t *a;
        if (m->msg != CURLMSG_DONE)
          continue;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&a);
        a->seconds = ggp_now() - t0;
        curl_easy_getinfo(m->easy_handle, CURLINFO_RESPONSE_CODE, &a->http);
        if (m->data.result == CURLE_OPERATION_TIMEDOUT)
          snprintf(a->error, sizeof a->error, "timeout: no reply within "
                   "%g s", clock + GRACE);
        else if (m->data.result != CURLE_OK)
          snprintf(a->error, sizeof a->error, "no reply: %s",
                   curl_easy_strerror(m->data.result));
        else if (a->http != 200)
          snprintf(a->error, sizeof a->error, "HTTP %ld: %.200s", a->http,
                   a->r.buf ? a->r.buf : "");
      }
    } while (running);
  }
  for (i = 0; i < k; i++)
    if (easy && easy[i]) {
      if (multi)
        curl_multi_remove_handle(multi, easy[i]);
      curl_easy_cleanup(easy[i]);
    }
  free(easy);
  curl_slist_free_all(hdr);
  if (multi)
    curl_multi_cleanup(multi);
}

/* ---- the record -------------------------------------------------------- */

typedef struct {
  char *s;
  size_t n, cap;
} text_t;

static void put(text_t *t, const char *fmt, ...)
{
  va_list ap;
  int len;
  va_start(ap, fmt);
  len = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (len < 0)
    return;
  if (t->n + (size_t)len + 1 > t->cap) {
    size_t cap = (t->n + (size_t)len + 1) * 2;
    char *ns = realloc(t->s, cap);
    if (!ns)
      return;
    t->s = ns;
    t->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(t->s + t->n, (size_t)len + 1, fmt, ap);
  va_end(ap);
  t->n += (size_t)len;
}

static void put_esc(void *arg, const char *p, size_t len)
{
  put(arg, "%.*s", (int)len, p);
}

static void put_str(text_t *t, const char *s)
{
  put(t, "\"");
  gdl_json_escape(s, strlen(s), put_esc, t);
  put(t, "\"");
}

/* ---- the match ------------------------------------------------------- */

static void free_answers(answer_t *a, size_t k)
{
  size_t i;
  for (i = 0; i < k; i++) {
    free(a[i].r.buf);
    a[i].r.buf = NULL;
  }
}

/* The reply's text trimmed, for the record and the parse. */
static const char *trimmed(answer_t *a)
{
  char *s = a->r.buf, *e;
  if (!s)
    return "";
  while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
    s++;
  e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
                   e[-1] == '\n'))
    *--e = 0;
  return s;
}

int cmd_match(gdl_ctx *ctx, const opts_t *o)
{
  size_t k, r, i, steps = 0, cap = 0, err_turns = 0;
  char **urls = NULL, **msgs = NULL, *rules = NULL, id[64];
  const char *text;
  size_t len;
  gdl_state s = { 0, 0, NULL }, nx = { 0, 0, NULL };
  gdl_term *moves = NULL;       /* steps x k */
  double *times = NULL;         /* steps x k */
  char **errors = NULL;         /* steps x k, NULL when none */
  answer_t *ans = NULL;
  text_t rec = { NULL, 0, 0 }, msg = { NULL, 0, 0 };
  uint64_t rng = o->seed;
  double sc = o->startclock > 0 ? o->startclock : 10;
  double pc = o->playclock > 0 ? o->playclock : 5;
  int rc = load(ctx, o), stopped = 0, nerr = 0;
  char **start_err = NULL;
  if (rc || (rc = need_game(ctx, o)))
    return rc;
  k = gdl_role_count(ctx);
  urls = calloc(k, sizeof *urls);
  msgs = calloc(k, sizeof *msgs);
  ans = calloc(k, sizeof *ans);
  start_err = calloc(k, sizeof *start_err);
  if (!urls || !msgs || !ans || !start_err) {
    rc = usage_error("out of memory");
    goto out;
  }
  for (i = 0; i < (size_t)o->players.n; i++) {
    const char *a = o->players.v[i], *url;
    int ri = role_option(ctx, "--player", "ROLE=URL", a, &url);
    if (ri < 0) {
      rc = 2;
      goto out;
    }
    if (urls[ri]) {
      rc = usage_error("--player: two players for %s",
                       gdl_term_str(ctx, gdl_role(ctx, (size_t)ri)));
      goto out;
    }
    urls[ri] = (char *)url;
  }
  for (r = 0; r < k; r++)
    if (!urls[r]) {
      rc = usage_error("--player: no player for %s (one --player ROLE=URL "
                       "per role)", gdl_term_str(ctx, gdl_role(ctx, r)));
      goto out;
    }
  if (gdl_write(ctx, GDL_SYNTAX_KIF, &text, &len) != GDL_OK) {
    rc = fail(ctx, GDL_EINPUT);
    goto out;
  }
  if (!(rules = ggp_flatten(text, len))) {
    rc = usage_error("out of memory");
    goto out;
  }
  snprintf(id, sizeof id, "gdl.%ld.%ld", (long)time(NULL), (long)getpid());
  curl_global_init(CURL_GLOBAL_DEFAULT);
  /* START */
  for (r = 0; r < k; r++) {
    msg.n = 0;
    put(&msg, "(START %s %s (%s) %g %g)", id,
        gdl_term_str(ctx, gdl_role(ctx, r)), rules, sc, pc);
    msgs[r] = strdup(msg.s ? msg.s : "");
  }
  printf("match %s: %s, start clock %g s, play clock %g s\n", id,
         o->files[0], sc, pc);
  round_trip(urls, msgs, k, sc, ans);
  for (r = 0; r < k; r++) {
    const char *t = trimmed(&ans[r]);
    if (!ans[r].error[0] && strcasecmp(t, "ready") != 0)
      snprintf(ans[r].error, sizeof ans[r].error, "START answered "
               "'%.200s', not ready", t);
    if (ans[r].error[0]) {
      start_err[r] = strdup(ans[r].error);
      nerr++;
      printf("  %s (%s): %s\n", gdl_term_str(ctx, gdl_role(ctx, r)),
             urls[r], ans[r].error);
    }
    free(msgs[r]);
    msgs[r] = NULL;
  }
  free_answers(ans, k);
  if (gdl_initial(ctx, &s) != GDL_OK || gdl_set_state(ctx, &s) != GDL_OK) {
    rc = fail(ctx, GDL_EINPUT);
    goto stop;
  }
  while (!gdl_terminal(ctx)) {
    const gdl_term *mv;
    size_t n;
    if (cli_interrupted || (o->max_steps > 0 && steps >= (size_t)o->max_steps)) {
      stopped = 1;
      break;
    }
    if (steps + 1 > cap) {
      size_t nc = cap ? cap * 2 : 32;
      gdl_term *m2 = realloc(moves, nc * k * sizeof *m2);
      double *t2;
      char **e2;
      if (m2)
        moves = m2;
      t2 = realloc(times, nc * k * sizeof *t2);
      if (t2)
        times = t2;
      e2 = realloc(errors, nc * k * sizeof *e2);
      if (e2)
        errors = e2;
      if (!m2 || !t2 || !e2) {
        rc = usage_error("out of memory");
        goto stop;
      }
      cap = nc;
    }
    for (r = 0; r < k; r++) {
      msg.n = 0;
      put(&msg, "(PLAY %s ", id);
      if (steps == 0) {
        put(&msg, "nil)");
      } else {
        put(&msg, "(");
        for (i = 0; i < k; i++)
          put(&msg, "%s%s", i ? " " : "",
              gdl_term_str(ctx, moves[(steps - 1) * k + i]));
        put(&msg, "))");
      }
      msgs[r] = strdup(msg.s ? msg.s : "");
    }
    for (r = 0; r < k; r++)
      errors[steps * k + r] = NULL;
    err_turns = steps + 1;
    round_trip(urls, msgs, k, pc, ans);
    if (gdl_set_state(ctx, &s) != GDL_OK) {
      rc = fail(ctx, GDL_EINPUT);
      goto stop;
    }
    printf("%zu.", steps + 1);
    for (r = 0; r < k; r++) {
      gdl_term t = 0;
      const char *txt = trimmed(&ans[r]);
      char *err = NULL;
      if (!ans[r].error[0] && ans[r].seconds > pc + GRACE)
        snprintf(ans[r].error, sizeof ans[r].error, "late: %.2f s", ans[r].seconds);
      if (!ans[r].error[0] && gdl_parse_term(ctx, txt, 0, &t) != GDL_OK)
        snprintf(ans[r].error, sizeof ans[r].error, "not a move: '%.200s'", txt);
      else if (!ans[r].error[0] && !gdl_is_legal(ctx, r, t))
        snprintf(ans[r].error, sizeof ans[r].error, "illegal move: %.200s", txt);
      if (ans[r].error[0]) {
        if (gdl_legal(ctx, r, &mv, &n) != GDL_OK || n == 0) {
          fprintf(stderr, "gdl: match: %s has no legal move\n",
                  gdl_term_str(ctx, gdl_role(ctx, r)));
          rc = 2;
          goto stop;
        }
        t = mv[gdl_random(&rng, n)];
        err = strdup(ans[r].error);
        nerr++;
      }
      moves[steps * k + r] = t;
      times[steps * k + r] = ans[r].seconds;
      errors[steps * k + r] = err;
      printf(" %s", gdl_term_str(ctx, gdl_role(ctx, r)));
      printf(" %s (%.2f s%s%s)", gdl_term_str(ctx, t), ans[r].seconds,
             err ? "; random: " : "", err ? err : "");
      free(msgs[r]);
      msgs[r] = NULL;
    }
    printf("\n");
    fflush(stdout);
    free_answers(ans, k);
    if (gdl_next(ctx, moves + steps * k, &nx) != GDL_OK ||
        gdl_state_copy(ctx, &s, &nx) != GDL_OK ||
        gdl_set_state(ctx, &s) != GDL_OK) {
      rc = fail(ctx, GDL_EINPUT);
      goto stop;
    }
    steps++;
  }
stop:
  /* STOP (or ABORT when the match did not end), the replies not waited
   * for longer than a play clock */
  for (r = 0; r < k; r++) {
    msg.n = 0;
    if (rc == 0 && !stopped && steps > 0) {
      put(&msg, "(STOP %s (", id);
      for (i = 0; i < k; i++)
        put(&msg, "%s%s", i ? " " : "",
            gdl_term_str(ctx, moves[(steps - 1) * k + i]));
      put(&msg, "))");
    } else if (rc == 0 && !stopped) {
      put(&msg, "(STOP %s nil)", id);
    } else {
      put(&msg, "(ABORT %s)", id);
    }
    free(msgs[r]);
    msgs[r] = strdup(msg.s ? msg.s : "");
  }
  round_trip(urls, msgs, k, pc, ans);
  free_answers(ans, k);
  curl_global_cleanup();
  if (rc)
    goto out;
  /* the record */
  put(&rec, "{\"match_id\":");
  put_str(&rec, id);
  put(&rec, ",\"game\":");
  put_str(&rec, o->files[0]);
  put(&rec, ",\"startclock\":%g,\"playclock\":%g,\"roles\":[", sc, pc);
  for (r = 0; r < k; r++) {
    put(&rec, r ? "," : "");
    put_str(&rec, gdl_term_str(ctx, gdl_role(ctx, r)));
  }
  put(&rec, "],\"players\":[");
  for (r = 0; r < k; r++) {
    put(&rec, r ? "," : "");
    put_str(&rec, urls[r]);
  }
  put(&rec, "],\"start_errors\":[");
  for (r = 0; r < k; r++) {
    put(&rec, r ? "," : "");
    if (start_err[r])
      put_str(&rec, start_err[r]);
    else
      put(&rec, "null");
  }
  put(&rec, "],\"moves\":[");
  for (i = 0; i < steps; i++) {
    put(&rec, "%s[", i ? "," : "");
    for (r = 0; r < k; r++) {
      put(&rec, r ? "," : "");
      put_str(&rec, gdl_term_str(ctx, moves[i * k + r]));
    }
    put(&rec, "]");
  }
  put(&rec, "],\"times\":[");
  for (i = 0; i < steps; i++) {
    put(&rec, "%s[", i ? "," : "");
    for (r = 0; r < k; r++)
      put(&rec, "%s%.3f", r ? "," : "", times[i * k + r]);
    put(&rec, "]");
  }
  put(&rec, "],\"errors\":[");
  for (i = 0; i < steps; i++) {
    put(&rec, "%s[", i ? "," : "");
    for (r = 0; r < k; r++) {
      put(&rec, r ? "," : "");
      if (errors[i * k + r])
        put_str(&rec, errors[i * k + r]);
      else
        put(&rec, "null");
    }
    put(&rec, "]");
  }
  put(&rec, "],\"error_count\":%d,\"completed\":%s,\"goals\":[", nerr,
      stopped ? "false" : "true");
  for (r = 0; r < k; r++)
    put(&rec, "%s%ld", r ? "," : "", stopped ? -1L : gdl_goal(ctx, r));
  put(&rec, "]}\n");
  if (!stopped) {
    printf("goals:");
    for (r = 0; r < k; r++)
      printf("%s %s %ld", r ? "," : "", gdl_term_str(ctx, gdl_role(ctx, r)),
             gdl_goal(ctx, r));
    printf("  (%zu moves, %d error%s)\n", steps, nerr, nerr == 1 ? "" : "s");
  } else {
    printf("stopped after %zu moves%s\n", steps,
           cli_interrupted ? " (interrupted)" : " (--max-steps)");
  }
  if (o->json)
    fputs(rec.s, stdout);
  if (o->record) {
    FILE *f = fopen(o->record, "w");
    if (!f || fputs(rec.s, f) < 0 || fclose(f) != 0) {
      fprintf(stderr, "gdl: match: cannot write the record to %s\n",
              o->record);
      rc = 2;
      goto out;
    }
  }
  rc = stopped ? 3 : 0;
out:
  if (errors)
    for (i = 0; i < err_turns; i++)
      for (r = 0; r < k; r++)
        free(errors[i * k + r]);
  if (start_err)
    for (r = 0; r < k; r++)
      free(start_err[r]);
  if (msgs)
    for (r = 0; r < k; r++)
      free(msgs[r]);
  free(start_err);
  free(errors);
  free(times);
  free(moves);
  free(msgs);
  free(urls);
  free(ans);
  free(rules);
  free(rec.s);
  free(msg.s);
  gdl_state_release(ctx, &s);
  gdl_state_release(ctx, &nx);
  return rc;
}

#else /* built without libcurl */

int cmd_match(gdl_ctx *ctx, const opts_t *o)
{
  (void)ctx;
  (void)o;
  fprintf(stderr, "gdl was built without libcurl: 'gdl match' is left "
          "out (install libcurl4-openssl-dev and build again)\n");
  return 2;
}

#endif
