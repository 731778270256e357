/*
 * teach.c - showing the evaluation to a person: forward chaining round by
 * round (gdl_trace), and why a fact holds or does not (gdl_explain).
 *
 * Both evaluate the current state again from nothing, with every relation
 * materialised (no lazy ones) and a tracer watching eval.c's rule
 * instances.  The trace writes each instance as it is found.  explain
 * keeps, for each fact, the first instance that derived it: the facts in
 * that instance's body were all derived before it, so following these
 * instances down gives a proof tree that never loops, however recursive
 * the rules.  When a fact does not hold, each rule whose head matches it is
 * searched again literal by literal, and the search that got furthest says
 * which literal fails.
 *
 * A rule is shown in the syntax of the file it was read from (KIF or
 * infix, infix.c writes the latter), its variables as the file named
 * them; a fact in that of the description, and the question with the
 * names it was asked with.  Facts are listed in the order gdl state lists
 * them (term_sort_text): the trace gathers what each rule derives in a
 * round and writes it sorted when the rule is done.
 */
#include <string.h>

#include "network/network.h"

/* A string literal into a buffer, its length counted by the compiler. */
#define SB_LIT(ctx, b, lit) sb_puts((ctx), (b), (lit), sizeof(lit) - 1)

typedef struct {
  strbuf_t *out;
  /* trace */
  int show;                  /* write each instance */
  const rule_t *last;        /* the rule whose instances are being listed */
  const scc_t *scc;          /* the stratum being evaluated */
  uint32_t *fired;           /* per rule: instances found */
  uint32_t stratum, lastrel;
  int empty_round;           /* a round heading with nothing under it yet */
  uint32_t derived, known;
  gdl_term *blk;             /* the heads the rule in hand derived in this
                                round, written sorted when it is done */
  uint32_t nblk, blkcap;
  uint8_t *blknew;           /* per term: new when derived in the block */
  uint32_t blknewcap;
  /* explain: per term, 1 + the index of its first derivation, or 0 */
  uint32_t *first, firstcap;
  uint32_t *rule;            /* per derivation: the rule */
  uint32_t *body;            /* per derivation: offset of its body terms */
  uint32_t nderiv, derivcap;
  gdl_term *terms;           /* two per body literal */
  uint32_t nterms, termcap;
  int state_failed;          /* why not: a literal that depends on the
                                state failed (another state may differ) */
} teach_t;

static teach_t *T_of(gdl_ctx *ctx)
{
  return (teach_t *)ctx->tracearg;
}

/* ---- writing ---------------------------------------------------------- */

/* Rules are written in the syntax of the file they were read from, KIF
 * or infix; facts in that of the description (its first file). */
static int rule_infix(const gdl_ctx *ctx, const rule_t *r)
{
  return r->src && ctx->files[r->src->file].infix;
}

static void put_term_in(gdl_ctx *ctx, strbuf_t *b, gdl_term t, int infix)
{
  if (infix)
    infix_term(ctx, b, t, NULL);
  else
    sb_term(ctx, b, t, NULL);
}

/* A fact, or the question as it was asked, in the description's syntax. */
static void put_term(gdl_ctx *ctx, strbuf_t *b, gdl_term t)
{
  term_put_asked(ctx, b, t, infix_described(ctx));
}

/* FILE:LINE of a source node. */
static void put_where(gdl_ctx *ctx, strbuf_t *b, const gdl_node *n)
{
  uint32_t line, col;
  if (!n) {
    SB_LIT(ctx, b, "?");
    return;
  }
  diag_where(ctx, n->file, n->start, &line, &col);
  sb_printf(ctx, b, "%s:%u", ctx->files[n->file].name, line);
}

/* A term of rule r with the bindings in ctx->bind put in where there are
 * some (inst = 1), variables written by name. */
static void put_rterm(gdl_ctx *ctx, strbuf_t *b, const rule_t *r, gdl_term t,
                      int inst)
{
  const term_t *x = &ctx->terms[t];
  int infix = rule_infix(ctx, r);
  uint32_t i;
  if (x->kind == T_VAR) {
    if (inst && ctx->bind[x->sym])
      put_term_in(ctx, b, ctx->bind[x->sym], infix);
    else if (infix)
      infix_term(ctx, b, t, r->varnames);
    else
      sb_term(ctx, b, t, r->varnames);
    return;
  }
  if (x->kind == T_SYM || x->ground) {
    put_term_in(ctx, b, t, infix);
    return;
  }
  if (infix) {
    infix_put_sym(ctx, b, x->sym);
    sb_putc(ctx, b, '(');
  } else {
    sb_putc(ctx, b, '(');
    sb_puts(ctx, b, sym_text(ctx, x->sym), sym_len(ctx, x->sym));
  }
  for (i = 0; i < x->arity; i++) {
    if (infix && i)
      sb_puts(ctx, b, ", ", 2);
    else if (!infix)
      sb_putc(ctx, b, ' ');
    put_rterm(ctx, b, r, TARG(ctx, t, i), inst);
  }
  sb_putc(ctx, b, ')');
}

