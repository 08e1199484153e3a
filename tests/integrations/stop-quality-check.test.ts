/**
 * The stop hook really runs the project's own ESLint and tsc (this repository's binaries, linked
 * into a temporary project's node_modules/.bin) on the files edited in the conversation.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildHooks,
  fixture,
  makeSandbox,
  readHealth,
  REPO_ROOT,
  runHook,
  type Sandbox,
} from "./helpers.js";

// Top-level await: every test in the file runs against the same private bundles.
const hooks = await buildHooks();

function tsProject(files: Record<string, string>, eslintConfig?: string | null): Sandbox {
  const sb = makeSandbox();
  mkdirSync(join(sb.root, "node_modules/.bin"), { recursive: true });
  for (const bin of ["eslint", "tsc"])
    symlinkSync(join(REPO_ROOT, "node_modules/.bin", bin), join(sb.root, "node_modules/.bin", bin));
  if (eslintConfig !== null)
    writeFileSync(
      join(sb.root, "eslint.config.mjs"),
      eslintConfig ??
        'export default [{ files: ["**/*.js"], languageOptions: { sourceType: "module" }, rules: { "no-unused-vars": "error" } }];\n',
    );
  writeFileSync(
    join(sb.root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "bundler",
        types: [],
        skipLibCheck: true,
      },
      include: ["src"],
    }),
  );
  mkdirSync(join(sb.root, "src"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(sb.root, name), text);
  return sb;
}

async function edit(sb: Sandbox, files: string[]): Promise<void> {
  await runHook(hooks, "AIC-after-file-edit-tracker.cjs", sb, {
    ...fixture("afterFileEdit", sb.root),
    file_path: undefined,
    files,
  });
}

const stop = (sb: Sandbox) =>
  runHook(hooks, "AIC-stop-quality-check.cjs", sb, fixture("stop", sb.root));

