/* app.js - the gdl playground: an editor for the rules, and the game they
 * describe played, solved, explained, traced and drawn, all in the page.
 *
 * gdl.js (libgdl and engine/bind/web.c compiled to WebAssembly) runs here for
 * everything quick; a solve runs in worker.js.  Each call of the C side
 * returns one JSON object (engine/bind/web.c says which).  The bundled puzzles
 * and rule libraries (files.json lists them) are fetched once and written
 * into the module's file system with the layout of a checkout, so that a
 * puzzle's `;#include "../rules/dogbunny.kif"` finds its library.
 *
 * The buffer has a file name (puzzles/NAME.kif, or .hrf for infix): the
 * library reads the text as infix when the name says so, and messages
 * name it. */
"use strict";

const $ = (id) => document.getElementById(id);
const LINE = 18;                 /* the editor's line height, as style.css */

const app = {
  M: null,                       /* the WebAssembly module */
  files: {},                     /* bundled path -> text */
  name: "",                      /* the buffer's file name */
  loaded: null,                  /* web_load's answer for the text checked */
  checkedText: null,             /* the text that answer is for */
  state: null,                   /* web_state's answer */
  chosen: [],                    /* multi-role: the move chosen per role */
  prevFacts: new Set(),
  plan: null,                    /* {moves, base (joint moves before it), at} */
  worker: null,
  graphWorker: null,
  lastSolve: null,               /* web_solve's last answer: {from_step, solve} */
  computer: [],                  /* multi-role: the computer plays role i */
  roles: "",                     /* the roles the opponent boxes are for */
  thinker: null,                 /* the worker choosing a computer's move */
};

function call(fn, types, args) {
  return JSON.parse(app.M.ccall(fn, "string", types || [], args || []));
}

function setStatus(text) { $("status").textContent = text; }

function el(tag, props, text) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  if (text !== undefined) e.textContent = text;
  return e;
}

/* ---- files ------------------------------------------------------------ */

async function loadFiles() {
  const list = await (await fetch("files.json")).json();
  await Promise.all(list.map(async (path) => {
    const r = await fetch(path);
    if (r.ok) app.files[path] = await r.text();
  }));
  for (const [path, text] of Object.entries(app.files)) {
    app.M.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    app.M.FS.writeFile(path, text);
  }
  const menu = $("puzzle");
  for (const folder of ["puzzles", "rules"]) {
    const group = el("optgroup", { label: folder === "puzzles" ? "Puzzles" : "Rule libraries" });
    list.filter((p) => p.startsWith(folder + "/")).sort().forEach((p) =>
      group.appendChild(el("option", { value: p }, p.slice(folder.length + 1))));
    menu.appendChild(group);
  }
}

function openFile(path) {
  app.name = path;
  $("editor").value = app.files[path] || "";
  $("syntax").value = /\.(hrf|gdl)$/.test(path) ? "hrf" : "kif";
  $("puzzle").value = path;
  editorChanged();
  check();
}

/* The syntax selector changes the buffer's file name: the library reads
 * .hrf (and .gdl) as infix, .kif as KIF. */
function syntaxChanged() {
  const ext = $("syntax").value === "hrf" ? ".hrf" : ".kif";
  app.name = app.name.replace(/\.(kif|hrf|gdl)$/, "") + ext;
  $("filename").textContent = app.name;
  check();
}

