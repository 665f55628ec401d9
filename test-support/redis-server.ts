import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** Whether Debian's `redis-server` (or any) is on PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * The one line printed when tests that need Redis are skipped, `skipped` naming them (e.g.
 * `redis: the Redis tests`).
 */
export function redisMissing(skipped: string): string {
  return `${skipped} are skipped: \`redis-server\` is not on PATH (install it: apt-get install redis-server)`;
}

/** A `redis-server` of our own on a free port, persistence off; `restart` keeps the port. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGKILL: in-memory data is gone, as after a crash). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Sends the server process a signal: `SIGSTOP` freezes it (connections stay open, nothing answers), `SIGCONT` thaws it. */
  signal(signal: 'SIGSTOP' | 'SIGCONT'): void;
}

/** How many times {@link startRedisServer} picks a new port when one was taken meanwhile. */
const PORT_ATTEMPTS = 5;

/**
 * Starts `redis-server --port N --save '' --appendonly no` on a free port (a replica's sync
 * without delay), in a folder of its own
 * (a replica writes the primary's snapshot there; a server started elsewhere must never load it).
 * A port found free can be taken by another process before the server binds it (the tests start
 * servers side by side): the server then exits with `Address already in use`, and it is started
 * again on a new port, up to {@link PORT_ATTEMPTS} times. A restart keeps its port.
 */
export async function startRedisServer(): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort();
    } catch (error) {
      const taken = error instanceof Error && error.message.includes('Address already in use');
      if (!taken || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

async function startOnFreePort(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'toolwaves-redis-'));
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      mkdirSync(dir, { recursive: true });
      child = await launch(port, dir);
    },
    signal(signal) {
      child?.kill(signal);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (running !== undefined && running.exitCode === null) {
        await new Promise<void>((resolve) => {
          running.once('exit', () => resolve());
          running.kill('SIGKILL');
          running.kill('SIGCONT'); // a frozen server dies too
        });
      }
      // what a replica saved is gone too: a restart is empty, as after a crash without persistence
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await server.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return server;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        // A replica's first sync starts at once: by default the primary waits 5 s for more
        // replicas to share one transfer, which only makes a test wait.
        '--repl-diskless-sync-delay',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
}
