/*
 * graph.c - the reachable state graph as Graphviz DOT (gdl_graph_dot).
 *
 * The states are explored breadth first from a start state through the
 * public game API, every joint move of every state an edge, so the first
 * terminal state with goal 100 found is at the end of a shortest plan.  The
 * command line (`gdl graph`) and the browser playground both print the
 * text this writes; it lives here, not in the command, so that both draw
 * the same picture.
 *
 * The explored graph is held in malloc'd arrays, freed by a cleanup that
 * runs also when the context's allocator gives up (gdl_ast_guarded); the
 * DOT text is written into the context's teaching buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

typedef struct {
  gdl_state *st;               /* the states, in breadth-first order */
  uint32_t *parent, *pedge;    /* how each was first reached */
  uint8_t *expanded;           /* 1 when all its edges are in */
  uint32_t n, cap;
  uint32_t *table, mask;       /* open addressing: state index + 1 */
  uint32_t *efrom, *eto;       /* edges */
  char **elabel;
  uint32_t ne, ecap;
} graph_t;

/* One call's work: the arguments, the graph, and the buffers to free. */
typedef struct {
  gdl_ctx *ctx;
  const gdl_state *start;
  const char *name;
  uint32_t limit;
  int plan;
  gdl_graph_info *info;
  graph_t G;
  gdl_state nx;
  gdl_term *joint;
  const gdl_term **lists;      /* each role's legal moves, copied */
  size_t *nmoves, *at;
  char **facts;                /* one state's facts as text */
  uint32_t nfacts;
  uint8_t *onplan;
} job_t;

static _Noreturn void out_of_memory(gdl_ctx *ctx)
{
  ctx_throw(ctx, GDL_ELIMIT, "out of memory");
}

/* Stops with the status and message of a failed public call. */
static _Noreturn void rethrow(gdl_ctx *ctx, gdl_status st)
{
  char msg[512];
  snprintf(msg, sizeof msg, "%s", gdl_errmsg(ctx));
  ctx_throw(ctx, st, "%s", msg);
}

static void graph_grow(gdl_ctx *ctx, graph_t *G)
{
  uint32_t cap = G->cap ? G->cap * 2 : 256;
  void *a = realloc(G->st, cap * sizeof *G->st);
  if (!a)
    out_of_memory(ctx);
  G->st = a;
  if (!(a = realloc(G->parent, cap * sizeof *G->parent)))
    out_of_memory(ctx);
  G->parent = a;
  if (!(a = realloc(G->pedge, cap * sizeof *G->pedge)))
    out_of_memory(ctx);
  G->pedge = a;
  if (!(a = realloc(G->expanded, cap)))
    out_of_memory(ctx);
  G->expanded = a;
  G->cap = cap;
}

/* The index of state s, added when new (and there is room); -1 when it is
 * new and the graph is full. */
static long graph_find(gdl_ctx *ctx, graph_t *G, const gdl_state *s,
                       uint32_t limit, int *isnew)
{
  uint32_t h = (uint32_t)gdl_state_hash(s), i;
  *isnew = 0;
  for (i = h & G->mask; G->table[i]; i = (i + 1) & G->mask)
    if (gdl_state_equal(&G->st[G->table[i] - 1], s))
      return (long)G->table[i] - 1;
  if (G->n >= limit)
    return -1;
  if (G->n == G->cap)
    graph_grow(ctx, G);
  memset(&G->st[G->n], 0, sizeof *G->st);
  if (gdl_state_copy(ctx, &G->st[G->n], s) != GDL_OK)
    out_of_memory(ctx);
  G->expanded[G->n] = 0;
  G->parent[G->n] = UINT32_MAX;
  G->pedge[G->n] = UINT32_MAX;
  G->table[i] = ++G->n;
  *isnew = 1;
  return (long)G->n - 1;
}

