/*
 * ground_out.c - the grounded engine's outputs read: each role's legal
 * moves (by gate, off the output bits), goals and terminal, the facts of
 * a state's slots, a state as bits for a search, and the look-up of the
 * proposition of an atom.  Reading changes nothing of the network.
 */
#include <string.h>

#include "network/network.h"

/* ground_legal where the network is not kept up to date, or a role has
 * too many gates: each move's gate looked at. */
static __attribute__((noinline)) void
legal_by_move(ground_t *G, size_t role, const gdl_term **moves, uint32_t *n)
{
  const out_t *o = G->legal[role];
  const uint8_t *val = G->val;
  gdl_term *m = G->legalbuf[role];
  uint32_t i, k = 0, nl = G->nlegal[role];
  const uint32_t *gate = G->lgate[role];
  if (G->ready) {              /* the bits kept by propagation */
    uint32_t lo = G->legalslot[role];
    for (i = lo / 64; i < (lo + nl + 63) / 64; i++) {
      uint64_t w = G->outbits[i];
      while (w) {
        uint32_t j = i * 64 + (uint32_t)__builtin_ctzll(w) - lo;
        m[k] = o[j].term;      /* kept when its gate holds: no branch on */
        k += val[gate[j]];     /* the turn, which changes every step */
        w &= w - 1;
      }
    }
  } else {
    for (i = 0; i < nl; i++)
      if (val[o[i].prop] && val[gate[i]])
        m[k++] = o[i].term;
  }
  *moves = m;
  *n = k;
}

void ground_legal(gdl_ctx *ctx, size_t role, const gdl_term **moves,
                  uint32_t *n)
{
  ground_t *G = ctx->ground;
  const struct lread *L = &G->lread[role];
  if (G->ready && L->ng) {     /* the bits kept, under the gates' masks */
    const uint64_t *ob = G->outbits + L->word, *mk = L->mask;
    uint32_t i, k = 0;
    uint64_t w;
    for (i = 0; i < L->nw; i++, mk += MAX_LGATES + 1) {
      const out_t *o = L->o + i * 64;
      for (w = ob[i] & lread_on(G, L, mk); w; w &= w - 1)
        L->buf[k++] = o[__builtin_ctzll(w)].term;
    }
    *moves = L->buf;
    *n = k;
    return;
  }
  legal_by_move(G, role, moves, n);
}

int ground_terminal(gdl_ctx *ctx)
{
  return net_terminal(ctx->ground);
}

void ground_goals(gdl_ctx *ctx, size_t role, gdl_term **buf, uint32_t *cap,
                  uint32_t *n)
{
  ground_t *G = ctx->ground;
  uint32_t i, k = 0;
  gdl_term *vals;
  GROW(ctx, *buf, *cap, G->ngoal[role]);
  vals = *buf;
  for (i = 0; i < G->ngoal[role]; i++)
    if (G->val[G->goal[role][i].prop])
      vals[k++] = G->goal[role][i].term;
  *n = k;
}

int ground_is_legal(gdl_ctx *ctx, size_t role, gdl_term move)
{
  ground_t *G = ctx->ground;
  uint32_t i;
  for (i = 0; i < G->nlegal[role]; i++)   /* static facts have no atom */
    if (G->legal[role][i].term == move) { /* of their own: look at all */
      return G->val[G->legal[role][i].prop] && G->val[G->lgate[role][i]];
    }
  return 0;
}

/* The facts of the first n slots that are set in bits; those of next[]'s
 * slots come first, sorted by id as next[] is. */
void ground_slot_facts(gdl_ctx *ctx, const ground_t *G,
                       const uint64_t *bits, uint32_t n, gdl_state *out)
{
  uint32_t i, k = 0;
  if (out->cap < n + 1 || !out->facts) {
    out->facts = ctx_realloc(ctx, out->facts, (n + 1) * sizeof *out->facts);
    out->cap = n + 1;
  }
  for (i = 0; i < (n + 63) / 64; i++) {
    uint64_t w = bits[i];
    while (w) {
      uint32_t b = i * 64 + (uint32_t)__builtin_ctzll(w);
      if (b >= n)
        break;
      out->facts[k++] = b < G->nnext ? G->next[b].term
                                     : TARG(ctx, G->atom[G->tprop[b]], 0);
      w &= w - 1;
    }
  }
  out->n = k;
}

/* The facts of the state ground_advance made. */
void ground_advanced_facts(gdl_ctx *ctx, gdl_state *out)
{
  ground_slot_facts(ctx, ctx->ground, ctx->ground->statebits, ctx->ground->nnext,
             out);
}

uint32_t ground_lookup_prop(gdl_ctx *ctx, const ground_t *G,
                            uint32_t **cache, uint32_t *cap, gdl_term key,
                            uint32_t sym, uint32_t k, const gdl_term *args)
{
  gdl_term t;
  t = term_find(ctx, sym, k, args);
  GROW(ctx, *cache, *cap, key);
  (*cache)[key] = t && t < G->propofcap && G->propof[t] ? G->propof[t] + 1
                                                         : 1;   /* none */
  return (*cache)[key] - 2;
}

/* ---- states as bits, for a search -------------------------------------
 *
 * A search stores every state it meets and compares them whole, so with
 * this engine it keeps a state as the bits of its fluent slots, in 32-bit
 * words (the store holds them like fact ids).  Slot i < nnext is the
 * fluent of next[i], so a next state is the output bits as they are, and
 * setting a stored state is an XOR with the current one: no fluent is
 * looked up in either direction. */

/* 32-bit words a state takes, or 0 when states cannot be bits here. */
uint32_t ground_state_words(gdl_ctx *ctx)
{
  const ground_t *G = ctx->ground;
  if (!G || !G->incr || !G->bits_ok)
    return 0;
  return 2 * ((G->ntslots + 63) / 64);
}

/* The fluent slots a state has: its bits past them are 0. */
uint32_t ground_state_slots(gdl_ctx *ctx)
{
  return ground_state_words(ctx) ? ctx->ground->ntslots : 0;
}

/* State s as bits (ground_state_words() words).  A fact with no slot is
 * read by no rule and made by no `next` (an init fact nothing uses): it
 * cannot change what any state derives, so it is left out.  Returns 1. */
int ground_state_bits(gdl_ctx *ctx, const gdl_state *s, uint32_t *w)
{
  ground_t *G = ctx->ground;
  uint32_t i, n = ground_state_words(ctx);
  memset(w, 0, n * sizeof *w);
  for (i = 0; i < s->n; i++) {
    uint32_t p = true_prop(ctx, G, s->facts[i]), b;
    if (p != UINT32_MAX) {
      b = G->tslot[p] - 1;
    } else {                   /* no rule reads it: its next[] slot */
      uint32_t a = 0, z = G->nnext;
      while (a < z) {
        uint32_t m = (a + z) / 2;
        if (G->next[m].term < s->facts[i])
          a = m + 1;
        else
          z = m;
      }
      if (a == G->nnext || G->next[a].term != s->facts[i])
        continue;
      b = a;
    }
    gdl_assert(b < G->ntslots);       /* within the state's words */
    w[b >> 5] |= (uint32_t)1 << (b & 31);
  }
  return 1;
}
