/*
 * cli_player.c - gdl player: the GGP protocol served over HTTP by
 * libmicrohttpd (where the Makefile finds it; else the command says gdl
 * was built without it).  The
 * messages are answered by ggp.c, which knows nothing of sockets; this
 * file only gathers a request's body, hands it over and sends the reply
 * as text/acl.  libmicrohttpd serves each connection on a thread of its
 * own, so that a STOP that comes while a PLAY thinks is read at once and
 * stops the search (ggp.c holds the locks), and a connection that sends
 * half a request and falls silent holds only its own thread, until the
 * connection timeout closes it; the main thread waits for Ctrl-C or
 * SIGTERM.
 */
#include <stdio.h>

#include "cli/cli.h"

#ifdef GDL_HAVE_MHD
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "cli/ggp.h"

#define MAX_BODY (64u << 20)    /* a request's body: 64 MB at most */
/* Seconds a connection may stay silent before it is closed (a host that
 * sent half a request), and the connections served at once (a thread
 * each): more are refused until one ends. */
#define CONNECTION_TIMEOUT 30
#define MAX_CONNECTIONS 64

typedef struct {
  char *buf;
  size_t n, cap;
  double received;            /* when its first byte came */
  int too_big;
} body_t;

static int send_text(struct MHD_Connection *con, unsigned status,
                     const char *text)
{
  struct MHD_Response *r = MHD_create_response_from_buffer(
      strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
  int rc;
  if (!r)
    return MHD_NO;
  MHD_add_response_header(r, "Content-Type", "text/acl");
  MHD_add_response_header(r, "Access-Control-Allow-Origin", "*");
  MHD_add_response_header(r, "Access-Control-Allow-Methods",
                          "POST, GET, OPTIONS");
  MHD_add_response_header(r, "Access-Control-Allow-Headers",
                          "Content-Type, Sender, Receiver");
  MHD_add_response_header(r, "Access-Control-Allow-Age", "86400");
  rc = MHD_queue_response(con, status, r);
  MHD_destroy_response(r);
  return rc;
}

/* Answers the message (n bytes) and sends the reply. */
static int answer(ggp_player *p, struct MHD_Connection *con,
                  const char *msg, size_t n, double received)
{
  char *reply = NULL;
  int bad = ggp_player_reply(p, msg, n, received, &reply), rc;
  rc = send_text(con, bad ? MHD_HTTP_BAD_REQUEST : MHD_HTTP_OK,
                 reply ? reply : "error: out of memory");
  free(reply);
  return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
  ggp_player *p = cls;
  body_t *b = *con_cls;
  (void)version;
  if (strcmp(method, "OPTIONS") == 0)
    return send_text(con, MHD_HTTP_OK, "") == MHD_YES ? MHD_YES : MHD_NO;
  if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0) {
    /* the message as the path, as ggp-base's reader takes it; / is INFO */
    const char *m = url[0] == '/' ? url + 1 : url;
    if (!*m)
      m = "(INFO)";
    return answer(p, con, m, strlen(m), ggp_now()) == MHD_YES ? MHD_YES
                                                            : MHD_NO;
  }
  if (strcmp(method, "POST") != 0)
    return send_text(con, MHD_HTTP_METHOD_NOT_ALLOWED,
                     "error: POST a GGP message") == MHD_YES ? MHD_YES : MHD_NO;
  if (!b) {                   /* the first call: the headers */
    if (!(b = calloc(1, sizeof *b)))
      return MHD_NO;
    b->received = ggp_now();
    *con_cls = b;
    return MHD_YES;
  }
  if (*upload_size) {         /* a piece of the body */
    if (b->n + *upload_size > MAX_BODY) {
      b->too_big = 1;
    } else if (!b->too_big) {
      if (b->n + *upload_size + 1 > b->cap) {
        size_t cap = (b->n + *upload_size + 1) * 2;
        char *nb = realloc(b->buf, cap);
        if (!nb)
          return MHD_NO;
        b->buf = nb;
        b->cap = cap;
      }
      memcpy(b->buf + b->n, upload, *upload_size);
      b->n += *upload_size;
    }
    *upload_size = 0;
    return MHD_YES;
  }
  if (b->too_big)
    return send_text(con, MHD_HTTP_BAD_REQUEST,
                     "error: the message is longer than 64 MB") == MHD_YES
               ? MHD_YES : MHD_NO;
  return answer(p, con, b->buf ? b->buf : "", b->n, b->received) == MHD_YES
             ? MHD_YES : MHD_NO;
}

