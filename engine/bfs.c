/*
 * bfs.c - breadth-first search over states as bits, a level at a time,
 * on every core.
 *
 * The store.  A state is its fluent bits packed to the bit, one after
 * the other in chunks of 1024 states; its id is its place.  The
 * duplicate table holds ids: a 32-bit entry is id + 1 in the bits of
 * the table's mask and the state's hash above them, so a probe unpacks a
 * state only when those bits match; the table is kept at most 4/5 full.
 * No parent, move or depth is stored, only the first id of each level: a
 * plan is read back by expanding the level before the state's until one
 * of its states makes it (the first in id order, the parent a pointer
 * would have named), then the level before that one's, and so on.
 *
 * A level, in phases (the workers start again for each, so that between
 * them only the caller runs: it grows the table and the pool, checks the
 * limits and reports):
 *   1. expand: batches of 64 states claimed in turn, each evaluated at
 *      once by ground_batch.c; the children not stored before the level
 *      are kept in the worker's buffer, a batch's together, by parent and
 *      joint move (so the table need only have room for those).  So the
 *      batches in order give the children in the order a search of one
 *      state at a time makes them: a child's place in it is its `ref`.
 *   2. dedup: each child is entered in the table by compare-and-swap, as
 *      ref + nstates + 1 while the level is stored; where a child meets
 *      itself the smaller ref stays (swapped in), the other is a
 *      duplicate.  What stays is each new state's first making.
 *   3. number: the new states take ids in ref order (counts per batch,
 *      then sums), are written to the pool and their entries become
 *      ids.
 * So ids, counts and plans are those of one worker, whatever the number
 * of threads.  A level with a state of goal 100 is the last: the children
 * of the states before the first such are stored, as one state at a time
 * would store them, and no others.  Workers never jump out: a limit they
 * meet (time, interrupt, memory) stops every worker at its next batch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#if GDL_THREADS
#include <pthread.h>
#include <unistd.h>
#endif

#define NONE UINT32_MAX
#define CSHIFT 10                    /* a chunk: 1024 states */
#define CSTATES (1u << CSHIFT)
#define MAX_THREADS 64
#define MAXLOAD(cap) ((uint64_t)(cap) / 5 * 4)

typedef struct bfs bfs_t;

struct expd { uint32_t id, joints; };

typedef struct {
  bfs_t *F;
  unsigned t;                 /* 0: the caller */
  gbatch_t *B;
  uint32_t *in;               /* the lanes' states, words each */
  const uint32_t *lane[64];   /* ... each */
  uint32_t *out;              /* a batch's children, words each */
  uint64_t outcap;            /* ... in words */
  uint32_t *kid;              /* phase 1: children not stored before the
                                 level, words each, a batch's together */
  uint32_t *khash;            /* ... per child: its hash */
  uint64_t nkid, kidcap, khcap;
  struct expd *exp;           /* states expanded: id and joint moves */
  uint64_t nexp, expcap;
  uint64_t ngen;              /* ... their joint moves, for progress */
  long best;                  /* best goal of a terminal state ... */
  uint32_t best_id;           /* ... first at */
  uint32_t *tmp;              /* a state unpacked */
  uint32_t *hb;               /* a batch's children's hashes */
  uint64_t hbcap;
  uint32_t lo, hi;            /* rehash: its ids */
} worker_t;

struct seg {                  /* a batch's children */
  uint32_t t;                 /* in the buffer of worker t */
  uint32_t n;                 /* how many (of parents before the goal) */
  uint64_t off;               /* from child off there */
  uint64_t ref;               /* the first one's ref */
  uint32_t first;             /* phase 3: the first one's id */
};

struct bfs {
  gdl_ctx *ctx;
  const gdl_solve_opts *o;
  gdl_solve_result *res;
  uint32_t words, nbits, k;   /* 32-bit words, bits of a state; roles */
  uint32_t cwords;            /* 64-bit words of a chunk */
  uint64_t **chunk;
  uint32_t nchunk, chunkcap;
  uint32_t *table, mask;
  uint32_t *newtab;           /* rehash: the table being made */
  uint32_t nstates;           /* stored */
  uint32_t *level;            /* first id of each level; level[nlevel] =
                                 nstates between levels */
  uint32_t nlevel, levelcap;
  uint32_t lo, hi;            /* phase 1: the level */
  uint32_t next;              /* the next batch to claim (atomic) */
  uint32_t goal;              /* phase 1: least id with goal 100 (atomic) */
  struct seg *seg;            /* per batch of the level */
  uint32_t nseg, segcap;
  uint32_t *slot;             /* phases 2, 3: per ref, its table slot, or
                                 NONE: a duplicate (atomic) */
  uint64_t nref, slotcap;
  uint32_t idend;             /* phase 3: the ids the level's end at */
  uint32_t best_id;           /* the first state with goal res->goal */
  int stop;                   /* a worker met a limit (atomic) */
  char why[160];
  unsigned nthreads;
  int shared;                 /* several workers */
  worker_t *w;
  double t0, next_report;
#if GDL_THREADS
  pthread_mutex_t lock;       /* the context's allocator, why[] */
#endif
};