/* "puzzles/../rules/x.kif" -> "rules/x.kif" */
function normalize(path) {
  const out = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/* ---- the editor ------------------------------------------------------- */

function lineCount() { return $("editor").value.split("\n").length; }

function editorChanged() {
  $("filename").textContent = app.name +
    (app.checkedText !== null && $("editor").value !== app.checkedText ? "  (changed: Check to read it again)" : "");
  drawGutter();
}

function drawGutter() {
  const g = $("gutter"), n = lineCount();
  if (g.childElementCount !== n) {
    g.textContent = "";
    for (let i = 1; i <= n; i++) g.appendChild(el("div", { id: "line-" + i }, String(i)));
  }
  for (const d of g.children) d.className = "";
  const marks = $("marks");
  marks.textContent = "";
  if (app.loaded) {
    for (const d of app.loaded.diagnostics) {
      if (!d.line || normalize(d.file) !== normalize(app.name)) continue;
      const row = g.children[d.line - 1];
      if (row) {
        if (row.className !== "err") row.className = d.severity === "error" ? "err" : "warn";
        row.title = d.message;
      }
      const band = el("div", { className: "band" + (d.severity === "error" ? "" : " warn") });
      band.dataset.line = d.line;
      marks.appendChild(band);
      const caret = el("div", { className: "caret" });
      caret.dataset.line = d.line;
      caret.dataset.col = d.col;
      marks.appendChild(caret);
    }
  }
  if (app.highlight) {
    const band = el("div", { className: "band hl" });
    band.dataset.line = app.highlight;
    marks.appendChild(band);
  }
  placeMarks();
}

let charWidth = 0;
function measureChar() {
  const c = document.createElement("canvas").getContext("2d");
  c.font = getComputedStyle($("editor")).font;
  charWidth = c.measureText("0000000000").width / 10;
}

/* The marks follow the text as it scrolls. */
function placeMarks() {
  const ed = $("editor"), top = ed.scrollTop, left = ed.scrollLeft;
  $("gutter").scrollTop = top;
  if (!charWidth) measureChar();
  for (const m of $("marks").children) {
    const y = 4 + (m.dataset.line - 1) * LINE - top;
    m.style.top = y + "px";
    if (m.className === "caret") {
      m.style.left = (8 + (m.dataset.col - 1) * charWidth - left) + "px";
      m.style.width = Math.max(charWidth, 6) + "px";
    }
  }
}

/* Puts the cursor at line:col and scrolls it into view. */
function goTo(line, col) {
  const ed = $("editor"), lines = ed.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, (col || 1) - 1);
  ed.focus();
  ed.setSelectionRange(at, col ? at + 1 : at + (lines[line - 1] || "").length);
  ed.scrollTop = Math.max(0, (line - 5) * LINE);
  app.highlight = line;
  drawGutter();
}

/* ---- check and load --------------------------------------------------- */

function check() {
  const text = $("editor").value;
  app.highlight = 0;
  app.loaded = call("web_load", ["string", "string"], [app.name, text]);
  app.checkedText = text;
  app.plan = null;
  app.prevFacts = new Set();
  showDiagnostics();
  editorChanged();
  clearOutputs();
  /* the first error of the buffer in view */
  const first = app.loaded.diagnostics.find((d) => d.line && normalize(d.file) === normalize(app.name));
  $("editor").scrollTop = first ? Math.max(0, (first.line - 5) * LINE) : 0;
  placeMarks();
  if (app.loaded.game) {
    setStatus(`${app.name}: ${app.loaded.roles.length} role${app.loaded.roles.length > 1 ? "s" : ""}, ` +
              `${app.loaded.engine} engine`);
    refresh(call("web_state"));
  } else {
    app.state = null;
    showState();
    setStatus(app.loaded.ok ? `${app.name}: ${app.loaded.not_game || "not a game"}` :
              `${app.name}: ${app.loaded.errors} error${app.loaded.errors === 1 ? "" : "s"}`);
  }
}

function showDiagnostics() {
  const ul = $("diagnostics");
  ul.textContent = "";
  const L = app.loaded;
  if (!L.diagnostics.length) {
    ul.appendChild(el("li", { className: "ok" },
      L.ok ? (L.game ? "No errors: the rules are a game." : "No errors" + (L.not_game ? ": " + L.not_game : ".")) :
             L.message || "The rules could not be read."));
    return;
  }
  for (const d of L.diagnostics) {
    const where = d.line ? `${d.file}:${d.line}:${d.col}: ` : (d.file ? d.file + ": " : "");
    const li = el("li", { className: d.severity }, `${where}${d.severity}: ${d.message}`);
    li.dataset.line = d.line;
    li.dataset.col = d.col;
    if (d.line && normalize(d.file) === normalize(app.name))
      li.onclick = () => goTo(d.line, d.col);
    else if (d.line && app.files[normalize(d.file)])
      li.onclick = () => showSource(normalize(d.file), d.line);
    ul.appendChild(li);
  }
}

function clearOutputs() {
  for (const id of ["explain-out", "trace-out", "solve-status", "solve-progress", "graph-status"])
    $(id).textContent = "";
  $("plan").textContent = "";
  $("plan-controls").hidden = true;
  $("graph-out").textContent = "";
  $("source").hidden = true;
  stopGraph();
  stopWorker();          /* a search of the rules read before */
}

/* ---- play ------------------------------------------------------------- */

function refresh(state) {
  if (state.error) {
    setStatus(state.error);
    return;
  }
  if (app.state) app.prevFacts = new Set(app.state.facts);
  app.state = state;
  app.chosen = [];
  showState();
  showPlanPosition();
  think();
}

