/**
 * Scan: which files of the project are candidates at all. Inside git: tracked files plus untracked
 * files git does not ignore. Outside git: a walk honouring `.gitignore` at every level. Both honour
 * `.aicignore` and the built-in exclusions below. A symlink never leads outside the project.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  type Stats,
} from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

const MAX_FILE_BYTES = 1024 * 1024;

export interface ScannedFile {
  /** Project-relative, `/`-separated. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface ScanResult {
  files: ScannedFile[];
  skipped: SkippedFile[];
  source: "git" | "walk";
}

const EXCLUDED_DIRS = new Set([
  ".git",
  ".hg",
  ".svn",
  ".aic",
  "node_modules",
  "bower_components",
  "jspm_packages",
  "dist",
  "build",
  "out",
  "target",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".cache",
  "coverage",
  ".nyc_output",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".eggs",
  ".gradle",
  ".idea",
  ".vscode",
  ".terraform",
  "vendor",
]);

const LOCKFILES = new Set([
  "package-lock.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "npm-shrinkwrap.json",
  "bun.lockb",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "Cargo.lock",
  "Gemfile.lock",
  "composer.lock",
  "go.sum",
  "mix.lock",
  "flake.lock",
  "pdm.lock",
]);

const BINARY_EXTENSIONS = new Set(
  (
    "png jpg jpeg gif bmp ico icns webp avif tiff psd svgz mp3 mp4 wav ogg flac mov avi mkv webm " +
    "zip gz tgz bz2 xz 7z rar tar jar war ear whl egg pdf doc docx xls xlsx ppt pptx woff woff2 ttf " +
    "otf eot so dylib dll exe bin o a lib obj class pyc pyo pyd wasm node db sqlite sqlite3 " +
    "parquet feather npy npz pkl pickle h5 hdf5 onnx pt ckpt safetensors dat"
  ).split(" "),
);

/** Why a path is excluded by name alone, or undefined when it is a candidate. */
/**
 * What `aic install cursor` deploys: the bundled hooks and the trigger rule. They describe AIC, not
 * the project, and would otherwise outrank the user's code for broad intents ("the architecture").
 */
const AIC_ARTIFACT = /(^|\/)\.cursor\/(hooks\/AIC-[^/]+\.cjs|rules\/AIC\.mdc)$/;

function isAicArtifact(relPath: string): boolean {
  return AIC_ARTIFACT.test(relPath);
}

export function builtinExclusion(relPath: string): string | undefined {
  const parts = relPath.split("/");
  for (const dir of parts.slice(0, -1)) {
    if (EXCLUDED_DIRS.has(dir) || dir.endsWith(".egg-info")) return `excluded folder ${dir}/`;
  }
  const name = parts[parts.length - 1] ?? relPath;
  if (isAicArtifact(relPath)) return "AIC's own Cursor integration file";
  if (LOCKFILES.has(name)) return "lockfile";
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  if (BINARY_EXTENSIONS.has(ext)) return "binary file type";
  if (/\.min\.(js|css|mjs)$/i.test(name) || /\.(js|css)\.map$/i.test(name) || ext === "map")
    return "minified or source map";
  if (/(_pb2(_grpc)?\.pyi?|\.pb\.go|\.generated\.\w+|\.g\.dart|\.designer\.cs)$/i.test(name))
    return "generated file";
  return undefined;
}

export interface ScanDeps {
  /** Lists git candidates or returns undefined when the folder is not in a git work tree. */
  gitListFiles: (root: string) => string[] | undefined;
}

/** Is there a `.git` in the folder or any parent? Spawning git for nothing costs ~15 ms. */
function insideGitWorkTree(root: string): boolean {
  let dir = resolve(root);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

function gitListFiles(root: string): string[] | undefined {
  if (!insideGitWorkTree(root)) return undefined;
  try {
    const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 256 * 1024 * 1024,
    });
    const files = out.split("\0").filter((p) => p.length > 0);
    // A project inside an ignored folder of an outer repository lists nothing: walk it instead.
    return files.length > 0 ? files : undefined;
  } catch {
    return undefined;
  }
}

export const defaultScanDeps: ScanDeps = { gitListFiles };

