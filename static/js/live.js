// A live table's page: the countdown ticks between polls. A poll that finds the table as
// the page shows it is a 304, which htmx leaves unswapped (base.html); a poll older than
// the table shown (sent before one's own action, answered after it) is not swapped in,
// nor a poll while the page is telling a round (static/js/story.js): the next one brings
// the table again once the story is told.
(function () {
  "use strict";

  function stamp(element) {
    if (!element.dataset.until) {
      var left = Number(element.dataset.secondsLeft) || 0;
      element.dataset.until = String(Date.now() + left * 1000);
    }
  }

  function tick() {
    document.querySelectorAll("[data-seconds-left]").forEach(function (element) {
      stamp(element);
      var left = Math.max(0, Math.ceil((Number(element.dataset.until) - Date.now()) / 1000));
      var text = element.textContent;
      // Keep the server's words; only the number ticks.
      element.textContent = text.replace(/\d+/, String(left));
    });
  }

  var focusWasInTable = false;

  document.addEventListener("htmx:beforeSwap", function (event) {
    var table = document.getElementById("live");
    var xhr = event.detail.xhr;
    focusWasInTable = Boolean(table && table.contains(document.activeElement));
    if (!table || event.detail.target !== table) {
      return;
    }
    if (table.dataset.telling !== undefined && event.detail.requestConfig.verb === "get") {
      event.detail.shouldSwap = false;
      return;
    }
    var tag = xhr.getResponseHeader("ETag");
    if (xhr.status !== 200 || !tag || event.detail.requestConfig.verb !== "get") {
      return;
    }
    // A poll sent before one's own action may come back after it, with an older table.
    var version = Number(tag.replace(/^(W\/)?"/, "").split("-")[0]);
    if (version < Number(table.dataset.version)) {
      event.detail.shouldSwap = false;
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    // A button htmx found again by its id keeps the focus; one that went (a play made,
    // a bet placed) leaves it on the table's stage, not at the top of the page.
    var lost = !document.activeElement || document.activeElement === document.body;
    if (focusWasInTable && lost) {
      var stage = document.querySelector("#live [data-testid=stage]");
      if (stage) {
        stage.focus();
      }
    }
    tick();
  });

  tick();
  setInterval(tick, 250);
})();
