/**
 * Imports: extracted from source text (cheap enough for every file of a large project) and
 * resolved to project files, for Python (absolute, relative, package roots such as `src/`) and
 * TypeScript/JavaScript (relative, `.js` -> `.ts`, index files, tsconfig `baseUrl`/`paths`).
 */
import { parse as parseJsonc } from "jsonc-parser";

const PY_FROM = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)/gm;
const JS_IMPORT = /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*['"]([^'"\n]+)['"]/g;

function isPython(path: string) {
  return /\.pyi?$/.test(path);
}
function isScript(path: string) {
  return /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(path);
}

/** Raw import specifiers of one file. Python `from a import b` yields `a` and `a.b`. */
export function extractImports(path: string, source: string): string[] {
  const out = new Set<string>();
  if (isPython(path)) {
    for (const m of source.matchAll(PY_FROM)) {
      const mod = m[1]!;
      out.add(mod);
      const names = m[2]!.replace(/[()\n\\]/g, " ").split(",");
      for (const raw of names) {
        const name = raw.trim().split(/\s+/)[0];
        if (name && /^\w+$/.test(name))
          out.add(mod.endsWith(".") ? `${mod}${name}` : `${mod}.${name}`);
      }
    }
    for (const m of source.matchAll(PY_IMPORT)) {
      for (const mod of m[1]!.split(",")) out.add(mod.trim());
    }
  } else if (isScript(path)) {
    for (const m of source.matchAll(JS_IMPORT)) out.add(m[1]!);
  }
  return [...out];
}

export interface TsPaths {
  baseUrl?: string; // project-relative
  paths: [pattern: string, targets: string[]][];
}

/** Reads `compilerOptions.baseUrl` and `paths` from the project's tsconfig.json (JSONC). */
export function readTsPaths(tsconfigText: string | undefined): TsPaths | undefined {
  if (!tsconfigText) return undefined;
  const json = parseJsonc(tsconfigText) as
    { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } } | undefined;
  const opts = json?.compilerOptions;
  if (!opts) return undefined;
  const baseUrl = opts.baseUrl ? opts.baseUrl.replace(/^\.\/?/, "").replace(/\/$/, "") : undefined;
  return { baseUrl, paths: Object.entries(opts.paths ?? {}) };
}

function normalize(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

const SCRIPT_EXTS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

export class ImportResolver {
  private readonly files: Set<string>;
  /** Python dotted module name -> file, computed from package roots (folders without __init__.py). */
  private readonly pyModules = new Map<string, string>();
  private pyModulesReady = false;

  constructor(
    paths: string[],
    private readonly tsPaths?: TsPaths,
  ) {
    this.files = new Set(paths);
  }

  /** Python module names, computed on first use (a cached import graph may make it unneeded). */
  private modules(): Map<string, string> {
    if (this.pyModulesReady) return this.pyModules;
    this.pyModulesReady = true;
    for (const p of this.files) {
      if (!isPython(p)) continue;
      const parts = p.replace(/\.pyi?$/, "").split("/");
      // Walk up while the folder is a package; the first non-package folder is the root.
      let start = parts.length - 1;
      while (start > 0 && this.files.has([...parts.slice(0, start), "__init__.py"].join("/")))
        start--;
      const modParts = parts.slice(start);
      if (modParts[modParts.length - 1] === "__init__") modParts.pop();
      if (modParts.length === 0) continue;
      const name = modParts.join(".");
      // Prefer the shortest path when two roots define the same module (e.g. src/ vs a copy in docs/).
      const prev = this.pyModules.get(name);
      if (!prev || p.length < prev.length || (p.length === prev.length && p < prev))
        this.pyModules.set(name, p);
    }
    return this.pyModules;
  }

  resolve(fromPath: string, spec: string): string | undefined {
    if (isPython(fromPath)) return this.resolvePython(fromPath, spec);
    if (isScript(fromPath)) return this.resolveScript(fromPath, spec);
    return undefined;
  }

  private resolvePython(fromPath: string, spec: string): string | undefined {
    const dots = /^\.*/.exec(spec)![0].length;
    if (dots === 0) return this.modules().get(spec);
    let base = dirname(fromPath);
    for (let i = 1; i < dots; i++) base = dirname(base);
    const rest = spec.slice(dots).split(".").filter(Boolean).join("/");
    const stem = rest ? (base ? `${base}/${rest}` : rest) : base;
    for (const candidate of [`${stem}.py`, `${stem}/__init__.py`, `${stem}.pyi`]) {
      if (this.files.has(candidate)) return candidate;
    }
    return undefined;
  }

  private tryScriptFile(stem: string): string | undefined {
    if (this.files.has(stem) && isScript(stem)) return stem;
    const withoutJs = stem.replace(/\.(js|jsx|mjs|cjs)$/, "");
    for (const s of withoutJs === stem ? [stem] : [withoutJs, stem]) {
      for (const ext of SCRIPT_EXTS) if (this.files.has(s + ext)) return s + ext;
      for (const ext of SCRIPT_EXTS)
        if (this.files.has(`${s}/index${ext}`)) return `${s}/index${ext}`;
    }
    return undefined;
  }

  private resolveScript(fromPath: string, spec: string): string | undefined {
    if (spec.startsWith(".")) {
      const target = normalize(`${dirname(fromPath)}/${spec}`);
      return target === undefined ? undefined : this.tryScriptFile(target);
    }
    const ts = this.tsPaths;
    if (!ts) return undefined;
    const base = ts.baseUrl ?? "";
    for (const [pattern, targets] of ts.paths) {
      const star = pattern.indexOf("*");
      let captured: string | undefined;
      if (star < 0) captured = pattern === spec ? "" : undefined;
      else if (spec.startsWith(pattern.slice(0, star)) && spec.endsWith(pattern.slice(star + 1)))
        captured = spec.slice(star, spec.length - (pattern.length - star - 1));
      if (captured === undefined) continue;
      for (const t of targets) {
        const mapped = normalize(`${base}/${t.replace("*", captured)}`);
        const hit = mapped === undefined ? undefined : this.tryScriptFile(mapped);
        if (hit) return hit;
      }
    }
    if (ts.baseUrl !== undefined) return this.tryScriptFile(normalize(`${base}/${spec}`) ?? spec);
    return undefined;
  }
}

/** Each file's import neighbours in both directions (what it imports, what imports it). */
export function importNeighbours(
  files: { path: string; entry: { imports: string[] } }[],
  resolver: ImportResolver,
): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  const add = (a: string, b: string) => {
    let set = out.get(a);
    if (!set) out.set(a, (set = new Set()));
    set.add(b);
  };
  for (const f of files) {
    for (const spec of f.entry.imports) {
      const target = resolver.resolve(f.path, spec);
      if (target === undefined || target === f.path) continue;
      add(f.path, target);
      add(target, f.path);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}
