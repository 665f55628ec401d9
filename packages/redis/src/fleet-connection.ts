import { RedisClient } from '@redis/client';
import { CommandDeadlines } from './command-deadlines.js';
import { type FleetScript, fleetScripts } from './fleet-scripts.js';
import type { RedisClientLike } from './redis-client-like.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';

/** The channels a coordinator listens to, and what it does with their messages. */
export interface Listening {
  /** Every coordinator's channel: what left the queue. */
  readonly released: string;
  /** This coordinator's own channel: hand-offs to its waiters. */
  readonly own: string;
  readonly onMessage: (message: string) => void;
}

/**
 * The coordinator's link to Redis: one command connection (its own, made from `url`, or the
 * caller's `client`) and one subscriber connection for its channels. Commands are never queued
 * while Redis is away: they fail at once with {@link RedisCoordinatorError} `unavailable`, and
 * the client reconnects in the background. Connecting, subscribing and every answer are
 * bounded by `timeoutMs`, also against a server that accepts the connection and never answers.
 */
export class FleetConnection {
  readonly #commands: RedisClientLike;
  readonly #ownsCommands: boolean;
  readonly #where: string;
  readonly #timeoutMs: number;
  readonly #deadlines: CommandDeadlines;
  #subscriber: RedisClientLike | undefined;
  #connected: Promise<void> | undefined;
  #subscribed: Promise<void> | undefined;
  #lastError: unknown;
  #scriptsLoaded: Promise<void> | undefined;
  #allSet = false;
  #closed = false;
  readonly #background = new Set<Promise<unknown>>();
  /** Commands sent so far (each script run or renewal is one round trip). */
  roundTrips = 0;

  constructor(options: { url: string; client: RedisClientLike | undefined; timeoutMs: number }) {
    this.#timeoutMs = options.timeoutMs;
    this.#deadlines = new CommandDeadlines(options.timeoutMs);
    this.#ownsCommands = options.client === undefined;
    this.#where = options.client === undefined ? redactUrl(options.url) : 'the given client';
    // The bare client class, not `createClient`: that builds a class with every Redis command
    // as a method for each set of options it is given (node-redis caches only the last set),
    // 50–175 ms of CPU per coordinator on a 2-core machine, where `new RedisClient` takes
    // under 1 ms; the coordinator sends its commands with `sendCommand` alone. Its subscriber
    // (`duplicate()`) is a bare client too.
    this.#commands =
      options.client ??
      (new RedisClient({
        url: options.url,
        disableOfflineQueue: true,
        socket: { reconnectStrategy: reconnectDelay, connectTimeout: options.timeoutMs },
      }) as unknown as RedisClientLike);
    this.#commands.on('error', this.#remember);
    this.#commands.on('ready', this.#forgetScripts);
  }

  /**
   * `undefined` when commands can be sent at once (connected, scripts loaded, subscribed), else
   * a promise of that: it connects on first use, loads the scripts (again after each reconnect:
   * a restarted server has none) and subscribes, each step bounded by `timeoutMs`, and rejects
   * with `unavailable` (naming the last error) while Redis cannot be reached.
   */
  whenReady(listening: Listening): Promise<void> | undefined {
    if (this.#allSet && this.#commands.isReady && !this.#closed) return undefined;
    return this.#ready(listening);
  }

  async #ready(listening: Listening): Promise<void> {
    if (this.#closed) throw closedError();
    this.#allSet = false;
    this.#connected ??= this.#ownsCommands
      ? this.#bounded(firstReadyOrError(this.#commands), 'connecting').catch(this.#remember)
      : Promise.resolve();
    await this.#connected;
    if (!this.#commands.isReady) throw this.unavailable(this.#lastError);
    this.#scriptsLoaded ??= this.#loadScripts();
    await this.#scriptsLoaded;
    this.#subscribed ??= this.#subscribe(listening);
    await this.#bounded(this.#subscribed, 'subscribing').catch((error: unknown) => {
      throw this.unavailable(error);
    });
    this.#allSet = true;
  }

  /** Runs a prepared script command (EVALSHA, or EVAL once the server has forgotten it). */
  async run<Reply>(script: FleetScript<Reply>, command: readonly string[]): Promise<Reply> {
    try {
      return script.read(await this.send(command));
    } catch (error) {
      if (!(error instanceof RedisCoordinatorError && String(error.cause).includes('NOSCRIPT'))) {
        throw error;
      }
      return script.read(await this.send(['EVAL', script.lua.source, ...command.slice(2)]));
    }
  }

