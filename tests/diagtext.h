/*
 * diagtext.h - reading the text of gdl_diagnostics() back, for the Check
 * suites that assert where a message points (check_parse.c,
 * check_checker.c, check_robust.c).
 *
 * A diagnostic is three lines:
 *     FILE:LINE:COL: SEVERITY: MESSAGE
 *       the source line
 *       ^~~~            (the caret under the first byte, '~' to the end)
 * or one line "gdl: SEVERITY: MESSAGE" when it has no place in a file.
 * LINE and COL are 1-based; the span is the number of '^' and '~'.
 * Static inline, so each suite that includes it gets its own copy.
 */
#ifndef GDL_DIAGTEXT_H
#define GDL_DIAGTEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char file[512];      /* "" for a "gdl: ..." line */
  unsigned line, col;  /* 0 when there is no place */
  unsigned span;       /* '^' and '~' on the caret line, 0 when none */
  char sev[16];        /* error, warning, note */
  char msg[2048];
} dt_diag;

/* Copies the line at *p (without its newline) and moves *p past it. */
static inline void dt_line(const char **p, char *buf, size_t cap)
{
  const char *e = strchr(*p, '\n');
  size_t n = e ? (size_t)(e - *p) : strlen(*p);
  if (n >= cap)
    n = cap - 1;
  memcpy(buf, *p, n);
  buf[n] = 0;
  *p = e ? e + 1 : *p + strlen(*p);
}

/* Splits "FILE:LINE:COL: SEV: MSG" (or "gdl: SEV: MSG", or "FILE: SEV:
 * MSG" for a message about the whole description: line 0); 1 when it is
 * one. */
static inline int dt_header(const char *line, dt_diag *d)
{
  static const char *const sevs[] = { "error", "warning", "note" };
  size_t k;
  memset(d, 0, sizeof *d);
  for (k = 0; k < 3; k++) {
    char pat[32];
    const char *at;
    snprintf(pat, sizeof pat, ": %s: ", sevs[k]);
    if ((at = strstr(line, pat)) == NULL)
      continue;
    snprintf(d->sev, sizeof d->sev, "%s", sevs[k]);
    snprintf(d->msg, sizeof d->msg, "%s", at + strlen(pat));
    if (strncmp(line, "gdl", 3) == 0 && at == line + 3)
      return 1;
    {
      /* FILE:LINE:COL before `at` */
      const char *c2 = at, *c1;
      while (c2 > line && c2[-1] != ':')
        c2--;
      if (c2 == line) {        /* FILE: SEV: MSG */
        k = (size_t)(at - line);
        if (k >= sizeof d->file)
          k = sizeof d->file - 1;
        memcpy(d->file, line, k);
        d->file[k] = 0;
        return 1;
      }
      c1 = c2 - 1;
      while (c1 > line && c1[-1] != ':')
        c1--;
      if (c1 == line)
        return 0;
      d->line = (unsigned)strtoul(c1, NULL, 10);
      d->col = (unsigned)strtoul(c2, NULL, 10);
      k = (size_t)(c1 - 1 - line);
      if (k >= sizeof d->file)
        k = sizeof d->file - 1;
      memcpy(d->file, line, k);
      d->file[k] = 0;
    }
    return 1;
  }
  return 0;
}

/* Reads up to `max` diagnostics from the text; returns how many there are
 * (also those beyond max). */
static inline size_t dt_parse(const char *text, dt_diag *out, size_t max)
{
  static char line[1 << 16];
  const char *p = text;
  size_t n = 0;
  dt_diag d;
  while (*p) {
    dt_line(&p, line, sizeof line);
    if (!dt_header(line, &d))
      continue;
    if (d.line) {
      const char *c;
      dt_line(&p, line, sizeof line);     /* the source line */
      dt_line(&p, line, sizeof line);     /* the caret line */
      if ((c = strchr(line, '^')) != NULL) {
        d.span = 1;
        while (*++c == '~')
          d.span++;
      }
    }
    if (n < max)
      out[n] = d;
    n++;
  }
  return n;
}

/* The first diagnostic of severity `sev` whose message contains `needle`;
 * 1 when found (into *d). */
static inline int dt_find(const char *text, const char *sev,
                          const char *needle, dt_diag *d)
{
  static dt_diag all[256];
  size_t n = dt_parse(text, all, 256), i;
  for (i = 0; i < n && i < 256; i++)
    if (strcmp(all[i].sev, sev) == 0 && strstr(all[i].msg, needle)) {
      *d = all[i];
      return 1;
    }
  return 0;
}

/* How many times `needle` occurs in `text`. */
static inline size_t dt_count(const char *text, const char *needle)
{
  size_t n = 0, len = strlen(needle);
  const char *p = text;
  while ((p = strstr(p, needle)) != NULL) {
    n++;
    p += len;
  }
  return n;
}

/* 1-based line and column of a 0-based byte offset in text. */
static inline void dt_where(const char *text, size_t off, unsigned *line,
                            unsigned *col)
{
  size_t i;
  *line = 1;
  *col = 1;
  for (i = 0; i < off && text[i]; i++) {
    if (text[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}

/* A whole file, NUL-terminated (malloc'd), or NULL; *len gets its size. */
static inline char *dt_slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[n] = 0;
    if (len)
      *len = (size_t)n;
  }
  return buf;
}

/* Writes text to path; 0 on success. */
static inline int dt_write(const char *path, const char *text, size_t len)
{
  FILE *f = fopen(path, "wb");
  int ok;
  if (!f)
    return -1;
  ok = fwrite(text, 1, len, f) == len;
  return (fclose(f) == 0 && ok) ? 0 : -1;
}

#endif
