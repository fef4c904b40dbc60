// A live table's page. htmx polls it and leaves a poll that finds the table unchanged (a
// 304) unswapped (live_table.html, base.html); what it cannot do is here. Needs htmx and
// idiomorph (static/vendor/idiomorph) loaded before it.
(function () {
  "use strict";

  // The table's part is morphed in place (hx-ext="morph", hx-swap="morph"): the page keeps
  // its elements and changes only what the answer changed, so a poll or another player's
  // move leaves the field being typed in, the focus and the selection as they were. An
  // amount typed but not yet sent keeps its value even when the focus has moved on: only
  // sending it (or the field leaving the page) lets the server's figure in again.
  // idiomorph's own htmx extension would read a swap's options through Function(), which
  // the Content-Security-Policy forbids; this one takes none.
  var typed = new WeakSet();

  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("#live")) {
      typed.add(event.target);
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form.tagName === "FORM") {
      Array.prototype.forEach.call(form.elements, function (field) {
        typed.delete(field);
      });
    }
  });

  // Not idiomorph's ignoreActiveValue: it leaves the focused element's children as they
  // were, and the focus often rests on the table's stage (below), whose words must change.
  var morphing = {
    morphStyle: "outerHTML",
    callbacks: {
      beforeAttributeUpdated: function (name, element) {
        var editing = element === document.activeElement || typed.has(element);
        return !(name === "value" && element.tagName === "INPUT" && editing);
      },
    },
  };

  htmx.defineExtension("morph", {
    isInlineSwap: function (swapStyle) {
      return swapStyle === "morph";
    },
    handleSwap: function (swapStyle, target, fragment) {
      if (swapStyle !== "morph") {
        return false;
      }
      return Idiomorph.morph(target, fragment.children, morphing);
    },
  });

  // The countdown ticks between polls: htmx only swaps in what the server sends, and a poll
  // that finds the table unchanged sends nothing, so the seconds left are counted here from
  // the server's figure.
  function stamp(element) {
    if (!element.dataset.until) {
      var left = Number(element.dataset.secondsLeft) || 0;
      element.dataset.until = String(Date.now() + left * 1000);
    }
  }

  // The server's words for ``left`` seconds: the sentence it rendered for a sample number of
  // the same plural form (templatetags/plurals.py), with this number in it.
  function counted(element, left) {
    var forms = element.parentNode.querySelectorAll("template[data-countdown-form]");
    var rules = new Intl.PluralRules(document.documentElement.lang || "en");
    var chosen = null;
    forms.forEach(function (form) {
      var sample = Number(form.dataset.countdownForm);
      if (sample === left) chosen = form;
      else if (chosen === null && rules.select(sample) === rules.select(left)) chosen = form;
    });
    var text = chosen ? chosen.content.textContent : element.textContent;
    return text.replace(/\d+/, String(left));
  }

  function tick() {
    document.querySelectorAll("[data-seconds-left]").forEach(function (element) {
      stamp(element);
      var left = Math.max(0, Math.ceil((Number(element.dataset.until) - Date.now()) / 1000));
      element.textContent = counted(element, left);
    });
  }

  // No poll while the page is telling a round (static/js/story.js): its answer would replace
  // the story half told. The next poll after it brings the table again. An hx-trigger filter
  // could say this only as a script that htmx evaluates, which the Content-Security-Policy
  // forbids.
  //
  // Where the server pushes the table's changes ([data-push], trainer/live/push.py), an
  // EventSource brings each new version as this viewer's part of the table ("part"),
  // morphed in as a poll's answer would be, or says only its number ("table") and the
  // page asks for it ("pushed"). The server applies a countdown's end itself and pushes
  // it, so the timed poll goes out only when a countdown has been over for GRACE_MS
  // without a change (then once each GRACE_MS while it stays over: a server behind with
  // its pushes is not sent every page's request each second), or every SAFETY_MS without
  // one; a part that came while a story was told is morphed in once it is. When the
  // stream is down (a proxy that drops it, a server restarting) the poll runs at its own
  // pace.
  var SAFETY_MS = 15000;
  // 3 to 5 s, drawn once a page, so that the pages at a table do not all ask at once.
  var GRACE_MS = 3000 + Math.floor(Math.random() * 2000);
  var stream = null;
  var streaming = false;
  var lastAsked = 0;
  var waiting = null; // a part pushed while a story was told

  function countdownOver(graceMs) {
    return Array.prototype.some.call(document.querySelectorAll("#live [data-until]"), function (el) {
      return el.dataset.secondsLeft !== undefined && Number(el.dataset.until) + graceMs <= Date.now();
    });
  }

  function versionOf(html) {
    var found = /data-version="(\d+)"/.exec(html);
    return found ? Number(found[1]) : NaN;
  }

  function morphPushed(html) {
    var table = document.getElementById("live");
    if (!table || !(versionOf(html) > Number(table.dataset.version))) {
      return;
    }
    if (table.dataset.telling !== undefined) {
      if (waiting === null) {
        setTimeout(function () {
          var later = waiting;
          waiting = null;
          morphPushed(later);
        }, 250);
      }
      waiting = html;
      return;
    }
    lastAsked = Date.now();
    beforeSwap();
    htmx.swap(table, html, { swapStyle: "morph" }, { contextElement: table });
  }

  function follow() {
    var table = document.getElementById("live");
    var url = table && table.dataset.push;
    if (stream && !url) {
      stream.close();
      stream = null;
      streaming = false;
    }
    if (stream || !url || !window.EventSource) {
      return;
    }
    stream = new EventSource(url + "?version=" + table.dataset.version);
    stream.addEventListener("open", function () {
      streaming = true;
    });
    stream.addEventListener("error", function () {
      streaming = false; // it connects again by itself; the poll runs meanwhile
    });
    stream.addEventListener("part", function (event) {
      morphPushed(event.data);
    });
    stream.addEventListener("table", function (event) {
      var current = document.getElementById("live");
      if (current && Number(event.data) > Number(current.dataset.version)) {
        htmx.trigger(current, "pushed");
      }
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var table = event.detail.elt;
    if (table.id !== "live") {
      return;
    }
    var cause = event.detail.requestConfig.triggeringEvent;
    var pushed = Boolean(cause && cause.type === "pushed");
    if (table.dataset.telling !== undefined) {
      event.preventDefault();
      if (pushed) {
        setTimeout(function () {
          htmx.trigger(table, "pushed"); // once the story is told
        }, 250);
      }
      return;
    }
    var overdue = countdownOver(GRACE_MS) && Date.now() - lastAsked >= GRACE_MS;
    if (!pushed && streaming && !overdue && Date.now() - lastAsked < SAFETY_MS) {
      event.preventDefault();
      return;
    }
    lastAsked = Date.now();
  });

  // A poll sent before one's own action may come back after it with an older table: it is
  // not swapped in. hx-sync could abort such a poll only by making the table the sync point
  // of every form in it, and then one's own actions wait on each other: a second click while
  // the first is in flight (a bet on each of two seats) is dropped, or queued and lost with
  // the form that the first answer swapped away.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var table = document.getElementById("live");
    var tag = event.detail.xhr.getResponseHeader("ETag");
    if (!table || event.detail.target !== table || event.detail.requestConfig.verb !== "get") {
      return;
    }
    var version = tag ? Number(tag.replace(/^(W\/)?"/, "").split("-")[0]) : NaN;
    if (version < Number(table.dataset.version)) {
      event.detail.shouldSwap = false;
    }
  });

  // A control that a swap took away (a play made, a bet placed, a hand auto-played by a
  // poll) leaves the focus on the table's stage, not at the top of the page; a control htmx
  // found again by its id (the next Hit) keeps it, and a swap leaves focus outside the table
  // alone. Only the page knows which of these happened: an autofocus in the answer would
  // take the focus from a control that stays, and a poll's answer is the same for everyone.
  // When the player's turn comes, the focus goes to their first play (unless it is outside
  // the table, where they are busy with something else).
  var focusWasInTable = false;
  var decided = false;

  function decision() {
    return document.querySelector("#live [data-testid=decision] button");
  }

  function beforeSwap() {
    var table = document.getElementById("live");
    focusWasInTable = Boolean(table && table.contains(document.activeElement));
    decided = Boolean(decision());
  }

  document.addEventListener("htmx:beforeSwap", beforeSwap);

  document.addEventListener("htmx:afterSwap", function () {
    var lost = !document.activeElement || document.activeElement === document.body;
    var play = decision();
    if (play && !decided && (focusWasInTable || lost)) {
      play.focus();
    } else if (focusWasInTable && lost) {
      var stage = document.querySelector("#live [data-testid=stage]");
      if (stage) {
        stage.focus();
      }
    }
    tick();
    follow();
  });

  // The page's live region (base.html) says what the server worded for this viewer
  // ([data-announce]) when it changes, once the story has been told, so that a result is
  // not heard before it is seen. What the page showed when it loaded is not said again.
  var said = null;

  function announce() {
    var table = document.getElementById("live");
    var source = table && table.querySelector("[data-announce]");
    var region = document.getElementById("announcement");
    if (!source || !region) {
      return;
    }
    var text = source.textContent.trim();
    if (said === null || text === said) {
      said = text;
      return;
    }
    if (table.dataset.telling !== undefined) {
      setTimeout(announce, 200);
      return;
    }
    said = text;
    region.textContent = text;
  }

  document.addEventListener("htmx:afterSettle", announce);

  tick();
  announce();
  follow();
  setInterval(tick, 250);
})();