static void graph_edge(gdl_ctx *ctx, graph_t *G, uint32_t from, uint32_t to,
                       const char *label)
{
  if (G->ne == G->ecap) {
    uint32_t cap = G->ecap ? G->ecap * 2 : 256;
    void *a;
    if (!(a = realloc(G->efrom, cap * sizeof *G->efrom)))
      out_of_memory(ctx);
    G->efrom = a;
    if (!(a = realloc(G->eto, cap * sizeof *G->eto)))
      out_of_memory(ctx);
    G->eto = a;
    if (!(a = realloc(G->elabel, cap * sizeof *G->elabel)))
      out_of_memory(ctx);
    G->elabel = a;
    G->ecap = cap;
  }
  if (!(G->elabel[G->ne] = strdup(label)))
    out_of_memory(ctx);
  G->efrom[G->ne] = from;
  G->eto[G->ne] = to;
  G->ne++;
}

/* The legal moves of every role in the current state, copied (gdl_legal's
 * arrays last only until the state changes); 0 when some role has none. */
static int joints_init(job_t *J)
{
  size_t r, k = gdl_role_count(J->ctx);
  int any = 1;
  for (r = 0; r < k; r++) {
    const gdl_term *mv;
    size_t n;
    gdl_status st = gdl_legal(J->ctx, r, &mv, &n);
    if (st != GDL_OK)
      rethrow(J->ctx, st);
    free((void *)J->lists[r]);
    if (!(J->lists[r] = malloc((n + 1) * sizeof **J->lists)))
      out_of_memory(J->ctx);
    COPY((gdl_term *)J->lists[r], mv, n * sizeof *mv);
    J->nmoves[r] = n;
    J->at[r] = 0;
    if (n == 0)
      any = 0;
  }
  return any;
}

/* Odometer over the roles' move lists: the next joint move into
 * J->joint; 0 when all have been given.  `first` for the first call. */
static int joints_next(job_t *J, int first)
{
  size_t r, k = gdl_role_count(J->ctx);
  if (!first) {
    for (r = k; r-- > 0;) {
      if (++J->at[r] < J->nmoves[r])
        break;
      J->at[r] = 0;
      if (r == 0)
        return 0;
    }
    if (k == 0)
      return 0;
  }
  for (r = 0; r < k; r++)
    J->joint[r] = J->lists[r][J->at[r]];
  return 1;
}

/* A DOT string's contents: quotes and backslashes escaped. */
static void dot_text(gdl_ctx *ctx, strbuf_t *b, const char *s)
{
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      sb_putc(ctx, b, '\\');
    sb_putc(ctx, b, *s == '\n' ? ' ' : *s);
  }
}

/* The joint move of an edge: the move, or "role: move" per role. */
static void edge_label(gdl_ctx *ctx, const gdl_term *joint, char *buf,
                       size_t len)
{
  size_t r, k = gdl_role_count(ctx), at = 0;
  buf[0] = 0;
  if (k == 1) {
    gdl_term_write(ctx, joint[0], buf, len);
    return;
  }
  for (r = 0; r < k && at + 1 < len; r++) {
    size_t w = gdl_term_write(ctx, gdl_role(ctx, r), buf + at, len - at);
    if ((at += w) + 2 >= len)
      break;
    memcpy(buf + at, ": ", 3);
    at += 2;
    at += gdl_term_write(ctx, joint[r], buf + at, len - at);
    if (at + 1 >= len)
      break;
    if (r + 1 < k)
      buf[at++] = '\n', buf[at] = 0;
  }
}

/* The facts of s as text, sorted by their text (byte order), as gdl
 * state lists them. */
