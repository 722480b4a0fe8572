// The phone as a Qwixx pad: shows what the tower pushes (the player's sheet, the dice, whose
// turn), sends taps as decisions, and keeps its seat with the token the tower gave last (at
// join, then at every hello).
"use strict";

const TOKEN_KEY = "qwixx-seat-token";
const NONCE = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) =>
  b.toString(16).padStart(2, "0")).join("");  // this page load's part of every request id
const MAX_BACKOFF = 8000;
// Milliseconds the tower may take to answer before the connection counts as dead: a phone that
// slept, or lost its Wi-Fi, may hold a socket that still looks open but carries nothing.
const SILENCE_LIMIT = 5000;
const COLOUR_NAMES = { red: "red", yellow: "yellow", green: "green", blue: "blue" };
const LETTERS = { white: "W", red: "R", yellow: "Y", green: "G", blue: "B",
                  "red-yellow": "RY", "yellow-green": "YG", "green-blue": "GB" };
const PATTERNS_KEY = "qwixx-patterns";
// What the phone remembers (its seat's token, the patterns switch): the browser's localStorage,
// or, where the browser keeps no site data for the page (site data blocked, storage turned off,
// a storage that is full), whose localStorage throws or is null, a memory that lasts as long as
// the page does: the player plays on, and after a reload joins again between games, as a new
// seat (a name alone takes no seat: the seat's token does).
const saved = (() => {
  try {
    const storage = window.localStorage;
    storage.setItem(PATTERNS_KEY + "-probe", "1");
    storage.removeItem(PATTERNS_KEY + "-probe");
    return storage;
  } catch (error) {
    const kept = new Map();
    return {
      getItem: (key) => (kept.has(key) ? kept.get(key) : null),
      setItem: (key, value) => kept.set(key, String(value)),
      removeItem: (key) => kept.delete(key),
    };
  }
})();

let socket = null;
let stopped = false;  // the tower ended this connection for good (a newer one plays the seat)
let retry = null;
let silence = null;  // timer: a message went out and nothing came back yet
let backoff = 500;
let counter = 0;
let view = null;
let selected = null;  // the move a tap chose, until the player confirms or cancels it
const pending = new Map();  // request id -> the decision, until the tower answers it
const $ = (id) => document.getElementById(id);

// ---- the connection --------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws");
  socket.onopen = () => {
    backoff = 500;
    setStatus("connected", "ok");
    const token = saved.getItem(TOKEN_KEY);
    if (token) send({ type: "hello", token });
    for (const decision of pending.values()) send(decision);  // answers lost on the way
  };
  socket.onmessage = (event) => {
    heard();
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    handle(message);
  };
  socket.onclose = (event) => {
    heard();
    if (stopped) {
      setStatus("disconnected: reload the page to play here", "lost");
      return;
    }
    const seconds = Math.round(backoff / 100) / 10;
    const why = event.code === 1012 ? "the tower is restarting" : "connection lost";
    setStatus(`${why}: trying again in ${seconds} s`, "lost");
    retry = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, MAX_BACKOFF);
  };
}

function reconnectNow() {  // the phone woke up or found its network again: no waiting
  if (!socket || stopped) return;
  if (socket.readyState === WebSocket.CLOSED) {
    clearTimeout(retry);
    backoff = 500;
    connect();
  } else if (socket.readyState === WebSocket.OPEN) {
    send({ type: "ping" });  // still alive? the tower answers with the newest view
  }
}

function heard() {
  clearTimeout(silence);
  silence = null;
}

function abandon() {  // the socket looks open but the tower has not answered: start afresh
  silence = null;
  const dead = socket;
  dead.onopen = dead.onmessage = dead.onclose = null;
  dead.close();
  setStatus("connection lost: reconnecting", "lost");
  connect();  // the hello and the decisions still unanswered go out again on the new one
}

function send(message) {  // every message is answered: silence means a dead connection
  if (!socket || socket.readyState !== WebSocket.OPEN) return;  // sent again on reconnecting
  socket.send(JSON.stringify(message));
  if (silence === null) silence = setTimeout(abandon, SILENCE_LIMIT);
}