static void lock(bfs_t *F)
{
#if GDL_THREADS
  if (F->shared)
    pthread_mutex_lock(&F->lock);
#else
  (void)F;
#endif
}

static void unlock(bfs_t *F)
{
#if GDL_THREADS
  if (F->shared)
    pthread_mutex_unlock(&F->lock);
#else
  (void)F;
#endif
}

/* Stops every worker, for the first reason given. */
static void halt(bfs_t *F, const char *why)
{
  lock(F);
  if (!__atomic_load_n(&F->stop, __ATOMIC_RELAXED)) {
    snprintf(F->why, sizeof F->why, "%s", why);
    __atomic_store_n(&F->stop, 1, __ATOMIC_RELEASE);
  }
  unlock(F);
}

static int stopped(bfs_t *F)
{
  return __atomic_load_n(&F->stop, __ATOMIC_ACQUIRE);
}

/* Grows a worker's buffer *p of *cap elements of sz bytes to hold need;
 * 0 (and every worker stopped) when memory is out. */
static int wgrow(bfs_t *F, void **p, uint64_t *cap, uint64_t need, size_t sz)
{
  uint64_t c = *cap ? *cap : 256;
  void *q;
  if (need <= *cap)
    return 1;
  while (c < need)
    c *= 2;
  lock(F);
  q = ctx_try_realloc(F->ctx, *p, (size_t)(c * sz));
  unlock(F);
  if (!q) {
    char why[64];
    snprintf(why, sizeof why, "memory limit of %zu MB reached",
             F->ctx->limit >> 20);
    halt(F, why);
    return 0;
  }
  *p = q;
  *cap = c;
  return 1;
}

/* Runs fn on every worker, the others on threads of their own, when
 * there are `work` states to share; too few to pay for starting threads,
 * the caller does it all (fn takes its work in turn, or by the workers'
 * ranges, which the caller then covers alone: see workers_for). */
#define SHARED_WORK 2048

static unsigned workers_for(const bfs_t *F, uint64_t work)
{
  return work < SHARED_WORK ? 1 : F->nthreads;
}

static void run_workers(bfs_t *F, void *(*fn)(void *), uint64_t work)
{
  unsigned t, n = workers_for(F, work);
#if GDL_THREADS
  pthread_t th[MAX_THREADS];
  unsigned started = 1;
  for (t = 1; t < n; t++, started++)
    if (pthread_create(&th[t], NULL, fn, &F->w[t]) != 0)
      break;                   /* fewer threads: the caller does more */
  fn(&F->w[0]);
  for (t = 1; t < started; t++)
    pthread_join(th[t], NULL);
  for (t = started; t < n; t++)
    fn(&F->w[t]);
#else
  for (t = 0; t < n; t++)
    fn(&F->w[t]);
#endif
}

/* ---- the store -------------------------------------------------------- */

