/* The desk's only script (served as a static file; no inline scripts).
 * A page that shows work in progress carries data-desk-status-url on an element: the script
 * polls that JSON endpoint and, when the work's revision changes, fetches the page again and
 * swaps every [data-desk-live] region in place, so the page updates itself without a reload. */
(function () {
  "use strict";
  function start() {
    var root = document.querySelector("[data-desk-status-url]");
    if (!root) { return; }
    var url = root.getAttribute("data-desk-status-url");
    var progress = document.getElementById("desk-progress");
    var seen = root.getAttribute("data-desk-revision");
    var idleRounds = 0;

    function swapRegions(html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var focusedId = document.activeElement && document.activeElement.id;
      document.querySelectorAll("[data-desk-live]").forEach(function (old) {
        var fresh = old.id && doc.getElementById(old.id);
        if (fresh && !old.contains(document.activeElement)) { old.replaceWith(fresh); }
      });
      if (focusedId && document.getElementById(focusedId)) { document.getElementById(focusedId).focus(); }
    }

    function show(status) {
      if (!progress) { return; }
      if (status.running) {
        progress.hidden = false;
        progress.textContent = "⏳ Working: " + status.message;
      } else if (status.failed) {
        progress.hidden = false;
        progress.textContent = "✖ " + status.message;
      } else {
        progress.hidden = true;
      }
    }

    function poll() {
      fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (status) {
          if (!status) { return; }
          show(status);
          if (seen !== null && status.revision !== seen) {
            fetch(window.location.href, { credentials: "same-origin" })
              .then(function (r) { return r.text(); })
              .then(swapRegions);
          }
          seen = status.revision;
          idleRounds = status.running ? 0 : idleRounds + 1;
        })
        .catch(function () { /* the next round tries again */ })
        .then(function () {
          // Fast while work runs, slower when idle; stop after a long idle spell.
          if (idleRounds < 120) { window.setTimeout(poll, idleRounds > 10 ? 5000 : 1000); }
        });
    }
    poll();
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