function decide(fields) {
  const request = `${NONCE}/${++counter}`;
  const decision = { type: "decide", request, action: "mark", row: "", number: 0,
                     lucky: false, choice: "", swap: 0, ...fields };
  pending.set(request, decision);
  document.body.classList.add("busy");  // one decision at a time: no double taps
  selected = null;
  hide($("choices"));
  $("confirm").hidden = true;
  send(decision);
}

// ---- what the tower says ---------------------------------------------------------------------

function handle(message) {
  switch (message.type) {
    case "lobby":
      if (!saved.getItem(TOKEN_KEY)) showLobby(message);
      break;
    case "token":  // a new token at every hello: the old one is good only until this is kept
      saved.setItem(TOKEN_KEY, message.token);
      send({ type: "kept", token: message.token });
      break;
    case "named":  // a pad's player named from this phone, which stays without a seat
      clearRefusal();
      setStatus(`the pad of ${message.pad} plays as ${message.player} now`, "ok");
      $("name").value = "";
      $("who").value = "";
      chooseWho();
      break;
    case "joined":
      saved.setItem(TOKEN_KEY, message.token);
      pending.clear();  // taps of a seat this phone lost: never the new seat's
      document.body.classList.remove("busy");
      clearRefusal();
      break;
    case "view": {
      const before = view;
      view = message.view;
      showGame(view, before);
      break;
    }
    case "answer":
      pending.delete(message.request);
      if (!pending.size) document.body.classList.remove("busy");
      if (message.ok) clearRefusal();
      else showRefusal(message.reason);
      break;
    case "restarting":  // the socket closes next (code 1012); the page comes back by itself
      setStatus(message.text, "lost");
      break;
    case "refused":
      showRefusal(message.reason);
      if (message.reason.includes("is not this table's code")) keyWasRefused();
      if (message.final) stopped = true;
      if (message.forget) {
        saved.removeItem(TOKEN_KEY);
        showLobby({ may_join: true, text: "type the table code and your name" });
      }
      break;
  }
}

function setStatus(words, kind) {
  const status = $("status");
  status.textContent = words;
  status.className = `status ${kind}`;
}

function showRefusal(reason) {
  const refusal = $("refusal");
  refusal.textContent = reason;
  refusal.hidden = false;
}

function clearRefusal() {
  $("refusal").hidden = true;
}

function hide(element) {
  element.hidden = true;
  element.replaceChildren();
}

// ---- joining ---------------------------------------------------------------------------------

function showLobby(lobby) {
  $("game").hidden = true;
  $("join").hidden = false;
  $("player").textContent = "Qwixx";
  $("lobby-text").textContent = lobby.text;
  mayJoin = lobby.may_join;
  showPads(lobby.pads || []);
  const code = new URLSearchParams(location.search).get("code");
  if (code && !$("code").value && !keyRefused) $("code").value = code;
  // The QR code's link carries the table's key, not the four digits: nothing to type.
  $("code-label").hidden = Boolean(code) && $("code").value === code && code.length > 4;
}

let keyRefused = false;  // the link's key opened nothing (a new key since): type the code
let mayJoin = false;

// Between games a pad's seat may be given its player's name from here (a pad cannot type).
function showPads(pads) {
  const who = $("who");
  const chosen = who.value;
  const options = pads.map((name) => new Option(`the pad of ${name}: name its player`, name));
  who.replaceChildren(new Option("I play on this phone", ""), ...options);
  who.value = pads.includes(chosen) ? chosen : "";
  $("who-label").hidden = pads.length === 0;
  chooseWho();
}

function chooseWho() {
  const pad = $("who").value;
  $("name-words").textContent = pad ? "Its player's name" : "Your name";
  $("join-button").textContent = pad ? "Name the pad's player" : "Join";
  $("join-button").disabled = !pad && !mayJoin;
}

$("who").addEventListener("change", chooseWho);

function keyWasRefused() {
  if ($("code-label").hidden) {
    keyRefused = true;
    $("code").value = "";
    $("code-label").hidden = false;
  }
}

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const message = { type: "join", code: $("code").value.trim(), name: $("name").value.trim() };
  if ($("who").value) message.pad = $("who").value;
  send(message);
});

// ---- the game --------------------------------------------------------------------------------

