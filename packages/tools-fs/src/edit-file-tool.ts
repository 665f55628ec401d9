import { ToolClass, type ToolContext, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { draftFile } from './atomic-write.js';
import { EditRecords, textHash } from './edit-records.js';
import { fencedWrite } from './fenced-write.js';
import { fsErrorFrom } from './fs-error-from.js';
import { FS_HOST_FENCE } from './fs-host-fence-token.js';
import { FS_READ_CACHE } from './fs-read-cache-token.js';
import { FsToolsError } from './fs-tools-error.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import type { HostFence } from './host-fence.js';
import { type FsAccess, pathAccess } from './path-access.js';
import { plural } from './plural.js';
import type { ReadCache } from './read-cache.js';
import { readWholeText } from './read-whole-text.js';
import { runFsTool } from './run-fs-tool.js';
import type { Workspace } from './workspace.js';

/** Input of `edit_file`. */
export const editFileInput = z.object({
  path: z
    .string()
    .describe('The file to edit: relative to the workspace root, or absolute inside it.'),
  old_string: z
    .string()
    .describe(
      'The exact text to replace, whitespace included (without the line numbers read_file shows). It must occur exactly once unless replace_all is set.',
    ),
  new_string: z.string().describe('The text to put in its place.'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence of old_string instead of exactly one. Default false.'),
});

/** Input of `edit_file`. */
export type EditFileInput = z.infer<typeof editFileInput>;

/**
 * `edit_file`: replaces an exact string in a text file — exactly one occurrence, or all with
 * `replace_all`. A missing or (without `replace_all`) repeated `old_string` is a soft error
 * and the file is untouched. The new content is written atomically, keeping the file's mode.
 *
 * Declarations: concurrency-safe, a write on the file's canonical key, so two edits of one file
 * in one batch run one after the other (and both land); idempotent, so a durable turn re-runs a
 * call a crash cut off. A call that carries `ToolContext.idempotencyKey` keeps a record of what
 * it read and what it wrote ({@link EditRecords}); a re-run of it checks the file against that
 * record: holding what the earlier run wrote, it answers "already applied" and writes nothing;
 * changed by someone else since the earlier run read it, it answers `changed_since_read` and
 * writes nothing; still as the earlier run read it, it edits.
 *
 * @example
 * ```ts
 * { name: 'edit_file', input: { path: 'a.ts', old_string: 'const a = 1', new_string: 'const a = 2' } }
 * // "edited a.ts: replaced 1 occurrence"
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'edit_file',
  description:
    'Replace exact text in a workspace file. old_string must match the file exactly and occur once (or set replace_all to replace every occurrence).',
  input: editFileInput,
})
export class EditFileTool extends ToolClass {
  /** A re-run checks what the earlier run of its call read and wrote (see the class). */
  readonly idempotent = true;
  #records: EditRecords | undefined;

  constructor(
    @inject(FS_WORKSPACE) private readonly workspace: Workspace,
    @inject(FS_READ_CACHE) private readonly cache: ReadCache,
    @inject(FS_HOST_FENCE) private readonly fence: HostFence,
  ) {
    super();
  }

  isConcurrencySafe(input: EditFileInput): boolean {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'write' }]) !== undefined;
  }

  access(input: EditFileInput): readonly FsAccess[] {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'write' }]) ?? [];
  }

  execute(input: EditFileInput, context: ToolContext): Promise<ToolOutput> {
    return runFsTool(async () => {
      const { old_string: before, new_string: after } = input;
      if (before === '') {
        throw new FsToolsError({
          code: 'invalid_pattern',
          message:
            '`old_string` is empty: give the exact text to replace (write_file creates a file)',
        });
      }
      if (before === after) {
        throw new FsToolsError({
          code: 'invalid_pattern',
          message: '`old_string` and `new_string` are the same: nothing to change',
        });
      }
      const file = this.workspace.resolve(input.path);
      const write = fencedWrite(context, [file]);
      const maxBytes = this.workspace.settings.maxFileBytes;
      try {
        await this.fence.claim(write);
        const { text, mode } = await readWholeText(file, { maxBytes });
        const { idempotencyKey } = context;
        const at = idempotencyKey === undefined ? undefined : { idempotencyKey, key: file.key };
        const earlier = at === undefined ? undefined : await this.records.read(at);
        if (earlier !== undefined && idempotencyKey !== undefined) {
          const now = textHash(text);
          if (now === earlier.after) {
            return `edited ${file.display}: already applied by an earlier run of this call (idempotency key ${idempotencyKey}); nothing written`;
          }
          if (now !== earlier.before) {
            throw new FsToolsError({
              code: 'changed_since_read',
              message: `${file.display} changed since an earlier run of this edit_file call read it (another writer got there first): nothing was written; read the file again and redo the edit`,
            });
          }
        }
        const count = occurrences(text, before);
        if (count === 0) {
          throw new FsToolsError({
            code: 'no_match',
            message: `\`old_string\` was not found in ${file.display}: it must match the file exactly, whitespace included; read the file again`,
          });
        }
        if (count > 1 && input.replace_all !== true) {
          throw new FsToolsError({
            code: 'not_unique',
            message: `\`old_string\` occurs ${count} times in ${file.display}: include more of the surrounding text to pick one, or set replace_all to replace all ${count}`,
          });
        }
        const edited = text.split(before).join(after);
        const draft = await draftFile({ target: file.absolute, content: edited, mode });
        try {
          await this.fence.commit(write, async () => {
            // under the host's commit step: what is there now is what was read, or nothing is written
            const now = await readWholeText(file, { maxBytes }).catch(() => undefined);
            if (now?.text !== text) {
              throw new FsToolsError({
                code: 'changed_since_read',
                message: `${file.display} changed since edit_file read it (another writer got there first): nothing was written; read the file again and redo the edit`,
              });
            }
            // the record first: a re-run that finds none knows no run of this call renamed
            if (at !== undefined) {
              await this.records.write(at, { before: textHash(text), after: textHash(edited) });
            }
            await draft.commit();
          });
        } finally {
          await draft.discard();
        }
        return `edited ${file.display}: replaced ${plural(count, 'occurrence')}`;
      } catch (error) {
        throw fsErrorFrom(error, file.display);
      } finally {
        this.cache.invalidate([file.key]);
      }
    });
  }

  /** Made on the first call that carries an idempotency key (a plain turn never needs them). */
  private get records(): EditRecords {
    this.#records ??= new EditRecords({ fence: this.fence });
    return this.#records;
  }
}

/** Non-overlapping occurrences of `needle` in `text`, left to right (as `split` finds them). */
function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count += 1;
  }
  return count;
}
