/*
 * mpi.c - gdl-mpi: breadth-first search across machines with MPI.
 *
 *   mpirun -np K build/gdl-mpi solve FILE... [--json] [--quiet]
 *          [--max-states N] [--max-seconds S] [--max-memory SIZE]
 *          [--engine E]
 *
 * How gdl-mpi works.  Every rank loads and grounds the same files; loading
 * is deterministic, so term ids and fluent slots come out the same on
 * each (checked: the state's words and a hash of the start state's bits
 * are compared across ranks before the search).  A state belongs to one
 * rank, chosen by the high half of a 64-bit hash of its bits (the low half
 * places it in that rank's own open-addressing table, so the two do not
 * correlate).  A rank stores only the states it owns: their bits, and the
 * parent as (rank, local id) with the joint-move number that made it.
 *
 * The search goes a level at a time.  Each rank expands its share of the
 * frontier 64 states at a time with the grounded network, through the
 * code bfs.c uses (search/levels.c: the batch taken up, the children
 * made, the limits, the plan read back a parent at a time), and sends
 * every child to its owner: MPI_Alltoall of the counts, then
 * MPI_Alltoallv of the records, in rounds whenever a buffer nears 64 MB,
 * until every rank has expanded all of its frontier.  The
 * owner drops a child it stored at a smaller depth and keeps, of the
 * makings of a new state, the least (parent's position, joint move).
 *
 * Positions make the answers those of one process (bfs.c): a state's
 * position in its level is its id there, the order in which the one
 * process search stores it, which is the order of its first making.  So
 * after a level the new states are ranked by (parent's position, joint
 * move): each key goes to the rank that holds that slice of the parent
 * positions, is sorted there, offset by the counts of the ranks before
 * (MPI_Exscan), and the position is sent back to the owner.
 *
 * A level ends with a global test (MPI_Allreduce): a state of goal 100
 * (the least position wins; only states before it count as expanded, and
 * only children of those as stored, as bfs.c counts), a level that adds
 * no state (unsolvable: the best goal of a terminal state is reported,
 * the first such state in one-process order), or a limit.  The plan is
 * read back by parents: the owner of a state broadcasts its parent and
 * move number, the parent's owner evaluates the parent to turn the number
 * into moves (gbatch_joint) and broadcasts them; rank 0 prints.
 *
 * Limits: --max-states is global (states stored on all ranks),
 * --max-memory is per rank (the context's limit: every buffer here is
 * grown with ctx_try_realloc, so running out stops the search at the end
 * of the level instead of jumping out of a collective), --max-seconds and
 * SIGINT/SIGTERM (a flag) are checked after each batch of 64 states; any
 * rank's limit stops every rank at the end of the round, with status 3.
 *
 * Rank 0 prints what `gdl solve --algorithm bfs` prints, plus the ranks
 * and the states each holds; the other ranks print nothing.
 */
#include <mpi.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "search/search.h"

#define NONE UINT32_MAX
#define NOPOS UINT64_MAX
#define CHUNK_BYTES ((uint64_t)64 << 20)
#define POSBITS 40                 /* a best-state key: level << 40 | pos */

enum { STOP_NONE, STOP_MEMORY, STOP_BIG, STOP_TIME, STOP_INTERRUPT };

typedef struct {                   /* what a rank keeps of a state */
  uint64_t pos;                    /* its position in its level; while the
                                      level is made: its parent's */
  uint32_t prank, plid, pj;        /* parent (rank, local id), joint move */
} info_t;

typedef struct {                   /* a new state's key, to be ranked */
  uint64_t ppos;
  uint32_t j, lid, src, pad;
} rkey_t;

typedef struct {                   /* ... and its position, sent back */
  uint64_t pos;
  uint32_t lid, pad;
} rpos_t;

typedef struct {
  gdl_ctx *ctx;
  const opts_t *o;
  gdl_solve_result *res;
  MPI_Comm comm;
  int rank, nranks;
  uint32_t words, k;
  uint32_t rec;                    /* 32-bit words a child record takes:
                                      bits, parent position (2), joint
                                      move, parent id */
  double t0, deadline;             /* now() times; deadline 0: none */
  int stop;                        /* this rank's STOP_ reason */
  level_setup_t S;                 /* the batch's words, step counter and
                                      growth (search/levels.c) */
  level_batch_t L;                 /* ... the batch */
  counter_t *C;                    /* a step counter stored states are
                                      without (counter.c), or NULL */
  uint32_t *clocked;               /* ... the lanes with it put back */
  uint32_t *out;                   /* a batch's children */
  uint64_t outcap;
  /* the store: local id -> bits (words each) and info */
  uint32_t *bits;
  uint64_t bitscap;
  info_t *st;
  uint64_t stcap, n;
  uint32_t *table;                 /* local id + 1, or 0 */
  uint64_t tcap;                   /* a power of 2 */
  uint64_t lo;                     /* the frontier: [lo, n) before a level */
  uint32_t *xj;                    /* per frontier state: joint moves
                                      expanded (0: not expanded) */
  uint64_t xjcap;
  /* the exchange: per destination, its records */
  uint32_t **sb;
  uint64_t *sbn, *sbcap;
  uint64_t sblimit;                /* words a destination's buffer may
                                      reach before a round */
  void *sendbuf, *recvbuf;
  uint64_t sendcap, recvcap;       /* bytes */
  int *scount, *sdispl, *rcount, *rdispl;
  /* the level's goal and the best terminal state */
  uint64_t goal_pos;               /* this rank's least of goal 100 ... */
  uint32_t goal_lid;
  int goal_rank;                   /* ... the rank of the least of all */
  uint64_t front;                  /* the states of the level before */
  uint64_t *kept;                  /* the states this rank holds */
  long best;
  uint64_t best_key;
  uint32_t best_lid;
} mb_t;

