([w, h, areas]) => {
  const problems = [];
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const name = (e) => e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`;
  const outside = (r) => r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1;
  const round = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round);
  const scrolls = (e) => /auto|scroll/.test(getComputedStyle(e).overflow);
  const seen = (e) => {
    // the part of an element not scrolled away inside the scrolling boxes around it
    let r = e.getBoundingClientRect();
    r = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
      if (!scrolls(up)) continue;
      const c = up.getBoundingClientRect();
      r = { left: Math.max(r.left, c.left), top: Math.max(r.top, c.top), right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom) };
    }
    return r.right - r.left > 0 && r.bottom - r.top > 0 ? r : null;
  };
  for (const e of document.querySelectorAll('#toolbar *, #board *')) {
    if (!shown(e)) continue;
    const r = seen(e);
    if (r && outside(r)) problems.push(`outside: ${name(e)} ${round(r)}`);
  }
  const root = document.scrollingElement;
  if (root.scrollWidth > w || root.scrollHeight > h) problems.push(`scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
  const union = (area) => {
    const boxes = [...area.querySelectorAll('*')].filter(shown).map(seen).filter(Boolean);
    if (!boxes.length) return null;
    return { l: Math.min(...boxes.map((r) => r.left)), t: Math.min(...boxes.map((r) => r.top)),
      r: Math.max(...boxes.map((r) => r.right)), b: Math.max(...boxes.map((r) => r.bottom)) };
  };
  const seats = areas.map((sel) => [sel, document.querySelector(sel)]).filter(([, e]) => e && shown(e)).map(([sel, e]) => [sel, union(e)]).filter(([, u]) => u);
  for (let i = 0; i < seats.length; i++) {
    for (let j = i + 1; j < seats.length; j++) {
      const [a, p] = seats[i];
      const [b, q] = seats[j];
      const x = Math.min(p.r, q.r) - Math.max(p.l, q.l);
      const y = Math.min(p.b, q.b) - Math.max(p.t, q.t);
      if (x > 1 && y > 1) problems.push(`overlap: ${a} and ${b} (${Math.round(x)}x${Math.round(y)})`);
    }
  }
  const status = document.getElementById('status');
  const s = status.getBoundingClientRect();
  if (!shown(status) || !status.textContent.trim() || !s.width) problems.push('status: not shown');
  else if (outside(s)) problems.push(`status: outside ${round(s)}`);
  else if (status.scrollWidth > status.clientWidth + 1 || status.scrollHeight > status.clientHeight + 1) problems.push('status: cut');
  const primary = document.querySelector('.dialog .dialog-buttons .primary');
  if (primary) {
    const r = primary.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (outside(r) || !r.width) problems.push(`primary button: outside ${round(r)}`);
    else if (!hit || !primary.contains(hit)) problems.push(`primary button: covered by ${hit && name(hit)}`);
  }
  return problems;
}
