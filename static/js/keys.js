// Keyboard play for drills and the practice table (any [data-keys] region): a letter
// presses the button that carries it in data-key, unless the player turned single letters
// off (data-letter-keys="off"); Enter or Space presses the [data-next] button ("Next hand",
// "Deal"). The buttons work without this script, and where the focus goes after a swap is
// the server's to say (an autofocus in its answer, which htmx follows).
//
// Why a script: htmx sends a request on an event, but a key pressed anywhere on the page
// choosing one of several buttons needs a filter on the event ("keyup[key=='h'] from:body"),
// which htmx evaluates as a script, and the Content-Security-Policy forbids that; HTML's own
// accesskey needs a modifier key (Alt, Alt+Shift) that differs between browsers.

// Elements that act on Enter or Space themselves: a key aimed at one is left to it.
const ACTS_ON_ENTER = "a[href], button, summary, input, select, textarea, [contenteditable], [role=button]";
// Elements that take typed letters.
const TAKES_LETTERS = "input, select, textarea, [contenteditable]";

// The letter a key stands for. A Latin letter typed counts as itself (so a Dvorak or AZERTY
// typist presses the key printed H); any other character, as on an Arabic layout, counts
// as the letter at that place of a US keyboard (event.code "KeyH").
function letterOf(event) {
  if (/^[a-z]$/i.test(event.key)) return event.key.toLowerCase();
  const match = /^Key([A-Z])$/.exec(event.code);
  return match ? match[1].toLowerCase() : null;
}

function isEnterOrSpace(event) {
  return ["Enter", "NumpadEnter", "Space"].includes(event.code) || event.key === "Enter" || event.key === " ";
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target instanceof Element ? event.target : null;
  let button = null;
  if (isEnterOrSpace(event)) {
    if (target?.closest(ACTS_ON_ENTER)) return;
    button = document.querySelector("[data-keys] [data-next]");
  } else {
    const letter = letterOf(event);
    if (letter === null || target?.closest(TAKES_LETTERS)) return;
    button = document.querySelector(`[data-keys]:not([data-letter-keys="off"]) [data-key="${letter}"]`);
  }
  // A button the story has not reached yet (static/js/story.js) is not there to press.
  if (button && !button.disabled && !button.closest(".story-later")) {
    event.preventDefault();
    button.click();
  }
});
