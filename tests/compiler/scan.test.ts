import { describe, expect, it } from "vitest";
import { builtinExclusion, scanProject } from "../../src/compiler/scan.js";
import { pythonProject, tempDir, writeFiles } from "./fixtures.js";

const noGit = { gitListFiles: () => undefined };

function reasons(result: ReturnType<typeof scanProject>): Record<string, string> {
  return Object.fromEntries(result.skipped.map((s) => [s.path, s.reason]));
}

describe("scan", () => {
  for (const mode of ["walk", "git"] as const) {
    it(`lists candidates and applies every exclusion (${mode})`, () => {
      const { root } = pythonProject({ git: mode === "git" });
      const result = scanProject(root, mode === "walk" ? noGit : undefined);
      expect(result.source).toBe(mode);
      const paths = result.files.map((f) => f.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          "app/auth.py",
          "app/hashing.py",
          "tests/test_auth.py",
          "README.md",
          ".env.example",
          "app/tokens_alias.py",
        ]),
      );
      // nested .gitignore, root .gitignore, .aicignore, dependency folders
      expect(paths).not.toContain("app/generated_models.py");
      expect(paths).not.toContain("app/debug.log");
      expect(paths).not.toContain("scratch/notes.py");
      expect(paths.some((p) => p.startsWith("node_modules/"))).toBe(false);
      const why = reasons(result);
      expect(why["app/leak.py"]).toBe("symlink points outside the project");
      expect(why["assets/logo.png"]).toBe("binary file type");
      expect(why["package-lock.json"]).toBe("lockfile");
      expect(why["data/huge.py"]).toMatch(/larger than 1 MB/);
      expect(why["scratch/notes.py"]).toBe(".aicignore");
      // Paths are project-relative with "/" and sorted.
      expect([...paths].sort()).toEqual(paths);
    });
  }

  it("falls back to a walk outside git and never follows folder symlinks out", () => {
    const root = tempDir("walk");
    writeFiles(root, {
      "a.py": "x = 1\n",
      "sub/.gitignore": "/ignored.py\n",
      "sub/ignored.py": "",
      "sub/kept.py": "",
    });
    const result = scanProject(root, noGit);
    expect(result.files.map((f) => f.path)).toEqual(["a.py", "sub/.gitignore", "sub/kept.py"]);
  });

  it("names built-in exclusions", () => {
    expect(builtinExclusion("dist/index.js")).toMatch(/dist/);
    expect(builtinExclusion("src/app.min.js")).toBe("minified or source map");
    // AIC's deployed hooks and rule describe AIC, not the project; the user's own hooks stay.
    expect(builtinExclusion(".cursor/hooks/AIC-compile-context.cjs")).toMatch(/AIC's own/);
    expect(builtinExclusion("web/.cursor/rules/AIC.mdc")).toMatch(/AIC's own/);
    expect(builtinExclusion(".cursor/hooks/team-start.sh")).toBeUndefined();
    expect(builtinExclusion(".cursor/rules/AIC-architect.mdc")).toBeUndefined();
    expect(builtinExclusion("proto/user_pb2.py")).toBe("generated file");
    expect(builtinExclusion("src/app.ts")).toBeUndefined();
  });
});
