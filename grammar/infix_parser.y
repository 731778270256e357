/*
 * infix_parser.y - infix GDL sentences into the same tree of gdl_node the
 * KIF parser builds (a pure, reentrant bison parser, prefix infix_):
 *
 *   sentence:  literal  |  term ":-" literal "&" literal ...   [ "." ]
 *   literal:   term  |  "~" literal
 *   term:      constant  |  variable  |  constant "(" [ literal "," ... ] ")"
 *
 * A sentence needs no terminator: a new one starts where a literal is
 * followed by neither "&" nor ":-" (a constant or a variable after a
 * complete sentence), so a rule may run over as many lines as it likes.
 * The nodes made: p(a,b) is the list (p a b), p() the list (p), a bare p
 * the symbol p, ~L the list (not L), and h :- b1 & b2 the list (<= h b1
 * b2), each with the span of its text; the <= and not symbols have the
 * span of the ':-' and '~' tokens.
 *
 * Syntax errors are reported with what was found and what was expected;
 * then the tokens up to the next one that starts a line are dropped (a
 * sentence usually starts a line), so one slip gives one message.
 */
%code requires {
#include <stddef.h>
#include "infix.h"
typedef void *yyscan_t;
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                      \
  do {                                                                   \
    if (N) {                                                             \
      (Cur).start = YYRHSLOC(Rhs, 1).start;                              \
      (Cur).end = YYRHSLOC(Rhs, N).end;                                  \
    } else {                                                             \
      (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;                    \
    }                                                                    \
  } while (0)
}

%code provides {
int infix_lex_next(INFIX_STYPE *lval, INFIX_LTYPE *lloc, yyscan_t scanner);
}

%code {
#include <stdio.h>
#include <string.h>
#include "infix_lexer.h"
#define infix_lex infix_lex_next

static void infix_error(INFIX_LTYPE *loc, yyscan_t scanner, gdl_node *forms,
                        const char *msg);

static void append(gdl_node *list, gdl_node *child)
{
  if (list->last)
    list->last->next = child;
  else
    list->first = child;
  list->last = child;
  list->n++;
}

static struct gdl_infix_state *state(yyscan_t scanner)
{
  return infix_get_extra(scanner);
}

/* A list node of the given children (a, then b when not NULL). */
static gdl_node *list2(yyscan_t scanner, gdl_node *a, gdl_node *b,
                       uint32_t start, uint32_t end)
{
  struct gdl_infix_state *ls = state(scanner);
  gdl_node *n = gdl_ast_new(ls->ctx, N_LIST, ls->file, start, end);
  append(n, a);
  if (b)
    append(n, b);
  return n;
}

static gdl_node *keyword(yyscan_t scanner, const char *word, gdl_loc at)
{
  struct gdl_infix_state *ls = state(scanner);
  gdl_node *n = gdl_ast_new(ls->ctx, N_SYM, ls->file, at.start, at.end);
  n->sym = gdl_ast_intern(ls->ctx, word, strlen(word), 1);
  return n;
}

static int starts_line(const struct gdl_infix_state *ls, uint32_t off)
{
  return off == 0 || ls->text[off - 1] == '\n';
}

static int same_line(const struct gdl_infix_state *ls, uint32_t from,
                     uint32_t to)
{
  return memchr(ls->text + from, '\n', to - from) == NULL;
}

/* A sentence read: appended to the forms, after the test for a '&' left
 * out between two literals of a rule, which would make the second literal
 * a sentence of its own: it starts on the line where the rule ends, or on
 * an indented line right after it. */
static void sentence(yyscan_t scanner, gdl_node *forms, gdl_node *s,
                     int rule, int dot)
{
  struct gdl_infix_state *ls = state(scanner);
  if (ls->have_prev && ls->prev_rule && !ls->prev_dot &&
      (same_line(ls, ls->prev_end, s->start) || !starts_line(ls, s->start)))
    gdl_ast_error(ls->ctx, ls->file, s->start, s->end,
                  "missing '&'? this literal follows a rule's last "
                  "literal with no '&' between them, so it starts a new "
                  "sentence (end the rule with '.' if that is meant)");
  ls->have_prev = 1;
  ls->prev_rule = rule;
  ls->prev_dot = dot;
  ls->prev_end = s->end;
  append(forms, s);
}
}

%define api.pure full
%define api.prefix {infix_}
%define api.location.type {gdl_loc}
%define parse.error custom
%locations
%param {yyscan_t scanner}
%parse-param {gdl_node *forms}
%expect 0

%union { gdl_node *node; }

%token <node> CONSTANT "constant" VARIABLE "variable"
%token LPAREN "(" RPAREN ")" COMMA "," AND "&" TILDE "~" IF ":-" DOT "."
%type <node> term literal args body

%destructor { (void)$$; /* arena-owned */ } <node>

%%

file
  : %empty
  | file literal end    { sentence(scanner, forms, $2, 0, @3.end > @3.start); }
  | file term ":-" body end {
      gdl_node *r = list2(scanner, keyword(scanner, "<=", @3), $2,
                          @2.start, @4.end);
      gdl_node *b = $4->first, *nb;
      for (; b; b = nb) {
        nb = b->next;
        b->next = NULL;
        append(r, b);
      }
      sentence(scanner, forms, r, 1, @5.end > @5.start);
    }
  | file error          {
      struct gdl_infix_state *ls = state(scanner);
      /* a constant or a variable at the start of a line probably starts
       * the next sentence: read on from it; else drop the rest of the
       * line (and the lines that go on from it) */
      if ((yychar == CONSTANT || yychar == VARIABLE) &&
          starts_line(ls, yylloc.start) && ls->redone != yylloc.start + 1) {
        ls->pending = 1;
        ls->pend_tok = yychar;
        ls->pend_val = yylval.node;
        ls->pend_loc = yylloc;
        ls->redone = yylloc.start + 1;
      } else if (yychar != INFIX_EOF) {
        ls->skipping = 1;
      }
      if (yychar != INFIX_EOF)
        yyclearin;
      ls->depth = 0;
      ls->have_prev = 0;
      yyerrok;
    }
  ;

end
  : %empty
  | "."
  ;

body
  : literal             { $$ = list2(scanner, $1, NULL, @1.start, @1.end); }
  | body "&" literal    { $$ = $1; append($$, $3); $$->end = @3.end; }
  ;

literal
  : term                { $$ = $1; }
  | "~" literal         {
      $$ = list2(scanner, keyword(scanner, "not", @1), $2, @1.start, @2.end);
    }
  ;

term
  : CONSTANT            { $$ = $1; }
  | VARIABLE            { $$ = $1; }
  | CONSTANT "(" ")"    {
      $$ = list2(scanner, $1, NULL, @1.start, @3.end);
    }
  | CONSTANT "(" args ")" {
      struct gdl_infix_state *ls = state(scanner);
      gdl_node *a = $3->first, *na;
      $$ = list2(scanner, $1, NULL, @1.start, @4.end);
      for (; a; a = na) {
        na = a->next;
        a->next = NULL;
        append($$, a);
      }
      if ($1->sym == gdl_ast_intern(ls->ctx, "not", 3, 1))
        gdl_ast_error(ls->ctx, ls->file, @1.start, @1.end,
                      "not(...) is KIF: in infix, negation is ~ (write "
                      "~p(X) for not(p(X)))");
    }
  ;

args
  : literal             { $$ = list2(scanner, $1, NULL, @1.start, @1.end); }
  | args "," literal    { $$ = $1; append($$, $3); }
  ;

%%

#undef infix_lex   /* from here on, infix_lex is flex's scanner itself */

/* The scanner, with the parentheses counted (an unmatched ')' is reported
 * and dropped) and, after a syntax error, the tokens up to the next line
 * start dropped. */
int infix_lex_next(INFIX_STYPE *lval, INFIX_LTYPE *lloc, yyscan_t scanner)
{
  struct gdl_infix_state *ls = state(scanner);
  int tok;
  if (ls->pending) {
    ls->pending = 0;
    lval->node = ls->pend_val;
    *lloc = ls->pend_loc;
    ls->last_start = lloc->start;
    return ls->pend_tok;
  }
  for (;;) {
    if (ls->eof || ls->aborted) {
      lloc->start = lloc->end = ls->off;
      return INFIX_EOF;
    }
    tok = infix_lex(lval, lloc, scanner);
    if (tok == INFIX_EOF) {
      ls->eof = 1;
      return tok;
    }
    if (ls->skipping) {
      if (!starts_line(ls, lloc->start))
        continue;
      ls->skipping = 0;
    }
    if (tok == TILDE)
      ls->tildes++;
    else
      ls->tildes = 0;
    if (tok == LPAREN || tok == TILDE) {
      if (ls->depth + ls->tildes > GDL_MAX_DEPTH ||
          ls->depth >= GDL_MAX_DEPTH) {
        gdl_ast_error(ls->ctx, ls->file, lloc->start, lloc->end,
                      "parentheses nested too deep (more than "
                      GDL_MAX_DEPTH_TEXT " levels)");
        ls->aborted = 1;
        lloc->start = lloc->end = ls->off;
        return INFIX_EOF;
      }
      if (tok == LPAREN)
        ls->open[ls->depth++] = lloc->start;
      ls->stray = 0;
    } else if (tok == RPAREN) {
      if (ls->depth == 0) {
        /* a run of stray ')' with no '(' between is one mistake */
        if (!ls->stray)
          gdl_ast_error(ls->ctx, ls->file, lloc->start, lloc->end,
                        "unmatched ')': no '(' is open here");
        ls->stray = 1;
        continue;
      }
      ls->depth--;
    }
    ls->last_start = lloc->start;
    return tok;
  }
}

/* How a token is named in messages: its text, quoted, or what it is. */
static void token_text(const struct gdl_infix_state *ls, yysymbol_kind_t k,
                       const gdl_loc *at, char *buf, size_t n)
{
  uint32_t len = at->end - at->start;
  switch (k) {
  case YYSYMBOL_YYEOF:
    snprintf(buf, n, "end of file");
    return;
  case YYSYMBOL_CONSTANT:
  case YYSYMBOL_VARIABLE:
    snprintf(buf, n, "'%.*s'", len > 40 ? 40 : (int)len,
             ls->text + at->start);
    return;
  default:
    snprintf(buf, n, "'%s'", yysymbol_name(k));
  }
}

/* What is expected, as a phrase. */
static const char *expect_name(yysymbol_kind_t k)
{
  switch (k) {
  case YYSYMBOL_CONSTANT: return "a constant";
  case YYSYMBOL_VARIABLE: return "a variable";
  case YYSYMBOL_YYEOF: return "end of file";
  case YYSYMBOL_RPAREN: return "')'";
  case YYSYMBOL_COMMA: return "','";
  case YYSYMBOL_AND: return "'&'";
  case YYSYMBOL_IF: return "':-'";
  case YYSYMBOL_LPAREN: return "'('";
  default: return yysymbol_name(k);
  }
}

static int yyreport_syntax_error(const yypcontext_t *pc, yyscan_t scanner,
                                 gdl_node *forms)
{
  struct gdl_infix_state *ls = state(scanner);
  yysymbol_kind_t tok = yypcontext_token(pc), exp[8];
  const gdl_loc *at = yypcontext_location(pc);
  int n = yypcontext_expected_tokens(pc, exp, 8), i, lit = 0, start = 0;
  /* the '(' open before the token (a '(' itself is counted already) */
  uint32_t depth = ls->depth - (tok == YYSYMBOL_LPAREN);
  char what[80], msg[400];
  size_t m;
  (void)forms;
  if (ls->aborted)
    return 0;
  token_text(ls, tok, at, what, sizeof what);
  for (i = 0; i < n; i++) {
    lit |= exp[i] == YYSYMBOL_TILDE;
    start |= exp[i] == YYSYMBOL_YYEOF;    /* a sentence may start here */
  }
  if (at->start < ls->quiet_until)
    return 0;                /* the scanner has said what is wrong here */
  if (tok == YYSYMBOL_LPAREN && start) {
    gdl_ast_error(ls->ctx, ls->file, at->start, at->end,
                  "unexpected '(': is this KIF?  An infix sentence starts "
                  "with a constant: p(a, b), not (p a b)");
    return 0;
  }
  if (depth > 0 &&
      (tok == YYSYMBOL_YYEOF || tok == YYSYMBOL_IF || tok == YYSYMBOL_AND ||
       tok == YYSYMBOL_DOT || starts_line(ls, at->start))) {
    uint32_t open = ls->open[depth - 1];
    snprintf(msg, sizeof msg, "unclosed '(': %s comes before its ')'",
             what);
    gdl_ast_error(ls->ctx, ls->file, open, open + 1, msg);
    return 0;
  }
  if (tok == YYSYMBOL_IF && start) {
    gdl_ast_error(ls->ctx, ls->file, at->start, at->end,
                  "':-' with no head before it: a rule is HEAD :- LITERAL "
                  "& LITERAL ...");
    return 0;
  }
  if (lit) {
    snprintf(msg, sizeof msg, "unexpected %s: a literal was expected here "
             "(a constant, a variable or ~)", what);
    gdl_ast_error(ls->ctx, ls->file, at->start, at->end, msg);
    return 0;
  }
  m = (size_t)snprintf(msg, sizeof msg, "unexpected %s", what);
  for (i = 0; i < n && m < sizeof msg; i++)
    m += (size_t)snprintf(msg + m, sizeof msg - m, "%s%s",
                          i == 0 ? ", expecting " : i == n - 1 ? " or " : ", ",
                          expect_name(exp[i]));
  if (tok == YYSYMBOL_CONSTANT || tok == YYSYMBOL_VARIABLE)
    for (i = 0; i < n; i++)
      if (exp[i] == YYSYMBOL_COMMA && m < sizeof msg)
        snprintf(msg + m, sizeof msg - m, " (a ',' missing?)");
  gdl_ast_error(ls->ctx, ls->file, at->start, at->end, msg);
  return 0;
}

/* Bison's own failures (its stack exhausted). */
static void infix_error(INFIX_LTYPE *loc, yyscan_t scanner, gdl_node *forms,
                        const char *msg)
{
  struct gdl_infix_state *ls = state(scanner);
  (void)forms;
  gdl_ast_error(ls->ctx, ls->file, loc->start, loc->end, msg);
}

/* The scanner's own memory comes from malloc; when the context's
 * allocator gives up mid-parse (it long-jumps, see engine/ctx.c), the
 * scanner is freed here before the jump goes on. */
struct parse_job {
  struct gdl_infix_state ls;
  yyscan_t scanner;
  YY_BUFFER_STATE buf;
  const char *text;
  size_t len;
  gdl_node *forms;
};

static int parse_run(void *arg)
{
  struct parse_job *job = arg;
  job->buf = infix__scan_bytes(job->text, (int)job->len, job->scanner);
  return infix_parse(job->scanner, job->forms);
}

static void parse_cleanup(void *arg)
{
  struct parse_job *job = arg;
  if (job->buf)
    infix__delete_buffer(job->buf, job->scanner);
  if (job->scanner)
    infix_lex_destroy(job->scanner);
  job->buf = NULL;
  job->scanner = NULL;
}

int gdl_infix_parse_file(gdl_ctx *ctx, uint32_t file, const char *text,
                         size_t len, gdl_node *forms)
{
  struct parse_job job;
  memset(&job, 0, sizeof job);
  job.ls.ctx = ctx;
  job.ls.file = file;
  job.ls.text = text;
  job.ls.len = (uint32_t)len;
  job.text = text;
  job.len = len;
  job.forms = forms;
  if (infix_lex_init_extra(&job.ls, &job.scanner) != 0)
    return 1;
  return gdl_ast_guarded(ctx, parse_run, parse_cleanup, &job) != 0;
}
