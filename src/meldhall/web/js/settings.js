// Display settings kept in the browser (seed 002): language, contrast, grain and colour
// temperature (0-100 %, 50 % neutral), tile marks, confirm discards, sound, computer speed,
// whether online tables show their chat.
const KEY = 'meldhall.settings';
export const DEFAULTS = { lang: '', contrast: 50, grain: 50, temperature: 50, marks: true, letters: false, confirm: true, sound: false, hints: true, chat: true, speed: 'normal' };
export const SPEEDS = ['slow', 'normal', 'fast'];
const WARM = '255 140 30';
const COLD = '40 120 255';

/** Return the saved settings merged over the defaults (language from the browser at first). */
export function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || '{}');
  } catch {
    saved = {};
  }
  const s = { ...DEFAULTS, ...saved };
  if (!s.lang) s.lang = (navigator.language || 'en').slice(0, 2);
  return s;
}

export function saveSettings(s) {
  localStorage.setItem(KEY, JSON.stringify(s));
}

/** Return the display of settings `s` as CSS values: `filter` (contrast with saturation
 * alongside; a sepia on the warm side), `tint` and `tintAlpha` (an orange or a blue wash:
 * warm above 50 %, cold below) and `grain` (the noise overlay's opacity). Every step of each
 * slider changes them, on both sides of 50 %. */
export function displayValues(s) {
  const c = (s.contrast - 50) / 50; // -1 .. +1
  const warm = (s.temperature - 50) / 50; // -1 cold .. +1 warm
  const contrast = 1 + c * 0.5;
  const saturate = 1 + c * 0.5;
  const sepia = Math.max(0, warm) * 0.45;
  return {
    filter: `contrast(${contrast.toFixed(2)}) sepia(${sepia.toFixed(2)}) saturate(${saturate.toFixed(2)})`,
    tint: warm < 0 ? COLD : WARM,
    tintAlpha: (Math.abs(warm) * 0.42).toFixed(3),
    grain: (s.grain / 100 * 0.9).toFixed(3),
  };
}

/** Apply contrast, colour temperature and grain to an element (the table or the page). */
export function applyDisplay(target, s) {
  const v = displayValues(s);
  target.style.setProperty('--filter', v.filter);
  target.style.setProperty('--grain', v.grain);
  target.style.setProperty('--tint', v.tint);
  target.style.setProperty('--tint-alpha', v.tintAlpha);
  document.body.classList.toggle('no-marks', !s.marks);
  document.body.classList.toggle('colour-letters', Boolean(s.letters));
}
