/*
 * check.c - from the syntax tree to a checked program.
 *
 * 1. Each top-level form becomes a fact or a rule over interned terms.
 *    Keywords out of place, variables in facts, a list that starts with a
 *    list, wrong arities of keywords and relations are reported here, at
 *    the node that is wrong.
 * 2. A rule with `or` is expanded into one rule per combination of
 *    disjuncts, so evaluation only ever sees conjunctions.
 * 3. Every rule is checked for safety: each variable of the head, of a
 *    `not` and of a `distinct` must occur in a positive body literal.
 * 4. The rules are put in evaluation order (strongly connected components
 *    of their dependency graph), negation through recursion, the GDL
 *    recursion restriction and the restricted dependencies are checked,
 *    and each relation gets a phase: static, state (depends on `true`) or
 *    move (depends on `does`); see strata.c.
 * 5. Whether the program is a game (role, legal, goal and terminal
 *    defined), after the likely slips (typos.c): relations read but never
 *    defined, or defined in a game and never read, near a name meant,
 *    and variables written once near another.
 *
 * A relation used with several arities is reported once every form is
 * read: the arity used most is taken as meant (the first one used, of
 * those used as often), and each use with another is the slip, reported
 * at its own place with the place of the arity meant.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#define MAX_EXPANSION 4096

/* A use of a name as a relation, kept to weigh its arities. */
typedef struct {
  uint32_t sym, arity;
  const gdl_node *at;  /* the atom */
  uint32_t next;       /* the next use of the same name + 1, or 0 */
} reluse_t;

typedef struct {
  gdl_ctx *ctx;
  unsigned flags;
  uint32_t *relar;     /* per symbol: arity + 1 as a relation, 0 unseen */
  uint8_t *relmixed;   /* per symbol: used with more than one arity */
  uint32_t *relfirst, *rellast; /* per symbol: its first, last use + 1 */
  reluse_t *uses;      /* every use of a name as a relation, in order */
  uint32_t nuses, usecap;
  relseen_t *seen;     /* per symbol: where defined and read (typos.c) */
  uint32_t nseen;      /* symbols when the conversion began */
  uint32_t *fnar;      /* per symbol: arity + 1 as a function */
  uint8_t *fnwarned;
  uint8_t *relrule;    /* per symbol: used as a relation by a rule */
  int in_fact;         /* the form in hand is a fact */
  int reading;         /* the atom in hand is a body literal */
  uint32_t *vars;      /* names of the variables of the rule in hand */
  uint32_t nvars, varcap;
  int allow_vars;
  int bad;             /* an error in the form in hand */
  int game_words;      /* a game keyword was used as a relation */
} conv_t;

static int body_keyword(uint32_t s)
{
  return s == S_DISTINCT || s == S_NOT || s == S_OR || s == S_IMPLIES;
}

/* Arity of a keyword relation, or -1. */
static int keyword_arity(uint32_t s)
{
  switch (s) {
  case S_ROLE: case S_INIT: case S_TRUE: case S_NEXT: case S_BASE:
    return 1;
  case S_DOES: case S_LEGAL: case S_GOAL: case S_INPUT:
    return 2;
  case S_TERMINAL:
    return 0;
  default:
    return -1;
  }
}

static void err(conv_t *cv, const gdl_node *n, const char *fmt, const char *a)
{
  diag_add(cv->ctx, SEV_ERROR, n->file, n->start, n->end, fmt, a);
  cv->bad = 1;
}

/* An error at the first character of n only (its opening parenthesis). */
static void err_at(conv_t *cv, const gdl_node *n, const char *msg)
{
  diag_add(cv->ctx, SEV_ERROR, n->file, n->start, n->start + 1, "%s", msg);
  cv->bad = 1;
}

static uint32_t var_index(conv_t *cv, uint32_t sym)
{
  uint32_t i;
  for (i = 0; i < cv->nvars; i++)
    if (cv->vars[i] == sym)
      return i;
  GROW(cv->ctx, cv->vars, cv->varcap, cv->nvars);
  cv->vars[cv->nvars] = sym;
  return cv->nvars++;
}

/* FILE:LINE:COL of node n, for a message that points elsewhere. */
static void node_where(gdl_ctx *ctx, const gdl_node *n, char *buf,
                       size_t len)
{
  uint32_t line, col;
  diag_where(ctx, n->file, n->start, &line, &col);
  snprintf(buf, len, "%s:%u:%u", ctx->files[n->file].name, line, col);
}

/* ---- relations -------------------------------------------------------- */

