// pbem: the turn page without page reloads. Everything also works without this file:
// the buttons are plain form buttons the server understands. No rules live here: every
// edit is sent to the server, which answers the draft's preview and its next steps.
(function () {
  "use strict";

  // A submit button marked data-once submits its form once, however often it is clicked.
  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (!button || !button.hasAttribute("data-once")) return;
    var form = button.form;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    if (button.name) {   // a disabled button is not submitted: keep its name and value
      var keep = document.createElement("input");
      keep.type = "hidden"; keep.name = button.name; keep.value = button.value;
      form.appendChild(keep);
    }
    setTimeout(function () { button.disabled = true; }, 0);
  });

  // The owed-discards form counts what is still to choose.
  var discard = document.querySelector("form.discard");
  if (discard) {
    var owed = Number(discard.dataset.owed), counter = discard.querySelector(".still");
    discard.addEventListener("change", function () {
      var chosen = discard.querySelectorAll("input[type=checkbox]:checked").length;
      var left = owed - chosen;
      counter.textContent = left > 0 ? "Choose " + left + " more." :
        left === 0 ? "That is all you owe." : "That is " + (-left) + " too many.";
    });
  }

  // The start page shows as many player rows as its largest game seats: only the chosen
  // game's rows (and its options) are shown; the server refuses rows the game has no seat for.
  var newgame = document.querySelector("form.newgame");
  if (newgame) {
    var fitRows = function () {
      var chosen = newgame.querySelector("input[name=game]:checked");
      if (!chosen || !chosen.dataset.maxSeats) return;
      var most = Number(chosen.dataset.maxSeats), fewest = Number(chosen.dataset.minSeats);
      newgame.querySelectorAll("[data-seat]").forEach(function (row) {
        var off = Number(row.dataset.seat) >= most;
        row.hidden = off;
        if (row.tagName === "OPTION") { row.disabled = off; if (off && row.selected) row.parentNode.value = "random"; }
        row.querySelectorAll("input").forEach(function (input) { input.disabled = off; });
      });
      var more = newgame.querySelector(".more-players");
      if (more) more.hidden = most <= fewest;
      newgame.querySelectorAll("fieldset.game-options").forEach(function (set) {
        set.hidden = set.dataset.game !== chosen.value;
        set.querySelectorAll("input").forEach(function (input) { input.disabled = set.hidden; });
      });
    };
    newgame.addEventListener("change", function (event) {
      if (event.target.name === "game") fitRows();
    });
    fitRows();
  }

  var form = document.getElementById("composer");
  if (!form) return;
  var textarea = form.querySelector("textarea[name=steps]");
  var draft = document.getElementById("draft");
  var dialog = document.getElementById("confirm");
  var preview = form.dataset.preview;
  var pending = null, timer = null;

  function post(body, accept) {
    if (pending) pending.abort();
    pending = new AbortController();
    return fetch(preview, {
      method: "POST", body: body, signal: pending.signal,
      headers: { "Accept": accept, "X-Fragment": "1" }
    });
  }

  // Keyboard users keep their place: after a preview, focus the same button again if it is
  // still offered, else the first next step (or the steps box).
  function restoreFocus(edit) {
    if (!edit) return;
    var same = draft.querySelector("button[name='" + edit.name + "'][value='" + CSS.escape(edit.value) + "']");
    var shown = Array.prototype.filter.call(draft.querySelectorAll("button[name=add]"), function (b) {
      return b.offsetParent !== null;   // not inside a folded group
    });
    var target = (same && same.offsetParent !== null ? same : null) || shown[0] || textarea;
    target.focus();
  }

  function refresh(edit) {
    var body = new URLSearchParams();
    body.set("steps", textarea.value);
    if (edit) body.set(edit.name, edit.value);
    post(body, "text/html").then(function (response) {
      if (!response.ok) { window.location.reload(); return null; }
      return response.text();
    }).then(function (html) {
      if (html === null || html === undefined) return;
      // Groups of steps the player has opened (or closed) stay so after the preview.
      var folds = {};
      draft.querySelectorAll("details[data-group]").forEach(function (d) { folds[d.dataset.group] = d.open; });
      draft.innerHTML = html;
      draft.querySelectorAll("details[data-group]").forEach(function (d) {
        if (d.dataset.group in folds) d.open = folds[d.dataset.group];
      });
      var text = draft.querySelector("textarea.draft-text");
      if (edit && text) textarea.value = text.value;
      draft.dataset.fresh = String(Date.now());
      restoreFocus(edit);
    }).catch(function () { /* aborted by a newer preview */ });
  }

  function confirmTurn() {
    var body = JSON.stringify({ steps: textarea.value });
    fetch(preview, {
      method: "POST", body: body,
      headers: { "Accept": "application/json", "Content-Type": "application/json" }
    }).then(function (response) { return response.json(); }).then(function (data) {
      if (!data.done) { refresh(null); return; }
      dialog.querySelector(".words").textContent = data.sentence;
      dialog.showModal();
      dialog.querySelector("button[value=submit]").focus();
    });
  }

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !form.contains(button)) return;
    if (button.name === "add" || button.name === "remove") {
      event.preventDefault();
      refresh({ name: button.name, value: button.value });
    } else if (button.name === "action" && button.value === "preview") {
      event.preventDefault();
      refresh(null);
    } else if (button.name === "action" && button.value === "confirm" && dialog && dialog.showModal) {
      event.preventDefault();
      confirmTurn();
    } else if (button.classList.contains("cancel")) {
      event.preventDefault();
      dialog.close();
    }
  });

  textarea.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { refresh(null); }, 350);
  });
})();