static volatile int got_signal;

static void on_signal(int sig)
{
  (void)sig;
  got_signal = 1;
}

/* ---- memory ----------------------------------------------------------- */

/* Grows *p (*cap elements of sz bytes) to hold need; 0, and the rank
 * stopped, when the memory limit is met. */
static int grow(void *arg, void **p, uint64_t *cap, uint64_t need,
                size_t sz)
{
  mb_t *M = arg;
  if (ctx_try_grow(M->ctx, p, cap, need, sz, 64))
    return 1;
  M->stop = STOP_MEMORY;
  return 0;
}

/* ---- the store -------------------------------------------------------- */

/* 64 bits of a state's hash: the low half for the table, the high half
 * for the owner. */
static uint64_t hash_bits(const uint32_t *w, uint32_t n)
{
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  uint32_t i;
  for (i = 0; i < n; i++) {
    h ^= w[i];
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
  }
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

static int owner(const mb_t *M, uint64_t h)
{
  return (int)((h >> 32) % (uint64_t)M->nranks);
}

static const uint32_t *state_bits(const mb_t *M, uint64_t lid)
{
  return M->bits + lid * M->words;
}

/* The local id of state w (hash h), or NONE; *slot: where it is or would
 * go. */
static uint32_t find_state(const mb_t *M, const uint32_t *w, uint64_t h,
                     uint64_t *slot)
{
  uint64_t m = M->tcap - 1, j = h & m;
  for (;; j = (j + 1) & m) {
    uint32_t e = M->table[j];
    if (e == 0)
      break;
    if (memcmp(state_bits(M, e - 1), w, M->words * sizeof *w) == 0) {
      *slot = j;
      return e - 1;
    }
  }
  *slot = j;
  return NONE;
}

/* The table doubled (kept at most half full); 0 when memory is out. */
static int rehash(mb_t *M)
{
  uint64_t c = M->tcap * 2, i, m = c - 1;
  uint32_t *t = ctx_try_realloc(M->ctx, NULL, (size_t)c * sizeof *t);
  if (!t) {
    M->stop = STOP_MEMORY;
    return 0;
  }
  memset(t, 0, (size_t)c * sizeof *t);
  for (i = 0; i < M->n; i++) {
    uint64_t j = hash_bits(state_bits(M, i), M->words) & m;
    while (t[j])
      j = (j + 1) & m;
    t[j] = (uint32_t)i + 1;
  }
  ctx_free(M->ctx, M->table);
  M->table = t;
  M->tcap = c;
  return 1;
}

/* Stores state w, new here; its local id, or NONE when memory is out. */
static uint32_t store_state(mb_t *M, const uint32_t *w, uint64_t h)
{
  uint64_t slot;
  uint32_t lid = (uint32_t)M->n;
  if (M->n + 1 >= NONE) {
    M->stop = STOP_BIG;
    return NONE;
  }
  if ((M->n + 1) * 2 > M->tcap && !rehash(M))
    return NONE;
  if (!grow(M, (void **)&M->bits, &M->bitscap, (M->n + 1) * M->words,
            sizeof *M->bits) ||
      !grow(M, (void **)&M->st, &M->stcap, M->n + 1, sizeof *M->st))
    return NONE;
  find_state(M, w, h, &slot);
  memcpy(M->bits + M->n * M->words, w, M->words * sizeof *w);
  M->table[slot] = lid + 1;
  M->n++;
  return lid;
}

/* Bytes this rank's store holds. */
static double rank_bytes(const mb_t *M)
{
  return (double)(M->bitscap * sizeof *M->bits + M->stcap * sizeof *M->st +
                  M->tcap * sizeof *M->table);
}

/* ---- expanding -------------------------------------------------------- */

/* The rank stopped at the interrupt (a signal) or the clock. */
static void stop_at_limit(mb_t *M)
{
  int limit;
  if (M->stop)
    return;
  limit = level_limit(M->ctx, M->deadline);
  if (limit == LEVEL_INTERRUPTED)
    M->stop = STOP_INTERRUPT;
  else if (limit == LEVEL_TIME_OUT)
    M->stop = STOP_TIME;
}

/* A child record for its owner: bits, the parent's position, the joint
 * move and the parent's local id. */
static int send_child(mb_t *M, const uint32_t *w, uint64_t ppos, uint64_t j,
                      uint32_t plid)
{
  int d = owner(M, hash_bits(w, M->words));
  uint32_t *r;
  if (!grow(M, (void **)&M->sb[d], &M->sbcap[d], M->sbn[d] + M->rec,
            sizeof **M->sb))
    return 0;
  r = M->sb[d] + M->sbn[d];
  memcpy(r, w, M->words * sizeof *w);
  r[M->words] = (uint32_t)ppos;
  r[M->words + 1] = (uint32_t)(ppos >> 32);
  r[M->words + 2] = (uint32_t)j;
  r[M->words + 3] = plid;
  M->sbn[d] += M->rec;
  return 1;
}

/* Stored states [b, b + n) into the batch's lanes: their own words, or
 * copies where the step counter is to be put back. */
static void lanes_in(mb_t *M, uint64_t b, uint32_t n)
{
  uint32_t l;
  for (l = 0; l < n; l++) {
    M->L.lane[l] = state_bits(M, b + l);
    if (M->C) {
      uint32_t *w = M->clocked + (size_t)l * M->words;
      memcpy(w, M->L.lane[l], M->words * sizeof *w);
      M->L.lane[l] = w;
    }
  }
}

/* Frontier states [b, b + n), of depth `level`, taken up (level_take_up,
 * every lane), the terminal ones' goals noted: the best (by level,
 * position) and the least position of goal 100.  Returns the lanes to
 * expand, their joint moves in j[]. */
static uint64_t take_up_frontier(mb_t *M, uint64_t b, uint32_t n,
                                 unsigned level, uint64_t *j)
{
  uint64_t lanes, term, x;
  long goal[64];
  lanes_in(M, b, n);
  lanes = level_take_up(&M->S, &M->L, n, level, 0, j, &term, goal);
  for (x = term; x; x &= x - 1) {
    uint32_t l = (uint32_t)__builtin_ctzll(x);
    uint64_t pos = M->st[b + l].pos;
    uint64_t key = (uint64_t)level << POSBITS | pos;
    long g = goal[l];
    if (g > M->best || (g == M->best && g >= 0 && key < M->best_key)) {
      M->best = g;
      M->best_key = key;
      M->best_lid = (uint32_t)(b + l);
    }
    if (g == 100 && pos < M->goal_pos) {
      M->goal_pos = pos;
      M->goal_lid = (uint32_t)(b + l);
    }
  }
  return lanes;
}

/* Whether a destination's buffer is full enough for a round. */
static int buffers_full(const mb_t *M)
{
  int d;
  for (d = 0; d < M->nranks; d++)
    if (M->sbn[d] >= M->sblimit)
      return 1;
  return 0;
}

/* Expands frontier states from *cur (below hi) until a buffer is full,
 * the frontier is done or the rank stopped. */
static void expand_some(mb_t *M, uint64_t *cur, uint64_t hi, unsigned level)
{
  uint64_t j[64], off[64], x, c;
  while (*cur < hi && !M->stop && !buffers_full(M)) {
    uint64_t b = *cur, lanes;
    uint32_t n = hi - b < 64 ? (uint32_t)(hi - b) : 64;
    lanes = take_up_frontier(M, b, n, level, j);
    if (level_children(&M->S, &M->L, lanes, j, off, &M->out, &M->outcap) ==
        UINT64_MAX)
      return;
    for (x = lanes; x; x &= x - 1) {
      uint32_t l = (uint32_t)__builtin_ctzll(x);
      M->xj[b + l - M->lo] = j[l] > UINT32_MAX ? UINT32_MAX : (uint32_t)j[l];
      for (c = 0; c < j[l]; c++)
        if (!send_child(M, M->out + (off[l] + c) * M->words,
                        M->st[b + l].pos, c, (uint32_t)(b + l)))
          return;
    }
    *cur = b + n;
    stop_at_limit(M);
  }
}

/* ---- the exchange ----------------------------------------------------- */

/* Displacements from counts; 0 when a total passes what an int holds. */
static int displs(const int *count, int *displ, int n, uint64_t *total)
{
  int i;
  *total = 0;
  for (i = 0; i < n; i++) {
    if (*total > INT_MAX)
      return 0;
    displ[i] = (int)*total;
    *total += (uint64_t)count[i];
  }
  return *total <= INT_MAX;
}

/* Sends M->sendbuf (scount/sdispl set, in units of `type`) to every rank,
 * receiving into M->recvbuf.  Collective; 0 (every rank told) when a
 * rank could not hold what it is sent. */
static int alltoallv(mb_t *M, MPI_Datatype type, size_t size,
                     uint64_t *nrecv)
{
  int ok = 1, all;
  MPI_Alltoall(M->scount, 1, MPI_INT, M->rcount, 1, MPI_INT, M->comm);
  if (!displs(M->rcount, M->rdispl, M->nranks, nrecv)) {
    M->stop = STOP_BIG;
    ok = 0;
  } else if (!grow(M, &M->recvbuf, &M->recvcap, *nrecv * size + 1, 1)) {
    ok = 0;
  }
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, M->comm);
  if (!all) {
    *nrecv = 0;
    if (!M->stop)
      M->stop = STOP_MEMORY;
    return 0;
  }
  MPI_Alltoallv(M->sendbuf, M->scount, M->sdispl, type, M->recvbuf,
                M->rcount, M->rdispl, type, M->comm);
  return 1;
}

