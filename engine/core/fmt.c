/*
 * fmt.c - gdl fmt: one file in the canonical layout.
 *
 * The layout is a function of the parse tree and of the comments, never
 * of the spaces and line breaks around them, with two exceptions that the
 * layout itself reproduces: whether a blank line separates two top-level
 * items, and whether a comment follows a top-level form on the same line.
 * That is what makes formatting idempotent: the output parses to the same
 * tree, with every comment in the same gap between the same two tokens,
 * the same blank lines and the same end-of-line comments, so it lays out
 * to itself, byte for byte.
 *
 *   - A top-level form starts in column 1.  A rule (<= HEAD B1 B2 ...)
 *     is `(<= HEAD` and then each body literal on a line of its own,
 *     indented 4 spaces, the last one followed by `)`.  Any other form,
 *     and every literal, is one line with single spaces.
 *   - Keywords are written in lower case: the scanner interned them folded
 *     (load.c), so a node's symbol text is already the canonical spelling.
 *     Every other symbol and variable is written as it was.
 *
 * Comments: the scanner skips them, so they are found here in the text.
 * Between the tokens of a file that parsed without errors there is only
 * white space and comments (any other character belongs to a token or is
 * an error), so every ';' outside a comment starts one, which runs to the
 * end of its line.  Every comment is kept, in order: between top-level
 * forms on a line of its own, in column 1; after a form on the same line
 * at the end of the form's last line; inside a form on a line of its own
 * before the element it follows in the text, indented like a body literal
 * (4 spaces more than the form's '('), and what follows it continues on
 * the next line at the same indentation.  Comments after the last element
 * are followed by the ')' on a line of its own under the '('.  A comment is
 * always followed by a line break, so it never swallows what follows it.
 *
 * `;#include "F"` is a comment that names a file only when its ';' starts
 * a line.  Such a comment is written in column 1 wherever it is; any other
 * comment that would read as one in column 1 is indented by at least one
 * space.  So formatting never adds or removes an include.
 */
#include <string.h>

#include "core/core.h"

#define INDENT 4           /* body literals, and the text after a comment */
#define ALL UINT32_MAX     /* put_broken: no element starts a line of its own */

typedef struct {
  uint32_t start, end;     /* the text from ';', trailing blanks trimmed */
  uint8_t bol;             /* the ';' is the first character of its line */
} comment_t;

typedef struct {
  gdl_ctx *ctx;
  const char *src;         /* the file's text */
  uint32_t len;
  comment_t *c;            /* every comment of the file, in order */
  uint32_t nc, ccap;
  strbuf_t *out;
  uint32_t bol;            /* where the current line starts in out */
} fmt_t;

