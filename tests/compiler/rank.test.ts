import { describe, expect, it } from "vitest";
import { analyzeIntent } from "../../src/compiler/intent.js";
import { ProjectIndex } from "../../src/compiler/project-index.js";
import { ImportResolver } from "../../src/compiler/imports.js";
import { mainFamily, priorFor, rankFiles } from "../../src/compiler/rank.js";
import { scanProject } from "../../src/compiler/scan.js";
import { pythonProject, writeFiles } from "./fixtures.js";

function rank(
  root: string,
  intent: string,
  extra: { relatedFiles?: string[]; previousFiles?: string[] } = {},
) {
  const index = new ProjectIndex();
  const { files } = index.refresh(root, scanProject(root, { gitListFiles: () => undefined }).files);
  const text = files.filter((f) => !f.entry.skip);
  return rankFiles({
    intent: analyzeIntent(intent),
    files: text,
    vocab: index.vocab,
    resolver: new ImportResolver(text.map((f) => f.path)),
    ...extra,
  }).ranked;
}

describe("rank", () => {
  it("puts the file about the subject first and keeps every score part", () => {
    const { root } = pythonProject();
    const ranked = rank(root, "unicode password verification fails");
    expect(ranked[0]!.path).toBe("app/auth.py");
    expect(Object.keys(ranked[0]!.parts).sort()).toEqual(
      [
        "content",
        "summary",
        "frame",
        "graph",
        "mention",
        "path",
        "previous",
        "prior",
        "related",
        "symbols",
      ].sort(),
    );
  });

  it("does not match task verbs inside other words", () => {
    const { root } = pythonProject();
    // "add" is a task verb; the address module must not win because it contains "add".
    const ranked = rank(root, "add hashing salt");
    expect(ranked[0]!.path).toBe("app/hashing.py");
  });

  it("treats a named symbol, a path or a stack frame as near certain", () => {
    const { root } = pythonProject();
    writeFiles(root, { "app/misc.py": "# tokens tokens tokens make token make token\n" });
    expect(rank(root, "something about make_token")[0]!.path).toBe("app/tokens.py");
    expect(rank(root, "look at app/address.py please")[0]!.path).toBe("app/address.py");
    const frame = rank(
      root,
      'Traceback:\n  File "/srv/site-packages/app/tokens.py", line 2, in make_token\nTypeError',
    );
    expect(frame[0]!.path).toBe("app/tokens.py");
    expect(frame[0]!.parts.frame).toBe(1);
  });

  it("ranks tests down unless the task is about tests", () => {
    const { root } = pythonProject();
    const fix = rank(root, "verify_password rejects valid passwords");
    const testTask = rank(root, "write unit tests for verify_password");
    const pos = (r: typeof fix, p: string) => r.findIndex((x) => x.path === p);
    expect(pos(fix, "tests/test_auth.py")).toBeGreaterThan(pos(fix, "app/auth.py"));
    expect(fix.find((x) => x.path === "tests/test_auth.py")!.parts.prior).toBeLessThan(1);
    expect(testTask.find((x) => x.path === "tests/test_auth.py")!.parts.prior).toBe(1);
  });

  it("gives import neighbours of strong hits a share, and honours related and previous files", () => {
    const { root } = pythonProject();
    const ranked = rank(root, "verify_password");
    const hashing = ranked.find((r) => r.path === "app/hashing.py")!;
    expect(hashing.parts.graph).toBeGreaterThan(0); // auth.py imports it
    const related = rank(root, "verify_password", {
      relatedFiles: ["app/address.py"],
      previousFiles: ["README.md"],
    });
    expect(related.find((r) => r.path === "app/address.py")!.parts.related).toBe(1);
    expect(related.find((r) => r.path === "README.md")!.parts.previous).toBe(1);
    expect(related.findIndex((r) => r.path === "app/address.py")).toBeLessThan(
      ranked.findIndex((r) => r.path === "app/address.py"),
    );
  });

  it("ranks code outside the project's main language down a little", () => {
    expect(mainFamily(["python", "python", "python", "javascript", "markdown"])).toBe("python");
    expect(mainFamily(["python", "typescript", "tsx", "javascript"])).toBe("js");
    expect(mainFamily(["python", "go"])).toBeUndefined();
    const intent = analyzeIntent("render the page");
    expect(
      priorFor("sphinx/themes/basic/static/searchtools.js", "javascript", intent, "python"),
    ).toBeLessThan(1);
    expect(priorFor("sphinx/builders/html.py", "python", intent, "python")).toBe(1);
  });

  it("is deterministic", () => {
    const { root } = pythonProject();
    expect(rank(root, "password token").map((r) => r.path)).toEqual(
      rank(root, "password token").map((r) => r.path),
    );
  });
});
