/*
 * mem.c - the context's memory: accounting, limits, the long jump out of
 * an operation that cannot go on, the clock and the interrupt, and the
 * growing text buffers.  The lowest layer: it calls nothing of the
 * library.
 *
 * Every heap block carries a header that links it into the context's list
 * of live blocks and records its size.  The byte count is checked against
 * the limit on every allocation; a failed or refused allocation long-jumps
 * to the innermost public entry point with GDL_ELIMIT, so no caller in the
 * library has to check for NULL.  gdl_free() walks the list, so a block
 * that an interrupted operation had not yet linked into a structure is
 * freed all the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"

struct block {
  block_t *prev, *next;
  size_t size;
  size_t pad;              /* keeps the payload 16-byte aligned */
};

static void unlink_block(gdl_ctx *ctx, block_t *b)
{
  /* b is on the list (not freed twice, not from elsewhere) */
  gdl_assert(b->prev ? b->prev->next == b : ctx->blocks == b);
  gdl_assert(!b->next || b->next->prev == b);
  gdl_assert(ctx->used >= b->size);
  if (b->prev)
    b->prev->next = b->next;
  else
    ctx->blocks = b->next;
  if (b->next)
    b->next->prev = b->prev;
}

static void link_block(gdl_ctx *ctx, block_t *b)
{
  b->prev = NULL;
  b->next = ctx->blocks;
  if (ctx->blocks)
    ctx->blocks->prev = b;
  ctx->blocks = b;
}

static void account(gdl_ctx *ctx, size_t add)
{
  if (ctx->fail_after >= 0 && ctx->fail_after-- == 0)
    ctx_throw(ctx, GDL_ELIMIT, "out of memory (injected failure)");
  if (ctx->limit && ctx->used + add > ctx->limit)
    ctx_throw(ctx, GDL_ELIMIT, "memory limit of %zu MB reached",
              ctx->limit >> 20);
}

void *ctx_alloc(gdl_ctx *ctx, size_t n)
{
  block_t *b;
  account(ctx, n);
  b = calloc(1, sizeof *b + n);
  if (!b)
    ctx_throw(ctx, GDL_ELIMIT, "out of memory (%zu bytes wanted)", n);
  b->size = n;
  link_block(ctx, b);
  ctx->used += n;
  if (ctx->used > ctx->peak)
    ctx->peak = ctx->used;
  return b + 1;
}

void *ctx_realloc(gdl_ctx *ctx, void *p, size_t n)
{
  block_t *b, *nb;
  if (!p)
    return ctx_alloc(ctx, n);
  b = (block_t *)p - 1;
  if (n > b->size)
    account(ctx, n - b->size);
  unlink_block(ctx, b);
  nb = realloc(b, sizeof *b + n);
  if (!nb) {
    link_block(ctx, b);
    ctx_throw(ctx, GDL_ELIMIT, "out of memory (%zu bytes wanted)", n);
  }
  ctx->used = ctx->used - nb->size + n;
  if (ctx->used > ctx->peak)
    ctx->peak = ctx->used;
  nb->size = n;
  link_block(ctx, nb);
  return nb + 1;
}

/* ctx_realloc that returns NULL (p kept) where it would throw: for a
 * search's worker threads, which must not jump (a caller holds a lock
 * around it, since the accounting is not atomic). */
void *ctx_try_realloc(gdl_ctx *ctx, void *p, size_t n)
{
  block_t *b = p ? (block_t *)p - 1 : NULL, *nb;
  size_t old = b ? b->size : 0;
  if (ctx->fail_after >= 0 && ctx->fail_after-- == 0)
    return NULL;
  if (n > old && ctx->limit && ctx->used + (n - old) > ctx->limit)
    return NULL;
  if (b)
    unlink_block(ctx, b);
  nb = realloc(b, sizeof *nb + n);
  if (!nb) {
    if (b)
      link_block(ctx, b);
    return NULL;
  }
  if (!b)
    memset(nb, 0, sizeof *nb + n);
  ctx->used = ctx->used - old + n;
  if (ctx->used > ctx->peak)
    ctx->peak = ctx->used;
  nb->size = n;
  link_block(ctx, nb);
  return nb + 1;
}

int ctx_try_grow(gdl_ctx *ctx, void **p, uint64_t *cap, uint64_t need,
                 size_t sz, uint64_t first)
{
  uint64_t c = *cap ? *cap : first;
  void *q;
  if (need <= *cap)
    return 1;
  while (c < need)
    c *= 2;
  if (!(q = ctx_try_realloc(ctx, *p, (size_t)(c * sz))))
    return 0;
  *p = q;
  *cap = c;
  return 1;
}

void ctx_free(gdl_ctx *ctx, void *p)
{
  block_t *b;
  if (!p)
    return;
  b = (block_t *)p - 1;
  unlink_block(ctx, b);
  ctx->used -= b->size;
  free(b);
}

