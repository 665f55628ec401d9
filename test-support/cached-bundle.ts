import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

/** What a build callback returns: esbuild's result with `metafile: true`. */
export interface BundleBuildResult {
  readonly metafile?: { readonly inputs: Readonly<Record<string, unknown>> };
}

/** Options of {@link cachedBundle} and {@link cachedBundleAsync}. */
export interface CachedBundleOptions<O extends object, R = BundleBuildResult> {
  /** The bundle's file name, without `.mjs` (`.cjs` for esbuild's `format: 'cjs'`) (`turn-service`). */
  readonly name: string;
  /** Where bundles are kept: inside a package's `node_modules`, so their externals resolve. */
  readonly outDir: string;
  /** esbuild's options but `outfile` and `metafile`: they are part of the cache key. */
  readonly options: O;
  /**
   * esbuild's `buildSync` (or `build`, for {@link cachedBundleAsync}): the caller's package
   * depends on esbuild, the workspace root does not.
   */
  readonly build: (options: O & { outfile: string; metafile: true }) => R;
  /** Folders copied beside the bundle, by the name they get there (read at run time). */
  readonly assets?: Readonly<Record<string, string>>;
  /** Files that change the bundle besides its sources (a plugin's own code): inputs too. */
  readonly alsoFrom?: readonly string[];
}

