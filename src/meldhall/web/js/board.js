// The table both pages share (the solo page, table.js, and the online page, online.js): the
// game's renderer (games/<id>.js) and its context, the moves in words, refused moves, the
// end-of-hand screen, the match result with the fairness proof, and the toolbar. Each page
// brings its own connection and session; this module only turns server messages into the
// table and the person's clicks into `act` messages.
import { gameKey, gameList, languageSelect } from './page.js';
import { t, el, fmt } from './i18n.js';
import { applyDisplay } from './settings.js';
import { button, dialog, closeDialog, toast, scoreTable } from './ui/parts.js';
import { setStatus } from './ui/okeyparts.js';
import { History } from './history.js';
import { play } from './sounds.js';
import { cheer, follow } from './motion.js';
import { hintButton } from './hint.js';

const PLACES = { 1: ['bottom'], 2: ['bottom', 'top'], 3: ['bottom', 'right', 'left'], 4: ['bottom', 'right', 'top', 'left'] };

/**
 * Return the table of a game drawn on the page's #board, fed with the server's messages.
 *
 * `send(message)` sends a client message; `nameOf(seat, ctx)` returns the {key, vars} of a
 * seat's name (default: "You" and "Computer n"); `onRender()` runs after every drawing.
 */
export async function openTable({ gameId, settings, send, nameOf, onRender }) {
  applyDisplay(document.getElementById('felt'), settings);
  const [{ createView }, games] = await Promise.all([import(`./games/${gameId}.js`), gameList().catch(() => [])]);
  let pending = [];
  let weighing = [];
  let shownHand = null;
  const ctx = {
    gameId,
    /** The fewest pieces of a meld, as the game declares it (/api/games). */
    minMeld: games.find((g) => g.id === gameId)?.min_meld || 0,
    settings,
    board: document.getElementById('board'),
    status: document.getElementById('status'),
    matchId: null,
    seat: 0,
    seats: 0,
    spectator: false,
    players: [],
    state: null,
    /** Send an action; resolve true once the server applied it, false when it refused. */
    send(action) {
      return about('act', action, pending, false);
    },
    /** Ask what an action would do, without making it (the types the game declares
     * appraisable); resolve with the server's appraisal, or null once the state moved on. */
    appraise(action) {
      return about('appraise', action, weighing, null);
    },
    /** Return the legal action entries (json, text) that match a predicate on the JSON. */
    legal(pred = () => true) {
      return (ctx.state?.legal || []).filter((a) => pred(a.json));
    },
    nameOf(seat) {
      return nameOf ? nameOf(seat, ctx) : soloName(ctx, seat);
    },
    /** Return the place of a seat around the table as seen from the player's own seat. */
    place(seat) {
      const rel = (seat - ctx.seat + ctx.seats) % ctx.seats;
      return (PLACES[ctx.seats] || PLACES[4])[rel];
    },
    toast,
  };
  /** Send a `type` message about an action at the state shown; return a promise kept in
   * `queue` until the server answers (`none` at once for a spectator or before a state). */
  function about(type, action, queue, none) {
    if (!ctx.state || ctx.spectator) return Promise.resolve(none);
    const sid = ctx.state.state_id;
    return new Promise((resolve) => {
      queue.push({ resolve, sid });
      send({ type, state_id: sid, action });
    });
  }
  const view = createView(ctx);
  const history = new History({ nameOf: (s) => ctx.nameOf(s), family: view.family });
  document.getElementById('felt').append(history.panel);

  const table = {
    ctx,
    view,
    /** The match_over message once the match has ended (the page sets it). */
    over: null,

    /** Take a `match` message: who sits where (a spectator's seat is null). */
    match(m) {
      ctx.matchId = m.match;
      ctx.spectator = m.seat === null || m.seat === undefined;
      ctx.seat = ctx.spectator ? 0 : m.seat;
      ctx.seats = m.seats;
      ctx.players = m.players;
      ctx.commitment = m.commitment;
      ctx.contributions = m.contributions;
      table.over = null;
      shownHand = null;
      history.clear();
      document.body.dataset.match = m.match;
      document.body.dataset.seat = ctx.spectator ? '' : String(m.seat);
      document.body.classList.toggle('spectator', ctx.spectator);
      view.reset?.();
      const people = m.players.filter((p) => p.kind === 'person').length;
      if (!ctx.spectator && people === 1 && settings.speed) send({ type: 'pace', pace: settings.speed });
    },

    /** Take a `state` message: draw it, log the moves, show the end of a hand. */
    state(m) {
      ctx.state = m;
      const done = pending.filter((p) => m.state_id > p.sid);
      pending = pending.filter((p) => m.state_id <= p.sid);
      for (const w of weighing.filter((x) => x.sid !== m.state_id)) w.resolve(null);
      weighing = weighing.filter((x) => x.sid === m.state_id);
      const wasMine = document.body.classList.contains('my-turn');
      view.render(m);
      if (ctx.spectator) watchStatus(m);
      document.body.classList.toggle('my-turn', m.legal.length > 0);
      document.body.dataset.stateId = m.state_id;
      document.body.dataset.stateMatch = m.match;
      const me = ctx.spectator ? null : ctx.seat;
      aside(() => history.add(m.events, me));
      aside(() => follow(m.events, me));
      aside(() => sounds(m, wasMine, me));
      onRender?.();
      for (const p of done) p.resolve(true);
      if (m.paused && m.last_hand) showHandOver(m);
      else if (!m.paused && shownHand !== null && !table.over) {
        closeDialog('hand-over');
        shownHand = null;
      }
    },

    /** Take an `appraisal` message: the answer to the oldest question still open. */
    appraisal(m) {
      const i = weighing.findIndex((w) => w.sid === m.state_id);
      if (i >= 0) weighing.splice(i, 1)[0].resolve(m);
    },

    /** Take a `rejected` message: say why in words, settle the refused action. */
    rejected(m) {
      const words = refusalWords(m);
      toast(t(words.key, words.vars), 'bad');
      if (m.engine_code) history.line(words, [], 'refused');
      const p = pending.shift();
      if (p) p.resolve(false);
      if (m.code === 'stale_state') send({ type: 'sync' });
    },

    /** Return the parts of the match-over screen: the last hand, the places, the proof. */
    resultParts(m) {
      const outcome = m.outcome;
      const final = el('table', { cls: 'final' });
      final.append(el('tr', {}, el('th', { key: 'over.place' }), el('th', { key: 'over.player' }), el('th', { key: 'over.score' })));
      const order = outcome.scores.map((s, i) => i).sort((a, b) => outcome.ranks[a] - outcome.ranks[b]);
      for (const s of order) {
        const n = ctx.nameOf(s);
        const mine = s === ctx.seat && !ctx.spectator;
        final.append(el('tr', { cls: mine ? 'me' : '' }, el('td', { raw: outcome.ranks[s] }), el('td', { key: n.key, vars: n.vars }), el('td', { raw: fmt(outcome.scores[s]) })));
      }
      const parts = [];
      const last = ctx.state?.last_hand;
      if (last) parts.push(el('details', { cls: 'last-hand', attrs: { open: '' } }, el('summary', { key: 'over.last_hand' }), view.handOver(last, ctx.state.observation)));
      parts.push(final, table.fairness(m));
      return parts;
    },

    /** Return the fairness box: the commitment, the seed texts and, once over, the secret. */
    fairness(m) {
      const box = el('div', { cls: 'fair' });
      box.append(el('div', {}, el('span', { key: 'fair.commitment' }), el('code', { cls: 'hash', raw: ctx.commitment })));
      box.append(el('div', {}, el('span', { key: 'fair.seed_text' }), el('code', { raw: (ctx.contributions || []).join(' · ') })));
      if (m) {
        box.append(el('div', {}, el('span', { key: 'fair.secret' }), el('code', { cls: 'hash', raw: m.secret, attrs: { id: 'revealed-secret' } })));
        box.append(el('a', { key: 'fair.verify', attrs: { href: `/verify/${ctx.matchId}`, target: '_blank', id: 'verify-link' } }));
        box.append(el('a', { key: 'replay.open', attrs: { href: `/replay/${ctx.matchId}`, target: '_blank', id: 'replay-link' } }));
      } else {
        box.append(el('p', { cls: 'hint', key: 'fair.explain' }));
      }
      return box;
    },

    /** Fill the toolbar: title, status, `before` parts, the move log, scores, rules, `tools`.
     * `scores()` returns the score dialog's body (default: the game's own score table). */
    toolbar({ before = [], tools = [], scores, hints = true } = {}) {
      const bar = document.getElementById('toolbar');
      const open = button('ui.scores', () => {
        if (!ctx.state) return;
        dialog({ titleKey: 'ui.scores', body: scores ? scores() : ownScores(), id: 'scores' });
      }, { attrs: { id: 'scores-button' } });
      const rules = el('a', { key: 'ui.rules', cls: 'button', attrs: { href: `/rules/${gameId}`, target: '_blank' } });
      bar.append(el('h1', { key: gameKey(gameId) }), ctx.status, ...before,
        history.strip, el('div', { cls: 'tools' }, open, rules, ...(hints ? [hintButton(ctx)].filter(Boolean) : []), ...tools, languageSelect(settings, 'table-lang', 'lang-select')));
    },
  };

  function ownScores() {
    const s = view.scores(ctx.state.observation);
    return s.dom || scoreTable({ seats: ctx.seats, nameOf: ctx.nameOf, ...s });
  }

  /** Play the person's sounds: their turn begins, a claim is offered, they won. */
  function sounds(m, wasMine, me) {
    if (me === null) return;
    if (m.events.some((e) => wonBy(e) === me)) {
      play('win', settings);
      cheer(document.querySelector('.area-bottom'));
    } else if (m.legal.some((a) => a.json.type === 'pass')) play('claim', settings);
    else if (m.legal.length && !wasMine) play('turn', settings);
  }

  /** Say whose turn it is to a spectator (the game's own status line speaks to a seat). */
  function watchStatus(m) {
    if (m.observation.over) return setStatus(ctx, 'status.over');
    const names = m.to_act.map((s) => t(ctx.nameOf(s).key, ctx.nameOf(s).vars)).join(', ');
    setStatus(ctx, 'status.wait', { name: names });
  }

  function showHandOver(m) {
    const tag = JSON.stringify(m.last_hand);
    if (shownHand === tag || table.over) return;
    shownHand = tag;
    const next = button('hand.next', () => {
      closeDialog('hand-over');
      send({ type: 'continue' });
    }, { cls: 'primary', attrs: { id: 'next-hand' } });
    const buttons = ctx.spectator ? [] : [next];
    dialog({ titleKey: 'hand.over', body: view.handOver(m.last_hand, m.observation), buttons, closable: ctx.spectator, id: 'hand-over', cls: 'wide' });
  }

  return table;
}

