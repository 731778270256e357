/*
 * ground_prop.c - propagation in the grounded engine: the full pass over
 * the groups in evaluation order, and after the first state only what
 * changed (events, counts, supports, recursive groups passed over whole);
 * the checkpoint of the network; a state set (from facts or bits), a
 * joint move played, and random steps, each step without leaving the
 * network.
 */
#include <string.h>

#include "network/network.h"

/* ---- incrementally -----------------------------------------------------
 *
 * Consecutive states of a game differ in a few fluents, and consecutive
 * joint moves in a few moves, so after the first state only what changed
 * is propagated: the `true` and `does` propositions are the inputs, and
 * both phases follow them.  Each rule of a plain (not recursive) group
 * counts its inputs that do not hold (cnt: it fires
 * at 0), each proposition its firing rules (support: it holds above 0).
 * A changed proposition is an event: it moves the counts of the rules that
 * read it, a rule that starts or stops firing moves its head's support,
 * and a head whose support leaves or reaches 0 changes, which is another
 * event.  Counting is exact only without cycles, so a recursive group is
 * evaluated whole, like the full pass does, when an input or the support
 * of one of its heads changed: the groups come in evaluation order, the
 * lowest dirty one first, and its heads that changed are events again. */

/* ---- evaluation ------------------------------------------------------- */

static int rule_holds(const ground_t *G, uint32_t r)
{
  const uint32_t *in = G->in + G->in_lo[r], *end = G->in + G->in_lo[r + 1];
  const uint8_t *val = G->val;
  for (; in < end; in++)
    if (val[*in >> 1] == (*in & 1))
      return 0;
  return 1;
}

/* Passes over rules order[lo, hi) (rules lo..hi-1 when order is NULL);
 * whether a head came to hold.  With `trail`, those heads are kept in
 * G->mset, to be cleared for the next joint move. */
static int run_list(ground_t *G, const uint32_t *order, uint32_t lo,
                    uint32_t hi, int trail)
{
  uint8_t *val = G->val;
  uint32_t i;
  int changed = 0;
  for (i = lo; i < hi; i++) {
    uint32_t r = order ? order[i] : i, h = G->head[r];
    if (!val[h] && rule_holds(G, r)) {
      val[h] = 1;
      changed = 1;
      if (trail)
        G->mset[G->nmset++] = h;
    }
  }
  return changed;
}

/* A full pass over the groups of a phase; in the move phase, only the
 * rules of the `does` propositions that hold (does[0..k-1]). */
static void full_pass(ground_t *G, int phase, const uint32_t *does, uint32_t k)
{
  uint32_t i, j, trail = phase == P_MOVE;
  for (i = 0; i < G->nphg[phase]; i++) {
    const group_t *gr = &G->groups[G->phg[phase][i]];
    int changed;
    do {
      if (!gr->order) {
        changed = run_list(G, NULL, gr->lo, gr->hi, trail);
        continue;
      }
      changed = run_list(G, gr->order, 0, gr->free, trail);
      for (j = 0; j < k; j++) {
        uint32_t a = 0, b = gr->nbuckets;
        while (a < b) {        /* the bucket of this move, if any */
          uint32_t m = (a + b) / 2;
          if (gr->buckets[m].prop < does[j])
            a = m + 1;
          else
            b = m;
        }
        if (a < gr->nbuckets && gr->buckets[a].prop == does[j])
          changed |= run_list(G, gr->order, gr->buckets[a].lo,
                              gr->buckets[a].hi, trail);
      }
    } while (changed && gr->recursive);
  }
}

/* Whether rule r of one move has its move, as of the events handled. */
#define DK_HOLDS(G, r) \
  ((G)->dval[((G)->dkcode[r] - 1) >> 1] != (((G)->dkcode[r] - 1) & 1))

static inline void ready_add(ground_t *G, uint32_t r)
{
  uint32_t c = G->dkcode[r] - 1, at = G->ready_lo[c] + G->nready[c]++;
  G->readyr[at] = r;
  G->rpos[r] = at;
}

static inline void ready_del(ground_t *G, uint32_t r)
{
  uint32_t c = G->dkcode[r] - 1, last, moved;
  /* r is on its move's list: a rule is there while its count is 0 */
  gdl_assert(G->nready[c] > 0 && G->readyr[G->rpos[r]] == r);
  last = G->ready_lo[c] + --G->nready[c];
  moved = G->readyr[last];
  G->readyr[G->rpos[r]] = moved;
  G->rpos[moved] = G->rpos[r];
}

