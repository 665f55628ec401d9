import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Linux's default range of ephemeral ports, when `/proc` cannot say. */
const DEFAULT_EPHEMERAL = { low: 32768, high: 60999 };

/** The ports the kernel hands out on its own (outgoing connections, `listen(0)`). */
function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low !== undefined && high !== undefined && low > 0 && high >= low) return { low, high };
  } catch {
    // not Linux, or no /proc: the default range
  }
  return DEFAULT_EPHEMERAL;
}

/** Whether nothing listens on `port` of 127.0.0.1 right now. */
function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port that nobody listens on right now, for a server a test starts (redis-server,
 * restate-server, a service endpoint), taken below the ephemeral range. A port the kernel
 * picked (`listen(0)`), closed and handed to the server was free when probed but could be taken
 * before the server bound it, by the local end of one of the suite's many outgoing connections
 * (the kernel picks those in the same range): the server then failed with "address in use". A
 * port below the range is never picked for an outgoing connection; the only race left is with
 * another test picking the same random port in the same moment.
 */
export async function freePort(): Promise<number> {
  const { low } = ephemeralRange();
  const floor = Math.min(20_000, Math.max(1024, low - 10_000));
  for (let tries = 0; tries < 100; tries++) {
    const port = floor + Math.floor(Math.random() * Math.max(1, low - floor));
    if (await listenable(port)) return port;
  }
  throw new Error(`no free port between ${floor} and ${low - 1} after 100 tries`);
}
