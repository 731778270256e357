/*
 * web.c - the browser playground's front end: libgdl compiled to
 * WebAssembly (make web), called from JavaScript (doc/playground/).
 *
 * Like cli.c, a thin layer over gdl.h, and not part of libgdl.a.  Every
 * exported function takes text and returns one JSON object as text, which
 * stays valid until the next call.  One description is loaded at a time,
 * in one gdl_ctx; the states of the game played are kept on a stack, so
 * that undo is a pop.  A failure gives {"error": "message"}.
 *
 * Included files (`;#include "../rules/dogbunny.kif"`) are read from
 * Emscripten's virtual file system, where the page writes the bundled
 * files with the same relative layout as in a checkout.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

#include "gdl.h"

/* What JavaScript calls (each described where it is defined). */
const char *web_load(const char *name, const char *text);
const char *web_state(void);
const char *web_play(const char *joint);
const char *web_undo(void);
const char *web_restart(void);
const char *web_solve(const char *algorithm, double max_seconds,
                      double max_states, int from_current);
const char *web_explain(const char *fact, const char *does);
const char *web_trace(const char *does);
const char *web_graph(const char *name, double max_states, int plan);
const char *web_query(const char *pattern);
const char *web_version(void);
const char *web_choose(int role, const char *kind, double seconds);

/* ---- the JSON text returned ------------------------------------------- */

static char *out;                 /* the text of the last answer */
static size_t outn, outcap;

static void put(const char *s, size_t n)
{
  if (outn + n + 1 > outcap) {
    size_t cap = outcap ? outcap : 4096;
    char *p;
    while (outn + n + 1 > cap)
      cap *= 2;
    if (!(p = realloc(out, cap)))
      return;                     /* the answer is cut short */
    out = p;
    outcap = cap;
  }
  memcpy(out + outn, s, n);
  outn += n;
  out[outn] = 0;
}

static void puts_(const char *s) { put(s, strlen(s)); }

