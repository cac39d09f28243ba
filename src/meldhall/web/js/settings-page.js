// The settings page: language and the display sliders (seed 002), kept in the browser and
// shown live on a small table sample.
import { boot, LANG_NAMES } from './page.js';
import { el, LANGUAGES } from './i18n.js';
import { saveSettings, applyDisplay } from './settings.js';
import { pieceEl } from './ui/tiles.js';

const settings = await boot('settings');
const page = document.getElementById('page');
const form = el('form', { cls: 'settings-form', attrs: { id: 'settings' } });
const sample = el('div', { cls: 'felt sample', attrs: { style: 'height:120px;border-radius:12px;display:flex;gap:6px;align-items:center;justify-content:center;position:relative' } },
  ...['R7a', 'K7a', 'Y7a', 'B7a', 'Ja'].map((t) => pieceEl('okey', t)), el('div', { cls: 'grain', attrs: { style: 'position:absolute' } }));
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
for (const name of ['marks', 'letters', 'confirm']) {
  const box = el('input', { attrs: { type: 'checkbox', id: `set-${name}`, name } });
  box.checked = settings[name];
  box.addEventListener('change', () => {
    settings[name] = box.checked;
    saveSettings(settings);
    applyDisplay(document.body, settings);
  });
  form.append(el('label', { key: `settings.${name}`, attrs: { for: `set-${name}` } }), box, el('span'));
}
const reset = el('button', { key: 'settings.reset', attrs: { type: 'button', id: 'set-reset' } });
reset.addEventListener('click', () => {
  Object.assign(settings, { contrast: 50, grain: 50, temperature: 50, marks: true, letters: false, confirm: true });
  saveSettings(settings);
  location.reload();
});
applyDisplay(sample, settings);
page.replaceChildren(el('h1', { key: 'settings.title' }), el('p', { key: 'settings.lead' }), form, el('p'), sample, el('p'), reset);
