import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { effectiveBudget, MIN_BUDGET } from "../../src/service/budget.js";
import { compileCacheKey } from "../../src/service/cache-key.js";
import { isWeakIntent, resolveIntent } from "../../src/service/intent.js";
import { resolveProjectRoot } from "../../src/service/project-root.js";

describe("weak intents", () => {
  it("recognises follow-ups whatever their case and punctuation, and nothing with a subject", () => {
    for (const w of [
      "",
      "   ",
      "continue",
      "Continue!",
      "go on",
      "Go  on...",
      "yes",
      "OK",
      "keep going",
      "proceed.",
    ])
      expect(isWeakIntent(w), JSON.stringify(w)).toBe(true);
    for (const s of [
      "continue the parser refactor",
      "yes, rename login to signIn",
      "go on with auth/login.ts",
    ])
      expect(isWeakIntent(s), s).toBe(false);
  });

  it("stores only real intents as the conversation's last intent", () => {
    expect(resolveIntent({ given: "fix login" })).toEqual({
      intent: "fix login",
      source: "given",
      realIntent: "fix login",
    });
    expect(resolveIntent({ given: "yes", lastRealIntent: "fix login" })).toEqual({
      intent: "fix login",
      source: "conversation-fallback",
      realIntent: null,
    });
    expect(resolveIntent({ given: "", stepIntent: "open users.ts" })).toMatchObject({
      intent: "open users.ts",
      source: "step-intent",
    });
  });
});

describe("budget", () => {
  it("is unchanged without conversationTokens, shrinks as the conversation fills, never below the floor", () => {
    expect(effectiveBudget(8000)).toBe(8000);
    expect(effectiveBudget(8000, 50_000)).toBe(8000);
    expect(effectiveBudget(8000, 180_000)).toBe(5000);
    expect(effectiveBudget(8000, 199_000)).toBe(MIN_BUDGET);
    expect(effectiveBudget(500, 199_000)).toBe(500);
  });
});

describe("projectRoot", () => {
  const home = mkdtempSync(join(tmpdir(), "aic-root-"));
  const project = join(home, "proj");
  mkdirSync(project);
  writeFileSync(join(home, "file.txt"), "x");

  it("accepts an existing absolute folder and returns its real path", () => {
    symlinkSync(project, join(home, "link"));
    expect(resolveProjectRoot(join(home, "link"), home)).toBe(project);
    expect(resolveProjectRoot(pathToFileURL(project).href, home)).toBe(project);
  });

  it("refuses relative paths, missing folders, files, / and the home folder (also via a symlink)", () => {
    expect(() => resolveProjectRoot("proj", home)).toThrow(/absolute path/);
    expect(() => resolveProjectRoot("", home)).toThrow(/projectRoot is required/);
    expect(() => resolveProjectRoot(join(home, "missing"), home)).toThrow(/does not exist/);
    expect(() => resolveProjectRoot(join(home, "file.txt"), home)).toThrow(/is a file/);
    expect(() => resolveProjectRoot("/", home)).toThrow(/filesystem root/);
    expect(() => resolveProjectRoot(home, home)).toThrow(/home folder/);
    symlinkSync(home, join(project, "home-link"));
    expect(() => resolveProjectRoot(join(project, "home-link"), home)).toThrow(/home folder/);
  });
});

describe("cache key", () => {
  const request = { projectRoot: "/p", intent: "fix login", budget: 8000 };
  it("changes with the AIC build and the content fingerprint, not with related-file order", () => {
    const key = compileCacheKey(request, "fp1", "0.1.0+1");
    expect(compileCacheKey(request, "fp1", "0.1.0+2")).not.toBe(key);
    expect(compileCacheKey(request, "fp2", "0.1.0+1")).not.toBe(key);
    const a = {
      ...request,
      toolOutputs: [{ type: "t", content: "", relatedFiles: ["b.ts", "a.ts"] }],
    };
    const b = {
      ...request,
      toolOutputs: [{ type: "t", content: "", relatedFiles: ["a.ts", "b.ts"] }],
    };
    expect(compileCacheKey(a, "fp1", "x")).toBe(compileCacheKey(b, "fp1", "x"));
  });
});
