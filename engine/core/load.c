/*
 * load.c - reading files into the context and handing them to the parser
 * (whose calls back into the context are ast.c's); the files named by
 * includes read in turn.
 *
 * `;#include "PATH"` at the start of a line names another file, relative
 * to the including file; each file is read once however often it is named.
 * (`%#include "PATH"` in an infix file.)  A file is KIF or infix by
 * gdl_set_syntax(), else by its name (load_set_syntax).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"

#define MAX_FILE_BYTES (256u << 20)

uint32_t load_add_file(gdl_ctx *ctx, const char *name, const char *text,
                       size_t len)
{
  srcfile_t *f;
  GROW(ctx, ctx->files, ctx->filecap, ctx->nfiles);
  f = &ctx->files[ctx->nfiles];
  f->name = ctx_strdup(ctx, name, strlen(name));
  f->text = ctx_alloc(ctx, len + 1);
  memcpy(f->text, text, len);
  f->len = (uint32_t)len;
  return ctx->nfiles++;
}

gdl_node *load_parse(gdl_ctx *ctx, uint32_t file)
{
  gdl_node *forms = gdl_ast_new(ctx, N_LIST, file, 0, ctx->files[file].len);
  if (ctx->files[file].infix)
    gdl_infix_parse_file(ctx, file, ctx->files[file].text,
                         ctx->files[file].len, forms);
  else
    gdl_parse_file(ctx, file, ctx->files[file].text, ctx->files[file].len,
                   forms);
  return forms;
}

static int ends_with(const char *s, const char *end)
{
  size_t n = strlen(s), m = strlen(end);
  return n >= m && strcmp(s + n - m, end) == 0;
}

void load_set_syntax(gdl_ctx *ctx, uint32_t file, uint32_t from)
{
  const char *name = ctx->files[file].name;
  int infix = from != UINT32_MAX && ctx->files[from].infix;
  if (from == UINT32_MAX && ctx->syntax != GDL_SYNTAX_AUTO)
    infix = ctx->syntax == GDL_SYNTAX_INFIX;
  else if (ends_with(name, ".hrf") || ends_with(name, ".gdl"))
    infix = 1;
  else if (ends_with(name, ".kif"))
    infix = 0;
  ctx->files[file].infix = infix;
}

void gdl_set_syntax(gdl_ctx *ctx, gdl_syntax syntax)
{
  ctx->syntax = syntax;
}

gdl_syntax gdl_file_syntax(const gdl_ctx *ctx, size_t i)
{
  return i >= ctx->nfiles ? GDL_SYNTAX_AUTO
         : ctx->files[i].infix ? GDL_SYNTAX_INFIX
                               : GDL_SYNTAX_KIF;
}

static void append_forms(gdl_ctx *ctx, gdl_node *forms)
{
  gdl_node *all = &ctx->forms;
  if (!forms->first)
    return;
  if (all->last)
    all->last->next = forms->first;
  else
    all->first = forms->first;
  all->last = forms->last;
  all->n += forms->n;
}

/* Reads a whole file; returns 0 and a message in *why on failure. */
static char *read_file(gdl_ctx *ctx, const char *path, size_t *len,
                       const char **why)
{
  FILE *f = fopen(path, "rb");
  struct stat st;
  char *buf;
  size_t cap = 65536, n = 0;
  if (!f) {
    *why = strerror(errno);
    return NULL;
  }
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    *why = "is a directory";
    return NULL;
  }
  buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n > MAX_FILE_BYTES) {
      free(buf);
      fclose(f);
      *why = "file larger than 256 MB";
      return NULL;
    }
    if (got == 0)
      break;
    if (n == cap) {
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
  }
  if (!buf || ferror(f)) {
    *why = buf ? strerror(errno) : "out of memory";
    free(buf);
    fclose(f);
    return NULL;
  }
  fclose(f);
  (void)ctx;
  *len = n;
  return buf;
}

static int already_loaded(gdl_ctx *ctx, const char *path)
{
  char real[PATH_MAX], other[PATH_MAX];
  uint32_t i;
  if (!realpath(path, real))
    return 0;
  for (i = 0; i < ctx->nfiles; i++)
    if (!ctx->files[i].alone && realpath(ctx->files[i].name, other) &&
        strcmp(real, other) == 0)
      return 1;
  return 0;
}

/* Copies text read with stdio into the context, and frees it even when
 * the copy fails. */
struct adopt_job {
  gdl_ctx *ctx;
  const char *path;
  char *text;
  size_t len;
  uint32_t file;
};

static int adopt_run(void *arg)
{
  struct adopt_job *job = arg;
  job->file = load_add_file(job->ctx, job->path, job->text, job->len);
  return 0;
}

