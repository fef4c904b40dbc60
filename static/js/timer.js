// A timed drill hand's countdown (templates/trainer/drills/drill.html): the seconds left,
// as text, from when the hand is shown. A guide only: whether an answer is in time is the
// server's to say, from when it dealt the hand.
//
// What is said aloud: the page's live region (#announcement, base.html) says the limit with
// the new hand; this script says "5 seconds left" (only on a hand longer than 5 seconds,
// where it is news) and that time is up. The ticking number sits in a role="timer", which
// assistive technology does not read out on each change: a screen reader user hears three
// things in ten seconds, not ten. The words come from the page, in the player's language.
(function () {
  "use strict";

  function say(words) {
    var region = document.getElementById("announcement");
    if (region && words) {
      region.textContent = words;
    }
  }

  function tick() {
    var timer = document.querySelector("[data-timer]");
    if (!timer) {
      return;
    }
    var limit = Number(timer.dataset.timer) || 0;
    if (!timer.dataset.until) {
      timer.dataset.until = String(Date.now() + limit * 1000);
    }
    var left = Math.max(0, Math.ceil((Number(timer.dataset.until) - Date.now()) / 1000));
    var count = timer.querySelector("[data-timer-count]");
    if (count && count.textContent !== String(left)) {
      count.textContent = String(left);
    }
    if (left <= 5 && limit > 5 && left > 0 && !timer.dataset.saidFive) {
      timer.dataset.saidFive = "1";
      say(timer.dataset.sayFive);
    }
    if (left === 0 && !timer.dataset.saidUp) {
      timer.dataset.saidUp = "1";
      timer.classList.add("timer--up");
      say(timer.dataset.sayUp);
    }
  }

  tick();
  setInterval(tick, 200);
})();
