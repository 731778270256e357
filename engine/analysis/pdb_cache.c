/*
 * pdb_cache.c - pattern databases kept between runs (gdl solve
 * --pdb-cache DIR): a table solved is written to a file of DIR, and a
 * later run whose abstract game is the same reads it instead of solving.
 *
 * Invariant: a table is read only for an abstract game whose key
 * (each value's name, then pdb_key: every group's values, goal values,
 * edges and their masks, the whole of what pdb_solve reads) is byte for
 * byte the one stored in the file, by a reader of the same format
 * version (which names what pdb_solve computes), and whose bytes have
 * the checksum stored beside them.  The key and the stored table are in
 * a numbering of their own, by the values' names (the fluents' texts),
 * not the run's, which follows the order of the description's terms:
 * renumbering makes an isomorphic game, whose breadth-first distances
 * are the same placement for placement, so the table read and turned
 * into the run's numbering is the one pdb_solve would have made.  The
 * file's name is a hash of the key, only
 * to find it: a collision is a file whose key differs, solved again and
 * written over.  Files are written whole to a temporary name in DIR and
 * renamed, so a reader sees the old file or the new, never part of one.
 * doc/solving.md ("Pattern databases") has the argument.
 *
 * File (integers least significant byte first): "gdl-pdb\n"; the
 * version (4 bytes); the key's length and the table's (8 bytes each);
 * the FNV-1a hashes of the key and the table (8 each); the key; the
 * table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "analysis/analysis.h"

#define MAGIC "gdl-pdb\n"
#define VERSION 2u             /* of the format and of what pdb_solve
                                  makes of a key: changed with either */
#define HEAD 44                /* bytes before the key */

/* 64-bit FNV-1a of n bytes, from h (a start of FNV_0). */
#define FNV_0 0xcbf29ce484222325ull
static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static void put(uint8_t *p, uint64_t x, unsigned n)
{
  unsigned i;
  for (i = 0; i < n; i++)
    p[i] = (uint8_t)(x >> (8 * i));
}

static uint64_t get(const uint8_t *p, unsigned n)
{
  uint64_t x = 0;
  unsigned i;
  for (i = 0; i < n; i++)
    x |= (uint64_t)p[i] << (8 * i);
  return x;
}

/* The header of a table of key k (kn bytes) and tab (n bytes). */
static void header(uint8_t *h, const uint8_t *k, size_t kn,
                   const uint8_t *tab, uint64_t n)
{
  memcpy(h, MAGIC, 8);
  put(h + 8, VERSION, 4);
  put(h + 12, kn, 8);
  put(h + 20, n, 8);
  put(h + 28, fnv(FNV_0, k, kn), 8);
  put(h + 36, fnv(FNV_0, tab, (size_t)n), 8);
}

/* Directory dir and those above it made where missing: 0, or -1 with
 * errno. */
static int make_dir(gdl_ctx *ctx, const char *dir)
{
  size_t n = strlen(dir), i;
  char *p = ctx_alloc(ctx, n + 1);
  struct stat st;
  int rc = 0;
  memcpy(p, dir, n);
  for (i = 1; i <= n && rc == 0; i++)
    if (i == n || p[i] == '/') {
      char c = p[i];
      p[i] = 0;
      if (mkdir(p, 0777) != 0 && errno != EEXIST)
        rc = -1;
      p[i] = c;
    }
  if (rc == 0 && stat(dir, &st) != 0) {
    rc = -1;
  } else if (rc == 0 && !S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    rc = -1;
  }
  ctx_free(ctx, p);
  return rc;
}

/* The table of key k (kn bytes) from file path into tab (n bytes): 1
 * when the file is one of that key, whole and unchanged. */
static int read_table(const char *path, const uint8_t *k, size_t kn,
                      uint8_t *tab, uint64_t n)
{
  uint8_t h[HEAD], want[HEAD], buf[4096];
  size_t at = 0, m;
  int ok = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  if (fread(h, 1, HEAD, f) != HEAD || memcmp(h, MAGIC, 8) != 0 ||
      get(h + 8, 4) != VERSION || get(h + 12, 8) != kn ||
      get(h + 20, 8) != n)
    goto out;
  while (at < kn) {            /* the key, whole */
    m = kn - at < sizeof buf ? kn - at : sizeof buf;
    if (fread(buf, 1, m, f) != m || memcmp(buf, k + at, m) != 0)
      goto out;
    at += m;
  }
  if (fread(tab, 1, (size_t)n, f) != n || fgetc(f) != EOF)
    goto out;
  header(want, k, kn, tab, n);
  ok = memcmp(h, want, HEAD) == 0;
out:
  fclose(f);
  return ok;
}

