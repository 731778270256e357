/*
 * fuzz.h - what the libFuzzer targets in tests/fuzz share: how an input
 * is split into a description and the bytes that choose moves, and how
 * those bytes are read.
 *
 * An input is GDL text, optionally followed by a NUL byte and a tail:
 *
 *     (role robot) (init (cell 1)) ... \0 <tail bytes>
 *
 * The text before the first NUL is the description (a NUL is never part
 * of valid GDL, so nothing is lost).  The tail chooses the moves of the
 * evaluating targets, one byte per choice, so that libFuzzer can steer
 * play without touching the rules; when it runs out (the corpus files
 * have none), choices come from gdl_random() seeded with a hash of the
 * whole input, so every input still plays deterministically.
 */
#ifndef GDL_FUZZ_H
#define GDL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gdl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The name the description is loaded under.  `;#include "F"` reads F
 * relative to it: in a directory that does not exist, no input reads the
 * files around the fuzzer (its own corpus, its logs), which would make a
 * run depend on them. */
#define FUZZ_NAME "no-such-dir/fuzz.kif"

/* The bytes that choose: the tail, then a generator. */
typedef struct {
  const uint8_t *tail;   /* bytes after the first NUL */
  size_t n, i;           /* tail length, bytes used */
  uint64_t rng;          /* gdl_random's state once the tail is used up */
} fuzz_chooser;

/* Splits data into the description (*len bytes from data) and a chooser
 * over the rest. */
static inline void fuzz_split(const uint8_t *data, size_t size, size_t *len,
                              fuzz_chooser *ch)
{
  const uint8_t *nul = size ? memchr(data, 0, size) : NULL;
  uint64_t h = 1469598103934665603ull;
  size_t i;
  *len = nul ? (size_t)(nul - data) : size;
  ch->tail = nul ? nul + 1 : data + size;
  ch->n = size - (size_t)(ch->tail - data);
  ch->i = 0;
  for (i = 0; i < size; i++)
    h = (h ^ data[i]) * 1099511628211ull;
  ch->rng = h;
}

/* A choice below n (n > 0). */
static inline size_t fuzz_choose(fuzz_chooser *ch, size_t n)
{
  if (ch->i < ch->n)
    return ch->tail[ch->i++] % n;
  return gdl_random(&ch->rng, n);
}

/* A 64-bit hash of a list of terms (legal moves, goal values), to compare
 * what two engines said without keeping the lists. */
static inline uint64_t fuzz_hash_terms(const gdl_term *t, size_t n)
{
  uint64_t h = 1469598103934665603ull ^ n;
  size_t i;
  for (i = 0; i < n; i++)
    h = (h ^ t[i]) * 1099511628211ull;
  return h;
}

#endif
