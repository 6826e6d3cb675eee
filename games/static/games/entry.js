// Live entry of one game (templates/referee/live_entry.html). Plain JavaScript, no framework.
// The page holds only the list of steps; every step is checked by the server's engine
// (POST {steps, step} to the API's entry endpoint, games.entry), which answers the new
// position or the referee's message with its rule. Keyboard: type and Enter; Ctrl+Z in the
// empty box (or the Undo button) takes back the last step, in a box with text it undoes typing.
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("entry-config").textContent);
  var words = config.messages;
  var csrf = document.querySelector("#csrf [name=csrfmiddlewaretoken]").value;
  var steps = [];
  var position = null;
  var busy = false;
  var $ = function (id) { return document.getElementById(id); };
  var input = $("step");
  var stepLabel = $("step-label").textContent;
  // Offline entry (offline.js, when loaded): the steps go on without the network.
  var offline = window.DDZOffline ? window.DDZOffline.attach(config, { post: post, position: fetchPosition, render: render, showError: showError }) : null;

  function post(url, body, headers) {
    var h = { "Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json" };
    Object.keys(headers || {}).forEach(function (k) { h[k] = headers[k]; });
    return fetch(url, { method: "POST", credentials: "same-origin", headers: h, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (data) { return { status: r.status, data: data }; }); });
  }

  // The game's position as the server has it (GET of the entry API); refused unless 2xx.
  function fetchPosition() {
    return fetch(config.api.entry, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(String(r.status)); } return r.json(); });
  }

  // The version the submit button replaces, by name: none until a submission is refused for
  // a board the table has a game of (409, the version under error.current); the button then
  // reads "Replace version N" and sends the game again naming N, only when pressed.
  var replacing = null;

  function submission() {
    var body = { steps: steps, replace: replacing !== null };
    if (replacing !== null) { body.replaces = replacing; }
    return body;
  }

  function showError(err) {
    var box = $("entry-error");
    if (!err) { box.hidden = true; box.textContent = ""; return; }
    if (err.current && err.current.version) {
      replacing = err.current.version;
      $("submit").textContent = words.replace_version.replace("%(version)s", replacing);
      // The refusal names the version there is now: the one the page opened with may be older.
      if ($("version-seen")) { $("version-seen").hidden = true; }
    }
    box.textContent = "";
    var strong = document.createElement("strong");
    strong.textContent = err.rule ? err.rule + " " : "";
    box.appendChild(strong);
    box.appendChild(document.createTextNode(err.message));
    if (config.engine_words && err.detail && err.detail !== err.message) {
      var small = document.createElement("small");
      small.textContent = err.detail;
      box.appendChild(small);
    }
    box.hidden = false;
  }

  function button(text, cls, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) { b.className = cls; }
    b.addEventListener("click", onClick);
    return b;
  }

  function list(el, items) {
    el.textContent = "";
    items.forEach(function (item, i) {
      var li = document.createElement("li");
      li.textContent = item[0] + " " + (item[1] === "pass" ? words.pass : item[1]);
      if (i === items.length - 1) { li.className = "last"; }
      el.appendChild(li);
    });
  }

  // A hand rank by rank ("33344T" → "333 44 T"): a narrow column wraps it between ranks.
  function byRank(hand) {
    return (hand || "").replace(/(.)(?!\1)(?=.)/g, "$1 ");
  }

  // Whose turn it is and the play to beat, right above the input (the plays list grows below).
  function turnLine(pos) {
    var who = pos.to_move ? pos.to_move + (config.players[pos.to_move] ? " " + config.players[pos.to_move] : "") : "";
    $("to-move").textContent = who ? words.to_move_is.replace("%(seat)s", who) : words.done;
    var beat = $("to-beat");
    beat.hidden = !(pos.phase === "play" && pos.to_move);
    if (pos.open) {
      beat.textContent = words.to_beat.replace("%(cards)s", pos.open.cards).replace("%(seat)s", pos.open.seat);
    } else {
      beat.textContent = words.leads;
    }
    beat.classList.toggle("open", Boolean(pos.open));
  }

  function render(pos) {
    position = pos;
    steps = pos.steps.slice();
    var landlord = pos.landlord;
    document.querySelectorAll("#seats tbody tr").forEach(function (tr) {
      var seat = tr.dataset.seat;
      tr.querySelector(".hand").textContent = byRank(pos.hands[seat]) || "—";
      tr.querySelector(".count").textContent = pos.counts[seat];
      tr.classList.toggle("to-move", pos.to_move === seat);
      tr.classList.toggle("low", pos.low.indexOf(seat) >= 0);
      var role = seat === landlord ? words.landlord : "";
      if (pos.low.indexOf(seat) >= 0) { role += (role ? " · " : "") + words.low; }
      if (config.players[seat]) { role = config.players[seat] + (role ? " · " + role : ""); }
      tr.querySelector(".role").textContent = role;
    });
    $("bottom").textContent = pos.bottom;
    // The game over is said once, on the turn line; the box takes no step until Undo.
    var over = pos.phase === "done";
    $("phase-line").textContent = pos.phase === "bidding" ? words.bidding : pos.phase === "play" ? words.play : "";
    // The box asks for what the seat to move may give now: a call while bidding, cards in the play.
    var asked = pos.phase === "bidding" ? words.call_for : words.cards_for;
    $("step-label").textContent = pos.to_move ? asked.replace("%(seat)s", pos.to_move) : stepLabel;
    input.disabled = over;
    $("enter").disabled = over;
    turnLine(pos);
    list($("calls"), pos.calls);
    list($("plays"), pos.plays);
    var allowed = $("calls-allowed");
    allowed.textContent = "";
    pos.allowed.forEach(function (c) {
      allowed.appendChild(button(c.label, "call", function () { enter(c.call); }));
    });
    if (pos.phase === "play") {
      if (pos.open) { allowed.appendChild(button(words.pass, "call", function () { enter("p"); })); }
      allowed.appendChild(button(words.claim, "call", function () { enter("claim"); }));
      allowed.appendChild(button(words.concede, "call", function () { enter("concede"); }));
    }
    var taps = $("card-taps");
    taps.textContent = "";
    if (pos.phase === "play" && pos.to_move) {
      var hand = pos.hands[pos.to_move] || "";
      var seen = {};
      hand.split("").forEach(function (rank) {
        if (seen[rank]) { return; }
        seen[rank] = true;
        taps.appendChild(button(rank, "rank", function () { input.value += rank; input.focus(); }));
      });
    }
    var result = $("result");
    if (pos.phase === "done" && pos.result) {
      var r = pos.result;
      var line = words.engine + ": " + (r.status_label || r.status);
      if (r.winner) { line += " · " + words.winner + ": " + (r.winner === "landlord" ? words.landlord : words.farmers); }
      if (!r.landlord && r.status === "verified") { line = words.passed_out; }
      if (r.error) { line += " · " + (r.error.rule || "") + " " + (r.error.text || r.error.message); }
      $("result-line").textContent = line;
      var body = document.querySelector("#result-score tbody");
      body.textContent = "";
      Object.keys(r.score || {}).forEach(function (seat) {
        var tr = document.createElement("tr");
        var th = document.createElement("th"); th.textContent = seat;
        var td = document.createElement("td"); td.className = "num"; td.textContent = r.score[seat];
        tr.appendChild(th); tr.appendChild(td); body.appendChild(tr);
      });
      result.hidden = false;
    } else {
      result.hidden = true;
    }
    if (offline) { offline.rendered(pos); }
  }

  // Steps tapped while one is being checked wait here, in order, and are checked after it
  // on the position it leaves; if it is refused they are dropped with the refusal shown (they
  // were made on a position that did not happen). No tap is ever lost without a word.
  var waiting = [];

  function check(body, typed) {
    busy = true;
    (offline ? offline.check(body) : post(config.api.entry, body)).then(function (res) {
      busy = false;
      if (res.status !== 200) {
        waiting = [];
        showError(res.data.error || { message: words.network });
        return;
      }
      render(res.data.position);
      if (res.data.ok) {
        showError(null);
        input.value = "";
      } else {
        waiting = [];
        showError(res.data.error);
        input.value = typed || "";
        input.select();
      }
      if (position.phase === "done") { $("submit").focus(); } else { input.focus(); }
      if (waiting.length) { enter(waiting.shift()); }
    }).catch(function () { busy = false; waiting = []; showError({ message: words.network }); });
  }

  function enter(text) {
    text = (text || "").trim();
    if (!text) { return; }
    if (busy) { waiting.push(text); return; }
    check({ steps: steps, step: text }, text);
  }

  function undo() {
    if (busy) { showError({ message: words.busy }); return; }
    if (!steps.length) { showError({ message: words.nothing_to_undo }); return; }
    check({ steps: steps.slice(0, -1) }, "");
  }

  function submit() {
    if (!position || position.phase !== "done") { showError({ message: words.not_finished }); return; }
    $("submit").disabled = true;
    (offline ? offline.submit(submission())
      : post(config.api.games, submission(), { "Idempotency-Key": config.key }))
      .then(function (res) {
        if (res.queued) { return; } // sent by offline.js once the network is back
        if (res.status === 200 || res.status === 201) {
          $("entry-status").textContent = words.submitted;
          window.location.href = config.review.replace(/0\/$/, res.data.id + "/");
          return;
        }
        $("submit").disabled = false;
        showError(res.data.error || { message: words.network });
      })
      .catch(function () { $("submit").disabled = false; showError({ message: words.network }); });
  }

  $("step-form").addEventListener("submit", function (e) { e.preventDefault(); enter(input.value); });
  $("undo").addEventListener("click", undo);
  $("submit").addEventListener("click", submit);
  document.addEventListener("keydown", function (e) {
    if (!(e.ctrlKey || e.metaKey) || (e.key !== "z" && e.key !== "Z") || e.shiftKey) { return; }
    // Text in the box: Ctrl+Z is the browser's own undo of the typing, never a recorded step.
    if (input.value !== "") { return; }
    var t = e.target;
    if (t !== input && t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    e.preventDefault();
    undo();
  });
  (offline ? offline.load() : fetchPosition())
    .then(function (pos) { render(pos); input.focus(); })
    .catch(function () { showError({ message: words.network }); });
})();