void ctx_grow(gdl_ctx *ctx, void **p, uint32_t *cap, uint32_t need, size_t sz)
{
  uint64_t c;
  if (need < *cap)
    return;
  c = *cap ? (uint64_t)*cap * 2 : 8;
  while (c <= need)
    c *= 2;
  if (c > UINT32_MAX)
    ctx_throw(ctx, GDL_ELIMIT, "a table grew past 2^32 entries");
  *p = ctx_realloc(ctx, *p, (size_t)c * sz);
  memset((char *)*p + (size_t)*cap * sz, 0, (size_t)(c - *cap) * sz);
  *cap = (uint32_t)c;
  gdl_assert(need < *cap);
}

/* Arena: chunks of 4 KiB, 8, 16, 32 and then 64 KiB (or one chunk for a
 * bigger request).  Chunks are zeroed: a context for a small description
 * (a term on a command line, a fuzzer's input) does not pay for 64 KiB. */
void *ctx_arena(gdl_ctx *ctx, size_t n)
{
  void *p;
  n = (n + 15) & ~(size_t)15;
  if (n > ctx->arena_left) {
    size_t want = (size_t)4096 << (ctx->narenas < 4 ? ctx->narenas : 4);
    size_t sz = n > want ? n : want;
    char *chunk = ctx_alloc(ctx, sz);
    GROW(ctx, ctx->arenas, ctx->arenacap, ctx->narenas);
    ctx->arenas[ctx->narenas++] = chunk;
    ctx->arena_p = chunk;
    ctx->arena_left = sz;
  }
  gdl_assert(n <= ctx->arena_left);
  p = ctx->arena_p;
  ctx->arena_p += n;
  ctx->arena_left -= n;
  return p;
}