describe("AIC-stop-quality-check", () => {
  it("asks for a fix of the lint and type errors in the edited files only", async () => {
    const sb = tsProject({
      "src/bad.js": "const unused = 1;\nexport const used = 2;\n",
      "src/types.ts": 'export const n: number = "text";\n',
      "src/untouched.ts": "export const m: string = 1;\n",
    });
    await edit(sb, ["src/bad.js", join(sb.root, "src/types.ts")]);
    const r = await stop(sb);
    expect(Object.keys(r.json ?? {})).toEqual(["followup_message"]);
    const msg = String(r.json?.followup_message);
    expect(msg).toMatch(
      /ESLint: 1 error\n- src\/bad\.js:1:7 no-unused-vars: 'unused' is assigned a value but never used/,
    );
    expect(msg).toMatch(
      /TypeScript \(tsc --noEmit\): 1 error\n- src\/types\.ts:1:14 TS2322: Type 'string' is not assignable to type 'number'/,
    );
    expect(msg).not.toContain("untouched");
    expect(readHealth(sb)).toEqual([]);
  });

  it("runs the packages' own bin scripts when .bin holds shell shims (pnpm layout)", async () => {
    const sb = makeSandbox();
    mkdirSync(join(sb.root, "node_modules/.bin"), { recursive: true });
    for (const [pkg, bin] of [
      ["eslint", "eslint"],
      ["typescript", "tsc"],
    ]) {
      symlinkSync(join(REPO_ROOT, "node_modules", pkg!), join(sb.root, "node_modules", pkg!));
      // A shim that would fail if the hook ran it instead of the package's script.
      writeFileSync(join(sb.root, "node_modules/.bin", bin!), "#!/bin/sh\nexit 3\n", {
        mode: 0o755,
      });
    }
    writeFileSync(
      join(sb.root, "eslint.config.mjs"),
      'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error" } }];\n',
    );
    writeFileSync(
      join(sb.root, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, types: [] },
        include: ["src"],
      }),
    );
    mkdirSync(join(sb.root, "src"));
    writeFileSync(join(sb.root, "src/bad.js"), "const unused = 1;\n");
    writeFileSync(join(sb.root, "src/types.ts"), 'export const n: number = "text";\n');
    await edit(sb, ["src/bad.js", "src/types.ts"]);
    const msg = String((await stop(sb)).json?.followup_message);
    expect(msg).toContain("ESLint: 1 error");
    expect(msg).toContain("TypeScript (tsc --noEmit): 1 error");
    expect(readHealth(sb)).toEqual([]);
  });

  it("runs each monorepo package's own tools from that package", async () => {
    const sb = makeSandbox();
    const app = join(sb.root, "packages/app");
    mkdirSync(join(app, "node_modules"), { recursive: true });
    mkdirSync(join(app, "src"));
    for (const pkg of ["eslint", "typescript"])
      symlinkSync(join(REPO_ROOT, "node_modules", pkg), join(app, "node_modules", pkg));
    writeFileSync(
      join(app, "eslint.config.mjs"),
      'export default [{ rules: { "no-unused-vars": "error" } }];\n',
    );
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, types: [] },
        include: ["src"],
      }),
    );
    writeFileSync(join(app, "src/bad.js"), "const unused = 1;\n");
    writeFileSync(join(app, "src/types.ts"), 'export const n: number = "text";\n');
    mkdirSync(join(sb.root, "docs"));
    writeFileSync(join(sb.root, "docs/notes.js"), "const alsoUnused = 1;\n"); // no tools at the root
    await edit(sb, ["packages/app/src/bad.js", "packages/app/src/types.ts", "docs/notes.js"]);
    const msg = String((await stop(sb)).json?.followup_message);
    expect(msg).toContain("- packages/app/src/bad.js:1:7 no-unused-vars:");
    expect(msg).toContain("- packages/app/src/types.ts:1:14 TS2322:");
    expect(msg).not.toContain("docs/notes.js");
    expect(readHealth(sb)).toEqual([]);
  });

  it("stays quiet when the edited files are clean", async () => {
    const sb = tsProject({
      "src/ok.js": "export const used = 2;\n",
      "src/ok.ts": "export const n: number = 1;\n",
      "src/untouched.ts": "export const m: string = 1;\n",
    });
    await edit(sb, ["src/ok.js", "src/ok.ts"]);
    expect((await stop(sb)).json).toEqual({});
    expect(readHealth(sb)).toEqual([]);
  });

  it("stays quiet with nothing edited or no local tools", async () => {
    const sb = tsProject({ "src/types.ts": 'export const n: number = "x";\n' });
    expect((await stop(sb)).json).toEqual({});
    const bare = makeSandbox();
    mkdirSync(join(bare.root, "src"));
    writeFileSync(join(bare.root, "src/a.ts"), 'export const n: number = "x";\n');
    await edit(bare, ["src/a.ts"]);
    expect((await stop(bare)).json).toEqual({});
  });

  // Red if an ESLint the project never configured (a dependency's dependency) ran anyway: it
  // exits 2 on every stop and `aic doctor` then reports a hook failure (first-install QA).
  it("skips an installed ESLint the project does not configure, and still runs tsc", async () => {
    const sb = tsProject(
      { "src/bad.js": "const unused = 1;\n", "src/types.ts": 'export const n: number = "x";\n' },
      null,
    );
    await edit(sb, ["src/bad.js", "src/types.ts"]);
    const out = (await stop(sb)).json as { followup_message?: string };
    expect(out.followup_message).toMatch(/src\/types\.ts:1:14 TS2322/);
    expect(out.followup_message).not.toMatch(/src\/bad\.js|no-unused-vars/);
    expect(readHealth(sb)).toEqual([]);
  });

  it("does not blame the edits for a broken ESLint config; the health log says what failed", async () => {
    const sb = tsProject(
      { "src/bad.js": "const unused = 1;\n" },
      "export default [ this is not javascript\n",
    );
    await edit(sb, ["src/bad.js"]);
    expect((await stop(sb)).json).toEqual({});
    const health = readHealth(sb);
    expect(health).toHaveLength(1);
    expect(health[0]).toMatchObject({ hook: "AIC-stop-quality-check", stage: "quality check" });
    expect(String(health[0]!.message)).toMatch(/^eslint exited 2/);
  });
});