/* An owner's handling of a child made by rank src: dropped when stored at
 * a smaller depth; else stored, or its parent kept when its key (parent
 * position, joint move) is the least so far. */
static void take_child(mb_t *M, const uint32_t *r, int src, uint64_t newlo)
{
  uint64_t ppos = r[M->words] | (uint64_t)r[M->words + 1] << 32, slot;
  uint64_t h = hash_bits(r, M->words);
  uint32_t j = r[M->words + 2], lid = find_state(M, r, h, &slot);
  info_t *s;
  if (lid != NONE && lid < newlo)
    return;                      /* stored at a smaller depth */
  if (lid != NONE) {
    s = &M->st[lid];
    if (ppos > s->pos || (ppos == s->pos && j >= s->pj))
      return;                    /* made before in one-process order */
  } else if ((lid = store_state(M, r, h)) == NONE) {
    return;                      /* memory: the level stops */
  }
  s = &M->st[lid];
  s->pos = ppos;
  s->pj = j;
  s->prank = (uint32_t)src;
  s->plid = r[M->words + 3];
}

/* One round: the buffered children to their owners, who take them. */
static void exchange(mb_t *M, uint64_t newlo)
{
  uint64_t total = 0, nrecv, i;
  int d, ok = 1;
  for (d = 0; d < M->nranks; d++)
    total += M->sbn[d];
  if (!grow(M, &M->sendbuf, &M->sendcap, total * 4 + 1, 1))
    ok = 0;
  for (d = 0, total = 0; d < M->nranks; d++) {
    M->scount[d] = ok ? (int)M->sbn[d] : 0;
    M->sdispl[d] = (int)total;
    if (ok)
      COPY((uint32_t *)M->sendbuf + total, M->sb[d],
           M->sbn[d] * sizeof **M->sb);
    total += (uint64_t)M->scount[d];
    M->sbn[d] = 0;
  }
  if (!alltoallv(M, MPI_UINT32_T, sizeof(uint32_t), &nrecv))
    return;
  for (d = 0; d < M->nranks; d++) {
    const uint32_t *r = (const uint32_t *)M->recvbuf + M->rdispl[d];
    for (i = 0; i < (uint64_t)M->rcount[d]; i += M->rec)
      take_child(M, r + i, d, newlo);
  }
}

