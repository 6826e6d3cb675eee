/* A live table's device: a seat's phone (or the table's referee device).
 *
 * The server is the judge: every tap sends one step with the number of steps this device saw
 * (`at`); the answer, the WebSocket and the polling fallback all carry the position as this
 * device may see it (games.seat), which replaces what is shown. A tap while a step is being
 * checked is refused visibly; a step made while the network is down is kept on the device
 * (localStorage) and sent again when it is back, where the server checks it anew.
 */
(function () {
  "use strict";
  var view = JSON.parse(document.getElementById("device-view").textContent);
  var api = JSON.parse(document.getElementById("device-api").textContent);
  var T = JSON.parse(document.getElementById("device-texts").textContent);
  var csrf = document.querySelector("#csrf [name=csrfmiddlewaretoken]").value;
  var $ = function (id) { return document.getElementById(id); };
  var inFlight = false, picked = [], socket = null, pollTimer = null, retry = 500;
  var queueKey = "ddz-device-queue:" + api.steps;
  var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var RED = { H: true, D: true };

  function fmt(text, params) {
    return text.replace(/%\((\w+)\)s/g, function (_m, k) { return params[k] === undefined ? "" : params[k]; });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function showError(text) { var box = $("error"); box.textContent = text || ""; box.hidden = !text; }
  function status(text) { $("live").textContent = text; }

  // --- Cards -------------------------------------------------------------------------------
  // A dealt hand is either suited ("SA H3 BJ …") or ranks only ("33QBR"); either way a list of
  // {rank, suit} in the deal's order, low to high.
  var ORDER = "3456789TJQKA2BR";
  function dealtCards(text) {
    var out = [];
    if (/\s/.test(text.trim()) || /^[SHDC]/.test(text)) {
      text.trim().split(/\s+/).forEach(function (t) {
        if (/^BJ/.test(t)) { out.push({ rank: "B", suit: "" }); }
        else if (/^RJ/.test(t)) { out.push({ rank: "R", suit: "" }); }
        else { out.push({ rank: t.slice(1).replace(/[ab]$/, "").replace("10", "T"), suit: t[0] }); }
      });
    } else {
      text.split("").forEach(function (r) { out.push({ rank: r, suit: "" }); });
    }
    out.sort(function (a, b) { return ORDER.indexOf(a.rank) - ORDER.indexOf(b.rank); });
    return out;
  }
  function rankName(r) { return r === "T" ? "10" : r === "B" ? T.smallJoker : r === "R" ? T.bigJoker : r; }
  // A call as the seats say it: a bid by its number ("bid 3", never "3" read as a card), a
  // named call in the reader's words (the engine's word only for one the page does not know).
  function callText(call) {
    if (/^\d+$/.test(call)) { return fmt(T.bid, { n: call }); }
    if (call === "p" || call === "pass") { return T.pass; }
    return (T.calls && T.calls[call]) || call;
  }
  function cardsText(text) {
    if (!text || text === "pass" || text === "p") { return T.pass; }
    var cards = text.split("@")[0];
    return cards.split("").map(rankName).join(" ");
  }

  // The hand still held: the dealt cards minus the ranks played (by count, from the left).
  function handLeft() {
    var h = view.hand;
    if (!h) { return []; }
    var left = {};
    h.left.split("").forEach(function (r) { left[r] = (left[r] || 0) + 1; });
    return dealtCards(h.dealt).filter(function (c) {
      if (left[c.rank]) { left[c.rank] -= 1; return true; }
      return false;
    });
  }

  // --- Drawing -----------------------------------------------------------------------------
  function draw() {
    var me = view.seat, toMove = view.to_move;
    var rows = document.querySelectorAll("#table-seats tbody tr");
    var last = {};
    (view.plays || []).forEach(function (p) { last[p[0]] = p[1]; });
    if (!view.plays.length) { (view.calls || []).forEach(function (c) { last[c[0]] = c[1]; }); }
    rows.forEach(function (tr) {
      var s = tr.getAttribute("data-seat");
      tr.classList.toggle("to-move", s === toMove);
      tr.classList.toggle("me", s === me);
      tr.classList.toggle("low", (view.low || []).indexOf(s) >= 0);
      tr.querySelector(".role").textContent = s === view.landlord ? "(" + T.landlord + ")" : "";
      tr.querySelector(".count").textContent = view.counts[s];
      var l = last[s];
      tr.querySelector(".last").textContent = l === undefined ? "" : (view.plays.length ? cardsText(l) : callText(l));
    });
    var turn = "";
    if (view.phase === "done") { turn = T.done; }
    else if (me === null || me === undefined) { turn = fmt(T.actFor, { seat: toMove }); }
    else { turn = toMove === me ? T.turnYou : fmt(T.turnOf, { seat: toMove }); }
    if (view.phase === "play" && view.open) {
      turn += " \u00b7 " + fmt(T.toBeat, { cards: cardsText(view.open.cards), seat: view.open.seat });
    } else if (view.phase === "bidding") { turn += " \u00b7 " + T.bidding; }
    $("turn").textContent = turn;
    $("turn").classList.toggle("mine", view.phase !== "done" && (me === toMove || !me));
    $("bottom-line").hidden = !view.bottom;
    $("bottom").textContent = view.bottom ? cardsText(view.bottom) : "";
    drawHand();
    drawMenu();
    drawLog();
    drawResult();
    drawUndo();
    drawLeft();
    drawRobotMoves();
    drawTakenOver();
    armClock();
  }

  // The board is over once its result shows: nothing is left to pick or play.
  function over() { return view.phase === "done" || !!view.game || !!view.result; }

  // Against robots: the moves of his the robot played, their time run out, said on the board
  // itself and not only on his list of boards.
  function drawRobotMoves() {
    var note = $("robot-moves");
    if (!note) { return; }
    note.textContent = view.robot_moves_text || "";
    note.hidden = !view.robot_moves_text;
  }

  // At an online table: each seat the robot took over from its entrant is marked on its row,
  // and the others read who left and from which move (this seat's own says drawLeft).
  function drawTakenOver() {
    var told = view.taken_over || [], marks = {};
    told.forEach(function (t) { marks[t.seat] = t.mark; });
    document.querySelectorAll("#table-seats tbody tr").forEach(function (tr) {
      var s = tr.getAttribute("data-seat"), note = tr.querySelector(".robot-from");
      tr.classList.toggle("robot", !!marks[s]);
      if (note) { note.textContent = marks[s] || ""; note.hidden = !marks[s]; }
    });
    var list = $("taken-over");
    if (!list) { return; }
    list.textContent = "";
    told.forEach(function (t) {
      if (t.seat !== view.seat) { list.appendChild(el("li", "", t.text)); }
    });
    list.hidden = !list.children.length;
  }

  // At an online table: once the robot took this seat over (the entrant left, or let a move's
  // time run out) it says from which move, and the seat has nothing left to leave.
  function drawLeft() {
    var note = $("left-note"), leave = $("leave");
    var left = view.left !== undefined && view.left !== null;
    if (note) {
      note.hidden = !left;
      note.textContent = left ? fmt(T.left, { n: view.left + 1 }) : "";
    }
    if (leave) { leave.hidden = left || view.phase === "done"; }
  }

  function drawHand() {
    var box = $("hand");
    box.textContent = "";
    var h = view.hand;
    // Once the board is over the leftover hand goes, unless this seat answers a claim on it.
    $("hand-box").hidden = !h || (over() && !claimOpen());
    $("pick-row").hidden = over();
    if (!h) { return; }
    $("hand-title").textContent = view.seat ? T.yourHand : fmt(T.handOf, { seat: h.seat });
    var mine = !!view.menu;
    handLeft().forEach(function (c, i) {
      var b = el("button", "card" + (RED[c.suit] || c.rank === "R" ? " red" : ""));
      b.type = "button";
      b.setAttribute("data-rank", c.rank);
      b.innerHTML = "";
      b.appendChild(el("span", "rank", rankName(c.rank)));
      if (c.suit) { b.appendChild(el("span", "suit", SUITS[c.suit] || "")); }
      b.disabled = !mine;
      b.setAttribute("aria-pressed", picked.indexOf(i) >= 0 ? "true" : "false");
      b.addEventListener("click", function () {
        var at = picked.indexOf(i);
        if (at >= 0) { picked.splice(at, 1); } else { picked.push(i); }
        drawHand();
      });
      box.appendChild(b);
    });
    $("play-picked").disabled = !mine || !picked.length;
    $("clear-picked").hidden = !picked.length;
  }

  function choiceButton(choice) {
    var label = choice.kind === "call" ? choice.label
      : choice.kind === "pass" ? T.pass : cardsText(choice.cards || choice.step);
    var b = el("button", "move" + (choice.kind === "pass" ? " pass" : ""), label);
    b.type = "button";
    b.setAttribute("data-step", choice.step);
    b.addEventListener("click", function () { send(choice.step); });
    return b;
  }

  function drawMenu() {
    var primary = $("primary"), groups = $("groups");
    primary.textContent = "";
    groups.textContent = "";
    var m = over() ? null : view.menu;
    $("actions").hidden = !m;
    if (!m) { return; }
    m.primary.forEach(function (c) { primary.appendChild(choiceButton(c)); });
    (m.groups || []).forEach(function (g) {
      var d = el("details", "group");
      var s = el("summary", "", (g.label || g.kind) + " (" + g.choices.length + ")");
      d.appendChild(s);
      var row = el("div", "moves");
      g.choices.forEach(function (c) { row.appendChild(choiceButton(c)); });
      d.appendChild(row);
      groups.appendChild(d);
    });
  }

  function drawLog() {
    var ol = $("steps");
    ol.textContent = "";
    (view.calls || []).forEach(function (c) { ol.appendChild(el("li", "", c[0] + ": " + callText(c[1]))); });
    (view.plays || []).forEach(function (p) { ol.appendChild(el("li", "", p[0] + ": " + cardsText(p[1]))); });
  }

  function drawResult() {
    var r = view.result, box = $("result");
    box.hidden = !r && !view.game;
    if (box.hidden) { return; }
    // Who won and the verdict, said once, in the reader's language (made by the server).
    $("result-line").textContent = view.result_line || "";
    var body = document.querySelector("#result-score tbody");
    body.textContent = "";
    if (r && r.score) {
      Object.keys(r.score).forEach(function (s) {
        var tr = el("tr");
        tr.appendChild(el("th", "", s));
        tr.appendChild(el("td", "num", String(r.score[s])));
        body.appendChild(tr);
      });
    }
    drawClaim();
    var next = $("next");
    next.hidden = !view.next;
    if (view.next) { next.href = api.board.replace("{n}", view.next); }
  }

  // A claim not decided: the other seats accept or dispute it.
  function claimOpen() {
    var c = view.claim;
    return !!(c && c.open && claimPending());
  }
  // Not decided yet: the live search ran out of time, or the workers could not prove it
  // either and flagged the game for the referee, who reads the seats' answers.
  function claimPending() {
    var r = view.result;
    return !!(r && (r.undecided || r.status === "flagged"));
  }
  // Every seat sees the claim and each other seat's answer, the claimant too; only the
  // other seats have the buttons.
  function drawClaim() {
    var c = view.claim, box = $("claim");
    box.hidden = !(c && claimPending());
    if (box.hidden) { return; }
    var line = c.open ? fmt(T.claimBy, { seat: c.by }) + (
      c.answer === "accept" ? " " + T.accepted : c.answer === "dispute" ? " " + T.disputed : "")
      : c.by === view.seat ? T.claimYours : fmt(T.claimBy, { seat: c.by });
    var answers = Object.keys(c.answers || {}).sort().map(function (seat) {
      var a = c.answers[seat];
      return fmt(T.claimAnswer, { seat: seat, answer: a === "accept" ? T.answerAccepted
        : a === "dispute" ? T.answerDisputed : T.answerWaiting });
    });
    $("claim-line").textContent = line + (answers.length ? " (" + answers.join(" · ") + ")" : "");
    $("claim-accept").textContent = T.accept;
    $("claim-dispute").textContent = T.dispute;
    $("claim-accept").hidden = $("claim-dispute").hidden = !c.open;
  }
  function answerClaim(answer) {
    if (inFlight) { showError(T.busy); return; }
    inFlight = true;
    post(api.claim, { answer: answer }).then(function (reply) {
      var d = reply.data;
      if (reply.status !== 200) { showError((d.error && d.error.message) || ""); }
      if (d.view) { accept(d.view, true); }
    }).catch(function () { showError(T.offline.replace("%(n)s", "0")); })
      .then(function () { inFlight = false; });
  }
  $("claim-accept").addEventListener("click", function () { answerClaim("accept"); });
  $("claim-dispute").addEventListener("click", function () { answerClaim("dispute"); });

  // The status line said an undo was asked: it says so only while one is (the table's
  // take-back, or the next step, clears it on every device).
  var undoShown = false;
  function drawUndo() {
    var b = $("undo");
    var u = view.undo;
    b.hidden = view.phase === "done" || !view.at;
    b.textContent = u && u.by !== view.seat ? T.agree : b.getAttribute("data-label") || b.textContent;
    if (u && u.by !== view.seat) { status(fmt(T.undoAsked, { seat: u.by })); undoShown = true; }
    else if (u) { status(T.undoWaiting); undoShown = true; }
    else if (undoShown) { undoShown = false; status(socket && socket.readyState === 1 ? T.live : T.polling); }
  }

  // --- The move's clock (online play) -----------------------------------------------------
  // The server sends the seconds left for the seat to move (seconds, not a time: this
  // device's clock need not agree with the server's) and the countdown runs here. Once it ran
  // out, and a little more so that the server finds the move overdue, this device asks for the
  // position once: reading it has the robot play the move, and every device of the table hears
  // it. It asks again only for a new position, or for the later deadline the server may answer
  // with (a countdown that ran ahead of the server's); an answer of 0 seconds for the same
  // position (the server had nothing to play) is not asked again.
  var GRACE = 1200, clock = { end: null, at: null, asked: false, shown: "" };
  function clockNow() { return window.performance ? window.performance.now() : Date.now(); }
  function armClock() {
    var s = view.move_seconds_left;
    if (typeof s !== "number" || over() || !view.to_move) { clock.end = null; drawClock(); return; }
    if (view.at !== clock.at || s > 0) { clock.asked = false; }
    clock.at = view.at;
    clock.end = clockNow() + s * 1000;
    drawClock();
  }
  function drawClock() {
    var box = $("clock"), toMove = view.to_move;
    if (!box) { return; }
    var text = "";
    if (clock.end !== null) {
      var n = Math.max(0, Math.ceil((clock.end - clockNow()) / 1000));
      text = toMove === view.seat ? fmt(T.clockYou, { n: n }) : fmt(T.clockOf, { seat: toMove, n: n });
      box.classList.toggle("mine", toMove === view.seat);
    }
    if (text !== clock.shown) { box.textContent = text; clock.shown = text; }
    box.hidden = !text;
  }
  function tickClock() {
    if (clock.end === null) { return; }
    drawClock();
    if (clock.asked || clockNow() < clock.end + GRACE) { return; }
    clock.asked = true;
    if (socket && socket.readyState === 1) { socket.send(JSON.stringify({ type: "position" })); }
    else { refresh(); }
  }

  // --- Talking to the server ---------------------------------------------------------------
  function accept(next, now) {
    // A newer position replaces the older; an older one (a late socket message) is ignored
    // unless the board was recorded meanwhile, or it is the table now (`now`): a step taken
    // back, or the position a refusal or an undo answers with.
    if (!next) { return; }
    if (!now && next.at < view.at && !next.game && !(next.at === 0 && view.phase === "done")) { return; }
    var changed = next.at !== view.at || JSON.stringify(next.undo) !== JSON.stringify(view.undo) || !!next.game !== !!view.game;
    view = next;
    if (changed) { picked = []; }
    draw();
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json().then(function (data) { return { status: r.status, data: data }; }); });
  }

  function queued() { try { return JSON.parse(localStorage.getItem(queueKey) || "[]"); } catch (e) { return []; } }
  function keep(list) { try { localStorage.setItem(queueKey, JSON.stringify(list)); } catch (e) { /* private mode */ } }

  // The answer to a step, over the socket or HTTP: the view it leaves, or why not.
  function answered(d, conflict) {
    if (conflict) { showError((d.error && d.error.message) || T.moved); accept(d.view, true); }
    else if (d.ok === false) { showError(d.error && d.error.message); accept(d.view, true); }
    else if (d.view) { accept(d.view); }
    else { showError((d.error && d.error.message) || ""); }
  }
  function settled() {
    inFlight = false;
    document.body.classList.remove("sending");
    // A tap made while this one was checked was told to wait: it is answered now.
    if ($("error").textContent === T.busy) { showError(""); }
    if (!queued().length) { status(socket && socket.readyState === 1 ? T.live : T.polling); }
  }

  // Over the open socket: the same judgement as over HTTP, without a request of its own.
  var stepId = 0, waitingFor = null;
  function sendOverSocket(step, at) {
    stepId += 1;
    var id = stepId;
    waitingFor = { id: id, timer: setTimeout(function () {
      // No answer: the socket is stuck; ask the table as it is and let the seat tap again.
      if (waitingFor && waitingFor.id === id) { waitingFor = null; settled(); refresh(); }
    }, 8000) };
    socket.send(JSON.stringify({ type: "step", id: id, step: step, at: at }));
  }
  function stepAnswered(msg) {
    if (!waitingFor || msg.id !== waitingFor.id) { return; }
    clearTimeout(waitingFor.timer);
    waitingFor = null;
    answered(msg, !!msg.conflict);
    settled();
  }

  function send(step) {
    if (inFlight) { showError(T.busy); return; }
    showError("");
    inFlight = true;
    document.body.classList.add("sending");
    status(T.sending);
    var at = view.at;
    if (socket && socket.readyState === 1 && !queued().length) { sendOverSocket(step, at); return; }
    post(api.steps, { step: step, at: at }).then(function (answer) {
      answered(answer.data, answer.status === 409);
    }).catch(function () {
      // The network is down: keep the step and send it when it is back.
      var list = queued();
      list.push({ step: step, at: at });
      keep(list);
      status(fmt(T.offline, { n: list.length }));
    }).then(settled);
  }

  function flush() {
    var list = queued();
    if (!list.length || inFlight) { return; }
    var first = list[0];
    inFlight = true;
    post(api.steps, first).then(function (answer) {
      keep(list.slice(1));
      var d = answer.data;
      if (answer.status === 409 || d.ok === false) {
        // Checked again on sync: what the table moved past (or the engine refuses) is dropped
        // with its reason shown, and the rest of the queue is dropped with it.
        keep([]);
        showError((d.error && d.error.message) || T.moved);
        accept(d.view, true);
      } else { accept(d.view); }
    }).catch(function () { /* still offline */ }).then(function () {
      inFlight = false;
      if (queued().length) { status(fmt(T.offline, { n: queued().length })); setTimeout(flush, 2000); }
    });
  }

  function refresh() {
    return fetch(api.position, { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (d) { if (d.view) { accept(d.view); } })
      .catch(function () { /* offline: try later */ });
  }

  function poll() {
    if (pollTimer) { return; }
    status(T.polling);
    pollTimer = setInterval(refresh, 2000);
  }

  function connect() {
    if (!window.WebSocket) { poll(); return; }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try { socket = new WebSocket(scheme + location.host + api.socket); } catch (e) { poll(); return; }
    socket.onopen = function () {
      retry = 500;
      if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
      status(T.live);
      flush();
    };
    socket.onmessage = function (event) {
      var msg = JSON.parse(event.data);
      if (msg.type === "position") { accept(msg.view, !!msg.taken_back); }
      else if (msg.type === "step") { stepAnswered(msg); }
      else if (msg.type === "refused") { showError(T.refused + " " + msg.error.message); socket.onclose = null; }
    };
    socket.onclose = function () {
      socket = null;
      if (waitingFor) { clearTimeout(waitingFor.timer); waitingFor = null; settled(); refresh(); }
      poll();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 15000);
    };
  }

  $("undo").setAttribute("data-label", $("undo").textContent);
  $("undo").addEventListener("click", function () {
    if (inFlight) { showError(T.busy); return; }
    inFlight = true;
    post(api.undo, { at: view.at }).then(function (answer) {
      var d = answer.data;
      if (answer.status !== 200) { showError((d.error && d.error.message) || ""); }
      accept(d.view, true);
    }).catch(function () { showError(T.offline.replace("%(n)s", "0")); })
      .then(function () {
        inFlight = false;
        if ($("error").textContent === T.busy) { showError(""); }
      });
  });
  // The menu's choices holding exactly these cards: more than one when the play reads in
  // several types (R-AMBIG), and the seat says which.
  function readingsOf(cards) {
    var m = view.menu, out = [];
    if (!m) { return out; }
    var all = m.primary.slice();
    (m.groups || []).forEach(function (g) { all = all.concat(g.choices); });
    all.forEach(function (c) {
      if (c.cards === cards && out.every(function (o) { return o.step !== c.step; })) { out.push(c); }
    });
    return out;
  }
  function askReading(choices) {
    var box = $("primary");
    box.textContent = "";
    box.appendChild(el("p", "ask", T.reading));
    choices.forEach(function (c) {
      var label = c.label + ": " + cardsText(c.cards);
      var b = el("button", "move", label);
      b.type = "button";
      b.setAttribute("data-step", c.step);
      b.addEventListener("click", function () { send(c.step); });
      box.appendChild(b);
    });
  }
  $("play-picked").addEventListener("click", function () {
    var cards = handLeft();
    var ranks = picked.map(function (i) { return cards[i].rank; });
    ranks.sort(function (a, b) { return ORDER.indexOf(a) - ORDER.indexOf(b); });
    var text = ranks.join("");
    if (!text) { return; }
    var readings = readingsOf(text);
    if (readings.length > 1) { askReading(readings); return; }
    send(readings.length ? readings[0].step : text);
  });
  $("clear-picked").addEventListener("click", function () { picked = []; drawHand(); });
  if ($("leave")) {
    $("leave").addEventListener("submit", function (event) {
      if (!window.confirm(T.leaveConfirm)) { event.preventDefault(); }
    });
  }
  window.addEventListener("online", flush);
  setInterval(tickClock, 250);
  draw();
  connect();
  flush();
})();
