/*
 * bfs.c - breadth-first search over states as bits, a level at a time,
 * on every core.  A state is its fluent bits packed in a pool, its id its
 * place; a table of ids (hash bits above the id, at most 4/5 full) finds
 * duplicates; no parent is stored (levels.c reads a plan back by
 * expanding the level before).  Any thread expands a level's batches of
 * 64; the caller alone commits them, in batch order.
 *
 * Invariant: ids, counts, the first goal and the plan are those of one
 * thread, whatever the number of threads.  Other threads read only
 * states no one writes any more, and the pool's chunk list is replaced,
 * never changed in place, while they run.  doc/scaling.md ("How") has
 * the whole argument.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/search.h"

#if GDL_THREADS
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

#define NONE UINT32_MAX
#define CSHIFT 10                    /* a chunk: 1024 states */
#define CSTATES (1u << CSHIFT)
#define MAX_THREADS 64
#define MAXLOAD(cap) ((uint64_t)(cap) / 5 * 4)

typedef struct bfs bfs_t;

typedef struct {
  bfs_t *F;
  unsigned t;                 /* 0: the caller */
  level_batch_t L;            /* its batch: the lanes' states in `in` */
  uint32_t *in;               /* the lanes' states, words each */
  uint32_t *out;              /* find_parent: a batch's children */
  uint64_t outcap;            /* ... in words */
  long best;                  /* best goal of a terminal state ... */
  uint32_t best_id;           /* ... first at */
  uint32_t *tmp;              /* a state unpacked */
} worker_t;

struct slot {                 /* a batch expanded, until its commit */
  uint32_t b, n;              /* its states: ids [b, b + n) */
  uint64_t lanes;             /* those expanded */
  uint64_t total;             /* their children ... */
  uint32_t *out;              /* ... words each */
  uint64_t outcap;            /* ... in words */
  uint32_t *hb;               /* ... their hashes */
  uint64_t hbcap;
  int helper;                 /* expanded by a helper, not the caller */
  int ready;                  /* expanded (atomic) */
};

#define RING 8                /* batches a thread may expand ahead */
#define MAX_OLD 48            /* chunk lists replaced in a level */