/* ---- positions -------------------------------------------------------- */

static int cmp_rkey(const void *a, const void *b)
{
  const rkey_t *x = a, *y = b;
  if (x->ppos != y->ppos)
    return x->ppos < y->ppos ? -1 : 1;
  return x->j < y->j ? -1 : x->j > y->j;
}

/* The new states [newlo, n) given their positions in the level, the order
 * of their keys over all ranks (see the top); nd: the states of the level
 * before.  Collective; 0 when memory is out (every rank told). */
static int rank_level(mb_t *M, uint64_t newlo, uint64_t nd)
{
  uint64_t i, nrecv, off = 0, cnt, lid;
  int d, K = M->nranks, *cur = ctx_alloc(M->ctx, (size_t)K * sizeof *cur);
  int ok = 1, all;
  rkey_t *key;
  rpos_t *back;
  memset(M->scount, 0, (size_t)K * sizeof *M->scount);
  for (lid = newlo; lid < M->n; lid++)
    M->scount[(uint64_t)((double)M->st[lid].pos * K / (double)nd) %
              (uint64_t)K]++;
  if (!grow(M, &M->sendbuf, &M->sendcap, (M->n - newlo) * sizeof *key + 1,
            1))
    ok = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, M->comm);
  if (!all) {
    M->stop = M->stop ? M->stop : STOP_MEMORY;
    ctx_free(M->ctx, cur);
    return 0;
  }
  displs(M->scount, M->sdispl, K, &cnt);
  for (d = 0; d < K; d++)
    cur[d] = M->sdispl[d];
  key = M->sendbuf;
  for (lid = newlo; lid < M->n; lid++) {
    const info_t *s = &M->st[lid];
    rkey_t *k = &key[cur[(uint64_t)((double)s->pos * K / (double)nd) %
                         (uint64_t)K]++];
    k->ppos = s->pos;
    k->j = s->pj;
    k->lid = (uint32_t)lid;
    k->src = (uint32_t)M->rank;
    k->pad = 0;
  }
  for (d = 0; d < K; d++) {          /* in bytes */
    M->scount[d] *= (int)sizeof *key;
    M->sdispl[d] *= (int)sizeof *key;
  }
  if (!alltoallv(M, MPI_BYTE, 1, &nrecv)) {
    ctx_free(M->ctx, cur);
    return 0;
  }
  nrecv /= sizeof *key;
  key = M->recvbuf;
  qsort(key, (size_t)nrecv, sizeof *key, cmp_rkey);
  cnt = nrecv;
  MPI_Exscan(&cnt, &off, 1, MPI_UINT64_T, MPI_SUM, M->comm);
  if (M->rank == 0)
    off = 0;
  /* the positions back to the owners, grouped by owner */
  for (d = 0; d < K; d++) {
    M->scount[d] = M->rcount[d] / (int)sizeof *key;
    M->sdispl[d] = M->rdispl[d] / (int)sizeof *key;
    cur[d] = M->sdispl[d];
  }
  ok = grow(M, &M->sendbuf, &M->sendcap, nrecv * sizeof *back + 1, 1);
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, M->comm);
  if (!all) {
    M->stop = M->stop ? M->stop : STOP_MEMORY;
    ctx_free(M->ctx, cur);
    return 0;
  }
  /* the keys stay in recvbuf until they are read: sendbuf is another */
  back = M->sendbuf;
  for (i = 0; i < nrecv; i++) {
    rpos_t *p = &back[cur[key[i].src]++];
    p->pos = off + i;
    p->lid = key[i].lid;
    p->pad = 0;
  }
  for (d = 0; d < K; d++) {
    M->scount[d] *= (int)sizeof *back;
    M->sdispl[d] *= (int)sizeof *back;
  }
  ctx_free(M->ctx, cur);
  if (!alltoallv(M, MPI_BYTE, 1, &nrecv))
    return 0;
  back = M->recvbuf;
  for (i = 0; i < nrecv / sizeof *back; i++)
    M->st[back[i].lid].pos = back[i].pos;
  return 1;
}

