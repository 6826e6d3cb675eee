// The round clock (tournaments.clock): counts the time left from the server's timestamps,
// never from when the page was loaded, so a reload or a second screen shows the same time.
// The page's .round-clock carries the clock's JSON (ClockView.to_json) in data-clock; every
// data-poll seconds it asks data-url again (a pause, extra time, a new round). Plain JavaScript.
(function () {
  "use strict";
  var root = document.querySelector(".round-clock");
  if (!root) { return; }
  var labels = JSON.parse(root.dataset.labels);
  var clock = null;
  var offset = 0; // the server's clock minus the browser's, in ms

  function take(data) {
    clock = data;
    offset = data.now - Date.now();
  }

  function elapsed(now) {
    if (clock.started_at === null) { return 0; }
    var end = clock.paused_at !== null ? clock.paused_at : now;
    return Math.max(0, end - clock.started_at - clock.paused_ms);
  }

  function left(now, table) {
    var extra = table ? (clock.tables[table] || 0) : 0;
    return (clock.minutes + extra) * 60000 - elapsed(now);
  }

  function two(n) { return n < 10 ? "0" + n : String(n); }

  // 29:59, 1:05:00; "−2:15" once over the time.
  function text(ms) {
    var over = ms < 0;
    // Whole seconds left, rounded up while counting down: 29:59.2 shows 30:00 … 0:00.
    var s = over ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var body = h ? h + ":" + two(m) + ":" + two(sec) : m + ":" + two(sec);
    return (over ? "\u2212" : "") + body;
  }

  function stateLabel(now) {
    if (clock.state === "stopped") { return labels.stopped; }
    if (clock.state === "paused") { return labels.paused; }
    return left(now) <= 0 ? labels.over : labels.running;
  }

  function tablesList() {
    var list = root.querySelector(".clock-tables");
    if (!list) { return; }
    var wanted = Object.keys(clock.tables).filter(function (n) { return clock.tables[n] > 0; });
    var have = Array.prototype.map.call(list.children, function (li) { return li.dataset.table; });
    if (wanted.join(",") === have.join(",")) { return; }
    list.textContent = "";
    wanted.forEach(function (n) {
      var li = document.createElement("li");
      li.dataset.table = n;
      li.appendChild(document.createTextNode(labels.table.replace("%(n)s", n) + " "));
      var extra = document.createElement("span");
      extra.className = "clock-extra";
      li.appendChild(extra);
      li.appendChild(document.createTextNode(" "));
      var time = document.createElement("span");
      time.className = "clock-time";
      li.appendChild(time);
      list.appendChild(li);
    });
  }

  function show() {
    if (!clock) { return; }
    var now = Date.now() + offset;
    var main = root.querySelector(".clock-main .clock-time");
    var stopped = clock.state === "stopped";
    main.textContent = stopped ? "\u2013:\u2013\u2013" : text(left(now));
    main.classList.toggle("over", !stopped && left(now) < 0);
    root.querySelector(".clock-state").textContent = stateLabel(now);
    root.dataset.state = clock.state;
    tablesList();
    document.querySelectorAll("[data-table]").forEach(function (el) {
      var n = el.dataset.table, extra = clock.tables[n] || 0;
      var time = el.querySelector(".clock-time"), label = el.querySelector(".clock-extra");
      if (label) { label.textContent = extra ? labels.extra.replace("%(m)s", extra) : ""; }
      if (!time) { return; }
      time.textContent = extra && !stopped ? text(left(now, n)) : "";
      time.classList.toggle("over", Boolean(extra) && !stopped && left(now, n) < 0);
    });
  }

  function poll() {
    fetch(root.dataset.url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (data) {
        // The room moved on to another round: show its seating (the page is reloaded).
        if (root.dataset.follow && clock && data.round !== clock.round) {
          window.location.reload();
          return;
        }
        take(data);
        show();
      })
      .catch(function () { /* keep counting; the next poll tries again */ });
  }

  take(JSON.parse(root.dataset.clock));
  show();
  window.setInterval(show, 250);
  window.setInterval(poll, Number(root.dataset.poll || 5) * 1000);
})();
