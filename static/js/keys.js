// Keyboard play for drills and the practice table (any [data-keys] region): a letter
// presses the button that carries it in data-key, Enter or Space presses the [data-next]
// button ("Next hand", "Deal"). The buttons work without this script.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea")) return;
  let button = null;
  if (event.key === "Enter" || event.key === " ") {
    button = document.querySelector("[data-keys] [data-next]");
  } else {
    button = document.querySelector(`[data-keys] [data-key="${CSS.escape(event.key.toLowerCase())}"]`);
  }
  if (button) {
    event.preventDefault();
    button.click();
  }
});

// After an answer or a new deal, keep the keyboard on the next step.
document.addEventListener("htmx:afterSwap", () => {
  document.querySelector("[data-keys] [data-next]")?.focus();
});