function showState() {
  const S = app.state, facts = $("facts"), moves = $("moves"), hist = $("history");
  facts.textContent = "";
  moves.textContent = "";
  hist.textContent = "";
  if (!S) {
    $("game-status").textContent = app.loaded && app.loaded.ok ? "Not a game: nothing to play." : "Fix the errors to play.";
    $("opponents").hidden = true;
    return;
  }
  showOpponents();
  const goals = S.goals.map((g) => (S.goals.length > 1 ? g.role + " " : "") + (g.goal === null ? "none" : g.goal)).join(", ");
  const won = S.terminal && S.goals.length && S.goals[0].goal === 100;
  const gs = $("game-status");
  gs.textContent = `Step ${S.step} · goal ${goals} · `;
  gs.appendChild(el("span", { className: S.terminal ? (won ? "won" : "over") : "" },
    S.terminal ? (won ? "terminal: solved!" : "terminal: game over") : "not terminal"));
  for (const f of S.facts) {
    const li = el("li", { title: "Why does it hold?" }, f);
    if (S.step > 0 && !app.prevFacts.has(f)) li.className = "changed";
    li.onclick = () => explain(`(true ${f})`, "");
    facts.appendChild(li);
  }
  const multi = S.legal.length > 1;
  S.legal.forEach((r, i) => {
    if (multi) moves.appendChild(el("div", { className: "role" }, r.role));
    if (!r.moves.length && !S.terminal) moves.appendChild(el("div", { className: "role" }, "no legal move"));
    for (const m of r.moves) {
      const row = el("div", { className: "mv" });
      const b = el("button", { className: "move", title: multi ? "Choose this move" : "Play this move" }, m);
      b.dataset.move = m;
      if (app.chosen[i] === m) b.classList.add("chosen");
      b.onclick = () => chooseMove(i, m);
      const why = el("button", { className: "why", title: `Why is ${m} legal?` }, "?");
      why.onclick = () => explain(`(legal ${r.role} ${m})`, "");
      row.append(b, why);
      moves.appendChild(row);
    }
  });
  S.moves.forEach((m) => hist.appendChild(el("li", {}, m)));
  $("undo").disabled = S.step === 0;
  $("restart").disabled = S.step === 0;
}

/* One role: the move is played at once.  Several: when every role has a
 * move chosen, the joint move is played. */
function chooseMove(role, move) {
  app.chosen[role] = move;
  const S = app.state;
  if (S.legal.every((r, i) => app.chosen[i])) {
    play(app.chosen.join(" "));
  } else {
    showState();
    think();
  }
}

/* ---- the computer as a player ----------------------------------------- */

/* A box per role for a game of several roles: checked, the computer
 * plays it.  Made anew when the roles change (another game). */
function showOpponents() {
  const roles = app.state.legal.map((r) => r.role);
  $("opponents").hidden = roles.length < 2;
  if (roles.join(" ") === app.roles) return;
  app.roles = roles.join(" ");
  app.computer = roles.map(() => false);
  const span = $("opponent-roles");
  span.textContent = "";
  roles.forEach((role, i) => {
    const box = el("input", { type: "checkbox", title: `The computer plays ${role}` });
    box.dataset.role = role;
    box.onchange = () => {
      app.computer[i] = box.checked;
      think();
    };
    const label = el("label");
    label.append(box, " " + role);
    span.appendChild(label);
  });
}

/* While the computer plays a role: a role with one legal move (a noop
 * while the other moves) plays it, and the next computer role without a
 * move in this state chooses one, in a worker (web_choose) so that the
 * page never freezes; its move is then chosen as a person's would be. */
