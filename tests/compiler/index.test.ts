import { writeFileSync, renameSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanProject } from "../../src/compiler/scan.js";
import {
  ProjectIndex,
  buildEntry,
  Vocabulary,
  decodeText,
  indexFile,
  type WorkerIndexer,
  type WorkerResult,
} from "../../src/compiler/project-index.js";
import { loadIndex, saveIndex } from "../../src/compiler/index-cache.js";
import { ImportResolver, extractImports, readTsPaths } from "../../src/compiler/imports.js";
import { pythonProject, tempDir, writeFiles } from "./fixtures.js";

const noGit = { gitListFiles: () => undefined };

describe("index entries", () => {
  it("records language, terms, defined names and imports", () => {
    const vocab = new Vocabulary();
    const e = buildEntry(
      "app/auth.py",
      "from .hashing import hash_password\n\ndef verify_password(p):\n    return hash_password(p)\n",
      vocab,
    );
    expect(e.lang).toBe("python");
    expect(e.defs).toEqual(["verify_password"]);
    expect(e.imports).toEqual(expect.arrayContaining([".hashing", ".hashing.hash_password"]));
    const terms = new Map<string, number>();
    for (let i = 0; i < e.termIds.length; i += 2)
      terms.set(vocab.words[e.termIds[i]!]!, e.termIds[i + 1]!);
    expect(terms.get("hashpassword")).toBe(2);
    expect(e.lines).toBe(5);
  });

  it("tells binary and non-UTF-8 content apart from text", () => {
    expect(decodeText(Buffer.from("héllo"))).toEqual({ text: "héllo" });
    expect(decodeText(Buffer.from([0x61, 0, 0x62]))).toEqual({ skip: "binary content" });
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62]))).toEqual({ skip: "not UTF-8 text" });
  });
});

describe("index refresh and the on-disk cache", () => {
  it("re-reads only changed files and reuses entries by content hash", () => {
    const { root } = pythonProject();
    const index = new ProjectIndex();
    const first = index.refresh(root, scanProject(root, noGit).files);
    expect(first.stats.read).toBe(first.files.length);
    const nonText = first.files.filter((f) => f.entry.skip).map((f) => [f.path, f.entry.skip]);
    expect(nonText).toEqual([["data/blob.txt", "binary content"]]);

    const again = index.refresh(root, scanProject(root, noGit).files);
    expect(again.stats).toMatchObject({ read: 0, indexed: 0 });
    expect(again.changed).toBe(false);

    writeFileSync(join(root, "app/hashing.py"), "def hash_password(raw):\n    return raw[::-1]\n");
    renameSync(join(root, "app/tokens.py"), join(root, "app/token_utils.py"));
    unlinkSync(join(root, "app/address.py"));
    const after = index.refresh(root, scanProject(root, noGit).files);
    // hashing.py changed (read + indexed); the renamed file is read but its content is known.
    expect(after.stats.indexed).toBe(1);
    expect(after.stats.read).toBe(2);
    expect(after.stats.removed).toBeGreaterThanOrEqual(2);
    expect(after.files.map((f) => f.path)).toContain("app/token_utils.py");
  });

  it("round-trips through the cache so a new process re-reads nothing", () => {
    const { root } = pythonProject();
    const cache = tempDir("cache");
    const index = new ProjectIndex();
    const files = scanProject(root, noGit).files;
    const built = index.refresh(root, files);
    const auth = built.files.find((f) => f.path === "app/auth.py")!;
    auth.entry.symbols = [
      { name: "verify_password", kind: "function", startLine: 8, endLine: 11, headerEndLine: 8 },
    ];
    saveIndex(cache, index);

    const { index: loaded, note } = loadIndex(cache);
    expect(note).toBeUndefined();
    const warm = loaded.refresh(root, files);
    expect(warm.stats.read).toBe(0);
    const loadedAuth = warm.files.find((f) => f.path === "app/auth.py")!;
    expect(loadedAuth.entry.symbols?.[0]?.name).toBe("verify_password");
    expect(loadedAuth.entry.defs).toEqual(auth.entry.defs);
    const words = (e: typeof auth.entry, v: Vocabulary) => {
      const out: string[] = [];
      for (let i = 0; i < e.termIds.length; i += 2)
        out.push(`${v.words[e.termIds[i]!]}:${e.termIds[i + 1]}`);
      return out.sort();
    };
    expect(words(loadedAuth.entry, loaded.vocab)).toEqual(words(auth.entry, index.vocab));
  });

  it("merges entries indexed on another thread into the same terms as a single-thread refresh", async () => {
    const { root } = pythonProject();
    const files = scanProject(root, noGit).files;
    const single = new ProjectIndex();
    const one = single.refresh(root, files);
    // The worker contract, run in-thread: its own vocabulary, ids mapped back on merge.
    const indexer: WorkerIndexer = async (r, part) => {
      const vocab = new Vocabulary(["padding-word"]);
      const out: WorkerResult = { words: vocab.words, files: [] };
      for (const file of part) {
        const indexed = indexFile(r, file, vocab, new Map(), () => false);
        if (indexed) out.files.push({ file, ...indexed });
      }
      return out;
    };
    const parallel = new ProjectIndex();
    const two = await parallel.refreshParallel(root, files, indexer, 1);
    expect(two.stats.read).toBe(one.stats.read);
    const termsOf = (index: ProjectIndex, result: typeof one) =>
      Object.fromEntries(
        result.files.map((f) => {
          const t: string[] = [];
          for (let i = 0; i < f.entry.termIds.length; i += 2)
            t.push(`${index.vocab.words[f.entry.termIds[i]!]}:${f.entry.termIds[i + 1]}`);
          return [f.path, [t.sort(), f.entry.defTermIds.map((id) => index.vocab.words[id]).sort()]];
        }),
      );
    expect(termsOf(parallel, two)).toEqual(termsOf(single, one));
    // A failing worker means the main thread does the rest.
    const fallback = await new ProjectIndex().refreshParallel(
      root,
      files,
      () => Promise.reject(new Error("no worker")),
      1,
    );
    expect(fallback.files.map((f) => f.path)).toEqual(one.files.map((f) => f.path));
  });

  it("starts empty, with a note, from a missing or corrupt cache", () => {
    const dir = tempDir("cache");
    expect(loadIndex(dir).note).toBe("no index cache yet");
    writeFiles(dir, { "index.json": "{not json" });
    expect(loadIndex(dir).note).toMatch(/unreadable/);
  });
});

