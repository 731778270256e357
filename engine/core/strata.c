/*
 * strata.c - the checked rules put in evaluation order, and the checks
 * that need that order.
 *
 * The rules' dependency graph (rule A uses rule B when a body atom of A
 * may unify with B's head) is cut into strongly connected components
 * (Tarjan), which come out dependencies first: that is the evaluation
 * order (ctx->sccs).  Working on rules rather than relations accepts the
 * locally stratified `(<= (goal r 100) (not (goal r 0)))` of many
 * puzzles.  Negation inside a component (unstratified), the GDL recursion
 * restriction, and the restricted dependencies (init, base, input and
 * role on true/does; legal, goal, terminal on does) are checked per rule,
 * pointing at the literal at fault.  Each relation gets a phase: static,
 * state (depends on `true`) or move (depends on `does`).  check.c calls
 * strata_build once the program has no other errors.
 */
#include <stdint.h>
#include <string.h>

#include "core/core.h"

/* ---- the dependency graph --------------------------------------------- */

/* Whether two atoms may unify, every variable taken as a wildcard: a
 * conservative test, so (goal robot 100) does not depend on a rule for
 * (goal robot 0), and `(<= (goal robot 100) (not (goal robot 0)))` is
 * stratified. */
static int may_unify(const gdl_ctx *ctx, gdl_term a, gdl_term b)
{
  const term_t *x = &ctx->terms[a], *y = &ctx->terms[b];
  uint32_t i;
  if (a == b || x->kind == T_VAR || y->kind == T_VAR)
    return 1;
  if (x->ground && y->ground)
    return 0;
  if (x->kind != y->kind || x->sym != y->sym || x->arity != y->arity)
    return 0;
  for (i = 0; i < x->arity; i++)
    if (!may_unify(ctx, TARG(ctx, a, i), TARG(ctx, b, i)))
      return 0;
  return 1;
}

/* The rule graph: rule A depends on rule B when a body atom of A may
 * unify with the head of B.  The rules of a relation are kept in runs:
 * rules next to each other (in the order written) that have one head
 * term, as the expansions of a rule with `or` do.  A body atom may use
 * every rule of a run or none, so a rule's edges are listed as runs, one
 * test of unification each: a rule with 12 binary `or`s expands to 4,096
 * rules, and four of them on one relation made 2^28 edges one by one
 * (1 GB and 12 s for a 1 KB file).
 *
 * Tarjan's algorithm walks the edges in the order of the rules, as if each
 * were listed; it keeps its path in g->frame rather than on the C stack,
 * which a chain of 100,000 rules overflowed.  The rules of a run are
 * visited in order (from the run, or as roots in order), so those visited
 * are a prefix of it (nvis), and those of them still on the stack start
 * at lo: an edge to a run needs only its first rule on the stack and its
 * first rule not visited, and the components come out in the order the
 * rule-by-rule walk gave them. */
typedef struct {
  gdl_ctx *ctx;
  uint32_t **adj;      /* per rule: the runs its body may use */
  uint32_t *nadj, *adjcap;
  uint32_t *index, *low, *stack, nstack, counter;
  uint8_t *onstack;
  uint32_t *frame, *next;   /* the depth-first path: rule, edge */
  const uint32_t **member;  /* per run: its rules, in order */
  uint32_t *size, *nvis, *lo;   /* per run: rules, visited, first on the
                                   stack (nvis when none is) */
  uint32_t *runof;          /* per rule: its run */
} graph_t;

static void add_edge(graph_t *g, uint32_t from, uint32_t to)
{
  GROW(g->ctx, g->adj[from], g->adjcap[from], g->nadj[from]);
  g->adj[from][g->nadj[from]++] = to;
}

/* Numbers rule v and puts it on the stack and the path. */
static void tarjan_enter(graph_t *g, uint32_t v, uint32_t *depth)
{
  uint32_t u = g->runof[v];
  g->index[v] = g->low[v] = ++g->counter;
  g->stack[g->nstack++] = v;
  g->onstack[v] = 1;
  g->nvis[u]++;                /* v is member[u][nvis[u]]: see above */
  g->frame[*depth] = v;
  g->next[(*depth)++] = 0;
}

