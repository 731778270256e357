/*
 * infix.c - writing GDL in infix, and the layout both `gdl cat --syntax`
 * and `gdl fmt` of an infix file use.
 *
 * The names.  An infix constant is [a-z0-9][A-Za-z0-9_]*; any other
 * symbol is written in single quotes, a ' inside doubled ('don''t').  A
 * KIF variable ?name is written Name when name is [a-z][A-Za-z0-9_]*
 * (the first letter in upper case), _name when it is only letters, digits
 * and '_' otherwise (?X is _X, ?_x is __x), and _'name' for anything
 * else (?n++ is _'n++').  The infix scanner reads these back to exactly
 * the symbol and the variable they came from, so two variables of a rule
 * never become one, and KIF -> infix -> KIF gives the same forms.
 *
 * The layout is the parse tree's, as fmt.c's is, with comments kept:
 *
 *   - A sentence starts in column 1.  A rule is `HEAD :-` and then each
 *     body literal on a line of its own, indented 4 spaces, every line
 *     but the last ending in ` &` (KIF: `(<= HEAD`, the literals on lines
 *     of their own, the last followed by `)`, as gdl fmt writes it).  Any
 *     other sentence is one line: p(a, b), a space after each comma
 *     and nowhere else in a literal, ~ right before a negated literal.  No sentence ends in '.'.
 *   - Comments keep their text and their order; ';' in KIF and '%' in
 *     infix stand for each other (;; becomes %%).  A comment between two
 *     sentences is on a line of its own in column 1, or at the end of the
 *     sentence's last line when it followed the sentence on its line.  A
 *     comment inside a rule's body goes on a line of its own before the
 *     literal it was in or before, indented like it; a comment inside a
 *     rule's head or inside any other sentence goes before the sentence,
 *     and one after a rule's last literal (KIF: before its ')') after it,
 *     each in column 1.  A blank line between two items is kept (a run
 *     as one).
 *
 * Why it is idempotent: every comment that is moved is moved to where it
 * stays (between two literals, or between two sentences), and the blank
 * lines written are those of the text read, so formatting the output
 * again finds each comment where it was written.
 */
#include <string.h>

#include "core/core.h"

#define INDENT 4

typedef struct {
  uint32_t start, end;       /* the text from the comment character,
                                trailing blanks trimmed */
  uint8_t bol;               /* it starts its line */
} icomment_t;

typedef struct {
  gdl_ctx *ctx;
  const char *src;           /* the file's text */
  uint32_t len;
  int from_infix, to_infix;  /* the file's syntax, the syntax written */
  int cat;                   /* gdl_write: #include lines become notes */
  icomment_t *c;
  uint32_t nc, ccap;
  strbuf_t *out;
  const gdl_node *bad;       /* a list infix cannot write, or NULL */
} lay_t;

/* ---- names ------------------------------------------------------------ */

static int id_char(char ch)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (ch >= '0' && ch <= '9') || ch == '_';
}

static int all_id(const char *s, uint32_t n)
{
  uint32_t i;
  for (i = 0; i < n; i++)
    if (!id_char(s[i]))
      return 0;
  return 1;
}

static void put_quoted(gdl_ctx *ctx, strbuf_t *b, const char *s, uint32_t n)
{
  uint32_t i;
  sb_putc(ctx, b, '\'');
  for (i = 0; i < n; i++) {
    if (s[i] == '\'')
      sb_putc(ctx, b, '\'');
    sb_putc(ctx, b, s[i]);
  }
  sb_putc(ctx, b, '\'');
}

void infix_put_sym(gdl_ctx *ctx, strbuf_t *b, uint32_t sym)
{
  const char *s = sym_text(ctx, sym);
  uint32_t n = sym_len(ctx, sym);
  if (n > 0 && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9'))
      && all_id(s, n))
    sb_puts(ctx, b, s, n);
  else
    put_quoted(ctx, b, s, n);
}

void infix_put_var(gdl_ctx *ctx, strbuf_t *b, uint32_t sym)
{
  const char *s = sym_text(ctx, sym) + 1;     /* after the '?' */
  uint32_t n = sym_len(ctx, sym) - 1;
  if (n > 0 && s[0] >= 'a' && s[0] <= 'z' && all_id(s, n)) {
    sb_putc(ctx, b, (char)(s[0] - 32));
    sb_puts(ctx, b, s + 1, n - 1);
  } else if (all_id(s, n)) {
    sb_putc(ctx, b, '_');
    sb_puts(ctx, b, s, n);
  } else {
    sb_putc(ctx, b, '_');
    put_quoted(ctx, b, s, n);
  }
}

