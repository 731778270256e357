/* testutil.h - helpers shared by the Check suites (tests/check_*.c). */
#ifndef GDL_TESTUTIL_H
#define GDL_TESTUTIL_H

#include <check.h>
#include "gdl.h"

/* The path of a corpus file: $GDL_CORPUS/REL (default
 * ../shared/gdl-corpus/REL).  Returns a static buffer of the caller's
 * (overwritten by the next call). */
const char *tu_corpus(const char *rel);
/* Loads text (len bytes, file `name`), which includes a file whose name
 * holds a NUL byte: 1 when that is refused with one error, that the name
 * holds a NUL byte, at *line:*col; 0 (the diagnostics on stderr) else. */
int tu_include_nul(const char *name, const char *text, size_t len,
                   unsigned *line, unsigned *col);

/* A context with FILE(s) loaded and compiled (NULL-terminated list); *st
 * gets the status of the first failing step (GDL_OK when all went well).
 * The caller frees the context. */
gdl_ctx *tu_load(gdl_status *st, unsigned flags, const char *file, ...);
/* The same for a description in a string (named "test.kif"). */
gdl_ctx *tu_load_text(gdl_status *st, unsigned flags, const char *text);
/* The same, failing the test with the diagnostics unless all went well. */
gdl_ctx *tu_text(const char *text, unsigned flags);

/* Runs a shell command; returns its exit status and the output it wrote
 * (malloc'd, NUL-terminated; pass NULL to ignore). */
int tu_run(const char *cmd, char **out, char **err);

/* The gdl binary to run: $GDL or build/gdl. */
const char *tu_gdl(void);
/* Runs `gdl ARGS` (printf-style) as tu_run does. */
int tu_gdl_run(char **out, char **err, const char *fmt, ...);

/* The state reached from the start by playing the moves in text (k moves
 * per step, as gdl legal --moves); fails the test on an illegal move. */
void tu_play(gdl_ctx *ctx, const char *moves, gdl_state *out);

/* Terms as one string of KIF terms sorted by text and separated by single
 * spaces (malloc'd): comparable across contexts, whose term ids differ. */
char *tu_terms_text(gdl_ctx *ctx, const gdl_term *t, size_t n);
/* The legal moves of a role in the current state, so (malloc'd). */
char *tu_legal_text(gdl_ctx *ctx, size_t role);

/* Suites, one per module. */
Suite *parse_suite(void);
Suite *checker_suite(void);
Suite *robust_suite(void);
Suite *engine_suite(void);
Suite *eval_suite(void);
Suite *search_suite(void);
Suite *solve_json_suite(void);
Suite *cli_suite(void);
Suite *teach_suite(void);
Suite *fmt_suite(void);
Suite *ground_suite(void);
Suite *infix_suite(void);
Suite *play_suite(void);
Suite *ggp_suite(void);

#endif
