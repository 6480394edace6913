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
    var target = same || draft.querySelector("button[name=add]") || textarea;
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
      draft.innerHTML = html;
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
