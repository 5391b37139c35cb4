// @ts-check
// One WebSocket to the server that comes back by itself: when it drops, it reconnects with
// exponential backoff and full jitter and says hello again (the `hello` callback sends `join`
// with the seat token or `watch`), so the server answers with a fresh `welcome`, `table` and
// `state`.

/** The first reconnection waits up to this long; each failure doubles it, up to the cap. */
export const BACKOFF_BASE_MS = 500;
/** The longest wait between reconnection attempts. */
export const BACKOFF_CAP_MS = 10000;

/**
 * Delay before reconnect attempt `attempt` (0-based): anywhere in [0, min(cap, base * 2^attempt)]
 * ("full jitter"), so the pages of a restarted server do not all knock at once: up to 0.5 s,
 * 1 s, 2 s, ... up to 10 s.
 * @param {number} attempt
 * @param {() => number} [random] a number in [0, 1), as Math.random
 */
export function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}

/** A self-healing connection to `/ws`. */
export class Connection {
  /**
   * @param {{ hello: () => any, message: (msg: any) => void, status: (up: boolean, wasDown: boolean) => void }} handlers
   *   `hello()` returns the first message to send on every (re)connect;
   *   `message(msg)` gets each server message; `status(up, wasDown)` reports a loss of the
   *   connection and, after `confirmed()`, its return.
   */
  constructor(handlers) {
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.down = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
  }

  /** Opens the socket (again). */
  open() {
    if (this.closed) return;
    const url = new URL('ws', document.baseURI);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      // Not "back" yet: only the server's welcome (see `confirmed`) says the seat is ours again.
      ws.send(JSON.stringify(this.handlers.hello()));
      clearInterval(this.pingTimer);
      // A ping now and then lets the browser notice a dead connection.
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), 20000);
    });
    ws.addEventListener('message', (e) => {
      if (this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.handlers.message(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (this.closed) return;
      if (!this.down) {
        this.down = true;
        this.handlers.status(false, true);
      }
      const delay = backoffDelay(this.attempt);
      this.attempt += 1;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.open(), delay);
    });
  }

  /** The server welcomed us: the connection works, so the backoff starts over. */
  confirmed() {
    this.attempt = 0;
    if (this.down) {
      this.down = false;
      this.handlers.status(true, true);
    }
  }

  /** Sends a message if the socket is open; returns whether it was sent. @param {any} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Closes for good. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