static void facts_text(job_t *J, const gdl_state *s)
{
  gdl_term *sorted;
  uint32_t i;
  for (i = 0; i < J->nfacts; i++)
    free(J->facts[i]);
  free(J->facts);
  J->nfacts = 0;
  if (!(J->facts = calloc(s->n + 1, sizeof *J->facts)))
    out_of_memory(J->ctx);
  sorted = ctx_alloc(J->ctx, (s->n + 1) * sizeof *sorted);
  COPY(sorted, s->facts, s->n * sizeof *sorted);
  term_sort_text(J->ctx, sorted, s->n);
  for (i = 0; i < s->n; i++, J->nfacts++)
    if (!(J->facts[i] = strdup(gdl_term_str(J->ctx, sorted[i]))))
      out_of_memory(J->ctx);
  ctx_free(J->ctx, sorted);
}

static void set_state(gdl_ctx *ctx, const gdl_state *s)
{
  gdl_status st = gdl_set_state(ctx, s);
  if (st != GDL_OK)
    rethrow(ctx, st);
}

/* Explores breadth first, so the path to the first goal state found is a
 * shortest plan. */
static void explore(job_t *J, uint32_t *goal)
{
  gdl_ctx *ctx = J->ctx;
  graph_t *G = &J->G;
  uint32_t i, tsize = 1024;
  char label[8192];
  int isnew;
  while (tsize < 2 * J->limit)
    tsize *= 2;
  if (!(G->table = calloc(tsize, sizeof *G->table)))
    out_of_memory(ctx);
  G->mask = tsize - 1;
  graph_find(ctx, G, J->start, J->limit, &isnew);
  for (i = 0; i < G->n; i++) {
    int first = 1;
    set_state(ctx, &G->st[i]);
    if (gdl_terminal(ctx)) {
      if (*goal == UINT32_MAX && gdl_goal(ctx, 0) == 100)
        *goal = i;
      G->expanded[i] = 1;
      continue;
    }
    G->expanded[i] = 1;
    if (!joints_init(J))
      continue;
    for (; joints_next(J, first); first = 0) {
      long at;
      gdl_status st = gdl_next(ctx, J->joint, &J->nx);
      if (st != GDL_OK)
        rethrow(ctx, st);
      at = graph_find(ctx, G, &J->nx, J->limit, &isnew);
      if (at < 0) {
        J->info->complete = 0;
        G->expanded[i] = 0;      /* some of its edges are missing */
        continue;
      }
      edge_label(ctx, J->joint, label, sizeof label);
      graph_edge(ctx, G, i, (uint32_t)at, label);
      if (isnew) {
        G->parent[at] = i;
        G->pedge[at] = G->ne - 1;
      }
    }
  }
}

static void write_dot(job_t *J, uint32_t goal, strbuf_t *b)
{
  gdl_ctx *ctx = J->ctx;
  graph_t *G = &J->G;
  uint32_t i, j;
  if (!(J->onplan = calloc(G->ne + 1, 1)))
    out_of_memory(ctx);
  if (J->plan && goal != UINT32_MAX)
    for (j = goal; G->parent[j] != UINT32_MAX; j = G->parent[j])
      J->onplan[G->pedge[j]] = 1;
  sb_printf(ctx, b, "digraph \"");
  dot_text(ctx, b, J->name);
  sb_printf(ctx, b, "\" {\n  node [fontname=\"Helvetica\", fontsize=10];\n"
            "  edge [fontname=\"Helvetica\", fontsize=9];\n");
  for (i = 0; i < G->n; i++) {
    int term, g;
    facts_text(J, &G->st[i]);
    set_state(ctx, &G->st[i]);
    term = gdl_terminal(ctx);
    g = (int)gdl_goal(ctx, 0);
    sb_printf(ctx, b, "  s%u [label=\"", i);
    for (j = 0; j < G->st[i].n; j++) {
      dot_text(ctx, b, J->facts[j]);
      if (j + 1 < G->st[i].n)
        sb_printf(ctx, b, "\\n");
    }
    sb_printf(ctx, b, "\"");
    if (i == 0)
      sb_printf(ctx, b, ", peripheries=2, penwidth=2");
    if (term)
      sb_printf(ctx, b, ", shape=box, style=filled, fillcolor=\"%s\"",
                g == 100 ? "#a8e6a1" : "#f4b6b6");
    if (!G->expanded[i])
      sb_printf(ctx, b, ", style=dashed");
    sb_printf(ctx, b, "];");
    if (i == 0 || term)
      sb_printf(ctx, b, "  /* %s%s%s */", i == 0 ? "start" : "",
                i == 0 && term ? ", " : "",
                !term ? "" : g == 100 ? "terminal, goal 100"
                                      : "terminal, goal below 100");
    sb_printf(ctx, b, "\n");
  }
  for (i = 0; i < G->ne; i++) {
    sb_printf(ctx, b, "  s%u -> s%u [label=\"", G->efrom[i], G->eto[i]);
    dot_text(ctx, b, G->elabel[i]);
    sb_printf(ctx, b, "\"%s];\n",
              J->onplan[i] ? ", color=red, penwidth=3, fontcolor=red" : "");
  }
  sb_printf(ctx, b, "}\n");
}