function think() {
  const S = app.state;
  if (app.thinker || !S || S.terminal || !app.computer.some(Boolean)) return;
  const only = S.legal.findIndex((r, k) => !app.chosen[k] && r.moves.length === 1);
  if (only >= 0) {
    chooseMove(only, S.legal[only].moves[0]);
    return;
  }
  const i = S.legal.findIndex((r, k) => app.computer[k] && !app.chosen[k] && r.moves.length);
  if (i < 0) return;
  const kind = $("opponent-kind").value, seconds = Number($("opponent-seconds").value) || 1;
  const step = S.step, role = S.legal[i].role;
  $("opponent-status").textContent = `${role} is thinking…`;
  app.thinker = new Worker("worker.js");
  app.thinker.onmessage = (ev) => {
    const m = ev.data;
    if (m.type === "progress") return;
    stopThinking();
    if (m.type === "error") {
      $("opponent-status").textContent = `${role}: ${m.message}`;
      return;
    }
    const r = m.result;
    $("opponent-status").textContent = `${r.role} played ${r.move} (${kind}: ` +
      (r.proven ? `proven, goal ${r.goal}` : r.goal === null ? "no estimate" : `expects goal ${r.goal}`) +
      `, ${r.seconds.toFixed(2)} s)`;
    if (app.state && app.state.step === step) chooseMove(i, r.move);
  };
  app.thinker.onerror = (e) => {
    stopThinking();
    $("opponent-status").textContent = `${role}: the computer failed: ${e.message}`;
  };
  app.thinker.postMessage({ files: app.files, name: app.name, text: app.checkedText,
                            moves: S.moves, choose: { role: i, kind, seconds } });
}

function stopThinking() {
  if (app.thinker) {
    app.thinker.terminate();
    app.thinker = null;
  }
}

function play(joint) {
  refresh(call("web_play", ["string"], [joint]));
}

/* Takes back the last move, and, when the computer plays, the moves back
 * to the last state where a person had a choice. */
function undo() {
  stopThinking();
  let s = call("web_undo");
  const person = (st) => st.legal.some((r, i) => !app.computer[i] && r.moves.length > 1);
  while (!s.error && s.step > 0 && !person(s)) s = call("web_undo");
  refresh(s);
}

/* ---- explain and trace ------------------------------------------------ */

/* FILE:LINE in the output as links to the rule's line. */
function linkify(pre, text) {
  pre.textContent = "";
  const re = /((?:[\w.\-]+\/)*[\w.\-]+\.(?:kif|hrf|gdl)):(\d+)/g;
  let at = 0, m;
  while ((m = re.exec(text))) {
    pre.appendChild(document.createTextNode(text.slice(at, m.index)));
    const file = normalize(m[1]), line = Number(m[2]);
    const a = el("a", { href: "#", title: `Show line ${line} of ${file}` }, m[0]);
    a.dataset.file = file;
    a.dataset.line = line;
    a.onclick = (e) => {
      e.preventDefault();
      if (file === normalize(app.name)) goTo(line);
      else showSource(file, line);
    };
    pre.appendChild(a);
    at = re.lastIndex;
  }
  pre.appendChild(document.createTextNode(text.slice(at)));
}

/* A line of a file that is not the buffer (an included rule library). */
function showSource(file, line) {
  const src = $("source"), lines = (app.files[file] || "").split("\n");
  src.hidden = false;
  src.textContent = "";
  src.appendChild(el("b", {}, file + "\n"));
  lines.forEach((l, i) => {
    const s = el("span", { className: i + 1 === line ? "hl" : "" },
                 String(i + 1).padStart(4) + "  " + l + "\n");
    src.appendChild(s);
  });
  showTab("explain");
  const hl = src.querySelector(".hl");
  if (hl) src.scrollTop = hl.offsetTop - src.offsetTop - 60;
}

/* Why `fact` holds in the current state (with `does`, one move per role,
 * for next facts), or why not. */
function explain(fact, does) {
  $("explain-fact").value = fact;
  if (does !== undefined) $("explain-does").value = does;
  showTab("explain");
  const r = call("web_explain", ["string", "string"], [fact, $("explain-does").value.trim()]);
  const out = $("explain-out");
  $("source").hidden = true;
  if (r.error) {
    out.textContent = r.error;
    return;
  }
  linkify(out, r.text);
  out.dataset.holds = r.holds;
}

/* Every instance of the pattern that holds in the current state (or in a
 * rule base), as `gdl query` lists them. */
function query() {
  const r = call("web_query", ["string"], [$("explain-fact").value.trim()]);
  const out = $("explain-out");
  $("source").hidden = true;
  out.textContent = r.error ? r.error :
    r.answers.length ? r.answers.join("\n") + `\n\n${r.answers.length} answer${r.answers.length === 1 ? "" : "s"}` :
    "no instance holds";
}

function trace() {
  const r = call("web_trace", ["string"], [$("trace-does").value.trim()]);
  if (r.error) $("trace-out").textContent = r.error;
  else linkify($("trace-out"), r.text);
}

/* ---- solve ------------------------------------------------------------ */