static void on_done(void *cls, struct MHD_Connection *con, void **con_cls,
                    enum MHD_RequestTerminationCode why)
{
  body_t *b = *con_cls;
  (void)cls;
  (void)con;
  (void)why;
  if (b) {
    free(b->buf);
    free(b);
    *con_cls = NULL;
  }
}

static volatile sig_atomic_t stop_serving;

static void on_stop(int sig)
{
  (void)sig;
  stop_serving = 1;
}

int cmd_player(gdl_ctx *ctx, const opts_t *o)
{
  ggp_player p;
  struct MHD_Daemon *d;
  struct sockaddr_storage sa;
  socklen_t salen;
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD |
                   MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG;
  const char *addr = o->listen ? o->listen : "127.0.0.1";
  long port = o->port == 0 ? 9147 : o->port < 0 ? 0 : o->port;
  const union MHD_DaemonInfo *info;
  struct sigaction sact;
  (void)ctx;
  memset(&sa, 0, sizeof sa);
  if (strchr(addr, ':')) {
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&sa;
    a6->sin6_family = AF_INET6;
    a6->sin6_port = htons((unsigned short)port);
    if (inet_pton(AF_INET6, addr, &a6->sin6_addr) != 1)
      return usage_error("--listen: '%s' is not an IPv4 or IPv6 address",
                         addr);
    salen = sizeof *a6;
    flags |= MHD_USE_IPv6;
  } else {
    struct sockaddr_in *a4 = (struct sockaddr_in *)&sa;
    a4->sin_family = AF_INET;
    a4->sin_port = htons((unsigned short)port);
    if (inet_pton(AF_INET, addr, &a4->sin_addr) != 1)
      return usage_error("--listen: '%s' is not an IPv4 or IPv6 address",
                         addr);
    salen = sizeof *a4;
  }
  (void)salen;
  ggp_player_init(&p, o->seed, "gdl", o->quiet ? NULL : stderr);
  p.threads = cli_choose_threads(o);
  p.memory_limit = o->max_memory;
  d = MHD_start_daemon(flags, (unsigned short)port, NULL, NULL, on_request,
                       &p, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                       MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL,
                       MHD_OPTION_CONNECTION_TIMEOUT,
                       (unsigned)CONNECTION_TIMEOUT,
                       MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS,
                       MHD_OPTION_END);
  if (!d) {
    fprintf(stderr, "gdl: player: cannot listen on %s port %ld (in use?)\n",
            addr, port);
    return 2;
  }
  info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  printf("gdl player listening on %s%s%s:%u\n", strchr(addr, ':') ? "[" : "",
         addr, strchr(addr, ':') ? "]" : "",
         info ? (unsigned)info->port : (unsigned)port);
  fflush(stdout);
  memset(&sact, 0, sizeof sact);
  sact.sa_handler = on_stop;
  sigaction(SIGINT, &sact, NULL);
  sigaction(SIGTERM, &sact, NULL);
  while (!stop_serving) {
    struct timespec nap = { 0, 50000000 };     /* 50 ms */
    nanosleep(&nap, NULL);
  }
  MHD_stop_daemon(d);
  ggp_player_end(&p);
  if (!o->quiet)
    fprintf(stderr, "gdl player: stopped after %llu match%s\n",
            (unsigned long long)p.matches, p.matches == 1 ? "" : "es");
  return 0;
}

#else /* built without libmicrohttpd */

int cmd_player(gdl_ctx *ctx, const opts_t *o)
{
  (void)ctx;
  (void)o;
  fprintf(stderr, "gdl was built without libmicrohttpd: 'gdl player' is "
          "left out (install libmicrohttpd-dev and build again)\n");
  return 2;
}

#endif