static void rel_rehash(gdl_ctx *ctx)
{
  uint32_t cap = ctx->relmask ? (ctx->relmask + 1) * 2 : 256, i;
  uint32_t *h = ctx_alloc(ctx, cap * sizeof *h);
  for (i = 0; i < ctx->nrels; i++) {
    uint32_t j = (ctx->rels[i].sym * 31 + ctx->rels[i].arity) & (cap - 1);
    while (h[j])
      j = (j + 1) & (cap - 1);
    h[j] = i + 1;
  }
  ctx_free(ctx, ctx->relhash);
  ctx->relhash = h;
  ctx->relmask = cap - 1;
}

int rel_find(const gdl_ctx *ctx, uint32_t sym, uint32_t arity)
{
  uint32_t j;
  if (!ctx->relmask)
    return -1;
  for (j = (sym * 31 + arity) & ctx->relmask; ctx->relhash[j];
       j = (j + 1) & ctx->relmask) {
    const rel_t *r = &ctx->rels[ctx->relhash[j] - 1];
    if (r->sym == sym && r->arity == arity)
      return (int)ctx->relhash[j] - 1;
  }
  return -1;
}

uint32_t rel_get(gdl_ctx *ctx, uint32_t sym, uint32_t arity)
{
  int r = rel_find(ctx, sym, arity);
  uint32_t j;
  if (r >= 0)
    return (uint32_t)r;
  GROW(ctx, ctx->rels, ctx->relcap, ctx->nrels);
  memset(&ctx->rels[ctx->nrels], 0, sizeof(rel_t));
  ctx->rels[ctx->nrels].sym = sym;
  ctx->rels[ctx->nrels].arity = arity;
  ctx->nrels++;
  if (!ctx->relmask || ctx->nrels * 2 > ctx->relmask) {
    rel_rehash(ctx);
  } else {
    for (j = (sym * 31 + arity) & ctx->relmask; ctx->relhash[j];
         j = (j + 1) & ctx->relmask)
      ;
    ctx->relhash[j] = ctx->nrels;
  }
  return ctx->nrels - 1;
}

/* ---- conversion ------------------------------------------------------- */

static gdl_term conv_term(conv_t *cv, const gdl_node *n)
{
  gdl_ctx *ctx = cv->ctx;
  switch (n->kind) {
  case N_SYM:
    if (body_keyword(n->sym)) {
      err(cv, n, "'%s' is a keyword and cannot be used as a constant",
          sym_text(ctx, n->sym));
      return 0;
    }
    return term_sym(ctx, n->sym);
  case N_VAR:
    if (!cv->allow_vars) {
      err(cv, n, "variable %s in a fact: a fact must be ground",
          infix_var_shown(ctx, n->file, n->sym));
      return 0;
    }
    return term_var(ctx, var_index(cv, n->sym));
  default: {
    const gdl_node *h = n->first, *a;
    gdl_term args[64], *argv = args, t;
    uint32_t i = 0, ok = 1;
    if (!h) {
      err(cv, n, "'()' is not a term%s", "");
      return 0;
    }
    if (h->kind == N_LIST) {
      err_at(cv, h, "a list cannot start with a list: the first element "
             "must be a name");
      return 0;
    }
    if (h->kind == N_VAR) {
      err(cv, h, "a function name cannot be a variable (%s)",
          sym_text(ctx, h->sym));
      return 0;
    }
    if (body_keyword(h->sym)) {
      err(cv, h, "'%s' is a keyword and cannot be used as a function name",
          sym_text(ctx, h->sym));
      return 0;
    }
    if (n->n - 1 > 64)
      argv = ctx_alloc(ctx, (n->n - 1) * sizeof *argv);
    for (a = h->next; a; a = a->next) {
      argv[i] = conv_term(cv, a);
      if (!argv[i++])
        ok = 0;
    }
    if (cv->fnar[h->sym] && cv->fnar[h->sym] != n->n &&
        !cv->fnwarned[h->sym]) {
      char buf[40];
      cv->fnwarned[h->sym] = 1;
      snprintf(buf, sizeof buf, "%u", cv->fnar[h->sym] - 1);
      diag_add(ctx, SEV_WARNING, h->file, h->start, h->end,
               "function '%s' is used with %u argument%s here and with %s "
               "elsewhere", sym_text(ctx, h->sym), n->n - 1,
               n->n == 2 ? "" : "s", buf);
    }
    if (!cv->fnar[h->sym])
      cv->fnar[h->sym] = n->n;
    t = ok ? term_fn(ctx, h->sym, n->n - 1, argv) : 0;
    if (argv != args)
      ctx_free(ctx, argv);
    return t;
  }
  }
}

