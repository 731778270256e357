/*
 * parser.y - KIF s-expressions into a tree of gdl_node.  A pure, reentrant
 * bison parser; the scanner (lexer.l) has already balanced the
 * parentheses, so this grammar only builds lists.  Nodes are owned by the
 * context's arena, so the %destructor has nothing to free.
 */
%code requires {
#include <stddef.h>
#include "ast.h"
#include "lexstate.h"
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
int gdl_lex_next(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner);
}

%code {
#include <string.h>
#include "lexer.h"
#define yylex gdl_lex_next
YY_BUFFER_STATE gdl_lex_scan(const char *text, size_t len, yyscan_t scanner);
static void yyerror(YYLTYPE *loc, yyscan_t scanner, gdl_node *forms,
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
}

%define api.pure full
%define api.location.type {gdl_loc}
%define parse.error verbose
%locations
%param {yyscan_t scanner}
%parse-param {gdl_node *forms}
%expect 0

%union { gdl_node *node; }

%token <node> SYMBOL "symbol" VARIABLE "variable"
%token LPAREN "(" RPAREN ")"
%token ABORT "nesting limit"
%type <node> form items

%destructor { (void)$$; /* arena-owned */ } <node>

%%

file
  : %empty
  | file form           { append(forms, $2); }
  ;

form
  : SYMBOL              { $$ = $1; }
  | VARIABLE            { $$ = $1; }
  | "(" items ")"       {
      $$ = $2;
      $$->start = @1.start;
      $$->end = @3.end;
    }
  ;

items
  : %empty              {
      struct gdl_lexstate *ls = yyget_extra(scanner);
      $$ = gdl_ast_new(ls->ctx, N_LIST, ls->file, 0, 0);
    }
  | items form          { $$ = $1; append($$, $2); }
  ;

%%

#undef yylex   /* from here on, yylex is flex's scanner itself */

/* The scanner, with the '(' left open at the end of the file closed. */
int gdl_lex_next(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner)
{
  struct gdl_lexstate *ls = yyget_extra(scanner);
  int tok;
  if (ls->closing > 0) {
    ls->closing--;
    lloc->start = lloc->end = ls->off;
    return RPAREN;
  }
  tok = yylex(lval, lloc, scanner);
  if (tok == 0 && ls->depth > 0) {
    gdl_ast_error(ls->ctx, ls->file, ls->outer, ls->outer + 1,
                  "unclosed '(': the file ends before its ')'");
    ls->closing = ls->depth - 1;
    ls->depth = 0;
    lloc->start = lloc->end = ls->off;
    return RPAREN;
  }
  return tok;
}

/* Only reached when the scanner stops the parse (ABORT); it has said why. */
static void yyerror(YYLTYPE *loc, yyscan_t scanner, gdl_node *forms,
                    const char *msg)
{
  (void)loc; (void)scanner; (void)forms; (void)msg;
}

/* The scanner's own memory comes from malloc; when the context's
 * allocator gives up mid-parse (it long-jumps, see engine/ctx.c), the
 * scanner is freed here before the jump goes on. */
struct parse_job {
  struct gdl_lexstate ls;
  yyscan_t scanner;
  YY_BUFFER_STATE buf;
  const char *text;
  size_t len;
  gdl_node *forms;
};

static int parse_run(void *arg)
{
  struct parse_job *job = arg;
  job->buf = gdl_lex_scan(job->text, job->len, job->scanner);
  if (!job->buf) {
    gdl_ast_error(job->ls.ctx, job->ls.file, 0, 0,
                  "out of memory: the scanner's buffer");
    return 1;
  }
  return yyparse(job->scanner, job->forms);
}

static void parse_cleanup(void *arg)
{
  struct parse_job *job = arg;
  if (job->buf)
    yy_delete_buffer(job->buf, job->scanner);
  if (job->scanner)
    yylex_destroy(job->scanner);
  job->buf = NULL;
  job->scanner = NULL;
}

int gdl_parse_file(gdl_ctx *ctx, uint32_t file, const char *text,
                   size_t len, gdl_node *forms)
{
  struct parse_job job;
  memset(&job, 0, sizeof job);
  job.ls.ctx = ctx;
  job.ls.file = file;
  job.ls.text = text;
  job.text = text;
  job.len = len;
  job.forms = forms;
  if (yylex_init_extra(&job.ls, &job.scanner) != 0)
    return 1;
  return gdl_ast_guarded(ctx, parse_run, parse_cleanup, &job) != 0;
}
