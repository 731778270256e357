#!/usr/bin/python3
"""check_web.py - the playground in a real browser (make check-web).

    tests/web/check_web.py SITE OUTDIR [SCREENSHOT]

Serves SITE (build/web) with `python3 -m http.server` on a free loopback
port, drives headless Chromium through it with Selenium (Debian's
chromium, chromium-driver and python3-selenium), and asserts on the page:
load DogBunny, check it (no errors), play two moves, undo, solve (28
moves), step through the plan, explain a legal move, trace, draw the state
graph, then introduce an error and see it marked at its line; load an
infix puzzle (toads and frogs), check it, see a rule explained in infix
and a KIF habit in it reported at its line.  DogBunny is solved by astar
and the page's solve object compared key by key with the one `gdl solve
--json` prints (same_as_cli).  Then the 8-puzzle (31 moves) is solved in
the page's Web Worker and its time printed beside the native `build/gdl
solve` (doc/performance.md).  Then games against the computer: a move
of Nim 3-4-5 (the perfect computer's winning answer), and whole games of
tic-tac-toe: the person (a fair player: win, else block, else centre or
corner) against the perfect computer, which must not lose; the computer
against itself, perfect (a draw) and by Monte Carlo tree search (to the
end).  Every game's moves, as the page lists them, are replayed by `gdl
state --json`: each legal, and the same terminal state and goals.

Screenshots go to OUTDIR; with SCREENSHOT, the one for doc/classroom.md
is saved there too.  The server is stopped at the end, always.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

DOGBUNNY = "puzzles/dogbunny-walkthrough.kif"   # optimal: 28 moves
EIGHT = "puzzles/eight-puzzle-31.kif"           # optimal: 31 moves
INFIX = "puzzles/toads-and-frogs.hrf"           # infix GDL
TTT = "puzzles/games/tic-tac-toe.kif"           # a draw
failures = []


def check(cond, what):
    print(("ok     " if cond else "FAILED ") + what, flush=True)
    if not cond:
        failures.append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(site):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, "http://127.0.0.1:%d/" % port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def browser():
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
              "--disable-gpu", "--window-size=1400,1000",
              "--force-device-scale-factor=1"):
        opts.add_argument(a)
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver), options=opts)


def text(d, css):
    return d.find_element(By.CSS_SELECTOR, css).text


def wait(d, cond, seconds=30, what="the page"):
    return WebDriverWait(d, seconds).until(lambda _: cond(), what)


def open_puzzle(d, path):
    Select(d.find_element(By.ID, "puzzle")).select_by_value(path)
    wait(d, lambda: d.find_element(By.ID, "filename").text.startswith(path))


def set_editor(d, value):
    d.execute_script(
        "const e = document.getElementById('editor'); e.value = arguments[0];"
        "e.dispatchEvent(new Event('input'));", value)


def choose_algorithm(d, name):
    d.find_element(By.CSS_SELECTOR, "#tabs [data-tab=solve]").click()
    Select(d.find_element(By.ID, "algorithm")).select_by_value(name)


def solve(d, seconds=120):
    d.find_element(By.CSS_SELECTOR, "#tabs [data-tab=solve]").click()
    d.find_element(By.ID, "solve").click()
    wait(d, lambda: d.find_elements(By.ID, "solve-result")
         or "error" in text(d, "#solve-status"), seconds, "the solve")
    res = d.find_elements(By.ID, "solve-result")
    return res[0] if res else None


def native_seconds(gdl, path):
    """The best of three `gdl solve --algorithm bfs --json` runs: its own
    figure."""
    best = None
    for _ in range(3):
        out = subprocess.run([gdl, "solve", path, "--algorithm", "bfs", "--json"],
                             capture_output=True,
                             text=True, check=False).stdout
        s = json.loads(out)["seconds"]
        best = s if best is None else min(best, s)
    return best


# Keys whose values are the machine's, not the search's: "seconds" (the
# time taken) and "peak_memory_bytes" and "bytes_per_state" (memory:
# WebAssembly's pointers are 4 bytes, native ones 8, and its allocator is
# another).  Every other key of the object must be on both sides, in the
# same order, with the same value.
MACHINE_KEYS = ("seconds", "peak_memory_bytes", "bytes_per_state")


def same_as_cli(page, path, algorithm):
    """The page's solve object (web_solve's "solve") against the one
    `gdl solve --json` prints for the same puzzle and search, with the
    page's limits (60 s, no state limit) and its one thread."""
    gdl = os.environ.get("GDL", "build/gdl")
    out = subprocess.run([gdl, "solve", path, "--algorithm", algorithm,
                          "--max-seconds", "60", "--threads", "1", "--json"],
                         capture_output=True, text=True, check=False).stdout
    cli = json.loads(out)
    missing = [k for k in cli if k not in page]
    extra = [k for k in page if k not in cli]
    check(not missing and not extra,
          "the page's solve object has the command's keys (missing %s, "
          "extra %s)" % (missing, extra))
    check(list(page) == list(cli), "in the command's order")
    differ = ["%s: page %r, gdl %r" % (k, page[k], cli[k]) for k in cli
              if k in page and k not in MACHINE_KEYS and page[k] != cli[k]]
    check(not differ, "%s by %s: the page's values are gdl solve --json's "
          "(but %s) %s" % (path, algorithm, ", ".join(MACHINE_KEYS), differ))


