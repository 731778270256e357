/* graph-worker.js - Graphviz (viz-js, compiled to WebAssembly) lays out
 * the state graph here, off the page's thread: dot takes minutes on a few
 * hundred states, and the page stops it by terminating the worker.
 *
 * Message in: {dot, engine}.  Out: {svg} or {error}. */
importScripts("viz/viz-global.js");

const ready = Viz.instance();

onmessage = async (ev) => {
  try {
    const viz = await ready;
    const r = viz.render(ev.data.dot, { format: "svg", engine: ev.data.engine || "dot" });
    if (r.status === "success") postMessage({ svg: r.output });
    else postMessage({ error: r.errors.map((e) => e.message).join("; ") });
  } catch (e) {
    postMessage({ error: String(e.message || e) });
  }
};
