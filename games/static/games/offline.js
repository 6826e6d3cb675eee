// Offline-tolerant live entry (issue 12). Loaded before entry.js, which calls it at four hook
// points: attach (once), load (the position on opening), check (a step or an undo) and submit.
//
// Online, every step goes to the server's engine as before, and its answer (the position)
// is kept. When the network drops, steps are checked here against what the server sent
// (games.offline: the bidding tree, the legal turns of the seat to move, the readings open and,
// from the first lead, every combination of each hand with its readings), queued on the device (IndexedDB, one record per table and board,
// so that a reload while offline restores the game) and marked "not checked yet" where the
// hints cannot tell. When the network is back they are sent in order to the server, which
// checks each again (the engine stays the judge); a refusal is shown with the server's
// message; a submission made offline is sent once, with the idempotency key stored with the
// queue, so the game is stored exactly once however often it is retried.
// The service worker (/sw.js) keeps this page and its files so that it opens offline.
(function () {
  "use strict";
  var RANKS = "3456789TJQKA2BR";
  var CHAR_RANK = { X: 13, "☆": 13, D: 14, "★": 14 };
  RANKS.split("").forEach(function (c, i) { CHAR_RANK[c] = i; });
  var WORD_RANK = { "10": 7, "小王": 13, "小怪": 13, "大王": 14, "大怪": 14 };
  var SEPARATORS = " ,-\t";
  var TIMEOUT_MS = 8000; // a step the server has not answered by then is queued here
  var RETRY_MS = 4000; // how often the queue tries to get through

  // -- cards (games.engine.cards: R-NOTE) --------------------------------------------------

  function parseCards(text) {
    var counts = [], i = 0;
    for (var r = 0; r < RANKS.length; r++) { counts.push(0); }
    while (i < text.length) {
      var ch = text[i];
      var rank = /^[\x00-\x7f☆★]$/.test(ch) ? CHAR_RANK[ch.toUpperCase()] : undefined;
      if (rank !== undefined) { counts[rank] += 1; i += 1; continue; }
      rank = WORD_RANK[text.substr(i, 2)];
      if (rank !== undefined) { counts[rank] += 1; i += 2; continue; }
      if (SEPARATORS.indexOf(ch) >= 0) { i += 1; continue; }
      return { bad: ch, at: i + 1 };
    }
    return { counts: counts };
  }
  function format(counts) {
    return counts.map(function (n, r) { return new Array(n + 1).join(RANKS[r]); }).join("");
  }
  function total(counts) { return counts.reduce(function (a, b) { return a + b; }, 0); }
  function holds(hand, play) { return play.every(function (n, r) { return n <= hand[r]; }); }

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, k) { return values[k] === undefined ? "" : values[k]; });
  }

  // -- the position kept here: the server's last answer, then the queued steps on it ------

  // `inherited`: the combinations kept from an earlier answer ({table, hands}), used while
  // every hand is within the one they were computed from.
  function fromServer(pos, inherited) {
    var hints = pos.offline || {};
    var hands = {}, held = {};
    pos.seats.forEach(function (s) {
      hands[s] = parseCards(pos.hands[s] || "").counts;
      held[s] = hands[s].slice();
    });
    var passes = 0;
    if (pos.open) {
      for (var i = pos.plays.length - 1; i >= 0 && pos.plays[i][1] === "pass"; i--) { passes++; }
    }
    return {
      steps: pos.steps.slice(), phase: pos.phase, toMove: pos.to_move, seats: pos.seats,
      landlord: pos.landlord, bid: pos.bid, calls: pos.calls.slice(), plays: pos.plays.slice(),
      hands: hands, bottom: pos.bottom, open: pos.open, passes: passes, end: pos.end,
      winner: null, node: hints.bidding || null, legal: hints.legal || null,
      leads: hints.leads ? { table: hints.leads, hands: held } : inherited || null,
      readings: hints.open || null, server: pos
    };
  }

  function copy(m) {
    var hands = {};
    Object.keys(m.hands).forEach(function (s) { hands[s] = m.hands[s].slice(); });
    var c = {};
    Object.keys(m).forEach(function (k) { c[k] = m[k]; });
    c.steps = m.steps.slice(); c.calls = m.calls.slice(); c.plays = m.plays.slice();
    c.hands = hands; c.legal = null; c.server = null;
    return c;
  }

  // The checker: one step on a model (games.entry.apply_step, as far as the hints tell).
  // `cfg` is the page's config.offline (the referee's words, call labels, sentences).
  // step(model, typed) answers {model, checked} or {error}; view(model) the position as the
  // server's (games.entry.view) for entry.js's render.
  function Checker(cfg) {
    var words = cfg.words, msg = cfg.messages;

    function callWord(text) {
      var w = (words.calls[text] || text).toLowerCase();
      return words.calls[w] === "pass" ? "pass" : w;
    }
    function label(call) { return cfg.labels[call] || call; }

    function step(model, typed) {
      var text = typed.trim(), seat = model.toMove, m;
      var fail = function (message, rule) {
        return { error: { message: message, rule: rule || null, seat: seat, cards: text, index: model.steps.length } };
      };
      if (model.phase === "done") { return fail(msg.over, "R-END"); }
      if (model.phase === "bidding") {
        if (!model.node) { return fail(msg.needs_network); }
        var call = callWord(text), child = model.node.next[call];
        if (!child) {
          return fail(fill(msg.cannot_call, { seat: seat, cards: label(text), allowed: Object.keys(model.node.next).map(label).join(", ") }));
        }
        m = copy(model);
        m.steps.push(text);
        m.calls.push([seat, call]);
        return { model: afterCall(m, child), checked: true };
      }
      var word = (words.calls[text] || text).toLowerCase();
      if (!model.plays.length && model.node && model.node.optional && model.node.optional[word]) {
        m = copy(model);
        m.steps.push(text);
        m.calls.push([model.landlord, word]);
        return { model: afterCall(m, model.node.optional[word]), checked: true };
      }
      if (words.end[text]) {
        m = copy(model);
        m.steps.push(text);
        m.end = {};
        m.end[words.end[text]] = seat;
        m.phase = "done"; m.toMove = null; m.node = null;
        return { model: m, checked: true };
      }
      var at = text.indexOf("@");
      var cards = (at >= 0 ? text.slice(0, at) : text).trim();
      var declared = at >= 0 ? text.slice(at + 1).trim() : "";
      var n = model.seats.length, next = model.seats[(model.seats.indexOf(seat) + 1) % n];
      if (words.play_pass.indexOf(cards.toLowerCase()) >= 0) {
        if (!model.open) { return fail(fill(msg.must_lead, { seat: seat }), "R-LEAD"); }
        m = copy(model);
        m.steps.push(text); m.plays.push([seat, "pass"]); m.node = null;
        m.passes += 1;
        if (m.passes === n - 1) { m.toMove = m.open.seat; m.open = null; m.readings = null; m.passes = 0; } else { m.toMove = next; }
        return { model: m, checked: true };
      }
      var parsed = parseCards(cards);
      if (parsed.bad !== undefined) {
        return fail(fill(msg.notation, { cards: text, "char": parsed.bad, position: parsed.at }), "R-NOTE");
      }
      var play = parsed.counts, shown = format(play), hand = model.hands[seat];
      if (!total(play)) { return fail(fill(msg.not_combination, { cards: text })); }
      if (!holds(hand, play)) {
        return fail(fill(msg.not_held, { seat: seat, cards: shown, hand: format(hand) || "—" }), "R-VERIFY");
      }
      if (model.legal && model.legal.indexOf(shown) < 0) {
        return fail(fill(msg.not_legal, { seat: seat, cards: shown }));
      }
      // The readings of these cards (games.offline: leads), R-T…, R-KICK, R-AMBIG, R-CMP.
      var combos = usable(model, seat), readings = combos ? combos[shown] : null, open = null, sure = false;
      if (combos && !readings) { return fail(fill(msg.not_combination, { cards: shown })); }
      if (readings && declared) {
        readings = readings.filter(function (r) { return r[0] === declared; });
        if (!readings.length) { return fail(fill(msg.not_reading, { cards: shown }), "R-AMBIG"); }
      }
      if (readings && !model.open) {
        open = readings; sure = true;
      } else if (readings && model.readings) {
        open = beating(readings, model.readings);
        if (!open.length) {
          return fail(fill(msg.not_beat, { cards: shown, last: model.open.cards, owner: model.open.seat }), "R-CMP");
        }
        sure = true;
      } else {
        sure = !!model.legal && !declared; // in the legal turns the server sent
      }
      m = copy(model);
      m.steps.push(text); m.node = null;
      m.hands[seat] = hand.map(function (k, r) { return k - play[r]; });
      m.plays.push([seat, shown]);
      m.open = { seat: seat, cards: shown };
      m.readings = open; // null: not known here, the next turns of the trick are unchecked
      m.passes = 0;
      if (!total(m.hands[seat])) {
        m.phase = "done"; m.toMove = null; m.open = null;
        m.winner = n === 5 ? null : seat === m.landlord ? "landlord" : "farmers"; // R-END
      } else {
        m.toMove = next;
      }
      return { model: m, checked: sure };
    }

    function usable(model, seat) {
      var leads = model.leads;
      if (!leads || !leads.table[seat] || !holds(leads.hands[seat], model.hands[seat])) { return null; }
      return leads.table[seat];
    }

    // games.engine.combos.beating_readings: the readings of a play that beat an open one.
    function beating(play, open) {
      return play.filter(function (p) {
        if (p[0] === "rocket") { return open.some(function (o) { return o[0] !== "rocket"; }); }
        if (p[0] === "bomb") {
          return open.some(function (o) { return o[0] !== "rocket" && (o[0] !== "bomb" || o[3] < p[3]); });
        }
        return open.some(function (o) { return o[0] === p[0] && o[1] === p[1] && o[2] < p[2]; });
      });
    }

    function afterCall(m, child) {
      m.node = child;
      if (child.seat !== undefined) { m.toMove = child.seat; return m; }
      m.bid = child.bid;
      if (child.over) { m.phase = "done"; m.toMove = null; m.landlord = child.landlord; return m; }
      if (m.phase === "bidding") {
        // R-BOTTOM: the landlord takes the bottom cards and leads (R-LEAD).
        var bottom = parseCards(m.bottom).counts;
        m.landlord = child.landlord;
        m.hands[m.landlord] = m.hands[m.landlord].map(function (k, r) { return k + bottom[r]; });
        m.phase = "play"; m.toMove = m.landlord; m.open = null; m.passes = 0;
      }
      return m;
    }

    // The model as the server's position (games.entry.view) for entry.js's render.
    function view(m) {
      if (m.server) { return m.server; }
      var hands = {}, counts = {}, low = [], allowed = [];
      m.seats.forEach(function (s) {
        hands[s] = format(m.hands[s]);
        counts[s] = total(m.hands[s]);
        if (m.phase !== "bidding" && counts[s] > 0 && counts[s] <= 2) { low.push(s); }
      });
      if (m.phase === "bidding" && m.node) { allowed = Object.keys(m.node.next); }
      if (m.phase === "play" && !m.plays.length && m.node && m.node.optional) { allowed = Object.keys(m.node.optional); }
      return {
        steps: m.steps, phase: m.phase, to_move: m.toMove, seats: m.seats, landlord: m.landlord,
        bid: m.bid, calls: m.calls, plays: m.plays,
        allowed: allowed.map(function (c) { return { call: c, label: label(c) }; }),
        hands: hands, counts: counts, low: low, bottom: m.bottom, open: m.open, end: m.end,
        result: m.phase === "done" ? { status: msg.waiting_check, winner: m.winner, landlord: m.landlord, score: {} } : null,
        offline: null, local: true
      };
    }
    return { fromServer: fromServer, step: step, view: view };
  }

  function Offline(config, hooks) {
    var cfg = config.offline, msg = cfg.messages;
    var id = config.api.entry;
    var rec = null; // {id, base, queue, key, submit, replace, replaces, resync}
    var chain = []; // models: chain[0] from rec.base, chain[i + 1] after rec.queue[i]
    var checked = []; // per queued step: true when the hints could check it
    var history = []; // the server's positions this visit, to undo past the queue offline
    var syncing = false, submitting = false, blocked = false, notice = "";
    var box = document.createElement("p");
    box.id = "offline-status";
    box.setAttribute("role", "status");
    box.hidden = true;
    var anchor = document.getElementById("entry-error");
    if (anchor) { anchor.parentNode.insertBefore(box, anchor); } else { document.querySelector("main").appendChild(box); }

    // -- IndexedDB: one record per entry door (table and board) -----------------------------
    var dbPromise = null;
    function db() {
      if (!dbPromise) {
        dbPromise = new Promise(function (ok, ko) {
          var req = window.indexedDB.open("ddz-entry", 1);
          req.onupgradeneeded = function () { req.result.createObjectStore("games", { keyPath: "id" }); };
          req.onsuccess = function () { ok(req.result); };
          req.onerror = function () { ko(req.error); };
        });
      }
      return dbPromise;
    }
    function store(mode, work) {
      return db().then(function (d) {
        return new Promise(function (ok, ko) {
          var t = d.transaction("games", mode), req = work(t.objectStore("games"));
          t.oncomplete = function () { ok(req.result); };
          t.onerror = t.onabort = function () { ko(t.error); };
        });
      });
    }
    function save() {
      if (!rec) { return Promise.resolve(); }
      var copyOf = JSON.parse(JSON.stringify(rec));
      return store("readwrite", function (s) { return s.put(copyOf); }).catch(function () {});
    }
    function drop() { return store("readwrite", function (s) { return s["delete"](id); }).catch(function () {}); }

    function fresh(pos) {
      return { id: id, base: pos, queue: [], key: config.key, submit: false, replace: false, replaces: null, resync: false, leads: null };
    }
    function pending() { return rec && (rec.queue.length > 0 || rec.submit || rec.resync); }

    function remember(pos) {
      history = history.filter(function (p) { return p.steps.length < pos.steps.length; });
      history.push(pos);
      rec.base = pos;
      chain = [fromServer(pos, rec.leads)];
      rec.leads = chain[0].leads;
      checked = [];
      save();
    }

    function rebuild() {
      chain = [fromServer(rec.base, rec.leads)];
      checked = [];
      var kept = [];
      for (var i = 0; i < rec.queue.length; i++) {
        var r = step(chain[chain.length - 1], rec.queue[i]);
        if (r.error) { break; }
        kept.push(rec.queue[i]); chain.push(r.model); checked.push(r.checked);
      }
      rec.queue = kept;
    }

    var checker = Checker(cfg), step = checker.step, view = checker.view;
    function current() { return chain[chain.length - 1]; }

    // -- what the page shows ------------------------------------------------------------------

    function status() {
      var lines = [];
      if (rec && rec.queue.length) {
        var n = rec.queue.length;
        lines.push(fill(msg.waiting[n === 1 ? 0 : 1], { n: n }));
      }
      if (rec && rec.submit) { lines.push(msg.submit_waiting); }
      if (!lines.length && notice) { lines.push(notice); }
      box.textContent = lines.join(" · ");
      box.hidden = !lines.length;
      box.classList.toggle("waiting", !!(rec && (rec.queue.length || rec.submit)));
    }

    // Marks the queued steps in the page's lists: "queued", and "unverified" where the
    // hints could not check them.
    function rendered() {
      if (!rec) { return; }
      var calls = [], plays = [];
      for (var i = 0; i < rec.queue.length && i + 1 < chain.length; i++) {
        var mark = { sure: checked[i] };
        if (chain[i + 1].calls.length > chain[i].calls.length) { calls.push(mark); } else if (chain[i + 1].plays.length > chain[i].plays.length) { plays.push(mark); }
      }
      [["calls", calls], ["plays", plays]].forEach(function (pair) {
        var items = document.querySelectorAll("#" + pair[0] + " li"), marks = pair[1];
        for (var k = 0; k < items.length; k++) {
          var j = k - (items.length - marks.length);
          var queued = j >= 0, unsure = queued && !marks[j].sure;
          items[k].classList.toggle("queued", queued);
          items[k].classList.toggle("unverified", unsure);
          if (unsure) { items[k].title = msg.unverified; } else { items[k].removeAttribute("title"); }
        }
      });
      status();
    }

    // -- the doors --------------------------------------------------------------------------

    function withTimeout(promise) {
      return new Promise(function (ok, ko) {
        var timer = setTimeout(function () { ko(new Error("timeout")); }, TIMEOUT_MS);
        promise.then(function (v) { clearTimeout(timer); ok(v); }, function (e) { clearTimeout(timer); ko(e); });
      });
    }

    function local(body) {
      notice = msg.offline;
      var now = current();
      if (typeof body.step === "string") {
        var r = step(now, body.step);
        if (r.error) { return { status: 200, data: { ok: false, position: view(now), error: r.error } }; }
        rec.queue.push(body.step.trim());
        chain.push(r.model);
        checked.push(r.checked);
        save();
        return { status: 200, data: { ok: true, position: view(r.model) } };
      }
      var k = body.steps.length, b = rec.base.steps.length;
      if (k >= b) {
        rec.queue = rec.queue.slice(0, k - b);
        chain = chain.slice(0, k - b + 1);
        checked = checked.slice(0, k - b);
      } else {
        var before = history.filter(function (p) { return p.steps.length === k; })[0];
        if (!before) { return { status: 200, data: { ok: false, position: view(now), error: { message: msg.undo_needs_network } } }; }
        rec.base = before; rec.queue = []; rec.resync = true;
        rebuild();
      }
      save();
      return { status: 200, data: { ok: true, position: view(current()) } };
    }

    function check(body) {
      if (!rec) { return hooks.post(config.api.entry, body); } // nothing to go on from
      if (pending() || navigator.onLine === false) { return Promise.resolve(local(body)); }
      return withTimeout(hooks.post(config.api.entry, body)).then(function (res) {
        if (res.status === 200 && res.data.position) { remember(res.data.position); }
        return res;
      }, function () { return local(body); });
    }

    function load() {
      return store("readonly", function (s) { return s.get(id); }).catch(function () { return null; }).then(function (saved) {
        if (saved && saved.base && (saved.queue.length || saved.submit || saved.resync)) {
          rec = saved;
          rebuild();
          history = [rec.base];
          notice = msg.offline;
          setTimeout(sync, 0);
          return view(current());
        }
        return hooks.position().then(function (pos) { rec = fresh(pos); remember(pos); return pos; }, function (err) {
            if (!saved || !saved.base) { throw err; }
            rec = saved; rebuild(); history = [rec.base]; notice = msg.offline;
            return view(current());
          });
      });
    }

    function finish(res) {
      rec = fresh(rec.base);
      // Dropped before leaving: a record left behind would submit the game again.
      drop().then(function () { window.location.href = config.review.replace(/0\/$/, res.data.id + "/"); });
    }

    // The submission's body: a replacement names the version it replaces (entry.js).
    function sent(steps) {
      var body = { steps: steps, replace: !!rec.replace };
      if (rec.replace && rec.replaces) { body.replaces = rec.replaces; }
      return body;
    }

    function submit(body) {
      rec.replace = body.replace;
      rec.replaces = body.replaces === undefined ? null : body.replaces;
      if (!rec.key) { rec.key = config.key; }
      if (pending()) {
        rec.submit = true;
        save().then(sync);
        status();
        return Promise.resolve({ queued: true });
      }
      rec.submit = true; // until the server answers: a reload or a lost answer sends it again
      submitting = true;
      return save().then(function () {
        return hooks.post(config.api.games, sent(body.steps), { "Idempotency-Key": rec.key });
      }).then(function (res) {
        submitting = false;
        if (res.status === 200 || res.status === 201) { return drop().then(function () { return res; }); }
        rec.submit = false; save();
        return res;
      }, function () {
        submitting = false;
        notice = msg.offline;
        status();
        return { queued: true };
      });
    }

    // -- back online: the queue, in order, then the submission, once -----------------------

    function refused(res) {
      var err = res.data.error || {}, n = rec.base.steps.length + 1, typed = rec.queue[0];
      var rest = rec.queue.slice(1).join("  ") || "—";
      rec.queue = []; rec.submit = false; notice = "";
      remember(res.data.position);
      hooks.render(res.data.position);
      hooks.showError({ rule: err.rule, detail: err.detail, message: fill(msg.refused, { n: n, step: typed, message: err.message || "", rest: rest }) });
      var input = document.getElementById("step");
      if (input) { input.value = typed; }
      var button = document.getElementById("submit");
      if (button) { button.disabled = false; }
    }

    function sync() {
      if (syncing || submitting || blocked || !pending()) { return; }
      syncing = true;
      notice = msg.sending;
      var stop = function () { syncing = false; status(); };
      (function next() {
        if (rec.queue.length || rec.resync) {
          var body = { steps: rec.base.steps };
          if (rec.queue.length) { body.step = rec.queue[0]; }
          hooks.post(config.api.entry, body).then(function (res) {
            if (res.status !== 200) {
              blocked = true; stop();
              hooks.showError(res.data.error || { message: config.messages.network });
              return;
            }
            if (!res.data.ok) { refused(res); stop(); return; }
            var queue = rec.queue.slice(1), marks = checked.slice(1), models = chain.slice(2);
            var sent = body.step !== undefined;
            if (!sent) { queue = rec.queue; marks = checked; models = chain.slice(1); }
            rec.resync = false; // the server's draft is these steps now
            history = history.filter(function (p) { return p.steps.length < res.data.position.steps.length; });
            history.push(res.data.position);
            rec.base = res.data.position;
            rec.queue = queue;
            chain = [fromServer(rec.base, rec.leads)].concat(models);
            rec.leads = chain[0].leads;
            checked = marks;
            save();
            rendered();
            next();
          }, stop);
          return;
        }
        notice = msg.sent;
        hooks.render(rec.base);
        if (!rec.submit) { save(); stop(); return; }
        hooks.post(config.api.games, sent(rec.base.steps), { "Idempotency-Key": rec.key })
          .then(function (res) {
            syncing = false;
            if (res.status === 200 || res.status === 201) { finish(res); return; }
            rec.submit = false; save(); status();
            hooks.showError(res.data.error || { message: config.messages.network });
            var button = document.getElementById("submit");
            if (button) { button.disabled = false; }
          }, stop);
      })();
    }

    window.addEventListener("online", sync);
    setInterval(function () { if (navigator.onLine !== false) { sync(); } }, RETRY_MS);

    // -- the web app: the service worker keeps this page and its files -----------------------
    if ("serviceWorker" in navigator && cfg.sw) {
      navigator.serviceWorker.addEventListener("message", function (e) {
        if (e.data && "kept" in e.data) { document.documentElement.dataset.offlineReady = e.data.kept ? "yes" : "no"; }
      });
      navigator.serviceWorker.startMessages();
      var here = window.location.href.split("#")[0];
      navigator.serviceWorker.register(cfg.sw, { scope: "/" }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (reg) {
        // Opened through the worker: it kept the page and its files already.
        var kept = navigator.serviceWorker.controller ? caches.match(here, { ignoreVary: true }) : Promise.resolve(null);
        return kept.then(function (copy) {
          if (copy) { document.documentElement.dataset.offlineReady = "yes"; return; }
          var urls = [here];
          document.querySelectorAll("script[src], link[rel=stylesheet][href]").forEach(function (el) { urls.push(el.src || el.href); });
          reg.active.postMessage({ keep: urls });
        });
      })["catch"](function () {});
    }

    return { load: load, check: check, submit: submit, rendered: rendered };
  }

  window.DDZOffline = {
    Checker: Checker, // for the tests (tests/test_browser_offline.py)
    attach: function (config, hooks) {
      if (!config.offline || !window.indexedDB || !window.Promise) { return null; }
      return Offline(config, hooks);
    }
  };
})();
