// nogo's page: the game lives here, the rules and the engine on the server (`nogo serve`'s
// JSON API). Plain JavaScript, no build step.
"use strict";

const COLUMNS = "ABCDEFGHJ";
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const PV_SHOWN = 12; // moves of the principal variation drawn on the board

const state = {
  setup: null, // stones set up before the first move (from an SGF file), or null
  moves: [], // the game's moves, GTP points
  cursor: 0, // moves shown: the board is the position after moves[0..cursor]
  names: null, // the players' names from an SGF file
  board: null, // the server's view of the shown position
  wins: [], // black's win estimate at each position, by moves played
  search: null, // { controller, kind: "move" | "analyse" | "review" } while one runs
  paused: false, // the engine waits for "Play on" (Stop, undo in self-play, a file opened)
  reviewing: false,
  analysis: null, // the last update of the shown position's search
  updates: 0,
  generation: 0, // bumped whenever the shown position changes, so stale replies are dropped
};

// --- The server -------------------------------------------------------------------------

async function api(path, body, asText = false) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": typeof body === "string" ? "application/x-go-sgf" : "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(await errorOf(response));
  return asText ? response.text() : response.json();
}

async function errorOf(response) {
  try {
    return (await response.json()).error;
  } catch {
    return `the server answered ${response.status}`;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shown game: the setup and the moves up to the cursor. */
function shownGame(upTo = state.cursor) {
  const game = { moves: state.moves.slice(0, upTo) };
  if (state.setup) game.setup = state.setup;
  return game;
}

/** The colour to move after `n` moves. */
function colourAt(n) {
  const first = state.setup ? state.setup.to_move : "black";
  return n % 2 === 0 ? first : first === "black" ? "white" : "black";
}

const player = (colour) => $(colour).value;

/**
 * Searches the shown position (`extra`: `{seconds}` for a move, `{}` to analyse until
 * stopped), drawing each update; the last update, or null when cut short.
 */
async function search(extra, kind) {
  const controller = new AbortController();
  state.search = { controller, kind };
  state.updates = 0;
  const generation = state.generation;
  const at = state.cursor;
  const toMove = state.board.to_move;
  let last = null;
  refreshControls();
  try {
    let response;
    // The last search may still be ending on the server (it stops within a tenth of a second).
    for (let attempt = 0; ; attempt++) {
      response = await fetch("/api/think", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: shownGame(), ...extra }),
        signal: controller.signal,
      });
      if (response.status !== 409 || attempt === 20) break;
      await sleep(100);
    }
    if (!response.ok) throw new Error(await errorOf(response));
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).join("\n");
        if (!data) continue; // a keep-alive comment
        last = JSON.parse(data);
        state.updates += 1;
        if (generation === state.generation) {
          state.analysis = last;
          drawAnalysis();
        }
      }
    }
  } catch (error) {
    if (error.name !== "AbortError") say(error.message);
    last = null;
  } finally {
    if (state.search && state.search.controller === controller) state.search = null;
    refreshControls();
  }
  if (last && last.done) {
    state.wins[at] = toMove === "black" ? last.win : 1 - last.win;
    drawGraph();
  }
  return last && last.done ? last : null;
}

/** Ends the search that runs, if any. */
async function cancelSearch() {
  if (!state.search) return;
  state.search.controller.abort();
  state.search = null;
  await fetch("/api/stop", { method: "POST" });
  refreshControls();
}

// --- The game ---------------------------------------------------------------------------

/** Fetches and draws the shown position, then lets the engine move if it is its turn. */
async function show() {
  const generation = ++state.generation;
  state.analysis = null;
  let board;
  try {
    board = await api("/api/board", shownGame());
  } catch (error) {
    say(error.message);
    return;
  }
  if (generation !== state.generation) return;
  state.board = board;
  drawBoard();
  drawGraph();
  refreshControls();
  if (board.over) state.wins[state.cursor] = board.over.winner === "black" ? 1 : 0;
  engineTurn();
}

async function engineTurn() {
  const board = state.board;
  if (!board || board.over || state.search || state.paused || state.reviewing) return;
  if (state.cursor !== state.moves.length || player(board.to_move) !== "engine") return;
  const generation = state.generation;
  const seconds = Math.min(60, Math.max(0.1, Number($("seconds").value) || 1));
  const answer = await search({ seconds }, "move");
  if (answer && generation === state.generation && !state.paused) play(answer.best);
}

