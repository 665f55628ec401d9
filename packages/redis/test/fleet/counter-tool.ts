import { createClient } from '@redis/client';
import { fnTool, type Tool } from '@toolwaves/core';

/**
 * A row of a database the fleet shares: `value` and `fence`, the highest fencing token that
 * claimed it. Here a hash on a Redis server of its own (not the coordinator's), each statement
 * one atomic script, standing for:
 *
 * ```sql
 * -- when the call starts: claim the row (0 rows: a newer holder already did, refuse)
 * UPDATE counters SET fence = $token WHERE name = $name AND fence <= $token;
 * SELECT value FROM counters WHERE name = $name;
 * -- the write: only while no newer token has claimed the row (0 rows: refuse)
 * UPDATE counters SET value = $new WHERE name = $name AND fence = $token;
 * ```
 */
const CLAIM = `
local fence = tonumber(redis.call('HGET', KEYS[1], 'fence') or '0')
if fence > tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'fence', ARGV[1])
return tonumber(redis.call('HGET', KEYS[1], 'value') or '0')
`;
const UPDATE = `
if redis.call('HGET', KEYS[1], 'fence') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[2])
return 1
`;

/**
 * `increment_counter`: a read-modify-write of one counter row that checks fencing tokens, the
 * pattern for a resource of your own. It claims the row with its token when it starts, reads,
 * computes, and writes only if no newer token claimed the row since: a call whose lease ran out
 * while it was paused is refused instead of overwriting a newer holder's increment.
 * `beforeWrite` runs between the read and the write (the tests pause the process there).
 */
export function counterTool(options: {
  readonly url: string;
  readonly beforeWrite?: (name: string) => void;
}): { readonly tool: Tool<{ name: string }>; close(): Promise<void> } {
  // Connecting may take seconds on a loaded machine (agents start several at once): the
  // scenarios are not about that, and node-redis's default of 5 s crashed an agent there.
  const client = createClient({ url: options.url, socket: { connectTimeout: 30_000 } });
  const connected = client.connect();
  const tool = fnTool<{ name: string }>({
    name: 'increment_counter',
    description: 'Adds 1 to a shared counter',
    concurrencySafe: true,
    access: ({ name }) => [{ key: `counter:${name}`, mode: 'write' }],
    execute: async ({ name }, context) => {
      await connected;
      const token = String(context.fencingToken ?? 0);
      const row = `counter:${name}`;
      const read = Number(await client.eval(CLAIM, { keys: [row], arguments: [token] }));
      if (read < 0) return { content: `refused: a newer holder claimed ${name}`, isError: true };
      options.beforeWrite?.(name);
      const next = read + 1;
      const written = await client.eval(UPDATE, { keys: [row], arguments: [token, String(next)] });
      if (Number(written) !== 1) {
        return {
          content: `refused: ${name} was claimed by a newer holder; not written`,
          isError: true,
        };
      }
      return `${name} = ${next}`;
    },
  });
  return { tool, close: () => connected.then(() => client.close()) };
}
