// pbem: the turn page without page reloads. Everything also works without this file:
// the buttons are plain form buttons the server understands.
(function () {
  "use strict";

  // A submit button marked data-once submits its form once, however often it is clicked.
  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (button && button.hasAttribute("data-once")) {
      if (button.form.dataset.sent) { event.preventDefault(); return; }
      button.form.dataset.sent = "1";
      // A hidden field keeps the button's name/value once it is disabled.
      var keep = document.createElement("input");
      keep.type = "hidden"; keep.name = button.name; keep.value = button.value;
      if (button.name) button.form.appendChild(keep);
      setTimeout(function () { button.disabled = true; }, 0);
    }
  });

  var form = document.getElementById("composer");
  if (!form) return;
  var textarea = form.querySelector("textarea[name=steps]");
  var draft = document.getElementById("draft");
  var pending = null, timer = null;

  // Every edit goes to the server, which answers the new draft: its text, board and next steps.
  function refresh(edit) {
    if (pending) pending.abort();
    pending = new AbortController();
    var body = new URLSearchParams();
    body.set("steps", textarea.value);
    if (edit) body.set(edit.name, edit.value);
    fetch(form.dataset.preview, {
      method: "POST", body: body, signal: pending.signal,
      headers: { "Accept": "text/html", "X-Fragment": "1" }
    }).then(function (response) {
      if (!response.ok) { window.location.reload(); return null; }
      return response.text();
    }).then(function (html) {
      if (html === null || html === undefined) return;
      draft.innerHTML = html;
      var text = draft.querySelector("textarea.draft-text");
      if (edit && text) textarea.value = text.value;
      draft.dataset.fresh = String(Date.now());
      var focus = edit && draft.querySelector("button[name=add]");
      if (focus && document.activeElement === document.body) focus.focus();
    }).catch(function () { /* aborted by a newer preview */ });
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
    }
  });

  textarea.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { refresh(null); }, 350);
  });
})();