/* Records the use of a relation: its arity (a second one is reported by
 * check_arities once every form is read) and where it is defined and
 * read. */
static void note_relation(conv_t *cv, const gdl_node *at, uint32_t sym,
                          uint32_t arity, int parens)
{
  gdl_ctx *ctx = cv->ctx;
  int ka = keyword_arity(sym);
  int own = !ctx->files[at->file].included;
  relseen_t *seen = &cv->seen[sym];
  reluse_t *u;
  uint32_t r;
  if (ka >= 0 && (uint32_t)ka != arity) {
    char msg[200];
    snprintf(msg, sizeof msg, "'%s' takes %d argument%s, not %u",
             sym_text(ctx, sym), ka, ka == 1 ? "" : "s", arity);
    err(cv, at, "%s", msg);
    return;
  }
  if (cv->relar[sym] && cv->relar[sym] != arity + 1)
    cv->relmixed[sym] = 1;
  if (!cv->relar[sym])
    cv->relar[sym] = arity + 1;
  GROW(ctx, cv->uses, cv->usecap, cv->nuses);
  u = &cv->uses[cv->nuses++];
  u->sym = sym;
  u->arity = arity;
  u->at = at;
  u->next = 0;
  if (cv->rellast[sym])
    cv->uses[cv->rellast[sym] - 1].next = cv->nuses;
  else
    cv->relfirst[sym] = cv->nuses;
  cv->rellast[sym] = cv->nuses;
  if (cv->reading) {
    if (!seen->read)
      seen->read = at;
    if (own && !seen->read_own)
      seen->read_own = at;
  } else {
    if (!seen->def)
      seen->def = at;
    if (own && !seen->def_own)
      seen->def_own = at;
  }
  if (!cv->in_fact)
    cv->relrule[sym] = 1;
  if (sym >= S_INIT && sym <= S_TERMINAL)   /* role alone is not enough */
    cv->game_words = 1;
  r = rel_get(ctx, sym, arity);
  if (arity == 0) {
    if ((parens && ctx->rels[r].bare && !ctx->rels[r].parens) ||
        (!parens && ctx->rels[r].parens && !ctx->rels[r].bare))
      diag_add(ctx, SEV_WARNING, at->file, at->start, at->end,
               "'%s' is written both as (%s) and as %s; both mean the same "
               "zero-argument relation", sym_text(ctx, sym),
               sym_text(ctx, sym), sym_text(ctx, sym));
    if (parens)
      ctx->rels[r].parens = 1;
    else
      ctx->rels[r].bare = 1;
  }
}

/* A sentence (a fact, a head, a body atom): its atom term and relation. */
static gdl_term conv_atom(conv_t *cv, const gdl_node *n, uint32_t *rel)
{
  gdl_ctx *ctx = cv->ctx;
  const gdl_node *h;
  gdl_term t;
  switch (n->kind) {
  case N_SYM:
    if (body_keyword(n->sym)) {
      err(cv, n, "'%s' is a keyword and cannot stand alone as a sentence",
          sym_text(ctx, n->sym));
      return 0;
    }
    note_relation(cv, n, n->sym, 0, 0);
    *rel = rel_get(ctx, n->sym, 0);
    return term_sym(ctx, n->sym);
  case N_VAR:
    err(cv, n, "a sentence cannot be a variable (%s)", sym_text(ctx, n->sym));
    return 0;
  default:
    h = n->first;
    if (!h) {
      err(cv, n, "'()' is not a sentence%s", "");
      return 0;
    }
    if (h->kind == N_LIST) {
      err_at(cv, h, "a list cannot start with a list: the first element "
             "must be a relation name");
      return 0;
    }
    if (h->kind == N_VAR) {
      err(cv, h, "a relation name cannot be a variable (%s)",
          sym_text(ctx, h->sym));
      return 0;
    }
    if (body_keyword(h->sym)) {
      err(cv, h, "'%s' cannot be used here", sym_text(ctx, h->sym));
      return 0;
    }
    note_relation(cv, n, h->sym, n->n - 1, 1);
    if (n->n == 1) {
      *rel = rel_get(ctx, h->sym, 0);
      return term_sym(ctx, h->sym);
    }
    {
      /* the atom is the term h(args) */
      const gdl_node *a;
      gdl_term args[64], *argv = args;
      uint32_t i = 0, ok = 1;
      if (n->n - 1 > 64)
        argv = ctx_alloc(ctx, (n->n - 1) * sizeof *argv);
      for (a = h->next; a; a = a->next) {
        argv[i] = conv_term(cv, a);
        if (!argv[i++])
          ok = 0;
      }
      t = ok ? term_fn(ctx, h->sym, n->n - 1, argv) : 0;
      if (argv != args)
        ctx_free(ctx, argv);
    }
    *rel = rel_get(ctx, h->sym, n->n - 1);
    return t;
  }
}

