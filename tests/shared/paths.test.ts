import { chmodSync, mkdirSync, mkdtempSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { aicHome, ensurePrivateDir, projectHash } from "../../src/shared/paths.js";

describe("paths", () => {
  it("AIC_HOME overrides the home folder", () => {
    expect(aicHome({ AIC_HOME: "/x/y" })).toBe("/x/y");
  });

  it("project hashes are stable and differ between projects", () => {
    expect(projectHash("/a/b")).toBe(projectHash("/a/b/"));
    expect(projectHash("/a/b")).not.toBe(projectHash("/a/c"));
  });

  it("makes an existing folder private", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "aic-paths-")), "state");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("refuses a symlink instead of chmodding its target", () => {
    const base = mkdtempSync(join(tmpdir(), "aic-paths-"));
    const target = join(base, "shared");
    mkdirSync(target, { mode: 0o755 });
    chmodSync(target, 0o755);
    symlinkSync(target, join(base, "link"));
    expect(() => ensurePrivateDir(join(base, "link"))).toThrow(/not a plain folder/);
    expect(statSync(target).mode & 0o777).toBe(0o755);
  });
});
