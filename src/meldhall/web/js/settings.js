// Display settings kept in the browser (seed 002): language, contrast, grain and colour
// temperature (0-100 %, 50 % neutral), tile marks, confirm discards, sound.
const KEY = 'meldhall.settings';
export const DEFAULTS = { lang: '', contrast: 50, grain: 50, temperature: 50, marks: true, letters: false, confirm: true, sound: false };

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

/** Apply contrast, colour temperature and grain to an element (the table or the page). */
export function applyDisplay(target, s) {
  const contrast = 0.5 + s.contrast / 100; // 50 % -> 1.0
  const warm = (s.temperature - 50) / 50; // -1 cold .. +1 warm
  const sepia = Math.max(0, warm) * 0.4;
  target.style.setProperty('--filter', `contrast(${contrast.toFixed(2)}) sepia(${sepia.toFixed(2)})`);
  target.style.setProperty('--grain', (s.grain / 100 * 0.5).toFixed(3));
  target.style.setProperty('--cold', warm < 0 ? (-warm * 0.28).toFixed(3) : '0');
  document.body.classList.toggle('no-marks', !s.marks);
  document.body.classList.toggle('colour-letters', Boolean(s.letters));
}