typedef struct {
  lit_t *alts;
  uint32_t n, cap;
} slot_t;

static void push_alt(gdl_ctx *ctx, slot_t *s, const lit_t *l)
{
  GROW(ctx, s->alts, s->cap, s->n);
  s->alts[s->n++] = *l;
}

/* A body literal; `or` adds one alternative per disjunct to the slot. */
static void conv_literal(conv_t *cv, const gdl_node *n, slot_t *slot)
{
  gdl_ctx *ctx = cv->ctx;
  lit_t l;
  memset(&l, 0, sizeof l);
  l.src = n;
  if (n->kind == N_LIST && n->first && n->first->kind == N_SYM &&
      body_keyword(n->first->sym)) {
    const gdl_node *h = n->first;
    switch (h->sym) {
    case S_NOT: {
      const gdl_node *x = h->next;
      if (n->n != 2) {
        err(cv, n, "'not' takes one literal%s", "");
        return;
      }
      if (x->kind == N_LIST && x->first && x->first->kind == N_SYM &&
          x->first->sym == S_DISTINCT) {
        if (!(cv->flags & GDL_CLEAN)) {
          err(cv, n, "(not (distinct ...)) is not GDL; say what must be "
              "equal by using the same variable (or run with --clean to "
              "read it as equality)%s", "");
          return;
        }
        if (x->n != 3) {
          err(cv, x, "'distinct' takes 2 arguments%s", "");
          return;
        }
        l.kind = L_EQUAL;
        l.a = conv_term(cv, x->first->next);
        l.b = conv_term(cv, x->first->next->next);
        if (l.a && l.b)
          push_alt(ctx, slot, &l);
        return;
      }
      if (x->kind == N_LIST && x->first && x->first->kind == N_SYM &&
          body_keyword(x->first->sym)) {
        err(cv, x->first, "'not' applies to a sentence, not to '%s'",
            sym_text(ctx, x->first->sym));
        return;
      }
      l.kind = L_NEG;
      cv->reading = 1;
      l.a = conv_atom(cv, x, &l.rel);
      cv->reading = 0;
      if (l.a)
        push_alt(ctx, slot, &l);
      return;
    }
    case S_DISTINCT:
      if (n->n != 3) {
        err(cv, n, "'distinct' takes 2 arguments%s", "");
        return;
      }
      l.kind = L_DISTINCT;
      l.a = conv_term(cv, h->next);
      l.b = conv_term(cv, h->next->next);
      if (l.a && l.b)
        push_alt(ctx, slot, &l);
      return;
    case S_OR: {
      const gdl_node *d;
      if (n->n == 1) {
        err(cv, n, "empty (or): a disjunction needs at least one "
            "literal%s", "");
        return;
      }
      for (d = h->next; d; d = d->next)
        conv_literal(cv, d, slot);
      return;
    }
    default:
      err(cv, h, "'<=' cannot be used inside a rule%s", "");
      return;
    }
  }
  l.kind = L_POS;
  cv->reading = 1;
  l.a = conv_atom(cv, n, &l.rel);
  cv->reading = 0;
  if (l.a)
    push_alt(ctx, slot, &l);
}

/* ---- safety ----------------------------------------------------------- */

static const gdl_node *find_var(const gdl_node *n, uint32_t sym)
{
  const gdl_node *c, *f;
  if (n->kind == N_VAR)
    return n->sym == sym ? n : NULL;
  if (n->kind != N_LIST)
    return NULL;
  for (c = n->first; c; c = c->next)
    if ((f = find_var(c, sym)) != NULL)
      return f;
  return NULL;
}