/** Run a part of the table that only accompanies a state (history, animation, sound): an
 * error in it is reported, and never keeps the state itself from the page. */
function aside(part) {
  try {
    part();
  } catch (e) {
    setTimeout(() => { throw e; });
  }
}

/** Return the solo name of a seat: "You", or "Computer n" counting the computer seats. */
function soloName(ctx, seat) {
  if (seat === ctx.seat) return { key: 'seat.you', vars: {} };
  const bots = ctx.players.map((p, i) => (p.kind === 'bot' ? i : -1)).filter((i) => i >= 0);
  return { key: 'seat.bot', vars: { n: bots.indexOf(seat) + 1 } };
}

/** Return the words of a refusal as {key, vars}: the engine's numbers where it gave them
 * ("Opening worth 15 of 30"), else its reason code in words, else the protocol's. */
export function refusalWords(m) {
  const detail = `detail.${m.engine_code}`;
  if (m.engine_code && m.details && t(detail) !== detail) return { key: detail, vars: m.details };
  const code = `code.${m.engine_code}`;
  if (m.engine_code && t(code) !== code) return { key: code, vars: {} };
  return { key: `reject.${m.code}`, vars: {} };
}

/** Return the seat an event says won, or null. */
function wonBy(e) {
  if (e.kind === 'win') return e.seat ?? null;
  if (e.kind !== 'hand_over') return null;
  return e.winner ?? e.went_out ?? e.closer ?? null;
}