const sha = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** Every file under `folder` (the assets' files count as inputs of the bundle). */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** The hash of what `files` hold now (`''` when one is gone: the bundle must be built again). */
function contentHash(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    if (!existsSync(file)) return '';
    hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

interface Pointer {
  /** Every file the bundle was built from (sources, packages' files, assets). */
  readonly inputs: readonly string[];
  /** {@link contentHash} of `inputs` when it was built: it names the bundle's folder. */
  readonly hash: string;
  /** Each input's size and mtime, read just before `hash` was last found to hold them. */
  readonly stamps?: Stamps | undefined;
}

/** The inputs' sizes and mtimes (in the order of `inputs`), and when they were read. */
interface Stamps {
  readonly at: number;
  readonly files: readonly (readonly [size: number, mtimeMs: number])[];
}

/**
 * How close to the moment the stamps were read an mtime may be and still be trusted. A file
 * written twice within one tick of the file system's clock keeps its mtime (and maybe its size):
 * a stamp taken in that tick says nothing of the second write (git calls such entries "racily
 * clean" and reads their content). An input changed this recently is hashed again.
 */
const RACY_MS = 2_000;

/** The stamps of `inputs` now (`undefined` when one is gone). */
function stampsOf(inputs: readonly string[]): Stamps | undefined {
  const at = Date.now();
  const files: [number, number][] = [];
  for (const input of inputs) {
    const stat = statSync(input, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    files.push([stat.size, stat.mtimeMs]);
  }
  return { at, files };
}

/**
 * Whether every input still has the size and mtime it had when `pointer.hash` was last found to
 * hold, each written well before that moment ({@link RACY_MS}): then each holds what it held, and
 * the check reads no file's content. A check of the turn service's bundle (1 466 inputs, 6.7 MB)
 * takes 15–20 ms so, the pointer's parse included; hashing the inputs took 50–190 ms of CPU, and
 * the test files of a run ask for a bundle 45 times.
 */
function stampsHold(pointer: Pointer): boolean {
  const { stamps, inputs } = pointer;
  if (stamps === undefined || stamps.files.length !== inputs.length) return false;
  return inputs.every((input, i) => {
    const [size, mtimeMs] = stamps.files[i] ?? [];
    const stat = statSync(input, { throwIfNoEntry: false });
    return (
      stat !== undefined &&
      stat.size === size &&
      stat.mtimeMs === mtimeMs &&
      stat.mtimeMs < stamps.at - RACY_MS
    );
  });
}

/** Writes the pointer through a scratch file renamed into place: never seen half written. */
function writePointer(pointerFile: string, pointer: Pointer): void {
  const scratch = `${pointerFile}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(scratch, JSON.stringify(pointer));
  renameSync(scratch, pointerFile);
}

/** The bundle's file name: `.cjs` for a CommonJS bundle, so node runs it as one. */
function fileNameOf<O extends object, R>(spec: CachedBundleOptions<O, R>): string {
  const { format } = spec.options as { readonly format?: unknown };
  return `${spec.name}${format === 'cjs' ? '.cjs' : '.mjs'}`;
}

/** Where the bundles of `spec` are kept. */
function placeOf<O extends object, R>(spec: CachedBundleOptions<O, R>) {
  const assets = Object.entries(spec.assets ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const key = sha(JSON.stringify([spec.name, spec.options, assets])).slice(0, 16);
  const base = join(spec.outDir, `${spec.name}-${key}`);
  const file = (hash: string) => join(`${base}-${hash.slice(0, 16)}`, fileNameOf(spec));
  return { assets, base, pointerFile: `${base}.json`, file };
}

/**
 * The bundle kept for `spec`, when every file it was built from holds what it held then: known
 * from the inputs' sizes and mtimes when none changed ({@link stampsHold}), else from their
 * content, and the stamps are taken again when the content still matches (a checkout that
 * rewrote the files with the same content).
 */
function kept<O extends object, R>(spec: CachedBundleOptions<O, R>): string | undefined {
  const { pointerFile, file } = placeOf(spec);
  if (!existsSync(pointerFile)) return undefined;
  const pointer = JSON.parse(readFileSync(pointerFile, 'utf8')) as Pointer;
  const bundle = file(pointer.hash);
  if (!existsSync(bundle)) return undefined;
  if (stampsHold(pointer)) return bundle;
  // stated before they are read: a file written meanwhile no longer matches its stamp
  const stamps = stampsOf(pointer.inputs);
  if (contentHash(pointer.inputs) !== pointer.hash) return undefined;
  writePointer(pointerFile, { inputs: pointer.inputs, hash: pointer.hash, stamps });
  return bundle;
}

/** A scratch folder to build `spec` in, and the options that write the bundle there. */
function scratchFor<O extends object, R>(spec: CachedBundleOptions<O, R>) {
  const { base } = placeOf(spec);
  mkdirSync(spec.outDir, { recursive: true });
  const scratch = mkdtempSync(`${base}.building-`);
  const options = { ...spec.options, outfile: join(scratch, fileNameOf(spec)), metafile: true };
  return { scratch, options: options as O & { outfile: string; metafile: true } };
}

/**
 * Copies the assets beside the bundle built in `scratch`, moves it into place (named by the hash
 * of every file it was built from), points the spec at it, and drops the bundles it replaces.
 * Builds racing in several workers each have a scratch folder of their own, renamed into place,
 * so a bundle is never seen half written.
 */
function keep<O extends object, R>(
  spec: CachedBundleOptions<O, R>,
  scratch: string,
  result: BundleBuildResult,
): string {
  const { assets, base, pointerFile, file } = placeOf(spec);
  const inputs = Object.keys(result.metafile?.inputs ?? {})
    .map((input) => resolve(input))
    .filter((path) => existsSync(path));
  for (const [as, folder] of assets) {
    cpSync(folder, join(scratch, as), { recursive: true });
    inputs.push(...filesUnder(folder));
  }
  inputs.push(...(spec.alsoFrom ?? []));
  const stamps = stampsOf(inputs);
  const pointer: Pointer = { inputs, hash: contentHash(inputs), stamps };
  const folder = `${base}-${pointer.hash.slice(0, 16)}`;
  try {
    renameSync(scratch, folder);
  } catch {
    // Another worker built the same bundle first: its copy is as good.
    rmSync(scratch, { recursive: true, force: true });
  }
  // Bundles built from sources that have changed since are of no use any more.
  for (const name of readdirSync(spec.outDir)) {
    const path = join(spec.outDir, name);
    if (path.startsWith(`${base}-`) && path !== folder)
      rmSync(path, { recursive: true, force: true });
  }
  writePointer(pointerFile, pointer);
  return file(pointer.hash);
}

/**
 * The path of `name.mjs` (or `name.cjs`), bundled by esbuild from `options`, built once and kept on disk: later
 * calls (other test files, other workers, later runs) reuse it while every file it was built from
 * (esbuild's metafile inputs, and the assets) holds what it held then, and build it again as
 * soon as one changed.
 */
export function cachedBundle<O extends object>(spec: CachedBundleOptions<O>): string {
  const known = kept(spec);
  if (known !== undefined) return known;
  const { scratch, options } = scratchFor(spec);
  let result: BundleBuildResult;
  try {
    result = spec.build(options);
  } catch (error) {
    // a build that fails (a syntax error in a source) leaves no scratch folder behind
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return keep(spec, scratch, result);
}

/** {@link cachedBundle} with esbuild's asynchronous `build` (the one that runs plugins). */
export async function cachedBundleAsync<O extends object>(
  spec: CachedBundleOptions<O, Promise<BundleBuildResult>>,
): Promise<string> {
  const known = kept(spec);
  if (known !== undefined) return known;
  const { scratch, options } = scratchFor(spec);
  let result: BundleBuildResult;
  try {
    result = await spec.build(options);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return keep(spec, scratch, result);
}