static void put_lit(gdl_ctx *ctx, strbuf_t *b, const rule_t *r,
                    const lit_t *l, int inst)
{
  int infix = rule_infix(ctx, r);
  switch (l->kind) {
  case L_POS:
    put_rterm(ctx, b, r, l->a, inst);
    return;
  case L_NEG:
    if (infix)
      sb_putc(ctx, b, '~');
    else
      SB_LIT(ctx, b, "(not ");
    put_rterm(ctx, b, r, l->a, inst);
    if (!infix)
      sb_putc(ctx, b, ')');
    return;
  default:                       /* L_EQUAL comes from --clean */
    if (infix)
      sb_printf(ctx, b, "%sdistinct(", l->kind == L_DISTINCT ? "" : "~");
    else
      sb_printf(ctx, b, "%s", l->kind == L_DISTINCT ? "(distinct "
                                                    : "(not (distinct ");
    put_rterm(ctx, b, r, l->a, inst);
    sb_puts(ctx, b, infix ? ", " : " ", infix ? 2 : 1);
    put_rterm(ctx, b, r, l->b, inst);
    sb_printf(ctx, b, "%s", infix || l->kind == L_DISTINCT ? ")" : "))");
  }
}

/* The rule as one line of KIF (or infix), variables by name. */
static void put_rule(gdl_ctx *ctx, strbuf_t *b, const rule_t *r)
{
  uint32_t j;
  int infix = rule_infix(ctx, r);
  if (r->nbody == 0) {
    put_rterm(ctx, b, r, r->head, 0);
    return;
  }
  if (!infix)
    SB_LIT(ctx, b, "(<= ");
  put_rterm(ctx, b, r, r->head, 0);
  for (j = 0; j < r->nbody; j++) {
    if (infix)
      sb_puts(ctx, b, j ? " & " : " :- ", j ? 3 : 4);
    else
      sb_putc(ctx, b, ' ');
    put_lit(ctx, b, r, &r->body[j], 0);
  }
  if (!infix)
    sb_putc(ctx, b, ')');
}

static void indent(gdl_ctx *ctx, strbuf_t *b, unsigned n)
{
  while (n--)
    sb_putc(ctx, b, ' ');
}

static const char *phase_name(int phase)
{
  return phase == P_STATIC ? "static" : phase == P_STATE ? "state" : "move";
}

/* ---- the evaluation, watched ------------------------------------------ */

/* The facts the rule in hand derived in this round, sorted: `+` for the
 * one new, `=` for each time one was derived again. */
static void flush_block(gdl_ctx *ctx, teach_t *T)
{
  uint32_t i;
  term_sort_text(ctx, T->blk, T->nblk);
  for (i = 0; i < T->nblk; i++) {
    gdl_term h = T->blk[i];
    int isnew = h < T->blknewcap && T->blknew[h];
    if (isnew)
      T->blknew[h] = 0;
    sb_printf(ctx, T->out, "%s", isnew ? "      + " : "      = ");
    put_term(ctx, T->out, h);
    sb_putc(ctx, T->out, '\n');
  }
  T->nblk = 0;
}

/* A round that found no instance at all says so. */
static void close_round(gdl_ctx *ctx, teach_t *T)
{
  flush_block(ctx, T);
  if (T->empty_round)
    SB_LIT(ctx, T->out, "    (no instance: nothing derived)\n");
  T->empty_round = 0;
}

/* The rules of the stratum just evaluated that found no instance. */
static void show_rules_not_fired(gdl_ctx *ctx, teach_t *T)
{
  uint32_t i;
  if (!T->show || !T->scc)
    return;
  close_round(ctx, T);
  for (i = 0; i < T->scc->nrules; i++) {
    const rule_t *r = &ctx->rules[T->scc->rules[i]];
    if (T->fired[T->scc->rules[i]])
      continue;
    SB_LIT(ctx, T->out, "    rule ");
    put_where(ctx, T->out, r->src);
    SB_LIT(ctx, T->out, ": ");
    put_rule(ctx, T->out, r);
    SB_LIT(ctx, T->out, "\n      (no instance: nothing derived)\n");
  }
  T->scc = NULL;
}

static void on_round(gdl_ctx *ctx, const scc_t *s, unsigned round)
{
  teach_t *T = T_of(ctx);
  uint32_t i;
  if (!T->show)
    return;
  flush_block(ctx, T);
  T->last = NULL;
  if (round == 1)
    show_rules_not_fired(ctx, T);
  close_round(ctx, T);
  T->scc = s;
  if (round == 1 && !s->recursive && s->nrels == 1 &&
      T->lastrel == s->rels[0] + 1) {
    /* the next rule of the same relation: one stratum for the reader */
  } else if (round == 1) {
    T->lastrel = s->nrels == 1 && !s->recursive ? s->rels[0] + 1 : 0;
    sb_printf(ctx, T->out, "stratum %u (%s", ++T->stratum,
              phase_name(s->phase));
    if (s->recursive)
      SB_LIT(ctx, T->out, ", recursive");
    SB_LIT(ctx, T->out, "):");
    for (i = 0; i < s->nrels; i++) {
      const rel_t *R = &ctx->rels[s->rels[i]];
      sb_printf(ctx, T->out, " %s/%u", sym_text(ctx, R->sym), R->arity);
    }
    sb_putc(ctx, T->out, '\n');
  }
  if (s->recursive) {
    sb_printf(ctx, T->out, "  round %u%s\n", round,
              round == 1 ? ": every rule" : ": with the facts new in the "
                                           "round before");
    T->empty_round = round > 1;
  }
}

