// Webhook peers for tests, on this machine: a free port, a target that never answers, one whose
// reply never ends, raw requests that carry bytes an HTTP client would not send, and a way to run
// the garbage collector while a time limit should be counting (on Node 20 a timer that nothing
// else references is lost at a collection).
import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { afterEach } from 'vitest';

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let gcFunction: (() => void) | undefined;
/** The garbage collector, as `node --expose-gc` gives it, whatever flags the test runs with. */
export function collectGarbage(): void {
  if (!gcFunction) {
    setFlagsFromString('--expose-gc');
    gcFunction = runInNewContext('gc') as () => void;
  }
  gcFunction();
}

/** Runs a full collection every `ms` until stopped: what a long-running svc meets now and then. */
export function collectingGarbage(ms = 20): { stop: () => void } {
  const timer = setInterval(collectGarbage, ms);
  return { stop: () => clearInterval(timer) };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** A server on a free loopback port (or on `port`), closed (connections too) after the test. */
export async function peer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  port = 0,
): Promise<{ url: string; server: Server }> {
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, server };
}

/**
 * Ports the global fetch refuses ("bad port", from the fetch standard's list) and node:http does
 * not.
 */
const PORTS_FETCH_REFUSES = [6000, 6665, 6666, 6667, 6668, 6669, 6697, 10080];

/**
 * A server as `peer` makes one, on the first free port of those the global fetch refuses to reach.
 */
export async function peerOnPortFetchRefuses(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  for (const port of PORTS_FETCH_REFUSES) {
    try {
      return await peer(handle, port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error(
    `every port the global fetch refuses is in use on this machine (${PORTS_FETCH_REFUSES.join(', ')})`,
  );
}

/** A target that takes the request and never answers. */
export function silentTarget(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  return peer((req) => {
    requests++;
    req.resume();
  }).then(({ url }) => ({ url, requests: () => requests }));
}

/**
 * A target that answers `status` and then sends a body without end, as fast as it is read. For the
 * machine's sake it stops sending after `safetyBytes` (keeping the connection open): a client that
 * reads replies whole still never gets to the end.
 */
export async function endlessTarget(
  status: number,
  safetyBytes = 64 * 1024 * 1024,
): Promise<{ url: string; sent: () => number; closed: Promise<void> }> {
  let sent = 0;
  let closed!: () => void;
  const whenClosed = new Promise<void>((resolve) => (closed = resolve));
  const chunk = Buffer.alloc(64 * 1024, 'x\u001b[2J');
  const { url } = await peer((req, res) => {
    req.resume();
    res.writeHead(status, { 'Content-Type': 'text/plain' });
    res.on('close', closed);
    const pump = () => {
      while (!res.destroyed && sent < safetyBytes) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  return { url, sent: () => sent, closed: whenClosed };
}

/**
 * Sends bytes as they are (a header with C1 bytes, say) and resolves with the status line's code.
 */
export function rawRequest(port: number, text: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let reply = '';
    socket.setEncoding('latin1').on('data', (data: string) => (reply += data));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

/** POSTs a delivery; resolves with the status answered. */
export function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } },
      (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Waits (at most `ms`) until something listens on the port. */
export async function listeningOn(port: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on port ${port} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves with `value` after `ms`, unreferenced: a bound a test races its subject against. */
export function after<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}