static void adopt_free(void *arg)
{
  free(((struct adopt_job *)arg)->text);
}

static uint32_t adopt(gdl_ctx *ctx, const char *path, char *text, size_t len)
{
  struct adopt_job job;
  job.ctx = ctx;
  job.path = path;
  job.text = text;
  job.len = len;
  job.file = 0;
  gdl_ast_guarded(ctx, adopt_run, adopt_free, &job);
  return job.file;
}

/* Reads a file into the context; UINT32_MAX (and an error, at the include
 * line when `from` is a file) when it cannot be read. */
uint32_t load_read(gdl_ctx *ctx, const char *path, uint32_t from,
                   uint32_t start, uint32_t end)
{
  size_t len;
  const char *why = NULL;
  char *text = read_file(ctx, path, &len, &why);
  if (!text) {
    if (from == UINT32_MAX)
      diag_add(ctx, SEV_ERROR, UINT32_MAX, 0, 0, "cannot read %s: %s", path,
               why);
    else
      diag_add(ctx, SEV_ERROR, from, start, end, "cannot include %s: %s",
               path, why);
    ctx_setmsg(ctx, "cannot read %s: %s", path, why);
    return UINT32_MAX;
  }
  return adopt(ctx, path, text, len);
}

static gdl_status load_one(gdl_ctx *ctx, const char *path, uint32_t from,
                           uint32_t start, uint32_t end)
{
  uint32_t file = load_read(ctx, path, from, start, end);
  if (file == UINT32_MAX)
    return GDL_EINPUT;
  ctx->files[file].included = from != UINT32_MAX;
  load_set_syntax(ctx, file, from);
  append_forms(ctx, load_parse(ctx, file));
  return GDL_OK;
}

/* Loads the includes requested so far, each relative to its file. */
static void load_includes(gdl_ctx *ctx)
{
  while (ctx->incl_done < ctx->nincl) {
    uint32_t i = ctx->incl_done++;
    const char *from = ctx->files[ctx->incl_file[i]].name;
    const char *p = ctx->incl_path[i];
    const char *slash = strrchr(from, '/');
    strbuf_t b = { 0, 0, 0 };
    if (p[0] != '/' && slash)
      sb_puts(ctx, &b, from, (size_t)(slash - from + 1));
    sb_puts(ctx, &b, p, strlen(p));
    if (!already_loaded(ctx, b.s))
      load_one(ctx, b.s, ctx->incl_file[i], ctx->incl_start[i],
               ctx->incl_end[i]);
    ctx_free(ctx, b.s);
  }
}

gdl_status gdl_load_file(gdl_ctx *ctx, const char *path)
{
  gdl_status st;
  size_t before = ctx->nerrors;
  PROTECT(ctx);
  if (ctx->compiled)
    ctx_throw(ctx, GDL_EINPUT, "the description is already compiled");
  if (already_loaded(ctx, path)) {
    UNPROTECT(ctx);
    return GDL_OK;
  }
  st = load_one(ctx, path, UINT32_MAX, 0, 0);
  if (st == GDL_OK)
    load_includes(ctx);
  UNPROTECT(ctx);
  if (st == GDL_OK && ctx->nerrors > before) {
    ctx_setmsg(ctx, "%s has errors", path);
    st = GDL_EINPUT;
  }
  return st;
}

gdl_status gdl_load_string(gdl_ctx *ctx, const char *name, const char *text,
                           size_t len)
{
  size_t before = ctx->nerrors;
  uint32_t file;
  PROTECT(ctx);
  if (ctx->compiled)
    ctx_throw(ctx, GDL_EINPUT, "the description is already compiled");
  if (len > MAX_FILE_BYTES)
    ctx_throw(ctx, GDL_EINPUT, "%s: text larger than 256 MB", name);
  file = load_add_file(ctx, name, text, len);
  load_set_syntax(ctx, file, UINT32_MAX);
  append_forms(ctx, load_parse(ctx, file));
  load_includes(ctx);
  UNPROTECT(ctx);
  if (ctx->nerrors > before) {
    ctx_setmsg(ctx, "%s has errors", name);
    return GDL_EINPUT;
  }
  return GDL_OK;
}

size_t gdl_file_count(const gdl_ctx *ctx) { return ctx->nfiles; }

const char *gdl_file_name(const gdl_ctx *ctx, size_t i)
{
  return i < ctx->nfiles ? ctx->files[i].name : NULL;
}

const char *gdl_file_text(const gdl_ctx *ctx, size_t i, size_t *len)
{
  if (i >= ctx->nfiles) {
    *len = 0;
    return NULL;
  }
  *len = ctx->files[i].len;
  return ctx->files[i].text;
}