void infix_term(gdl_ctx *ctx, strbuf_t *b, gdl_term t,
                const uint32_t *varnames)
{
  const term_t *tt = &ctx->terms[t];
  uint32_t i, arity = tt->arity, sym = tt->sym;
  switch (tt->kind) {
  case T_SYM:
    infix_put_sym(ctx, b, sym);
    return;
  case T_VAR:
    if (varnames)
      infix_put_var(ctx, b, varnames[sym]);
    else
      sb_printf(ctx, b, "__%u", sym);
    return;
  default:
    infix_put_sym(ctx, b, sym);
    sb_putc(ctx, b, '(');
    for (i = 0; i < arity; i++) {
      if (i)
        sb_puts(ctx, b, ", ", 2);
      infix_term(ctx, b, TARG(ctx, t, i), varnames);
    }
    sb_putc(ctx, b, ')');
  }
}

const char *infix_var_shown(gdl_ctx *ctx, uint32_t file, uint32_t sym)
{
  strbuf_t *b = &ctx->termtext;
  if (file >= ctx->nfiles || !ctx->files[file].infix)
    return sym_text(ctx, sym);
  b->n = 0;
  infix_put_var(ctx, b, sym);
  sb_putc(ctx, b, 0);
  return b->s;
}

int infix_described(const gdl_ctx *ctx)
{
  uint32_t i;
  for (i = 0; i < ctx->nfiles && ctx->files[i].alone; i++)
    ;
  return i < ctx->nfiles && ctx->files[i].infix;
}

void term_put_asked(gdl_ctx *ctx, strbuf_t *b, gdl_term t, int infix)
{
  const uint32_t *names = ctx->naskedvars &&
                          term_max_var(ctx, t) <= ctx->naskedvars
                              ? ctx->askedvars : NULL;
  if (infix)
    infix_term(ctx, b, t, names);
  else
    sb_term(ctx, b, t, names);
}

const char *gdl_term_text(gdl_ctx *ctx, gdl_term t, gdl_syntax syntax)
{
  return term_text(ctx, t, term_put_asked,
                   syntax == GDL_SYNTAX_INFIX ||
                       (syntax == GDL_SYNTAX_AUTO && infix_described(ctx)));
}

int infix_terms_text(const gdl_ctx *ctx, const char *text)
{
  const char *p;
  int quoted = 0;
  if (!infix_described(ctx))
    return 0;
  for (p = text; *p; p++) {
    if (*p == '\'')
      quoted = !quoted;
    else if (!quoted && (*p == '?' ||
                         (*p == '(' && (p == text || !id_char(p[-1])))))
      return 0;
  }
  return 1;
}

/* ---- comments --------------------------------------------------------- */

