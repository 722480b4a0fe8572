// The phone as a Qwixx pad: shows what the tower pushes (the player's sheet, the dice, whose
// turn), sends taps as decisions, and keeps its seat with the token the tower gave at join.
"use strict";

const TOKEN_KEY = "qwixx-seat-token";
const NONCE = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) =>
  b.toString(16).padStart(2, "0")).join("");  // this page load's part of every request id
const MAX_BACKOFF = 8000;
// Milliseconds the tower may take to answer before the connection counts as dead: a phone that
// slept, or lost its Wi-Fi, may hold a socket that still looks open but carries nothing.
const SILENCE_LIMIT = 5000;
const COLOUR_NAMES = { red: "red", yellow: "yellow", green: "green", blue: "blue" };

let socket = null;
let stopped = false;  // the tower ended this connection for good (a newer one plays the seat)
let retry = null;
let silence = null;  // timer: a message went out and nothing came back yet
let backoff = 500;
let counter = 0;
let view = null;
const pending = new Map();  // request id -> the decision, until the tower answers it
const $ = (id) => document.getElementById(id);

// ---- the connection --------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws");
  socket.onopen = () => {
    backoff = 500;
    setStatus("connected", "ok");
    const token = localStorage.getItem(TOKEN_KEY);
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
                     lucky: false, choice: "", ...fields };
  pending.set(request, decision);
  document.body.classList.add("busy");  // one decision at a time: no double taps
  hide($("choices"));
  send(decision);
}

// ---- what the tower says ---------------------------------------------------------------------

function handle(message) {
  switch (message.type) {
    case "lobby":
      if (!localStorage.getItem(TOKEN_KEY)) showLobby(message);
      break;
    case "joined":
      localStorage.setItem(TOKEN_KEY, message.token);
      pending.clear();  // taps of a seat this phone lost: never the new seat's
      document.body.classList.remove("busy");
      clearRefusal();
      break;
    case "view":
      view = message.view;
      showGame(view);
      break;
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
      if (message.final) stopped = true;
      if (message.forget) {
        localStorage.removeItem(TOKEN_KEY);
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
  $("join-button").disabled = !lobby.may_join;
  const code = new URLSearchParams(location.search).get("code");
  if (code && !$("code").value) $("code").value = code;
}

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send({ type: "join", code: $("code").value.trim(), name: $("name").value.trim() });
});

// ---- the game --------------------------------------------------------------------------------

function showGame(seat) {
  $("join").hidden = true;
  $("game").hidden = false;
  document.body.dataset.phase = seat.phase;
  $("player").textContent = seat.player;
  $("text").textContent = seat.text;
  $("text").classList.toggle("yours", seat.active || (seat.moves.length > 0 && !seat.decided));
  showDice(seat);
  showSheet(seat);
  showPenalties(seat);
  $("total").textContent = `score ${seat.total}`;
  showLucky(seat);
  $("pass").hidden = !seat.may_pass;
  $("undo").hidden = !seat.may_undo;
  showScores(seat);
}

function showDice(seat) {
  const dice = $("dice");
  dice.replaceChildren();
  if (!seat.white) return;
  for (const face of seat.white) dice.append(die("white", face));
  for (const [colour, face] of Object.entries(seat.colours)) dice.append(die(colour, face));
}

function die(colour, face) {
  const element = document.createElement("span");
  element.className = `die ${colour}`;
  element.textContent = face;
  element.title = `${colour} ${face}`;
  return element;
}

function showSheet(seat) {
  const sheet = $("sheet");
  sheet.replaceChildren();
  const marks = seat.moves.filter((move) => !move.lucky);
  for (const row of seat.rows) {
    const line = document.createElement("div");
    line.className = `row ${row.colour}` + (row.closed ? " closed" : "");
    line.style.setProperty("--cells", row.numbers.length + 1);
    row.numbers.forEach((number, position) => {
      const move = marks.find((m) => m.row === row.colour && m.number === number);
      line.append(cell(row, number, position, move));
    });
    const lock = document.createElement("span");
    lock.className = "cell lock" + (row.locked_by_me ? " crossed" : "");
    lock.dataset.row = row.colour;
    lock.dataset.number = "lock";
    lock.title = row.locked_by_me ? "you locked this row" : row.closed ? "locked" : "lock";
    line.append(lock);
    sheet.append(line);
  }
  const lucky = seat.moves.filter((move) => move.lucky);
  if (lucky.length) {
    const strip = document.createElement("div");
    strip.className = "lucky-crosses";
    for (const move of lucky) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `lucky-cross ${move.row}`;
      button.dataset.row = move.row;
      button.dataset.number = move.number;
      button.textContent = `★ lucky cross: ${move.row} ${move.number}`;
      button.addEventListener("click", () => tap(move));
      strip.append(button);
    }
    sheet.append(strip);
  }
}

function cell(row, number, position, move) {
  const crossed = row.crossed.includes(position);
  const element = document.createElement(move ? "button" : "span");
  element.className = `cell ${row.cell_colours[position] || row.colour}`;
  element.dataset.row = row.colour;
  element.dataset.number = number;
  element.textContent = number;
  if (crossed) {
    element.classList.add("crossed");
    element.title = "crossed";
  }
  else if (position < row.skipped_before) element.classList.add("skipped");
  if (move) {
    element.type = "button";
    element.setAttribute("aria-label", `cross ${row.colour} ${number}`);
    element.classList.add("legal");
    element.addEventListener("click", () => tap(move));
  }
  return element;
}

function tap(move) {
  if (pending.size) return;  // the last tap is not answered yet
  if (move.choices && move.choices.length) {
    askChoice(move);
    return;
  }
  decide({ action: "mark", row: move.row, number: move.number, lucky: move.lucky });
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
    button.textContent = COLOUR_NAMES[row] || row;
    button.addEventListener("click", () =>
      decide({ action: "mark", row: move.row, number: move.number, lucky: move.lucky,
               choice: row }));
    choices.append(button);
  }
  choices.hidden = false;
}

function showPenalties(seat) {
  const penalties = $("penalties");
  penalties.replaceChildren();
  for (let box = 0; box < 4; box++) {
    const element = document.createElement("span");
    element.className = "penalty" + (box < seat.penalties ? " crossed" : "");
    penalties.append(element);
  }
}

function showLucky(seat) {
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
      button.textContent = number;
      button.addEventListener("click", () => pending.size || decide({ action: "lucky", number }));
      lucky.append(button);
    }
    const draw = document.createElement("button");
    draw.type = "button";
    draw.className = "lucky-draw";
    draw.textContent = "let the tower draw";
    draw.addEventListener("click", () => pending.size || decide({ action: "lucky", number: 0 }));
    lucky.append(draw);
  }
  lucky.hidden = false;
}

function showScores(seat) {
  const scores = $("scores");
  scores.replaceChildren();
  for (const [name, total] of seat.scores) {
    const item = document.createElement("li");
    const waiting = seat.waiting_for.includes(name);
    item.textContent = `${name}: ${total}` + (waiting ? " (deciding)" : "");
    if (name === seat.player) item.className = "me";
    scores.append(item);
  }
}

$("pass").addEventListener("click", () => pending.size || decide({ action: "pass" }));
$("undo").addEventListener("click", () => pending.size || decide({ action: "undo" }));

document.addEventListener("visibilitychange", () => document.hidden || reconnectNow());
window.addEventListener("online", reconnectNow);
connect();