def history(d):
    """The moves played, read in one script (the page redraws the list
    while the computer plays)."""
    return d.execute_script("return Array.from(document.querySelectorAll("
                            "'#history li'), (e) => e.textContent);")


def game_over(d):
    """The page's goals ({role: goal}) once it says the state is terminal,
    else None.  The status reads "Step N · goal xplayer 50, oplayer 50 ·
    terminal: game over"."""
    status = d.execute_script(
        "return document.getElementById('game-status').textContent;")
    if "terminal:" not in status or "not terminal" in status:
        return None
    goals = status.split(" · ")[1][len("goal "):]
    return {r: int(g) for r, g in (p.rsplit(" ", 1) for p in goals.split(", "))}


def replayed(moves):
    """The page's moves replayed by `gdl state --json`: None when one is
    illegal, else the state's terminal and goals."""
    gdl = os.environ.get("GDL", "build/gdl")
    out = subprocess.run([gdl, "state", "--json", "--moves", " ".join(moves), TTT],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None
    s = json.loads(out.stdout)
    return s["terminal"], s["goals"]


def play_against(d):
    """Plays xplayer against the computer (oplayer) to the end, as a fair
    player would (person_move, from the facts and the move buttons the page
    shows); after each move it waits for the computer's answer.  Returns the moves played and, for
    each of the computer's moves, whether the page says it played the move
    the history shows (so that the page took the move it chose)."""
    said = []
    for _ in range(5):                          # at most 5 moves of x's
        if game_over(d) is not None:
            break
        marks = d.execute_script(
            "return Array.from(document.querySelectorAll('#moves button.move'),"
            " (b) => b.dataset.move).filter((m) => m.startsWith('(mark'));")
        n = len(history(d))
        facts = d.execute_script("return Array.from(document.querySelectorAll("
                                 "'#facts li'), (e) => e.textContent);")
        mine = person_move(facts, marks)
        d.find_element(By.CSS_SELECTOR,
                       "#moves button.move[data-move='%s']" % mine).click()
        # the computer's answer; where the person is then left with one
        # move (the last cell) the page plays it too
        wait(d, lambda: game_over(d) is not None or
             len(history(d)) >= n + 2 and len(history(d)) % 2 == 0, 60,
             "the computer's answer")
        h = history(d)
        if len(h) >= n + 2:
            said.append(h[n + 1].startswith("noop ") and text(d, "#opponent-status")
                        .startswith("oplayer played %s (" % h[n + 1][len("noop "):]))
    return history(d), said


LINES = [[(r, c) for c in (1, 2, 3)] for r in (1, 2, 3)] + \
    [[(r, c) for r in (1, 2, 3)] for c in (1, 2, 3)] + \
    [[(1, 1), (2, 2), (3, 3)], [(1, 3), (2, 2), (3, 1)]]
PREFER = ((2, 2), (1, 1), (3, 3), (1, 3), (3, 1))


def person_move(facts, marks):
    """xplayer's move, chosen by reading the page: the cell that completes
    a line of x's, else the one that blocks a line of o's, else the centre,
    else a corner, else the first move offered.  The cells are the facts
    (cell R C M); the moves offered, (mark R C)."""
    board = {}
    for f in facts:
        if f.startswith("(cell "):
            r, c, m = f[6:-1].split()
            board[int(r), int(c)] = m
    for m in ("x", "o"):
        for line in LINES:
            marks_in = [board.get(p) for p in line]
            if marks_in.count(m) == 2 and marks_in.count("b") == 1:
                cell = line[marks_in.index("b")]
                return "(mark %d %d)" % cell
    prefer = ["(mark %d %d)" % p for p in PREFER]
    return ([m for m in prefer if m in marks] + marks)[0]


def tic_tac_toe(d):
    """A whole game of tic-tac-toe against the computer, then the computer
    against itself: every move the page played is replayed by `gdl state`
    (legal, and the same end)."""
    open_puzzle(d, TTT)
    boxes = d.find_elements(By.CSS_SELECTOR, "#opponent-roles input")
    check(len(boxes) == 2, "tic-tac-toe: a computer box per role")
    Select(d.find_element(By.ID, "opponent-kind")).select_by_value("perfect")
    seconds = d.find_element(By.ID, "opponent-seconds")
    seconds.clear()
    seconds.send_keys("0.5")
    boxes[1].click()                            # the computer plays oplayer
    t0 = time.time()
    moves, said = play_against(d)
    goals = game_over(d)
    print("tic-tac-toe against the computer (perfect): %s, %s, %.1f s"
          % (moves, goals, time.time() - t0))
    check(goals is not None, "the game reaches a terminal state")
    check(said and all(said), "the page played each move the computer chose "
          "(%d moves)" % len(said))
    check(replayed(moves) == (True, goals),
          "every move legal (gdl state replays them to the same end)")
    check(goals is not None and goals["oplayer"] >= 50,
          "the computer did not lose (%s)" % goals)

    # both roles: perfect against perfect is a draw
    boxes[0].click()
    d.find_element(By.ID, "restart").click()
    wait(d, lambda: game_over(d) is not None, 60, "the computer against itself")
    moves, goals = history(d), game_over(d)
    print("perfect against perfect: %s, %s" % (moves, goals))
    check(goals == {"xplayer": 50, "oplayer": 50},
          "perfect against perfect: a draw (%s)" % goals)
    check(replayed(moves) == (True, goals), "every move legal (gdl state)")

    # Monte Carlo tree search against itself, a short think: to the end, every
    # move legal (who wins is not asserted: it depends on the time)
    Select(d.find_element(By.ID, "opponent-kind")).select_by_value("mcts")
    seconds.clear()
    seconds.send_keys("0.2")
    d.find_element(By.ID, "restart").click()
    wait(d, lambda: game_over(d) is not None, 60, "mcts against itself")
    moves, goals = history(d), game_over(d)
    print("mcts against mcts (0.2 s a move): %s, %s" % (moves, goals))
    check(goals is not None and replayed(moves) == (True, goals),
          "mcts against itself: to the end, every move legal (gdl state)")
    boxes[0].click()
    boxes[1].click()
    print("tic-tac-toe: %.1f s in the browser" % (time.time() - t0))


def scenario(d, url, outdir, screenshot):
    d.get(url)
    wait(d, lambda: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1",
         60, "the page to load gdl.wasm")

    # load DogBunny, check: no errors
    open_puzzle(d, DOGBUNNY)
    d.find_element(By.ID, "check").click()
    diags = d.find_elements(By.CSS_SELECTOR, "#diagnostics li")
    check(len(diags) == 1 and "ok" in diags[0].get_attribute("class")
          and "No errors" in diags[0].text, "DogBunny checks with no errors")
    check(not d.find_elements(By.CSS_SELECTOR, "#gutter .err"), "no line is marked")
    facts = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#facts li")]
    check("(at dog tree 1)" in facts, "the state shows (at dog tree 1)")

    # play two moves, undo
    for _ in range(2):
        d.find_elements(By.CSS_SELECTOR, "#moves button.move")[0].click()
    check(text(d, "#game-status").startswith("Step 2"), "two moves played: step 2")
    check(len(d.find_elements(By.CSS_SELECTOR, "#history li")) == 2, "two moves in the history")
    d.find_element(By.ID, "undo").click()
    check(text(d, "#game-status").startswith("Step 1"), "undo: step 1")

    # solve: 28 moves, from the start (auto: astar proves it shortest)
    res = solve(d)
    check(res is not None and res.get_attribute("data-length") == "28",
          "solve finds the 28-move plan (%s)" % (res.text if res else text(d, "#solve-status")))
    check(len(d.find_elements(By.CSS_SELECTOR, "#plan li")) == 28, "the plan lists 28 moves")
    check("states expanded" in text(d, "#solve-status"), "the search's figures are shown")
    d.find_element(By.ID, "plan-last").click()
    check("terminal: solved" in text(d, "#game-status"), "the plan's end is solved (goal 100)")
    check(text(d, "#plan-at") == "step 28 of 28", "stepped to the end of the plan")
    d.find_element(By.ID, "plan-first").click()
    d.find_element(By.ID, "plan-next").click()
    check(text(d, "#plan-at") == "step 1 of 28" and text(d, "#game-status").startswith("Step 1"),
          "stepped to the plan's first move")

    # explain a legal move: its proof tree, with links to the rule lines
    d.find_elements(By.CSS_SELECTOR, "#moves button.why")[0].click()
    out = d.find_element(By.ID, "explain-out")
    check(out.get_attribute("data-holds") == "true" and "<- rule" in out.text,
          "explain a legal move: a proof tree")
    links = out.find_elements(By.TAG_NAME, "a")
    check(any(a.get_attribute("data-file") == "rules/dogbunny.kif" for a in links),
          "the proof links to rules/dogbunny.kif's lines")
    rule = [a for a in links if a.get_attribute("data-file") == "rules/dogbunny.kif"][:1]
    if rule:
        rule[0].click()
        hl = d.find_elements(By.CSS_SELECTOR, "#source .hl")
        check(bool(hl) and hl[0].text.strip().startswith(rule[0].get_attribute("data-line")),
              "a link shows the rule's line")
    d.find_elements(By.CSS_SELECTOR, "#facts li")[0].click()
    check("<- in the state" in text(d, "#explain-out"), "explain a fact of the state")

    # trace, and the graph
    d.find_element(By.CSS_SELECTOR, "#tabs [data-tab=trace]").click()
    d.find_element(By.ID, "trace").click()
    check("stratum 1" in text(d, "#trace-out"), "trace: forward chaining by strata")
    # the state graph, laid out by Graphviz in a worker (wolf, goat and
    # cabbage: DogBunny's 177 states take dot minutes)
    open_puzzle(d, "puzzles/wolf-goat-cabbage.kif")
    d.find_element(By.CSS_SELECTOR, "#tabs [data-tab=graph]").click()
    d.find_element(By.ID, "graph").click()
    wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "#graph-out svg")
         or "Graphviz" in text(d, "#graph-status"), 60, "the graph")
    check(len(d.find_elements(By.CSS_SELECTOR, "#graph-out svg g.node")) > 5,
          "the state graph is drawn (%s)" % text(d, "#graph-status"))
    check(len(d.find_elements(By.CSS_SELECTOR, "#graph-out svg g.edge path[stroke=red]")) > 0,
          "a shortest plan is drawn in red")

    # a lesson's screenshot: wolf, goat and cabbage two moves in, why the
    # wolf may cross, and the rule's line shown in the editor
    open_puzzle(d, "puzzles/wolf-goat-cabbage.kif")
    for mv in ("(cross goat)", "(cross alone)"):
        d.find_element(By.CSS_SELECTOR, "#moves button.move[data-move='%s']" % mv).click()
    d.find_element(By.XPATH, "//button[@data-move='(cross wolf)']/following-sibling::button").click()
    out = d.find_element(By.ID, "explain-out")
    check("(aboard wolf)" in out.text, "why the wolf may cross: its proof tree")
    rule = [a for a in out.find_elements(By.TAG_NAME, "a") if a.get_attribute("data-line") == "45"]
    check(bool(rule), "the proof links to the rule at line 45")
    if rule:
        rule[0].click()
        check(d.find_elements(By.CSS_SELECTOR, "#marks .band.hl[data-line='45']") != [],
              "the link highlights line 45 in the editor")
    d.execute_script("window.scrollTo(0, 0)")
    d.set_window_size(1280, 720)
    shot = os.path.join(outdir, "playground.png")
    d.save_screenshot(shot)
    if screenshot:
        shutil.copyfile(shot, screenshot)
    d.set_window_size(1400, 1000)

    # an error: marked at its line and column
    open_puzzle(d, DOGBUNNY)
    src = d.find_element(By.ID, "editor").get_attribute("value").split("\n")
    line = next(i for i, l in enumerate(src) if l.startswith("(init")) + 1
    src[line - 1] = "(<= (init (at dog well 1)) (not (foo ?x)))"   # unsafe: ?x unbound
    set_editor(d, "\n".join(src))
    d.find_element(By.ID, "check").click()
    errs = d.find_elements(By.CSS_SELECTOR, "#diagnostics li.error")
    check(len(errs) >= 1, "the error is listed (%s)" % (errs[0].text if errs else "none"))
    if errs:
        check(errs[0].get_attribute("data-line") == str(line),
              "the error is at line %d (%s)" % (line, errs[0].get_attribute("data-line")))
        check(errs[0].text.startswith("%s:%d:" % (DOGBUNNY, line)), "it is listed as FILE:LINE:COL")
    marked = [e.get_attribute("textContent") for e in d.find_elements(By.CSS_SELECTOR, "#gutter .err")]
    check(marked == [str(line)], "line %d is marked in the gutter (%s)" % (line, marked))
    check(len(d.find_elements(By.CSS_SELECTOR, "#marks .caret")) >= 1, "its column is marked")
    check("Fix the errors" in text(d, "#game-status"), "no game to play while there are errors")
    d.save_screenshot(os.path.join(outdir, "playground-error.png"))

    # an infix puzzle: read as infix (its name ends in .hrf), checked
    # clean, explained in infix, and a KIF habit in it reported in place
    open_puzzle(d, INFIX)
    check(Select(d.find_element(By.ID, "syntax")).first_selected_option
          .get_attribute("value") == "hrf", "the Syntax menu says infix")
    d.find_element(By.ID, "check").click()
    diags = d.find_elements(By.CSS_SELECTOR, "#diagnostics li")
    check(len(diags) == 1 and "No errors" in diags[0].text,
          "toads and frogs (infix) checks with no errors")
    facts = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#facts li")]
    check("(at 1 toad)" in facts, "its state shows (at 1 toad)")
    d.find_element(By.XPATH, "//button[@data-move='(move 3 4)']/following-sibling::button").click()
    check(":- true(at(F, K)) & ahead(K, F, T)" in text(d, "#explain-out"),
          "why (move 3 4) is legal: the rule in infix")
    src = d.find_element(By.ID, "editor").get_attribute("value").split("\n")
    line = next(i for i, l in enumerate(src) if l.startswith("role(")) + 1
    src[line - 1] = "role(?p)"
    set_editor(d, "\n".join(src))
    d.find_element(By.ID, "check").click()
    errs = d.find_elements(By.CSS_SELECTOR, "#diagnostics li.error")
    check(len(errs) >= 1 and "is KIF: an infix variable" in errs[0].text
          and errs[0].get_attribute("data-line") == str(line),
          "role(?p) in infix: the error at line %d (%s)"
          % (line, errs[0].text if errs else "none"))

    # the page's solve object is the command's: DogBunny by astar in the
    # worker and by `gdl solve --json`, key by key (same_as_cli)
    open_puzzle(d, DOGBUNNY)
    choose_algorithm(d, "astar")
    res = solve(d)
    check(res is not None and res.get_attribute("data-length") == "28",
          "astar solves DogBunny in the page")
    page = json.loads(d.execute_script("return JSON.stringify(app.lastSolve)"))
    check(page.get("from_step") == 0, "solved from the start (from_step 0)")
    same_as_cli(page.get("solve", {}), DOGBUNNY, "astar")

    # the 8-puzzle in the browser, beside native: bfs, the solver's own
    # figure (the search, not the loading), the best of three on either side
    open_puzzle(d, EIGHT)
    choose_algorithm(d, "bfs")
    web = None
    for _ in range(3):
        res = solve(d, 600)
        ok = res is not None and res.get_attribute("data-length") == "31"
        if not ok:
            break
        figures = text(d, "#solve-status .figures")
        s = float(figures.split(" s,")[0].rsplit(" ", 1)[1])
        web = s if web is None else min(web, s)
    check(ok, "the 8-puzzle is solved in 31 moves in the browser")
    gdl = os.environ.get("GDL", "build/gdl")
    native = native_seconds(gdl, EIGHT) if os.path.exists(gdl) else None
    print("8-puzzle bfs (31 moves, 181,439 states expanded): browser %s s, "
          "native %s s%s" % (web, native,
                             " (%.1fx)" % (web / native) if web and native else ""))

    # a long search (iddfs on the unsolvable 8-puzzle) runs in the worker:
    # the page shows its progress, and Stop ends it
    open_puzzle(d, "puzzles/eight-puzzle-unsolvable.kif")
    choose_algorithm(d, "iddfs")
    d.find_element(By.ID, "solve").click()
    wait(d, lambda: text(d, "#solve-progress").startswith("searching (iddfs): depth"), 60,
         "progress")
    t0 = time.time()
    d.find_element(By.ID, "restart").click()        # the page still answers
    check(time.time() - t0 < 2, "the page answers while the worker searches")
    d.find_element(By.ID, "stop").click()
    check(text(d, "#solve-status") == "stopped" and
          d.find_element(By.ID, "solve").is_enabled(), "Stop ends the search")
    choose_algorithm(d, "auto")

    # a game against the computer: Nim 3-4-5, the computer plays second
    # perfectly (in its worker); after the person's (take a 1) the one
    # winning answer is (take a 1) again (nim-sum 0), proven
    open_puzzle(d, "puzzles/games/nim-3-4-5.kif")
    boxes = d.find_elements(By.CSS_SELECTOR, "#opponent-roles input")
    check(len(boxes) == 2 and d.find_element(By.ID, "opponents").is_displayed(),
          "a computer box per role of a game")
    Select(d.find_element(By.ID, "opponent-kind")).select_by_value("perfect")
    boxes[1].click()
    d.find_element(By.CSS_SELECTOR, "#moves button.move[data-move='(take a 1)']").click()
    wait(d, lambda: len(d.find_elements(By.CSS_SELECTOR, "#history li")) == 2, 60,
         "the computer's answer")
    hist = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#history li")]
    check(hist == ["(take a 1) noop", "noop (take a 1)"],
          "the computer answers with the winning move (%s)" % hist)
    check("proven, goal 100" in text(d, "#opponent-status"),
          "and says it wins (%s)" % text(d, "#opponent-status"))
    d.find_element(By.ID, "undo").click()        # back to the person's choice
    check(text(d, "#game-status").startswith("Step 0"), "undo goes back past the computer's move")
    boxes[1].click()

    tic_tac_toe(d)

    # the console: no JavaScript errors
    logs = [l for l in d.get_log("browser") if l["level"] == "SEVERE"
            and "favicon" not in l["message"]]
    check(not logs, "no errors in the console %s" % [l["message"] for l in logs])


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: check_web.py SITE OUTDIR [SCREENSHOT]")
    site, outdir = sys.argv[1], sys.argv[2]
    screenshot = sys.argv[3] if len(sys.argv) > 3 else None
    os.makedirs(outdir, exist_ok=True)
    server, url = start_server(site)
    d = None
    try:
        d = browser()
        scenario(d, url, outdir, screenshot)
    except Exception as e:  # a timeout or a missing element: one failure
        failures.append(repr(e))
        print("FAILED %r" % e)
        if d:
            d.save_screenshot(os.path.join(outdir, "failure.png"))
    finally:
        if d:
            d.quit()
        server.terminate()
        server.wait()
    print("check-web: %s" % ("%d failed" % len(failures) if failures else "all passed"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