function play(point) {
  state.moves = state.moves.slice(0, state.cursor);
  state.wins = state.wins.slice(0, state.cursor + 1);
  state.moves.push(point);
  state.cursor += 1;
  say("");
  show();
}

async function clickPoint(point, pointState) {
  const board = state.board;
  if (!board || board.over) return;
  if (pointState !== "legal") {
    say(`${point} is illegal for ${board.to_move}: it would be ${pointState === "capture" ? "a capture" : "suicide"}.`);
    return;
  }
  const browsing = state.cursor < state.moves.length || state.paused;
  if (player(board.to_move) !== "human" && !browsing) return; // the engine's turn
  if (state.search) {
    if (state.search.kind === "move") return;
    state.reviewing = false;
    await cancelSearch();
  }
  play(point);
}

async function go(cursor) {
  state.reviewing = false;
  await cancelSearch();
  state.paused = true;
  state.cursor = Math.max(0, Math.min(state.moves.length, cursor));
  show();
}

async function undo() {
  state.reviewing = false;
  await cancelSearch();
  if (state.cursor === 0) return;
  let cursor = state.cursor - 1;
  const someHuman = player("black") === "human" || player("white") === "human";
  // Against the engine, take back its reply with your move.
  if (someHuman && cursor > 0 && player(colourAt(cursor)) === "engine") cursor -= 1;
  if (!someHuman) state.paused = true;
  state.moves = state.moves.slice(0, cursor);
  state.wins = state.wins.slice(0, cursor + 1);
  state.cursor = cursor;
  show();
}

async function newGame() {
  state.reviewing = false;
  await cancelSearch();
  await fetch("/api/new-game", { method: "POST" });
  Object.assign(state, { setup: null, moves: [], cursor: 0, names: null, wins: [], paused: false });
  say("");
  show();
}

async function analyse() {
  state.reviewing = false;
  await cancelSearch();
  if (!state.board || state.board.over) return;
  state.paused = true;
  await search({}, "analyse");
}

async function stop() {
  state.paused = true;
  state.reviewing = false;
  await cancelSearch();
  drawStatus();
}

/** Searches every position of the game briefly, for the graph. */
async function review() {
  await cancelSearch();
  state.paused = true;
  state.reviewing = true;
  refreshControls();
  const seconds = Math.max(0.1, (Number($("seconds").value) || 1) / 4);
  for (let n = 0; n <= state.moves.length && state.reviewing; n++) {
    state.cursor = n;
    await show();
    if (!state.board || state.board.over || !state.reviewing) continue;
    await search({ seconds }, "review");
  }
  state.reviewing = false;
  refreshControls();
}

// --- SGF files --------------------------------------------------------------------------

async function openSgf(file) {
  try {
    const read = await api("/api/sgf/read", await file.text());
    state.reviewing = false;
    await cancelSearch();
    Object.assign(state, {
      setup: read.game.setup || null,
      moves: read.game.moves,
      cursor: read.game.moves.length,
      names: { black: read.black, white: read.white },
      wins: [],
      paused: true,
    });
    say(`Opened ${file.name}: ${read.game.moves.length} moves.`, true);
    show();
  } catch (error) {
    say(`${file.name}: ${error.message}`);
  }
}

async function saveSgf() {
  const name = (colour) => (state.names && state.names[colour]) || (player(colour) === "engine" ? "nogo" : "you");
  try {
    const text = await api(
      "/api/sgf/write",
      { game: { ...shownGame(state.moves.length) }, black: name("black"), white: name("white") },
      true,
    );
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-go-sgf" }));
    link.download = `nogo-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.sgf`;
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    say(error.message);
  }
}

// --- Drawing ----------------------------------------------------------------------------

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.append(node);
  return node;
}

/** The centre of a GTP point on the board: x and y from 0.5 to 8.5. */
function centre(point) {
  const x = COLUMNS.indexOf(point[0].toUpperCase());
  const y = 9 - Number(point.slice(1));
  return [x + 0.5, y + 0.5];
}