/* Reports the variables of t not in `bound`; returns 1 if any. */
static int unbound(gdl_ctx *ctx, const rule_t *r, gdl_term t,
                   const gdl_node *src, const uint8_t *bound,
                   const uint8_t *anywhere, const char *what)
{
  uint8_t mark[256], *m = mark;
  uint32_t v, *bvars = NULL;
  int bad = 0;
  if (r->nvars > sizeof mark)
    m = ctx_alloc(ctx, r->nvars);
  memset(m, 0, r->nvars);
  term_vars(ctx, t, m);
  for (v = 0; v < r->nvars; v++) {
    const gdl_node *at;
    if (!m[v] || bound[v])
      continue;
    at = find_var(src, r->varnames[v]);
    if (!at)
      at = src;
    if (anywhere[v]) {
      diag_add(ctx, SEV_ERROR, at->file, at->start, at->end,
               "unsafe rule: variable %s %s is bound in some disjuncts of "
               "an 'or' but not in all of them",
               infix_var_shown(ctx, at->file, r->varnames[v]), what);
    } else {
      /* a slip for a variable that is bound? */
      uint32_t w, n = 0, meant;
      char name[256], hint[300] = "";
      if (!bvars)
        bvars = ctx_alloc(ctx, r->nvars * sizeof *bvars);
      for (w = 0; w < r->nvars; w++)
        if (bound[w])
          bvars[n++] = r->varnames[w];
      meant = typo_var_meant(ctx, r->varnames[v], bvars, n);
      if (meant)
        snprintf(hint, sizeof hint, "; did you mean %.256s?",
                 infix_var_shown(ctx, at->file, meant));
      snprintf(name, sizeof name, "%s",
               infix_var_shown(ctx, at->file, r->varnames[v]));
      diag_add(ctx, SEV_ERROR, at->file, at->start, at->end,
               "unsafe rule: variable %s %s is not bound by a positive "
               "literal of the body%s", name, what, hint);
    }
    bad = 1;
  }
  if (m != mark)
    ctx_free(ctx, m);
  ctx_free(ctx, bvars);
  return bad;
}

/* `anywhere`: variables some alternative of the source rule binds. */
static int check_safety(gdl_ctx *ctx, const rule_t *r, const uint8_t *anywhere)
{
  uint8_t *bound = ctx_alloc(ctx, r->nvars + 1);
  uint32_t i;
  int bad = 0;
  for (i = 0; i < r->nbody; i++)
    if (r->body[i].kind == L_POS)
      term_vars(ctx, r->body[i].a, bound);
  bad |= unbound(ctx, r, r->head, r->hsrc, bound, anywhere, "of the head");
  for (i = 0; i < r->nbody; i++) {
    const lit_t *l = &r->body[i];
    switch (l->kind) {
    case L_NEG:
      bad |= unbound(ctx, r, l->a, l->src, bound, anywhere, "under 'not'");
      break;
    case L_DISTINCT:
    case L_EQUAL:
      bad |= unbound(ctx, r, l->a, l->src, bound, anywhere,
                     "in 'distinct'");
      bad |= unbound(ctx, r, l->b, l->src, bound, anywhere,
                     "in 'distinct'");
      break;
    }
  }
  ctx_free(ctx, bound);
  return bad;
}

/* ---- forms into rules ------------------------------------------------- */

static rule_t *new_rule(gdl_ctx *ctx)
{
  rule_t *r;
  GROW(ctx, ctx->rules, ctx->rulecap, ctx->nrules);
  r = &ctx->rules[ctx->nrules++];
  memset(r, 0, sizeof *r);
  return r;
}

static void conv_fact(conv_t *cv, const gdl_node *n)
{
  gdl_ctx *ctx = cv->ctx;
  uint32_t rel = 0;
  gdl_term t;
  rule_t *r;
  if (n->kind == N_LIST && n->first && n->first->kind == N_SYM &&
      body_keyword(n->first->sym)) {
    err(cv, n, "'%s' can only be used in the body of a rule",
        sym_text(ctx, n->first->sym));
    return;
  }
  cv->allow_vars = 0;
  cv->in_fact = 1;
  t = conv_atom(cv, n, &rel);
  cv->in_fact = 0;
  if (!t)
    return;
  if (ctx->rels[rel].sym == S_TRUE || ctx->rels[rel].sym == S_DOES) {
    err(cv, n, "'%s' cannot be a fact: it is given by the state and the "
        "moves", sym_text(ctx, ctx->rels[rel].sym));
    return;
  }
  r = new_rule(ctx);
  r->rel = rel;
  r->head = t;
  r->src = r->hsrc = n;
  ctx->rels[rel].defined = 1;
}

