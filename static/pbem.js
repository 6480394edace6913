// pbem: the turn page without page reloads. Everything also works without this file:
// the buttons are plain form buttons the server understands. No rules live here: every
// edit is sent to the server, which answers the draft's preview and its next steps.
// No game is named here either: a game's own script lives beside its templates
// (templates/games/<name>/<name>.js), loaded after this one on the pages that show that game.
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

  // Deadlines are written in UTC (as in mails); the browser adds its own local time, in the
  // page's language (its words, "(… your time)", come from the page: data-local).
  document.querySelectorAll("time.local[datetime]").forEach(function (time) {
    var when = new Date(time.getAttribute("datetime"));
    if (isNaN(when.getTime())) return;
    var lang = document.documentElement.lang;
    var local = document.createElement("span");
    local.className = "localtime";
    local.textContent = " " + (time.closest("[data-local]") ? time.closest("[data-local]").dataset.local : "{when}").replace("{when}",
      when.toLocaleString(lang && lang !== "en" ? lang : undefined, {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
      }));
    time.after(local);
  });

  // A time zone list offers the zone of the browser's device first (the server lists places
  // only; a device may name an older alias, which the server still takes).
  document.querySelectorAll("select.time-zone").forEach(function (select) {
    var zone;
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
    if (!zone || zone === "UTC") return;
    var option = document.createElement("option");
    option.value = zone;
    option.textContent = (select.dataset.device || "{zone}").replace("{zone}", zone);
    option.className = "device-zone";
    select.insertBefore(option, select.firstChild);
    if (select.value === zone) { option.selected = true; }   // (the same zone, chosen before)
  });

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
        row.querySelectorAll("input, select").forEach(function (input) { input.disabled = off; });
      });
      var more = newgame.querySelector(".more-players");
      if (more) more.hidden = most <= fewest;
      newgame.querySelectorAll("fieldset.game-options").forEach(function (set) {
        set.hidden = set.dataset.game !== chosen.value;
        set.querySelectorAll("input").forEach(function (input) { input.disabled = set.hidden; });
      });
    };
    // The seats taken: a row with a name, an address or the computer (player 1 always).
    var seatsTaken = function () {
      var taken = 0;
      newgame.querySelectorAll(".player[data-seat]").forEach(function (row) {
        if (row.hidden) return;
        var name = row.querySelector("input[name^=name]"), email = row.querySelector("input[name^=email]");
        var bot = row.querySelector("select[name^=bot]");
        if (row.dataset.seat === "0" || name.value.trim() || email.value.trim() || (bot && bot.value !== "person")) taken++;
      });
      return taken;
    };
    // Who takes over a seat matters only in a game of 3 or 4: offered once it is one.
    var fitTakeover = function () {
      var takeover = newgame.querySelector(".takeover");
      if (takeover) takeover.hidden = seatsTaken() < 3;
    };
    // What the server refuses is refused here first, said at the field (the browser's own
    // check keeps the form from being sent): one clock, not two; an address per player.
    var checkClocks = function () {
      var limit = newgame.querySelector("select[name=time_limit]"), bank = newgame.querySelector("select[name=clock]");
      var both = limit.value !== "none" && bank.value !== "";
      bank.setCustomValidity(both ? newgame.dataset.bothClocks : "");
      limit.setCustomValidity("");
    };
    var checkAddresses = function () {
      var seen = {};
      newgame.querySelectorAll("input[name^=email]").forEach(function (input) {
        var address = input.value.trim().toLowerCase(), seat = Number(input.name.slice(5));
        var row = input.closest(".player"), bot = row.querySelector("select[name^=bot]");
        var said = "";
        if (address && !input.disabled && !(bot && bot.value !== "person")) {
          if (address in seen) {
            said = newgame.dataset.sameAddress.replace("{first}", seen[address] + 1).replace("{second}", seat + 1);
          } else {
            seen[address] = seat;
          }
        }
        input.setCustomValidity(said);
      });
    };
    var checkAll = function () { fitTakeover(); checkClocks(); checkAddresses(); };
    newgame.addEventListener("change", function (event) {
      if (event.target.name === "game") fitRows();
      checkAll();
    });
    newgame.addEventListener("input", checkAll);
    fitRows();
    checkAll();
  }

  // A board wider than a phone pans inside its box (class "pan"); the places the board wants
  // seen ("in-view": the draft's, else the last turns') are brought into the middle of it.
  function keepInView(root) {
    root.querySelectorAll(".pan").forEach(function (box) {
      var places = box.querySelectorAll(".in-view");
      if (!places.length || box.scrollWidth <= box.clientWidth) return;
      var left = Infinity, right = -Infinity;
      places.forEach(function (place) {
        var at = place.getBoundingClientRect();
        left = Math.min(left, at.left); right = Math.max(right, at.right);
      });
      var middle = (left + right) / 2 - box.getBoundingClientRect().left + box.scrollLeft;
      box.scrollLeft = Math.max(0, middle - box.clientWidth / 2);
    });
  }
  keepInView(document);

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
  // A step added from the map leaves the focus alone: the page stays where the player looks.
  function restoreFocus(edit) {
    if (!edit || edit.fromMap) return;
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
      closeMenu(false);
      draft.innerHTML = html;
      draft.querySelectorAll("details[data-group]").forEach(function (d) {
        if (d.dataset.group in folds) d.open = folds[d.dataset.group];
      });
      var text = draft.querySelector("textarea.draft-text");
      if (edit && text) textarea.value = text.value;
      markTargets();
      keepInView(draft);
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

  // A board may name places as targets of steps (data-target="g7"). No game is known here: a
  // step belongs to a place when the last word of its notation is that place's name. With
  // JavaScript the places of legal next steps are marked; a click on one adds its only step at
  // once, or offers its several steps in a small menu beside it. The step buttons stay the way
  // without a pointer (or without JavaScript).
  var menu = null, menuPlace = null, fromMap = false;

  function lastWord(notation) {
    var words = notation.trim().split(/\s+/);
    return words[words.length - 1];
  }

  function stepsByTarget() {
    var steps = Object.create(null);
    draft.querySelectorAll("button[name=add]").forEach(function (button) {
      if (!button.value.trim()) return;
      var key = lastWord(button.value);
      (steps[key] = steps[key] || []).push(button);
    });
    return steps;
  }

  // Where several places share a name (a territory and a card of its tribe), a place takes
  // only the steps its data-verbs name (the first words of their notation: "move").
  function stepsFor(place, steps) {
    var all = steps[place.dataset.target] || [];
    if (!place.dataset.verbs) return all;
    var verbs = place.dataset.verbs.split(" ");
    return all.filter(function (button) {
      return verbs.indexOf(button.value.trim().split(/\s+/)[0]) >= 0;
    });
  }

  function stepsAt(place) {
    return stepsFor(place, stepsByTarget());
  }

  function markTargets() {
    var steps = stepsByTarget();
    draft.querySelectorAll("[data-target]").forEach(function (place) {
      var playable = stepsFor(place, steps).length > 0;
      place.classList.toggle("playable", playable);
      if (playable) place.setAttribute("tabindex", "-1");   // focus can come back to it
      else place.removeAttribute("tabindex");
    });
  }

  // A step button's words: its group ("Play a farmer") tells apart steps onto one place.
  function groupOf(button) {
    var group = button.closest(".step-group");
    return group ? (group.dataset.group || group.getAttribute("aria-label") || "") : "";
  }

  function choose(button) {
    closeMenu(false);
    fromMap = true;
    try { button.click(); } finally { fromMap = false; }
  }

  function closeMenu(refocus) {
    if (!menu) return;
    var place = menuPlace;
    menu.remove();
    menu = null; menuPlace = null;
    if (place) {
      place.classList.remove("chosen");
      if (refocus && document.contains(place)) place.focus({ preventScroll: true });
    }
  }

  function openMenu(place, buttons) {
    closeMenu(false);
    var labels = buttons.map(function (b) { return b.textContent.trim(); });
    var sameLabel = labels.every(function (l) { return l === labels[0]; });
    menu = document.createElement("div");
    menu.className = "target-menu";
    menu.setAttribute("role", "dialog");
    menu.setAttribute("aria-label", (form.dataset.stepsAt || "{place}").replace("{place}", place.dataset.target));
    var head = document.createElement("div");
    head.className = "target-head";
    var title = document.createElement("span");
    title.textContent = sameLabel ? labels[0] : place.dataset.target;
    var close = document.createElement("button");
    close.type = "button"; close.className = "target-close"; close.textContent = "\u2715";
    close.setAttribute("aria-label", form.dataset.close || "\u2715");
    close.addEventListener("click", function () { closeMenu(true); });
    head.appendChild(title); head.appendChild(close);
    menu.appendChild(head);
    var list = document.createElement("div");
    list.className = "target-steps";
    buttons.forEach(function (button, i) {
      var item = document.createElement("button");
      var group = groupOf(button);
      item.type = "button";
      item.title = button.value;
      item.textContent = group ? (sameLabel ? group : group + ": " + labels[i]) : labels[i];
      item.addEventListener("click", function () { choose(button); });
      list.appendChild(item);
    });
    menu.appendChild(list);
    menu.addEventListener("keydown", function (event) {
      var items = Array.prototype.slice.call(menu.querySelectorAll(".target-steps button"));
      var at = items.indexOf(document.activeElement);
      if (event.key === "Escape") { event.preventDefault(); closeMenu(true); }
      else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        var step = event.key === "ArrowDown" ? 1 : -1;
        items[(at + step + items.length) % items.length].focus();
      }
    });
    menu.addEventListener("focusout", function (event) {
      if (menu && event.relatedTarget && !menu.contains(event.relatedTarget)) closeMenu(false);
    });
    document.body.appendChild(menu);
    menuPlace = place;
    place.classList.add("chosen");
    // Beside the place: below it, or above it when the window has no room below.
    var room = document.documentElement.clientWidth;
    var at = place.getBoundingClientRect(), size = menu.getBoundingClientRect();
    var left = Math.max(4, Math.min(at.left + at.width / 2 - size.width / 2, room - size.width - 4));
    var top = at.bottom + 4;
    if (top + size.height > window.innerHeight && at.top - size.height - 4 >= 0) top = at.top - size.height - 4;
    menu.style.left = (left + window.scrollX) + "px";
    menu.style.top = (top + window.scrollY) + "px";
    menu.querySelector(".target-steps button").focus({ preventScroll: true });
  }

  function tapPlace(place) {
    var buttons = stepsAt(place);
    if (!buttons.length) return false;
    if (buttons.length === 1) choose(buttons[0]);
    else openMenu(place, buttons);
    return true;
  }

  draft.addEventListener("click", function (event) {
    var place = event.target.closest("[data-target]");
    if (!place || !draft.contains(place) || event.target.closest("button, a, summary")) return;
    if (tapPlace(place)) event.preventDefault();
  });
  draft.addEventListener("keydown", function (event) {
    var place = event.target.closest && event.target.closest("[data-target].playable");
    if (!place || place !== event.target || (event.key !== "Enter" && event.key !== " ")) return;
    if (tapPlace(place)) event.preventDefault();
  });
  document.addEventListener("click", function (event) {
    if (!menu || menu.contains(event.target)) return;
    var place = event.target.closest && event.target.closest("[data-target]");
    if (place !== menuPlace) closeMenu(false);
  });
  var width = window.innerWidth;   // a phone's toolbars change only the height: the menu stays
  window.addEventListener("resize", function () {
    if (window.innerWidth !== width) closeMenu(false);
    width = window.innerWidth;
  });
  document.addEventListener("scroll", function (event) {   // the map scrolled under the menu
    if (menu && event.target !== document) closeMenu(false);
  }, true);
  markTargets();
  draft.dataset.fresh = "0";   // the time of the latest preview (0: the page as served)

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !form.contains(button)) return;
    if (button.name === "add" || button.name === "remove") {
      event.preventDefault();
      refresh({ name: button.name, value: button.value, fromMap: fromMap });
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
