import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * Repository settings a read may use that run nothing and read nothing outside the repository.
 * Any other key (`core.fsmonitor`, `diff.*.textconv`, `diff.external`, `filter.*`, `core.pager`,
 * `alias.*`, `include.path`, `log.showSignature`, …) makes git reads unsafe: settings are an
 * allowlist too.
 */
const HARMLESS_SETTINGS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|quotepath|abbrev|trustctime|checkstat)$/,
  /^(remote\.[^.]+\.(url|pushurl|fetch|tagopt|prune)|branch\.[^.]+\.(remote|merge|rebase))$/,
  /^(user\.(name|email)|init\.defaultbranch|pull\.(rebase|ff)|push\.default|color\.ui)$/,
  /^extensions\.(objectformat|worktreeconfig)$/,
  // Not `submodule.*.update`: it may name a command (run by `git submodule update`, not by reads).
  /^submodule\.[^.]+\.(url|path|active|branch|shallow|ignore)$/,
  /^core\.(sparsecheckout|sparsecheckoutcone)$/,
];

/** Entries of the git directory git reads; each must stay inside the workspace. */
const GIT_DIR_ENTRIES = ['config', 'HEAD', 'index', 'objects', 'refs', 'packed-refs'];

/**
 * Checks the repository a git read starting in `cwd` would use, before it is declared
 * read-only: found by walking up from `cwd` no further than `root` (the environment's
 * `GIT_CEILING_DIRECTORIES` stops git there too); its git directory (a `.git` folder, link or
 * `gitdir:` file), the folders it shares (`commondir`) and what git reads in it must be inside
 * `root`, with no `objects/info/alternates`; its config may hold only {@link HARMLESS_SETTINGS}.
 * No repository is fine: git then fails without reading anything. Gives the reason it is unsafe.
 */
export function checkRepository(options: {
  readonly root: string;
  readonly cwd: string;
}): string | undefined {
  const { root } = options;
  const inside = (path: string) => path === root || path.startsWith(`${root}/`);
  let dir = options.cwd;
  for (;;) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit) || isLink(dotGit)) return checkGitDir({ root, dotGit, inside });
    if (dir === root || !inside(dir)) return undefined;
    dir = dirname(dir);
  }
}

function checkGitDir(options: {
  readonly root: string;
  readonly dotGit: string;
  readonly inside: (path: string) => boolean;
}): string | undefined {
  try {
    let gitDir = realpathSync.native(options.dotGit);
    if (lstatSync(gitDir).isFile()) {
      const target = /^gitdir: (.+)$/m.exec(readFileSync(gitDir, 'utf8'))?.[1]?.trim();
      if (target === undefined) return 'a .git file without a gitdir';
      gitDir = realpathSync.native(resolve(dirname(options.dotGit), target));
    }
    if (!options.inside(gitDir))
      return `the repository's git directory ${gitDir} is outside the workspace`;
    const dirs = [gitDir];
    const common = join(gitDir, 'commondir');
    if (existsSync(common)) {
      const shared = readFileSync(common, 'utf8').trim();
      dirs.push(realpathSync.native(isAbsolute(shared) ? shared : resolve(gitDir, shared)));
    }
    for (const dir of dirs) {
      if (!options.inside(dir)) return `the repository shares ${dir}, outside the workspace`;
      if (existsSync(join(dir, 'objects', 'info', 'alternates'))) {
        return 'the repository borrows objects from elsewhere (objects/info/alternates)';
      }
      for (const entry of GIT_DIR_ENTRIES) {
        const path = join(dir, entry);
        if (existsSync(path) && !options.inside(realpathSync.native(path))) {
          return `the repository's ${entry} is outside the workspace`;
        }
      }
      for (const file of ['config', 'config.worktree']) {
        const reason = checkConfig(join(dir, file));
        if (reason !== undefined) return reason;
      }
    }
    return undefined;
  } catch (error) {
    return `the repository could not be checked (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The first setting of a git config file that is not harmless, as a reason. */
function checkConfig(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  if (/\\\r?\n/.test(text)) return `${path} continues a line with \\`;
  let section: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]\s*(?:[#;].*)?$/.exec(line);
    if (header !== null) {
      const [name, ...dotted] = header[1]!.toLowerCase().split('.');
      const sub = header[2] ?? (dotted.length > 0 ? dotted.join('.') : undefined);
      section = sub === undefined ? name : `${name}.${sub.replace(/\./g, '_')}`;
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$|[#;])/.exec(line)?.[1];
    if (section === undefined || key === undefined) return `${path} has a line it cannot read`;
    const setting = `${section}.${key.toLowerCase()}`;
    if (!HARMLESS_SETTINGS.some((pattern) => pattern.test(setting))) {
      return `the repository sets ${setting}, which a read may use to run a program`;
    }
  }
  return undefined;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