static void conv_rule(conv_t *cv, const gdl_node *n)
{
  gdl_ctx *ctx = cv->ctx;
  const gdl_node *h = n->first->next, *b;
  slot_t *slots;
  uint32_t nslots = 0, rel = 0, i, total = 1, combo, *pick;
  uint8_t *anywhere;
  gdl_term head;
  if (!h) {
    err(cv, n, "a rule needs a head: (<= HEAD BODY...)%s", "");
    return;
  }
  cv->allow_vars = 1;
  cv->nvars = 0;
  if (h->kind == N_LIST && h->first && h->first->kind == N_SYM &&
      body_keyword(h->first->sym)) {
    err(cv, h->first, "'%s' cannot be the head of a rule",
        sym_text(ctx, h->first->sym));
    return;
  }
  head = conv_atom(cv, h, &rel);
  if (head && (ctx->rels[rel].sym == S_TRUE || ctx->rels[rel].sym == S_DOES))
    err(cv, h, "'%s' cannot be the head of a rule: it is given by the state "
        "and the moves", sym_text(ctx, ctx->rels[rel].sym));
  slots = ctx_alloc(ctx, (n->n + 1) * sizeof *slots);
  for (b = h->next; b; b = b->next) {
    conv_literal(cv, b, &slots[nslots]);
    if (slots[nslots].n == 0)
      continue;            /* an error was reported */
    if (total <= MAX_EXPANSION)
      total *= slots[nslots].n;
    nslots++;
  }
  if (n->n == 2)
    diag_add(ctx, SEV_WARNING, n->file, n->start, n->end,
             "rule with an empty body: write the head as a fact");
  if (cv->bad || !head)
    goto out;
  if (total > MAX_EXPANSION) {
    err(cv, n, "the disjunctions of this rule expand to more than 4096 "
        "rules%s", "");
    goto out;
  }
  ctx->rels[rel].defined = 1;
  /* the variables any alternative binds, to explain `or` safety errors */
  anywhere = ctx_alloc(ctx, cv->nvars + 1);
  for (i = 0; i < nslots; i++) {
    uint32_t k;
    for (k = 0; k < slots[i].n; k++)
      if (slots[i].alts[k].kind == L_POS)
        term_vars(ctx, slots[i].alts[k].a, anywhere);
  }
  pick = ctx_alloc(ctx, (nslots + 1) * sizeof *pick);
  for (combo = 0; combo < total; combo++) {
    rule_t *r = new_rule(ctx);
    r->rel = rel;
    r->head = head;
    r->src = n;
    r->hsrc = h;
    r->nvars = cv->nvars;
    r->varnames = ctx_arena(ctx, (cv->nvars + 1) * sizeof *r->varnames);
    if (cv->nvars)
      COPY(r->varnames, cv->vars, cv->nvars * sizeof *r->varnames);
    r->nbody = nslots;
    r->body = ctx_arena(ctx, (nslots + 1) * sizeof *r->body);
    for (i = 0; i < nslots; i++)
      r->body[i] = slots[i].alts[pick[i]];
    if (check_safety(ctx, r, anywhere)) {
      ctx->nrules--;
      cv->bad = 1;
    }
    for (i = 0; i < nslots && ++pick[i] == slots[i].n; i++)
      pick[i] = 0;
  }
  ctx_free(ctx, pick);
  ctx_free(ctx, anywhere);
out:
  for (i = 0; i <= nslots && i < n->n + 1; i++)
    ctx_free(ctx, slots[i].alts);
  ctx_free(ctx, slots);
}

static void conv_form(conv_t *cv, const gdl_node *n)
{
  gdl_ctx *ctx = cv->ctx;
  cv->bad = 0;
  if (n->kind == N_VAR) {
    err(cv, n, "a variable cannot stand alone at the top level (%s)",
        sym_text(ctx, n->sym));
    return;
  }
  if (n->kind == N_LIST && n->first && n->first->kind == N_SYM &&
      n->first->sym == S_IMPLIES) {
    conv_rule(cv, n);
    return;
  }
  conv_fact(cv, n);
}


/* " and N other places" after the place of the arity meant, when it is
 * used more than once. */
static void other_places(char *buf, size_t len, uint32_t count)
{
  if (count > 1)
    snprintf(buf, len, " and in %u other place%s", count - 1,
             count == 2 ? "" : "s");
  else
    buf[0] = 0;
}

/* The names used as relations with several arities: the arity used most
 * is meant (of those used as often, the one used first), and each use
 * with another is reported at its place, naming the first place of the
 * arity meant.  An error when a rule uses the name; when only facts do,
 * a warning, and the facts are kept as relations of their arities. */