/* ---- the plan --------------------------------------------------------- */

typedef struct {                   /* a plan read back by parents */
  mb_t *M;
  int rank;                        /* the state whose parent is next: its */
  uint32_t lid;                    /* ... owner and local id there */
  gdl_term *moves;                 /* k + 1 */
} chain_t;

/* The chain's state (of depth lv) becomes its parent: its owner
 * broadcasts the parent and joint move number, the parent's owner
 * evaluates the parent and broadcasts the moves.  Collective. */
static void parent_of(void *arg, unsigned lv, gdl_term *moves)
{
  chain_t *P = arg;
  mb_t *M = P->M;
  uint32_t p[3];
  if (M->rank == P->rank) {
    p[0] = M->st[P->lid].prank;
    p[1] = M->st[P->lid].plid;
    p[2] = M->st[P->lid].pj;
  }
  MPI_Bcast(p, 3, MPI_UINT32_T, P->rank, M->comm);
  if (M->rank == (int)p[0]) {
    lanes_in(M, p[1], 1);
    level_states_in(&M->S, &M->L, 1, lv - 1);
    gbatch_joint(M->L.B, 0, p[2], P->moves);
  }
  MPI_Bcast(P->moves, (int)M->k, MPI_UINT32_T, (int)p[0], M->comm);
  memcpy(moves, P->moves, M->k * sizeof *moves);
  P->rank = (int)p[0];
  P->lid = p[1];
}

/* The plan to the state (rank tr, local id tl) at depth len, read back by
 * parents (see the top); on every rank into res->plan.  Collective. */
static void plan_to_lid(mb_t *M, int tr, uint32_t tl, unsigned len)
{
  chain_t P;
  P.M = M;
  P.rank = tr;
  P.lid = tl;
  P.moves = ctx_alloc(M->ctx, (M->k + 1) * sizeof *P.moves);
  level_plan(M->ctx, M->res, len, M->k, parent_of, &P);
  ctx_free(M->ctx, P.moves);
}

/* The best goal of a terminal state over all ranks, and the plan to the
 * first such state in one-process order. */
static void best_plan(mb_t *M, int plan)
{
  long g;
  uint64_t key = NOPOS, least;
  int who, holder;
  MPI_Allreduce(&M->best, &g, 1, MPI_LONG, MPI_MAX, M->comm);
  M->res->goal = g;
  if (g < 0 || !plan)
    return;
  if (M->best == g)
    key = M->best_key;
  MPI_Allreduce(&key, &least, 1, MPI_UINT64_T, MPI_MIN, M->comm);
  who = key == least ? M->rank : M->nranks;
  MPI_Allreduce(&who, &holder, 1, MPI_INT, MPI_MIN, M->comm);
  plan_to_lid(M, holder, M->best_lid, (unsigned)(least >> POSBITS));
}

/* ---- the search ------------------------------------------------------- */

/* res stopped at a limit, the reason a STOP_ code. */
static void stop_why(mb_t *M, int code)
{
  gdl_solve_result *r = M->res;
  r->status = GDL_LIMIT;
  switch (code) {
  case STOP_INTERRUPT:
  case STOP_TIME:
    level_limit_why(code == STOP_TIME ? LEVEL_TIME_OUT : LEVEL_INTERRUPTED,
                    M->o->max_seconds, r->why, sizeof r->why);
    break;
  case STOP_BIG:
    snprintf(r->why, sizeof r->why, "a rank's share of a level passed "
             "what one exchange holds");
    break;
  default:
    snprintf(r->why, sizeof r->why, "memory limit of %zu MB reached on a "
             "rank", M->ctx->limit >> 20);
    break;
  }
}

/* Expands level d (the frontier [M->lo, M->n)) in rounds until every rank
 * has expanded its share or one stopped. */
