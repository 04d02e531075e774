// Keyboard shortcuts on a review queue's and item's page: p pass, f fail, n start or next item
// (a claim: a button of a POST form), ? the list of them.
// An external file: the console's Content-Security-Policy allows no inline script. Keys typed
// into a field (the rationale, the value) are left alone.
(function () {
  "use strict";
  function press(id) {
    var element = document.getElementById(id);
    if (element) {
      element.click();
      return true;
    }
    return false;
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) {
      return;
    }
    var done = false;
    if (event.key === "p") done = press("label-pass");
    else if (event.key === "f") done = press("label-fail");
    else if (event.key === "n") done = press("next") || press("start");
    else if (event.key === "?") {
      var list = document.getElementById("shortcuts");
      if (list) {
        list.hidden = !list.hidden;
        done = true;
      }
    }
    if (done) event.preventDefault();
  });
})();
