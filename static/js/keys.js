// Keyboard play for drills and the practice table (any [data-keys] region): a letter
// presses the button that carries it in data-key, unless the player turned single letters
// off (data-letter-keys="off"); Enter or Space presses the [data-next] button ("Next hand",
// "Deal"). The buttons work without this script.

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
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

// After a swap the player asked for, or one that took the focus away, the keyboard goes
// where the next move is: the new region's [data-focus] element (the first play of a new
// hand, "Next hand" after an answer), else the place the asking form names in
// data-focus-after (the table's status after a deal or a play), else the [data-next]
// button. A control htmx kept focused (found again by its id, as the options' checkboxes
// are) keeps it; a swap nobody asked for (a timed one) leaves focus elsewhere alone.
let focusWasInTarget = false;
document.addEventListener("htmx:beforeSwap", (event) => {
  focusWasInTarget = event.detail.target?.contains(document.activeElement) ?? false;
});

// Once the swap has settled: a key pressed while the previous swap settled must not leave
// the focus on the body.
document.addEventListener("htmx:afterSettle", (event) => {
  const config = event.detail.requestConfig;
  const named = config?.elt?.closest?.("[data-focus-after]")?.dataset.focusAfter;
  const lost = !document.activeElement || document.activeElement === document.body;
  const asked = config?.triggeringEvent?.type === "submit";
  if (!named && !(lost && (asked || focusWasInTarget))) return;
  const next = document.querySelector("[data-keys] [data-focus]")
    ?? (named && document.getElementById(named))
    ?? document.querySelector("[data-keys] [data-next]");
  next?.focus();
});
