// The account page: claim this browser's guest as an account (a unique name and a
// password), sign in (on another device: the guest's records and matches follow), sign out,
// change the name, delete the account. Every refusal is shown with its reason's catalog text.
import { boot, postJSON, getJSON, setToken } from './page.js';
import { el, t } from './i18n.js';

await boot('account');
const page = document.getElementById('page');
const me = await getJSON('/api/account');
const error = el('p', { cls: 'verdict bad', attrs: { id: 'account-error', role: 'alert', hidden: '' } });

/** Show a refusal: the catalog's text of its code, else the server's reason. */
function refuse(body) {
  const key = `account.error.${body.error}`;
  const text = t(key);
  error.textContent = text === key ? body.reason || body.error : text;
  error.hidden = false;
}

/** Return a form of labelled fields that posts them to `url` and runs `done` on success. */
function form(id, fields, buttonKey, url, done) {
  const inputs = {};
  const rows = fields.map(([name, key, type]) => {
    const input = el('input', { attrs: { type, id: `${id}-${name}`, name, required: '', autocomplete: type === 'password' ? (id === 'claim' ? 'new-password' : 'current-password') : 'username' } });
    inputs[name] = input;
    return el('label', { cls: 'field' }, el('span', { key }), input);
  });
  const f = el('form', { cls: 'account-form', attrs: { id } }, ...rows, el('button', { cls: 'primary', key: buttonKey, attrs: { type: 'submit', id: `${id}-submit` } }));
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.hidden = true;
    const body = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, v.value]));
    const reply = await postJSON(url, body);
    if (reply.ok) done(reply.body);
    else refuse(reply.body);
  });
  return f;
}

if (me.signed_in) {
  const profile = el('a', { key: 'account.profile', attrs: { href: `/players/${encodeURIComponent(me.name)}`, id: 'my-profile' } });
  const out = el('button', { key: 'account.sign_out', attrs: { type: 'button', id: 'sign-out' } });
  out.addEventListener('click', async () => {
    await postJSON('/api/account/logout', {});
    location.reload();
  });
  page.replaceChildren(
    el('h1', { key: 'account.title' }),
    el('p', { attrs: { id: 'signed-in' } }, el('span', { key: 'account.signed_in_as' }), ' ', el('strong', { raw: me.name })),
    el('p', {}, profile), out, error,
    el('h2', { key: 'account.rename' }),
    form('rename', [['name', 'account.name', 'text']], 'account.rename', '/api/account/name', () => location.reload()),
    el('h2', { key: 'account.delete' }),
    el('p', { cls: 'hint', key: 'account.delete_hint' }),
    form('delete', [['password', 'account.password', 'password']], 'account.delete', '/api/account/delete', () => location.reload()));
} else {
  const signedIn = (body) => {
    if (body.solo_token) setToken(body.solo_token);
    location.reload();
  };
  const claim = form('claim', [['name', 'account.name', 'text'], ['password', 'account.password', 'password']], 'account.claim', '/api/account/claim', signedIn);
  // a claim needs the browser's guest session: make sure its cookie is there first
  await fetch('/api/guest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: '' }) });
  page.replaceChildren(
    el('h1', { key: 'account.title' }),
    el('p', { key: 'account.lead' }), error,
    el('h2', { key: 'account.claim_title' }),
    el('p', { cls: 'hint', key: 'account.claim_hint' }),
    claim,
    el('h2', { key: 'account.sign_in_title' }),
    form('sign-in', [['name', 'account.name', 'text'], ['password', 'account.password', 'password']], 'account.sign_in', '/api/account/login', signedIn));
}
