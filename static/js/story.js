// A round told in order ([data-story] regions): what a response adds appears step by step
// as its log tells it — each [data-step] element at its step, and each [data-before]
// element shows its old text (in its <strong>, if it has one) until its [data-until] step:
// the result and the new balance come when the story reaches them. While a story is
// being told its region is marked [data-telling]. With reduced motion, or without this
// script, everything shows at once.
//
// At the practice table the server numbers the steps from the first line new to the
// request. A live table's page is polled, and one answer serves every viewer: its steps
// are the lines' own numbers in the round's story ([data-story-round], told up to
// [data-story-lines]), and the lines this page showed before are taken off here. A page
// just loaded shows the table as it stands.
//
// Why a script: htmx swaps a response in at once (its swap and settle delays hold back the
// whole of it, not its parts one after another), and which lines a live table's page has
// shown already only that page knows.

// The pause between two steps, shortened so that no story takes longer than LONGEST_MS.
const PACE_MS = 350;
const LONGEST_MS = 6000;
// What each live region showed last: its round and how many of its lines.
const shownBefore = new Map();

function stepOf(element, name) {
  return Number(element.dataset[name]);
}

function rebase(region) {
  const round = region.dataset.storyRound;
  const lines = Number(region.dataset.storyLines);
  const last = shownBefore.get(region.id);
  shownBefore.set(region.id, { round, lines });
  let start = lines;
  if (last !== undefined) start = last.round === round ? Math.min(last.lines, lines) : 0;
  for (const element of region.querySelectorAll("[data-step]")) {
    const step = stepOf(element, "step") - start;
    if (step < 0) delete element.dataset.step;
    else element.dataset.step = String(step);
  }
  for (const element of region.querySelectorAll("[data-until]")) {
    element.dataset.until = String(Math.max(0, stepOf(element, "until") - start));
  }
}

// Each telling's number: a live table's region is morphed in place (static/js/live.js), so
// a telling's later steps must not write into the elements a newer answer has changed.
let tellings = 0;

function tell(region) {
  const telling = String(++tellings);
  const current = () => region.dataset.told === telling;
  region.dataset.told = telling;
  if (region.dataset.storyLines !== undefined) rebase(region);
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const later = [...region.querySelectorAll("[data-step]")].filter((el) => stepOf(el, "step") > 0);
  const changing = [...region.querySelectorAll("[data-before][data-until]")];
  const last = Math.max(0, ...later.map((el) => stepOf(el, "step")),
    ...changing.map((el) => stepOf(el, "until")));
  if (last === 0) return;
  const pace = Math.min(PACE_MS, LONGEST_MS / last);
  region.dataset.telling = "";
  setTimeout(() => {
    if (current()) delete region.dataset.telling;
  }, last * pace);
  for (const element of later) {
    element.classList.add("story-later");
    setTimeout(() => {
      if (!current()) return;
      element.classList.remove("story-later");
      element.classList.add("story-now");
      // htmx could not focus an [autofocus] the story still hid (the field of a count the
      // table asks for once the round is told): the focus fell to the page; give it now.
      const wanted = element.matches("[autofocus]") ? element : element.querySelector("[autofocus]");
      if (wanted && document.activeElement === document.body) wanted.focus();
    }, stepOf(element, "step") * pace);
  }
  for (const element of changing) {
    const target = element.querySelector("strong") ?? element;
    const after = target.textContent;
    target.textContent = element.dataset.before;
    setTimeout(() => {
      if (current()) target.textContent = after;
    }, stepOf(element, "until") * pace);
  }
}

function tellNew() {
  document.querySelectorAll("[data-story]:not([data-told])").forEach(tell);
}

document.addEventListener("DOMContentLoaded", tellNew);
document.addEventListener("htmx:afterSwap", tellNew);
