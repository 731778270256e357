/*
 * search.h - the searches' parts shared with the bindings above them
 * (gdl-mpi): the breadth-first search by levels.
 */
#ifndef GDL_SEARCH_H
#define GDL_SEARCH_H
#include "analysis/analysis.h"

/* ---- breadth-first by levels (bfs.c) -------------------------------- */

/* Breadth-first search of states as bits from `start` (ground_state_words
 * of them) on bfs_threads(o->threads) threads, into r; 0 when states are
 * not bits here (nothing done).  States are stored without step counter
 * C (NULL: none; counter.c).  Throws GDL_ELIMIT at a limit, with the
 * counts so far in r. */
int bfs_levels(gdl_ctx *ctx, const gdl_solve_opts *o, gdl_solve_result *r,
               const uint32_t *start, const counter_t *C);
/* The threads a search runs on when `asked` (0: the machine's cores). */
unsigned bfs_threads(unsigned asked);

#endif