/* Rule v is the root of a component: its rules come off the stack and
 * make the next component. */
static void tarjan_component(graph_t *g, uint32_t v)
{
  gdl_ctx *ctx = g->ctx;
  scc_t *s = &ctx->sccs[ctx->nsccs];
  uint32_t w, n = 0, k = g->nstack;
  do {
    w = g->stack[--k];
    n++;
  } while (w != v);
  s->rules = ctx_arena(ctx, n * sizeof *s->rules);
  s->rels = ctx_arena(ctx, n * sizeof *s->rels);
  do {
    uint32_t u;
    w = g->stack[--g->nstack];
    g->onstack[w] = 0;
    ctx->rules[w].scc = ctx->nsccs;
    s->rules[s->nrules++] = w;
    u = g->runof[w];
    while (g->lo[u] < g->nvis[u] && !g->onstack[g->member[u][g->lo[u]]])
      g->lo[u]++;
  } while (w != v);
  ctx->nsccs++;
}

static void tarjan(graph_t *g, uint32_t root)
{
  uint32_t depth = 0;
  tarjan_enter(g, root, &depth);
  while (depth > 0) {
    uint32_t v = g->frame[depth - 1];
    if (g->next[depth - 1] < g->nadj[v]) {
      uint32_t u = g->adj[v][g->next[depth - 1]];
      if (g->lo[u] < g->nvis[u] &&
          g->index[g->member[u][g->lo[u]]] < g->low[v])
        g->low[v] = g->index[g->member[u][g->lo[u]]];
      if (g->nvis[u] < g->size[u])
        tarjan_enter(g, g->member[u][g->nvis[u]], &depth);
      else
        g->next[depth - 1]++;
      continue;
    }
    if (g->low[v] == g->index[v])
      tarjan_component(g, v);
    if (--depth > 0 && g->low[v] < g->low[g->frame[depth - 1]])
      g->low[g->frame[depth - 1]] = g->low[v];
  }
}

/* The relations each rule's head may add to: listed once per component. */
static void scc_relations(gdl_ctx *ctx, scc_t *s)
{
  uint32_t i, k;
  for (i = 0; i < s->nrules; i++) {
    uint32_t rel = ctx->rules[s->rules[i]].rel;
    for (k = 0; k < s->nrels && s->rels[k] != rel; k++)
      ;
    if (k == s->nrels)
      s->rels[s->nrels++] = rel;
  }
}

/* Components of the rule graph (see graph_t).  Facts depend on nothing,
 * so they go first, one component per phase (filled in by
 * compute_phases). */