static void putf(const char *fmt, ...)
{
  char buf[512];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > 0)
    put(buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void put_piece(void *arg, const char *p, size_t len)
{
  (void)arg;
  put(p, len);
}

/* s as a JSON string, n bytes of it. */
static void put_strn(const char *s, size_t n)
{
  put("\"", 1);
  gdl_json_escape(s, n, put_piece, NULL);
  put("\"", 1);
}

static void put_str(const char *s) { put_strn(s, strlen(s)); }

static void begin(void)
{
  outn = 0;
  put("", 0);
}

static const char *error(const char *fmt, ...)
{
  char buf[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  begin();
  puts_("{\"error\": ");
  put_str(buf);
  puts_("}");
  return out;
}

/* ---- the description and the states played ---------------------------- */

static gdl_ctx *ctx;
static int ready;                 /* compiled, and a game */
static gdl_state *stack;          /* stack[0] the initial state */
static size_t depth, stackcap;    /* states on the stack */
static char **played;             /* the joint move that led to stack[i] */

static void drop_stack(void)
{
  size_t i;
  for (i = 0; i < depth; i++) {
    gdl_state_release(ctx, &stack[i]);
    free(played[i]);
  }
  depth = 0;
}

static int push(const gdl_state *s, const char *move)
{
  if (depth == stackcap) {
    size_t cap = stackcap ? stackcap * 2 : 64;
    gdl_state *a = realloc(stack, cap * sizeof *stack);
    char **b;
    if (!a)
      return -1;
    stack = a;
    if (!(b = realloc(played, cap * sizeof *played)))
      return -1;
    played = b;
    stackcap = cap;
  }
  memset(&stack[depth], 0, sizeof *stack);
  if (gdl_state_copy(ctx, &stack[depth], s) != GDL_OK)
    return -1;
  played[depth] = strdup(move);
  depth++;
  return 0;
}

/* The diagnostics as a JSON array: each FILE:LINE:COL: SEVERITY: MESSAGE
 * line of gdl_diagnostics() (the source and caret lines are left out). */
static void put_diagnostics(void)
{
  const char *d = ctx ? gdl_diagnostics(ctx) : "";
  int first = 1;
  puts_("[");
  while (*d) {
    const char *eol = strchr(d, '\n'), *sev, *msg;
    const char *kind = "error";
    size_t len = eol ? (size_t)(eol - d) : strlen(d);
    long line = 0, col = 0;
    size_t flen = 0;
    if (d[0] != ' ' && len > 0) {
      const char *e = NULL, *w = NULL, *p;
      /* the severity marker: the first ": error: " or ": warning: " */
      for (p = d; p < d + len; p++) {
        if (!e && strncmp(p, ": error: ", 9) == 0)
          e = p;
        if (!w && strncmp(p, ": warning: ", 11) == 0)
          w = p;
      }
      sev = e && (!w || e < w) ? e : w;
      if (sev == w && w)
        kind = "warning";
      if (sev) {
        /* FILE:LINE:COL before it, or only FILE */
        const char *c2 = sev, *c1;
        msg = sev + (kind[0] == 'e' ? 9 : 11);
        flen = (size_t)(sev - d);
        for (c1 = sev; c1 > d && c1[-1] >= '0' && c1[-1] <= '9'; c1--)
          ;
        if (c1 < c2 && c1 > d && c1[-1] == ':') {
          const char *c0 = c1 - 1, *b;
          for (b = c0; b > d && b[-1] >= '0' && b[-1] <= '9'; b--)
            ;
          if (b < c0 && b > d && b[-1] == ':') {
            line = strtol(b, NULL, 10);
            col = strtol(c1, NULL, 10);
            flen = (size_t)(b - 1 - d);
          }
        }
      } else {
        msg = d;
      }
      puts_(first ? "{" : ", {");
      first = 0;
      puts_("\"file\": ");
      put_strn(d, sev ? flen : 0);
      putf(", \"line\": %ld, \"col\": %ld, \"severity\": \"%s\", "
           "\"message\": ", line, col, kind);
      put_strn(msg, (size_t)(d + len - msg));
      puts_("}");
    }
    d += len + (eol ? 1 : 0);
  }
  puts_("]");
}

/* Loads and compiles a description from text (`name` ends in .kif, or in
 * .hrf or .gdl for infix), chooses the engine, and starts the game:
 * {"ok", "game", "roles", "engine", "errors", "warnings", "diagnostics",
 * "not_game"}. */
EMSCRIPTEN_KEEPALIVE
const char *web_load(const char *name, const char *text)
{
  gdl_status st;
  gdl_state s = { 0, 0, NULL };
  size_t r;
  if (ctx) {
    drop_stack();
    gdl_free(ctx);
  }
  ready = 0;
  if (!(ctx = gdl_new()))
    return error("out of memory");
  gdl_set_memory_limit(ctx, (size_t)1536 << 20);
  st = gdl_load_string(ctx, name, text, strlen(text));
  if (st == GDL_OK && gdl_error_count(ctx) == 0)
    st = gdl_compile(ctx, 0);
  if (st == GDL_OK && gdl_error_count(ctx) == 0 && gdl_is_game(ctx)) {
    st = gdl_use_engine(ctx, GDL_ENGINE_AUTO);
    if (st == GDL_OK)
      st = gdl_initial(ctx, &s);
    if (st == GDL_OK && push(&s, "") == 0 &&
        gdl_set_state(ctx, &s) == GDL_OK)
      ready = 1;
    gdl_state_release(ctx, &s);
  }
  begin();
  putf("{\"ok\": %s, \"game\": %s, \"errors\": %zu, \"warnings\": %zu, ",
       st == GDL_OK && gdl_error_count(ctx) == 0 ? "true" : "false",
       ready ? "true" : "false", gdl_error_count(ctx),
       gdl_warning_count(ctx));
  puts_("\"message\": ");
  put_str(st == GDL_OK ? "" : gdl_errmsg(ctx));
  puts_(", \"not_game\": ");
  put_str(st == GDL_OK && !gdl_is_game(ctx) && gdl_not_game_reason(ctx)
              ? gdl_not_game_reason(ctx) : "");
  puts_(", \"engine\": ");
  put_str(ready ? gdl_engine_name(ctx) : "");
  puts_(", \"roles\": [");
  for (r = 0; ready && r < gdl_role_count(ctx); r++) {
    puts_(r ? ", " : "");
    put_str(gdl_term_str(ctx, gdl_role(ctx, r)));
  }
  puts_("], \"diagnostics\": ");
  put_diagnostics();
  puts_("}");
  return out;
}

/* Terms as a JSON array of their texts, sorted by text as gdl state
 * lists them (gdl_sort_terms). */
static void put_terms(const gdl_term *t, size_t n)
{
  gdl_term *v = malloc((n + 1) * sizeof *v);
  size_t i;
  puts_("[");
  if (v && n)
    memcpy(v, t, n * sizeof *v);
  if (v)
    gdl_sort_terms(ctx, v, n);
  for (i = 0; v && i < n; i++) {
    puts_(i ? ", " : "");
    put_str(gdl_term_str(ctx, v[i]));
  }
  free(v);
  puts_("]");
}

/* The current state: {"step", "moves" (the joint moves played), "facts",
 * "terminal", "goals": [{"role", "goal"}], "legal": [{"role", "moves"}]}. */
EMSCRIPTEN_KEEPALIVE
const char *web_state(void)
{
  size_t r, i, k;
  if (!ready)
    return error("no game is loaded");
  k = gdl_role_count(ctx);
  if (gdl_set_state(ctx, &stack[depth - 1]) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  begin();
  putf("{\"step\": %zu, \"moves\": [", depth - 1);
  for (i = 1; i < depth; i++) {
    puts_(i > 1 ? ", " : "");
    put_str(played[i]);
  }
  puts_("], \"facts\": ");
  put_terms(stack[depth - 1].facts, stack[depth - 1].n);
  putf(", \"terminal\": %s, \"goals\": [",
       gdl_terminal(ctx) ? "true" : "false");
  for (r = 0; r < k; r++) {
    long g = gdl_goal(ctx, r);
    puts_(r ? ", {\"role\": " : "{\"role\": ");
    put_str(gdl_term_str(ctx, gdl_role(ctx, r)));
    if (g >= 0)
      putf(", \"goal\": %ld}", g);
    else
      puts_(", \"goal\": null}");
  }
  puts_("], \"legal\": [");
  for (r = 0; r < k; r++) {
    const gdl_term *mv;
    size_t n = 0;
    puts_(r ? ", {\"role\": " : "{\"role\": ");
    put_str(gdl_term_str(ctx, gdl_role(ctx, r)));
    puts_(", \"moves\": ");
    if (gdl_terminal(ctx) || gdl_legal(ctx, r, &mv, &n) != GDL_OK)
      n = 0;
    put_terms(mv, n);
    puts_("}");
  }
  puts_("]}");
  return out;
}

/* Parses one move per role; NULL when they are not, with the answer set
 * to the error. */
static gdl_term *parse_joint(const char *label, const char *text)
{
  gdl_term *mv;
  size_t n, k = gdl_role_count(ctx);
  if (gdl_parse_terms(ctx, label, text, 0, &mv, &n) != GDL_OK) {
    error("%s", gdl_errmsg(ctx));
    return NULL;
  }
  if (n != k) {
    error("%s takes one move per role (%zu), not %zu", label, k, n);
    return NULL;
  }
  return mv;
}

/* Plays a joint move (one move per role, KIF text, in role order) from
 * the current state; the new state as by web_state(). */
EMSCRIPTEN_KEEPALIVE
const char *web_play(const char *joint)
{
  gdl_state nx = { 0, 0, NULL };
  gdl_term *mv;
  size_t r, k;
  char text[4096];
  size_t at = 0;
  if (!ready)
    return error("no game is loaded");
  k = gdl_role_count(ctx);
  if (gdl_set_state(ctx, &stack[depth - 1]) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  if (gdl_terminal(ctx))
    return error("the game is over: no move can be played");
  if (!(mv = parse_joint("the move", joint)))
    return out;
  for (r = 0; r < k; r++)
    if (!gdl_is_legal(ctx, r, mv[r])) {
      char m[1024];
      gdl_term_write(ctx, mv[r], m, sizeof m);
      return error("%s is not a legal move for %s", m,
                   gdl_term_str(ctx, gdl_role(ctx, r)));
    }
  for (r = 0; r < k && at + 1 < sizeof text; r++) {
    if (r)
      text[at++] = ' ';
    at += gdl_term_write(ctx, mv[r], text + at, sizeof text - at);
    if (at >= sizeof text)
      at = sizeof text - 1;
  }
  text[at] = 0;
  if (gdl_next(ctx, mv, &nx) != GDL_OK || push(&nx, text) != 0) {
    gdl_state_release(ctx, &nx);
    return error("%s", gdl_errmsg(ctx));
  }
  gdl_state_release(ctx, &nx);
  return web_state();
}

/* The computer's move for role number `role` in the current state,
 * chosen by `kind` ("mcts", "perfect" or "random"; gdl_choose_move) within
 * `seconds`: {"role", "move", "proven", "goal" (under perfect play when
 * proven, else the expected goal, or null), "playouts", "states",
 * "seconds"}.  The page asks it in its worker, so that thinking never
 * freezes the page, and plays the move itself. */
EMSCRIPTEN_KEEPALIVE
const char *web_choose(int role, const char *kind, double seconds)
{
  gdl_choose_opts o;
  gdl_choose_info info;
  gdl_term mv;
  char m[4096];
  if (!ready)
    return error("no game is loaded");
  if (role < 0 || (size_t)role >= gdl_role_count(ctx))
    return error("no role number %d", role);
  memset(&o, 0, sizeof o);
  if (gdl_chooser_parse(kind, &o.kind) != 0)
    return error("no computer player '%s': mcts, perfect or random", kind);
  o.seconds = seconds > 0 ? seconds : 1;
  o.seed = (uint64_t)depth * 1000003u + (uint64_t)role;
  if (gdl_choose_move(ctx, &stack[depth - 1], (size_t)role, &o, &mv,
                      &info) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  gdl_term_write(ctx, mv, m, sizeof m);
  begin();
  puts_("{\"role\": ");
  put_str(gdl_term_str(ctx, gdl_role(ctx, (size_t)role)));
  puts_(", \"move\": ");
  put_str(m);
  putf(", \"proven\": %s, \"goal\": ", info.proven ? "true" : "false");
  if (info.proven)
    putf("%ld", info.proven_goal);
  else if (info.value >= 0)
    putf("%.0f", info.value);
  else
    puts_("null");
  putf(", \"playouts\": %llu, \"states\": %llu, \"seconds\": %.3f}",
       (unsigned long long)info.playouts, (unsigned long long)info.nodes,
       info.seconds);
  return out;
}

/* Takes back the last joint move played. */
EMSCRIPTEN_KEEPALIVE
const char *web_undo(void)
{
  if (!ready)
    return error("no game is loaded");
  if (depth > 1) {
    depth--;
    gdl_state_release(ctx, &stack[depth]);
    free(played[depth]);
  }
  return web_state();
}

/* Back to the initial state. */
EMSCRIPTEN_KEEPALIVE
const char *web_restart(void)
{
  if (!ready)
    return error("no game is loaded");
  while (depth > 1)
    web_undo();
  return web_state();
}

#ifdef __EMSCRIPTEN__
/* The search's figures, four times a second: to Module.gdlProgress when
 * the page set it (the worker posts them to the page). */
static void progress(void *arg, const gdl_progress *p)
{
  (void)arg;
  EM_ASM({
    if (Module.gdlProgress)
      Module.gdlProgress($0, $1, $2, $3, $4, $5 ? UTF8ToString($5) : "");
  }, p->depth, (double)p->expanded, (double)p->generated, p->seconds,
     (double)p->memory, p->algorithm);
}
#endif

/* Solves from the initial state, or from the current state when
 * from_current: {"from_step" (the step searched from, 0 for the start),
 * "solve" (gdl_solve_json's object, the one `gdl solve --json` prints)}.
 * algorithm: a name gdl_algorithm_name() gives; any other is auto.  0 for
 * no limit. */
EMSCRIPTEN_KEEPALIVE
const char *web_solve(const char *algorithm, double max_seconds,
                      double max_states, int from_current)
{
  gdl_solve_opts so;
  gdl_solve_result res;
  gdl_status st;
  const char *json;
  size_t len;
  if (!ready)
    return error("no game is loaded");
  memset(&so, 0, sizeof so);
  so.algorithm = GDL_AUTO;        /* none named: auto */
  gdl_algorithm_parse(algorithm, &so.algorithm);
  so.max_seconds = max_seconds;
  so.max_states = (uint64_t)max_states;
  so.start = from_current ? &stack[depth - 1] : NULL;
#ifdef __EMSCRIPTEN__
  so.progress = progress;
#endif
  st = gdl_solve(ctx, &so, &res);
  gdl_set_state(ctx, &stack[depth - 1]);
  if (st == GDL_OK)
    st = gdl_solve_json(ctx, &res, &json, &len);
  if (st != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  begin();
  putf("{\"from_step\": %zu, \"solve\": ",
       from_current ? depth - 1 : (size_t)0);
  put(json, len);
  puts_("}");
  return out;
}

/* The moves of `does` (one per role, or "" for none) parsed into *mv. */
static int teach_moves(const char *does, gdl_term **mv)
{
  *mv = NULL;
  if (!does || !*does)
    return 0;
  if (!ready) {
    error("moves need a game");
    return -1;
  }
  if (gdl_terminal(ctx)) {
    error("the state is terminal: no move can be played");
    return -1;
  }
  return (*mv = parse_joint("the moves", does)) ? 0 : -1;
}

/* Why `fact` holds in the current state (after the joint move `does`, or
 * ""): {"holds", "text"}. */
EMSCRIPTEN_KEEPALIVE
const char *web_explain(const char *fact, const char *does)
{
  gdl_term t, *mv;
  const char *text;
  int holds;
  if (!ctx || gdl_error_count(ctx))
    return error("no description is loaded");
  if (ready && gdl_set_state(ctx, &stack[depth - 1]) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  if (teach_moves(does, &mv))
    return out;
  if (gdl_parse_term(ctx, fact, 1, &t) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  if (gdl_explain(ctx, t, mv, &holds, &text) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  begin();
  putf("{\"holds\": %s, \"text\": ", holds ? "true" : "false");
  put_str(text);
  puts_("}");
  return out;
}

/* Forward chaining round by round in the current state (after the joint
 * move `does`, or ""): {"text"}. */
EMSCRIPTEN_KEEPALIVE
const char *web_trace(const char *does)
{
  gdl_term *mv;
  const char *text;
  if (!ctx || gdl_error_count(ctx))
    return error("no description is loaded");
  if (ready && gdl_set_state(ctx, &stack[depth - 1]) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  if (teach_moves(does, &mv))
    return out;
  if (gdl_trace(ctx, mv, &text) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  begin();
  puts_("{\"text\": ");
  put_str(text);
  puts_("}");
  return out;
}

/* The states reachable from the current one as Graphviz DOT, the plan in
 * red when plan: {"dot", "states", "edges", "complete", "goal_found"}. */
EMSCRIPTEN_KEEPALIVE
const char *web_graph(const char *name, double max_states, int plan)
{
  gdl_graph_info info;
  const char *dot;
  if (!ready)
    return error("no game is loaded");
  if (gdl_graph_dot(ctx, &stack[depth - 1], name, (size_t)max_states, plan,
                    &dot, &info) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  begin();
  puts_("{\"dot\": ");
  put_str(dot);
  putf(", \"states\": %u, \"edges\": %u, \"complete\": %s, "
       "\"goal_found\": %s}", info.states, info.edges,
       info.complete ? "true" : "false", info.goal_found ? "true" : "false");
  return out;
}

static int add_answer(void *arg, gdl_term t)
{
  size_t *n = arg;
  puts_((*n)++ ? ", " : "");
  put_str(gdl_term_str(ctx, t));
  return *n >= 10000;
}

/* Every instance of `pattern` that holds in the current state (or in a
 * rule base): {"answers"}. */
EMSCRIPTEN_KEEPALIVE
const char *web_query(const char *pattern)
{
  gdl_term t;
  size_t n = 0;
  if (!ctx || gdl_error_count(ctx))
    return error("no description is loaded");
  if (ready && gdl_set_state(ctx, &stack[depth - 1]) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  if (gdl_parse_term(ctx, pattern, 1, &t) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  begin();
  puts_("{\"answers\": [");
  if (gdl_query(ctx, t, add_answer, &n) != GDL_OK)
    return error("%s", gdl_errmsg(ctx));
  puts_("]}");
  return out;
}

/* The library's version. */
EMSCRIPTEN_KEEPALIVE
const char *web_version(void)
{
  return GDL_VERSION;
}
