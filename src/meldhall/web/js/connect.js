// The solo table's WebSocket, opened as soon as the page's head is read: the server carries
// this script inside the page (server/static.py, allowed by its hash). It says hello in the
// handshake itself (the `meldhall.hello` subprotocol, the token in `meldhall.token.<token>`:
// a header, never in a URL or a log), so the server's welcome comes right after the socket
// opens, while the styles and the table's script are on their way. net.js adopts the socket
// and the messages that came before it (`adopt`); without this script, or when its socket
// failed, it opens its own. A classic script, not a module: it runs before any file arrives.
if (globalThis.meldhallEarlySocket === undefined) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const token = localStorage.getItem('meldhall.token');
  const protocols = ['meldhall.hello'];
  if (token && /^[\w-]{1,64}$/.test(token)) protocols.push(`meldhall.token.${token}`);
  const early = { ws: new WebSocket(`${scheme}://${location.host}/ws`, protocols), messages: [], adopted: false };
  early.ws.addEventListener('message', (e) => {
    if (!early.adopted) early.messages.push(e.data);
  });
  globalThis.meldhallEarlySocket = early;
}