function drawGrid() {
  const board = $("board");
  const grid = element("g", {}, board);
  for (let i = 0; i < 9; i++) {
    element("line", { class: "grid", x1: 0.5, y1: i + 0.5, x2: 8.5, y2: i + 0.5 }, grid);
    element("line", { class: "grid", x1: i + 0.5, y1: 0.5, x2: i + 0.5, y2: 8.5 }, grid);
    element("text", { class: "coord", x: i + 0.5, y: -0.2 }, grid).textContent = COLUMNS[i];
    element("text", { class: "coord", x: -0.2, y: i + 0.5 }, grid).textContent = 9 - i;
  }
  for (const [x, y] of [[2, 2], [6, 2], [4, 4], [2, 6], [6, 6]]) {
    element("circle", { class: "star", cx: x + 0.5, cy: y + 0.5, r: 0.07 }, grid);
  }
  for (const name of ["stones", "heat", "pv", "cells"]) element("g", { id: name }, board);
}

function drawBoard() {
  const board = state.board;
  const stones = $("stones");
  const cells = $("cells");
  stones.replaceChildren();
  cells.replaceChildren();
  board.points.forEach((pointState, cell) => {
    const x = cell % 9;
    const y = Math.floor(cell / 9);
    const point = `${COLUMNS[x]}${9 - y}`;
    if (pointState === "black" || pointState === "white") {
      element("circle", { class: `stone ${pointState}`, cx: x + 0.5, cy: y + 0.5, r: 0.46, "data-point": point }, stones);
    }
    const g = element("g", { class: `cell ${pointState}`, "data-point": point, "data-state": pointState }, cells);
    element("rect", { class: "point", x, y, width: 1, height: 1 }, g);
    if (pointState === "legal") {
      element("circle", { class: "hover", cx: x + 0.5, cy: y + 0.5, r: 0.44, fill: "transparent" }, g);
    } else if (pointState === "capture" || pointState === "suicide") {
      const d = `M${x + 0.3} ${y + 0.3}L${x + 0.7} ${y + 0.7}M${x + 0.7} ${y + 0.3}L${x + 0.3} ${y + 0.7}`;
      element("path", { class: "cross", d }, g);
      element("title", {}, g).textContent = `${point}: illegal for ${board.to_move}, ${
        pointState === "capture" ? "it would capture (take a group's last liberty)" : "it would be suicide (no liberty)"
      }`;
    }
    g.addEventListener("click", () => clickPoint(point, pointState));
  });
  if (board.last) {
    const [cx, cy] = centre(board.last);
    element("circle", { class: "last", cx, cy, r: 0.2 }, stones);
  }
  drawAnalysis();
  drawStatus();
}

function drawAnalysis() {
  const heat = $("heat");
  const pv = $("pv");
  heat.replaceChildren();
  pv.replaceChildren();
  const analysis = state.analysis;
  $("updates").textContent = state.updates;
  $("analysis-line").dataset.seconds = analysis ? analysis.seconds : 0;
  if (!analysis || !state.board) {
    for (const id of ["win", "best"]) $(id).textContent = "–";
    $("simulations").textContent = 0;
    return;
  }
  const toMove = state.board.to_move;
  $("win").textContent = `${Math.round(analysis.win * 100)}% for ${toMove}`;
  $("simulations").textContent = analysis.simulations.toLocaleString("en");
  $("best").textContent = analysis.best;
  if ($("show-heat").checked && analysis.points.length) {
    // The main candidates (the eight most visited with at least 1% of the visits) as discs
    // coloured by their win estimate, red to green, labelled with it in percent and their
    // visits; the other searched moves as dots whose area follows their visits.
    const total = analysis.points.reduce((sum, p) => sum + p.visits, 0) || 1;
    const onPv = new Set($("show-pv").checked ? analysis.pv.slice(0, PV_SHOWN) : []);
    const most = analysis.points[0].visits || 1;
    analysis.points.forEach(({ point, visits, win }, rank) => {
      const share = Math.sqrt(visits / most);
      const [cx, cy] = centre(point);
      const main = rank < 8 && visits >= total / 100;
      const hue = Math.round(120 * Math.min(1, Math.max(0, (win - 0.2) / 0.6)));
      element("circle", {
        class: main ? "heat main" : "heat",
        cx,
        cy,
        r: main ? 0.44 : 0.06 + 0.2 * share,
        fill: main ? `hsl(${hue}, 75%, 45%)` : "#2b6cb0",
        opacity: main ? 0.55 + 0.4 * share : 0.45,
        "data-point": point,
        "data-visits": visits,
      }, heat);
      if (main && !onPv.has(point)) {
        element("text", { class: "label", x: cx, y: cy - 0.1 }, heat).textContent = Math.round(win * 100);
        element("text", { class: "visits", x: cx, y: cy + 0.17 }, heat).textContent =
          visits >= 1000 ? `${Math.round(visits / 1000)}k` : visits;
      }
    });
  }
  if ($("show-pv").checked) {
    let colour = toMove;
    analysis.pv.slice(0, PV_SHOWN).forEach((point, i) => {
      const [cx, cy] = centre(point);
      element("circle", { class: `stone ${colour} pv`, cx, cy, r: 0.42 }, pv);
      element("text", { class: "pv-number", x: cx, y: cy, fill: colour === "black" ? "#fff" : "#111" }, pv).textContent = i + 1;
      colour = colour === "black" ? "white" : "black";
    });
  }
}