/* Output slots of p after its second (see ground_alias_outputs), now v. */
static __attribute__((noinline)) void more_outs(ground_t *G, uint32_t p,
                                                int v)
{
  const uint32_t *s = G->outs + G->outlo[p] + 2;
  const uint32_t *se = G->outs + G->outlo[p + 1];
  uint64_t *ob = G->outbits, set = (uint64_t)0 - (uint64_t)v;
  for (; s < se; s++) {
    uint64_t m = (uint64_t)1 << (*s & 63);
    ob[*s >> 6] = (ob[*s >> 6] & ~m) | (m & set);
  }
}

static inline void push_event(gdl_ctx *ctx, ground_t *G, uint32_t p, int v)
{
  uint8_t f;
  gdl_assert(p < G->nprops);
  f = G->read[p];
  if (f & 8) {                 /* an output: its bit */
    uint32_t i = G->outof[p] - 1;
    if (v)
      G->outbits[i >> 6] |= (uint64_t)1 << (i & 63);
    else
      G->outbits[i >> 6] &= ~((uint64_t)1 << (i & 63));
    if (f & 16) {              /* ... and a second */
      i = G->outs[G->outlo[p] + 1];
      if (v)
        G->outbits[i >> 6] |= (uint64_t)1 << (i & 63);
      else
        G->outbits[i >> 6] &= ~((uint64_t)1 << (i & 63));
      if (f & 32)              /* ... and more */
        more_outs(G, p, v);
    }
  }
  if (!(f & 1))                /* an output no rule reads */
    return;
  if (G->nevents >= G->eventcap)
    GROW(ctx, G->events, G->eventcap, G->nevents);
  G->events[G->nevents++] = p * 2 + (uint32_t)v;
}

/* Head h of a rule that started firing has one more support (rec: the
 * network has recursive groups, which h may be derived in). */
static inline __attribute__((always_inline)) void
support_up(gdl_ctx *ctx, ground_t *G, uint32_t h, const int rec)
{
  if (G->support[h]++ != 0)
    return;
  if (rec && G->recgroup[h]) {
    G->dirty[G->recgroup[h] - 1] = 1;
  } else {
    G->val[h] = 1;
    push_event(ctx, G, h, 1);
  }
}

/* ... or one less, of a rule that stopped. */
static inline __attribute__((always_inline)) void
support_down(gdl_ctx *ctx, ground_t *G, uint32_t h, const int rec)
{
  /* support[h]: h's plain rules that fire now, this one among them */
  gdl_assert(G->support[h] > 0);
  if (--G->support[h] != 0)
    return;
  if (rec && G->recgroup[h]) {
    G->dirty[G->recgroup[h] - 1] = 1;
  } else {
    G->val[h] = 0;
    push_event(ctx, G, h, 0);
  }
}

/* Event p (now v), the move of rules of one move (in a search, see
 * ground_search_mode).  A rule of one move counts its other inputs only
 * (in fan like any rule's); when they all hold it is ready, on the list
 * of its move, and it fires while its move holds, as of the events
 * handled (dval: a move changed, whose event waits, does not count yet).
 * So a change of move visits the rules that can fire, not all the rules
 * that read the move. */
static inline __attribute__((always_inline)) void
one_move_event(gdl_ctx *ctx, ground_t *G, uint32_t p, uint32_t v,
               const int rec)
{
  uint32_t now = p * 2 + !v, other = p * 2 + v;
  const uint32_t *head = G->head, *f, *fe;
  f = G->readyr + G->ready_lo[now];
  fe = f + G->nready[now];
  for (; f < fe; f++)
    support_up(ctx, G, head[*f], rec);
  f = G->readyr + G->ready_lo[other];
  fe = f + G->nready[other];
  for (; f < fe; f++)
    support_down(ctx, G, head[*f], rec);
}

/* The events to the end, with (dk = 1) or without rules of one move, in
 * a network with (rec = 1) or without recursive groups. */