static void expand_level(mb_t *M, unsigned d, uint64_t newlo)
{
  uint64_t cur = M->lo;
  if (!grow(M, (void **)&M->xj, &M->xjcap, newlo - M->lo + 1,
            sizeof *M->xj))
    cur = newlo;
  else
    memset(M->xj, 0, (size_t)(newlo - M->lo) * sizeof *M->xj);
  M->goal_pos = NOPOS;
  for (;;) {
    int v[2], all[2];
    expand_some(M, &cur, newlo, d);
    exchange(M, newlo);
    v[0] = cur < newlo && !M->stop;  /* more to do here */
    v[1] = M->stop != STOP_NONE;
    MPI_Allreduce(v, all, 2, MPI_INT, MPI_MAX, M->comm);
    if (!all[0] || all[1])
      break;
  }
}

/* Ends a level: sums its counts (up to the goal), tests the end.
 * Returns LEVEL_GOAL, LEVEL_NO_NEW, LEVEL_STOP (res->status set, the best
 * goal so far) or LEVEL_MORE; *nd is the states of the next level over
 * all ranks.  *kept: the states this rank holds that count as stored. */
static int end_level(mb_t *M, uint64_t newlo, uint64_t *nd, uint64_t *kept)
{
  gdl_solve_result *r = M->res;
  uint64_t gp, mine[3] = { 0, 0, 0 }, sum[3], i;
  int stops[2], stop[2];
  MPI_Allreduce(&M->goal_pos, &gp, 1, MPI_UINT64_T, MPI_MIN, M->comm);
  for (i = M->lo; i < newlo; i++)
    if (M->xj[i - M->lo] && M->st[i].pos < gp) {
      mine[0]++;
      mine[1] += M->xj[i - M->lo];
    }
  for (i = newlo; i < M->n; i++)
    mine[2] += M->st[i].pos < gp;   /* made by a state before the goal */
  *kept = newlo + mine[2];
  stops[0] = M->stop;
  stop_at_limit(M);
  stops[1] = M->stop;
  MPI_Allreduce(mine, sum, 3, MPI_UINT64_T, MPI_SUM, M->comm);
  MPI_Allreduce(stops, stop, 2, MPI_INT, MPI_MAX, M->comm);
  r->expanded += sum[0];
  r->generated += sum[1];
  r->stored += sum[2];
  *nd = sum[2];
  if (stop[0]) {
    stop_why(M, stop[0]);
  } else if (M->o->max_states && r->stored > M->o->max_states) {
    r->stored = M->o->max_states;
    r->status = GDL_LIMIT;
    snprintf(r->why, sizeof r->why, "state limit of %llu reached",
             (unsigned long long)M->o->max_states);
  } else if (stop[1]) {
    stop_why(M, stop[1]);
  } else if (gp != NOPOS) {
    int who = M->goal_pos == gp ? M->rank : M->nranks;
    MPI_Allreduce(&who, &M->goal_rank, 1, MPI_INT, MPI_MIN, M->comm);
    return LEVEL_GOAL;
  } else {
    return sum[2] == 0 ? LEVEL_NO_NEW : LEVEL_MORE;
  }
  best_plan(M, 0);                  /* a limit: the best goal so far */
  return LEVEL_STOP;
}

/* Level d (level_search's level function): expanded in rounds, ended
 * by the ranks together, its new states given their positions. */
static int level_by_ranks(void *arg, unsigned d)
{
  mb_t *M = arg;
  uint64_t newlo = M->n, nd;
  int end;
  expand_level(M, d, newlo);
  if ((end = end_level(M, newlo, &nd, M->kept)) != LEVEL_MORE)
    return end;
  if (!rank_level(M, newlo, M->front)) {
    stop_why(M, M->stop ? M->stop : STOP_MEMORY);
    best_plan(M, 0);
    return LEVEL_STOP;
  }
  M->front = nd;
  M->lo = newlo;
  return LEVEL_MORE;
}

/* The plan (level_search's): to the first state of goal 100, else the
 * best goal over all ranks and the plan to its first state.
 * Collective. */
static void plan_by_parents(void *arg, int solved, unsigned d)
{
  mb_t *M = arg;
  if (solved)
    plan_to_lid(M, M->goal_rank, M->goal_lid, d);
  else
    best_plan(M, 1);
}

/* The search from the start state's bits; res filled on every rank, and
 * *kept the states this rank holds. */
static void search(mb_t *M, uint32_t *start, uint64_t *kept)
{
  M->res->goal = -1;
  M->res->stored = 1;
  M->tcap = 1024;
  M->table = ctx_alloc(M->ctx, (size_t)M->tcap * sizeof *M->table);
  if (M->o->counter >= 0) {
    /* the counter needs the game's analyses only while it is made */
    analyses_t an;
    memset(&an, 0, sizeof an);
    M->C = counter_start(M->ctx, &an, start);
    analyses_free(M->ctx, &an);
  }
  if (M->C) {
    M->clocked = ctx_alloc(M->ctx, (size_t)64 * M->words * sizeof *M->clocked);
    M->S.C = M->C;
    M->res->counter = counter_slots(M->C);
    counter_out(M->C, start);
  }
  if (owner(M, hash_bits(start, M->words)) == M->rank) {
    uint32_t lid = store_state(M, start, hash_bits(start, M->words));
    if (lid != NONE)
      M->st[lid].pos = 0;
  }
  *kept = M->n;
  M->front = 1;
  M->kept = kept;
  level_search(M->res, level_by_ranks, plan_by_parents, M);
}