static void build_sccs(gdl_ctx *ctx)
{
  graph_t g;
  uint32_t i, j, k, N = ctx->nrules, R = 0;
  uint32_t **byrel, *nbyrel, *byrelcap;
  uint32_t **runs, *nruns, *runscap;   /* per relation: its runs */
  uint32_t *sole;        /* per run: the component of all its rules, or
                            UINT32_MAX when they are in several */
  memset(&g, 0, sizeof g);
  g.ctx = ctx;
  byrel = ctx_alloc(ctx, ctx->nrels * sizeof *byrel);
  nbyrel = ctx_alloc(ctx, ctx->nrels * sizeof *nbyrel);
  byrelcap = ctx_alloc(ctx, ctx->nrels * sizeof *byrelcap);
  runs = ctx_alloc(ctx, ctx->nrels * sizeof *runs);
  nruns = ctx_alloc(ctx, ctx->nrels * sizeof *nruns);
  runscap = ctx_alloc(ctx, ctx->nrels * sizeof *runscap);
  g.runof = ctx_alloc(ctx, (N + 1) * sizeof *g.runof);
  for (i = 0; i < N; i++) {
    uint32_t r = ctx->rules[i].rel;
    if (ctx->rules[i].nbody == 0)
      continue;
    GROW(ctx, byrel[r], byrelcap[r], nbyrel[r]);
    byrel[r][nbyrel[r]++] = i;
  }
  for (i = 0; i < ctx->nrels; i++)     /* runs: R of them, by relation */
    for (k = 0; k < nbyrel[i]; k++) {
      uint32_t b = byrel[i][k];
      if (k == 0 || ctx->rules[b].head != ctx->rules[byrel[i][k - 1]].head) {
        GROW(ctx, runs[i], runscap[i], nruns[i]);
        runs[i][nruns[i]++] = R++;
      }
    }
  g.member = ctx_alloc(ctx, (R + 1) * sizeof *g.member);
  g.size = ctx_alloc(ctx, (R + 1) * sizeof *g.size);
  g.nvis = ctx_alloc(ctx, (R + 1) * sizeof *g.nvis);
  g.lo = ctx_alloc(ctx, (R + 1) * sizeof *g.lo);
  sole = ctx_alloc(ctx, (R + 1) * sizeof *sole);
  for (i = 0; i < ctx->nrels; i++)
    for (j = 0, k = 0; k < nbyrel[i]; k++) {
      uint32_t b = byrel[i][k];
      if (k > 0 && ctx->rules[b].head != ctx->rules[byrel[i][k - 1]].head)
        j++;
      if (g.size[runs[i][j]] == 0)
        g.member[runs[i][j]] = &byrel[i][k];
      g.runof[b] = runs[i][j];
      g.size[runs[i][j]]++;
    }
  g.adj = ctx_alloc(ctx, (N + 1) * sizeof *g.adj);
  g.nadj = ctx_alloc(ctx, (N + 1) * sizeof *g.nadj);
  g.adjcap = ctx_alloc(ctx, (N + 1) * sizeof *g.adjcap);
  g.index = ctx_alloc(ctx, (N + 1) * sizeof *g.index);
  g.low = ctx_alloc(ctx, (N + 1) * sizeof *g.low);
  g.stack = ctx_alloc(ctx, (N + 1) * sizeof *g.stack);
  g.onstack = ctx_alloc(ctx, N + 1);
  g.frame = ctx_alloc(ctx, (N + 1) * sizeof *g.frame);
  g.next = ctx_alloc(ctx, (N + 1) * sizeof *g.next);
  for (i = 0; i < N; i++) {
    const rule_t *r = &ctx->rules[i];
    for (j = 0; j < r->nbody; j++) {
      const lit_t *l = &r->body[j];
      if (l->kind != L_POS && l->kind != L_NEG)
        continue;
      for (k = 0; k < nruns[l->rel]; k++) {
        uint32_t u = runs[l->rel][k];
        if (may_unify(ctx, l->a, ctx->rules[g.member[u][0]].head))
          add_edge(&g, i, u);
      }
    }
  }
  ctx->sccs = ctx_arena(ctx, (N + 4) * sizeof *ctx->sccs);
  ctx->nsccs = 3;            /* 0..2: the facts of each phase */
  for (i = 0; i < 3; i++) {
    uint32_t nf = 0;
    for (k = 0; k < N; k++)
      nf += ctx->rules[k].nbody == 0;
    ctx->sccs[i].rules = ctx_arena(ctx, (nf + 1) * sizeof(uint32_t));
    ctx->sccs[i].rels = ctx_arena(ctx, (nf + 1) * sizeof(uint32_t));
    ctx->sccs[i].phase = (uint8_t)i;
  }
  for (i = 0; i < N; i++)
    if (ctx->rules[i].nbody && !g.index[i])
      tarjan(&g, i);
  for (k = 0; k < R; k++) {
    sole[k] = ctx->rules[g.member[k][0]].scc;
    for (j = 1; j < g.size[k]; j++)
      if (ctx->rules[g.member[k][j]].scc != sole[k])
        sole[k] = UINT32_MAX;
  }
  /* recursive components and literals: a literal that may use a rule of
   * its own rule's component */
  for (i = 0; i < N; i++) {
    rule_t *r = &ctx->rules[i];
    for (j = 0; j < r->nbody; j++) {
      lit_t *l = &r->body[j];
      if (l->kind != L_POS && l->kind != L_NEG)
        continue;
      for (k = 0; k < g.nadj[i] && !l->rec; k++) {
        uint32_t u = g.adj[i][k], m;
        const rule_t *h = &ctx->rules[g.member[u][0]];
        if (h->rel != l->rel || !may_unify(ctx, l->a, h->head))
          continue;
        for (m = 0; m < g.size[u]; m++)
          if (ctx->rules[g.member[u][m]].scc == r->scc) {
            l->rec = 1;
            ctx->sccs[r->scc].recursive = 1;
            break;
          } else if (sole[u] != UINT32_MAX) {
            break;         /* one component, not this one */
          }
      }
    }
  }
  for (i = 0; i < ctx->nrels; i++) {
    ctx_free(ctx, byrel[i]);
    ctx_free(ctx, runs[i]);
  }
  ctx_free(ctx, byrel);
  ctx_free(ctx, nbyrel);
  ctx_free(ctx, byrelcap);
  ctx_free(ctx, runs);
  ctx_free(ctx, nruns);
  ctx_free(ctx, runscap);
  ctx_free(ctx, sole);
  for (i = 0; i < N; i++)
    ctx_free(ctx, g.adj[i]);
  ctx_free(ctx, g.adj);
  ctx_free(ctx, g.nadj);
  ctx_free(ctx, g.adjcap);
  ctx_free(ctx, g.index);
  ctx_free(ctx, g.low);
  ctx_free(ctx, g.stack);
  ctx_free(ctx, g.onstack);
  ctx_free(ctx, g.frame);
  ctx_free(ctx, g.next);
  ctx_free(ctx, g.member);
  ctx_free(ctx, g.size);
  ctx_free(ctx, g.nvis);
  ctx_free(ctx, g.lo);
  ctx_free(ctx, g.runof);
}

