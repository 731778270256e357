/* lexstate.h - what the scanner keeps between tokens (flex's "extra"). */
#ifndef GDL_LEXSTATE_H
#define GDL_LEXSTATE_H

#include <stdint.h>

#define GDL_MAX_DEPTH 1000
#define GDL_MAX_DEPTH_TEXT "1000"

typedef struct { uint32_t start, end; } gdl_loc;   /* bison's YYLTYPE */

struct gdl_lexstate {
  gdl_ctx *ctx;        /* owner of nodes, symbols and messages */
  uint32_t file;       /* file index in the context */
  const char *text;    /* the file's text (the scanner reads a copy) */
  uint32_t off;        /* byte offset of the next character */
  uint32_t depth;      /* '(' open now */
  uint32_t outer;      /* offset of the outermost '(' open now */
  uint32_t closing;    /* ')' still to hand the parser at end of file */
  int stray;           /* the last parenthesis was an unmatched ')' */
};

#endif
