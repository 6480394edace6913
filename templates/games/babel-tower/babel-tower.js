// Babel Tower: tapping a free corner of the tower opens that corner's cubes and ways below the
// picture's form (without JavaScript the corner is a link to the same list, which stays).
(function () {
  "use strict";

  function choose(corner, focus) {
    var lists = document.querySelectorAll("details.placecorner");
    var chosen = null;
    lists.forEach(function (list) {
      var mine = list.getAttribute("data-corner") === corner;
      list.open = mine;
      list.classList.toggle("chosen", mine);
      if (mine) chosen = list;
    });
    document.querySelectorAll(".towerpic .freecorner").forEach(function (link) {
      link.classList.toggle("chosen", link.getAttribute("data-corner") === corner);
    });
    if (!chosen) return;
    chosen.scrollIntoView({ block: "start", behavior: "smooth" });
    if (focus) {
      var first = chosen.querySelector("button") || chosen.querySelector("summary");
      first.focus({ preventScroll: true });
    }
  }

  // The page comes with every corner's list open (for browsers without scripts): fold them
  // until a corner is tapped.
  document.querySelectorAll("details.placecorner[open]").forEach(function (list) {
    list.open = false;
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".towerpic .freecorner");
    if (!link || !document.querySelector("details.placecorner")) return;
    event.preventDefault();
    // A tap by keyboard (Enter on the focused corner) moves the focus on to the first way.
    choose(link.getAttribute("data-corner"), event.detail === 0);
  });

  // A way chosen: the tower after it, the cube outlined, is previewed in the page (the turn
  // page's own preview of the draft, fetched), with "Place it…" on to the confirmation. If the
  // preview cannot be had, the way goes on to the confirmation as it does without scripts.
  var placing = document.querySelector("form.towerplace");
  if (placing) placing.addEventListener("click", function (event) {
    var way = event.target.closest && event.target.closest("button[name=compose]");
    if (!way || !placing.contains(way)) return;
    event.preventDefault();
    var body = new URLSearchParams({ steps: way.value, action: "preview" });
    // (not placing.action: the form has a field named "action")
    fetch(placing.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("no preview");
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("towerpreview");
        if (!fresh) throw new Error("no preview");
        var shown = document.getElementById("towerpreview");
        if (shown) shown.replaceWith(fresh);
        else placing.parentNode.insertBefore(fresh, placing);
        fresh.scrollIntoView({ block: "start", behavior: "smooth" });
        fresh.querySelector("form.placeit button").focus({ preventScroll: true });
      })
      .catch(function () {
        var go = document.createElement("input");
        go.type = "hidden"; go.name = "compose"; go.value = way.value;
        placing.appendChild(go);
        placing.submit();
      });
  });

  document.addEventListener("toggle", function (event) {
    var list = event.target;
    if (!list.matches || !list.matches("details.placecorner") || !list.open) return;
    var corner = list.getAttribute("data-corner");
    document.querySelectorAll(".towerpic .freecorner").forEach(function (link) {
      link.classList.toggle("chosen", link.getAttribute("data-corner") === corner);
    });
  }, true);
})();