static inline __attribute__((always_inline)) void
propagate_with(gdl_ctx *ctx, ground_t *G, const int dk, const int rec)
{
  uint32_t next_rec = 0, i;
  uint32_t *cnt = G->cnt;
  const uint32_t *fan = G->fan, *head = G->head;
  for (;;) {
    while (G->nevents) {
      uint32_t e = G->events[--G->nevents], p = e >> 1, v = e & 1;
      /* the readers of p whose literal holds now (p read as it is now:
       * code p * 2 + !v) count one input less, the others one more */
      uint32_t now = p * 2 + !v, other = p * 2 + v;
      const uint32_t *f = fan + G->fan_lo[now], *fe = fan + G->fan_lo[now + 1];
      if (dk && (G->read[p] & 2))   /* the move of rules of one move */
        G->dval[p] = (uint8_t)v;
      for (; f < fe; f++)
        if (--cnt[*f] == 0) {
          if (dk && G->dkcode[*f]) {    /* a rule of one move: ready */
            ready_add(G, *f);
            if (DK_HOLDS(G, *f))
              support_up(ctx, G, head[*f], rec);
          } else {
            support_up(ctx, G, head[*f], rec);
          }
        }
      f = fan + G->fan_lo[other];
      fe = fan + G->fan_lo[other + 1];
      for (; f < fe; f++)
        if (cnt[*f]++ == 0) {
          if (dk && G->dkcode[*f]) {
            ready_del(G, *f);
            if (DK_HOLDS(G, *f))
              support_down(ctx, G, head[*f], rec);
          } else {
            support_down(ctx, G, head[*f], rec);
          }
        }
      if (dk && (G->read[p] & 2))
        one_move_event(ctx, G, p, v, rec);
      if (rec)
        for (i = G->gfan_lo[p]; i < G->gfan_lo[p + 1]; i++)
          if (G->gfan[i] != UINT32_MAX)
            G->dirty[G->gfan[i]] = 1;
    }
    if (!rec)
      return;
    while (next_rec < G->nrecg && !G->dirty[G->recg[next_rec]])
      next_rec++;
    if (next_rec == G->nrecg)
      return;
    {
      uint32_t g = G->recg[next_rec++], k = G->ngheads[g];
      const uint32_t *h = G->gheads[g];
      const group_t *gr = &G->groups[g];
      G->dirty[g] = 0;
      for (i = 0; i < k; i++) {
        G->oldval[i] = G->val[h[i]];
        G->val[h[i]] = G->support[h[i]] > 0;
      }
      while (run_list(G, NULL, gr->lo, gr->hi, 0))
        ;
      for (i = 0; i < k; i++)
        if (G->val[h[i]] != G->oldval[i])
          push_event(ctx, G, h[i], G->val[h[i]]);
      /* its own heads do not make it dirty again */
      G->dirty[g] = 0;
    }
  }
}

/* Copies of the loop: playouts, without rules of one move, run the plain
 * ones, and the others are out of their way; most networks have no
 * recursive group and need not ask at every change of support. */
static __attribute__((noinline)) void propagate_dk(gdl_ctx *ctx, ground_t *G)
{
  if (G->nrecg)
    propagate_with(ctx, G, 1, 1);
  else
    propagate_with(ctx, G, 1, 0);
}

static void propagate(gdl_ctx *ctx, ground_t *G)
{
  if (G->ndk)
    propagate_dk(ctx, G);
  else if (G->nrecg)
    propagate_with(ctx, G, 0, 1);
  else
    propagate_with(ctx, G, 0, 0);
}

/* After a full pass: the counts that match it. */
static void incr_init(ground_t *G, uint32_t roles)
{
  uint32_t g, r, i;
  memset(G->support, 0, G->nprops * sizeof *G->support);
  memset(G->nready, 0, 2 * (size_t)G->nprops * sizeof *G->nready);
  COPY(G->dval, G->val, G->nprops);
  memset(G->doesp, 0xff, sizeof G->doesp);
  for (g = 0; g < G->ngroups; g++) {
    const group_t *gr = &G->groups[g];
    if (gr->recursive)
      continue;
    for (r = gr->lo; r < gr->hi; r++) {
      uint32_t c = 0, dk = G->dkcode[r];
      for (i = G->in_lo[r]; i < G->in_lo[r + 1]; i++)
        c += G->val[G->in[i] >> 1] == (G->in[i] & 1) && G->in[i] + 1 != dk;
      G->cnt[r] = c;
      if (dk && c == 0)
        ready_add(G, r);
      if (c == 0 && (!dk || DK_HOLDS(G, r)))
        G->support[G->head[r]]++;
    }
  }
  memset(G->dirty, 0, G->ngroups);
  memset(G->outbits, 0, (G->nslots / 64 + 1) * sizeof *G->outbits);
  for (i = 0; i < G->nnext; i++)
    if (G->val[G->next[i].prop])
      G->outbits[i >> 6] |= (uint64_t)1 << (i & 63);
  for (g = 0; g < roles; g++)
    for (i = 0; i < G->nlegal[g]; i++)
      if (G->val[G->legal[g][i].prop]) {
        r = G->legalslot[g] + i;
        G->outbits[r >> 6] |= (uint64_t)1 << (r & 63);
      }
  G->ready = 1;
}