/* Writes the table tab (n bytes) of key k to path, through a temporary
 * file in dir: 0, or -1 with a reason in why[]. */
static int write_table(gdl_ctx *ctx, const char *dir, const char *path,
                       const uint8_t *k, size_t kn, const uint8_t *tab,
                       uint64_t n, char *why, size_t wn)
{
  size_t tn = strlen(dir) + 32;
  char *tmp = ctx_alloc(ctx, tn);
  uint8_t h[HEAD];
  FILE *f = NULL;
  int fd, rc = -1;
  header(h, k, kn, tab, n);
  snprintf(tmp, tn, "%s/.pdb-XXXXXX", dir);
  if ((fd = mkstemp(tmp)) < 0) {
    snprintf(why, wn, "cannot write in %s: %s", dir, strerror(errno));
    ctx_free(ctx, tmp);
    return -1;
  }
  (void)fchmod(fd, 0644);      /* (mkstemp's is 0600) others may read */
  if (!(f = fdopen(fd, "wb"))) {
    snprintf(why, wn, "cannot write %s: %s", tmp, strerror(errno));
    close(fd);
  } else if (fwrite(h, 1, HEAD, f) != HEAD || fwrite(k, 1, kn, f) != kn ||
             fwrite(tab, 1, (size_t)n, f) != n || fflush(f) != 0) {
    snprintf(why, wn, "cannot write %s: %s", tmp, strerror(errno));
    fclose(f);
  } else if (fclose(f) != 0) {
    snprintf(why, wn, "cannot write %s: %s", tmp, strerror(errno));
  } else if (rename(tmp, path) != 0) {
    snprintf(why, wn, "cannot rename %s to %s: %s", tmp, path,
             strerror(errno));
  } else {
    rc = 0;
  }
  if (rc != 0)
    remove(tmp);
  ctx_free(ctx, tmp);
  return rc;
}

/* A numbering of T's groups and values (gpos, vpos: see pdb_key) by
 * their names: each group's values in the order of their names, the
 * groups in that of their names so sorted (as lists of strings, a
 * shorter list first where one begins the other).  0 where two names of
 * a group, or two groups' lists, are the same: no such order. */
static int name_order(const pdb_t *T, const char *const *const *names,
                      uint32_t *gpos, uint32_t **vpos, uint32_t **sorted)
{
  uint32_t ng = pdb_groups(T), a, b, v, j, *ord = gpos;
  for (a = 0; a < ng; a++) {   /* sorted[a]: group a's values by name */
    uint32_t n = pdb_values(T, a), *o = sorted[a];
    for (v = 0; v < n; v++) {
      for (j = v; j > 0 && strcmp(names[a][v], names[a][o[j - 1]]) < 0; j--)
        o[j] = o[j - 1];
      o[j] = v;
    }
    for (j = 0; j < n; j++) {
      if (j > 0 && strcmp(names[a][o[j - 1]], names[a][o[j]]) == 0)
        return 0;
      vpos[a][o[j]] = j;
    }
  }
  for (a = 0; a < ng; a++) {   /* ord: the groups by their lists */
    for (j = a; j > 0; j--) {
      uint32_t x = a, y = ord[j - 1], nx = pdb_values(T, x);
      uint32_t ny = pdb_values(T, y), i;
      int d = 0;
      for (i = 0; i < nx && i < ny && d == 0; i++)
        d = strcmp(names[x][sorted[x][i]], names[y][sorted[y][i]]);
      if (d == 0)
        d = nx < ny ? -1 : nx > ny;
      if (d == 0)
        return 0;
      if (d > 0)
        break;
      ord[j] = ord[j - 1];
    }
    ord[j] = a;
  }
  for (b = 0; b < ng; b++)     /* ord is gpos's inverse: turned round */
    sorted[0][b] = ord[b];
  for (b = 0; b < ng; b++)
    gpos[sorted[0][b]] = b;
  return 1;
}