static void record(gdl_ctx *ctx, teach_t *T, const rule_t *r, gdl_term head)
{
  uint32_t j, k, cap = T->derivcap;
  GROW(ctx, T->first, T->firstcap, head);
  GROW(ctx, T->rule, T->derivcap, T->nderiv);
  if (T->derivcap != cap)
    T->body = ctx_realloc(ctx, T->body, T->derivcap * sizeof *T->body);
  k = T->nterms;
  if (T->nterms + 2 * r->nbody + 1 > T->termcap)
    GROW(ctx, T->terms, T->termcap, T->nterms + 2 * r->nbody + 1);
  for (j = 0; j < r->nbody; j++) {
    const lit_t *l = &r->body[j];
    T->terms[k++] = eval_subst(ctx, l->a, 1);
    T->terms[k++] = l->kind == L_DISTINCT || l->kind == L_EQUAL
                        ? eval_subst(ctx, l->b, 1) : 0;
  }
  T->rule[T->nderiv] = (uint32_t)(r - ctx->rules);
  T->body[T->nderiv] = T->nterms;
  T->nterms = k;
  T->first[head] = ++T->nderiv;
}

static void on_fact(gdl_ctx *ctx, const rule_t *r, gdl_term head, int isnew)
{
  teach_t *T = T_of(ctx);
  T->fired[r - ctx->rules]++;
  if (isnew) {
    T->derived++;
    if (T->first)
      record(ctx, T, r, head);
  } else {
    T->known++;
  }
  if (!T->show)
    return;
  T->empty_round = 0;
  if (r != T->last) {
    flush_block(ctx, T);
    if (r->nbody == 0) {
      if (!T->last || T->last->nbody != 0)
        SB_LIT(ctx, T->out, "    facts as written:\n");
    } else {
      SB_LIT(ctx, T->out, "    rule ");
      put_where(ctx, T->out, r->src);
      SB_LIT(ctx, T->out, ": ");
      put_rule(ctx, T->out, r);
      sb_putc(ctx, T->out, '\n');
    }
    T->last = r;
  }
  GROW(ctx, T->blk, T->blkcap, T->nblk);
  T->blk[T->nblk++] = head;
  if (isnew) {
    GROW(ctx, T->blknew, T->blknewcap, head);
    T->blknew[head] = 1;
  }
}

/* The facts given to a phase (the state, the moves), sorted. */
static void given(gdl_ctx *ctx, teach_t *T, uint32_t rel, const char *what)
{
  const rel_t *R = &ctx->rels[rel];
  gdl_term *f;
  uint32_t i, n = R->n;
  if (!T->show)
    return;
  flush_block(ctx, T);
  f = ctx_alloc(ctx, (n + 1) * sizeof *f);
  COPY(f, R->facts, n * sizeof *f);
  term_sort_text(ctx, f, n);
  sb_printf(ctx, T->out, "%s: %u fact%s\n", what, n, n == 1 ? "" : "s");
  for (i = 0; i < n; i++) {
    SB_LIT(ctx, T->out, "      ");
    put_term(ctx, T->out, f[i]);
    sb_putc(ctx, T->out, '\n');
  }
  ctx_free(ctx, f);
}

static void banner(gdl_ctx *ctx, teach_t *T, const char *text)
{
  if (!T->show)
    return;
  flush_block(ctx, T);
  sb_printf(ctx, T->out, "\n== %s ==\n", text);
}

/* How to give the moves that the relations of the move phase (next)
 * need, after `lead`: "Give one move per role with --does, e.g. --does
 * 'M'.", the first legal move of each role as the example; or, in a
 * terminal state, that no move can be played.  Reads the state's legal
 * and terminal facts: the state phase is evaluated. */
static void moves_hint(gdl_ctx *ctx, strbuf_t *b, const char *lead)
{
  const rel_t *L = &ctx->rels[ctx->r_legal];
  int infix = infix_described(ctx);
  uint32_t i, r;
  size_t at;
  sb_printf(ctx, b, "%s", lead);
  if (ctx->rels[ctx->r_terminal].n) {
    SB_LIT(ctx, b, "The state is terminal: no move can be played in it.\n");
    return;
  }
  SB_LIT(ctx, b, "Give one move per role with --does");
  at = b->n;
  SB_LIT(ctx, b, ", e.g. --does '");
  for (r = 0; r < ctx->nroles; r++) {
    gdl_term best = 0;
    for (i = 0; i < L->n; i++) {
      gdl_term f = L->facts[i], m = TARG(ctx, f, 1);
      if (TARG(ctx, f, 0) == ctx->roles[r] &&
          (!best || gdl_term_cmp(ctx, m, best) < 0))
        best = m;
    }
    if (!best)                     /* a role with no move: no example */
      break;
    if (r)
      sb_putc(ctx, b, ' ');
    put_term_in(ctx, b, best, infix);
  }
  if (r < ctx->nroles || r == 0) {
    b->n = (uint32_t)at;
    b->s[at] = 0;
  } else {
    sb_putc(ctx, b, '\'');
  }
  SB_LIT(ctx, b, ".\n");
}

