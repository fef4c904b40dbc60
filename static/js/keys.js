// Keyboard play for drills and the practice table (any [data-keys] region): a letter
// presses the button that carries it in data-key, Enter or Space presses the [data-next]
// button ("Next hand", "Deal"). The buttons work without this script.

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
    button = document.querySelector(`[data-keys] [data-key="${letter}"]`);
  }
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

// After an answer, a new deal or a chip, keep the keyboard on the next step.
document.addEventListener("htmx:afterSwap", () => {
  document.querySelector("[data-keys] [data-next]")?.focus();
});
