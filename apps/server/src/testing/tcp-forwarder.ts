import net, { type AddressInfo } from 'node:net';

/**
 * A TCP forwarder on a free port of 127.0.0.1 to the host and port of `url` (a postgres:// URL).
 * The app reserves its own database (createTestApp), so a test that needs "an organization's own
 * PostgreSQL" reaches the test server through this instead, as if it were another server.
 * Returns `url` with its host and port replaced by the forwarder's.
 */
export async function startTcpForwarder(url: string) {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const forwarded = new URL(url);
  forwarded.hostname = '127.0.0.1';
  forwarded.port = String((server.address() as AddressInfo).port);
  return {
    url: forwarded.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
