/*
 * cli_file.c - the commands on the description's files: check (loaded
 * and checked), cat (the files as one), fmt (one file in the canonical
 * layout).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* ---- check ------------------------------------------------------------ */

int cmd_check(gdl_ctx *ctx, const opts_t *o)
{
  int rc = load(ctx, o);
  if (rc)
    return rc;
  if (!gdl_is_game(ctx) && !o->quiet)
    fprintf(stderr, "%s: note: %s\n", o->files[0], gdl_not_game_reason(ctx));
  return 0;
}

/* ---- cat -------------------------------------------------------------- */

/* Every file of the description, includes too, as one KIF text: an
 * `;#include` line becomes a plain comment, since what it names follows. */
int cmd_cat(gdl_ctx *ctx, const opts_t *o)
{
  size_t i, n = 0;
  int rc;
  if (o->syntax) {           /* the forms, written again in that syntax */
    const char *text;
    gdl_status st = GDL_OK;
    for (rc = 0; rc < o->nfiles && st == GDL_OK; rc++)
      st = gdl_load_file(ctx, o->files[rc]);
    if (st == GDL_OK)
      st = gdl_write(ctx, strcmp(o->syntax, "infix") == 0 ? GDL_SYNTAX_INFIX
                                                          : GDL_SYNTAX_KIF,
                     &text, &n);
    if (st != GDL_OK)
      return fail(ctx, st);
    return fwrite(text, 1, n, stdout) == n ? 0 : 2;
  }
  if ((rc = load(ctx, o)) != 0)
    return rc;
  for (i = 0; i < gdl_file_count(ctx); i++)
    if (gdl_file_syntax(ctx, i) == GDL_SYNTAX_INFIX) {
      /* standard KIF is asked for: an infix file is written as KIF */
      const char *text;
      gdl_status st = gdl_write(ctx, GDL_SYNTAX_KIF, &text, &n);
      if (st != GDL_OK)
        return fail(ctx, st);
      return fwrite(text, 1, n, stdout) == n ? 0 : 2;
    }
  printf(";;;; One description made by gdl cat from:");
  for (i = 0; i < gdl_file_count(ctx); i++)
    printf(" %s", gdl_file_name(ctx, i));
  printf("\n");
  for (i = 0; i < gdl_file_count(ctx); i++) {
    const char *t = gdl_file_text(ctx, i, &n), *p = t, *end = t + n;
    printf("\n;;;; ---- %s ----\n", gdl_file_name(ctx, i));
    while (p < end) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
      if (len >= 9 && memcmp(p, ";#include", 9) == 0)
        printf(";;;; (included here:%.*s)\n", (int)(len - 9), p + 9);
      else
        printf("%.*s\n", (int)len, p);
      p += len + 1;
    }
  }
  return 0;
}

/* ---- fmt -------------------------------------------------------------- */

/* The line of `a` (from 1) where a and b first differ. */
static size_t first_difference(const char *a, size_t na, const char *b,
                               size_t nb)
{
  size_t i, line = 1;
  for (i = 0; i < na && i < nb && a[i] == b[i]; i++)
    line += a[i] == '\n';
  return line;
}

/* Replaces the file by text: written beside it, then renamed over it (over
 * the file a symbolic link names), with the file's permissions.  0, or 2
 * with a message. */
static int rewrite_file(const char *path, const char *text, size_t len)
{
  char *real = realpath(path, NULL), *tmp = NULL;
  const char *slash;
  struct stat st;
  int fd = -1, err = 0;
  FILE *f;
  if (!real || stat(real, &st) != 0) {
    err = errno;
    goto done;
  }
  slash = strrchr(real, '/');
  if (!(tmp = malloc(strlen(real) + 32))) {
    err = ENOMEM;
    goto done;
  }
  sprintf(tmp, "%.*s.gdl-fmt-XXXXXX", slash ? (int)(slash - real + 1) : 0,
          real);
  if ((fd = mkstemp(tmp)) < 0) {
    err = errno;
    goto done;
  }
  if (fchmod(fd, st.st_mode & 07777) != 0 || !(f = fdopen(fd, "wb"))) {
    err = errno;
    close(fd);
  } else {
    errno = 0;
    if (fwrite(text, 1, len, f) != len)
      err = errno ? errno : EIO;
    if (fclose(f) != 0 && !err)
      err = errno;
    if (!err && rename(tmp, real) != 0)
      err = errno;
  }
  if (err)
    remove(tmp);
done:
  if (err)
    fprintf(stderr, "gdl: cannot write %s: %s\n", path, strerror(err));
  free(tmp);
  free(real);
  return err ? 2 : 0;
}

int cmd_fmt(gdl_ctx *ctx, const opts_t *o)
{
  const char *text, *was;
  size_t len, waslen;
  gdl_status st = gdl_format(ctx, o->files[0], &text, &len);
  if (st != GDL_OK)
    return fail(ctx, st);
  was = gdl_file_text(ctx, gdl_file_count(ctx) - 1, &waslen);
  if (o->check) {
    if (len == waslen && memcmp(text, was, len) == 0)
      return 0;
    fprintf(stderr, "%s:%zu: not formatted: gdl fmt would change this "
            "line\n", o->files[0], first_difference(was, waslen, text, len));
    return 1;
  }
  if (o->write)
    return len == waslen && memcmp(text, was, len) == 0
               ? 0
               : rewrite_file(o->files[0], text, len);
  if (fwrite(text, 1, len, stdout) != len)
    return 2;
  return 0;
}
