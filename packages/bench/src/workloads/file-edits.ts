import { EDIT_MARKERS, editMarker } from './workspace-layout.js';

/** The input of one `edit_file` call. */
export interface EditInput {
  readonly path: string;
  readonly old_string: string;
  readonly new_string: string;
}

/**
 * Hands out the edits of one batch so that each applies to a fresh workspace: the `n`-th edit
 * of a file replaces its `n`-th marker ({@link editMarker}), so two edits of one file never
 * replace the same text.
 *
 * @example
 * const edits = new FileEdits();
 * edits.next('src/core/file0.ts'); // { path, old_string: 'const value0 = 0;', ... }
 */
export class FileEdits {
  readonly #used = new Map<string, number>();

  /** The next edit of `path`, or `undefined` when its markers are used up. */
  next(path: string): EditInput | undefined {
    const used = this.#used.get(path) ?? 0;
    if (used >= EDIT_MARKERS) return undefined;
    this.#used.set(path, used + 1);
    return { path, ...editMarker(used) };
  }
}
