import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Where a port for a process the test starts later is chosen: below Linux's ephemeral range
 * (32768–60999, /proc/sys/net/ipv4/ip_local_port_range). Between choosing a port and the child
 * binding it (for `npm start`, a build of several seconds) every `listen(0)` and outgoing
 * connection of the e2e files running in parallel takes ports from the ephemeral range, and one
 * once took the port chosen (EADDRINUSE); below it, only another choice like this one could, and
 * each is checked free.
 */
const LOW = 20000;
const HIGH = 32000;

function bindable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/** `count` distinct ports nothing listens on right now, for processes the test starts. */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = randomInt(LOW, HIGH);
    if (!ports.includes(port) && (await bindable(port))) ports.push(port);
  }
  return ports;
}

/** One port nothing listens on right now (freePorts). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}