function showGame(seat, before) {
  const focused = document.activeElement && document.activeElement.dataset.key;
  $("join").hidden = true;
  $("game").hidden = false;
  document.body.dataset.phase = seat.phase;
  $("player").textContent = seat.player;
  $("text").textContent = seat.text;
  $("text").classList.toggle("yours", seat.active || (seat.moves.length > 0 && !seat.decided));
  if (selected && !seat.moves.some((move) => sameMove(move, selected))) selected = null;
  showResult(seat);
  showDice(seat);
  showSheet(seat);
  showSwaps(seat);
  showPenalties(seat);
  $("total").textContent = `score ${seat.total}`;
  showLucky(seat);
  showMoves(seat);
  showSelection();
  $("pass").hidden = !seat.may_pass;
  $("undo").hidden = !seat.may_undo;
  showScores(seat);
  showFigures(seat);
  refocus(focused);
  tell(before, seat);
}

let shownFigures = "";  // the figures drawn last: drawn again only when the tower's differ

function showFigures(seat) {  // at game over: the game's charts and tables, drawn by the tower
  const figures = seat.phase === "over" && seat.figures ? seat.figures : "";
  $("figures-box").hidden = !figures;
  if (figures !== shownFigures) {
    $("figures").innerHTML = figures;  // the tower's own markup, every name in it escaped
    shownFigures = figures;
  }
  $("game-link").hidden = !seat.game;
  if (seat.game) $("game-link").href = `/history/game/${seat.game}`;
}

function refocus(key) {  // a new view redraws the buttons: the focus stays on the same one
  if (!key || document.activeElement !== document.body) return;
  const again = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again) again.focus();
}

// ---- in words, for everyone: the game over line, and news for screen readers ---------------

function ordinal(place) {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][place % 10] || "th";
  return `${place}${suffix}`;
}

function resultWords(seat) {  // the player's own place, and what happens next
  const mine = seat.total;
  const place = 1 + seat.scores.filter(([, total]) => total > mine).length;
  const sharing = seat.scores.filter(([name, total]) => total === mine && name !== seat.player);
  const of = seat.scores.length;
  let words = place === 1 && !sharing.length ? `You won with ${mine} points`
    : `You came ${ordinal(place)} of ${of} with ${mine} points`;
  if (sharing.length) words += `, sharing the place with ${sharing.map(([n]) => n).join(" and ")}`;
  return `${words}. Next: a press of the tower's roll button starts a new game; ` +
    "you keep your seat.";
}

function showResult(seat) {
  const result = $("result");
  result.hidden = seat.phase !== "over";
  result.textContent = result.hidden ? "" : resultWords(seat);
}

function diceWords(seat) {
  const faces = [`white ${seat.white[0]} and ${seat.white[1]}`];
  for (const [colour, face] of Object.entries(seat.colours)) faces.push(`${colour} ${face}`);
  return faces.join(", ");
}

function newsOf(before, seat) {  // what changed since the last view, in a sentence or two
  const words = [];
  if (rolled(before, seat)) words.push(`Rolled: ${diceWords(seat)}.`);
  if (before) words.push(...ownNews(before, seat));
  const locked = seat.locked.filter((colour) => !before || !before.locked.includes(colour));
  if (before) for (const colour of locked) words.push(`The ${colour} row is locked.`);
  if (!before || seat.text !== before.text) words.push(sentence(seat.text));
  if (seat.phase === "over" && (!before || before.phase !== "over")) words.push(resultWords(seat));
  const moves = seat.moves.length && !seat.decided ? movesWords(seat.moves) : "";
  if (moves && (!before || movesWords(before.moves) !== moves)) words.push(moves);
  return words.join(" ");
}

// A new roll: other faces, or the roll phase over (the same faces again). A die that leaves
// the game with its locked row is no roll (that was said as one again).
function rolled(before, seat) {
  if (!seat.white) return false;
  if (!before || !before.white) return true;
  if (before.phase === "roll" && seat.phase !== "roll") return true;
  const otherFace = (colour) => before.colours[colour] !== seat.colours[colour];
  return String(seat.white) !== String(before.white) || Object.keys(seat.colours).some(otherFace);
}

// The player's own sheet since the last view: the crosses they made (a bonus's, a lock's too)
// and a penalty. A new game's empty sheet, or the first view after a reload, says nothing here.
function ownNews(before, seat) {
  const words = [];
  const was = printedRows(before);
  const rows = printedRows(seat);
  if (was.length !== rows.length) return words;
  const crossed = rows.flatMap((row, index) => newCrosses(was[index], row));
  if (crossed.length) words.push(`You crossed ${inWords(crossed)}.`);
  if (seat.penalties > before.penalties) {
    words.push(`You took a penalty: ${seat.penalties} of 4.`);
  }
  return words;
}

