import {
  chmodSync,
  lstatSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { atomicWriteFile } from "../../src/install/files.js";
import { cleanupTempDirs, tempDir } from "./helpers.js";

afterAll(cleanupTempDirs);

describe("atomicWriteFile", () => {
  it("replaces the file, keeps its permission bits and leaves no temp file", () => {
    const dir = tempDir("files");
    const path = join(dir, "hooks.json");
    writeFileSync(path, "old");
    chmodSync(path, 0o640);
    atomicWriteFile(path, Buffer.from("new"));
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(["hooks.json"]);
  });

  it("writes through a symlink so a dotfiles link survives", () => {
    const dir = tempDir("files");
    const real = join(dir, "dotfiles-hooks.json");
    const link = join(dir, "hooks.json");
    writeFileSync(real, "old");
    symlinkSync(real, link);
    atomicWriteFile(link, Buffer.from("new"));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe("new");
  });
});
