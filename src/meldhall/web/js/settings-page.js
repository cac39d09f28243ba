// The settings page: language, the display sliders (seed 002), sound and computer speed,
// kept in the browser; the sliders show live on a small table sample.
import { boot, LANG_NAMES } from './page.js';
import { el, LANGUAGES } from './i18n.js';
import { saveSettings, applyDisplay, DEFAULTS, SPEEDS } from './settings.js';
import { play } from './sounds.js';
import { pieceEl } from './ui/tiles.js';

const settings = await boot('settings');
const page = document.getElementById('page');
const form = el('form', { cls: 'settings-form', attrs: { id: 'settings' } });
const sample = el('div', { cls: 'felt sample', attrs: { id: 'settings-sample', style: 'height:120px;border-radius:12px;display:flex;gap:6px;align-items:center;justify-content:center;position:relative' } },
  ...['R7a', 'K7a', 'Y7a', 'B7a', 'Ja'].map((t) => pieceEl('okey', t)), el('div', { cls: 'grain' }));
sample.style.setProperty('--tw', '44px');

const lang = el('select', { attrs: { id: 'set-lang', name: 'lang' } });
for (const code of LANGUAGES) {
  const o = el('option', { raw: LANG_NAMES[code], attrs: { value: code } });
  if (code === settings.lang) o.selected = true;
  lang.append(o);
}
lang.addEventListener('change', () => {
  settings.lang = lang.value;
  saveSettings(settings);
  location.reload();
});
form.append(el('label', { key: 'settings.language', attrs: { for: 'set-lang' } }), lang, el('span'));

for (const name of ['contrast', 'grain', 'temperature']) {
  const input = el('input', { attrs: { type: 'range', min: '0', max: '100', step: '1', id: `set-${name}`, name } });
  input.value = settings[name];
  const out = el('output', { raw: `${settings[name]} %`, attrs: { for: `set-${name}` } });
  input.addEventListener('input', () => {
    settings[name] = Number(input.value);
    out.textContent = `${settings[name]} %`;
    saveSettings(settings);
    applyDisplay(sample, settings);
    applyDisplay(document.body, settings);
  });
  form.append(el('label', { key: `settings.${name}`, attrs: { for: `set-${name}` } }), input, out);
}
for (const name of ['marks', 'letters', 'confirm', 'sound', 'hints', 'chat']) {
  const box = el('input', { attrs: { type: 'checkbox', id: `set-${name}`, name } });
  box.checked = settings[name];
  box.addEventListener('change', () => {
    settings[name] = box.checked;
    saveSettings(settings);
    applyDisplay(document.body, settings);
    if (name === 'sound') play('turn', settings);
  });
  let control = box;
  if (name === 'sound') {
    const test = el('button', { key: 'settings.sound_test', attrs: { type: 'button', id: 'sound-test' } });
    test.addEventListener('click', () => play('win', { sound: true }));
    control = el('span', { cls: 'with-button' }, box, test);
  }
  form.append(el('label', { key: `settings.${name}`, attrs: { for: `set-${name}` } }), control, el('span'));
}
const speed = el('select', { attrs: { id: 'set-speed', name: 'speed' } });
for (const pace of SPEEDS) {
  const o = el('option', { key: `settings.speed_${pace}`, attrs: { value: pace } });
  if (pace === settings.speed) o.selected = true;
  speed.append(o);
}
speed.addEventListener('change', () => {
  settings.speed = speed.value;
  saveSettings(settings);
});
form.append(el('label', { key: 'settings.speed', attrs: { for: 'set-speed' } }), speed, el('span'));
const reset = el('button', { key: 'settings.reset', attrs: { type: 'button', id: 'set-reset' } });
reset.addEventListener('click', () => {
  Object.assign(settings, { ...DEFAULTS, lang: settings.lang });
  saveSettings(settings);
  location.reload();
});
applyDisplay(sample, settings);
page.replaceChildren(el('h1', { key: 'settings.title' }), el('p', { key: 'settings.lead' }), form, sample, reset);
