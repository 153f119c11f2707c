// Replays a trace of the backtracking search (or shows one board) from the JSON in the page:
// no network, no library. Each event is one number, kind * 4096 + row * 64 + col, rows and
// columns from 0: kind 0 places a queen, 1 takes one back, 2 and 3 are a row with no free
// square (3: none left untried), 4 is a solution.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const n = data.n;
  const off = data.off;
  const events = data.events || [];
  const total = events.length;
  const PLACE = 0, REMOVE = 1, BLOCKED = 2, BLOCKED_TRIED = 3, SOLUTION = 4;
  const SPEEDS = [0.5, 1, 2, 3, 5, 8, 12, 20, 30, 50, 100, 200, 500];
  // How many of the last steps the history beside the board lists.
  const HISTORY = 6;

  const $ = (id) => document.getElementById(id);
  const boardEl = $("board");
  const cells = [];

  // The board after the current step: board[row] is its queen's column, or -1.
  const board = new Array(n).fill(-1);
  // The columns each row has tried since the rows above it last changed: a queen placed there
  // and taken back. A row whose every square is attacked or tried is blocked.
  const tried = Array.from({ length: n }, () => new Set());
  // Whether `tried` must be worked out again from the events (after a step back).
  let triedStale = false;
  const fixed = new Array(n).fill(-1);
  for (const [r, c] of data.placed) { board[r] = c; fixed[r] = c; }
  if (data.queens) { data.queens.forEach((c, r) => { board[r] = c; }); }
  let step = 0;
  let solutions = 0;
  let takebacks = 0;
  let timer = null;

  const kind = (e) => Math.floor(e / 4096);
  const rowOf = (e) => Math.floor(e / 64) % 64;
  const colOf = (e) => e % 64;

  function build() {
    const tracks = `repeat(${n}, 1fr)`;
    boardEl.style.gridTemplateColumns = tracks;
    boardEl.style.gridTemplateRows = tracks;
    $("cols").style.gridTemplateColumns = tracks;
    $("rows").style.gridTemplateRows = tracks;
    for (let i = 0; i < n; i++) {
      const c = document.createElement("div");
      c.textContent = i + off;
      $("cols").appendChild(c);
      const r = document.createElement("div");
      r.textContent = i + off;
      $("rows").appendChild(r);
    }
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const cell = document.createElement("div");
        cell.className = (r + c) % 2 ? "cell dark" : "cell";
        cell.title = `row ${r + off}, column ${c + off}`;
        boardEl.appendChild(cell);
        cells.push(cell);
      }
    }
  }

  // Fits the board to the window: beside the panel where the window is wide enough, above
  // it where it is not; the queens scale with the squares. The board comes first: the panel
  // keeps its narrowest readable width (PANEL_LEAST) and the board takes the rest, so that on a
  // projector's 800×600 the board is most of the screen.
  const PANEL_LEAST = 270;
  function fit() {
    const head = document.querySelector("header").offsetHeight;
    const label = 1.6 * parseFloat(getComputedStyle(document.documentElement).fontSize) + 8;
    const wide = window.innerWidth - PANEL_LEAST - 48 - label >= 320;
    const across = wide ? window.innerWidth - PANEL_LEAST - 64 - label : window.innerWidth - 40 - label;
    const down = window.innerHeight - head - 32 - label;
    const size = Math.max(120, Math.floor(Math.min(across, wide ? down : Math.max(down * 0.75, 240))));
    boardEl.style.width = size + "px";
    boardEl.style.height = size + "px";
    $("cols").style.width = size + "px";
    $("rows").style.height = size + "px";
  }

  // Step `k`'s event (from 1) in the words `nqueens trace` prints.
  function describe(k) {
    const e = events[k - 1];
    const r = rowOf(e), c = colOf(e);
    switch (kind(e)) {
      case PLACE: return ["place", `row ${r + off}, column ${c + off}`];
      case REMOVE: return ["remove", `row ${r + off}, column ${c + off}`];
      case SOLUTION: return ["solution", `${solutions}: ${board.map((x) => x + off).join(" ")}`];
      default: {
        const what = kind(e) === BLOCKED_TRIED ? "no other free square" : "no free square";
        const then = r === data.firstRow ? "the search is over" : "back to the row above";
        return ["blocked", `row ${r + off}: ${what}, ${then}`];
      }
    }
  }

  // Rows below `r` start afresh: the rows above them changed.
  function forgetBelow(r) {
    for (let y = r + 1; y < n; y++) tried[y].clear();
  }

  function forward() {
    if (step >= total) return false;
    const e = events[step];
    step += 1;
    switch (kind(e)) {
      case PLACE: board[rowOf(e)] = colOf(e); forgetBelow(rowOf(e)); break;
      case REMOVE:
        board[rowOf(e)] = -1;
        takebacks += 1;
        forgetBelow(rowOf(e));
        tried[rowOf(e)].add(colOf(e));
        break;
      case SOLUTION: solutions += 1; break;
    }
    return true;
  }

  // `tried` at the current step, from the events before it: a take-back of (r, c) counts
  // where no row above r has changed since.
  function triedFromEvents() {
    for (const t of tried) t.clear();
    let shallowest = n;
    for (let k = step - 1; k >= 0; k--) {
      const e = events[k];
      const what = kind(e);
      if (what !== PLACE && what !== REMOVE) continue;
      const r = rowOf(e);
      if (what === REMOVE && r <= shallowest) tried[r].add(colOf(e));
      shallowest = Math.min(shallowest, r);
    }
    triedStale = false;
  }

  function back() {
    if (step <= 0) return false;
    const e = events[step - 1];
    switch (kind(e)) {
      case PLACE: board[rowOf(e)] = -1; break;
      case REMOVE: board[rowOf(e)] = colOf(e); takebacks -= 1; break;
      case SOLUTION: solutions -= 1; break;
    }
    step -= 1;
    triedStale = true;
    return true;
  }

  function attacked() {
    const hit = new Uint8Array(n * n);
    for (let r = 0; r < n; r++) {
      const c = board[r];
      if (c < 0) continue;
      for (let y = 0; y < n; y++) {
        const d = Math.abs(y - r);
        hit[y * n + c] = 1;
        if (c + d < n) hit[y * n + c + d] = 1;
        if (c - d >= 0) hit[y * n + c - d] = 1;
      }
      for (let x = 0; x < n; x++) hit[r * n + x] = 1;
    }
    return hit;
  }

  function render() {
    const trace = data.mode === "trace";
    if (trace && triedStale) triedFromEvents();
    const hit = trace ? attacked() : new Uint8Array(n * n);
    const e = trace && step > 0 ? events[step - 1] : -1;
    const k = e < 0 ? -1 : kind(e);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const cell = cells[r * n + c];
        const queen = board[r] === c;
        cell.classList.toggle("queen", queen && fixed[r] !== c);
        cell.classList.toggle("fixed", queen && fixed[r] === c);
        cell.classList.toggle("attacked", !queen && hit[r * n + c] === 1);
        cell.classList.toggle("last", k === PLACE && rowOf(e) === r && colOf(e) === c);
        cell.classList.toggle("removed", k === REMOVE && rowOf(e) === r && colOf(e) === c);
        cell.classList.toggle("blocked", (k === BLOCKED || k === BLOCKED_TRIED) && rowOf(e) === r);
        cell.classList.toggle("tried", trace && !queen && tried[r].has(c));
      }
    }
    const full = board.every((c) => c >= 0);
    boardEl.classList.toggle("solved", trace ? k === SOLUTION : full);
    const queens = [];
    board.forEach((c, r) => { if (c >= 0) queens.push(`${r + 1}:${c + 1}`); });
    boardEl.dataset.queens = queens.join(" ");
    const triedList = [];
    tried.forEach((t, r) => {
      [...t].sort((a, b) => a - b).forEach((c) => {
        if (board[r] !== c) triedList.push(`${r + 1}:${c + 1}`);
      });
    });
    boardEl.dataset.tried = trace ? triedList.join(" ") : "";
    boardEl.dataset.step = String(step);
    boardEl.setAttribute("aria-label", queens.length
      ? `queens (row:column, from 1): ${queens.join(", ")}` : "an empty board");
    if (!trace) return;
    const line = $("line");
    if (step === 0) {
      line.textContent = data.placed.length
        ? "before the search: the placed queens only" : "before the search: an empty board";
    } else {
      const [verb, rest] = describe(step);
      line.innerHTML = "";
      const b = document.createElement("b");
      b.textContent = verb;
      // A solution's columns stay on one line.
      const words = document.createElement("span");
      words.textContent = rest;
      if (verb === "solution") words.className = "nowrap";
      line.append(`step ${step}: `, b, " ", words);
    }
    $("summary").textContent = step === total ? data.summary : "";
    showHistory();
    $("step").textContent = step;
    if (document.activeElement !== $("to")) $("to").value = step;
    $("solutions").textContent = solutions;
    $("takebacks").textContent = takebacks;
    $("queens").textContent = queens.length;
    $("back").disabled = $("first").disabled = step === 0;
    $("forward").disabled = $("next").disabled = step === total;
  }

  // The last few steps, newest last, so that a take-back can be followed to what led to it.
  function showHistory() {
    const list = $("history");
    list.innerHTML = "";
    for (let k = Math.max(1, step - HISTORY + 1); k <= step; k++) {
      const e = events[k - 1];
      const [verb, rest] = kind(e) === SOLUTION ? ["solution", "(every row has its queen)"] : describe(k);
      const li = document.createElement("li");
      li.value = k;
      const b = document.createElement("b");
      b.textContent = verb;
      li.append(b, ` ${rest}`);
      list.appendChild(li);
    }
  }

  function remember() {
    history.replaceState(null, "", `#step=${step}`);
  }

  function goTo(k) {
    k = Math.max(0, Math.min(total, k | 0));
    while (step < k) forward();
    while (step > k) back();
    render();
  }

  function nextSolution() {
    while (forward()) {
      if (kind(events[step - 1]) === SOLUTION) break;
    }
    render();
    remember();
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").innerHTML = "&#x25B6; play";
    remember();
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (step === total) goTo(0);
    const rate = SPEEDS[+$("speed").value];
    // Past 50 steps a second the page draws every few steps, not every one.
    const every = Math.max(1, Math.round(rate / 50));
    $("play").innerHTML = "&#x2016; pause";
    timer = setInterval(() => {
      let moved = false;
      for (let i = 0; i < every; i++) moved = forward() || moved;
      render();
      if (!moved || step === total) stop();
    }, 1000 * every / rate);
  }

  function speedLabel() {
    const rate = SPEEDS[+$("speed").value];
    $("speed-label").textContent = `${rate} step${rate === 1 ? "" : "s"} a second`;
  }

  function fromHash() {
    const m = /step=(\d+)/.exec(location.hash);
    goTo(m ? parseInt(m[1], 10) : 0);
    checkTried();
  }

  // The tried squares kept step by step (forward from the start) against those worked out
  // from the events, as a step back works them out: the board says whether they agree
  // (`data-tried-check`), which the tests read.
  function checkTried() {
    const kept = tried.map((t) => [...t].sort((a, b) => a - b).join(","));
    triedFromEvents();
    const again = tried.map((t) => [...t].sort((a, b) => a - b).join(","));
    boardEl.dataset.triedCheck = kept.join("|") === again.join("|") ? "agrees" : "differs";
  }

  build();
  $("steps").textContent = total;
  $("to").max = total;
  if (data.mode !== "trace") {
    document.body.classList.add("board-only");
    $("line").textContent = data.line;
    $("summary").textContent = data.summary;
    render();
  } else {
    $("first").onclick = () => { stop(); goTo(0); remember(); };
    $("back").onclick = () => { stop(); goTo(step - 1); remember(); };
    $("forward").onclick = () => { stop(); goTo(step + 1); remember(); };
    $("play").onclick = play;
    $("next").onclick = () => { stop(); nextSolution(); };
    $("speed").oninput = () => { speedLabel(); if (timer !== null) { stop(); play(); } };
    $("jump").onsubmit = (ev) => { ev.preventDefault(); stop(); goTo(+$("to").value); remember(); };
    document.addEventListener("keydown", (ev) => {
      if (ev.target instanceof HTMLInputElement && ev.target.type === "number") return;
      const keys = {
        ArrowRight: () => $("forward").onclick(),
        ArrowLeft: () => $("back").onclick(),
        " ": play,
        Home: () => $("first").onclick(),
        End: () => { stop(); goTo(total); remember(); },
        n: () => $("next").onclick(),
        N: () => $("next").onclick(),
      };
      if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
    });
    // Space on a focused button would also click it when the key comes up.
    document.addEventListener("keyup", (ev) => { if (ev.key === " ") ev.preventDefault(); });
    window.addEventListener("hashchange", () => { if (timer === null) fromHash(); });
    speedLabel();
    fromHash();
  }
  fit();
  window.addEventListener("resize", fit);
})();