/* ---- the command ------------------------------------------------------ */

/* Ranks other than 0 print nothing: their stderr goes to /dev/null
 * (kept in *saved for a message no other rank can give). */
static void silence_other_ranks(int rank, int *saved)
{
  int fd;
  *saved = -1;
  if (rank == 0)
    return;
  fflush(stdout);
  fflush(stderr);
  *saved = dup(2);
  if ((fd = open("/dev/null", O_WRONLY)) >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
  }
}

static int usage(int argc, char **argv, opts_t *o)
{
  const cli_command *solve = cli_command_named("solve");
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
                    strcmp(argv[1], "-h") == 0 ||
                    (strcmp(argv[1], "solve") == 0 && argc > 2 &&
                     (strcmp(argv[2], "--help") == 0 ||
                      strcmp(argv[2], "-h") == 0)))) {
    printf("usage: mpirun -np K gdl-mpi solve FILE... [--json] [--quiet]\n"
           "         [--max-states N] [--max-seconds S] [--max-memory SIZE]\n"
           "         [--engine E]\n"
           "Breadth-first search across the K ranks of an MPI job: the same\n"
           "plan and counts as gdl solve --algorithm bfs.  --max-states is\n"
           "over all ranks, --max-memory per rank.  Every host needs the\n"
           "same build and the files at the same paths.\n\n"
           "gdl solve's help, for the options:\n%s", solve->help);
    return 0;
  }
  if (argc < 2 || strcmp(argv[1], "solve") != 0) {
    fprintf(stderr, "gdl-mpi: the command is 'solve' (see gdl-mpi "
            "--help)\n");
    return 2;
  }
  if (cli_parse(argc, argv, solve, o) != 0)
    return 2;
  if (o->algorithm && strcmp(o->algorithm, "bfs") != 0) {
    fprintf(stderr, "gdl-mpi: it searches breadth-first only (bfs), not "
            "with '%s'\n", o->algorithm);
    return 2;
  }
  return -1;
}

/* The start state as bits, the same on every rank; 0, or the exit status
 * (every rank returns the same). */
static int start_bits(mb_t *M, uint32_t **start)
{
  gdl_ctx *ctx = M->ctx;
  gdl_state s = { 0, 0, NULL };
  uint32_t w = GROUND(ctx) ? ground_state_words(ctx) : 0;
  uint64_t mine[2] = { 0, 0 }, lo[2], hi[2];
  *start = NULL;
  if (w && gdl_initial(ctx, &s) == GDL_OK) {
    *start = ctx_alloc(ctx, (w + 1) * sizeof **start);
    if (ground_state_bits(ctx, &s, *start) && (M->L.B = gbatch_new(ctx)))
      mine[0] = w, mine[1] = hash_bits(*start, w);
  }
  gdl_state_release(ctx, &s);
  MPI_Allreduce(mine, lo, 2, MPI_UINT64_T, MPI_MIN, M->comm);
  MPI_Allreduce(mine, hi, 2, MPI_UINT64_T, MPI_MAX, M->comm);
  if (hi[0] == 0) {
    if (M->rank == 0)
      fprintf(stderr, "gdl-mpi: %s: states are not bits of the grounded "
              "network here (%s), and gdl-mpi searches only those: try "
              "--engine ground, or gdl solve\n", M->o->files[0],
              gdl_engine_note(ctx)[0] ? gdl_engine_note(ctx)
                                      : "the interpreter is in use");
    return 2;
  }
  if (lo[0] != hi[0] || lo[1] != hi[1]) {
    if (M->rank == 0)
      fprintf(stderr, "gdl-mpi: the ranks do not agree on the game: the "
              "start state differs (%llu to %llu words); every host needs "
              "the same build and the same files\n",
              (unsigned long long)lo[0], (unsigned long long)hi[0]);
    return 2;
  }
  M->words = w;
  M->S.words = w;
  M->S.grow = grow;
  M->S.grow_arg = M;
  M->rec = w + 4;
  return 0;
}

/* The exchange's buffers, per destination. */
static void set_up(mb_t *M)
{
  gdl_ctx *ctx = M->ctx;
  int K = M->nranks;
  M->k = (uint32_t)gdl_role_count(ctx);
  M->sb = ctx_alloc(ctx, (size_t)K * sizeof *M->sb);
  M->sbn = ctx_alloc(ctx, (size_t)K * sizeof *M->sbn);
  M->sbcap = ctx_alloc(ctx, (size_t)K * sizeof *M->sbcap);
  M->scount = ctx_alloc(ctx, (size_t)K * sizeof *M->scount);
  M->sdispl = ctx_alloc(ctx, (size_t)K * sizeof *M->sdispl);
  M->rcount = ctx_alloc(ctx, (size_t)K * sizeof *M->rcount);
  M->rdispl = ctx_alloc(ctx, (size_t)K * sizeof *M->rdispl);
  /* half the chunk a destination: one batch's children past it fit */
  M->sblimit = CHUNK_BYTES / 4 / (uint64_t)K / 2;
  if (M->sblimit < M->rec)
    M->sblimit = M->rec;
  M->best = -1;
  M->best_key = NOPOS;
}