function drawGraph() {
  const graph = $("graph");
  graph.replaceChildren();
  const span = Math.max(20, state.moves.length);
  const x = (n) => (n / span) * 100;
  const y = (win) => (1 - win) * 40;
  element("line", { class: "half", x1: 0, y1: 20, x2: 100, y2: 20 }, graph);
  let d = "";
  let known = 0;
  let previous = false;
  for (let n = 0; n <= state.moves.length; n++) {
    const win = state.wins[n];
    if (win === undefined) {
      previous = false;
      continue;
    }
    d += `${previous ? "L" : "M"}${x(n).toFixed(2)} ${y(win).toFixed(2)}`;
    previous = true;
    known += 1;
  }
  element("path", { class: "curve", d: d || "M0 20" }, graph);
  graph.dataset.count = known;
  element("line", { class: "cursor", x1: x(state.cursor), y1: 0, x2: x(state.cursor), y2: 40 }, graph);
  $("move-number").textContent = `${state.cursor} / ${state.moves.length}`;
}

function drawStatus() {
  const board = state.board;
  if (!board) return;
  const capital = (s) => s[0].toUpperCase() + s.slice(1);
  let text;
  if (board.over) {
    text = `${capital(board.over.winner)} wins: ${board.over.reason}.`;
  } else if (state.search && state.search.kind === "move") {
    text = `nogo is thinking for ${board.to_move}…`;
  } else {
    text = `${capital(board.to_move)} to move`;
    if (player(board.to_move) === "human") text += ": your turn";
    else if (state.paused || state.cursor < state.moves.length) text += " (the engine waits: Play on)";
  }
  $("status").textContent = text;
  $("status").dataset.over = board.over ? board.over.winner : "";
}

function refreshControls() {
  const atStart = state.cursor === 0;
  const atEnd = state.cursor === state.moves.length;
  $("first").disabled = $("back").disabled = atStart;
  $("forward").disabled = $("last").disabled = atEnd;
  $("play-on").disabled = !state.paused;
  $("stop").disabled = !state.search && !state.reviewing && state.paused;
  $("analyse").disabled = !state.board || !!state.board.over;
  $("undo").disabled = atStart;
  drawStatus();
}

/** Shows `text` under the controls: an error unless `info`. */
function say(text, info = false) {
  $("message").textContent = text;
  $("message").className = info ? "info" : "";
}

// --- Wiring -----------------------------------------------------------------------------

function wire() {
  drawGrid();
  $("new-game").onclick = newGame;
  $("undo").onclick = undo;
  $("play-on").onclick = () => {
    state.paused = false;
    state.cursor = state.moves.length;
    show();
  };
  $("analyse").onclick = analyse;
  $("stop").onclick = stop;
  $("review").onclick = review;
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(state.cursor - 1);
  $("forward").onclick = () => go(state.cursor + 1);
  $("last").onclick = () => go(state.moves.length);
  $("save-sgf").onclick = saveSgf;
  $("open-sgf").onchange = (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) openSgf(file);
  };
  $("show-heat").onchange = $("show-pv").onchange = drawAnalysis;
  for (const colour of ["black", "white"]) $(colour).onchange = () => { drawStatus(); engineTurn(); };
  $("graph").onclick = (event) => {
    const box = $("graph").getBoundingClientRect();
    const span = Math.max(20, state.moves.length);
    go(Math.round(((event.clientX - box.left) / box.width) * span));
  };
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.key === "ArrowLeft") go(state.cursor - 1);
    if (event.key === "ArrowRight") go(state.cursor + 1);
  });
}

async function start() {
  wire();
  try {
    const settings = await (await fetch("/api/settings")).json();
    $("seconds").value = settings.seconds;
  } catch {
    // The page's own default stands.
  }
  show();
}

start();
