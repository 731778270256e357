/*
 * solve_json.c - gdl_solve_json: a result of gdl_solve() as one JSON
 * object, the one writer of it, so that `gdl solve --json`, gdl-mpi and
 * the playground (engine/bind/web.c) give the same keys in the same order
 * with the same values.  doc/solving.md ("Output") lists the keys.
 */
#include <string.h>

#include "search/search.h"

static void put(gdl_ctx *ctx, strbuf_t *b, const char *s)
{
  sb_puts(ctx, b, s, strlen(s));
}

struct sink { gdl_ctx *ctx; strbuf_t *b; };

static void put_piece(void *arg, const char *p, size_t len)
{
  struct sink *k = arg;
  sb_puts(k->ctx, k->b, p, len);
}

/* The inside of a JSON string: gdl_json_escape's, as everywhere. */
static void json_chars(gdl_ctx *ctx, strbuf_t *b, const char *s)
{
  struct sink k = { ctx, b };
  gdl_json_escape(s, strlen(s), put_piece, &k);
}

/* Each step of the plan a string: its moves in role order, one space
 * between them. */
static void json_plan(gdl_ctx *ctx, strbuf_t *b, const gdl_solve_result *r)
{
  size_t k = gdl_role_count(ctx), i, j;
  put(ctx, b, "[");
  for (i = 0; i < r->length && r->plan; i++) {
    put(ctx, b, i ? ", \"" : "\"");
    for (j = 0; j < k; j++) {
      if (j)
        sb_putc(ctx, b, ' ');
      json_chars(ctx, b, gdl_term_str(ctx, r->plan[i * k + j]));
    }
    sb_putc(ctx, b, '"');
  }
  sb_putc(ctx, b, ']');
}

/* The searches run and their counts (a result made elsewhere, as
 * gdl-mpi's, has none listed: its one search, found_by, with the sums). */
static void json_searches(gdl_ctx *ctx, strbuf_t *b,
                          const gdl_solve_result *r)
{
  gdl_search_count one;
  const gdl_search_count *c = r->searches;
  unsigned i, n = r->nsearches;
  if (n == 0) {
    one.name = gdl_algorithm_name(r->found_by);
    one.expanded = r->expanded;
    one.generated = r->generated;
    c = &one;
    n = 1;
  }
  put(ctx, b, ", \"searches\": [");
  for (i = 0; i < n; i++)
    sb_printf(ctx, b, "%s{\"search\": \"%s\", \"states_expanded\": %llu, "
              "\"states_generated\": %llu}", i ? ", " : "", c[i].name,
              (unsigned long long)c[i].expanded,
              (unsigned long long)c[i].generated);
  sb_putc(ctx, b, ']');
}

/* A game's value (r->game): the keys doc/solving.md lists under "Game
 * values", after "searches"; a puzzle's object has none of them. */
static void json_value(gdl_ctx *ctx, strbuf_t *b, const gdl_solve_result *r)
{
  size_t k = gdl_role_count(ctx), i;
  sb_printf(ctx, b, ", \"game\": true, \"proven\": %s, \"method\": \"%s\", "
            "\"values\": ", r->status == GDL_SOLVED ? "true" : "false",
            r->simultaneous ? "maximin"
            : r->alphabeta ? "alpha-beta"
            : r->constant_sum ? "minimax" : "backward induction");
  if (r->status != GDL_SOLVED) {
    put(ctx, b, "null");
  } else {
    sb_putc(ctx, b, '{');
    for (i = 0; i < k && i < 64; i++) {
      put(ctx, b, i ? ", \"" : "\"");
      json_chars(ctx, b, gdl_term_str(ctx, gdl_role(ctx, i)));
      sb_printf(ctx, b, "\": %ld", r->values[i]);
    }
    sb_putc(ctx, b, '}');
  }
  put(ctx, b, ", \"bound\": ");
  if (r->status == GDL_SOLVED || r->bound_role < 0 || r->bound < 0) {
    put(ctx, b, "null");
  } else {
    put(ctx, b, "{\"role\": \"");
    json_chars(ctx, b, gdl_term_str(ctx, gdl_role(ctx,
                                                  (size_t)r->bound_role)));
    sb_printf(ctx, b, "\", \"at_least\": %ld, \"moves_searched\": %u, "
              "\"moves\": %u}", r->bound, r->bound_searched, r->bound_moves);
  }
  sb_printf(ctx, b, ", \"table_states\": %llu",
            (unsigned long long)r->alphabeta);
}

gdl_status gdl_solve_json(gdl_ctx *ctx, const gdl_solve_result *r,
                          const char **text, size_t *len)
{
  static const char *const status_name[] = { "solved", "unsolvable",
                                             "limit" };
  strbuf_t *b = &ctx->solvetext;
  PROTECT(ctx);
  b->n = 0;
  sb_printf(ctx, b, "{\"status\": \"%s\", \"length\": ",
            status_name[r->status]);
  if (r->status == GDL_LIMIT)
    put(ctx, b, "null");
  else
    sb_printf(ctx, b, "%zu", r->length);
  put(ctx, b, ", \"goal\": ");
  if (r->goal >= 0)
    sb_printf(ctx, b, "%ld", r->goal);
  else
    put(ctx, b, "null");
  put(ctx, b, ", \"plan\": ");
  json_plan(ctx, b, r);
  sb_printf(ctx, b, ", \"expanded\": %llu, \"generated\": %llu, "
            "\"stored\": %llu, \"depth\": %u, \"seconds\": %.3f, "
            "\"peak_memory_bytes\": %zu, \"bytes_per_state\": %.1f, "
            "\"algorithm\": \"%s\", \"optimal\": %s, \"pruned\": %llu, "
            "\"estimate\": %u, \"latches\": %u, \"stubborn\": %s, "
            "\"budget\": %s, \"groups\": %u, \"patterns\": %u, "
            "\"pattern_entries\": %llu, \"patterns_cached\": %u, "
            "\"counter\": %u, "
            "\"goal_bound\": %s, \"shortened_from\": %zu, "
            "\"threads\": %u",
            (unsigned long long)r->expanded,
            (unsigned long long)r->generated,
            (unsigned long long)r->stored, r->depth, r->seconds,
            r->peak_memory, r->bytes_per_state,
            gdl_algorithm_name(r->found_by),
            r->optimal ? "true" : "false",
            (unsigned long long)r->pruned, r->estimate, r->latches,
            r->stubborn ? "true" : "false", r->budget ? "true" : "false",
            r->groups, r->patterns,
            (unsigned long long)r->pattern_entries, r->patterns_cached,
            r->counter,
            r->goal_bound ? "true" : "false", r->shortened_from,
            r->threads);
  put(ctx, b, ", \"dead_start\": ");
  if (r->dead_start)
    sb_printf(ctx, b, "\"%s\"", r->dead_start);
  else
    put(ctx, b, "null");
  json_searches(ctx, b, r);
  if (r->game)
    json_value(ctx, b, r);
  if (r->status == GDL_LIMIT) {
    put(ctx, b, ", \"limit\": \"");
    json_chars(ctx, b, r->why);
    sb_putc(ctx, b, '"');
  }
  sb_putc(ctx, b, '}');
  *text = b->s;
  if (len)
    *len = b->n;
  UNPROTECT(ctx);
  return GDL_OK;
}
