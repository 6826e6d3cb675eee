/* The page of an online table still waiting for entrants (tournaments.online.tables).
 *
 * It shows who has joined and counts down the seconds before robots take the free seats. The
 * table's socket tells it of each arrival ({"type": "waiting"}) and of the start ({"type":
 * "position"}: the page reloads into the seat's device, as it does when the seat is no longer
 * his); without a socket it polls the position door. Once the countdown ends it asks for the position, which has the server fill
 * the table (nothing runs at the deadline by itself).
 */
(function () {
  "use strict";
  var state = JSON.parse(document.getElementById("waiting-state").textContent);
  var api = JSON.parse(document.getElementById("waiting-api").textContent);
  var T = JSON.parse(document.getElementById("waiting-texts").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var deadline = Date.now() + state.seconds * 1000;
  var socket = null, pollTimer = null, retry = 500, askedAt = 0, done = false;

  function fmt(text, params) {
    return text.replace(/%\((\w+)\)s/g, function (_m, k) { return params[k] === undefined ? "" : params[k]; });
  }
  function status(text) { $("live").textContent = text; }

  function draw() {
    state.seats.forEach(function (s) {
      var cell = document.querySelector('#waiting-seats tr[data-seat="' + s.seat + '"] td');
      if (!cell) { return; }
      cell.textContent = s.name || T.free;
      cell.classList.toggle("muted", !s.name);
    });
    tick();
  }

  function show(waiting) {
    state = waiting;
    deadline = Date.now() + waiting.seconds * 1000;
    draw();
  }

  function started() {
    if (done) { return; }
    done = true;
    location.reload();
  }

  function tick() {
    var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    $("waiting-left").textContent = left > 0 ? fmt(T.left, { n: left }) : T.filling;
    // The wait is over: asking for the position has the server fill the table (again every
    // two seconds until it answers with the board).
    if (left === 0 && Date.now() - askedAt > 2000) { askedAt = Date.now(); ask(); }
  }

  function answer(d) {
    if (d.view) { started(); } else if (d.waiting) { show(d.waiting); }
  }

  function refresh() {
    return fetch(api.position, { credentials: "same-origin" })
      .then(function (r) {
        // No longer seated here (he left from another page): the page says why.
        if (r.status === 403 || r.status === 404) { started(); return {}; }
        return r.json();
      })
      .then(answer)
      .catch(function () { /* offline: try later */ });
  }

  function ask() {
    if (socket && socket.readyState === 1) { socket.send(JSON.stringify({ type: "position" })); }
    else { refresh(); }
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
    };
    socket.onmessage = function (event) {
      var msg = JSON.parse(event.data);
      if (msg.type === "position" || msg.type === "refused") { started(); }
      else if (msg.type === "waiting") { show(msg.waiting); }
    };
    socket.onclose = function () {
      socket = null;
      if (done) { return; }
      poll();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 15000);
    };
  }

  draw();
  setInterval(tick, 1000);
  connect();
})();
