import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DemoError } from './demo-error.js';
import { freePort } from './free-port.js';

const require = createRequire(import.meta.url);

/**
 * The `restate-server` binary that `pnpm install` put in place (`@restatedev/restate-server`,
 * with a package per platform): nothing is downloaded when the demo runs.
 */
export function restateServerBinary(): string | undefined {
  try {
    const wrapper = dirname(require.resolve('@restatedev/restate-server/package.json'));
    return createRequire(join(wrapper, 'package.json')).resolve(
      `@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`,
    );
  } catch (error) {
    // Only a package that is not installed means "no binary"; any other error (a file system
    // error while resolving) is thrown, never taken for a missing binary and a skipped test.
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** A throwaway Restate server: free ports, a temporary data folder removed by `stop`. */
export interface RestateDevServer {
  readonly ingressUrl: string;
  readonly adminUrl: string;
  /** Registers the service endpoint at `url` (forced: the same url after a restart is fine). */
  register(url: string): Promise<void>;
  stop(): Promise<void>;
}

/** How many times {@link startRestateDevServer} picks new ports when one was taken meanwhile. */
const PORT_ATTEMPTS = 5;

/**
 * Starts `restate-server` on free ports with its own temporary data folder. Invocations whose
 * service is down are retried every 50–200 ms, so a restarted service picks its turn up at once.
 * A port found free can be taken by another process before the server binds it: the server then
 * exits with `Address in use`, and it is started again on new ports, up to five times.
 *
 * @throws DemoError `restate_unavailable` without a server binary for this platform, or when
 * the server does not start.
 */
export async function startRestateDevServer(): Promise<RestateDevServer> {
  const binary = restateServerBinary();
  if (binary === undefined) {
    throw new DemoError({
      code: 'restate_unavailable',
      message: `No restate-server binary for ${process.platform}-${process.arch} in node_modules (@restatedev/restate-server): run pnpm install`,
    });
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePorts(binary);
    } catch (error) {
      const taken = error instanceof DemoError && error.message.includes('Address in use');
      if (!taken || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

async function startOnFreePorts(binary: string): Promise<RestateDevServer> {
  const [fabric, admin, ingress] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'toolwaves-restate-'));
  const config = join(dir, 'restate.toml');
  writeFileSync(
    config,
    [
      'node-name = "toolwaves-demo"',
      `base-dir = "${join(dir, 'data')}"`,
      `bind-address = "127.0.0.1:${fabric}"`,
      'log-filter = "error"',
      // Two partitions, not Restate's 24: plenty for the demo's one turn, and a third of the CPU to start
      // (each partition's processor and store start with the server).
      'default-num-partitions = 2',
      '[default-retry-policy]',
      'initial-interval = "50ms"',
      'exponentiation-factor = 1.5',
      'max-interval = "200ms"',
      'max-attempts = 1000',
      '[admin]',
      `bind-address = "127.0.0.1:${admin}"`,
      '[ingress]',
      `bind-address = "127.0.0.1:${ingress}"`,
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['--config-file', config, '--no-logo', '--listen-mode', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DO_NOT_TRACK: '1' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const adminUrl = `http://127.0.0.1:${admin}`;
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const healthy = async (): Promise<boolean> => {
    const [a, i] = await Promise.all([
      fetch(`${adminUrl}/health`),
      fetch(`${ingressUrl}/restate/health`),
    ]);
    return a.ok && i.ok;
  };
  for (let tries = 0; !(await healthy().catch(() => false)); tries++) {
    if (child.exitCode !== null || tries > 600) {
      await stop();
      throw new DemoError({
        code: 'restate_unavailable',
        message: `restate-server did not start: ${stderr.trim() || 'no output'}`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    adminUrl,
    ingressUrl,
    async register(url) {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri: url, force: true }),
      });
      if (!response.ok) {
        throw new DemoError({
          code: 'restate_unavailable',
          message: `Registering the service at ${url} failed: ${await response.text()}`,
        });
      }
    },
    stop,
  };
}

export { freePort };