struct bfs {
  gdl_ctx *ctx;
  const gdl_solve_opts *o;
  gdl_solve_result *res;
  uint32_t words, nbits, k;   /* 32-bit words, bits of a state; roles */
  level_setup_t S;            /* the batches': words, step counter, growth */
  uint32_t lastbits;          /* bits in a state's last 64 (1 to 64) */
  uint32_t cwords;            /* 64-bit words of a chunk */
  uint64_t **chunk;           /* the chunk list (atomic pointer) */
  uint32_t nchunk, chunkcap;
  uint64_t **old[MAX_OLD];    /* chunk lists replaced while threads read */
  uint32_t nold;
  uint32_t *table, mask;
  int rehashing;              /* a rehash wants help (atomic) */
  int rin;                    /* ... helpers looking at it (atomic) */
  uint32_t *rtab, rend;       /* ... into this table, of ids [0, rend) */
  uint32_t rblocks, rnext, rdone;  /* ... blocks: all, claimed, done */
  uint32_t nstates;           /* stored */
  uint32_t *level;            /* first id of each level; level[nlevel] =
                                 nstates between levels */
  uint32_t nlevel, levelcap;
  uint32_t lo, hi;            /* the level */
  uint32_t next;              /* the next batch to claim (atomic) */
  uint32_t goal;              /* least id with goal 100 (atomic) */
  uint32_t done;              /* batches committed (atomic) */
  int over;                   /* the commit is over (atomic) */
  struct slot *ring;
  uint32_t nring;
  uint32_t best_id;           /* the first state with goal res->goal */
  int stop;                   /* a thread met a limit (atomic) */
  char why[160];
  unsigned nthreads;
  int shared;                 /* several threads */
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

/* Stops every thread, for the first reason given. */
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

static void out_of_memory(bfs_t *F)
{
  char why[64];
  snprintf(why, sizeof why, "memory limit of %zu MB reached",
           F->ctx->limit >> 20);
  halt(F, why);
}

/* n bytes (zeroed where p is NULL) as ctx_try_realloc gives them; NULL,
 * and every thread stopped, when memory is out. */
static void *try_realloc(bfs_t *F, void *p, size_t n)
{
  void *q;
  lock(F);
  q = ctx_try_realloc(F->ctx, p, n);
  unlock(F);
  if (!q)
    out_of_memory(F);
  return q;
}

/* Grows a buffer *p of *cap elements of sz bytes to hold need; 0 (and
 * every thread stopped) when memory is out. */
static int wgrow(void *arg, void **p, uint64_t *cap, uint64_t need,
                 size_t sz)
{
  bfs_t *F = arg;
  int ok;
  if (need <= *cap)
    return 1;
  lock(F);
  ok = ctx_try_grow(F->ctx, p, cap, need, sz, 256);
  unlock(F);
  if (!ok)
    out_of_memory(F);
  return ok;
}

/* Threads of their own beside the caller's for a level of this many
 * states: none where there are too few to pay for starting them. */
#define SHARED_WORK 2048

static unsigned helpers_for(const bfs_t *F, uint64_t states)
{
  return states < SHARED_WORK ? 0 : F->nthreads - 1;
}

static void pause_briefly(void)
{
#if GDL_THREADS
  sched_yield();
#endif
}

/* ---- the store -------------------------------------------------------- */

static inline uint64_t load_word(const uint64_t *p)
{
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline uint64_t **chunks(const bfs_t *F)
{
  return __atomic_load_n(&F->chunk, __ATOMIC_ACQUIRE);
}

/* State id's first word in its chunk; *sh: its first bit there. */
static inline const uint64_t *state_at(const bfs_t *F, uint32_t id,
                                       unsigned *sh)
{
  uint64_t bit = (uint64_t)(id & (CSTATES - 1)) * F->nbits;
  *sh = (unsigned)(bit & 63);
  return chunks(F)[id >> CSHIFT] + (bit >> 6);
}

/* The nb bits (1 to 64) at bit sh of p; a word past them is not read
 * (it may be another thread's). */
static inline uint64_t bits_at(const uint64_t *p, unsigned sh, unsigned nb)
{
  uint64_t x = load_word(p) >> sh;
  if (sh + nb > 64)
    x |= load_word(p + 1) << (64 - sh);
  return nb < 64 ? x & (((uint64_t)1 << nb) - 1) : x;
}

static inline void unpack(const bfs_t *F, uint32_t id, uint32_t *w)
{
  unsigned sh;
  const uint64_t *p = state_at(F, id, &sh);
  uint32_t i, last = F->words / 2 - 1;
  uint64_t x;
  for (i = 0; i < last; i++) {
    x = bits_at(p + i, sh, 64);
    memcpy(w + 2 * i, &x, sizeof x);
  }
  x = bits_at(p + last, sh, F->lastbits);
  memcpy(w + 2 * last, &x, sizeof x);
}

/* Whether stored state id is w. */
static inline int is_state(const bfs_t *F, uint32_t id, const uint32_t *w)
{
  unsigned sh;
  const uint64_t *p = state_at(F, id, &sh);
  uint32_t i, last = F->words / 2 - 1;
  for (i = 0; i < last; i++)
    if (bits_at(p + i, sh, 64) != load64(w + 2 * i))
      return 0;
  return bits_at(p + last, sh, F->lastbits) == load64(w + 2 * last);
}

static inline void or_word(uint64_t *p, uint64_t x, int shared)
{
  if (shared)
    __atomic_fetch_or(p, x, __ATOMIC_RELAXED);
  else
    *p |= x;
}

/* Writes state w at id, whose bits are 0 (the bits of w past the state's
 * are 0 too).  Its first word, where it holds bits of a state before
 * the level's new ones (which other threads may be reading), is written
 * atomically. */
static void pack(const bfs_t *F, uint32_t id, const uint32_t *w)
{
  uint32_t nbits = F->nbits, base = id & ~(CSTATES - 1), i;
  uint64_t bit = (uint64_t)(id - base) * nbits, last = bit + nbits - 1;
  uint64_t *c = chunks(F)[id >> CSHIFT], *p = c + (bit >> 6);
  uint64_t *end = c + (last >> 6);
  unsigned sh = (unsigned)(bit & 63);
  int first = F->shared && base + (bit & ~(uint64_t)63) / nbits < F->hi;
  for (i = 0; i < F->words / 2; i++) {
    uint64_t x = load64(w + 2 * i);
    or_word(p + i, x << sh, first && i == 0);
    if (sh && p + i < end)
      or_word(p + i + 1, x >> (64 - sh), 0);
  }
}

/* A rehash: ids [0, end) entered in a new table, a block of them at a
 * time, by the caller and any thread waiting for a free slot. */
#define RBLOCK 1024

static void rehash_blocks(bfs_t *F, uint32_t *tmp)
{
  uint32_t *tab = F->rtab, m = F->mask, end = F->rend, bi, b, i, j, e;
  uint32_t h[64], k, n;
  while ((bi = __atomic_fetch_add(&F->rnext, 1, __ATOMIC_RELAXED)) <
         F->rblocks) {
    for (b = bi * RBLOCK; b < end && b < (bi + 1) * RBLOCK; b += n) {
      n = end - b < 64 ? end - b : 64;
      for (i = 0; i < n; i++) {  /* the hashes first, each slot asked of
                                    memory while the others are hashed */
        unpack(F, b + i, tmp);
        h[i] = words_hash(tmp, F->words);
        __builtin_prefetch(&tab[h[i] & m], 1);
      }
      for (i = 0; i < n; i++)
        for (j = h[i] & m, k = (h[i] & ~m) | (b + i + 1);; j = (j + 1) & m) {
          e = 0;
          if (!F->shared) {    /* no helper: plain writes */
            if (!tab[j]) {
              tab[j] = k;
              break;
            }
          } else if (__atomic_compare_exchange_n(&tab[j], &e, k, 0,
                                                 __ATOMIC_RELAXED,
                                                 __ATOMIC_RELAXED)) {
            break;
          }
        }
    }
    __atomic_fetch_add(&F->rdone, 1, __ATOMIC_RELEASE);
  }
}

/* Chunks of the pool for `want` states (the caller alone); 0 when memory
 * is out.  A full chunk list is replaced by a larger copy, the old one
 * kept until the level's threads are done with it. */
static int make_chunks(bfs_t *F, uint64_t want)
{
  while (F->nchunk < (want + CSTATES - 1) >> CSHIFT) {
    uint64_t *c;
    if (F->nchunk == F->chunkcap) {
      uint32_t cap = F->chunkcap ? 2 * F->chunkcap : 16;
      uint64_t **l = try_realloc(F, NULL, cap * sizeof *l);
      if (!l)
        return 0;
      COPY(l, F->chunk, F->nchunk * sizeof *l);
      if (F->chunk)
        F->old[F->nold++] = F->chunk;
      __atomic_store_n(&F->chunk, l, __ATOMIC_RELEASE);
      F->chunkcap = cap;
    }
    if (!(c = try_realloc(F, NULL, F->cwords * sizeof *c)))
      return 0;
    F->chunk[F->nchunk++] = c;
  }
  return 1;
}

/* The chunk lists replaced, once no thread reads them. */
static void free_old(bfs_t *F)
{
  while (F->nold > 0)
    ctx_free(F->ctx, F->old[--F->nold]);
}

/* Room in the table for `want` states, at most 4/5 full (the caller
 * alone); 0 when memory or the ids are out. */
static int make_room(bfs_t *F, uint64_t want)
{
  uint32_t cap = F->mask + 1, *tab;
  if (F->table && want <= MAXLOAD(cap))
    return 1;
  if (want > 0xfff00000u) {
    halt(F, "more than 2^32 states");
    return 0;
  }
  while (want > MAXLOAD(cap))
    cap *= 2;
  if (!(tab = try_realloc(F, NULL, (size_t)cap * sizeof *tab)))
    return 0;
  lock(F);
  ctx_free(F->ctx, F->table);
  unlock(F);
  __atomic_store_n(&F->mask, cap - 1, __ATOMIC_RELAXED);
  F->rtab = tab;
  F->rend = F->nstates;
  F->rblocks = (F->nstates + RBLOCK - 1) / RBLOCK;
  F->rnext = 0;
  __atomic_store_n(&F->rdone, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&F->rehashing, 1, __ATOMIC_RELEASE);
  rehash_blocks(F, F->w[0].tmp);
  while (__atomic_load_n(&F->rdone, __ATOMIC_ACQUIRE) < F->rblocks)
    pause_briefly();
  __atomic_store_n(&F->rehashing, 0, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&F->rin, __ATOMIC_SEQ_CST))
    pause_briefly();
  __atomic_store_n(&F->table, tab, __ATOMIC_RELAXED);
  return 1;
}

static double store_bytes(const bfs_t *F)
{
  return (double)((size_t)F->nchunk * F->cwords * 8 +
                  (size_t)(F->mask + 1) * sizeof *F->table +
                  (size_t)F->chunkcap * sizeof *F->chunk +
                  (size_t)F->levelcap * sizeof *F->level);
}

/* ---- a batch expanded ------------------------------------------------- */

/* The states ids [b, b + n), of level `depth`, unpacked into W's lanes
 * and taken up (level_take_up, to the first state of goal 100), the
 * terminal ones' goals noted: W's best and the level's least id of goal
 * 100.  Returns the lanes to expand, their joint moves in j[]. */
static uint64_t take_up_ids(worker_t *W, uint32_t b, uint32_t n, uint64_t *j,
                            int test, uint32_t depth)
{
  bfs_t *F = W->F;
  uint64_t lanes, term, x;
  uint32_t l;
  long goal[64];
  for (l = 0; l < n; l++)
    unpack(F, b + l, (uint32_t *)W->L.lane[l]);
  lanes = level_take_up(&F->S, &W->L, n, depth, 1, j, &term,
                        test ? goal : NULL);
  for (x = test ? term : 0; x; x &= x - 1) {
    long g;
    l = (uint32_t)__builtin_ctzll(x);
    if ((g = goal[l]) > W->best) {
      W->best = g;
      W->best_id = b + l;
    }
    if (g == 100) {            /* the least id */
      uint32_t old = __atomic_load_n(&F->goal, __ATOMIC_RELAXED);
      while (b + l < old &&
             !__atomic_compare_exchange_n(&F->goal, &old, b + l, 1,
                                          __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED))
        ;
    }
  }
  return lanes;
}

/* Batch b (its first id) expanded by W into its slot, and the slot
 * marked ready. */
static void expand_batch(worker_t *W, uint32_t b)
{
  bfs_t *F = W->F;
  struct slot *s = &F->ring[(b - F->lo) / 64 % F->nring];
  uint64_t j[64], off[64], c;
  uint32_t *tab, m;
  s->b = b;
  s->n = F->hi - b < 64 ? F->hi - b : 64;
  s->lanes = take_up_ids(W, b, s->n, j, 1, F->nlevel - 1);
  s->total = level_children(&F->S, &W->L, s->lanes, j, off, &s->out,
                            &s->outcap);
  if (s->total == UINT64_MAX ||
      !wgrow(F, (void **)&s->hb, &s->hbcap, s->total + 1, sizeof *s->hb))
    return;
  /* the children's table slots asked of memory for the commit (by a
   * helper, into the cache the cores share): only asked, never read,
   * since the table may be replaced meanwhile */
  tab = __atomic_load_n(&F->table, __ATOMIC_RELAXED);
  m = __atomic_load_n(&F->mask, __ATOMIC_RELAXED);
  for (c = 0; c < s->total; c++) {
    s->hb[c] = words_hash(s->out + c * F->words, F->words);
    __builtin_prefetch(&tab[s->hb[c] & m]);
  }
  s->helper = W->t != 0;
  __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
}

/* Claims the level's next batch for *b: 1, or 0 when its slot is not
 * free yet (the commit is RING batches a thread behind), or -1 when no
 * batch is left to claim (none left, none needed past a state of goal
 * 100, or the level is over). */
static int claim(bfs_t *F, uint32_t *b)
{
  uint32_t cur = __atomic_load_n(&F->next, __ATOMIC_RELAXED);
  for (;;) {
    if (cur >= F->hi || cur > __atomic_load_n(&F->goal, __ATOMIC_RELAXED) ||
        __atomic_load_n(&F->over, __ATOMIC_ACQUIRE) || stopped(F))
      return -1;
    if ((cur - F->lo) / 64 >= __atomic_load_n(&F->done, __ATOMIC_ACQUIRE) +
                                   F->nring)
      return 0;
    if (__atomic_compare_exchange_n(&F->next, &cur, cur + 64, 1,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      *b = cur;
      return 1;
    }
  }
}

#if GDL_THREADS
/* Helps the rehash under way, if one is; whether there was one.  A
 * helper counts itself in (rin) before it looks again, and the caller
 * that ends a rehash waits for rin to be 0: no helper then reads the
 * rehash's fields while the next one's are set. */
static int help_rehash(worker_t *W)
{
  bfs_t *F = W->F;
  int on = 0;
  if (!__atomic_load_n(&F->rehashing, __ATOMIC_ACQUIRE))
    return 0;
  __atomic_fetch_add(&F->rin, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&F->rehashing, __ATOMIC_SEQ_CST)) {
    rehash_blocks(F, W->tmp);
    on = 1;
  }
  __atomic_fetch_sub(&F->rin, 1, __ATOMIC_RELEASE);
  return on;
}

/* A thread beside the caller: expands batches while there are any. */
static void *helper(void *arg)
{
  worker_t *W = arg;
  uint32_t b;
  int c;
  while ((c = claim(W->F, &b)) >= 0)
    if (c)
      expand_batch(W, b);
    else if (!help_rehash(W))
      pause_briefly();
  return NULL;
}
#endif

/* ---- a batch committed ------------------------------------------------ */

#define AHEAD 8                 /* children a probe asks for ahead */

/* Asks memory for the stored state that the first entry of hash h's
 * slot names, if its hash bits match: the state a probe compares first. */
static inline void prefetch_match(const bfs_t *F, uint32_t h)
{
  uint32_t m = F->mask, e = F->table[h & m];
  if (e && (e & ~m) == (h & ~m)) {
    unsigned sh;
    __builtin_prefetch(state_at(F, (e & m) - 1, &sh));
  }
}

/* The table slot where state s (hash h) goes, or NONE when it is
 * stored. */
static uint32_t free_slot(const bfs_t *F, const uint32_t *s, uint32_t h)
{
  uint32_t j, e, m = F->mask;
  for (j = h & m; (e = F->table[j]) != 0; j = (j + 1) & m)
    if ((e & ~m) == (h & ~m) && is_state(F, (e & m) - 1, s))
      return NONE;
  return j;
}

/* Slot s's children stored, each new one with the next id, the first
 * new state past the state limit setting *full (the rest of the level
 * is only counted). */
static void commit(bfs_t *F, const struct slot *s, int *full)
{
  uint64_t c, lim = F->o->max_states;
  F->res->expanded += (uint64_t)__builtin_popcountll(s->lanes);
  F->res->generated += s->total;
  if (*full || !s->total || !make_room(F, (uint64_t)F->nstates + s->total) ||
      !make_chunks(F, (uint64_t)F->nstates + s->total))
    return;
  for (c = 0; s->helper && c < s->total; c++)
    __builtin_prefetch(&F->table[s->hb[c] & F->mask]);
  for (c = 0; c < s->total && c < AHEAD; c++)
    prefetch_match(F, s->hb[c]);
  for (c = 0; c < s->total; c++) {
    const uint32_t *w = s->out + c * F->words;
    uint32_t slot;
    if (c + AHEAD < s->total)
      prefetch_match(F, s->hb[c + AHEAD]);
    if ((slot = free_slot(F, w, s->hb[c])) == NONE)
      continue;
    if (lim && F->nstates >= lim) {
      *full = 1;
      return;
    }
    gdl_assert(F->nstates < MAXLOAD((uint64_t)F->mask + 1));   /* 4/5 */
    F->table[slot] = (s->hb[c] & ~F->mask) | (F->nstates + 1);
    pack(F, F->nstates++, w);
  }
}

static void progress(bfs_t *F, int force);

/* Every thread stopped at the interrupt or the context's deadline. */
static void halt_at_limit(bfs_t *F)
{
  int limit = level_limit(F->ctx, F->ctx->deadline);
  if (limit != LEVEL_GOING) {
    char why[64];
    level_limit_why(limit, F->o->max_seconds, why, sizeof why);
    halt(F, why);
  }
}

/* The level's batches expanded (by the caller and its helpers) and
 * committed in order (by the caller).  Returns 1 when the state limit
 * left a new state out. */
static int run_level(bfs_t *F)
{
  uint32_t nb = (F->hi - F->lo + 63) / 64, b, t, helpers;
  int full = 0, c;
#if GDL_THREADS
  pthread_t th[MAX_THREADS];
  unsigned started = 0;
#endif
  F->next = F->lo;
  F->done = 0;
  F->over = 0;
  helpers = helpers_for(F, F->hi - F->lo);
#if GDL_THREADS
  for (t = 1; t <= helpers; t++, started++)
    if (pthread_create(&th[t], NULL, helper, &F->w[t]) != 0)
      break;                   /* fewer threads: the caller does more */
#else
  (void)helpers;
#endif
  while (F->done < nb && !stopped(F)) {
    struct slot *s = &F->ring[F->done % F->nring];
    if (__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE)) {
      uint32_t end = s->b + s->n;
      commit(F, s, &full);
      s->ready = 0;            /* the slot is free once done counts it */
      __atomic_store_n(&F->done, F->done + 1, __ATOMIC_RELEASE);
      if (__atomic_load_n(&F->goal, __ATOMIC_RELAXED) < end)
        break;                 /* a state of goal 100: the level's last */
      halt_at_limit(F);
      progress(F, 0);
    } else if ((c = claim(F, &b)) > 0) {
      expand_batch(&F->w[0], b);
    } else {
      pause_briefly();
    }
  }
  __atomic_store_n(&F->over, 1, __ATOMIC_RELEASE);
#if GDL_THREADS
  for (t = 1; t <= started; t++)
    pthread_join(th[t], NULL);
#endif
  for (t = 0; t < F->nring; t++)
    F->ring[t].ready = 0;
  free_old(F);
  return full;
}

