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

    // True while someone types or chooses in a field of a live region (a reason half typed):
    // swapping the region would throw their input away.
    function editingInside() {
      var el = document.activeElement;
      if (!el || !/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || /^(submit|button|hidden)$/.test(el.type)) { return false; }
      var regions = document.querySelectorAll("[data-desk-live]");
      for (var i = 0; i < regions.length; i++) {
        if (regions[i].contains(el)) { return true; }
      }
      return false;
    }

    // Replaces every live region with its fresh copy (focus stays on the element of the same id);
    // false when the page had none of them (an error page): the change is then not marked as seen.
    function swapRegions(html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var focusedId = document.activeElement && document.activeElement.id;
      var swapped = 0;
      document.querySelectorAll("[data-desk-live]").forEach(function (old) {
        var fresh = old.id && doc.getElementById(old.id);
        if (fresh) { old.replaceWith(fresh); swapped += 1; }
      });
      if (focusedId && document.getElementById(focusedId)) { document.getElementById(focusedId).focus(); }
      return swapped > 0;
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

    // One round at a time: the page is fetched and swapped before the next round starts, so an
    // older copy of the page can never land after a newer one. A change is marked as seen only
    // once it is on screen; while someone works inside a live region (a reason half typed), the
    // swap waits for them and happens on the first round after they leave it.
    function refresh(revision) {
      if (editingInside()) { return Promise.resolve(); }
      return fetch(window.location.href, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html !== null && !editingInside() && swapRegions(html)) { seen = revision; }
        });
    }

    function poll() {
      fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (status) {
          if (!status) { return null; }
          show(status);
          idleRounds = status.running ? 0 : idleRounds + 1;
          if (seen === null) { seen = status.revision; return null; }
          if (status.revision !== seen) { idleRounds = 0; return refresh(status.revision); }
          return null;
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
