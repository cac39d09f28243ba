// The solo table's WebSocket, opened as soon as the page arrives (an async module of its own,
// a few hundred bytes), while the table's script is still on its way: the hello and the
// server's welcome cross the line in the meantime. net.js adopts the socket and the messages
// that came before it (`adopt`); without this module it opens its own.
// When the table's script ran first, it has its own socket (it left null here) and this
// module opens none.
if (globalThis.meldhallEarlySocket === undefined) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const early = { ws: new WebSocket(`${scheme}://${location.host}/ws`), messages: [], adopted: false };
  early.ws.addEventListener('open', () => {
    if (!early.adopted) early.ws.send(JSON.stringify({ type: 'hello', token: localStorage.getItem('meldhall.token') }));
  });
  early.ws.addEventListener('message', (e) => {
    if (!early.adopted) early.messages.push(e.data);
  });
  globalThis.meldhallEarlySocket = early;
}