static void progress(bfs_t *F, int force)
{
  const gdl_solve_opts *o = F->o;
  double t = ctx_clock();
  if (o->progress && (force || t >= F->next_report)) {
    gdl_progress p;
    p.depth = F->nlevel ? F->nlevel - 1 : 0;
    p.expanded = F->res->expanded;
    p.generated = F->res->generated;
    p.seconds = t - F->t0;
    lock(F);                   /* threads may be allocating */
    p.memory = gdl_memory_used(F->ctx);
    unlock(F);
    p.algorithm = "bfs";
    o->progress(o->progress_arg, &p);
    F->next_report = t + 0.25;
  }
}

/* ---- the plan --------------------------------------------------------- */

typedef struct {              /* a plan read back (see above) */
  bfs_t *F;
  uint32_t *state;            /* the state whose parent is looked for */
} plan_walk_t;

/* The parent of the walk's state (of level lv) found by expanding level
 * lv - 1 until a state of it makes this one, the first in id order; the
 * moves that made it to moves[]. */
static void find_parent(void *arg, unsigned lv, gdl_term *moves)
{
  plan_walk_t *P = arg;
  bfs_t *F = P->F;
  worker_t *W = &F->w[0];
  uint64_t j[64], off[64], x, c;
  uint32_t b, hi = F->level[lv];
  for (b = F->level[lv - 1]; b < hi; b += 64) {
    uint32_t n = hi - b < 64 ? hi - b : 64;
    uint64_t lanes = take_up_ids(W, b, n, j, 0, lv - 1);
    if (level_children(&F->S, &W->L, lanes, j, off, &W->out, &W->outcap) ==
        UINT64_MAX)
      ctx_throw(F->ctx, GDL_ELIMIT, "%s", F->why);
    for (x = lanes; x; x &= x - 1) {
      uint32_t l = (uint32_t)__builtin_ctzll(x);
      for (c = 0; c < j[l]; c++)
        if (same_words(W->out + (off[l] + c) * F->words, P->state,
                       F->words)) {
          gbatch_joint(W->L.B, l, c, moves);
          unpack(F, b + l, P->state);
          return;
        }
    }
  }
  ctx_throw(F->ctx, GDL_ELIMIT, "internal error: no parent of a state at "
            "depth %u", lv);
}

