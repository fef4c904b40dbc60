// Keyboard answers for drills: a letter presses the action button that carries it in
// data-key, Enter or Space presses "Next hand". The buttons work without this script.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea")) return;
  let button = null;
  if (event.key === "Enter" || event.key === " ") {
    button = document.querySelector("#drill [data-next]");
  } else {
    button = document.querySelector(`#drill [data-key="${CSS.escape(event.key.toLowerCase())}"]`);
  }
  if (button) {
    event.preventDefault();
    button.click();
  }
});

// After an answer or a new deal, keep the keyboard on the drill.
document.addEventListener("htmx:afterSwap", () => {
  document.querySelector("#drill [data-next]")?.focus();
});
