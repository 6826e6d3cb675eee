// The chief referee's table status board refreshes itself: it fetches the table fragment every
// ten seconds and swaps it in. Plain JavaScript, no framework.
(function () {
  "use strict";
  var box = document.getElementById("status-board");
  if (!box) { return; }
  function refresh() {
    fetch(box.dataset.url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        // The fragment says when the server read it, in the event's zone.
        box.innerHTML = html;
      })
      .catch(function () { /* keep the last board; the next tick tries again */ });
  }
  window.setInterval(refresh, 10000);
})();
