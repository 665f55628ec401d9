import type { ToolOutput } from '@toolwaves/core';
import { FsToolsError } from './fs-tools-error.js';

/**
 * Runs the body of a filesystem tool and answers with its content; an {@link FsToolsError}
 * becomes a soft error (`{ content: message, isError: true }`) so the model reads it and the
 * batch goes on. Anything else (an abort, a bug) is rethrown for the executor to handle.
 */
export async function runFsTool(body: () => Promise<string>): Promise<ToolOutput> {
  try {
    return { content: await body() };
  } catch (error) {
    if (error instanceof FsToolsError) return { content: error.message, isError: true };
    throw error;
  }
}
