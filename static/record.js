// The record: ▶ Play steps through the game by itself (the "Next" link, fetched and swapped in
// every 1.2 s); the arrow keys step back and forth. Without JavaScript the links do the same.
(function () {
  "use strict";
  var DELAY = 1200;
  var timer = null;

  function main() { return document.querySelector("main"); }
  function link(key) { return document.querySelector("#board a[data-go='" + key + "']"); }
  function button() { return document.querySelector("#board [data-play]"); }

  function show(playing) {
    var b = button();
    if (!b) return;
    b.hidden = false;
    // (its words in the page's language: the button's data-pause-label and data-play-label)
    b.textContent = playing ? b.dataset.pauseLabel : b.dataset.playLabel;
    b.setAttribute("aria-pressed", playing ? "true" : "false");
  }

  function go(href, then) {
    fetch(href, { headers: { "Accept": "text/html" }, credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        if (!fresh) throw new Error("no page");
        main().innerHTML = fresh.innerHTML;
        history.replaceState(null, "", href);
        show(timer !== null);
        if (then) then();
      })
      .catch(function () { stop(); window.location.href = href; });
  }

  function tick() {
    var next = link("next");
    if (!next) { stop(); return; }
    go(next.href, function () {
      if (timer !== null) timer = setTimeout(tick, DELAY);
    });
  }

  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    show(false);
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-play]")) {
      if (timer !== null) { stop(); return; }
      if (link("next")) {
        timer = setTimeout(tick, 0);
        show(true);
        return;
      }
      // At the end of the record, ▶ Play starts again from the start of the game.
      timer = -1;
      show(true);
      go("?turn=0#board", function () {
        if (timer !== null) timer = setTimeout(tick, DELAY);
      });
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    var key = event.key === "ArrowRight" ? "next" : event.key === "ArrowLeft" ? "prev" : null;
    var target = key && link(key);
    if (!target) return;
    event.preventDefault();
    stop();
    go(target.href);
  });

  show(false);
})();