static int term_occurs_in_head(const gdl_ctx *ctx, gdl_term t, gdl_term head)
{
  const term_t *h = &ctx->terms[head];
  uint32_t i;
  if (h->kind != T_FN)
    return 0;
  for (i = 0; i < h->arity; i++)
    if (TARG(ctx, head, i) == t)
      return 1;
  return 0;
}

/* Negation inside recursion; the GDL recursion restriction: in a rule of a
 * recursive component, every argument of a body atom that may use the
 * component must be ground, an argument of the head, or made of variables
 * bound by positive literals outside the component. */
static void check_recursion(gdl_ctx *ctx)
{
  uint32_t i, j, k, v;
  for (i = 0; i < ctx->nrules; i++) {
    const rule_t *r = &ctx->rules[i];
    uint8_t *outside = NULL;
    for (j = 0; j < r->nbody; j++) {
      const lit_t *l = &r->body[j];
      if (!l->rec)
        continue;
      if (l->kind == L_NEG) {
        diag_add(ctx, SEV_ERROR, l->src->file, l->src->start, l->src->end,
                 "negation through recursion: '%s' depends on itself "
                 "through this 'not' (negation must be stratified)",
                 sym_text(ctx, ctx->rels[r->rel].sym));
        continue;
      }
      if (!outside) {
        outside = ctx_alloc(ctx, r->nvars + 1);
        for (k = 0; k < r->nbody; k++)
          if (r->body[k].kind == L_POS && !r->body[k].rec)
            term_vars(ctx, r->body[k].a, outside);
      }
      for (k = 0; k < ctx->terms[l->a].arity; k++) {
        gdl_term arg = TARG(ctx, l->a, k);
        uint8_t m[256], *mm = m;
        int ok = 1;
        if (ctx->terms[arg].ground || term_occurs_in_head(ctx, arg, r->head))
          continue;
        if (r->nvars > sizeof m)
          mm = ctx_alloc(ctx, r->nvars);
        memset(mm, 0, r->nvars);
        term_vars(ctx, arg, mm);
        for (v = 0; v < r->nvars; v++)
          if (mm[v] && !outside[v])
            ok = 0;
        if (mm != m)
          ctx_free(ctx, mm);
        if (!ok) {
          diag_add(ctx, SEV_ERROR, l->src->file, l->src->start,
                   l->src->end, "recursion restriction: argument %u of this "
                   "recursive literal is not ground, not an argument of the "
                   "head, and not bound outside the recursion, so the "
                   "relation could grow without end", k + 1);
          break;
        }
      }
    }
    ctx_free(ctx, outside);
  }
}