/* The trace of a game with no move given: the relations of the move
 * phase, in evaluation order, are left out, and how to give a move. */
static void left_out(gdl_ctx *ctx, teach_t *T)
{
  uint8_t *listed = ctx_alloc(ctx, ctx->nrels + 1);
  uint32_t i, j, n = 0;
  for (i = 0; i < ctx->nsccs; i++) {
    const scc_t *sc = &ctx->sccs[i];
    if (sc->phase != P_MOVE || sc->nrules == 0)
      continue;
    for (j = 0; j < sc->nrels; j++) {
      const rel_t *R = &ctx->rels[sc->rels[j]];
      if (listed[sc->rels[j]])
        continue;
      listed[sc->rels[j]] = 1;
      if (n++ == 0) {
        banner(ctx, T, "move: what depends on the moves");
        SB_LIT(ctx, T->out, "left out without a move:");
      }
      sb_printf(ctx, T->out, " %s/%u", sym_text(ctx, R->sym), R->arity);
    }
  }
  ctx_free(ctx, listed);
  if (n) {
    sb_putc(ctx, T->out, '\n');
    moves_hint(ctx, T->out, "");
  }
}

/* Evaluates everything again from nothing with the tracer on: the static
 * relations, then (for a game with a state) the state's facts and what
 * depends on them, then (with moves) the moves and `next`. */
static void rerun(gdl_ctx *ctx, teach_t *T, const gdl_term *moves)
{
  static const tracer_t tracer = { on_round, on_fact };
  gdl_state s = { 0, 0, NULL };
  uint32_t i;
  if (ctx->have_state) {
    if (GROUND(ctx) && !ctx->db_state) {
      gdl_state_copy(ctx, &s, cur_state(ctx));
    } else {
      const rel_t *R = &ctx->rels[ctx->r_true];
      s.facts = ctx_alloc(ctx, (R->n + 1) * sizeof *s.facts);
      for (i = 0; i < R->n; i++)
        s.facts[s.n++] = TARG(ctx, R->facts[i], 0);
    }
  }
  for (i = 0; i < ctx->nrels; i++)   /* everything materialised */
    ctx->rels[i].lazy = 0;
  ctx->nlazy = 0;
  ctx->db_state = 0;
  eval_clear(ctx, P_STATIC);
  ctx->tracearg = T;
  ctx->tracer = &tracer;
  T->fired = ctx_alloc(ctx, (ctx->nrules + 1) * sizeof *T->fired);
  banner(ctx, T, "static: what does not depend on the state");
  eval_phase(ctx, P_STATIC);
  show_rules_not_fired(ctx, T);
  T->lastrel = 0;
  if (ctx->have_state) {
    banner(ctx, T, "state: what depends on the true facts");
    for (i = 0; i < s.n; i++) {
      gdl_term f = s.facts[i];
      eval_insert(ctx, ctx->r_true, term_fn(ctx, S_TRUE, 1, &f));
    }
    given(ctx, T, ctx->r_true, "the state (given)");
    eval_phase(ctx, P_STATE);
    show_rules_not_fired(ctx, T);
    T->lastrel = 0;
    ctx->db_state = 1;
    if (moves) {
      banner(ctx, T, "move: what depends on the moves");
      for (i = 0; i < ctx->nroles; i++) {
        gdl_term args[2];
        args[0] = ctx->roles[i];
        args[1] = moves[i];
        eval_insert(ctx, ctx->r_does, term_fn(ctx, S_DOES, 2, args));
      }
      given(ctx, T, ctx->r_does, "the moves (given)");
      eval_phase(ctx, P_MOVE);
      show_rules_not_fired(ctx, T);
    } else if (T->show && ctx->is_game) {
      left_out(ctx, T);
    }
  }
  ctx->tracer = NULL;
  ctx_free(ctx, T->fired);
  T->fired = NULL;
  ctx_free(ctx, T->blk);
  ctx_free(ctx, T->blknew);
  T->blk = NULL;
  T->blknew = NULL;
  T->nblk = T->blkcap = T->blknewcap = 0;
  gdl_state_release(ctx, &s);
}

static void need_compiled(gdl_ctx *ctx, const gdl_term *moves)
{
  uint32_t i;
  if (!ctx->compiled)
    ctx_throw(ctx, GDL_EINPUT, "no description compiled");
  if (moves && !ctx->have_state)
    ctx_throw(ctx, GDL_EINPUT, "moves need a game and a state");
  if (moves)
    for (i = 0; i < ctx->nroles; i++)
      if (!gdl_is_legal(ctx, i, moves[i]))
        ctx_throw(ctx, GDL_EINPUT, "%s is not a legal move for %s",
                  gdl_term_str(ctx, moves[i]),
                  sym_text(ctx, ctx->terms[ctx->roles[i]].sym));
}

/* The public entry points run the evaluation under a jump target of their
 * own, so that the tracer is switched off whatever happens. */
#define TEACH_PROTECT(ctx)                                               \
  jmp_buf jb_; jmp_buf *oldjb_ = (ctx)->jmp;                             \
  (ctx)->jmp = &jb_;                                                     \
  if (setjmp(jb_)) {                                                     \
    (ctx)->jmp = oldjb_;                                                 \
    (ctx)->tracer = NULL;                                                \
    return (ctx)->thrown;                                                \
  }

