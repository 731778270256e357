/*
 * groups_int.h - what groups.c (the groups summed) and patterns.c (their
 * pattern databases) share: the groups found, the state of the build and
 * its questions.  Not part of the analysis' interface (analysis.h).
 */
#ifndef GDL_GROUPS_INT_H
#define GDL_GROUPS_INT_H
#include "analysis/analysis.h"

#define NONE UINT32_MAX
#define INF UINT32_MAX
#define MAX_ARITY 6            /* a relation of more arguments: no groups */
#define MAX_GROUP 256          /* a bigger group is left out */
#define MAX_MOVES 4096         /* more moves: no groups */
/* The work of the questions (propositions evaluated and fluents fixed),
 * in all: 200 a proposition squared, from 50 to 400 million (the
 * 15-puzzle's 581 propositions take 25 million, the 24-puzzle's 1,355
 * take 213 million: the questions grow with the groups' pairs of values
 * as well as with the network); past it, every question is answered
 * "can".  The proof stops at the least where, at the work its questions
 * took so far, those left would take it past the budget (queens16ug,
 * hidato37, the pancakes: 1 to 2 billion). */
#define WORK_MIN 50000000ull
#define WORK_MAX 400000000ull
#define WORK_PER_PROP2 200ull
#define QUESTION_WORK 100000ull    /* a question's: past it, "can" (many
                                      of queens16ug's take a million; the
                                      24-puzzle's, 500 on average) */

struct groups {
  uint32_t ng;                 /* groups summed */
  uint32_t *lo, *slot;         /* group g: slot[lo[g] .. lo[g + 1]) */
  uint32_t *dist;              /* group g, value i (none last):
                                  dist[lo[g] + g + i] */
  uint32_t nall, *all_lo, *all;  /* every group proven, as lo and slot */
  uint32_t nslots, *sgroup;    /* per slot: 1 + its group summed, or 0 */
  uint32_t *splace;            /* ... and its place in the group */
  uint32_t *cm;                /* group g, value i: its number among the
                                  values of finite distance (NONE: not
                                  one), at cm[lo[g] + g + i] */
  uint32_t npat;               /* pattern databases (pdb.c) */
  pdb_t **pat;
  uint32_t *pat_lo, *pat_g;    /* pattern p: groups pat_g[pat_lo[p] ..) */
  uint32_t *inpat;             /* per group: 1 where a pattern has it */
  uint32_t ncached;            /* patterns read from the cache */
  double seconds;              /* the patterns took to build */
  uint32_t nfree;              /* 1: group ng (lo, slot, dist, cm and a
                                  state's values have it last) is the
                                  free group, in every pattern, not
                                  summed (groups.c, free_group) */
  char cache_why[256];         /* why the cache could not be written, or "" */
};

typedef struct {
  gdl_ctx *ctx;
  est_t *E;
  kern_eval_t *X;              /* E's three-valued evaluation */
  ground_t *G;
  uint32_t nm, *does, *legal, *gate;  /* the moves (gate: NONE where
                                        their legal rules have none) */
  uint32_t *move_of;           /* per proposition: 1 + its move, or 0 */
  uint32_t ng, *lo, *slot;     /* the candidates */
  uint64_t *fam;               /* per candidate: its family's key */
  uint8_t *alive;
  uint32_t *sg_lo, *sg;        /* per slot: its candidates */
  uint32_t *trail, ntrail;     /* propositions fixed, in order */
  uint32_t on;                 /* the move fixed true, or NONE */
  int step;                    /* the question is about a step: a move
                                  must be made */
  uint32_t *want;              /* scratch: literals not fixed */
  uint32_t *lit, nlit;         /* scratch: a question's literals */
  uint32_t *wg, *wh;           /* scratch: ways two groups change */
  uint64_t work0;              /* X->evals at the start */
  uint64_t steps;              /* fluents and moves fixed by propagation */
  uint64_t work;               /* the questions' budget (WORK_*) */
  uint64_t asked, qleft;       /* questions asked; while proving, those
                                  left of a round at most */
  uint64_t q0;                 /* the work when this question was asked */
  int over;                    /* past it */
  /* the groups whose distances are not all 0 (useful ones) */
  uint32_t nu, *use;           /* per useful group: its candidate */
  uint32_t **dist;             /* per useful group: per value */
  uint8_t **edge;              /* per useful group: per value, a row */
  uint8_t *conf;               /* nu rows: one move changes both */
  uint32_t *wt, *d0;           /* per useful group: weight, the start's
                                  distance (infinite: 1 << 20) */
  uint32_t *duse;              /* per group summed: its useful index */
  uint32_t fc;                 /* the free group's candidate, or NONE */
  uint8_t *fe;                 /* ... its edges (a row per value) */
  const char *cache;           /* the tables' directory (pdb_cache.c), or
                                  NULL */
} build_t;

/* A literal: proposition p wanted true (v 1) or false (v 0). */
#define LIT(p, v) ((p) << 1 | (v))

static inline uint32_t grp_size(const build_t *b, uint32_t g)
{
  return b->lo[g + 1] - b->lo[g];
}

/* The value in state w of the group of slots slot[0, n): the place of the
 * one that holds, n where none does, NONE where two do. */
static inline uint32_t grp_value(const uint32_t *slot, uint32_t n, const uint32_t *w)
{
  uint32_t j, v = n;
  for (j = 0; j < n; j++)
    if (word_bit(w, slot[j])) {
      if (v != n)
        return NONE;
      v = j;
    }
  return v;
}

/* ---- questions (groups.c) ---------------------------------------------- */

/* Group g has value i (its size: none). */
void grp_add_value(build_t *b, uint32_t g, uint32_t i);
/* The next state has value i of group g (i its size: none); 0 where it
 * cannot (a fluent no `next` derives). */
int grp_add_next(build_t *b, uint32_t g, uint32_t i);
/* Whether the question's literals, lit[0, nlit), can hold together (1
 * where unsure). */
int grp_can_hold(build_t *b);

/* The groups of the network (E's) proven from `start`, those summed
 * chosen and (with_free: where asked) the free group: their estimate, or NULL;
 * b holds what the questions need (for the patterns, patterns.c) until
 * grp_build_free. */
groups_t *grp_build(build_t *b, gdl_ctx *ctx, est_t *E,
                    const uint32_t *start, int with_free, const char *cache);
void grp_build_free(build_t *b);

#endif
