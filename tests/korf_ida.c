/*
 * korf_ida.c - the floor for make bench-korf: IDA* with the Manhattan
 * distance, written by hand for the 15-puzzle alone (Korf 1985), in the
 * manner of ../shared/tools/handcoded/.  A state is 16 bytes (the tile on
 * each square, 0 the blank); the distance is updated by the one tile a
 * move shifts; the move back to the parent is not generated.  The goal
 * has the blank top left and tile t on square t, as tests/korf.sh writes
 * Korf's instances for gdl.
 *
 *   korf_ida [-s SECONDS] T0 T1 ... T15     (Ti: the tile on square i)
 *
 * Prints "length=L generated=N seconds=S" (length=limit where SECONDS
 * ran out first; 0 for none).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  uint8_t sq[16];              /* the tile on each square */
  int md[16][16];              /* tile, square: its distance home */
  int nb[16][4], nnb[16];      /* each square's neighbours */
  int path[128];               /* the blank's squares, from the start */
  uint64_t generated;
  double t0, limit;
  int stop;
  int found;                   /* the plan's length */
} ida_t;

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Below a state whose blank is on square b, h its distance, g moves
 * made, prev the blank's square before (-1 at the start): the least f
 * past bound met (or -1 when the goal is found). */
static int search(ida_t *I, int b, int h, int g, int prev, int bound)
{
  int i, least = 1 << 30;
  if (g + h > bound)
    return g + h;
  if (h == 0) {
    I->found = g;
    return -1;
  }
  if ((I->generated & 0xfffff) == 0 && I->limit > 0 &&
      now() - I->t0 > I->limit) {
    I->stop = 1;
    return 1 << 30;
  }
  for (i = 0; i < I->nnb[b]; i++) {
    int s = I->nb[b][i], t = I->sq[s], r, h2;
    if (s == prev)
      continue;
    I->generated++;
    h2 = h - I->md[t][s] + I->md[t][b];   /* tile t: square s to b */
    I->sq[b] = (uint8_t)t;
    I->sq[s] = 0;
    I->path[g + 1] = s;
    r = search(I, s, h2, g + 1, b, bound);
    I->sq[s] = (uint8_t)t;
    I->sq[b] = 0;
    if (r < 0 || I->stop)
      return r;
    if (r < least)
      least = r;
  }
  return least;
}

int main(int argc, char **argv)
{
  static ida_t I;
  int a = 1, i, t, s, b = -1, h = 0, bound, r = 1 << 30, seen = 0;
  if (argc > 2 && strcmp(argv[1], "-s") == 0) {
    I.limit = atof(argv[2]);
    a = 3;
  }
  if (argc - a != 16) {
    fprintf(stderr, "usage: korf_ida [-s SECONDS] T0 T1 ... T15\n");
    return 2;
  }
  for (i = 0; i < 16; i++) {
    t = atoi(argv[a + i]);
    if (t < 0 || t > 15 || (seen >> t & 1)) {
      fprintf(stderr, "korf_ida: not a permutation of 0..15\n");
      return 2;
    }
    seen |= 1 << t;
    I.sq[i] = (uint8_t)t;
    if (t == 0)
      b = i;
  }
  for (t = 0; t < 16; t++)
    for (s = 0; s < 16; s++)
      I.md[t][s] = t == 0 ? 0 : abs(t / 4 - s / 4) + abs(t % 4 - s % 4);
  for (s = 0; s < 16; s++) {
    if (s / 4 > 0) I.nb[s][I.nnb[s]++] = s - 4;
    if (s % 4 > 0) I.nb[s][I.nnb[s]++] = s - 1;
    if (s % 4 < 3) I.nb[s][I.nnb[s]++] = s + 1;
    if (s / 4 < 3) I.nb[s][I.nnb[s]++] = s + 4;
  }
  for (s = 0; s < 16; s++)
    h += I.md[I.sq[s]][s];
  I.t0 = now();
  for (bound = h; !I.stop; bound = r) {
    r = search(&I, b, h, 0, -1, bound);
    if (r < 0)
      break;
    if (r >= 1 << 30)          /* (an odd permutation: no plan) */
      break;
  }
  if (r < 0)
    printf("length=%d", I.found);
  else
    printf("length=%s", I.stop ? "limit" : "0");
  printf(" generated=%llu seconds=%.3f\n", (unsigned long long)I.generated,
         now() - I.t0);
  return 0;
}