/* The plan to state id, read back a level at a time. */
static void plan_to_id(bfs_t *F, uint32_t id)
{
  plan_walk_t P;
  uint32_t d = 0;
  while (F->level[d + 1] <= id)
    d++;
  P.F = F;
  P.state = ctx_alloc(F->ctx, F->words * sizeof *P.state);
  unpack(F, id, P.state);
  level_plan(F->ctx, F->res, d, F->k, find_parent, &P);
  ctx_free(F->ctx, P.state);
}

/* ---- the search ------------------------------------------------------- */

static void release(bfs_t *F)
{
  gdl_ctx *ctx = F->ctx;
  uint32_t i;
  for (i = 0; F->w && i < F->nthreads; i++) {
    worker_t *W = &F->w[i];
    gbatch_free(ctx, W->L.B);
    ctx_free(ctx, W->in);
    ctx_free(ctx, W->out);
    ctx_free(ctx, W->tmp);
  }
  for (i = 0; F->ring && i < F->nring; i++) {
    ctx_free(ctx, F->ring[i].out);
    ctx_free(ctx, F->ring[i].hb);
  }
  for (i = 0; i < F->nchunk; i++)
    ctx_free(ctx, F->chunk[i]);
  free_old(F);
  ctx_free(ctx, F->chunk);
  ctx_free(ctx, F->table);
  ctx_free(ctx, F->level);
  ctx_free(ctx, F->ring);
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

/* Level d (level_search's level function) expanded and its children
 * stored: LEVEL_GOAL, LEVEL_NO_NEW or LEVEL_MORE; throws at a limit. */
static int level_by_threads(void *arg, unsigned d)
{
  bfs_t *F = arg;
  gdl_ctx *ctx = F->ctx;
  gdl_solve_result *r = F->res;
  uint32_t t;
  int left;
  F->lo = F->level[d];
  F->hi = F->level[d + 1];
  F->goal = NONE;
  left = run_level(F);
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
  halt_at_limit(F);
  if (stopped(F))
    ctx_throw(ctx, GDL_ELIMIT, "%s", F->why);
  progress(F, 0);
  if (F->goal != NONE)
    return LEVEL_GOAL;
  return F->nstates == F->hi ? LEVEL_NO_NEW : LEVEL_MORE;
}

/* The plan (level_search's): to the first state of goal 100, else to the
 * first terminal state of the best goal, if any. */
static void plan_by_levels(void *arg, int solved, unsigned d)
{
  bfs_t *F = arg;
  (void)d;
  if (solved)
    plan_to_id(F, F->goal);
  else if (F->res->goal >= 0)
    plan_to_id(F, F->best_id);
}

int bfs_levels(gdl_ctx *ctx, const gdl_solve_opts *o, gdl_solve_result *r,
               const uint32_t *start, const counter_t *C)
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
  F->S.C = C;
  F->S.words = F->words;
  F->S.grow = wgrow;
  F->S.grow_arg = F;
  F->nbits = ground_state_slots(ctx);   /* the words' bits past them: 0 */
  F->lastbits = F->nbits - 64 * (F->words / 2 - 1);
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
    W->L.B = t ? gbatch_new(ctx) : B;
    W->in = ctx_alloc(ctx, (size_t)64 * F->words * sizeof *W->in);
    for (b = 0; b < 64; b++)
      W->L.lane[b] = W->in + (size_t)b * F->words;
    W->tmp = ctx_alloc(ctx, F->words * sizeof *W->tmp);
    W->best = -1;
    W->best_id = NONE;
  }
  F->nring = RING * F->nthreads;
  F->ring = ctx_alloc(ctx, F->nring * sizeof *F->ring);
  GROW(ctx, F->level, F->levelcap, 2);
  if (!make_chunks(F, 1) || !make_room(F, 1))
    ctx_throw(ctx, GDL_ELIMIT, "%s", F->why);
  F->hi = 0;                   /* no level is read: plain writes */
  {
    uint32_t *w = F->w[0].tmp, h;
    copy_words(w, start, F->words);
    if (C)
      counter_out(C, w);
    pack(F, 0, w);
    h = words_hash(w, F->words);
    F->table[h & F->mask] = (h & ~F->mask) | 1;
  }
  F->nstates = 1;
  F->level[0] = 0;
  F->level[1] = 1;
  F->nlevel = 1;
  r->stored = 1;
  level_search(r, level_by_threads, plan_by_levels, F);
  r->bytes_per_state = store_bytes(F) / F->nstates;
  ctx->jmp = old;
  release(F);
  return 1;
}