static int blank(char ch)
{
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* Every comment of the file.  Its text parsed without errors, so outside
 * comments a ';' (KIF) or a '%' (infix) starts one; in infix a quote
 * starts a quoted name, which ends at the next single ' on its line. */
static void find_comments(lay_t *f)
{
  char cc = f->from_infix ? '%' : ';';
  uint32_t i = 0, j, e;
  while (i < f->len) {
    if (f->from_infix && f->src[i] == '\'') {
      for (i++; i < f->len && f->src[i] != '\n'; i++)
        if (f->src[i] == '\'') {
          if (i + 1 < f->len && f->src[i + 1] == '\'')
            i++;
          else
            break;
        }
      i++;
      continue;
    }
    if (f->src[i] != cc) {
      i++;
      continue;
    }
    for (j = i; j < f->len && f->src[j] != '\n'; j++)
      ;
    for (e = j; blank(f->src[e - 1]); e--)
      ;                    /* stops at the comment character */
    GROW(f->ctx, f->c, f->ccap, f->nc);
    f->c[f->nc].start = i;
    f->c[f->nc].end = e;
    f->c[f->nc].bol = i == 0 || f->src[i - 1] == '\n';
    f->nc++;
    i = j;
  }
}

static uint32_t comment_at(const lay_t *f, uint32_t off)
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

/* Whether the comment would name a file if its comment character began
 * a line: `;#include "F"` (`%#include "F"`); it names one only when it
 * does (c->bol). */
static int include_like(const lay_t *f, const icomment_t *c)
{
  const char *s = f->src + c->start;
  uint32_t n = c->end - c->start;
  return n >= 10 && memcmp(s + 1, "#include", 8) == 0 &&
         (s[9] == ' ' || s[9] == '\t');
}

static void spaces(lay_t *f, uint32_t n)
{
  while (n--)
    sb_putc(f->ctx, f->out, ' ');
}

/* A comment, its leading comment characters those of the syntax written,
 * at the current column (`indent` spaces into its line); an #include line
 * in column 1 (or, for gdl_write, as a note of what was included there,
 * as gdl cat has always written it), and a comment that would read as one
 * in column 1 but was not one (indented in its file) never in column 1. */
static void put_comment(lay_t *f, const icomment_t *c, uint32_t indent)
{
  char from = f->from_infix ? '%' : ';', to = f->to_infix ? '%' : ';';
  const char *s = f->src + c->start;
  uint32_t n = c->end - c->start, i;
  if (include_like(f, c) && c->bol) {
    if (f->cat) {
      sb_printf(f->ctx, f->out, "%c%c%c%c (included here:%.*s)", to, to, to,
                to, (int)(n - 9), s + 9);
      return;
    }
    f->out->n -= indent;     /* back to column 1 */
  } else if (include_like(f, c) &&
             (f->out->n == 0 || f->out->s[f->out->n - 1] == '\n'))
    sb_putc(f->ctx, f->out, ' ');
  for (i = 0; i < n && s[i] == from; i++)
    sb_putc(f->ctx, f->out, to);
  sb_puts(f->ctx, f->out, s + i, n - i);
}

/* Every comment in [from, to), each on a line of its own: when `after`,
 * each from the current column (`indent`) and followed by a line break
 * and `indent` spaces; else each after a line break, in column 1. */
static uint32_t put_comment_lines(lay_t *f, uint32_t from, uint32_t to,
                                  uint32_t indent, int after)
{
  uint32_t k, n = 0;
  for (k = comment_at(f, from); k < f->nc && f->c[k].start < to; k++, n++) {
    if (!after)
      sb_putc(f->ctx, f->out, '\n');
    put_comment(f, &f->c[k], after ? indent : 0);
    if (after) {
      sb_putc(f->ctx, f->out, '\n');
      spaces(f, indent);
    }
  }
  return n;
}

/* ---- forms ------------------------------------------------------------ */

static void put_sym(lay_t *f, const gdl_node *n)
{
  if (!f->to_infix)
    sb_puts(f->ctx, f->out, sym_text(f->ctx, n->sym), sym_len(f->ctx, n->sym));
  else if (n->kind == N_VAR)
    infix_put_var(f->ctx, f->out, n->sym);
  else
    infix_put_sym(f->ctx, f->out, n->sym);
}

/* A term or a literal on one line. */
static void put_flat(lay_t *f, const gdl_node *n)
{
  const gdl_node *e;
  if (n->kind != N_LIST) {
    put_sym(f, n);
    return;
  }
  if (!f->to_infix) {
    sb_putc(f->ctx, f->out, '(');
    for (e = n->first; e; e = e->next) {
      if (e != n->first)
        sb_putc(f->ctx, f->out, ' ');
      put_flat(f, e);
    }
    sb_putc(f->ctx, f->out, ')');
    return;
  }
  if (!n->first || n->first->kind != N_SYM) {
    if (!f->bad)
      f->bad = n;
    sb_puts(f->ctx, f->out, "'()'", 4);
    return;
  }
  if (n->first->sym == S_NOT && n->n == 2) {
    sb_putc(f->ctx, f->out, '~');
    put_flat(f, n->first->next);
    return;
  }
  put_sym(f, n->first);
  sb_putc(f->ctx, f->out, '(');
  for (e = n->first->next; e; e = e->next) {
    if (e != n->first->next)
      sb_puts(f->ctx, f->out, ", ", 2);
    put_flat(f, e);
  }
  sb_putc(f->ctx, f->out, ')');
}

static int is_rule(const gdl_node *n)
{
  return n->kind == N_LIST && n->n >= 3 && n->first->kind == N_SYM &&
         n->first->sym == S_IMPLIES;
}

/* A sentence, from column 1, with the comments inside it; returns how
 * many comments were written after it (on lines of their own). */
static uint32_t put_sentence(lay_t *f, const gdl_node *n)
{
  const gdl_node *head, *e;
  uint32_t gap;
  if (!is_rule(n)) {
    put_comment_lines(f, n->start, n->end, 0, 1);
    put_flat(f, n);
    return 0;
  }
  head = n->first->next;
  put_comment_lines(f, n->start, head->end, 0, 1);
  if (f->to_infix) {
    put_flat(f, head);
    sb_puts(f->ctx, f->out, " :-", 3);
  } else {
    sb_puts(f->ctx, f->out, "(<= ", 4);
    put_flat(f, head);
  }
  gap = head->end;
  for (e = head->next; e; e = e->next) {
    sb_putc(f->ctx, f->out, '\n');
    spaces(f, INDENT);
    put_comment_lines(f, gap, e->end, INDENT, 1);
    put_flat(f, e);
    if (f->to_infix && e->next)
      sb_puts(f->ctx, f->out, " &", 2);
    gap = e->end;
  }
  if (!f->to_infix)
    sb_putc(f->ctx, f->out, ')');
  return put_comment_lines(f, gap, n->end, 0, 0);
}

static uint32_t newlines(const lay_t *f, uint32_t from, uint32_t to,
                         uint32_t most)
{
  uint32_t n = 0;
  for (; from < to && n < most; from++)
    n += f->src[from] == '\n';
  return n;
}

static void separate(lay_t *f, uint32_t from, uint32_t to, uint32_t item)
{
  if (item == 0)
    return;
  sb_putc(f->ctx, f->out, '\n');
  if (newlines(f, from, to, 2) == 2)
    sb_putc(f->ctx, f->out, '\n');
}

/* The sentences from `first` on that belong to `file`, and the comments
 * around them.  Returns the first node of another file, or NULL. */
static const gdl_node *lay_file(lay_t *f, uint32_t file,
                                const gdl_node *first)
{
  const gdl_node *n = first, *other = NULL;
  uint32_t pos = 0, items = 0, k;
  int after_form = 0;
  f->src = f->ctx->files[file].text;
  f->len = f->ctx->files[file].len;
  f->from_infix = f->ctx->files[file].infix;
  f->nc = 0;
  find_comments(f);
  for (;;) {
    uint32_t upto;
    if (n && n->file != file) {
      other = n;
      n = NULL;
    }
    upto = n ? n->start : f->len;
    for (k = comment_at(f, pos); k < f->nc && f->c[k].start < upto; k++) {
      const icomment_t *c = &f->c[k];
      if (after_form && newlines(f, pos, c->start, 1) == 0) {
        sb_putc(f->ctx, f->out, ' ');
        put_comment(f, c, 0);
      } else {
        separate(f, pos, c->start, items++);
        put_comment(f, c, 0);
      }
      after_form = 0;
      pos = c->end;
    }
    if (!n)
      break;
    separate(f, pos, n->start, items++);
    after_form = put_sentence(f, n) == 0;
    pos = n->end;
    n = n->next;
  }
  if (items)
    sb_putc(f->ctx, f->out, '\n');
  return other;
}

void infix_layout(gdl_ctx *ctx, uint32_t file, const gdl_node *forms,
                  int infix, strbuf_t *out)
{
  lay_t f;
  memset(&f, 0, sizeof f);
  f.ctx = ctx;
  f.to_infix = infix;
  f.out = out;
  sb_puts(ctx, out, "", 0);
  lay_file(&f, file, forms->first);
  ctx_free(ctx, f.c);
}

gdl_status gdl_write(gdl_ctx *ctx, gdl_syntax to, const char **text,
                     size_t *len)
{
  lay_t f;
  const gdl_node *n;
  strbuf_t *out = &ctx->fmttext;
  char cc = to == GDL_SYNTAX_INFIX ? '%' : ';';
  uint32_t i;
  *text = "";
  *len = 0;
  memset(&f, 0, sizeof f);
  PROTECT(ctx);
  f.ctx = ctx;
  f.to_infix = to == GDL_SYNTAX_INFIX;
  f.cat = 1;
  f.out = out;
  out->n = 0;
  sb_printf(ctx, out, "%c%c%c%c One description made by gdl cat from:", cc,
            cc, cc, cc);
  for (i = 0; i < ctx->nfiles; i++)
    if (!ctx->files[i].alone)
      sb_printf(ctx, out, " %s", ctx->files[i].name);
  sb_putc(ctx, out, '\n');
  n = ctx->forms.first;
  for (i = 0; i < ctx->nfiles; i++) {
    if (ctx->files[i].alone)
      continue;
    sb_printf(ctx, out, "\n%c%c%c%c ---- %s ----\n", cc, cc, cc, cc,
              ctx->files[i].name);
    while (n && n->file < i)
      n = n->next;
    n = lay_file(&f, i, n);
  }
  ctx_free(ctx, f.c);
  UNPROTECT(ctx);
  if (f.bad) {
    uint32_t line, col;
    diag_where(ctx, f.bad->file, f.bad->start, &line, &col);
    ctx_setmsg(ctx, "%s:%u:%u: this list does not start with a constant, "
               "so infix GDL cannot write it", ctx->files[f.bad->file].name,
               line, col);
    return GDL_EINPUT;
  }
  *text = out->s;
  *len = out->n;
  return GDL_OK;
}