function newCrosses(was, row) {  // "red 12", "the red lock": what this row gained
  const crossed = row.crossed.filter((position) => !was.crossed.includes(position));
  const names = crossed.map((position) => `${row.colour} ${row.numbers[position]}`);
  if (row.locked_by_me && !was.locked_by_me) names.push(`the ${row.colour} lock`);
  return names;
}

function inWords(names) {  // "a", "a and b", "a, b and c"
  return names.length < 2 ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function sentence(words) {
  return /[.!?]$/.test(words) ? words : `${words}.`;
}

function movesWords(moves) {
  if (!moves.length) return "";
  return "You may cross " + moves.map((move) => moveName(move)).join(", ") + ".";
}

// The news region changes at most once every NEWS_GAP ms: views come in bursts (every player's
// decision is one, up to 8 a second), and a screen reader that hears its live region change
// again while it speaks may cut the last news short or skip it. What happened meanwhile is said
// together, in order, each piece once (WCAG 4.1.3).
const NEWS_GAP = 1500;
const newsToSay = [];
let newsTimer = null;
let newsSaidAt = -Infinity;

function tell(before, seat) {
  const words = newsOf(before, seat);
  if (!words) return;
  newsToSay.push(words);
  if (newsTimer === null) {
    const wait = Math.max(0, newsSaidAt + NEWS_GAP - performance.now());
    newsTimer = setTimeout(sayNews, wait);
  }
}

function sayNews() {
  newsTimer = null;
  newsSaidAt = performance.now();
  const said = document.createElement("p");  // a new node: read even if its words are the same
  said.textContent = newsToSay.splice(0).join(" ");
  $("news").replaceChildren(said);
}

// ---- dice and sheet --------------------------------------------------------------------------

function forScreenReaders(words) {  // words read aloud, not shown
  const element = document.createElement("span");
  element.className = "visually-hidden";
  element.textContent = words;
  return element;
}

function letter(colour) {  // the colour's letter, seen but not read (the name is read instead)
  const element = document.createElement("span");
  element.className = "letter";
  element.setAttribute("aria-hidden", "true");
  element.textContent = LETTERS[colour] || colour[0].toUpperCase();
  return element;
}

// What each part of the page was last drawn from: a part whose view has not changed is left
// as it is, and the phone has nothing to lay out or paint there (most messages change one
// player's decision, not the dice, the penalties or the scores).
const drawnFrom = new Map();

function alreadyShows(id, ...from) {
  const key = JSON.stringify(from);
  if (drawnFrom.get(id) === key) return true;
  drawnFrom.set(id, key);
  return false;
}

function showDice(seat) {
  if (alreadyShows("dice", seat.white, seat.colours)) return;
  const dice = $("dice");
  dice.replaceChildren();
  $("dice-title").textContent = seat.white ? "Dice" : "Dice: not rolled yet";
  dice.hidden = !seat.white;
  if (!seat.white) return;
  for (const face of seat.white) dice.append(die("white", face));
  for (const [colour, face] of Object.entries(seat.colours)) dice.append(die(colour, face));
}

function die(colour, face) {
  const element = document.createElement("li");
  element.className = `die ${colour}`;
  const number = document.createElement("span");
  number.className = "face";
  number.textContent = face;
  element.append(letter(colour), forScreenReaders(`${colour} die `), number);
  return element;
}

// The sheet's rows and cells are built once per sheet shape (a game's variant) and then
// changed in place, only where a view differs: the phone lays out and repaints what changed
// instead of the whole sheet at every message (a whole game: 113 full layouts of 60 cells).
let sheetMoves = [];  // the marks the cells show as legal now (the move buttons make them)

function showSheet(seat) {
  const sheet = $("sheet");
  sheetMoves = seat.moves.filter((move) => !move.lucky);
  const rows = printedRows(seat);
  const shape = rows.map((row) => [row.colour, row.numbers, row.cell_colours]);
  if (!alreadyShows("sheet", shape)) {
    $("sheet-title").textContent = shape.length ? "Your sheet"
      : "Your sheet: none until the game starts";
    buildSheet(sheet, rows);
    fitRows();
  }
  rows.forEach((row, index) => showRow(sheet.children[index], row));
}

// The rows as printed: Big Points' bonus rows (round boxes, two colours) lie between the two
// rows they count for, red-yellow under red, green-blue under green. A bonus row is drawn as
// a row with no lock.
function printedRows(seat) {
  const rows = [];
  for (const row of seat.rows || []) {
    rows.push(row);
    for (const bonus of seat.bonus_rows || []) {
      if (bonus.between[0] === row.colour) rows.push(bonusRow(bonus));
    }
  }
  return rows;
}

function bonusRow(bonus) {
  return { colour: bonus.name, numbers: bonus.numbers, crossed: bonus.crossed,
           skipped_before: bonus.skipped_before, cell_colours: [], locked_by_me: false,
           closed: false, bonus: bonus.between };
}

function buildSheet(sheet, rows) {
  const widest = Math.max(0, ...rows.map((row) => row.numbers.length));
  sheet.classList.toggle("long", widest > 12);  // longo's rows: smaller digits, as on its card
  sheet.classList.toggle("bonus-rows", rows.some((row) => row.bonus));  // letters of two
  sheet.replaceChildren(...rows.map((row) => {
    const line = document.createElement("div");
    line.className = `row ${row.colour}`;  // (before its style: the same HTML on every page)
    line.style.setProperty("--cells", row.numbers.length + 1);
    const cells = document.createElement("ul");
    cells.className = "cells";
    cells.append(...row.numbers.map((number) => newCell(row.colour, number)));
    if (!row.bonus) cells.append(newCell(row.colour, "lock"));
    line.append(letter(row.colour), cells);
    return line;
  }));
  fitWhenResized.disconnect();
  fitWhenResized.observe(sheet);
  const first = sheet.querySelector(".cell");
  if (first) fitWhenResized.observe(first);
}

// A row wraps onto more lines when its cells would be narrower than their numbers need (the
// least width app.css gives a cell): as few lines as fit, its cells spread evenly over them
// (a classic row's 12 cells at 320 px: 6 and 6). It scrolled sideways before, most of it out
// of view at 200 % zoom, with nothing to show that it would scroll (WCAG 1.4.10).
function fitRows() {
  for (const cells of document.querySelectorAll("#sheet .cells")) {
    const style = getComputedStyle(cells);
    const gap = parseFloat(style.columnGap) || 0;
    const room = cells.clientWidth - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight);
    const least = parseFloat(getComputedStyle(cells.firstElementChild).minWidth);
    if (!(least > 0)) continue;  // (a browser without the least width: the row scrolls)
    const count = cells.children.length;
    const fit = Math.max(1, Math.floor((room + gap) / (least + gap)));
    const perLine = Math.ceil(count / Math.ceil(count / fit));
    if (cells.style.getPropertyValue("--per-line") !== String(perLine)) {
      cells.style.setProperty("--per-line", perLine);
    }
  }
}