static int blank(char ch)
{
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

static void find_comments(fmt_t *f)
{
  uint32_t i = 0, j, e;
  while (i < f->len) {
    if (f->src[i] != ';') {
      i++;
      continue;
    }
    for (j = i; j < f->len && f->src[j] != '\n'; j++)
      ;
    for (e = j; blank(f->src[e - 1]); e--)
      ;                    /* stops at the ';' */
    GROW(f->ctx, f->c, f->ccap, f->nc);
    f->c[f->nc].start = i;
    f->c[f->nc].end = e;
    f->c[f->nc].bol = i == 0 || f->src[i - 1] == '\n';
    f->nc++;
    i = j;
  }
}

/* The index of the first comment at or after offset `off`. */
static uint32_t comment_at(const fmt_t *f, uint32_t off)
{
  uint32_t lo = 0, hi = f->nc;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (f->c[mid].start < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int comment_in(const fmt_t *f, uint32_t from, uint32_t to)
{
  uint32_t k = comment_at(f, from);
  return k < f->nc && f->c[k].start < to;
}

/* Whether the comment would name a file if its ';' started a line: the
 * scanner's pattern ;#include, spaces or tabs, a path in double quotes. */
static int include_like(const fmt_t *f, const comment_t *c)
{
  const char *s = f->src + c->start;
  uint32_t n = c->end - c->start, i = 9;
  if (n < 11 || memcmp(s, ";#include", 9) != 0 ||
      (s[i] != ' ' && s[i] != '\t'))
    return 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t'))
    i++;
  if (i >= n || s[i++] != '"')
    return 0;
  while (i < n && s[i] != '"')
    i++;
  return i < n;
}

static void spaces(fmt_t *f, uint32_t n)
{
  while (n--)
    sb_putc(f->ctx, f->out, ' ');
}

static void newline(fmt_t *f, uint32_t indent)
{
  sb_putc(f->ctx, f->out, '\n');
  f->bol = f->out->n;
  spaces(f, indent);
}

static uint32_t column(const fmt_t *f)
{
  return f->out->n - f->bol;
}

static void put_comment(fmt_t *f, const comment_t *c, uint32_t indent)
{
  if (include_like(f, c))
    indent = c->bol ? 0 : indent ? indent : 1;
  spaces(f, indent);
  sb_puts(f->ctx, f->out, f->src + c->start, c->end - c->start);
}

/* Every comment in [from, to), each on a line of its own. */
static void put_comment_lines(fmt_t *f, uint32_t from, uint32_t to,
                              uint32_t indent)
{
  uint32_t k;
  for (k = comment_at(f, from); k < f->nc && f->c[k].start < to; k++) {
    newline(f, 0);
    put_comment(f, &f->c[k], indent);
  }
}

static void put_sym(fmt_t *f, const gdl_node *n)
{
  sb_puts(f->ctx, f->out, sym_text(f->ctx, n->sym), sym_len(f->ctx, n->sym));
}

/* A node with no comment inside, on one line. */
static void put_flat(fmt_t *f, const gdl_node *n)
{
  const gdl_node *e;
  if (n->kind != N_LIST) {
    put_sym(f, n);
    return;
  }
  sb_putc(f->ctx, f->out, '(');
  for (e = n->first; e; e = e->next) {
    if (e != n->first)
      sb_putc(f->ctx, f->out, ' ');
    put_flat(f, e);
  }
  sb_putc(f->ctx, f->out, ')');
}

static void put_node(fmt_t *f, const gdl_node *n, uint32_t keep);

/* A list with a comment inside (or a rule), from the current column.
 * Each comment goes on a line of its own, indented INDENT more than the
 * '(', and the text after it starts a new line at that indentation.  The
 * elements from index `keep` on (a rule's body literals: keep = 2) each
 * start a line too; the others follow on the same line. */
static void put_broken(fmt_t *f, const gdl_node *n, uint32_t keep)
{
  uint32_t col = column(f), ind = col + INDENT, gap = n->start + 1, i = 0;
  const gdl_node *e;
  sb_putc(f->ctx, f->out, '(');
  for (e = n->first; e; e = e->next, i++) {
    if (comment_in(f, gap, e->start)) {
      put_comment_lines(f, gap, e->start, ind);
      newline(f, ind);
    } else if (i >= keep) {
      newline(f, ind);
    } else if (i > 0) {
      sb_putc(f->ctx, f->out, ' ');
    }
    put_node(f, e, ALL);
    gap = e->end;
  }
  if (comment_in(f, gap, n->end)) {
    put_comment_lines(f, gap, n->end, ind);
    newline(f, col);
  }
  sb_putc(f->ctx, f->out, ')');
}

static void put_node(fmt_t *f, const gdl_node *n, uint32_t keep)
{
  if (n->kind == N_LIST && comment_in(f, n->start, n->end))
    put_broken(f, n, keep);
  else
    put_flat(f, n);
}

static int is_rule(const gdl_node *n)
{
  return n->kind == N_LIST && n->first && n->first->kind == N_SYM &&
         n->first->sym == S_IMPLIES;
}

/* The number of line breaks in [from, to), counted up to `most`. */
static uint32_t newlines(const fmt_t *f, uint32_t from, uint32_t to,
                         uint32_t most)
{
  uint32_t n = 0;
  for (; from < to && n < most; from++)
    n += f->src[from] == '\n';
  return n;
}

/* Line breaks before the next top-level item: none before the first, two
 * (a blank line) where the text between the items has a blank line, else
 * one. */
static void separate(fmt_t *f, uint32_t from, uint32_t to, uint32_t item)
{
  if (item == 0)
    return;
  newline(f, 0);
  if (newlines(f, from, to, 2) == 2)
    newline(f, 0);
}

void fmt_file(gdl_ctx *ctx, uint32_t file, const gdl_node *forms,
              strbuf_t *out)
{
  fmt_t f;
  const gdl_node *n = forms->first;
  uint32_t pos = 0, items = 0, k;
  int after_form = 0;
  memset(&f, 0, sizeof f);
  f.ctx = ctx;
  f.src = ctx->files[file].text;
  f.len = ctx->files[file].len;
  f.out = out;
  f.bol = out->n;
  sb_puts(ctx, out, "", 0);
  find_comments(&f);
  for (;;) {
    uint32_t upto = n ? n->start : f.len;
    for (k = comment_at(&f, pos); k < f.nc && f.c[k].start < upto; k++) {
      const comment_t *c = &f.c[k];
      if (after_form && newlines(&f, pos, c->start, 1) == 0) {
        put_comment(&f, c, 1);          /* at the end of the form's line */
      } else {
        separate(&f, pos, c->start, items++);
        put_comment(&f, c, 0);
      }
      after_form = 0;
      pos = c->end;
    }
    if (!n)
      break;
    separate(&f, pos, n->start, items++);
    if (is_rule(n) && n->n >= 3)
      put_broken(&f, n, 2);
    else
      put_node(&f, n, is_rule(n) ? 2 : ALL);
    after_form = 1;
    pos = n->end;
    n = n->next;
  }
  if (items)
    sb_putc(ctx, out, '\n');
  ctx_free(ctx, f.c);
}

gdl_status gdl_format(gdl_ctx *ctx, const char *path, const char **text,
                      size_t *len)
{
  size_t before = ctx->nerrors;
  uint32_t file;
  gdl_node *forms;
  *text = "";
  *len = 0;
  PROTECT(ctx);
  file = load_read(ctx, path, UINT32_MAX, 0, 0);
  if (file == UINT32_MAX) {
    UNPROTECT(ctx);
    return GDL_EINPUT;
  }
  ctx->files[file].alone = 1;
  load_set_syntax(ctx, file, UINT32_MAX);
  forms = load_parse(ctx, file);
  if (ctx->nerrors > before) {
    UNPROTECT(ctx);
    ctx_setmsg(ctx, "%s has errors", path);
    return GDL_EINPUT;
  }
  ctx->fmttext.n = 0;
  if (ctx->files[file].infix)
    infix_layout(ctx, file, forms, 1, &ctx->fmttext);
  else
    fmt_file(ctx, file, forms, &ctx->fmttext);
  UNPROTECT(ctx);
  *text = ctx->fmttext.s;
  *len = ctx->fmttext.n;
  return GDL_OK;
}
