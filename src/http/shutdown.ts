import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A clean stop of the HTTP server that a stalled client cannot hold up. Node's `server.close()` waits for
 * every open connection, and closes only the idle keep-alive ones itself: a client that had connected and
 * sent nothing, or half its headers, or half its body, kept `cfrules serve` running after SIGTERM for
 * minutes.
 *
 * The connections are followed from the start (`trackConnections` before `listen`): a connection has a
 * request in progress from the moment its headers are complete (Node's `request` event) until its response
 * is sent. On `drain`, every connection without one is closed at once (nothing was taken on there), each
 * other one as soon as its last response is sent, and those still busy after `boundMs` are closed
 * regardless.
 */
export interface ConnectionTracker {
  /**
   * Closes the connections as above; resolves once none is left, with the number of requests that were cut
   * short by the bound (0 when every request in progress was answered).
   */
  drain(boundMs: number): Promise<number>;
}

export function trackConnections(server: Server): ConnectionTracker {
  /** Open connections, with their number of requests in progress. */
  const open = new Map<Socket, number>();
  let draining = false;
  let drained: (() => void) | undefined;

  server.on('connection', (socket: Socket) => {
    if (draining) {
      socket.destroy();
      return;
    }
    open.set(socket, 0);
    socket.once('close', () => {
      open.delete(socket);
      if (draining && open.size === 0) drained?.();
    });
  });
  server.on('request', (request, response) => {
    const socket: Socket = request.socket;
    if (!open.has(socket)) return;
    open.set(socket, (open.get(socket) as number) + 1);
    let done = false;
    const finished = () => {
      if (done || !open.has(socket)) return;
      done = true;
      const left = (open.get(socket) as number) - 1;
      open.set(socket, left);
      // While draining, a connection closes once its last request is answered.
      if (draining && left === 0) socket.end();
    };
    response.once('finish', finished);
    response.once('close', finished);
  });

  return {
    drain(boundMs) {
      draining = true;
      for (const [socket, requests] of open) if (requests === 0) socket.destroy();
      return new Promise((resolve) => {
        const bound = setTimeout(() => {
          drained = undefined;
          let cut = 0;
          for (const [socket, requests] of open) {
            cut += requests;
            socket.destroy();
          }
          resolve(cut);
        }, boundMs);
        drained = () => {
          clearTimeout(bound);
          resolve(0);
        };
        // Destroyed sockets report their close asynchronously; there may be none to wait for at all.
        if (open.size === 0) drained();
      });
    },
  };
}