/** A text file's content, or undefined when it is missing or unreadable (optional config). */
export function readTextIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Ignore rules of one folder, matched against paths relative to that folder. */
interface ScopedIgnore {
  base: string; // project-relative folder, "" for the root
  rules: Ignore;
}

function isIgnored(scopes: ScopedIgnore[], relPath: string, isDir: boolean): boolean {
  for (const scope of scopes) {
    const local = scope.base === "" ? relPath : relPath.slice(scope.base.length + 1);
    if (scope.rules.ignores(isDir ? `${local}/` : local)) return true;
  }
  return false;
}

function walk(root: string, skipped: SkippedFile[]): string[] {
  const out: string[] = [];
  const visit = (dirRel: string, parentScopes: ScopedIgnore[]) => {
    const dirAbs = dirRel === "" ? root : join(root, dirRel);
    const scopes = [...parentScopes];
    const rules = ignoreRules(join(dirAbs, ".gitignore"));
    if (rules) scopes.push({ base: dirRel, rules });
    let entries;
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
    } catch (err) {
      skipped.push({ path: dirRel || ".", reason: `unreadable folder: ${(err as Error).message}` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const rel = dirRel === "" ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (EXCLUDED_DIRS.has(entry.name) || entry.name.endsWith(".egg-info")) continue;
        if (isIgnored(scopes, rel, true)) continue;
        visit(rel, scopes);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (isIgnored(scopes, rel, false)) continue;
        out.push(rel);
      }
    }
  };
  visit("", []);
  return out;
}

/**
 * Parsed ignore files, reused while their text is unchanged: the matcher caches its answers, so
 * a long-lived process re-scanning a project pays for each path once.
 */
const ignoreCache = new Map<string, { text: string; rules: Ignore }>();

function ignoreRules(path: string): Ignore | undefined {
  const text = readTextIfPresent(path);
  if (text === undefined) return undefined;
  const cached = ignoreCache.get(path);
  if (cached && cached.text === text) return cached.rules;
  const rules = ignore().add(text);
  if (ignoreCache.size > 10_000) ignoreCache.clear();
  ignoreCache.set(path, { text, rules });
  return rules;
}

function loadAicIgnore(root: string): Ignore | undefined {
  return ignoreRules(join(root, ".aicignore"));
}

/** A symlink is followed only when its target is a regular file inside the project. */
function resolveLink(abs: string, realRoot: string): Stats | string {
  let target: string;
  try {
    target = realpathSync(abs);
  } catch {
    return "broken symlink";
  }
  const rel = relative(realRoot, target);
  if (rel.startsWith("..") || rel === "" || rel.split(sep)[0] === "..")
    return "symlink points outside the project";
  const st = statSync(target);
  return st.isFile() ? st : "symlink to a folder";
}

export function scanProject(root: string, deps: ScanDeps = defaultScanDeps): ScanResult {
  const skipped: SkippedFile[] = [];
  const listed = deps.gitListFiles(root);
  const source = listed ? "git" : "walk";
  const candidates = listed ?? walk(root, skipped);
  const aicIgnore = loadAicIgnore(root);
  const realRoot = realpathSync(root);
  const files: ScannedFile[] = [];
  const seen = new Set<string>();
  for (const raw of candidates) {
    const path = raw.split(sep).join("/");
    if (seen.has(path)) continue;
    seen.add(path);
    const excluded = builtinExclusion(path);
    if (excluded) {
      skipped.push({ path, reason: excluded });
      continue;
    }
    if (aicIgnore?.ignores(path)) {
      skipped.push({ path, reason: ".aicignore" });
      continue;
    }
    const abs = join(root, path);
    let st: Stats;
    try {
      st = lstatSync(abs);
      if (st.isSymbolicLink()) {
        const resolved = resolveLink(abs, realRoot);
        if (typeof resolved === "string") {
          skipped.push({ path, reason: resolved });
          continue;
        }
        st = resolved;
      }
    } catch {
      continue; // deleted since git listed it
    }
    if (!st.isFile()) continue;
    if (st.size > MAX_FILE_BYTES) {
      skipped.push({ path, reason: `larger than 1 MB (${st.size} bytes)` });
      continue;
    }
    files.push({ path, size: st.size, mtimeMs: st.mtimeMs });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped, source };
}