char *ctx_strdup(gdl_ctx *ctx, const char *s, size_t n)
{
  char *d = ctx_arena(ctx, n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

/* The message, formatted aside first: it may quote the last one
 * (ctx_throw(ctx, st, "%s", ctx->errmsg) passes a failure on), and
 * vsnprintf into the string it reads gives nothing. */
static void set_msg(gdl_ctx *ctx, const char *fmt, va_list ap)
{
  char buf[sizeof ctx->errmsg];
  vsnprintf(buf, sizeof buf, fmt, ap);
  memcpy(ctx->errmsg, buf, sizeof buf);
}

void ctx_setmsg(gdl_ctx *ctx, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  set_msg(ctx, fmt, ap);
  va_end(ap);
}

_Noreturn void ctx_throw(gdl_ctx *ctx, gdl_status st, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  set_msg(ctx, fmt, ap);
  va_end(ap);
  ctx->thrown = st;
  if (!ctx->jmp)
    abort();   /* a library bug: every entry point is PROTECTed */
  longjmp(*ctx->jmp, 1);
}

double ctx_clock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The limits at time t (0: the clock is read if need be). */
static int limit_at(gdl_ctx *ctx, double t)
{
  if (ctx->fail_poll >= 0 && ctx->fail_poll-- == 0) {
    ctx_setmsg(ctx, "time limit reached (injected)");
    return 1;
  }
  /* read atomically: another thread may set it (gdl player's STOP) */
  if (ctx->interrupt && __atomic_load_n(ctx->interrupt, __ATOMIC_RELAXED)) {
    ctx_setmsg(ctx, "interrupted");
    return 1;
  }
  if (ctx->cancel && __atomic_load_n(ctx->cancel, __ATOMIC_RELAXED)) {
    ctx_setmsg(ctx, "cancelled");
    return 1;
  }
  if (ctx->deadline > 0 && (t > 0 ? t : ctx_clock()) > ctx->deadline) {
    ctx_setmsg(ctx, "time limit reached");
    return 1;
  }
  return 0;
}

int ctx_interrupted(const gdl_ctx *ctx)
{
  return (ctx->interrupt && __atomic_load_n(ctx->interrupt, __ATOMIC_RELAXED)) ||
         (ctx->cancel && __atomic_load_n(ctx->cancel, __ATOMIC_RELAXED));
}

int ctx_limit(gdl_ctx *ctx)
{
  return limit_at(ctx, 0);
}

void ctx_poll(gdl_ctx *ctx)
{
  if (limit_at(ctx, 0))
    ctx_throw(ctx, GDL_ELIMIT, "%s", ctx->errmsg);
}

/* POLL's look at the limits, at the end of a run of steps.  The next run
 * is sized so that looks come about every POLL_SECONDS: doubled while a
 * run takes under a quarter of that, scaled down at once when one takes
 * over twice as long (the steps grew costly: a join that makes new terms
 * in a table of millions, a larger network).  At most POLL_MAX steps, as
 * many as POLL counted before it was sized (so no more clock reads, 25 to
 * 250 ns each, than then), so that a run sized on cheap steps is not
 * long on costly ones either.  A loop whose steps differ much counts
 * them by their work (POLL_N). */
#define POLL_SECONDS 0.001
#define POLL_MAX 1024
void ctx_poll_tick(gdl_ctx *ctx)
{
  double t = ctx_clock(), dt = t - ctx->poll_t;
  int32_t run = ctx->poll_run;
  if (ctx->poll_t == 0 || run <= 0)
    run = POLL_MAX / 4;
  else if (dt < POLL_SECONDS / 4 && run < POLL_MAX)
    run *= 2;
  else if (dt > POLL_SECONDS * 2)
    run = (int32_t)(run * (POLL_SECONDS / dt)) + 1;
  if (ctx->fail_poll >= 0)     /* a test: a look at every step */
    run = 1;
  ctx->poll_run = run;
  ctx->poll_left = run;
  ctx->poll_t = t;
  if (limit_at(ctx, t))
    ctx_throw(ctx, GDL_ELIMIT, "%s", ctx->errmsg);
}

/* ---- public: memory, limits, the last message ------------------------ */

void gdl_free(gdl_ctx *ctx)
{
  block_t *b, *nx;
  uint32_t i;
  if (!ctx)
    return;
  for (i = 0; i < ctx->nsubs; i++)
    gdl_free(ctx->subs[i]);
  for (b = ctx->blocks; b; b = nx) {
    nx = b->next;
    free(b);
  }
  free(ctx);
}

void gdl_set_memory_limit(gdl_ctx *ctx, size_t bytes) { ctx->limit = bytes; }
size_t gdl_memory_used(const gdl_ctx *ctx) { return ctx->used; }
size_t gdl_memory_peak(const gdl_ctx *ctx) { return ctx->peak; }
void gdl_set_interrupt(gdl_ctx *ctx, volatile int *flag)
{
  ctx->interrupt = flag;
}

void gdl_set_time_limit(gdl_ctx *ctx, double seconds)
{
  ctx->deadline = seconds > 0 ? ctx_clock() + seconds : 0;
}

void gdl_set_fact_limit(gdl_ctx *ctx, size_t facts)
{
  ctx->fact_limit = facts ? facts : 20000000;
}

/* Tests only (declared in tests): fail the n-th allocation from now. */
void gdl_test_fail_alloc(gdl_ctx *ctx, long n);
void gdl_test_fail_alloc(gdl_ctx *ctx, long n) { ctx->fail_after = n; }
/* Tests only: the n-th look at the limits from now finds one, as if the
 * time were up (-1: off), so a test can stop work at every place it
 * looks. */
void gdl_test_fail_poll(gdl_ctx *ctx, long n);
void gdl_test_fail_poll(gdl_ctx *ctx, long n) { ctx->fail_poll = n; }

const char *gdl_errmsg(const gdl_ctx *ctx) { return ctx->errmsg; }
size_t gdl_error_count(const gdl_ctx *ctx) { return ctx->nerrors; }
size_t gdl_warning_count(const gdl_ctx *ctx) { return ctx->nwarnings; }

/* ---- text ------------------------------------------------------------- */

void gdl_json_escape(const char *s, size_t n,
                     void (*put)(void *arg, const char *p, size_t len),
                     void *arg)
{
  size_t i, from = 0;
  char esc[8];
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c != '"' && c != '\\' && c >= 32)
      continue;
    if (i > from)
      put(arg, s + from, i - from);
    if (c < 32)
      snprintf(esc, sizeof esc, "\\u%04x", c);
    else
      esc[0] = '\\', esc[1] = (char)c, esc[2] = 0;
    put(arg, esc, strlen(esc));
    from = i + 1;
  }
  if (n > from)
    put(arg, s + from, n - from);
}

static void sb_need(gdl_ctx *ctx, strbuf_t *b, size_t more)
{
  if ((uint64_t)b->n + more + 1 > UINT32_MAX)   /* n and cap are 32-bit */
    ctx_throw(ctx, GDL_ELIMIT, "a text grew past 4 GB");
  if (b->n + more + 1 > b->cap)
    GROW(ctx, b->s, b->cap, (uint32_t)(b->n + more + 1));
}

void sb_putc(gdl_ctx *ctx, strbuf_t *b, char c)
{
  sb_need(ctx, b, 1);
  b->s[b->n++] = c;
  b->s[b->n] = 0;
}

void sb_puts(gdl_ctx *ctx, strbuf_t *b, const char *s, size_t n)
{
  sb_need(ctx, b, n);
  memcpy(b->s + b->n, s, n);
  b->n += (uint32_t)n;
  b->s[b->n] = 0;
}

/* Formats into the room the buffer has; only when the text does not fit
 * is it made again after growing the buffer (vsnprintf is the costly part
 * of a diagnostic's header line). */
void sb_printf(gdl_ctx *ctx, strbuf_t *b, const char *fmt, ...)
{
  va_list ap;
  int n;
  size_t room;
  sb_need(ctx, b, 127);               /* room for most lines at once */
  room = (size_t)(b->cap - b->n);
  va_start(ap, fmt);
  n = vsnprintf(b->s + b->n, room, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->s[b->n] = 0;
    return;
  }
  if ((size_t)n >= room) {
    sb_need(ctx, b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  b->n += (uint32_t)n;
}