function solve() {
  if (!app.state) return;
  const S = app.state, fromCurrent = $("from-current").checked;
  const job = {
    files: app.files, name: app.name, text: app.checkedText,
    moves: S.moves, algorithm: $("algorithm").value,
    seconds: Number($("seconds").value) || 0, fromCurrent,
  };
  stopWorker();
  app.worker = new Worker("worker.js");
  $("solve").disabled = true;
  $("stop").disabled = false;
  $("solve-status").textContent = "";
  $("plan").textContent = "";
  $("plan-controls").hidden = true;
  $("solve-progress").textContent = "searching…";
  const base = fromCurrent ? S.moves.slice() : [];
  app.worker.onmessage = (ev) => {
    const m = ev.data;
    if (m.type === "progress") {
      $("solve-progress").textContent =
        `searching${m.algorithm ? " (" + m.algorithm + ")" : ""}: depth ${m.depth}, ` +
        `${m.expanded.toLocaleString()} states expanded, ` +
        `${m.generated.toLocaleString()} generated, ${(m.memory / 1048576).toFixed(1)} MB, ${m.seconds.toFixed(1)} s`;
      return;
    }
    stopWorker();
    $("solve-progress").textContent = "";
    if (m.type === "error") {
      $("solve-status").textContent = "error: " + m.message;
      return;
    }
    showSolution(m.result, base);
  };
  app.worker.onerror = (e) => {
    stopWorker();
    $("solve-status").textContent = "the solver failed: " + e.message;
  };
  app.worker.postMessage(job);
}

function stopWorker() {
  if (app.worker) {
    app.worker.terminate();
    app.worker = null;
  }
  $("solve").disabled = false;
  $("stop").disabled = true;
}

function stop() {
  stopWorker();
  $("solve-progress").textContent = "";
  $("solve-status").textContent = "stopped";
}

/* A's answer is web_solve's: {from_step, solve}, solve the object of
 * `gdl solve --json`. */
function showSolution(a, base) {
  const r = a.solve, st = $("solve-status");
  st.textContent = "";
  const head = r.status === "solved" ? `Solved: ${r.length} move${r.length === 1 ? "" : "s"}, ` +
                                       (r.optimal ? "shortest" : "not proven shortest") :
    r.status === "unsolvable" ? (r.goal !== null ? `Unsolvable: the best goal reachable is ${r.goal}` :
                                 "Unsolvable: no terminal state with goal 100 is reachable") :
    `Stopped: ${r.limit}`;
  const b = el("b", { id: "solve-result" }, head);
  b.dataset.status = r.status;
  b.dataset.length = r.length === null ? "" : r.length;
  st.appendChild(b);
  st.appendChild(el("div", { className: "figures" },
    `${r.algorithm} from ${a.from_step ? "step " + a.from_step : "the start"}: ` +
    `${r.expanded.toLocaleString()} states expanded, ${r.generated.toLocaleString()} generated, ` +
    `${r.stored.toLocaleString()} stored` + (r.pruned ? `, ${r.pruned.toLocaleString()} pruned as dead ends` : "") +
    `, depth ${r.depth}, ${r.seconds.toFixed(3)} s, ` +
    `${(r.peak_memory_bytes / 1048576).toFixed(1)} MB peak`));
  app.lastSolve = a;
  const plan = $("plan");
  plan.textContent = "";
  if (!r.plan.length) return;
  app.plan = { moves: r.plan, base, at: -1 };
  r.plan.forEach((m, i) => {
    const li = el("li", { title: "Show the state after this move" }, m);
    li.onclick = () => planGo(i + 1);
    plan.appendChild(li);
  });
  $("plan-controls").hidden = false;
  planGo(0);
}

/* Shows the state after the first `n` moves of the plan (and the moves
 * played before it, when it was solved from there). */
function planGo(n) {
  const P = app.plan;
  if (!P) return;
  n = Math.max(0, Math.min(n, P.moves.length));
  let prev = null, s = call("web_restart");
  for (const m of P.base.concat(P.moves.slice(0, n))) {
    prev = s;
    s = call("web_play", ["string"], [m]);
    if (s.error) break;
  }
  app.prevFacts = new Set(prev && !prev.error ? prev.facts : []);
  app.state = s;
  app.chosen = [];
  showState();
  showPlanPosition();
}

