// Service worker of the live entry (games.views_offline, served at /sw.js). It answers the live
// entry pages and the static files from the network when it can, keeping a copy, and from the
// copy when it cannot, so that the page opens without the network. A page opened before the
// worker was in charge asks it to keep the page and its files (games/static/games/offline.js).
// Every other request, the JSON doors and every POST go to the network untouched: the server
// stays the judge of each step.
"use strict";
var CACHE = "{{ cache_name|escapejs }}";
var STATIC = "{{ static_url|escapejs }}";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("ddz-entry-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// The page asks to keep its own address and files: {keep: [url, ...]}.
self.addEventListener("message", function (event) {
  var urls = event.data && event.data.keep;
  if (!Array.isArray(urls)) { return; }
  var source = event.source;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      return fetch(url, { credentials: "same-origin" }).then(function (r) {
        if (r.ok) { return cache.put(url.split("#")[0], r).then(function () { return true; }); }
        return false;
      }).catch(function () { return false; });
    }));
  }).then(function (done) {
    if (source) { source.postMessage({ kept: done.every(Boolean) }); }
  }));
});

// A live entry page, at either door: a table link's /t/TOKEN/boards/N/ or a referee's
// /referee/events/SLUG/tables/ID/boards/N/ (tournaments/urls_links.py, games/urls_referee.py).
var ENTRY_PAGE = /^\/(t\/[^/]+|referee\/events\/[^/]+\/tables\/\d+)\/boards\/\d+\/$/;

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  // Live entry pages and static files only: other pages and the JSON doors are not touched.
  var page = request.mode === "navigate" && ENTRY_PAGE.test(url.pathname) && !url.search;
  if (!page && url.pathname.indexOf(STATIC) !== 0) { return; }
  var key = request.url.split("#")[0];
  event.respondWith(fetch(request).then(function (fresh) {
    if (fresh.ok && fresh.type === "basic") {
      var copy = fresh.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(key, copy); }));
    }
    return fresh;
  }, function (err) {
    return caches.open(CACHE).then(function (cache) {
      return cache.match(key, { ignoreVary: true });
    }).then(function (kept) {
      if (kept) { return kept; }
      throw err;
    });
  }));
});
