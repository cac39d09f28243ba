// The solo table's WebSocket, opened as soon as the page's head is read: the server carries
// this script inside the page (server/static.py, allowed by its hash), so the hello and the
// server's welcome cross the line while the styles and the table's script are on their way.
// net.js adopts the socket and the messages that came before it (`adopt`); without this
// script it opens its own. A classic script, not a module: it runs before any file arrives.
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