/* The phase of every relation: static, state (depends on `true`) or move
 * (depends on `does`), the highest over the rules that define it, so all
 * the facts of a relation are cleared and made again together.  Then the
 * restricted dependencies: init, base, input, role on true and does;
 * legal, goal, terminal on does. */
static void compute_phases(gdl_ctx *ctx)
{
  uint8_t *dt = ctx_alloc(ctx, ctx->nrels), *dd = ctx_alloc(ctx, ctx->nrels);
  uint32_t i, k;
  int changed = 1;
  dt[ctx->r_true] = 1;
  dd[ctx->r_does] = 1;
  while (changed) {
    changed = 0;
    for (i = 0; i < ctx->nrules; i++) {
      const rule_t *r = &ctx->rules[i];
      for (k = 0; k < r->nbody; k++) {
        const lit_t *l = &r->body[k];
        if (l->kind != L_POS && l->kind != L_NEG)
          continue;
        if (dt[l->rel] && !dt[r->rel])
          dt[r->rel] = changed = 1;
        if (dd[l->rel] && !dd[r->rel])
          dd[r->rel] = changed = 1;
      }
    }
  }
  for (i = 0; i < ctx->nrels; i++)
    ctx->rels[i].phase = dd[i] ? P_MOVE : dt[i] ? P_STATE : P_STATIC;
  for (i = 0; i < ctx->nrules; i++) {
    rule_t *r = &ctx->rules[i];
    uint8_t ph = ctx->rels[r->rel].phase;
    if (r->nbody == 0) {         /* facts go to the component of their phase */
      scc_t *s = &ctx->sccs[ph];
      r->scc = ph;
      s->rules[s->nrules++] = i;
    } else {
      ctx->sccs[r->scc].phase = ph;
    }
  }
  for (i = 0; i < ctx->nsccs; i++)
    scc_relations(ctx, &ctx->sccs[i]);
  for (i = 0; i < ctx->nrules; i++) {
    const rule_t *r = &ctx->rules[i];
    uint32_t hs = ctx->rels[r->rel].sym;
    int no_true = hs == S_INIT || hs == S_BASE || hs == S_INPUT ||
                  hs == S_ROLE;
    int no_does = no_true || hs == S_LEGAL || hs == S_GOAL ||
                  hs == S_TERMINAL;
    if (!no_does)
      continue;
    for (k = 0; k < r->nbody; k++) {
      const lit_t *l = &r->body[k];
      const char *what = NULL;
      if (l->kind != L_POS && l->kind != L_NEG)
        continue;
      if (dd[l->rel])
        what = "does";
      else if (no_true && dt[l->rel])
        what = "true";
      if (!what)
        continue;
      if (ctx->rels[l->rel].sym == S_TRUE || ctx->rels[l->rel].sym == S_DOES)
        diag_add(ctx, SEV_ERROR, l->src->file, l->src->start, l->src->end,
                 "'%s' must not depend on '%s'", sym_text(ctx, hs), what);
      else
        diag_add(ctx, SEV_ERROR, l->src->file, l->src->start, l->src->end,
                 "'%s' must not depend on '%s', but '%s' does",
                 sym_text(ctx, hs), what,
                 sym_text(ctx, ctx->rels[l->rel].sym));
    }
  }
  ctx_free(ctx, dt);
  ctx_free(ctx, dd);
}

/* ---- public ----------------------------------------------------------- */

/* The components in evaluation order, recursion checked, the phases. */
void strata_build(gdl_ctx *ctx)
{
  build_sccs(ctx);
  check_recursion(ctx);
  compute_phases(ctx);
}