static int graph_run(void *arg)
{
  job_t *J = arg;
  gdl_ctx *ctx = J->ctx;
  size_t k = gdl_role_count(ctx);
  uint32_t goal = UINT32_MAX;
  if (!(J->joint = calloc(k + 1, sizeof *J->joint)) ||
      !(J->lists = calloc(k + 1, sizeof *J->lists)) ||
      !(J->nmoves = calloc(k + 1, sizeof *J->nmoves)) ||
      !(J->at = calloc(k + 1, sizeof *J->at)))
    out_of_memory(ctx);
  explore(J, &goal);
  J->info->states = J->G.n;
  J->info->edges = J->G.ne;
  J->info->goal_found = goal != UINT32_MAX;
  ctx->teachtext.n = 0;
  sb_puts(ctx, &ctx->teachtext, "", 0);
  write_dot(J, goal, &ctx->teachtext);
  set_state(ctx, J->start);
  return 0;
}

static void graph_cleanup(void *arg)
{
  job_t *J = arg;
  graph_t *G = &J->G;
  uint32_t i;
  size_t r, k = gdl_role_count(J->ctx);
  for (i = 0; i < G->n; i++)
    gdl_state_release(J->ctx, &G->st[i]);
  for (i = 0; i < G->ne; i++)
    free(G->elabel[i]);
  free(G->st);
  free(G->parent);
  free(G->pedge);
  free(G->expanded);
  free(G->table);
  free(G->efrom);
  free(G->eto);
  free(G->elabel);
  gdl_state_release(J->ctx, &J->nx);
  for (r = 0; J->lists && r < k; r++)
    free((void *)J->lists[r]);
  free(J->lists);
  free(J->nmoves);
  free(J->at);
  free(J->joint);
  for (i = 0; i < J->nfacts; i++)
    free(J->facts[i]);
  free(J->facts);
  free(J->onplan);
}

gdl_status gdl_graph_dot(gdl_ctx *ctx, const gdl_state *start,
                         const char *name, size_t max_states, int plan,
                         const char **dot, gdl_graph_info *info)
{
  job_t J;
  PROTECT(ctx);
  memset(&J, 0, sizeof J);
  memset(info, 0, sizeof *info);
  info->complete = 1;
  if (!gdl_is_game(ctx))
    ctx_throw(ctx, GDL_EINPUT, "not a game: %s",
              gdl_not_game_reason(ctx) ? gdl_not_game_reason(ctx) : "");
  J.ctx = ctx;
  J.start = start;
  J.name = name;
  J.limit = max_states == 0 ? 2000
            : max_states < 1000000 ? (uint32_t)max_states : 1000000;
  J.plan = plan;
  J.info = info;
  gdl_ast_guarded(ctx, graph_run, graph_cleanup, &J);
  *dot = ctx->teachtext.s;
  UNPROTECT(ctx);
  return GDL_OK;
}