gdl_status gdl_trace(gdl_ctx *ctx, const gdl_term *moves, const char **text)
{
  teach_t T;
  TEACH_PROTECT(ctx);
  memset(&T, 0, sizeof T);
  need_compiled(ctx, moves);
  ctx->teachtext.n = 0;
  SB_LIT(ctx, &ctx->teachtext, "");
  T.out = &ctx->teachtext;
  T.show = 1;
  rerun(ctx, &T, moves);
  sb_printf(ctx, T.out, "\n%u facts derived in %u strata (%u derived again)\n",
            T.derived, T.stratum, T.known);
  *text = ctx->teachtext.s;
  UNPROTECT(ctx);
  return GDL_OK;
}

/* ---- explaining ------------------------------------------------------- */

/* Writes why the ground atom t holds, as a tree. */
static void why(gdl_ctx *ctx, teach_t *T, gdl_term t, unsigned depth,
                uint8_t *shown)
{
  strbuf_t *b = T->out;
  uint32_t d, j;
  int r = rel_find(ctx, ctx->terms[t].sym, term_arity(ctx, t));
  const rule_t *ru;
  const gdl_term *body;
  indent(ctx, b, 2 * depth);
  put_term(ctx, b, t);
  if (r == (int)ctx->r_true) {
    SB_LIT(ctx, b, "  <- in the state\n");
    return;
  }
  if (r == (int)ctx->r_does) {
    SB_LIT(ctx, b, "  <- the move played\n");
    return;
  }
  d = t < T->firstcap ? T->first[t] : 0;
  if (!d) {                        /* cannot happen: it holds */
    SB_LIT(ctx, b, "  <- (no derivation recorded)\n");
    return;
  }
  ru = &ctx->rules[T->rule[d - 1]];
  if (ru->nbody == 0) {
    SB_LIT(ctx, b, "  <- a fact, ");
    put_where(ctx, b, ru->src);
    sb_putc(ctx, b, '\n');
    return;
  }
  if (shown[t]) {
    SB_LIT(ctx, b, "  <- shown above\n");
    return;
  }
  shown[t] = 1;
  SB_LIT(ctx, b, "  <- rule ");
  put_where(ctx, b, ru->src);
  SB_LIT(ctx, b, ": ");
  put_rule(ctx, b, ru);
  sb_putc(ctx, b, '\n');
  body = T->terms + T->body[d - 1];
  for (j = 0; j < ru->nbody; j++) {
    const lit_t *l = &ru->body[j];
    gdl_term a = body[2 * j], c = body[2 * j + 1];
    if (l->kind == L_POS) {
      why(ctx, T, a, depth + 1, shown);
      continue;
    }
    indent(ctx, b, 2 * depth + 2);
    if (l->kind == L_NEG) {
      int infix = infix_described(ctx);
      sb_puts(ctx, b, infix ? "~" : "(not ", infix ? 1 : 5);
      put_term(ctx, b, a);
      sb_puts(ctx, b, infix ? "  <- " : ")  <- ", infix ? 5 : 6);
      put_term(ctx, b, a);
      SB_LIT(ctx, b, " does not hold\n");
    } else if (infix_described(ctx)) {
      sb_printf(ctx, b, "%sdistinct(", l->kind == L_DISTINCT ? "" : "~");
      put_term(ctx, b, a);
      sb_puts(ctx, b, ", ", 2);
      put_term(ctx, b, c);
      sb_printf(ctx, b, "%s", l->kind == L_DISTINCT ? ")  <- they differ\n"
                                                    : ")  <- they are "
                                                      "equal\n");
    } else {
      sb_printf(ctx, b, "%s", l->kind == L_DISTINCT ? "(distinct "
                                                    : "(not (distinct ");
      put_term(ctx, b, a);
      sb_putc(ctx, b, ' ');
      put_term(ctx, b, c);
      sb_printf(ctx, b, "%s", l->kind == L_DISTINCT ? ")  <- they differ\n"
                                                    : "))  <- they are "
                                                      "equal\n");
    }
  }
}

/* Searching a rule's body for the furthest it gets. */
typedef struct {
  const rule_t *r;
  const gdl_term *moves;       /* the moves given, or NULL */
  unsigned ind;                /* the report's indentation */
  uint8_t *done;               /* per literal: satisfied on this branch */
  uint32_t *order;             /* the literals satisfied, in order */
  uint32_t k;                  /* how many */
  long steps;
  int best;                    /* most literals satisfied on a branch */
  int success;
  gdl_term held;               /* the best branch failed on (not held) */
  gdl_term failed;             /* or on this atom of a positive literal,
                                  its variables bound as far as they were */
  uint32_t failrel;            /* that literal's relation */
  strbuf_t report;             /* what the best branch satisfied, and why
                                  it stopped */
} probe_t;

#define PROBE_STEPS 2000000

/* A positive literal can always be searched; `not` and `distinct` once
 * their variables are bound. */
static int lit_ready(gdl_ctx *ctx, const lit_t *l)
{
  return l->kind == L_POS ||
         (eval_subst(ctx, l->a, 1) &&
          (l->kind == L_NEG || eval_subst(ctx, l->b, 1)));
}