static void check_arities(conv_t *cv)
{
  gdl_ctx *ctx = cv->ctx;
  uint32_t i, *meant = NULL, *count = NULL;
  const gdl_node **where = NULL;
  struct { uint32_t arity, n; const gdl_node *at; } *tally = NULL;
  uint32_t tallycap = 0;
  for (i = 0; i < cv->nuses; i++) {
    uint32_t sym = cv->uses[i].sym, k, nt = 0, u, best = 0;
    if (!cv->relmixed[sym] || cv->relfirst[sym] != i + 1)
      continue;                    /* weighed at its first use */
    if (!meant) {
      meant = ctx_alloc(ctx, ctx->nsyms * sizeof *meant);
      count = ctx_alloc(ctx, ctx->nsyms * sizeof *count);
      where = ctx_alloc(ctx, ctx->nsyms * sizeof *where);
    }
    for (u = i + 1; u; u = cv->uses[u - 1].next) {
      const reluse_t *x = &cv->uses[u - 1];
      for (k = 0; k < nt && tally[k].arity != x->arity; k++)
        ;
      if (k == nt) {
        GROW(ctx, tally, tallycap, nt);
        tally[nt].arity = x->arity;
        tally[nt].n = 0;
        tally[nt].at = x->at;
        nt++;
      }
      tally[k].n++;
    }
    for (k = 1; k < nt; k++)       /* in order of first use: ties go first */
      if (tally[k].n > tally[best].n)
        best = k;
    meant[sym] = tally[best].arity + 1;
    count[sym] = tally[best].n;
    where[sym] = tally[best].at;
  }
  for (i = 0; i < cv->nuses; i++) {
    const reluse_t *x = &cv->uses[i];
    uint32_t sym = x->sym, a = meant ? meant[sym] : 0;
    char w[300], more[40];
    if (!cv->relmixed[sym] || x->arity + 1 == a)
      continue;
    node_where(ctx, where[sym], w, sizeof w);
    other_places(more, sizeof more, count[sym]);
    if (cv->relrule[sym]) {
      diag_add(ctx, SEV_ERROR, x->at->file, x->at->start, x->at->end,
               "relation '%s' is used with %u argument%s here but with %u "
               "at %s%s", sym_text(ctx, sym), x->arity,
               x->arity == 1 ? "" : "s", a - 1, w, more);
    } else {
      /* only facts disagree: nothing reads them as one relation */
      diag_add(ctx, SEV_WARNING, x->at->file, x->at->start, x->at->end,
               "relation '%s' has %u argument%s here but %u at %s%s; the "
               "facts are kept as two relations", sym_text(ctx, sym),
               x->arity, x->arity == 1 ? "" : "s", a - 1, w, more);
    }
  }
  ctx_free(ctx, meant);
  ctx_free(ctx, count);
  ctx_free(ctx, where);
  ctx_free(ctx, tally);
}

static void check_game(gdl_ctx *ctx)
{
  static const uint32_t need[] = { S_ROLE, S_LEGAL, S_GOAL, S_TERMINAL };
  uint32_t i, j;
  int mentioned = ctx->game_words;
  ctx->is_game = 1;
  for (j = 0; j < sizeof need / sizeof *need; j++) {
    int found = 0;
    for (i = 0; i < ctx->nrels; i++)
      if (ctx->rels[i].sym == need[j] && ctx->rels[i].defined)
        found = 1;
    if (found)
      continue;
    ctx->is_game = 0;
    if (mentioned)
      diag_add(ctx, SEV_ERROR, 0, UINT32_MAX, UINT32_MAX,
               "this is a game description (it uses GDL's game keywords) "
               "but nothing defines '%s'", sym_text(ctx, need[j]));
    else if (!ctx->not_game[0])
      snprintf(ctx->not_game, sizeof ctx->not_game, "not a game: nothing "
               "defines '%s' (a plain rule base: ask it with gdl query)",
               sym_text(ctx, need[j]));
  }
}

/* ---- public ----------------------------------------------------------- */

static void keyword_rels(gdl_ctx *ctx)
{
  ctx->r_role = rel_get(ctx, S_ROLE, 1);
  ctx->r_init = rel_get(ctx, S_INIT, 1);
  ctx->r_true = rel_get(ctx, S_TRUE, 1);
  ctx->r_does = rel_get(ctx, S_DOES, 2);
  ctx->r_legal = rel_get(ctx, S_LEGAL, 2);
  ctx->r_next = rel_get(ctx, S_NEXT, 1);
  ctx->r_goal = rel_get(ctx, S_GOAL, 2);
  ctx->r_terminal = rel_get(ctx, S_TERMINAL, 0);
}

static void conv_begin(gdl_ctx *ctx, conv_t *cv, unsigned flags)
{
  memset(cv, 0, sizeof *cv);
  cv->ctx = ctx;
  cv->flags = flags;
  cv->relar = ctx_alloc(ctx, ctx->nsyms * sizeof *cv->relar);
  cv->relmixed = ctx_alloc(ctx, ctx->nsyms);
  cv->relfirst = ctx_alloc(ctx, ctx->nsyms * sizeof *cv->relfirst);
  cv->rellast = ctx_alloc(ctx, ctx->nsyms * sizeof *cv->rellast);
  cv->seen = ctx_alloc(ctx, ctx->nsyms * sizeof *cv->seen);
  cv->nseen = ctx->nsyms;
  cv->fnar = ctx_alloc(ctx, ctx->nsyms * sizeof *cv->fnar);
  cv->fnwarned = ctx_alloc(ctx, ctx->nsyms);
  cv->relrule = ctx_alloc(ctx, ctx->nsyms);
}

