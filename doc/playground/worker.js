/* worker.js - the playground's solver, and its computer player, in a Web
 * Worker so that a long search never freezes the page.  The page stops a search by terminating
 * the worker (a running WebAssembly call cannot be interrupted otherwise),
 * and starts a new one for the next search.
 *
 * Message in:  {files: {path: text}, name, text, moves: [joint move, ...],
 *               algorithm, seconds, states, fromCurrent}, or, for a
 *               computer's move, {files, name, text, moves, choose: {role,
 *               kind, seconds}} (answered by web_choose)
 * Messages out: {type: "progress", depth, expanded, generated, seconds,
 *               memory, algorithm}, then {type: "done", result} (web_solve's
 *               answer, {from_step, solve}, with wall_seconds) or {type:
 *               "error", message}. */
importScripts("gdl.js");

onmessage = async (ev) => {
  const job = ev.data;
  try {
    const M = await createGdl({
      gdlProgress: (depth, expanded, generated, seconds, memory, algorithm) =>
        postMessage({ type: "progress", depth, expanded, generated, seconds, memory, algorithm }),
    });
    for (const [path, text] of Object.entries(job.files)) {
      const dir = path.slice(0, path.lastIndexOf("/"));
      if (dir) M.FS.mkdirTree(dir);
      M.FS.writeFile(path, text);
    }
    const call = (fn, types, args) => JSON.parse(M.ccall(fn, "string", types, args));
    const loaded = call("web_load", ["string", "string"], [job.name, job.text]);
    if (!loaded.game) throw new Error("the rules are not a game: " + (loaded.message || loaded.not_game));
    for (const mv of job.moves) {
      const s = call("web_play", ["string"], [mv]);
      if (s.error) throw new Error(s.error);
    }
    if (job.choose) {          /* a computer's move, not a solve */
      const result = call("web_choose", ["number", "string", "number"],
                          [job.choose.role, job.choose.kind, job.choose.seconds]);
      if (result.error) throw new Error(result.error);
      postMessage({ type: "done", result });
      return;
    }
    const t0 = performance.now();
    const result = call("web_solve", ["string", "number", "number", "number"],
                        [job.algorithm, job.seconds, job.states || 0, job.fromCurrent ? 1 : 0]);
    if (result.error) throw new Error(result.error);
    result.wall_seconds = (performance.now() - t0) / 1000;
    postMessage({ type: "done", result });
  } catch (e) {
    postMessage({ type: "error", message: String(e.message || e) });
  }
};