/* The state whose slots are G->newbits, once the network is ready: the
 * slots that differ from the current ones are the events. */
static void apply_bits(gdl_ctx *ctx, ground_t *G)
{
  uint64_t *nb = G->newbits, *cb = G->curbits;
  uint32_t i, words = G->ntslots / 64 + 1;
  for (i = 0; i < words; i++) {
    uint64_t x = nb[i] ^ cb[i];
    while (x) {
      uint32_t b = (uint32_t)__builtin_ctzll(x), p = G->tprop[i * 64 + b];
      int v = (int)((nb[i] >> b) & 1);
      G->val[p] = (uint8_t)v;
      push_event(ctx, G, p, v);
      x &= x - 1;
    }
  }
  G->curbits = nb;
  G->newbits = cb;
  propagate(ctx, G);
}

/* n bytes from live to the checkpoint's cp (save), or back. */
static void cp_copy(void *cp, void *live, size_t n, int save)
{
  if (save)
    memcpy(cp, live, n);
  else
    memcpy(live, cp, n);
}

/* Saves (save = 1) the network as it is, the current state its key, or
 * puts the saved one back.  Only what propagation changes is kept: the
 * values, the counts, the supports, the output and state bits and the
 * moves that hold (no event waits, no group is dirty, once it is done). */
static void checkpoint(ground_t *G, int save)
{
  uint32_t words = G->ntslots / 64 + 1, owords = G->nslots / 64 + 1;
  cp_copy(G->cpkey, G->curbits, words * sizeof *G->cpkey, save);
  cp_copy(G->cpval, G->val, G->nprops, save);
  cp_copy(G->cpcnt, G->cnt, G->nrules * sizeof *G->cnt, save);
  cp_copy(G->cpsupport, G->support, G->nprops * sizeof *G->support, save);
  cp_copy(G->cpout, G->outbits, owords * sizeof *G->outbits, save);
  cp_copy(G->cpdoes, G->doesp, sizeof G->doesp, save);
  G->cp_ok = 1;
}

void ground_set_state(gdl_ctx *ctx, const gdl_state *s)
{
  ground_t *G = ctx->ground;
  uint32_t i, p, words = G->ntslots / 64 + 1;
  if (G->ready) {
    uint64_t *nb = G->newbits;
    memset(nb, 0, words * sizeof *nb);
    for (i = 0; i < s->n; i++)
      if ((p = true_prop(ctx, G, s->facts[i])) != UINT32_MAX) {
        uint32_t b = G->tslot[p] - 1;
        nb[b >> 6] |= (uint64_t)1 << (b & 63);
      }
    if (G->ndk) {              /* states set by their bits (the ready
                                  lists are not in the checkpoint) */
      apply_bits(ctx, G);
      return;
    }
    if (memcmp(nb, G->cpkey, words * sizeof *nb) != 0) {
      apply_bits(ctx, G);      /* remembered: saved should it come again */
      memcpy(G->cpkey, G->curbits, words * sizeof *G->cpkey);
      G->cp_ok = 0;
    } else if (G->cp_ok) {
      checkpoint(G, 0);
    } else {                   /* the same state set a second time */
      apply_bits(ctx, G);
      checkpoint(G, 1);
    }
    return;
  }
  memset(G->val, 0, G->nprops);
  G->nmset = 0;                  /* no move proposition holds */
  G->mset_ok = 1;
  G->val[G->always] = 1;
  if (G->incr)
    memset(G->curbits, 0, words * sizeof *G->curbits);
  for (i = 0; i < s->n; i++)
    if ((p = true_prop(ctx, G, s->facts[i])) != UINT32_MAX && !G->val[p]) {
      G->val[p] = 1;
      if (G->incr) {
        uint32_t b = G->tslot[p] - 1;
        G->curbits[b >> 6] |= (uint64_t)1 << (b & 63);
      }
    }
  full_pass(G, P_STATE, NULL, 0);
  if (G->incr) {
    /* the move phase too, with no move played: from here on a joint
     * move is a change of `does` propositions like any other */
    full_pass(G, P_MOVE, NULL, 0);
    incr_init(G, ctx->nroles);
    memcpy(G->cpkey, G->curbits, words * sizeof *G->cpkey);
    G->cp_ok = 0;
  }
}