/* t with the bindings in ctx->bind put in, its unbound variables left. */
static gdl_term subst_partial(gdl_ctx *ctx, gdl_term t)
{
  gdl_term args[32] = { 0 }, *argv = args, r;
  uint32_t i, arity = ctx->terms[t].arity, sym = ctx->terms[t].sym;
  if (ctx->terms[t].ground)
    return t;
  if (ctx->terms[t].kind == T_VAR)
    return ctx->bind[sym] ? ctx->bind[sym] : t;
  if (arity > 32)
    argv = ctx_alloc(ctx, arity * sizeof *argv);
  for (i = 0; i < arity; i++)        /* (making terms moves ctx->terms) */
    argv[i] = subst_partial(ctx, TARG(ctx, t, i));
  r = term_fn(ctx, sym, arity, argv);
  if (argv != args)
    ctx_free(ctx, argv);
  return r;
}

/* A relation that rules derive (not only facts written, not a keyword the
 * state or the moves give), so that a literal of it that fails can be
 * explained by its rules. */
static int derived(const gdl_ctx *ctx, uint32_t rel, const gdl_term *moves)
{
  const rel_t *R = &ctx->rels[rel];
  return rel != ctx->r_true && rel != ctx->r_does && R->nrules > 0 &&
         (moves || R->phase != P_MOVE || !ctx->is_game);
}

/* Why no fact matches a positive literal of relation rel, in the words of
 * where such facts come from. */
static void pos_reason(gdl_ctx *ctx, strbuf_t *b, uint32_t rel,
                       const gdl_term *moves)
{
  const rel_t *R = &ctx->rels[rel];
  if (rel == ctx->r_true)
    SB_LIT(ctx, b, "not in the state");
  else if (rel == ctx->r_does)
    sb_printf(ctx, b, "%s", moves ? "not the move played"
                                  : "no move is played (give one per role "
                                    "with --does)");
  else if (R->nrules + R->nfactrules == 0)
    sb_printf(ctx, b, "no rule or fact defines %s/%u", sym_text(ctx, R->sym),
              R->arity);
  else if (R->nrules == 0)
    SB_LIT(ctx, b, "no fact written in the file matches");
  else if (!derived(ctx, rel, moves))
    SB_LIT(ctx, b, "it depends on the moves, and no move is played (give "
                   "one per role with --does)");
  else if (R->nfactrules)
    SB_LIT(ctx, b, "no fact written matches, and no rule derives it here");
  else
    SB_LIT(ctx, b, "no rule derives it here");
}

/* The best branch so far stops at literal l: what held on it, and why l
 * fails (why; NULL for a positive literal, whose reason pos_reason
 * gives). */
static void fail_here(gdl_ctx *ctx, probe_t *P, const lit_t *l,
                      const char *why)
{
  uint32_t i;
  strbuf_t *b = &P->report;
  if ((int)P->k <= P->best)
    return;
  P->best = (int)P->k;
  b->n = 0;
  SB_LIT(ctx, b, "");
  for (i = 0; i < P->k; i++) {
    indent(ctx, b, P->ind);
    SB_LIT(ctx, b, "holds: ");
    put_lit(ctx, b, P->r, &P->r->body[P->order[i]], 1);
    sb_putc(ctx, b, '\n');
  }
  indent(ctx, b, P->ind);
  SB_LIT(ctx, b, "fails: ");
  put_lit(ctx, b, P->r, l, 1);
  SB_LIT(ctx, b, "  <- ");
  P->held = l->kind == L_NEG ? eval_subst(ctx, l->a, 0) : 0;
  P->failed = l->kind == L_POS ? subst_partial(ctx, l->a) : 0;
  P->failrel = l->kind == L_POS || l->kind == L_NEG ? l->rel : UINT32_MAX;
  if (why)
    sb_printf(ctx, b, "%s", why);
  else
    pos_reason(ctx, b, l->rel, P->moves);
  sb_putc(ctx, b, '\n');
}

static void probe(gdl_ctx *ctx, probe_t *P)
{
  const rule_t *r = P->r;
  const lit_t *l = NULL;
  uint32_t j, li = 0, mark = ctx->ntrail;
  if (P->success || ++P->steps > PROBE_STEPS)
    return;
  for (j = 0; j < r->nbody && !l; j++)
    if (!P->done[j] && lit_ready(ctx, &r->body[j])) {
      l = &r->body[j];
      li = j;
    }
  if (!l) {
    for (j = 0; j < r->nbody; j++)
      if (!P->done[j])
        break;
    if (j == r->nbody)
      P->success = 1;
    return;
  }
  P->done[li] = 1;
  P->order[P->k++] = li;
  switch (l->kind) {
  case L_POS: {
    const rel_t *R = &ctx->rels[l->rel];
    uint32_t fi;
    int any = 0;
    for (fi = 0; fi < R->n && !P->success; fi++) {
      if (eval_match(ctx, l->a, R->facts[fi])) {
        any = 1;
        probe(ctx, P);
      }
      eval_undo(ctx, mark);
    }
    if (!any) {
      P->k--;
      fail_here(ctx, P, l, NULL);
      P->k++;
    }
    break;
  }
  case L_NEG: {
    gdl_term a = eval_subst(ctx, l->a, 0);
    if (a && ctx->present[a]) {
      P->k--;
      fail_here(ctx, P, l, "it holds");
      P->k++;
    } else {
      probe(ctx, P);
    }
    break;
  }
  default: {
    gdl_term a = eval_subst(ctx, l->a, 1), c = eval_subst(ctx, l->b, 1);
    if ((a != c) == (l->kind == L_DISTINCT)) {
      probe(ctx, P);
    } else {
      P->k--;
      fail_here(ctx, P, l, l->kind == L_DISTINCT ? "they are the same"
                                                 : "they differ");
      P->k++;
    }
  }
  }
  P->k--;
  P->done[li] = 0;
}