// Fitted again when the sheet's width changes (a phone turned, a window zoomed) or its first
// cell's (the player's text size): after the frame, so that the rows' new height is not a
// change the observer must report within the same frame.
let fitting = null;
const fitWhenResized = new ResizeObserver(() => {
  if (fitting === null) fitting = requestAnimationFrame(() => { fitting = null; fitRows(); });
});

function newCell(colour, number) {
  const element = document.createElement("li");
  element.dataset.row = colour;
  element.dataset.number = number;
  if (number !== "lock") {
    const digits = document.createElement("span");
    digits.className = "number";
    digits.textContent = number;
    element.append(digits);
  }
  return element;
}

function showRow(line, row) {
  changed(line, "className", `row ${row.colour}` + (row.bonus ? " bonus" : "")
    + (row.closed ? " closed" : ""));
  const cells = line.querySelector(".cells");
  const label = rowWords(row);
  if (cells.getAttribute("aria-label") !== label) cells.setAttribute("aria-label", label);
  row.numbers.forEach((number, position) => {
    const move = sheetMoves.find((m) => m.row === row.colour && m.number === number);
    showCell(cells.children[position], row, position, move);
  });
  if (!row.bonus) showLockCell(cells.lastElementChild, row);
}

function changed(element, property, value) {  // written only if it differs: nothing to redo
  if (element[property] !== value) element[property] = value;
}