function showPlanPosition() {
  const P = app.plan, S = app.state;
  if (!P || !S) return;
  /* the plan is being followed while the moves played are its prefix */
  const played = S.moves.slice(P.base.length);
  const on = S.moves.length >= P.base.length && P.base.every((m, i) => S.moves[i] === m) &&
             played.every((m, i) => P.moves[i] === m);
  P.at = on ? played.length : -1;
  [...$("plan").children].forEach((li, i) => {
    li.className = P.at < 0 ? "" : i < P.at - 1 ? "done" : i === P.at - 1 ? "at" : "";
  });
  $("plan-at").textContent = P.at < 0 ? "off the plan" : `step ${P.at} of ${P.moves.length}`;
}

/* ---- graph ------------------------------------------------------------ */

/* The DOT text comes from the library (gdl_graph_dot, as `gdl graph`);
 * graph-worker.js lays it out, so that a large graph never freezes the
 * page, and Stop terminates it. */
function graph() {
  if (!app.state) return;
  const r = call("web_graph", ["string", "number", "number"],
                 [app.name.replace(/.*\//, ""), Number($("graph-states").value) || 100,
                  $("graph-plan").checked ? 1 : 0]);
  const st = $("graph-status"), out = $("graph-out");
  stopGraph();
  if (r.error) {
    st.textContent = r.error;
    return;
  }
  const what = `${r.states} states, ${r.edges} moves` +
    (r.complete ? "" : " (stopped at the limit: dashed states have moves to states left out)") +
    (r.goal_found ? "" : "; no state with goal 100 among them");
  st.textContent = what + ". Laying it out…";
  out.textContent = "";
  app.graphWorker = new Worker("graph-worker.js");
  $("graph-stop").disabled = false;
  app.graphWorker.onmessage = (ev) => {
    stopGraph();
    if (ev.data.error) {
      st.textContent = what + ". Graphviz: " + ev.data.error;
      return;
    }
    out.innerHTML = ev.data.svg;
    st.textContent = what + ".";
  };
  app.graphWorker.onerror = (e) => {
    stopGraph();
    st.textContent = what + ". Graphviz could not be loaded: " + e.message;
  };
  app.graphWorker.postMessage({ dot: r.dot, engine: $("graph-engine").value });
}

function stopGraph() {
  if (app.graphWorker) {
    app.graphWorker.terminate();
    app.graphWorker = null;
    if ($("graph-status").textContent.endsWith("Laying it out…"))
      $("graph-status").textContent = "stopped";
  }
  $("graph-stop").disabled = true;
}

/* ---- tabs and start --------------------------------------------------- */

function showTab(name) {
  for (const b of $("tabs").children) b.classList.toggle("active", b.dataset.tab === name);
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.id === "tab-" + name);
}

async function start() {
  try {
    app.M = await createGdl();
  } catch (e) {
    setStatus("gdl.wasm could not be loaded: " + e);
    return;
  }
  await loadFiles();
  const ed = $("editor");
  ed.addEventListener("input", editorChanged);
  ed.addEventListener("scroll", placeMarks);
  ed.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      check();
    }
  });
  $("check").onclick = check;
  $("puzzle").onchange = () => openFile($("puzzle").value);
  $("syntax").onchange = syntaxChanged;
  $("undo").onclick = undo;
  $("restart").onclick = () => {
    stopThinking();
    refresh(call("web_restart"));
  };
  $("solve").onclick = solve;
  $("stop").onclick = stop;
  $("explain").onclick = () => explain($("explain-fact").value.trim());
  $("explain-fact").addEventListener("keydown", (e) => { if (e.key === "Enter") $("explain").click(); });
  $("query").onclick = query;
  $("trace").onclick = trace;
  $("graph").onclick = graph;
  $("graph-stop").onclick = stopGraph;
  $("graph-out").onclick = () => $("graph-out").classList.toggle("full");
  $("plan-first").onclick = () => planGo(0);
  $("plan-prev").onclick = () => planGo((app.plan.at < 0 ? 1 : app.plan.at) - 1);
  $("plan-next").onclick = () => planGo((app.plan.at < 0 ? -1 : app.plan.at) + 1);
  $("plan-last").onclick = () => planGo(app.plan.moves.length);
  for (const b of $("tabs").children) b.onclick = () => showTab(b.dataset.tab);
  const want = new URLSearchParams(location.search).get("puzzle");
  const first = app.files[want] ? want :
    app.files["puzzles/buttons-and-lights.kif"] ? "puzzles/buttons-and-lights.kif" : Object.keys(app.files)[0];
  openFile(first);
  document.body.dataset.ready = "1";
}

start();
