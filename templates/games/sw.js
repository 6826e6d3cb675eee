// Service worker of the live entry (games.views_offline, served at /sw.js). It answers only
// what the entry page asked it to keep (games/static/games/offline.js: the page and its
// scripts and styles): from the network when it can, keeping the copy fresh, and from the copy
// when it cannot, so that the page opens without the network. Every other request, the JSON
// doors and every POST go to the network untouched: the server stays the judge of each step.
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

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  // Pages and static files only: the JSON doors always go to the network.
  if (request.mode !== "navigate" && url.pathname.indexOf(STATIC) !== 0) { return; }
  var key = request.url.split("#")[0];
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(key, { ignoreVary: true }).then(function (kept) {
      return fetch(request).then(function (fresh) {
        if (kept && fresh.ok) { cache.put(key, fresh.clone()); }
        return fresh;
      }).catch(function (err) {
        if (kept) { return kept; }
        throw err;
      });
    });
  }));
});
