// Short animations of the other players' moves, so that a person can follow the computers:
// a discarded piece slides from its seat to where it landed, a seat that drew pulses.
// Nothing moves when the browser asks for reduced motion.
const DISCARDS = new Set(['discard']);
const DRAWS = new Set(['draw', 'draw_stock', 'take_discard', 'draw_discard']);
const SLIDE_MS = 380;

/** Return whether the person asked the browser for reduced motion. */
export function reducedMotion() {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

let queued = null;

/** Animate, at the next frame, the moves of `events` made by seats other than `me` (already
 * drawn on the board). States that arrive faster than frames are drawn without animation:
 * only the latest batch moves, so that a backlog of states costs one layout per frame. */
export function follow(events, me) {
  if (reducedMotion()) return;
  const first = queued === null;
  queued = { events, me };
  if (first) requestAnimationFrame(() => {
    const batch = queued;
    queued = null;
    animate(batch.events, batch.me);
  });
}

/** Animate the moves of `events` by seats other than `me`; return how many were animated. */
function animate(events, me) {
  let shown = 0;
  for (const e of events) {
    const seat = e.seat ?? null;
    if (seat === null || seat === me) continue;
    const panel = document.querySelector(`#board .seat-panel[data-seat="${seat}"]`);
    if (!panel) continue;
    if (DRAWS.has(e.kind)) shown += pulse(panel);
    else if (DISCARDS.has(e.kind) && typeof (e.tile ?? e.card) === 'string') shown += slide(panel, e.tile ?? e.card);
  }
  return shown;
}

/** Make a seat's panel pulse once; return 1. */
function pulse(panel) {
  panel.classList.remove('moved');
  void panel.offsetWidth; // restart the animation
  panel.classList.add('moved');
  return 1;
}

/** Slide the piece `token` (outside any rack) from the panel to its place; return 1 when
 * such a piece is on the board. */
function slide(panel, token) {
  const pieces = [...document.querySelectorAll(`#board .piece[data-token="${CSS.escape(token)}"]`)].filter((p) => !p.closest('.rack'));
  const piece = pieces[pieces.length - 1];
  if (!piece?.animate) return 0;
  const from = panel.getBoundingClientRect();
  const to = piece.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  piece.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.8)`, opacity: 0.4 }, { transform: 'none', opacity: 1 }], { duration: SLIDE_MS, easing: 'ease-out' });
  return 1;
}

/** Let an area glow briefly (the person won). */
export function cheer(area) {
  if (!area || reducedMotion()) return;
  area.animate?.([{ filter: 'drop-shadow(0 0 0 #f2c200)' }, { filter: 'drop-shadow(0 0 18px #f2c200)' }, { filter: 'none' }], { duration: 900 });
}