function spoken(element, words) {  // the cell's words for screen readers, after what it shows
  let said = element.querySelector(".visually-hidden");
  if (!words) {
    if (said) said.remove();
    return;
  }
  if (!said) {
    said = forScreenReaders("");
    element.append(said);
  }
  changed(said, "textContent", words);
}

function rowWords(row) {
  const crosses = row.crossed.length + (row.doubled || []).length + (row.locked_by_me ? 1 : 0);
  const crossWords = `${crosses} ${crosses === 1 ? "cross" : "crosses"}`;
  if (row.bonus) {
    return `${row.colour} bonus row, ${crossWords}, each counting for ${row.bonus.join(" and ")}`;
  }
  let words = `${row.colour} row, ${crossWords}`;
  if (row.locked_by_me) words += ", locked by you";
  else if (row.closed) words += ", locked";
  return words;
}

function cellState(row, position, move) {
  if (row.crossed.includes(position) && !move) return "crossed";  // (Double A: or again)
  if (move) return "legal";
  if (position < row.skipped_before) return "skipped";
  return row.closed ? "closed" : "open";
}

const STATE_WORDS = { crossed: "crossed", legal: "you may cross it", skipped: "skipped",
                      closed: "row locked", open: "" };

function showCell(element, row, position, move) {
  const state = cellState(row, position, move);
  const colour = row.cell_colours[position] || row.colour;
  const chosen = Boolean(move && selected && sameMove(move, selected));
  const double = doubleKind(row, position, state);
  const joined = connectionKind(element, row, position);
  changed(element, "className", `cell ${colour} ${state}` + (chosen ? " selected" : "")
    + double.classes + joined.classes);
  const words = [colour !== row.colour ? colour : "", ...double.words, ...joined.words,
                 STATE_WORDS[state]].filter(Boolean);
  spoken(element, words.length ? ", " + words.join(", ") : "");
}

// Qwixx Double: a cell printed double has a double frame (B), a cell crossed twice two crosses,
// and a cell crossed once that may be crossed again shows its cross inside the legal frame (A).
function doubleKind(row, position, state) {
  const classes = [], words = [];
  if ((row.printed_double || []).includes(position)) {
    classes.push("printed-double");
    words.push("printed double");
  }
  if ((row.doubled || []).includes(position)) {
    classes.push("twice");
    words.push("crossed twice");
  } else if (state === "legal" && row.crossed.includes(position)) {
    classes.push("once");
    words.push("crossed once, may be crossed again");
  }
  return { classes: classes.map((name) => " " + name).join(""), words };
}

// Qwixx Connected, as on the player's pad: a stair cell framed in black; a circled cell of the
// chain with its pair's letter in a corner (the same letter at both ends, where the pad draws a
// line), each said in words: "on the stair", "chain b, joined to yellow 6".
function connectionKind(element, row, position) {
  const classes = [], words = [];
  if ((row.stair || []).includes(position)) {
    classes.push("stair");
    words.push("on the stair");
  }
  const link = (row.links || []).find(([at]) => at === position);
  let pair = element.querySelector(".pair");
  if (link) {
    classes.push("circled");
    words.push(`chain ${link[1]}, joined to ${link[2]}`);
    if (!pair) {
      pair = document.createElement("span");
      pair.className = "pair";
      pair.setAttribute("aria-hidden", "true");  // (said in the words)
      element.append(pair);
    }
    changed(pair, "textContent", link[1]);
  } else if (pair) {
    pair.remove();
  }
  return { classes: classes.map((name) => " " + name).join(""), words };
}

function showLockCell(element, row) {
  changed(element, "className", "cell lock" + (row.locked_by_me ? " crossed" : ""));
  spoken(element, row.locked_by_me ? "lock: crossed, you locked this row"
    : row.closed ? "lock: the row is locked" : "lock");
}

// X-Change: the swap fields under the rows as printed, each its two numbers; used ones
// crossed, those left of a used one struck through (gone), each said in words.
const SWAP_WORDS = { used: "used", passed: "gone: a field right of it is used", open: "open" };

