// The big screen (tournaments.web.screen): the room's part (#screen-room: boards in play, late
// tables, seating) is fetched again every data-refresh seconds and swapped in. With ?cycle=S
// (main[data-cycle]) the screen shows one page at a time for S seconds under a countdown
// (#cycle-timer): each .cycle-panel in turn, a long one a screenful at a time (a row cut at the
// bottom starts the next screenful), then the page is loaded again, so that new results and a
// new round come in. Plain JavaScript.
(function () {
  "use strict";
  var main = document.querySelector("main");
  var room = document.getElementById("screen-room");
  var cycling = main && main.dataset.cycle;

  if (room && !cycling && window.fetch) {
    window.setInterval(function () {
      fetch(room.dataset.url, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) { room.innerHTML = html; })
        .catch(function () { /* keep the last one; the next tick tries again */ });
    }, Number(room.dataset.refresh || 15) * 1000);
  }
  if (!cycling) { return; }

  var seconds = Math.max(1, Number(main.dataset.cycle));
  var labels = JSON.parse(document.getElementById("cycle-labels").textContent);
  var timer = document.getElementById("cycle-timer");
  var pageText = timer.querySelector(".cycle-page");
  var leftText = timer.querySelector(".cycle-left");
  var bar = timer.querySelector(".cycle-bar span");
  var panels = Array.prototype.slice.call(main.querySelectorAll(".cycle-panel"));
  var panel = 0, page = 0, starts = [0], shownAt = 0, leaving = false;

  function box(section) { return section.querySelector(".autoscroll") || section; }

  // Where each screenful of `el` starts (its scrollTop): the first row that would be cut at
  // the bottom starts the next one, just under the table's sticky head (the box ends in a
  // blank a screen high, so that the last one starts there too).
  function screenfuls(el) {
    var out = [0], height = el.clientHeight;
    var origin = el.getBoundingClientRect().top - el.scrollTop, top = 0;
    el.querySelectorAll("tbody tr, li").forEach(function (row) {
      var head = row.closest("table") ? row.closest("table").querySelector("thead") : null;
      var headHeight = head ? head.offsetHeight : 0;
      var r = row.getBoundingClientRect(), y = r.top - origin;
      if (y + r.height > top + height && y - headHeight > top) {
        top = y - headHeight;
        out.push(top);
      }
    });
    return out;
  }

  function show() {
    panels.forEach(function (section, i) { section.hidden = i !== panel; });
    var el = box(panels[panel]);
    if (page === 0) { starts = screenfuls(el); }
    el.scrollTop = starts[page] || 0;
    pageText.textContent = (page + 1) + " / " + starts.length;
    shownAt = Date.now();
  }

  // After the last page: load the page again if the site answers (its small clock door),
  // else go round once more with what the screen has.
  function again() {
    var clock = document.querySelector(".round-clock");
    leaving = true;
    fetch(clock ? clock.dataset.url : window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (!r.ok) { return Promise.reject(r.status); }
        window.location.reload();
      })
      .catch(function () {
        leaving = false;
        panel = 0;
        page = 0;
        show();
      });
  }

  function next() {
    if (page + 1 < starts.length) {
      page += 1;
    } else if (panel + 1 < panels.length) {
      panel += 1;
      page = 0;
    } else {
      again();
      return;
    }
    show();
  }

  function tick() {
    if (leaving) { return; }
    var rest = Math.max(0, seconds * 1000 - (Date.now() - shownAt));
    leftText.textContent = labels.next.replace("%(s)s", String(Math.ceil(rest / 1000)));
    bar.style.width = (100 * rest / (seconds * 1000)) + "%";
    if (rest <= 0) { next(); }
  }

  show();
  tick();
  window.setInterval(tick, 250);
})();