/* The joint move whose `does` propositions are does[] (one a role, in
 * role order) played in the network kept up to date: the roles' moves
 * that changed are events, like fluents in a state, then propagated. */
static inline __attribute__((always_inline)) void
play_props(gdl_ctx *ctx, ground_t *G, const uint32_t *does)
{
  uint32_t r, old;
  /* the old moves first, so that the new ones are handled first: a
   * disjunction of moves (tic-tac-toe's "a mark outside row 1") that
   * holds before and after never drops in between, which would be two
   * more events each */
  for (r = 0; r < ctx->nroles; r++)
    if (does[r] != (old = G->doesp[r]) && old != UINT32_MAX) {
      G->val[old] = 0;
      push_event(ctx, G, old, 0);
    }
  for (r = 0; r < ctx->nroles; r++)
    if (does[r] != G->doesp[r]) {
      G->doesp[r] = does[r];
      if (does[r] != UINT32_MAX) {
        G->val[does[r]] = 1;
        push_event(ctx, G, does[r], 1);
      }
    }
  propagate(ctx, G);
}

/* The joint move `moves` played in the current state: the move phase. */
static void play_joint(gdl_ctx *ctx, ground_t *G, const gdl_term *moves)
{
  uint32_t i, r, nd = 0, does[64];
  if (G->ready) {              /* incr_build: no more than 64 roles */
    for (r = 0; r < ctx->nroles; r++)
      does[r] = does_prop(ctx, G, r, moves[r]);
    play_props(ctx, G, does);
    return;
  }
  for (r = 0; r < ctx->nroles; r++) {
    uint32_t p = does_prop(ctx, G, r, moves[r]);
    if (p != UINT32_MAX && nd < 64)
      does[nd++] = p;
  }
  if (G->mset_ok)
    for (i = 0; i < G->nmset; i++)
      G->val[G->mset[i]] = 0;
  else
    for (i = 0; i < G->nmoveprops; i++)
      G->val[G->moveprops[i]] = 0;
  G->nmset = 0;
  G->mset_ok = 1;
  for (i = 0; i < nd; i++)
    if (!G->val[does[i]]) {
      G->val[does[i]] = 1;
      G->mset[G->nmset++] = does[i];
    }
  full_pass(G, P_MOVE, does, nd);
}

/* ---- a joint move played --------------------------------------------- */

void ground_next(gdl_ctx *ctx, const gdl_term *moves, gdl_state *out)
{
  ground_t *G = ctx->ground;
  uint32_t i, k = 0;
  play_joint(ctx, G, moves);
  if (G->ready) {              /* the bits kept by propagation */
    ground_slot_facts(ctx, G, G->outbits, G->nnext, out);
    return;
  }
  if (out->cap < G->nnext + 1 || !out->facts) {
    out->facts = ctx_realloc(ctx, out->facts,
                             (G->nnext + 1) * sizeof *out->facts);
    out->cap = G->nnext + 1;
  }
  for (i = 0; i < G->nnext; i++)
    if (G->val[G->next[i].prop])
      out->facts[k++] = G->next[i].term;
  out->n = k;
}

/* States as bits (see ground_out.c): setting one, and the next one. */