/* The key: the groups' names in the numbering (each group's count, then
 * each name's length and bytes), then pdb_key's bytes; *len of them. */
static uint8_t *full_key(gdl_ctx *ctx, const pdb_t *T,
                         const char *const *const *names,
                         const uint32_t *gpos, uint32_t *const *vpos,
                         size_t *len)
{
  uint32_t ng = pdb_groups(T), c, a, v, j;
  size_t kn, at = 0, nn = 0;
  uint8_t *k = pdb_key(ctx, T, gpos, vpos, &kn), *out;
  for (a = 0; a < ng; a++)
    for (v = 0, nn += 4; v < pdb_values(T, a); v++)
      nn += 4 + strlen(names[a][v]);
  out = ctx_alloc(ctx, nn + kn + 1);
  for (c = 0; c < ng; c++) {
    for (a = 0; gpos[a] != c; a++)
      ;
    put(out + at, pdb_values(T, a), 4);
    at += 4;
    for (j = 0; j < pdb_values(T, a); j++) {
      size_t n;
      for (v = 0; vpos[a][v] != j; v++)
        ;
      n = strlen(names[a][v]);
      put(out + at, n, 4);
      memcpy(out + at + 4, names[a][v], n);
      at += 4 + n;
    }
  }
  memcpy(out + at, k, kn);
  ctx_free(ctx, k);
  *len = at + kn;
  return out;
}

int pdb_cache_solve(gdl_ctx *ctx, pdb_t *T, double until, const char *dir,
                    const char *const *const *names, int *cached, char *why,
                    size_t wn)
{
  uint32_t ng = pdb_groups(T), a;
  uint32_t *gpos = ctx_alloc(ctx, (ng + 1) * sizeof *gpos);
  uint32_t **vpos = ctx_alloc(ctx, (ng + 1) * sizeof *vpos);
  uint32_t **sorted = ctx_alloc(ctx, (ng + 1) * sizeof *sorted);
  size_t kn = 0, pn = strlen(dir) + 40;
  uint8_t *k = NULL, *tab = NULL, *canon = NULL;
  uint64_t n = pdb_size(T);
  char *path = NULL, reason[512];
  int done = 1, named;
  *cached = 0;
  for (a = 0; a < ng; a++) {
    vpos[a] = ctx_alloc(ctx, (pdb_values(T, a) + 1) * sizeof **vpos);
    sorted[a] = ctx_alloc(ctx, (pdb_values(T, a) + ng + 1) * sizeof **sorted);
  }
  named = n <= SIZE_MAX && name_order(T, names, gpos, vpos, sorted);
  if (named) {
    k = full_key(ctx, T, names, gpos, vpos, &kn);
    path = ctx_alloc(ctx, pn);
    snprintf(path, pn, "%s/pdb-%016llx.tab", dir,
             (unsigned long long)fnv(FNV_0, k, kn));
    canon = ctx_alloc(ctx, (size_t)n);
  }
  if (named && read_table(path, k, kn, canon, n)) {
    tab = ctx_alloc(ctx, (size_t)n);
    pdb_relabel(T, gpos, vpos, canon, tab, 0);
    pdb_adopt(ctx, T, tab);
    *cached = 1;
  } else {
    done = pdb_solve(ctx, T, until);
    reason[0] = 0;
    if (done && named && make_dir(ctx, dir) != 0) {
      snprintf(reason, sizeof reason, "cannot make directory %s: %s", dir,
               strerror(errno));
    } else if (done && named) {
      pdb_relabel(T, gpos, vpos, pdb_table(T), canon, 1);
      write_table(ctx, dir, path, k, kn, canon, n, reason, sizeof reason);
    }
    if (reason[0] && wn > 0 && why[0] == 0)
      snprintf(why, wn, "%s", reason);
  }
  for (a = 0; a < ng; a++) {
    ctx_free(ctx, vpos[a]);
    ctx_free(ctx, sorted[a]);
  }
  ctx_free(ctx, canon);
  ctx_free(ctx, path);
  ctx_free(ctx, k);
  ctx_free(ctx, gpos);
  ctx_free(ctx, vpos);
  ctx_free(ctx, sorted);
  return done;
}