/* Matches a rule's head h with a question q that may have variables of
 * its own: they match anything, and only q's ground parts bind h's
 * variables. */
static int match_head(gdl_ctx *ctx, gdl_term h, gdl_term q)
{
  const term_t *th = &ctx->terms[h], *tq = &ctx->terms[q];
  uint32_t i;
  if (tq->ground && (th->ground || th->kind == T_VAR))
    return eval_match(ctx, h, q);
  if (tq->kind == T_VAR || th->kind == T_VAR)
    return 1;
  if (th->kind != tq->kind || th->sym != tq->sym || th->arity != tq->arity)
    return 0;
  for (i = 0; i < th->arity; i++)
    if (!match_head(ctx, TARG(ctx, h, i), TARG(ctx, q, i)))
      return 0;
  return 1;
}

/* For each rule of relation rel whose head matches q, the rule (its line
 * indented by ind), how far a search of its body got and the literal
 * that failed.  With `deeper`, the atom of a `not` that failed gets its
 * proof, and a positive literal of a relation that rules derive is
 * explained in turn by its rules, one level down (not deeper: a second
 * level is a second question). */
static void why_not_rules(gdl_ctx *ctx, teach_t *T, gdl_term q, uint32_t rel,
                          const gdl_term *moves, unsigned ind, int deeper,
                          uint8_t *shown)
{
  strbuf_t *b = T->out;
  uint32_t i, candidates = 0, rules = 0;
  probe_t P;
  memset(&P, 0, sizeof P);
  P.moves = moves;
  P.ind = ind + 2;
  for (i = 0; i < ctx->nrules; i++) {
    const rule_t *r = &ctx->rules[i];
    if (r->rel != rel)
      continue;
    rules++;
    memset(ctx->bind, 0, (r->nvars + 1) * sizeof *ctx->bind);
    ctx->ntrail = 0;
    if (!match_head(ctx, r->head, q))
      continue;
    candidates++;
    if (r->nbody == 0)
      continue;                    /* a fact that matches would hold */
    P.r = r;
    P.done = ctx_alloc(ctx, r->nbody + 1);
    P.order = ctx_alloc(ctx, (r->nbody + 1) * sizeof *P.order);
    P.k = 0;
    P.steps = 0;
    P.best = -1;
    P.success = 0;
    P.held = P.failed = 0;
    P.report.n = 0;
    probe(ctx, &P);
    indent(ctx, b, ind);
    SB_LIT(ctx, b, "rule ");
    put_where(ctx, b, r->src);
    SB_LIT(ctx, b, ": ");
    put_rule(ctx, b, r);
    sb_putc(ctx, b, '\n');
    if (P.success) {
      indent(ctx, b, ind + 2);
      SB_LIT(ctx, b, "its body holds, but not with a head that matches\n");
    } else if (P.best >= 0) {
      sb_puts(ctx, b, P.report.s, P.report.n);
    }
    if (deeper && !P.success && P.best >= 0) {
      if (P.failrel != UINT32_MAX && ctx->rels[P.failrel].phase != P_STATIC)
        T->state_failed = 1;
      if (P.held && ctx->present[P.held])
        why(ctx, T, P.held, (ind + 4) / 2, shown);
      else if (P.failed && derived(ctx, P.failrel, moves))
        why_not_rules(ctx, T, P.failed, P.failrel, moves, ind + 4, 0, shown);
    }
    if (P.steps > PROBE_STEPS) {
      indent(ctx, b, ind + 2);
      SB_LIT(ctx, b, "(the search of this rule stopped early: too many "
                     "instances)\n");
    }
    ctx_free(ctx, P.done);
    ctx_free(ctx, P.order);
  }
  ctx_free(ctx, P.report.s);
  if (candidates == 0) {
    indent(ctx, b, ind);
    sb_printf(ctx, b, "none of the %u rule%s and facts for %s/%u has a head "
              "that matches it\n", rules, rules == 1 ? "" : "s",
              sym_text(ctx, ctx->rels[rel].sym), ctx->rels[rel].arity);
  }
}

/* 1 when the state evaluated is the game's initial state. */
static int initial_state(gdl_ctx *ctx)
{
  const rel_t *I = &ctx->rels[ctx->r_init], *S = &ctx->rels[ctx->r_true];
  uint32_t i;
  if (I->n != S->n)
    return 0;
  for (i = 0; i < I->n; i++) {
    gdl_term f = TARG(ctx, I->facts[i], 0);
    gdl_term t = term_find(ctx, S_TRUE, 1, &f);
    if (!t || !ctx->present[t])
      return 0;
  }
  return 1;
}