/* Sets the current state to the one of bits w. */
void ground_set_bits(gdl_ctx *ctx, const uint32_t *w)
{
  ground_t *G = ctx->ground;
  uint32_t i, n = ground_state_words(ctx) / 2;
  for (i = 0; i < n; i++)      /* the slots a rule reads */
    G->newbits[i] = ((uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32) &
                    G->tmask[i];
  for (; i < G->ntslots / 64 + 1; i++)
    G->newbits[i] = 0;
  if (!G->ready) {             /* a full pass, from the facts */
    gdl_state s = { 0, 0, NULL };
    ground_slot_facts(ctx, G, G->newbits, G->ntslots, &s);
    ground_set_state(ctx, &s);
    ctx_free(ctx, s.facts);
    return;
  }
  apply_bits(ctx, G);
}

/* The next state after the joint move `moves`, as bits.  States are bits
 * only where the network is incremental, and the first one set made it
 * ready, so the output bits are kept up to date. */
void ground_next_bits(gdl_ctx *ctx, const gdl_term *moves, uint32_t *w)
{
  ground_t *G = ctx->ground;
  uint32_t i, n = ground_state_words(ctx) / 2, nw = (G->nnext + 63) / 64;
  play_joint(ctx, G, moves);
  for (i = 0; i < n; i++) {
    uint64_t x = i < nw ? G->outbits[i] : 0;
    w[2 * i] = (uint32_t)x;
    w[2 * i + 1] = (uint32_t)(x >> 32);
  }
}

/* Once a joint move is played: the next state made the current one from
 * the output bits (a next state's slots are those of next[]). */
static void next_to_state(gdl_ctx *ctx, ground_t *G)
{
  uint32_t i, words = G->ntslots / 64 + 1, nw = (G->nnext + 63) / 64;
  for (i = 0; i < words; i++) {
    G->statebits[i] = i < nw ? G->outbits[i] : 0;
    G->newbits[i] = G->statebits[i] & G->tmask[i];
  }
  apply_bits(ctx, G);
}

/* The joint move `moves` played, and its next state made the current one;
 * 0 when the network is not kept up to date that way, and nothing done. */
int ground_advance(gdl_ctx *ctx, const gdl_term *moves)
{
  ground_t *G = ctx->ground;
  if (!G->ready || !G->bits_ok)
    return 0;
  play_joint(ctx, G, moves);
  next_to_state(ctx, G);
  return 1;
}

/* A random legal move of a role, the one gdl_random picks of the list
 * ground_legal would make: 0 when it has none, else 1 and its `does`
 * proposition in *does.  Where the role's moves are read by gate, no list
 * is made: the moves are counted (set bits under the masks) and the one
 * picked found by its place. */
static inline __attribute__((always_inline)) int
random_legal(gdl_ctx *ctx, ground_t *G, size_t role, uint64_t *rng,
             uint32_t *does)
{
  const struct lread *L = &G->lread[role];
  const uint64_t *ob = G->outbits + L->word, *mk;
  uint64_t w = 0;
  uint32_t i, n = 0, k;
  if (!L->ng) {
    const gdl_term *mv;
    ground_legal(ctx, role, &mv, &n);
    if (n)
      *does = does_prop(ctx, G, role, mv[rng_pick(rng, n)]);
    return n != 0;
  }
  for (i = 0, mk = L->mask; i < L->nw; i++, mk += MAX_LGATES + 1)
    n += (uint32_t)__builtin_popcountll(ob[i] & lread_on(G, L, mk));
  if (n == 0)
    return 0;
  k = (uint32_t)rng_pick(rng, n);
  for (i = 0, mk = L->mask; i < L->nw; i++, mk += MAX_LGATES + 1) {
    w = ob[i] & lread_on(G, L, mk);
    n = (uint32_t)__builtin_popcountll(w);
    if (k < n)
      break;
    k -= n;
  }
  for (; k; k--)
    w &= w - 1;
  *does = L->does[i * 64 + (uint32_t)__builtin_ctzll(w)];
  return 1;
}

/* The steps of ground_random_steps; see there. */
static inline __attribute__((always_inline)) size_t
random_steps(gdl_ctx *ctx, ground_t *G, uint64_t *rng, size_t max_steps,
             int *over)
{
  size_t k = 0, r, nr = ctx->nroles;
  while (k < max_steps && !(*over = net_terminal(G))) {
    for (r = 0; r < nr; r++)
      if (!random_legal(ctx, G, r, rng, &G->joint[r]))
        break;
    if (r < nr) {
      *over = 1;
      break;
    }
    play_props(ctx, G, G->joint);
    next_to_state(ctx, G);
    k++;
  }
  return k;
}

/* Counting a role's moves is a popcount a word: one instruction where the
 * processor has it (most x86-64 since 2008, but not the baseline the
 * compiler may assume), a dozen where not; so a copy for each. */
#if HAVE_TARGET_POPCNT
__attribute__((target("popcnt"))) static size_t
random_steps_popcnt(gdl_ctx *ctx, ground_t *G, uint64_t *rng,
                    size_t max_steps, int *over)
{
  return random_steps(ctx, G, rng, max_steps, over);
}
#else
#define random_steps_popcnt random_steps
#endif

/* gdl_random_steps where the network is kept up to date by bits: every
 * step in here, none through the public calls; 0 when not, and nothing
 * done. */
int ground_random_steps(gdl_ctx *ctx, uint64_t *rng, size_t max_steps,
                        size_t *steps, int *over)
{
  ground_t *G = ctx->ground;
  if (!G->ready || !G->bits_ok)
    return 0;
  *steps = G->popcnt ? random_steps_popcnt(ctx, G, rng, max_steps, over)
                     : random_steps(ctx, G, rng, max_steps, over);
  return 1;
}
