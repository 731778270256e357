/*
 * ast.h - the syntax tree the parser builds: KIF s-expressions with source
 * spans.  The grammar knows nothing of GDL's meaning; engine/core/check.c
 * gives the tree its meaning.  Nodes live in the context's arena and are never
 * freed one by one.
 */
#ifndef GDL_AST_H
#define GDL_AST_H

#include <stdint.h>

typedef struct gdl_ctx gdl_ctx;

enum { N_SYM, N_VAR, N_LIST };

typedef struct gdl_node {
  uint8_t kind;            /* N_SYM, N_VAR or N_LIST */
  uint32_t sym;            /* interned text (N_SYM, N_VAR with its '?') */
  uint32_t file;           /* index of the source file in the context */
  uint32_t start, end;     /* byte offsets [start, end) in that file */
  uint32_t n;              /* number of children (N_LIST) */
  struct gdl_node *first;  /* first child (N_LIST) */
  struct gdl_node *last;   /* last child, for appending (N_LIST) */
  struct gdl_node *next;   /* next sibling */
} gdl_node;

/* What the parser needs from the context (engine/ast.c provides these). */
gdl_node *gdl_ast_new(gdl_ctx *ctx, int kind, uint32_t file, uint32_t start,
                      uint32_t end);
uint32_t gdl_ast_intern(gdl_ctx *ctx, const char *text, size_t len, int fold);
void gdl_ast_error(gdl_ctx *ctx, uint32_t file, uint32_t start, uint32_t end,
                   const char *msg);
void gdl_ast_include(gdl_ctx *ctx, uint32_t file, uint32_t start,
                     uint32_t end, const char *path, size_t len);

/* Runs run(arg); whether it returns or the context's allocator gives up
 * inside it, cleanup(arg) runs before the context goes on (the scanner's
 * own memory is not the context's). */
int gdl_ast_guarded(gdl_ctx *ctx, int (*run)(void *), void (*cleanup)(void *),
                    void *arg);

/* Parses the whole of file `file` (already registered in the context);
 * appends each top-level form to *forms.  Returns 0, or 1 when parsing had
 * to stop (the errors are in the context). */
int gdl_parse_file(gdl_ctx *ctx, uint32_t file, const char *text,
                   size_t len, gdl_node *forms);
/* The same for a file in infix GDL (grammar/infix_parser.y). */
int gdl_infix_parse_file(gdl_ctx *ctx, uint32_t file, const char *text,
                         size_t len, gdl_node *forms);

#endif