function showSwaps(seat) {
  const fields = seat.swaps || [];
  if (alreadyShows("swaps", fields)) return;
  const list = $("swaps");
  list.replaceChildren(...fields.map((field) => {
    const item = document.createElement("li");
    item.className = `swap ${field.state}`;
    const numbers = document.createElement("span");
    numbers.className = "number";
    numbers.setAttribute("aria-hidden", "true");
    numbers.textContent = `${field.numbers[0]}⇄${field.numbers[1]}`;
    item.append(numbers, forScreenReaders(`X-Change field ${field.field}: `
      + `${field.numbers[0]} and ${field.numbers[1]}, ${SWAP_WORDS[field.state]}`));
    return item;
  }));
  list.hidden = !fields.length;
}

function showPenalties(seat) {
  if (alreadyShows("penalties", seat.penalties)) return;
  const penalties = $("penalties");
  penalties.replaceChildren(forScreenReaders(`penalties: ${seat.penalties} of 4`));
  for (let box = 0; box < 4; box++) {
    const element = document.createElement("span");
    element.className = "penalty" + (box < seat.penalties ? " crossed" : "");
    element.setAttribute("aria-hidden", "true");
    penalties.append(element);
  }
}

// ---- choosing a mark: a tap selects, a second control commits -------------------------------

function sameMove(a, b) {
  return a.row === b.row && a.number === b.number && a.lucky === b.lucky
    && (a.swap || 0) === (b.swap || 0);
}

function moveName(move) {
  return `${move.row} ${move.number}` + (move.lucky ? " (lucky cross)" : "")
    + (move.twice ? " (two crosses)" : "")
    + (move.swap ? ` with X-Change field ${move.swap}` : "");
}

function moveKey(move) {
  return `move:${move.row}:${move.number}:${move.lucky ? "lucky" : "plain"}:${move.swap || 0}`;
}

function showMoves(seat) {
  if (alreadyShows("moves", seat.decided ? [] : seat.moves, selected)) return;
  const moves = $("moves");
  const title = $("moves-title");
  moves.replaceChildren(title);
  const offered = seat.decided ? [] : seat.moves;
  for (const move of offered) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `move ${move.row}` + (move.lucky ? " lucky-cross" : "")
      + (move.twice ? " twice" : "");
    button.dataset.row = move.row;
    button.dataset.number = move.number;
    button.dataset.key = moveKey(move);
    button.setAttribute("aria-pressed", String(Boolean(selected && sameMove(move, selected))));
    const number = document.createElement("span");
    number.textContent = move.number;
    button.append(letter(move.row), forScreenReaders(`${move.row} `), number);
    if (move.lucky) button.append(" ★", forScreenReaders(" lucky cross"));
    if (move.twice) button.append(" ×2", forScreenReaders(" two crosses"));  // Qwixx Double
    if (move.swap) {  // X-Change: the field the cross uses, as printed under the rows
      button.classList.add("swap-cross");
      const field = document.createElement("span");
      field.className = "swap-mark";
      field.setAttribute("aria-hidden", "true");
      field.textContent = ` ⇄${move.swap}`;
      button.append(field, forScreenReaders(` with X-Change field ${move.swap}`));
    }
    button.addEventListener("click", () => select(move));
    moves.append(button);
  }
  moves.hidden = !offered.length;
}

function select(move) {
  if (pending.size) return;  // the last decision is not answered yet
  selected = move;
  hide($("choices"));
  if (view) showGame(view, view);
  if (move.choices && move.choices.length) {
    askChoice(move);
    $("choices").querySelector("button").focus();
  } else {
    $("confirm-button").focus();
  }
}

function showSelection() {
  const confirm = $("confirm");
  const asking = selected && selected.choices && selected.choices.length;
  confirm.hidden = !selected;
  $("confirm-button").hidden = Boolean(asking);
  if (selected) $("confirm-button").textContent = `Cross ${moveName(selected)}`;
  if (!selected) hide($("choices"));
}

function cancel() {
  selected = null;
  hide($("choices"));
  if (view) showGame(view, view);
  const first = $("moves").querySelector("button");
  if (first) first.focus();
}

function tap(move) {  // commit a mark (the confirm button, or a bonus row chosen)
  if (pending.size) return;  // the last tap is not answered yet
  if (move.choices && move.choices.length) {
    askChoice(move);
    return;
  }
  decide({ action: "mark", row: move.row, number: move.number, lucky: move.lucky,
           swap: move.swap || 0 });
}

