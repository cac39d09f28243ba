// The parts every page's first screen may need, small enough to come before the rest:
// buttons, keyboard controls, toasts and modal dialogs (the table's seed dialog shows before
// its board is built). ui/parts.js re-exports them for the tables.
import { el } from '../i18n.js';

/** Return a button with a translated label. */
export function button(key, onClick, opts = {}) {
  const b = el('button', { key, vars: opts.vars, cls: opts.cls || '', attrs: { type: 'button', ...(opts.attrs || {}) } });
  b.addEventListener('click', onClick);
  return b;
}

/** Make an element a keyboard control named `label`: role button, in the tab order, Enter and
 * Space click it (its click handler does the action); return the element. */
export function control(node, label) {
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', label);
  node.tabIndex = 0;
  node.addEventListener('keydown', (e) => {
    if (e.target !== node || (e.key !== 'Enter' && e.key !== ' ')) return;
    e.preventDefault();
    node.click();
  });
  return node;
}

let toastTimer = null;
/** Show a short message (a text, or an element from `el` holding names) at the bottom of the screen. */
export function toast(text, kind = '') {
  let box = document.getElementById('toast');
  if (!box) {
    box = el('div', { attrs: { id: 'toast', role: 'status' } });
    document.body.append(box);
  }
  box.className = `show ${kind}`;
  box.replaceChildren(text);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = ''; }, 3200);
}

/** Open a modal dialog over the page, named by its title; focus moves into it and stays
 * there (Tab cycles), Escape closes a closable one, and closing gives focus back to the
 * element that opened it. Return its element (close() removes it). */
export function dialog({ titleKey, titleVars, body, buttons = [], cls = '', closable = true, id = '' }) {
  closeDialog(id || undefined);
  const opener = document.activeElement;
  const titleId = `dialog-title-${++dialogCount}`;
  const box = el('div', { cls: `dialog ${cls}`, attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId } });
  if (id) box.id = id;
  const card = el('div', { cls: 'dialog-card', attrs: { tabindex: '-1' } });
  const head = el('div', { cls: 'dialog-head' }, el('h2', { key: titleKey, vars: titleVars, attrs: { id: titleId } }));
  box.close = () => {
    box.remove();
    if (opener?.isConnected && !document.querySelector('.dialog')) opener.focus?.();
  };
  if (closable) head.append(button('ui.close', () => box.close(), { cls: 'ghost close', attrs: { 'data-close': '' } }));
  card.append(head, el('div', { cls: 'dialog-body' }, ...[].concat(body)));
  if (buttons.length) card.append(el('div', { cls: 'dialog-buttons' }, ...buttons));
  box.append(card);
  box.addEventListener('keydown', (e) => keepFocus(e, box, closable));
  document.body.append(box);
  (card.querySelector('.dialog-buttons button') || card.querySelector('[data-close]') || card).focus({ preventScroll: true });
  return box;
}

let dialogCount = 0;
const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** Keep Tab inside a dialog and close a closable one on Escape. */
function keepFocus(e, box, closable) {
  if (e.key === 'Escape' && closable) {
    e.preventDefault();
    box.close();
    return;
  }
  if (e.key !== 'Tab') return;
  const items = [...box.querySelectorAll(FOCUSABLE)].filter((n) => n.getClientRects().length);
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (e.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/** Close the dialog with this id, or every dialog. */
export function closeDialog(id) {
  for (const d of document.querySelectorAll(id ? `#${id}` : '.dialog')) (d.close || d.remove).call(d);
}