  /**
   * Sends one command; a failure becomes `unavailable` with the client's error as cause, and so
   * does no answer within the timeout (node-redis's own timeout ends when the command is
   * written: a half-open link, or a frozen server, would leave it waiting for ever).
   */
  send(args: readonly string[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(closedError());
    this.roundTrips += 1;
    return this.#deadlines
      .watch(() => this.#commands.sendCommand(args, NO_CLIENT_TIMEOUT))
      .catch((error: unknown) => {
        throw this.unavailable(error);
      });
  }

  /** Lets `promise` (a release) finish on its own; `close()` waits for it; failures are dropped. */
  inBackground(promise: Promise<unknown>): void {
    const settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.#background.add(settled);
    settled.then(() => this.#background.delete(settled));
  }

  /** The error for Redis being out of reach, naming where and why. */
  unavailable(cause: unknown): RedisCoordinatorError {
    if (cause instanceof RedisCoordinatorError) return cause;
    const why = cause instanceof Error ? cause.message : String(cause ?? 'not connected');
    return new RedisCoordinatorError({
      code: 'unavailable',
      message: `Redis at ${this.#where} is unavailable (${why}): the call did not run under fleet locks`,
      cause,
    });
  }

  /**
   * Waits for the releases still in flight, then closes the subscriber, and the command
   * connection when the coordinator made it.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    await Promise.all([...this.#background]);
    this.#closed = true;
    this.#deadlines.stop();
    const subscriber = this.#subscriber;
    await Promise.allSettled([
      subscriber === undefined ? undefined : closeQuietly(subscriber, this.#timeoutMs),
      this.#ownsCommands ? closeQuietly(this.#commands, this.#timeoutMs) : undefined,
    ]);
    this.#commands.off('ready', this.#forgetScripts);
    // A client given by the caller keeps only the caller's listeners. A client of our own keeps
    // one: a socket that node-redis was still reconnecting when it was closed can report its
    // reset later (Redis stopped or restarted meanwhile), and an `error` event with no listener
    // would be thrown as an uncaught exception in the process that closed the coordinator.
    if (this.#ownsCommands) this.#commands.on('error', ignoreLateError);
    this.#commands.off('error', this.#remember);
  }

  readonly #remember = (error: unknown): void => {
    this.#lastError = error;
  };

  readonly #forgetScripts = (): void => {
    this.#scriptsLoaded = undefined;
    this.#allSet = false;
  };

  /** `promise`, or a rejection `no answer within N ms while <doing>` if it takes longer. */
  #bounded<T>(promise: Promise<T>, doing: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.#timeoutMs} ms while ${doing}`)),
        this.#timeoutMs,
      );
      timer.unref?.();
    });
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
  }

  async #loadScripts(): Promise<void> {
    try {
      await Promise.all(
        Object.values(fleetScripts()).map((script: FleetScript<unknown>) =>
          this.send(['SCRIPT', 'LOAD', script.lua.source]),
        ),
      );
    } catch (error) {
      this.#scriptsLoaded = undefined;
      throw error;
    }
  }

  /**
   * Opens the subscriber. node-redis subscribes it again after a reconnect; a subscription that
   * failed (Redis away at the time) is tried again whenever the subscriber is ready again.
   * Meanwhile waiters still poll: slower wake-ups, never a missed grant.
   */
  async #subscribe(listening: Listening): Promise<void> {
    const subscriber = this.#commands.duplicate();
    this.#subscriber = subscriber;
    subscriber.on('error', this.#remember);
    let subscribed = false;
    const subscribe = async (): Promise<void> => {
      if (subscribed || this.#closed || !subscriber.isReady) return;
      try {
        await subscriber.subscribe([listening.released, listening.own], listening.onMessage);
        subscribed = true;
      } catch (error) {
        this.#remember(error);
      }
    };
    subscriber.on('ready', () => void subscribe());
    await firstReadyOrError(subscriber);
    await subscribe();
  }
}

/**
 * No timeout of the client's own per command: node-redis would make a timer (an
 * `AbortSignal.timeout`) for each; the connection's one deadline timer bounds them instead.
 */
const NO_CLIENT_TIMEOUT = { timeout: 0 };

/** Starts connecting and settles at the first `ready` or `error`, whichever comes first. */
function firstReadyOrError(client: RedisClientLike): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      client.off('ready', done);
      client.off('error', done);
      resolve();
    };
    client.on('ready', done);
    client.on('error', done);
    client.connect().catch(() => undefined);
  });
}

/** The listener a closed client of our own keeps: what it reports then concerns no one. */
function ignoreLateError(): void {}

/** Reconnect quickly, then at most every second. */
function reconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** retries, 1000);
}

/**
 * Closes a client: gracefully (waiting for the answers in flight) for at most `timeoutMs`, then
 * by dropping the socket (a command sent over a half-open link is never answered).
 */
async function closeQuietly(client: RedisClientLike, timeoutMs: number): Promise<void> {
  // a reconnect already under way when the client is closed can still finish (node-redis opens
  // the new socket and calls it ready): such a socket is dropped as soon as it is
  client.on('ready', () => {
    try {
      client.destroy();
    } catch {
      // already closed
    }
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
    timer.unref?.();
  });
  try {
    if ((await Promise.race([client.close(), late])) !== 'late') return;
  } catch {
    // never connected, or still reconnecting: drop the socket
  } finally {
    clearTimeout(timer);
  }
  try {
    client.destroy();
  } catch {
    // already closed
  }
}

function closedError(): RedisCoordinatorError {
  return new RedisCoordinatorError({
    code: 'closed',
    message: 'The Redis coordinator is closed: the call did not run under fleet locks',
  });
}

/** `redis://user:secret@host:6379/0` → `redis://host:6379/0` (no credentials in messages). */
function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}
