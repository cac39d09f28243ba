// Verifying a finished match from its log: the browser checks that the revealed secret has
// the commitment shown at the start, then the server replays every logged action from the
// seed and compares the result. A match file chosen from disk is checked the same way.
import { boot, getJSON, gameKey } from './page.js';
import { el, fmt, t } from './i18n.js';

const matchId = decodeURIComponent(location.pathname.split('/')[2] || '');
await boot('records');
const page = document.getElementById('page');
const facts = el('div', { cls: 'facts-list' });
page.replaceChildren(el('h1', { key: 'verify.title' }), el('p', { key: 'verify.lead' }), facts);
const fact = (key, value, attrs = {}) => facts.append(el('span', { key }), el('code', { raw: value, attrs }));

if (matchId) await showProof();
page.append(fileCheck());

/** Show the stored match's proof and verdicts: commitment, seed texts, secret, replay. */
async function showProof() {
  let proof;
  try {
    proof = await getJSON(`/api/matches/${encodeURIComponent(matchId)}`);
  } catch {
    page.append(el('p', { cls: 'verdict bad', key: 'verify.no_match' }));
    return;
  }
  facts.append(el('span', { key: 'records.game' }), el('span', { key: gameKey(proof.game) }));
  fact('fair.commitment', proof.commitment);
  fact('fair.seed_text', proof.contributions.join(' · '));
  if (proof.status !== 'over') {
    page.append(el('p', { cls: 'verdict bad', key: 'verify.not_over' }));
  } else {
    fact('fair.secret', proof.secret);
    facts.append(el('span', { key: 'verify.actions' }), el('span', { raw: fmt(proof.log.length) }));
    const digest = await crypto.subtle.digest('SHA-256', hex(proof.secret));
    const ok = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('') === proof.commitment;
    page.append(el('p', { cls: `verdict ${ok ? 'ok' : 'bad'}`, key: ok ? 'verify.commit_ok' : 'verify.commit_bad', attrs: { id: 'commit-verdict' } }));
    const r = await fetch('/api/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(proof) });
    const v = await r.json();
    page.append(el('p', { cls: `verdict ${v.ok ? 'ok' : 'bad'}`, key: v.ok ? 'verify.replay_ok' : 'verify.replay_bad', attrs: { id: 'replay-verdict' } }));
    if (v.outcome) page.append(el('p', { key: 'verify.scores', vars: { scores: v.outcome.scores.map(fmt).join(' · ') } }));
    page.append(el('a', { key: 'verify.download', cls: 'button', attrs: { href: `/api/matches/${encodeURIComponent(matchId)}/file`, id: 'proof-download' } }));
    page.append(el('a', { key: 'replay.open', cls: 'button', attrs: { href: `/replay/${encodeURIComponent(matchId)}`, id: 'verify-replay' } }));
  }
}

/** Return the box that checks a match file chosen from disk: the server replays it and names
 * the first action that differs from what the file recorded. */
function fileCheck() {
  const input = el('input', { attrs: { type: 'file', accept: 'application/json,.json', id: 'verify-file', 'aria-label': t('verify.file_lead') } });
  const verdict = el('p', { attrs: { id: 'file-verdict', 'aria-live': 'polite' } });
  input.addEventListener('change', async () => {
    const file = input.files[0];
    if (!file) return;
    const r = await fetch('/api/verify-file', { method: 'POST', headers: { 'content-type': 'application/json' }, body: await file.text() });
    const v = await r.json();
    verdict.className = `verdict ${v.ok ? 'ok' : 'bad'}`;
    verdict.replaceChildren(el('span', { key: v.ok ? 'verify.file_ok' : 'verify.file_bad', vars: { problem: v.problem } }));
  });
  const replay = el('a', { key: 'replay.open_file_link', cls: 'button', attrs: { href: '/replay', id: 'replay-a-file' } });
  return el('div', { cls: 'file-check' }, el('label', {}, el('span', { key: 'verify.file_lead' }), input), verdict, replay);
}

function hex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