static inline uint64_t ld(const uint64_t *p)
{
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* State id's first word in its chunk; *sh: its first bit there. */
static inline const uint64_t *state_at(const bfs_t *F, uint32_t id,
                                       unsigned *sh)
{
  uint64_t bit = (uint64_t)(id & (CSTATES - 1)) * F->nbits;
  *sh = (unsigned)(bit & 63);
  return F->chunk[id >> CSHIFT] + (bit >> 6);
}

/* Bits [64 i, 64 i + 64) of the state that begins at bit sh of p (a chunk
 * has a word to spare past its last state's, so p[i + 1] may be read). */
static inline uint64_t bits64(const bfs_t *F, const uint64_t *p, unsigned sh,
                              uint32_t i)
{
  uint64_t x = ld(p + i) >> sh;
  if (sh)
    x |= ld(p + i + 1) << (64 - sh);
  if (F->nbits - 64 * i < 64)
    x &= ((uint64_t)1 << (F->nbits - 64 * i)) - 1;
  return x;
}

static inline void unpack(const bfs_t *F, uint32_t id, uint32_t *w)
{
  unsigned sh;
  const uint64_t *p = state_at(F, id, &sh);
  uint32_t i;
  for (i = 0; i < F->words / 2; i++) {
    uint64_t x = bits64(F, p, sh, i);
    w[2 * i] = (uint32_t)x;
    w[2 * i + 1] = (uint32_t)(x >> 32);
  }
}

/* Whether stored state id is w. */
static inline int is_state(const bfs_t *F, uint32_t id, const uint32_t *w)
{
  unsigned sh;
  const uint64_t *p = state_at(F, id, &sh);
  uint32_t i;
  for (i = 0; i < F->words / 2; i++)
    if (bits64(F, p, sh, i) != load64(w + 2 * i))
      return 0;
  return 1;
}

static inline void put(uint64_t *p, uint64_t x, int shared)
{
  if (shared)
    __atomic_fetch_or(p, x, __ATOMIC_RELAXED);
  else
    *p |= x;
}

/* Writes state w at id, whose bits are 0, for a writer of the ids in
 * [lo, hi): its first or last word, where it holds bits of a state
 * outside them, may be another thread's too, and is written atomically
 * (with several workers).  The bits of w past the state's are 0. */
static void pack(const bfs_t *F, uint32_t id, const uint32_t *w, uint32_t lo,
                 uint32_t hi)
{
  uint32_t nbits = F->nbits, base = id & ~(CSTATES - 1), i;
  uint64_t bit = (uint64_t)(id - base) * nbits, last = bit + nbits - 1;
  uint64_t *p = F->chunk[id >> CSHIFT] + (bit >> 6);
  uint64_t *end = F->chunk[id >> CSHIFT] + (last >> 6);
  unsigned sh = (unsigned)(bit & 63);
  int first = F->shared && base + (bit & ~(uint64_t)63) / nbits < lo;
  int lastw = F->shared && base + (last | 63) / nbits >= hi;
  for (i = 0; i < F->words / 2; i++) {
    uint64_t x = load64(w + 2 * i);
    put(p + i, x << sh, (first && i == 0) || (lastw && p + i == end));
    if (sh && p + i < end)
      put(p + i + 1, x >> (64 - sh), lastw && p + i + 1 == end);
  }
}

/* Whether state w (hash h) is stored. */
static int stored(const bfs_t *F, const uint32_t *w, uint32_t h)
{
  uint32_t j, e, m = F->mask;
  for (j = h & m; (e = __atomic_load_n(&F->table[j], __ATOMIC_ACQUIRE));
       j = (j + 1) & m)
    if ((e & ~m) == (h & ~m) && is_state(F, (e & m) - 1, w))
      return 1;
  return 0;
}

/* Enters ids [lo, hi) in the table being made, a block at a time: the
 * block's hashes first, each slot asked of memory while the others are
 * hashed. */
static void *rehash_part(void *arg)
{
  worker_t *W = arg;
  bfs_t *F = W->F;
  uint32_t i, j, m = F->mask, e, h[64], b, n;
  for (b = W->lo; b < W->hi; b += n) {
    n = W->hi - b < 64 ? W->hi - b : 64;
    for (i = 0; i < n; i++) {
      unpack(F, b + i, W->tmp);
      h[i] = words_hash(W->tmp, F->words);
      __builtin_prefetch(&F->newtab[h[i] & m], 1);
    }
    for (i = 0; i < n; i++)
      for (j = h[i] & m;; j = (j + 1) & m) {
        e = 0;
        if (!F->shared) {
          if (F->newtab[j] == 0) {
            F->newtab[j] = (h[i] & ~m) | (b + i + 1);
            break;
          }
        } else if (__atomic_compare_exchange_n(&F->newtab[j], &e,
                                               (h[i] & ~m) | (b + i + 1), 0,
                                               __ATOMIC_RELAXED,
                                               __ATOMIC_RELAXED)) {
          break;
        }
      }
  }
  return NULL;
}

/* Chunks of the pool for `want` states (the caller only, between
 * phases). */
static void make_chunks(bfs_t *F, uint64_t want)
{
  gdl_ctx *ctx = F->ctx;
  while (F->nchunk < (want + CSTATES - 1) >> CSHIFT) {
    GROW(ctx, F->chunk, F->chunkcap, F->nchunk);
    F->chunk[F->nchunk++] = ctx_alloc(ctx, F->cwords * sizeof **F->chunk);
  }
}

/* Room in the table for `want` states, at most 4/5 full (the caller only,
 * between phases). */
static void make_room(bfs_t *F, uint64_t want)
{
  gdl_ctx *ctx = F->ctx;
  uint32_t t, cap = F->mask + 1, n;
  if (want > 0xfff00000u)
    ctx_throw(ctx, GDL_ELIMIT, "more than 2^32 states");
  if (F->table && want <= MAXLOAD(cap))
    return;
  while (want > MAXLOAD(cap))
    if ((cap *= 2) == 0)
      ctx_throw(ctx, GDL_ELIMIT, "more than 2^31 states");
  F->newtab = ctx_alloc(ctx, (size_t)cap * sizeof *F->table);
  ctx_free(ctx, F->table);
  F->table = NULL;
  F->mask = cap - 1;
  n = workers_for(F, F->nstates);
  for (t = 0; t < n; t++) {
    F->w[t].lo = (uint32_t)((uint64_t)F->nstates * t / n);
    F->w[t].hi = (uint32_t)((uint64_t)F->nstates * (t + 1) / n);
  }
  run_workers(F, rehash_part, F->nstates);
  F->table = F->newtab;
  F->newtab = NULL;
}

static double store_bytes(const bfs_t *F)
{
  return (double)((size_t)F->nchunk * F->cwords * 8 +
                  (size_t)(F->mask + 1) * sizeof *F->table +
                  (size_t)F->chunkcap * sizeof *F->chunk +
                  (size_t)F->levelcap * sizeof *F->level);
}

/* ---- phase 1: a level expanded ---------------------------------------- */

/* The lanes' states ids [b, b + n) evaluated in W's batch; with `test`,
 * the terminal ones tested.  Returns the lanes to expand (not terminal,
 * with a joint move, and before a state of goal 100), their joint moves
 * in j[]. */
static uint64_t take_up(worker_t *W, uint32_t b, uint32_t n, uint64_t *j,
                        int test)
{
  bfs_t *F = W->F;
  uint64_t term, lanes = 0;
  uint32_t l;
  for (l = 0; l < n; l++)
    unpack(F, b + l, (uint32_t *)W->lane[l]);
  gbatch_states(W->B, W->lane, n);
  term = gbatch_terminal(W->B);
  for (l = 0; l < n; l++) {
    if (term >> l & 1) {
      long g = test ? gbatch_goal(W->B, l) : -1;
      if (g > W->best) {
        W->best = g;
        W->best_id = b + l;
      }
      if (g == 100) {          /* the least id: later lanes are not needed */
        uint32_t old = __atomic_load_n(&F->goal, __ATOMIC_RELAXED);
        while (b + l < old &&
               !__atomic_compare_exchange_n(&F->goal, &old, b + l, 1,
                                            __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
          ;
        break;
      }
      continue;
    }
    if ((j[l] = gbatch_joints(W->B, l)) != 0)
      lanes |= (uint64_t)1 << l;
  }
  return lanes;
}

/* The children of the lanes, each lane's in the order of its joint
 * moves, to W->out: lane l's from off[l]. */
static int make_children(worker_t *W, uint64_t lanes, const uint64_t *j,
                         uint64_t *off)
{
  bfs_t *F = W->F;
  uint64_t total = gbatch_layout(lanes, j, off);
  if (!wgrow(F, (void **)&W->out, &W->outcap, total * F->words + 1,
             sizeof *W->out))
    return 0;
  gbatch_expand(W->B, lanes, off, W->out);
  return 1;
}

/* Keeps child s (hash h) for phase 2. */
static int keep(worker_t *W, const uint32_t *s, uint32_t h)
{
  bfs_t *F = W->F;
  if ((W->nkid + 1) * F->words > W->kidcap &&
      !wgrow(F, (void **)&W->kid, &W->kidcap, (W->nkid + 1) * F->words,
             sizeof *W->kid))
    return 0;
  if (W->nkid + 1 > W->khcap &&
      !wgrow(F, (void **)&W->khash, &W->khcap, W->nkid + 1,
             sizeof *W->khash))
    return 0;
  memcpy(W->kid + W->nkid * F->words, s, F->words * sizeof *s);
  W->khash[W->nkid++] = h;
  return 1;
}

static void report(bfs_t *F, int force);

/* Checks the clock and the interrupt. */
static void check_limits(bfs_t *F)
{
  gdl_ctx *ctx = F->ctx;
  if (ctx->interrupt && *ctx->interrupt) {
    halt(F, "interrupted");
  } else if (ctx->deadline > 0 && ctx_clock() > ctx->deadline) {
    char why[64];
    snprintf(why, sizeof why, "time limit of %g s reached",
             F->o->max_seconds);
    halt(F, why);
  }
}

static void *expand(void *arg)
{
  worker_t *W = arg;
  bfs_t *F = W->F;
  uint64_t j[64], off[64], x, c, total;
  for (;;) {
    uint32_t b = __atomic_fetch_add(&F->next, 64, __ATOMIC_RELAXED), n;
    struct seg *sg;
    uint64_t lanes;
    if (b >= F->hi || stopped(F))
      break;
    sg = &F->seg[(b - F->lo) / 64];
    sg->t = W->t;
    sg->off = W->nkid;
    if (b > __atomic_load_n(&F->goal, __ATOMIC_RELAXED))
      continue;                /* past a state of goal 100: none kept */
    n = F->hi - b < 64 ? F->hi - b : 64;
    lanes = take_up(W, b, n, j, 1);
    if (!make_children(W, lanes, j, off) ||
        !wgrow(F, (void **)&W->exp, &W->expcap,
               W->nexp + (uint64_t)__builtin_popcountll(lanes),
               sizeof *W->exp))
      break;
    for (x = lanes, total = 0; x; x &= x - 1) {
      uint32_t l = (uint32_t)__builtin_ctzll(x);
      W->exp[W->nexp].id = b + l;
      W->exp[W->nexp++].joints =
          j[l] > UINT32_MAX ? UINT32_MAX : (uint32_t)j[l];
      total += j[l];
    }
    W->ngen += total;
    /* the children, lane after lane: their hashes first, each table slot
     * asked of memory while the others are hashed */
    if (!wgrow(F, (void **)&W->hb, &W->hbcap, total, sizeof *W->hb))
      break;
    for (c = 0; c < total; c++) {
      W->hb[c] = words_hash(W->out + c * F->words, F->words);
      __builtin_prefetch(&F->table[W->hb[c] & F->mask]);
    }
    for (c = 0; c < total; c++) {
      const uint32_t *s = W->out + c * F->words;
      if (!stored(F, s, W->hb[c]) && !keep(W, s, W->hb[c]))
        return NULL;
    }
    sg->n = (uint32_t)(W->nkid - sg->off);
    check_limits(F);
    if (W->t == 0)
      report(F, 0);
  }
  return NULL;
}

/* ---- phases 2 and 3: a level's new states stored ---------------------- */

/* The bits of the child with this ref. */
static const uint32_t *kid_bits(const bfs_t *F, uint64_t ref)
{
  uint32_t a = 0, b = F->nseg;
  while (b - a > 1) {          /* the last batch whose first ref <= ref */
    uint32_t m = (a + b) / 2;
    if (F->seg[m].ref <= ref)
      a = m;
    else
      b = m;
  }
  return F->w[F->seg[a].t].kid +
         (F->seg[a].off + (ref - F->seg[a].ref)) * F->words;
}

/* Phase 2 for one child: enters it in the table unless it is there, the
 * smaller ref of two makings of one state winning. */
static void dedup(bfs_t *F, const uint32_t *w, uint32_t h,
                  uint64_t ref)
{
  uint32_t m = F->mask, j = h & m, e, v, mine = (h & ~m) |
      (uint32_t)(F->nstates + ref + 1);
  __atomic_store_n(&F->slot[ref], NONE, __ATOMIC_RELAXED);
  for (;;) {
    e = __atomic_load_n(&F->table[j], __ATOMIC_ACQUIRE);
    if (e == 0) {
      __atomic_store_n(&F->slot[ref], j, __ATOMIC_RELAXED);
      if (__atomic_compare_exchange_n(&F->table[j], &e, mine, 0,
                                      __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
        return;
      __atomic_store_n(&F->slot[ref], NONE, __ATOMIC_RELAXED);
    }
    if ((e & ~m) == (h & ~m)) {
      v = (e & m) - 1;
      if (v < F->nstates ? is_state(F, v, w)
                         : same_words(kid_bits(F, v - F->nstates), w, F->words)) {
        if (v < F->nstates || v - F->nstates < ref)
          return;              /* stored, or made first elsewhere */
        __atomic_store_n(&F->slot[ref], j, __ATOMIC_RELAXED);
        if (__atomic_compare_exchange_n(&F->table[j], &e, mine, 0,
                                        __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
          __atomic_store_n(&F->slot[v - F->nstates], NONE, __ATOMIC_RELAXED);
          return;
        }
        __atomic_store_n(&F->slot[ref], NONE, __ATOMIC_RELAXED);
        continue;              /* changed meanwhile: look again */
      }
    }
    j = (j + 1) & m;
  }
}

static void *dedup_part(void *arg)
{
  worker_t *W = arg;
  bfs_t *F = W->F;
  uint32_t bi, i;
  while ((bi = __atomic_fetch_add(&F->next, 1, __ATOMIC_RELAXED)) < F->nseg) {
    const struct seg *sg = &F->seg[bi];
    const worker_t *K = &F->w[sg->t];
    for (i = 0; i < sg->n; i++)
      __builtin_prefetch(&F->table[K->khash[sg->off + i] & F->mask]);
    for (i = 0; i < sg->n; i++)
      dedup(F, K->kid + (sg->off + i) * F->words, K->khash[sg->off + i],
            sg->ref + i);
    if ((bi & 63) == 0 && stopped(F))
      break;
  }
  return NULL;
}

/* Phase 3, a worker's batches: per batch, its new states counted (pass
 * 0), or given their ids, written and entered (pass 1). */
static void number(worker_t *W, int pass)
{
  bfs_t *F = W->F;
  uint32_t bi, i, m = F->mask;
  while ((bi = __atomic_fetch_add(&F->next, 1, __ATOMIC_RELAXED)) < F->nseg) {
    struct seg *sg = &F->seg[bi];
    const worker_t *K = &F->w[sg->t];
    uint32_t id = sg->first, n = 0;
    uint32_t end = bi + 1 < F->nseg ? F->seg[bi + 1].first : F->idend;
    for (i = 0; i < sg->n; i++) {
      uint32_t j = F->slot[sg->ref + i];
      if (j == NONE)
        continue;
      if (pass == 0) {
        n++;
        continue;
      }
      if (id >= F->res->stored)  /* past the state limit */
        break;
      pack(F, id, K->kid + (sg->off + i) * F->words, sg->first, end);
      __atomic_store_n(&F->table[j], (F->table[j] & ~m) | (id + 1),
                       __ATOMIC_RELAXED);
      id++;
    }
    if (pass == 0)
      sg->first = n;
  }
}

static void *count_part(void *arg)
{
  number(arg, 0);
  return NULL;
}

static void *number_part(void *arg)
{
  number(arg, 1);
  return NULL;
}

static void report(bfs_t *F, int force)
{
  const gdl_solve_opts *o = F->o;
  double t = ctx_clock();
  if (o->progress && (force || t >= F->next_report)) {
    gdl_progress p;
    /* the caller's own count of this level, not the other workers' */
    p.depth = F->nlevel ? F->nlevel - 1 : 0;
    p.expanded = F->res->expanded + F->w[0].nexp;
    p.generated = F->res->generated + F->w[0].ngen;
    p.seconds = t - F->t0;
    lock(F);                   /* workers may be allocating */
    p.memory = gdl_memory_used(F->ctx);
    unlock(F);
    p.algorithm = "bfs";
    o->progress(o->progress_arg, &p);
    F->next_report = t + 0.25;
  }
}

/* ---- the plan --------------------------------------------------------- */

/* The plan to state id, read back a level at a time (see above). */
static void plan_back(bfs_t *F, uint32_t id)
{
  gdl_ctx *ctx = F->ctx;
  gdl_solve_result *r = F->res;
  worker_t *W = &F->w[0];
  uint32_t d = 0, lv, *target = ctx_alloc(ctx, F->words * sizeof *target);
  uint64_t j[64], off[64], x, c;
  while (F->level[d + 1] <= id)
    d++;
  r->length = d;
  r->plan = ctx_arena(ctx, ((size_t)d * F->k + 1) * sizeof *r->plan);
  unpack(F, id, target);
  for (lv = d; lv > 0; lv--) {
    uint32_t b, hi = F->level[lv];
    int found = 0;
    for (b = F->level[lv - 1]; b < hi && !found; b += 64) {
      uint32_t n = hi - b < 64 ? hi - b : 64;
      uint64_t lanes = take_up(W, b, n, j, 0);
      if (!make_children(W, lanes, j, off))
        ctx_throw(ctx, GDL_ELIMIT, "%s", F->why);
      for (x = lanes; x && !found; x &= x - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(x);
        for (c = 0; c < j[l] && !found; c++)
          if (same_words(W->out + (off[l] + c) * F->words, target, F->words)) {
            gbatch_joint(W->B, l, c, r->plan + (size_t)(lv - 1) * F->k);
            unpack(F, b + l, target);
            found = 1;
          }
      }
    }
    if (!found)
      ctx_throw(ctx, GDL_ELIMIT, "internal error: no parent of a state at "
                "depth %u", lv);
  }
  ctx_free(ctx, target);
}

/* ---- the search ------------------------------------------------------- */

static void release(bfs_t *F)
{
  gdl_ctx *ctx = F->ctx;
  uint32_t i;
  for (i = 0; F->w && i < F->nthreads; i++) {
    worker_t *W = &F->w[i];
    gbatch_free(ctx, W->B);
    ctx_free(ctx, W->in);
    ctx_free(ctx, W->out);
    ctx_free(ctx, W->kid);
    ctx_free(ctx, W->khash);
    ctx_free(ctx, W->exp);
    ctx_free(ctx, W->tmp);
    ctx_free(ctx, W->hb);
  }
  for (i = 0; i < F->nchunk; i++)
    ctx_free(ctx, F->chunk[i]);
  ctx_free(ctx, F->chunk);
  ctx_free(ctx, F->table);
  ctx_free(ctx, F->newtab);
  ctx_free(ctx, F->level);
  ctx_free(ctx, F->seg);
  ctx_free(ctx, F->slot);
  ctx_free(ctx, F->w);
#if GDL_THREADS
  pthread_mutex_destroy(&F->lock);
#endif
}

unsigned bfs_threads(unsigned asked)
{
  long n = 1;
  if (asked)
    return asked > MAX_THREADS ? MAX_THREADS : asked;
#if GDL_THREADS && defined(_SC_NPROCESSORS_ONLN)
  n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
  return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

/* ---- a level by the caller alone --------------------------------------- */

/* The table slot where state s (hash h) goes, or NONE when it is stored
 * (the caller alone, between phases). */
static uint32_t free_slot(const bfs_t *F, const uint32_t *s, uint32_t h)
{
  uint32_t j, e, m = F->mask;
  for (j = h & m; (e = F->table[j]) != 0; j = (j + 1) & m)
    if ((e & ~m) == (h & ~m) && is_state(F, (e & m) - 1, s))
      return NONE;
  return j;
}

#define AHEAD 8                 /* children a probe asks for ahead */

/* Asks memory for the stored state that the first entry of hash h's
 * slot names, if its hash bits match: the state a probe compares first. */
static inline void prefetch_state(const bfs_t *F, uint32_t h)
{
  uint32_t m = F->mask, e = F->table[h & m];
  if (e && (e & ~m) == (h & ~m)) {
    unsigned sh;
    __builtin_prefetch(state_at(F, (e & m) - 1, &sh));
  }
}

/* A level expanded by the caller alone (one thread, or too few states to
 * share), each child stored as soon as it is made: in one pass, the ids
 * and counts the three phases give.  Returns the new states left out by
 * the state limit (0 or 1: it stops storing at the first). */
static uint32_t level_alone(bfs_t *F)
{
  gdl_solve_result *r = F->res;
  worker_t *W = &F->w[0];
  uint64_t j[64], off[64], x, c, total, lim = F->o->max_states;
  uint32_t b, *hb, full = 0;
  for (b = F->lo; b < F->hi && F->goal == NONE && !stopped(F); b += 64) {
    uint32_t n = F->hi - b < 64 ? F->hi - b : 64;
    uint64_t lanes = take_up(W, b, n, j, 1);
    if (!make_children(W, lanes, j, off))
      break;
    for (x = lanes, total = 0; x; x &= x - 1)
      total += j[__builtin_ctzll(x)];
    r->expanded += (uint64_t)__builtin_popcountll(lanes);
    r->generated += total;
    if (!full && wgrow(F, (void **)&W->hb, &W->hbcap, total, sizeof *hb)) {
      make_room(F, (uint64_t)F->nstates + total);
      make_chunks(F, (uint64_t)F->nstates + total);
      hb = W->hb;
      for (c = 0; c < total; c++) {
        hb[c] = words_hash(W->out + c * F->words, F->words);
        __builtin_prefetch(&F->table[hb[c] & F->mask]);
      }
      for (c = 0; c < total && c < AHEAD; c++)
        prefetch_state(F, hb[c]);
      for (c = 0; c < total && !full; c++) {
        const uint32_t *s = W->out + c * F->words;
        uint32_t slot;
        if (AHEAD && c + AHEAD < total)
          prefetch_state(F, hb[c + AHEAD]);
        slot = free_slot(F, s, hb[c]);
        if (slot == NONE)
          continue;
        if (lim && F->nstates >= lim) {
          full = 1;            /* the rest of the level only counted */
          break;
        }
        F->table[slot] = (hb[c] & ~F->mask) | (F->nstates + 1);
        pack(F, F->nstates++, s, 0, NONE);
      }
    }
    check_limits(F);
    report(F, 0);
  }
  return full;
}

/* ---- a level ---------------------------------------------------------- */

/* A level expanded by the workers in the three phases above.  Returns the
 * new states left out by the state limit. */
static uint32_t level_phases(bfs_t *F)
{
  gdl_ctx *ctx = F->ctx;
  gdl_solve_result *r = F->res;
  uint64_t i, nref = 0;
  uint32_t t, bi, add = 0, was = F->nstates;
  F->nseg = (F->hi - F->lo + 63) / 64;
  GROW(ctx, F->seg, F->segcap, F->nseg);
  memset(F->seg, 0, F->nseg * sizeof *F->seg);
  F->next = F->lo;
  for (t = 0; t < F->nthreads; t++)
    F->w[t].nkid = F->w[t].nexp = F->w[t].ngen = 0;
  /* 1: expand */
  run_workers(F, expand, F->hi - F->lo);
  for (t = 0; t < F->nthreads; t++) {
    worker_t *W = &F->w[t];
    for (i = 0; i < W->nexp; i++)
      if (W->exp[i].id < F->goal) {
        r->expanded++;
        r->generated += W->exp[i].joints;
      }
    W->nexp = W->ngen = 0;
  }
  if (stopped(F))
    return 0;
  for (bi = 0; bi < F->nseg; bi++) {
    if (F->lo + (uint64_t)bi * 64 > F->goal)
      F->seg[bi].n = 0;        /* past the goal: as if never made */
    F->seg[bi].ref = nref;
    nref += F->seg[bi].n;
  }
  /* 2: dedup */
  make_room(F, (uint64_t)F->nstates + nref);
  if (nref + 1 > F->slotcap) {  /* kept from level to level: no zeroing
                                   needed, dedup sets each slot it reads */
    F->slotcap = nref + 1 > 2 * F->slotcap ? nref + 1 : 2 * F->slotcap;
    ctx_free(ctx, F->slot);
    F->slot = ctx_alloc(ctx, F->slotcap * sizeof *F->slot);
  }
  F->nref = nref;
  F->next = 0;
  run_workers(F, dedup_part, nref);
  if (stopped(F))
    return 0;
  /* 3: number */
  F->next = 0;
  run_workers(F, count_part, nref);
  for (bi = 0; bi < F->nseg; bi++) {
    uint32_t n = F->seg[bi].first;
    F->seg[bi].first = F->nstates + add;
    add += n;
  }
  F->idend = F->nstates + add;
  r->stored = (uint64_t)F->nstates + add;
  if (F->o->max_states && r->stored > F->o->max_states)
    r->stored = F->o->max_states;   /* the first ones, as one at a time */
  make_chunks(F, r->stored);
  F->next = 0;
  run_workers(F, number_part, nref);
  F->nstates = (uint32_t)r->stored;
  return was + add - F->nstates;
}

/* One level expanded and its children stored; 1 when the search ends. */
static int one_level(bfs_t *F)
{
  gdl_ctx *ctx = F->ctx;
  gdl_solve_result *r = F->res;
  uint32_t t, d = F->nlevel - 1, left;
  F->lo = F->level[d];
  F->hi = F->level[d + 1];
  if (F->lo == F->hi)
    return 1;                  /* nothing left: every state was seen */
  r->depth = d ? d - 1 : 0;    /* every state of a smaller depth tested */
  F->goal = NONE;
  left = workers_for(F, F->hi - F->lo) == 1 ? level_alone(F)
                                             : level_phases(F);
  for (t = 0; t < F->nthreads; t++) {
    worker_t *W = &F->w[t];
    if (W->best > r->goal || (W->best == r->goal && W->best_id < F->best_id)) {
      r->goal = W->best;
      F->best_id = W->best_id;
    }
  }
  if (stopped(F))
    ctx_throw(ctx, GDL_ELIMIT, "%s", F->why);
  r->stored = F->nstates;
  GROW(ctx, F->level, F->levelcap, F->nlevel + 1);
  F->level[++F->nlevel] = F->nstates;
  if (left)
    ctx_throw(ctx, GDL_ELIMIT, "state limit of %llu reached",
              (unsigned long long)F->o->max_states);
  check_limits(F);
  if (stopped(F))
    ctx_throw(ctx, GDL_ELIMIT, "%s", F->why);
  report(F, 0);
  return F->goal != NONE;
}

int bfs_levels(gdl_ctx *ctx, const gdl_solve_opts *o, gdl_solve_result *r,
               const uint32_t *start)
{
  bfs_t F0, *const F = &F0;
  jmp_buf jb, *old = ctx->jmp;
  uint32_t t, b;
  gbatch_t *B = gbatch_new(ctx);
  if (!B)
    return 0;
  memset(F, 0, sizeof *F);
  F->ctx = ctx;
  F->o = o;
  F->res = r;
  F->k = (uint32_t)ctx->nroles;
  F->words = ground_state_words(ctx);
  F->nbits = ground_state_slots(ctx);   /* the words' bits past them: 0 */
  F->cwords = (uint32_t)(((uint64_t)CSTATES * F->nbits + 63) / 64 + 1);
  F->t0 = ctx_clock();
  F->best_id = NONE;
  F->nthreads = bfs_threads(o->threads);
  F->shared = F->nthreads > 1;
#if GDL_THREADS
  pthread_mutex_init(&F->lock, NULL);
#endif
  r->threads = F->nthreads;
  r->goal = -1;
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    if (F->nstates)
      r->bytes_per_state = store_bytes(F) / F->nstates;
    if (!F->w)
      gbatch_free(ctx, B);
    release(F);
    ctx_throw(ctx, ctx->thrown, "%s", ctx->errmsg);
  }
  F->w = ctx_alloc(ctx, F->nthreads * sizeof *F->w);
  for (t = 0; t < F->nthreads; t++) {
    worker_t *W = &F->w[t];
    W->F = F;
    W->t = t;
    W->B = t ? gbatch_new(ctx) : B;
    W->in = ctx_alloc(ctx, (size_t)64 * F->words * sizeof *W->in);
    for (b = 0; b < 64; b++)
      W->lane[b] = W->in + (size_t)b * F->words;
    W->tmp = ctx_alloc(ctx, F->words * sizeof *W->tmp);
    W->best = -1;
    W->best_id = NONE;
  }
  GROW(ctx, F->level, F->levelcap, 2);
  make_chunks(F, 1);
  make_room(F, 1);
  pack(F, 0, start, 0, 1);
  {
    uint32_t h = words_hash(start, F->words);
    F->table[h & F->mask] = (h & ~F->mask) | 1;
  }
  F->nstates = 1;
  F->level[0] = 0;
  F->level[1] = 1;
  F->nlevel = 1;
  r->stored = 1;
  while (!one_level(F))
    ;
  if (F->goal != NONE) {
    r->status = GDL_SOLVED;
    r->goal = 100;
    plan_back(F, F->goal);
    r->depth = (unsigned)r->length;
  } else {
    r->status = GDL_UNSOLVABLE;
    r->depth = F->nlevel >= 2 ? F->nlevel - 2 : 0;
    if (r->goal >= 0)
      plan_back(F, F->best_id);
  }
  r->bytes_per_state = store_bytes(F) / F->nstates;
  ctx->jmp = old;
  release(F);
  return 1;
}
