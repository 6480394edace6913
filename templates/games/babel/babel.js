// Babel's own script, after the shared pbem.js. Everything also works without it.
(function () {
  "use strict";

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
})();
