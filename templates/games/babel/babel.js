// Babel's own script, after the shared pbem.js. Everything also works without it.
(function () {
  "use strict";

  // The owed-discards form counts what is still to choose, in the page's language: its
  // words are the form's data- attributes (discard.html), one per plural form.
  var discard = document.querySelector("form.discard");
  if (discard) {
    var owed = Number(discard.dataset.owed), counter = discard.querySelector(".still");
    var counted = function (kind, n) {
      var form = n === 1 ? "One" : n >= 2 && n <= 4 ? "Few" : "Many";
      return discard.dataset[kind + form].replace("{n}", String(n));
    };
    discard.addEventListener("change", function () {
      var chosen = discard.querySelectorAll("input[type=checkbox]:checked").length;
      var left = owed - chosen;
      counter.textContent = left > 0 ? counted("more", left) :
        left === 0 ? discard.dataset.all : counted("over", -left);
    });
  }
})();
