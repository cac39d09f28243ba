// The WebSocket to the server (docs/protocol.md): hello with the session token, then the
// table's messages; reconnects by itself and says hello again. The token comes from
// `options.token()` (default: the solo token kept in localStorage); the online page says hello
// without one, so that the server takes its guest session from the HttpOnly cookie.
export class Net {
  constructor(onMessage, onStatus, options = {}) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.token = options.token || (() => localStorage.getItem('meldhall.token'));
    this.queue = [];
    this.retry = 500;
    this.open();
  }

  open() {
    const early = adopt();
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.ws = early ? early.ws : new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws.onopen = () => {
      this.retry = 500;
      this.onStatus?.('open');
      // connect.js's socket said hello in its handshake
      if (!early) this.send({ type: 'hello', token: this.token() });
      for (const m of this.queue.splice(0)) this.send(m);
    };
    this.ws.onmessage = (e) => this.onMessage(JSON.parse(e.data));
    if (early && this.ws.readyState === WebSocket.OPEN) {
      // connect.js's socket is open: take what the server answered meanwhile
      this.onStatus?.('open');
      for (const m of this.queue.splice(0)) this.send(m);
      for (const data of early.messages.splice(0)) this.onMessage(JSON.parse(data));
    }
    this.ws.onclose = () => {
      this.onStatus?.('closed');
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  send(message) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
    else if (message.type !== 'hello') this.queue.push(message);
  }
}

/** Return the socket connect.js opened for this page, once, while it is still open or
 * opening (null otherwise: the caller opens its own). */
function adopt() {
  const early = globalThis.meldhallEarlySocket;
  globalThis.meldhallEarlySocket = null; // taken, or too late: connect.js opens none now
  if (!early || early.ws.readyState > WebSocket.OPEN) return null;
  early.adopted = true;
  return early;
}