static void conv_end(gdl_ctx *ctx, conv_t *cv)
{
  ctx_free(ctx, cv->relar);
  ctx_free(ctx, cv->relmixed);
  ctx_free(ctx, cv->relfirst);
  ctx_free(ctx, cv->rellast);
  ctx_free(ctx, cv->uses);
  ctx_free(ctx, cv->seen);
  ctx_free(ctx, cv->fnar);
  ctx_free(ctx, cv->fnwarned);
  ctx_free(ctx, cv->relrule);
  ctx_free(ctx, cv->vars);
}

/* Everything loaded made into the checked program (see core.h). */
gdl_status check_program(gdl_ctx *ctx, unsigned flags)
{
  conv_t cv;
  const gdl_node *n;
  uint32_t first;
  PROTECT(ctx);
  if (ctx->compiled)
    ctx_throw(ctx, GDL_EINPUT, "the description is already compiled");
  if (ctx->nerrors) {
    UNPROTECT(ctx);
    ctx_setmsg(ctx, "the description has errors");
    return GDL_EINPUT;
  }
  conv_begin(ctx, &cv, flags);
  first = ctx->ndiags;
  for (n = ctx->forms.first; n; n = n->next)
    conv_form(&cv, n);
  check_arities(&cv);
  diag_sort(ctx, first);        /* the arities' among the forms' */
  ctx->game_words = cv.game_words;
  keyword_rels(ctx);
  if (!ctx->nerrors) {
    strata_build(ctx);
    typos_report(ctx, cv.seen, cv.nseen);
    if (ctx->nfiles)
      check_game(ctx);
  }
  conv_end(ctx, &cv);
  if (ctx->nerrors) {
    UNPROTECT(ctx);
    ctx_setmsg(ctx, "the description has errors");
    return GDL_EINPUT;
  }
  UNPROTECT(ctx);
  return GDL_OK;
}

int gdl_is_game(const gdl_ctx *ctx) { return ctx->is_game; }
const char *gdl_not_game_reason(const gdl_ctx *ctx)
{
  return ctx->is_game ? NULL : ctx->not_game;
}

/* Terms given outside the description (moves, questions). */
gdl_status gdl_parse_terms(gdl_ctx *ctx, const char *label, const char *text,
                           int allow_vars, gdl_term **out, size_t *n);
gdl_status gdl_parse_terms(gdl_ctx *ctx, const char *label, const char *text,
                           int allow_vars, gdl_term **out, size_t *n)
{
  conv_t cv;
  gdl_node *forms;
  const gdl_node *f;
  uint32_t file, before = (uint32_t)ctx->nerrors, i = 0;
  PROTECT(ctx);
  file = load_add_file(ctx, label, text, strlen(text));
  ctx->files[file].alone = 1;      /* a `;#include` here names nothing */
  ctx->files[file].infix = infix_terms_text(ctx, text);
  forms = load_parse(ctx, file);
  *out = ctx_arena(ctx, (forms->n + 1) * sizeof **out);
  *n = 0;
  conv_begin(ctx, &cv, 0);
  cv.allow_vars = allow_vars;
  for (f = forms->first; f; f = f->next) {
    gdl_term t = conv_term(&cv, f);
    if (t)
      (*out)[i++] = t;
  }
  ctx->naskedvars = 0;
  if (cv.nvars) {
    GROW(ctx, ctx->askedvars, ctx->askedvarcap, cv.nvars);
    COPY(ctx->askedvars, cv.vars, cv.nvars * sizeof *ctx->askedvars);
  }
  ctx->naskedvars = cv.nvars;
  conv_end(ctx, &cv);
  *n = i;
  UNPROTECT(ctx);
  if (ctx->nerrors > before) {
    ctx_setmsg(ctx, "bad %s", label);
    return GDL_EINPUT;
  }
  return GDL_OK;
}

gdl_status gdl_parse_term(gdl_ctx *ctx, const char *text, int allow_vars,
                          gdl_term *out)
{
  gdl_term *ts;
  size_t n;
  gdl_status st = gdl_parse_terms(ctx, "<term>", text, allow_vars, &ts, &n);
  if (st != GDL_OK)
    return st;
  if (n != 1) {
    ctx_setmsg(ctx, "expected one term, found %zu", n);
    return GDL_EINPUT;
  }
  *out = ts[0];
  return GDL_OK;
}