function askChoice(move) {
  const choices = $("choices");
  choices.replaceChildren();
  const question = document.createElement("p");
  question.textContent = `${move.row} ${move.number} earns a bonus: which row gets it?`;
  choices.append(question);
  for (const row of move.choices) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `choice ${row}`;
    button.dataset.choice = row;
    button.dataset.key = `choice:${row}`;
    button.append(letter(row), " ", COLOUR_NAMES[row] || row);
    button.addEventListener("click", () =>
      decide({ action: "mark", row: move.row, number: move.number, lucky: move.lucky,
               choice: row }));
    choices.append(button);
  }
  choices.hidden = false;
  $("confirm").hidden = false;
}

// ---- longo's lucky numbers, scores, options -------------------------------------------------

function showLucky(seat) {
  const asked = [seat.phase === "lucky", seat.decided, seat.lucky_choices];
  if (alreadyShows("lucky", asked, seat.lucky)) return;
  const lucky = $("lucky");
  lucky.replaceChildren();
  const choosing = seat.phase === "lucky";
  if (!choosing && !seat.lucky.length) {
    lucky.hidden = true;
    return;
  }
  const chosen = document.createElement("p");
  chosen.textContent = "lucky numbers: " + (seat.lucky.length ? seat.lucky.join(", ") : "none yet");
  lucky.append(chosen);
  if (choosing && !seat.decided) {
    for (const number of seat.lucky_choices) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "lucky-number";
      button.dataset.number = number;
      button.dataset.key = `lucky:${number}`;
      button.textContent = number;
      button.addEventListener("click", () => pending.size || decide({ action: "lucky", number }));
      lucky.append(button);
    }
    const draw = document.createElement("button");
    draw.type = "button";
    draw.className = "lucky-draw";
    draw.dataset.key = "lucky:draw";
    draw.textContent = "let the tower draw";
    draw.addEventListener("click", () => pending.size || decide({ action: "lucky", number: 0 }));
    lucky.append(draw);
  }
  lucky.hidden = false;
}

// During play the totals stand in seat order, unnumbered; at game over best first, numbered by
// place (players level share the number), so "1." is always the winner.
function rankedScores(seat) {
  const over = seat.phase === "over";
  const listed = over ? [...seat.scores].sort((a, b) => b[1] - a[1]) : seat.scores;
  return listed.map(([name, total]) => ({
    name, total, place: over ? 1 + seat.scores.filter(([, t]) => t > total).length : 0,
  }));
}

function showScores(seat) {
  if (alreadyShows("scores", seat.scores, seat.waiting_for, seat.player, seat.phase)) return;
  const scores = $("scores");
  scores.replaceChildren();
  $("scores-title").textContent = seat.scores.length ? "Scores" : "Scores: none yet";
  scores.hidden = !seat.scores.length;
  scores.classList.toggle("ranked", seat.phase === "over");
  for (const { name, total, place } of rankedScores(seat)) {
    const item = document.createElement("li");
    const waiting = seat.waiting_for.includes(name);
    if (place) item.value = place;
    item.textContent = `${name}: ${total}` + (waiting ? " (deciding)" : "");
    if (name === seat.player) item.className = "me";
    scores.append(item);
  }
}

function usePatterns(on) {  // shapes per colour, beside the letters, for colour-blind players
  document.body.classList.toggle("patterns", on);
  $("patterns").checked = on;
}

function keepPatterns(on) {  // the phone remembers the choice (stored only when it changes)
  if (on) saved.setItem(PATTERNS_KEY, "1");
  else saved.removeItem(PATTERNS_KEY);
  usePatterns(on);
}

$("confirm-button").addEventListener("click", () => selected && tap(selected));
$("cancel").addEventListener("click", cancel);
$("pass").addEventListener("click", () => pending.size || decide({ action: "pass" }));
$("undo").addEventListener("click", () => pending.size || decide({ action: "undo" }));
$("patterns").addEventListener("change", (event) => keepPatterns(event.target.checked));
usePatterns(Boolean(saved.getItem(PATTERNS_KEY)));
$("keeps-nothing").hidden = saved instanceof Storage;  // (else: what a reload costs)

document.addEventListener("visibilitychange", () => document.hidden || reconnectNow());
window.addEventListener("online", reconnectNow);
connect();