static void why_not(gdl_ctx *ctx, teach_t *T, gdl_term q,
                    const gdl_term *moves, uint8_t *shown)
{
  strbuf_t *b = T->out;
  int rel = rel_find(ctx, ctx->terms[q].sym, term_arity(ctx, q));
  const rel_t *R;
  put_term(ctx, b, q);
  if (rel == (int)ctx->r_does || rel == (int)ctx->r_legal ||
      rel == (int)ctx->r_goal) {   /* a slip in the role, said first */
    size_t at = b->n;
    SB_LIT(ctx, b, " does not hold: ");
    if (role_note(ctx, q, b)) {
      SB_LIT(ctx, b, "\n");
      return;
    }
    b->n = (uint32_t)at;
    b->s[at] = 0;
  }
  if (rel == (int)ctx->r_true) {
    SB_LIT(ctx, b, " does not hold: it is not a fact of the state\n");
    return;
  }
  if (rel == (int)ctx->r_does && moves) {
    SB_LIT(ctx, b, " does not hold: it is not a move played\n");
    return;
  }
  if (rel == (int)ctx->r_does) {
    SB_LIT(ctx, b, " does not hold: no move is played.\n");
    moves_hint(ctx, b, "  ");
    return;
  }
  if (rel < 0 || ctx->rels[rel].nrules + ctx->rels[rel].nfactrules == 0) {
    sb_printf(ctx, b, " does not hold: no rule or fact defines %s/%u\n",
              sym_text(ctx, ctx->terms[q].sym), term_arity(ctx, q));
    return;
  }
  R = &ctx->rels[rel];
  if (!derived(ctx, (uint32_t)rel, moves) && R->nrules) {
    sb_printf(ctx, b, " does not hold: nothing about %s/%u is derived "
              "without a move.\n", sym_text(ctx, R->sym), R->arity);
    moves_hint(ctx, b, "  ");
    return;
  }
  if (R->nrules == 0)
    sb_printf(ctx, b, " does not hold: none of the %u fact%s written for "
              "%s/%u matches it\n", R->nfactrules,
              R->nfactrules == 1 ? "" : "s", sym_text(ctx, R->sym),
              R->arity);
  else {
    SB_LIT(ctx, b, " does not hold.\n");
    why_not_rules(ctx, T, q, (uint32_t)rel, moves, 2, 1, shown);
  }
  if (rel == (int)ctx->r_legal && ctx->is_game && T->state_failed &&
      initial_state(ctx))
    SB_LIT(ctx, b, "  (in the initial state: --moves M asks after the moves "
                   "M)\n");
}

static void explain(gdl_ctx *ctx, gdl_term fact, const gdl_term *moves,
                    int *holds)
{
  teach_t T;
  uint8_t *shown;
  gdl_term *inst = NULL;
  uint32_t i, n = 0;
  int rel;
  memset(&T, 0, sizeof T);
  need_compiled(ctx, moves);
  if (ctx->terms[fact].kind == T_VAR)
    ctx_throw(ctx, GDL_EINPUT, "a fact to explain must name a relation");
  /* (the evaluation below makes terms: no pointer into ctx->terms lives
   * across it) */
  ctx->teachtext.n = 0;
  SB_LIT(ctx, &ctx->teachtext, "");
  T.out = &ctx->teachtext;
  GROW(ctx, T.first, T.firstcap, 0);
  rerun(ctx, &T, moves);
  *holds = 0;
  rel = rel_find(ctx, ctx->terms[fact].sym, term_arity(ctx, fact));
  shown = ctx_alloc(ctx, ctx->nterms + 1);
  if (rel >= 0) {                  /* the instances that hold, sorted */
    const rel_t *R = &ctx->rels[rel];
    inst = ctx_alloc(ctx, (R->n + 1) * sizeof *inst);
    eval_reserve(ctx, term_max_var(ctx, fact) + 1);
    for (i = 0; i < R->n; i++) {
      memset(ctx->bind, 0, ctx->bindcap * sizeof *ctx->bind);
      ctx->ntrail = 0;
      if (eval_match(ctx, fact, R->facts[i]))
        inst[n++] = R->facts[i];
    }
    term_sort_text(ctx, inst, n);
  }
  for (i = 0; i < n && i < 20; i++) {
    if (i)
      sb_putc(ctx, T.out, '\n');
    why(ctx, &T, inst[i], 0, shown);
  }
  if (n > 20)
    sb_printf(ctx, T.out, "\n(%u more instances hold; ask for one of them)\n",
              n - 20);
  *holds = n > 0;
  if (!n)
    why_not(ctx, &T, fact, moves, shown);
  ctx_free(ctx, inst);
  ctx_free(ctx, shown);
  ctx_free(ctx, T.first);
  ctx_free(ctx, T.rule);
  ctx_free(ctx, T.body);
  ctx_free(ctx, T.terms);
}

gdl_status gdl_explain(gdl_ctx *ctx, gdl_term fact, const gdl_term *moves,
                       int *holds, const char **text)
{
  TEACH_PROTECT(ctx);
  explain(ctx, fact, moves, holds);
  *text = ctx->teachtext.s;
  UNPROTECT(ctx);
  return GDL_OK;
}