/* Rank 0's report: solve_report's, with the ranks and their states. */
static int report_ranks(mb_t *M, uint64_t kept)
{
  gdl_solve_result *r = M->res;
  uint64_t *per = NULL;
  double bytes = rank_bytes(M), allbytes;
  uint64_t peak = gdl_memory_peak(M->ctx), maxpeak = 0;
  int i, rc = 0;
  if (M->rank == 0)
    per = ctx_alloc(M->ctx, (size_t)M->nranks * sizeof *per);
  MPI_Gather(&kept, 1, MPI_UINT64_T, per, 1, MPI_UINT64_T, 0, M->comm);
  MPI_Reduce(&bytes, &allbytes, 1, MPI_DOUBLE, MPI_SUM, 0, M->comm);
  MPI_Reduce(&peak, &maxpeak, 1, MPI_UINT64_T, MPI_MAX, 0, M->comm);
  if (M->rank == 0) {
    char *extra = ctx_alloc(M->ctx, (size_t)M->nranks * 24 + 64);
    size_t at;
    r->peak_memory = (size_t)maxpeak;
    r->bytes_per_state = r->stored ? allbytes / (double)r->stored : 0;
    at = (size_t)sprintf(extra, ", \"ranks\": %d, \"states_per_rank\": [",
                         M->nranks);
    for (i = 0; i < M->nranks; i++)
      at += (size_t)sprintf(extra + at, "%s%llu", i ? ", " : "",
                            (unsigned long long)per[i]);
    sprintf(extra + at, "]");
    rc = solve_report(M->ctx, M->o, r, extra);
    if (!M->o->json) {
      printf("; ranks: %d, states per rank:", M->nranks);
      for (i = 0; i < M->nranks; i++)
        printf(" %llu", (unsigned long long)per[i]);
      printf("\n");
    }
    fflush(stdout);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, M->comm);
  return rc;
}

/* Loads, checks, searches and reports; the exit status, the same on every
 * rank. */
static int load_solve_report(mb_t *M, int saved)
{
  gdl_ctx *ctx = M->ctx;
  uint32_t *start;
  uint64_t kept = 0;
  int rc, all;
  jmp_buf jb;
  rc = load(ctx, M->o);
  if (!rc)
    rc = need_game(ctx, M->o);
  MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, M->comm);
  if (all) {
    if (M->rank == 0 && !rc)
      fprintf(stderr, "gdl-mpi: another rank could not load the files "
              "(exit status %d): every host needs them at the same paths\n",
              all);
    return all;
  }
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    /* a throw here is out of memory outside the search's own buffers:
     * the other ranks are in a collective, so the job ends */
    if (saved >= 0)
      dprintf(saved, "gdl-mpi: rank %d: %s\n", M->rank, ctx->errmsg);
    else
      fprintf(stderr, "gdl-mpi: rank %d: %s\n", M->rank, ctx->errmsg);
    MPI_Abort(M->comm, 3);
    return 3;
  }
  set_up(M);
  if ((rc = start_bits(M, &start)) != 0) {
    ctx->jmp = NULL;
    return rc;
  }
  M->t0 = now();
  if (M->o->max_seconds > 0)
    M->deadline = M->t0 + M->o->max_seconds;
  M->res->found_by = GDL_BFS;
  M->res->threads = 1;
  search(M, start, &kept);
  M->res->optimal = M->res->status == GDL_SOLVED;
  M->res->goal_bound = M->res->status == GDL_UNSOLVABLE && counter_ends(M->C);
  M->res->seconds = now() - M->t0;
  if (M->res->status == GDL_LIMIT) {
    M->res->plan = NULL;
    M->res->length = 0;
  }
  rc = report_ranks(M, kept);
  ctx->jmp = NULL;
  return rc;
}

int main(int argc, char **argv)
{
  opts_t o;
  gdl_solve_result res;
  mb_t M0, *const M = &M0;
  struct sigaction sa;
  int rc, saved;
  MPI_Init(&argc, &argv);
  memset(&o, 0, sizeof o);
  memset(&res, 0, sizeof res);
  memset(M, 0, sizeof *M);
  M->comm = MPI_COMM_WORLD;
  M->o = &o;
  M->res = &res;
  MPI_Comm_rank(M->comm, &M->rank);
  MPI_Comm_size(M->comm, &M->nranks);
  silence_other_ranks(M->rank, &saved);
  if ((rc = usage(argc, argv, &o)) >= 0) {
    free(o.files);
    MPI_Finalize();
    return rc;
  }
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  if (!(M->ctx = gdl_new())) {
    rc = usage_error("out of memory");
  } else {
    if (o.max_memory)
      gdl_set_memory_limit(M->ctx, o.max_memory);
    gdl_set_interrupt(M->ctx, &got_signal);
    rc = load_solve_report(M, saved);
    gdl_free(M->ctx);
  }
  free(o.files);
  fflush(stdout);
  MPI_Finalize();
  return rc;
}
