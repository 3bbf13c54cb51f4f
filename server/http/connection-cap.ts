import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * At most `max` open connections to `server`. Past it, the connection idle longest is closed to make
 * room (one that has sent no complete request yet, or a kept-alive one between requests), as nginx
 * reuses idle connections when it runs out: so sockets that only hold a connection open (a slow or
 * idle client, an attack that opens hundreds) never keep a real request out. Only when every
 * connection is answering a request is the new one refused (closed at once). Slow clients are also
 * cut by the server's headersTimeout and requestTimeout.
 */
export function capConnections(server: Server, max: number): void {
  /** Open connections with no request in progress, longest idle first (a Map keeps insertion order). */
  const idle = new Map<Socket, true>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    open++;
    idle.set(socket, true);
    socket.once('close', () => {
      open--;
      idle.delete(socket);
    });
    if (open <= max) return;
    const [longest] = idle.keys();
    (longest ?? socket).destroy();
  });
  server.on('request', (request, response) => {
    const socket: Socket = request.socket;
    idle.delete(socket);
    // Idle again once answered, unless it was closed: now the newest idle one.
    response.once('finish', () => !socket.destroyed && idle.set(socket, true));
  });
}
