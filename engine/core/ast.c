/*
 * ast.c - what the parser asks of the context (grammar/ast.h): nodes of
 * the syntax tree in the context's arena, symbols interned (keywords in
 * any case), syntax errors with their span, the includes a file names
 * (load.c reads them), and the guard that frees the scanner's own memory
 * when the context's allocator gives up.  The parser and the lexer call
 * down into it; it calls only the layers below (mem.c, term.c, ctx.c).
 */
#include <setjmp.h>
#include <string.h>

#include "core/core.h"

gdl_node *gdl_ast_new(gdl_ctx *ctx, int kind, uint32_t file, uint32_t start,
                      uint32_t end)
{
  gdl_node *n = ctx_arena(ctx, sizeof *n);
  n->kind = (uint8_t)kind;
  n->file = file;
  n->start = start;
  n->end = end;
  return n;
}

/* Keywords are case-insensitive: a symbol that spells one in any case is
 * that keyword; every other symbol keeps its case.  Every symbol of a
 * file comes through here, so a keyword's length and first letter are
 * compared before its text. */
uint32_t gdl_ast_intern(gdl_ctx *ctx, const char *text, size_t len, int fold)
{
  if (fold && len >= 2 && len <= 8) {
    char low[8];
    size_t i;
    uint32_t k;
    for (i = 0; i < len; i++)
      low[i] = (char)(text[i] >= 'A' && text[i] <= 'Z' ? text[i] + 32
                                                       : text[i]);
    for (k = 1; k < S_NKEYWORDS; k++) {
      const sym_t *y = &ctx->syms[k];
      if (y->len == len && ctx->symtext[y->off] == low[0] &&
          memcmp(low, ctx->symtext + y->off, len) == 0)
        return k;
    }
  }
  return sym_intern(ctx, text, len);
}

void gdl_ast_error(gdl_ctx *ctx, uint32_t file, uint32_t start, uint32_t end,
                   const char *msg)
{
  diag_add(ctx, SEV_ERROR, file, start, end, "%s", msg);
}

void gdl_ast_include(gdl_ctx *ctx, uint32_t file, uint32_t start,
                     uint32_t end, const char *path, size_t len)
{
  uint32_t i = ctx->nincl;
  if (ctx->files[file].alone)
    return;                /* read by gdl_format: its includes are not read */
  GROW(ctx, ctx->incl_file, ctx->inclcap, i);
  ctx->incl_path = ctx_realloc(ctx, ctx->incl_path,
                               ctx->inclcap * sizeof *ctx->incl_path);
  ctx->incl_start = ctx_realloc(ctx, ctx->incl_start,
                                ctx->inclcap * sizeof *ctx->incl_start);
  ctx->incl_end = ctx_realloc(ctx, ctx->incl_end,
                              ctx->inclcap * sizeof *ctx->incl_end);
  ctx->incl_file[i] = file;
  ctx->incl_path[i] = ctx_strdup(ctx, path, len);
  ctx->incl_start[i] = start;
  ctx->incl_end[i] = end;
  ctx->nincl++;
}

int gdl_ast_guarded(gdl_ctx *ctx, int (*run)(void *), void (*cleanup)(void *),
                    void *arg)
{
  jmp_buf jb, *old = ctx->jmp;
  int rc;
  ctx->jmp = &jb;
  if (setjmp(jb)) {
    ctx->jmp = old;
    cleanup(arg);
    longjmp(*ctx->jmp, 1);
  }
  rc = run(arg);
  ctx->jmp = old;
  cleanup(arg);
  return rc;
}
