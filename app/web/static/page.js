// The page's own behaviour, kept out of the HTML so the Content-Security-Policy can forbid inline script.
(function () {
  "use strict";

  function typing(target) {
    return target instanceof HTMLElement &&
      (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  // Keyboard: "/" searches, j/k move through the list, Enter opens the current row.
  function rows() { return Array.prototype.slice.call(document.querySelectorAll("li.row")); }
  function current() { return document.querySelector("li.row.current"); }
  function move(step) {
    var all = rows();
    if (!all.length) { return; }
    var index = all.indexOf(current());
    var next = all[Math.max(0, Math.min(all.length - 1, index < 0 ? 0 : index + step))];
    all.forEach(function (row) { row.classList.remove("current"); });
    next.classList.add("current");
    next.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) { return; }
    if (event.key === "/") {
      var search = document.getElementById("q");
      if (search) { event.preventDefault(); search.focus(); search.select(); }
    } else if (event.key === "j") {
      move(1);
    } else if (event.key === "k") {
      move(-1);
    } else if (event.key === "Enter" && current()) {
      var link = current().querySelector("a.open");
      if (link) { window.location.href = link.href; }
    }
  });

  // Search hits in a transcript: previous and next, around the message the link opened.
  var hitIndex = -1;
  function jump(step) {
    var hits = Array.prototype.slice.call(document.querySelectorAll("mark.hit"));
    if (!hits.length) { return; }
    hitIndex = (hitIndex + step + hits.length) % hits.length;
    hits.forEach(function (hit) { hit.classList.remove("current"); });
    var hit = hits[hitIndex];
    hit.classList.add("current");
    var card = hit.closest("details");
    if (card) { card.open = true; }
    hit.scrollIntoView({ block: "center" });
  }
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof HTMLElement)) { return; }
    if (target.id === "next-hit") { jump(1); }
    if (target.id === "prev-hit") { jump(-1); }
    if (target.classList.contains("export-toggle")) {
      var links = document.getElementById(target.getAttribute("aria-controls") || "");
      if (links) {
        links.hidden = !links.hidden;
        target.setAttribute("aria-expanded", String(!links.hidden));
      }
    }
  });

  // A message opened by a link: unfold the card it sits in.
  function reveal() {
    if (!window.location.hash) { return; }
    var target = document.getElementById(window.location.hash.slice(1));
    if (!target) { return; }
    var card = target.closest("details");
    if (card) { card.open = true; }
    target.classList.add("target");
    target.scrollIntoView({ block: "center" });
  }
  document.addEventListener("DOMContentLoaded", reveal);

  // On a phone the filters and tools start folded, so the list is what the page opens on.
  document.addEventListener("DOMContentLoaded", function () {
    var controls = document.querySelector("details.controls");
    if (controls && window.matchMedia("(max-width: 600px)").matches) { controls.open = false; }
  });

  // Times relative to now, and the live mark of sessions active in the last minutes: the server writes
  // absolute times only, so a row's HTML depends on the row alone (and the clock keeps moving here).
  var UNITS = [[31536000, "y"], [2592000, "mo"], [604800, "w"], [86400, "d"], [3600, "h"], [60, "m"]];
  function ago(seconds) {
    for (var i = 0; i < UNITS.length; i++) {
      if (seconds >= UNITS[i][0]) { return Math.floor(seconds / UNITS[i][0]) + UNITS[i][1] + " ago"; }
    }
    return "just now";
  }
  function tick() {
    var now = Date.now() / 1000;
    document.querySelectorAll("time[data-ts]").forEach(function (el) {
      el.textContent = ago(now - parseFloat(el.getAttribute("data-ts")));
    });
    document.querySelectorAll("[data-live-until]").forEach(function (el) {
      el.hidden = now >= parseFloat(el.getAttribute("data-live-until"));
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  window.setInterval(tick, 30000);

  // The live stream's state, for the eye (the "live" dot) and for tests waiting until it is open.
  // After a reconnect the page catches up by itself: the transcript asks for what came after its last
  // message and the list reloads its first page, whether or not the stream could replay the gap.
  var opened = 0;
  document.addEventListener("htmx:sseOpen", function () {
    document.body.setAttribute("data-live", "open");
    opened += 1;
    if (opened > 1) {
      document.querySelectorAll("#tail, #first-page").forEach(function (el) {
        htmx.trigger(el, "hermes:reconnected");
      });
    }
  });
  document.addEventListener("htmx:sseError", function () { document.body.setAttribute("data-live", "retrying"); });

  // A refused change says why: the problem+json detail, in the notice line.
  function notify(text) {
    var notice = document.getElementById("notice");
    if (!notice) { return; }
    notice.textContent = text;
    notice.hidden = false;
    window.clearTimeout(notify.timer);
    notify.timer = window.setTimeout(function () { notice.hidden = true; }, 6000);
  }
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var detail = "The server refused this (" + xhr.status + ").";
    try {
      var body = JSON.parse(xhr.responseText);
      if (body && typeof body.detail === "string") { detail = body.detail; }
    } catch (ignored) { /* not problem+json: keep the status line */ }
    notify(detail);
  });
  document.addEventListener("htmx:sendError", function () { notify("The server cannot be reached."); });

  // A live refresh of the first page keeps the rows picked for a bulk action, and a row that moved up
  // from a later page is shown once.
  var picked = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "first-page") {
      picked = Array.prototype.map.call(document.querySelectorAll("input.pick:checked"), function (box) {
        return box.value;
      });
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    var seen = {};
    rows().forEach(function (row) {
      var id = row.getAttribute("data-id");
      if (seen[id]) { row.remove(); } else { seen[id] = true; }
    });
    picked.forEach(function (id) {
      var box = document.querySelector('input.pick[value="' + CSS.escape(id) + '"]');
      if (box) { box.checked = true; }
    });
  });
})();