describe("imports", () => {
  it("resolves Python absolute, relative and src-layout imports", () => {
    const files = [
      "src/pkg/__init__.py",
      "src/pkg/core.py",
      "src/pkg/sub/__init__.py",
      "src/pkg/sub/util.py",
      "tests/test_core.py",
    ];
    const r = new ImportResolver(files);
    expect(r.resolve("tests/test_core.py", "pkg.core")).toBe("src/pkg/core.py");
    expect(r.resolve("src/pkg/sub/util.py", "..core")).toBe("src/pkg/core.py");
    expect(r.resolve("src/pkg/core.py", ".sub")).toBe("src/pkg/sub/__init__.py");
    expect(r.resolve("src/pkg/core.py", "pkg.sub.util")).toBe("src/pkg/sub/util.py");
    expect(r.resolve("src/pkg/core.py", "os.path")).toBeUndefined();
    expect(
      extractImports(
        "a.py",
        "from pkg import (\n    core,\n    sub,\n)\nimport os, pkg.sub.util\n",
      ),
    ).toEqual(expect.arrayContaining(["pkg", "pkg.core", "pkg.sub", "os", "pkg.sub.util"]));
  });

  it("resolves TypeScript relative, .js-suffixed, index and tsconfig paths imports", () => {
    const files = ["src/index.ts", "src/money.ts", "src/lib/invoice.ts", "src/lib/index.ts"];
    const r = new ImportResolver(
      files,
      readTsPaths(
        `{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/lib/*"] } } }`,
      ),
    );
    expect(r.resolve("src/index.ts", "./money.js")).toBe("src/money.ts");
    expect(r.resolve("src/index.ts", "@lib/invoice")).toBe("src/lib/invoice.ts");
    expect(r.resolve("src/index.ts", "./lib")).toBe("src/lib/index.ts");
    expect(r.resolve("src/lib/index.ts", "./invoice")).toBe("src/lib/invoice.ts");
    expect(r.resolve("src/index.ts", "react")).toBeUndefined();
    expect(
      extractImports(
        "src/index.ts",
        `import { a } from "@lib/invoice";\nexport * from './x';\nconst y = require("./y");\n`,
      ),
    ).toEqual(["@lib/invoice", "./x", "./y"]);
  });
});
