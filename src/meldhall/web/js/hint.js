// The Hint button: asks the server's strong computer for the best move of the person's seat
// (from that seat's own view only) and shows it on the table: the pieces it names are
// outlined, and a toast says the move with its numbers. The page decides nothing: the move is
// one the server listed.
import { t, fmt } from './i18n.js';
import { button, toast } from './ui/parts.js';

/** Return the Hint button of a table (none when the settings switch hints off). */
export function hintButton(ctx) {
  if (ctx.settings.hints === false) return null;
  return button('hint.ask', () => ask(ctx), { attrs: { id: 'hint-button' } });
}

async function ask(ctx) {
  if (!ctx.state || ctx.spectator || !ctx.state.legal.length) {
    toast(t('hint.not_now'), 'bad');
    return;
  }
  const headers = { 'content-type': 'application/json' };
  const token = localStorage.getItem('meldhall.token');
  if (token) headers['x-meldhall-token'] = token;
  toast(t('hint.thinking'));
  const r = await fetch('/api/hint', { method: 'POST', headers, body: JSON.stringify({ match: ctx.matchId }) });
  const h = await r.json().catch(() => ({}));
  if (!r.ok) {
    toast(h.detail || t('hint.not_now'), 'bad');
    return;
  }
  if (ctx.state.state_id !== h.state_id) return;
  markPieces(h.action);
  const vars = { move: h.text, other: h.alternative || '', margin: h.margin === null ? '' : fmt(Math.round(h.margin * 10) / 10), worlds: fmt(h.worlds) };
  toast(t(h.alternative && h.margin !== null ? 'hint.better' : 'hint.move', vars));
}

/** Outline every piece of the own rack or the table that the hinted action names. */
function markPieces(action) {
  for (const old of document.querySelectorAll('.hinted')) old.classList.remove('hinted');
  const tokens = JSON.stringify(action).match(/"([A-Za-z0-9#]+)"/g) || [];
  for (const quoted of tokens) {
    const tok = quoted.slice(1, -1);
    for (const piece of document.querySelectorAll(`#board [data-token="${CSS.escape(tok)}"]`)) piece.classList.add('hinted');
  }
}
