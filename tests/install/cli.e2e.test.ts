/**
 * End to end: the built CLI (`node dist/cli.js`) run as a user runs it, with HOME and AIC_HOME
 * in temp folders, in real git repositories and outside one.
 */
import { parse } from "jsonc-parser";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOK_REGISTRATIONS, HOOK_SCRIPTS } from "../../src/integrations/cursor/manifest.js";
import {
  builtPackageCopy,
  cleanupTempDirs,
  contentOnly,
  read,
  runCli,
  sandbox,
  skipGitInternals,
  treeSnapshot,
  type Sandbox,
} from "./helpers.js";

/** A hand-written hooks.json: comments, trailing commas, user entries under AIC's events and others, extra keys. */
const USER_HOOKS = `// Team hooks: keep this comment
{
  "version": 1,
  "x-team": { "owner": "me", "ratio": 2.50, "big": 12345678901234567890 },
  "hooks": {
    /* ours */
    "sessionStart": [
      { "command": "echo mine", "timeout": 3 },
    ],
    "stop": [{ "command": "./lint.sh" }],
    "beforeReadFile": [{ "command": "./guard.sh" }]
  }
}
`;

const USER_MCP = `{
\t"mcpServers": {
\t\t"other": { "command": "other-server" }
\t}
}
`;

let pkg: string;
let realHooks = false;
beforeAll(() => {
  ({ root: pkg, realHooks } = builtPackageCopy());
});
afterAll(cleanupTempDirs);

function writeProjectFile(sbx: Sandbox, rel: string, text: string): void {
  const path = join(sbx.project, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** The project and the home folder, the two trees the installer may touch. */
function trees(sbx: Sandbox) {
  return {
    project: treeSnapshot(sbx.project, skipGitInternals),
    home: treeSnapshot(sbx.home),
  };
}

function hookCommands(text: string): Array<{ event: string; command: string }> {
  const doc = parse(text) as { hooks: Record<string, Array<{ command: string }>> };
  return Object.entries(doc.hooks).flatMap(([event, entries]) =>
    entries.map((e) => ({ event, command: e.command })),
  );
}

function aicEntries(text: string) {
  return hookCommands(text).filter((e) => e.command.includes("AIC-"));
}

describe("aic install cursor / uninstall / doctor (built CLI)", () => {
  it("in a git repo: merges around the user's hooks, is idempotent, and uninstall restores every byte", async () => {
    const sbx = sandbox({ git: true });
    writeProjectFile(sbx, ".cursor/hooks.json", USER_HOOKS);
    writeProjectFile(sbx, ".cursor/mcp.json", USER_MCP);
    mkdirSync(sbx.aicHome, { recursive: true });
    writeFileSync(join(sbx.aicHome, "aic.sqlite"), "db");
    const before = trees(sbx);

    const first = await runCli(pkg, sbx, ["install", "cursor"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);

    const hooks = read(join(sbx.project, ".cursor/hooks.json"));
    for (const keep of [
      "// Team hooks: keep this comment",
      "/* ours */",
      '"ratio": 2.50',
      "12345678901234567890",
      '{ "command": "./guard.sh" }',
    ]) {
      expect(hooks).toContain(keep);
    }
    const expected = HOOK_REGISTRATIONS.map((r) => ({
      event: r.event,
      command: `node .cursor/hooks/${r.script}`,
    }));
    expect(aicEntries(hooks).sort(byKey)).toEqual(expected.sort(byKey));
    expect(hookCommands(hooks)).toEqual(
      expect.arrayContaining([
        { event: "sessionStart", command: "echo mine" },
        { event: "stop", command: "./lint.sh" },
      ]),
    );

    for (const script of HOOK_SCRIPTS) {
      const bundle = read(join(pkg, "dist/hooks", script));
      const deployed = read(join(sbx.project, ".cursor/hooks", script));
      expect(deployed).toBe(bundle.split('"__AIC_PACKAGE_ROOT__"').join(JSON.stringify(pkg)));
    }
    const mcp = read(join(sbx.project, ".cursor/mcp.json"));
    expect(mcp).toContain('\t\t"other": { "command": "other-server" }');
    expect(parse(mcp).mcpServers.aic).toEqual({
      command: "node",
      args: [join(pkg, "dist", "cli.js"), "serve"],
    });
    const rule = read(join(sbx.project, ".cursor/rules/AIC.mdc"));
    expect(rule).toMatch(/^---\n[^]*alwaysApply: true\n---/);
    expect(rule).toContain("aic_compile");
    expect(rule).toContain(`aic-version: ${JSON.parse(read(join(pkg, "package.json"))).version}`);
    expect(read(join(sbx.project, ".git/info/exclude")).split("\n")).toContain(".aic/");
    expect(statSync(join(sbx.project, ".aic")).mode & 0o777).toBe(0o700);
    expect(statSync(join(sbx.project, ".aic/install/state.json")).mode & 0o777).toBe(0o600);
    expect(existsSync(join(sbx.project, ".gitignore"))).toBe(false);

    // Idempotent: no byte and no mtime changes anywhere, and it says so.
    const installed = trees(sbx);
    const second = await runCli(pkg, sbx, ["install", "cursor"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/nothing changed/);
    expect(trees(sbx)).toEqual(installed);

    const doctor = await runCli(pkg, sbx, ["doctor"]);
    expect(doctor.stdout).toMatch(/ownership verified/);
    expect(doctor.stdout).toMatch(/14 hook scripts present and unmodified/);
    expect(doctor.code).toBe(0);

    const un = await runCli(pkg, sbx, ["uninstall", "cursor"]);
    expect(un.code).toBe(0);
    expect(un.stdout.trim()).toBe("restored");
    const after = trees(sbx);
    expect(contentOnly(after.project)).toEqual(contentOnly(before.project));
    expect(contentOnly(after.home)).toEqual(contentOnly(before.home));
    expect(read(join(sbx.aicHome, "aic.sqlite"))).toBe("db");
  });

  // Each layout, plus a foreign edit made after install that forces the surgical uninstall.
  const layouts: Record<string, { text: string; edit: [string, string]; expected?: string }> = {
    "CRLF and tabs": {
      text: '{\r\n\t"hooks": {\r\n\t\t"stop": [\r\n\t\t\t{ "command": "./lint.sh" }\r\n\t\t]\r\n\t}\r\n}\r\n',
      edit: ["./lint.sh", "./lint2.sh"],
    },
    "minified, no version, no final newline": {
      text: '{"hooks":{"afterFileEdit":[{"command":"fmt"}]},"x":[1e2,-0.0]}',
      edit: ["1e2", "1E2"],
    },
    // The containers AIC created go again; the member the user added stays.
    "empty object": { text: "{}", edit: ["{", '{"mine": true,'], expected: '{"mine": true}' },
  };
  for (const [name, { text, edit, expected }] of Object.entries(layouts)) {
    it(`a hand-made hooks.json survives install and uninstall byte for byte: ${name}`, async () => {
      const sbx = sandbox();
      const hooksPath = join(sbx.project, ".cursor/hooks.json");
      writeProjectFile(sbx, ".cursor/hooks.json", text);
      expect((await runCli(pkg, sbx, ["install", "cursor"])).code).toBe(0);
      expect(aicEntries(read(hooksPath))).toHaveLength(HOOK_REGISTRATIONS.length);
      expect((await runCli(pkg, sbx, ["uninstall", "cursor"])).stdout.trim()).toBe("restored");
      expect(read(hooksPath)).toBe(text);

      expect((await runCli(pkg, sbx, ["install", "cursor"])).code).toBe(0);
      writeFileSync(hooksPath, read(hooksPath).replace(edit[0], edit[1]));
      const un = await runCli(pkg, sbx, ["uninstall", "cursor"]);
      expect(un.stdout).toMatch(/removed AIC's entries from \.cursor\/hooks\.json/);
      expect(read(hooksPath)).toBe(expected ?? text.replace(edit[0], edit[1]));
    });
  }

  it("outside git, after the user edits: uninstall takes out only AIC's parts and lists the drift", async () => {
    const sbx = sandbox();
    writeProjectFile(sbx, ".cursor/hooks.json", USER_HOOKS);
    expect((await runCli(pkg, sbx, ["install", "cursor"])).code).toBe(0);
    expect(existsSync(join(sbx.project, ".git"))).toBe(false);

    const hooksPath = join(sbx.project, ".cursor/hooks.json");
    writeFileSync(hooksPath, read(hooksPath).replace('"owner": "me"', '"owner": "you"'));
    writeProjectFile(sbx, ".cursor/hooks/my-own.sh", "#!/bin/sh\n");
    const rulePath = join(sbx.project, ".cursor/rules/AIC.mdc");
    writeFileSync(rulePath, read(rulePath) + "\nAlso: be brief.\n");

    const doctor = await runCli(pkg, sbx, ["doctor"]);
    expect(doctor.stdout).toMatch(/trigger rule .* was edited/);

    const un = await runCli(pkg, sbx, ["uninstall", "cursor"]);
    expect(un.code).toBe(0);
    expect(un.stdout).not.toMatch(/^restored$/m);
    expect(un.stdout).toMatch(/kept \.cursor\/rules\/AIC\.mdc: edited since AIC wrote it/);
    expect(read(hooksPath)).toBe(USER_HOOKS.replace('"owner": "me"', '"owner": "you"'));
    expect(readdirSync(join(sbx.project, ".cursor/hooks"))).toEqual(["my-own.sh"]);
    expect(read(rulePath)).toContain("Also: be brief.");
    expect(existsSync(join(sbx.project, ".cursor/mcp.json"))).toBe(false);
    expect(existsSync(join(sbx.project, ".aic"))).toBe(false);
  });

  it("in git, after the user edits mcp.json and info/exclude: uninstall removes only AIC's member and line", async () => {
    const sbx = sandbox({ git: true });
    writeProjectFile(sbx, ".cursor/mcp.json", USER_MCP);
    const excludePath = join(sbx.project, ".git/info/exclude");
    const exclude = read(excludePath);
    expect((await runCli(pkg, sbx, ["install", "cursor"])).code).toBe(0);

    const mcpPath = join(sbx.project, ".cursor/mcp.json");
    writeFileSync(mcpPath, read(mcpPath).replace('"other-server"', '"other-server-v2"'));
    writeFileSync(excludePath, read(excludePath) + "build/\n");

    const un = await runCli(pkg, sbx, ["uninstall", "cursor"]);
    expect(un.code).toBe(0);
    expect(un.stdout).toMatch(/removed the aic MCP server from \.cursor\/mcp\.json/);
    expect(read(mcpPath)).toBe(USER_MCP.replace('"other-server"', '"other-server-v2"'));
    expect(read(excludePath)).toBe(exclude + "build/\n");
    expect(existsSync(join(sbx.project, ".cursor/hooks.json"))).toBe(false);
    expect(existsSync(join(sbx.project, ".cursor/hooks"))).toBe(false);
  });

  const refusals: Array<{
    name: string;
    setup: (sbx: Sandbox) => void;
    args?: string[];
    says: RegExp;
  }> = [
    {
      name: "unparseable hooks.json",
      setup: (s) => writeProjectFile(s, ".cursor/hooks.json", '{ "hooks": {'),
      says: /not valid JSON/,
    },
    {
      name: "duplicate keys in hooks.json",
      setup: (s) => writeProjectFile(s, ".cursor/hooks.json", '{ "hooks": {}, "h\\u006foks": {} }'),
      says: /same object key twice/,
    },
    {
      name: "a foreign entry identical to one of AIC's",
      setup: (s) =>
        writeProjectFile(
          s,
          ".cursor/hooks.json",
          '{ "hooks": { "stop": [{ "command": "node .cursor/hooks/AIC-session-end.cjs" }] } }',
        ),
      says: /already has an entry AIC does not own/,
    },
    {
      name: "unparseable mcp.json",
      setup: (s) => writeProjectFile(s, ".cursor/mcp.json", "{ nope"),
      says: /mcp\.json cannot be parsed/,
    },
    {
      name: "duplicate keys in mcp.json",
      setup: (s) =>
        writeProjectFile(s, ".cursor/mcp.json", '{ "mcpServers": {}, "mcpServers": {} }'),
      says: /has the key "mcpServers" twice/,
    },
    {
      name: "a foreign script in AIC's name",
      setup: (s) => writeProjectFile(s, ".cursor/hooks/AIC-stop-quality-check.cjs", "// mine\n"),
      says: /AIC-stop-quality-check\.cjs exists and was not written by AIC/,
    },
    {
      name: "a file where the hooks folder belongs",
      setup: (s) => writeProjectFile(s, ".cursor/hooks", "not a folder\n"),
      says: /\.cursor\/hooks is a file/,
    },
    {
      name: "a project folder that does not exist",
      setup: () => {},
      args: ["--project", "missing-folder"],
      says: /does not exist/,
    },
  ];

  for (const c of refusals) {
    it(`refuses and writes nothing: ${c.name}`, async () => {
      const sbx = sandbox({ git: true });
      writeProjectFile(sbx, "src/app.ts", "export {};\n");
      c.setup(sbx);
      const before = trees(sbx);
      const res = await runCli(pkg, sbx, ["install", "cursor", ...(c.args ?? [])]);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/refused, nothing was written/);
      expect(res.stderr).toMatch(c.says);
      expect(trees(sbx)).toEqual(before);
    });
  }

  it("wear needs git; unwear restores exactly or changes nothing and says what differs", async () => {
    const outside = sandbox();
    const untouched = trees(outside);
    const refused = await runCli(pkg, outside, ["wear"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not inside a git work tree/);
    expect(trees(outside)).toEqual(untouched);

    const sbx = sandbox({ git: true });
    writeProjectFile(sbx, ".cursor/hooks.json", USER_HOOKS);
    const before = trees(sbx);
    expect((await runCli(pkg, sbx, ["wear"])).stdout.trim()).toBe("worn");
    const hooksPath = join(sbx.project, ".cursor/hooks.json");
    const worn = read(hooksPath);
    writeFileSync(hooksPath, worn.replace('"owner": "me"', '"owner": "you"'));
    const edited = trees(sbx);
    const differs = await runCli(pkg, sbx, ["unwear"]);
    expect(differs.code).toBe(1);
    expect(differs.stderr).toMatch(/\.cursor\/hooks\.json changed since install/);
    expect(trees(sbx)).toEqual(edited);

    writeFileSync(hooksPath, worn);
    const unworn = await runCli(pkg, sbx, ["unwear"]);
    expect(unworn.stdout.trim()).toBe("restored");
    expect(contentOnly(trees(sbx).project)).toEqual(contentOnly(before.project));
  });

  it("--dry-run lists what install would do and writes nothing", async () => {
    const sbx = sandbox({ git: true });
    writeProjectFile(sbx, ".cursor/hooks.json", USER_HOOKS);
    const before = trees(sbx);
    const res = await runCli(pkg, sbx, ["install", "cursor", "--dry-run"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/dry run, nothing written/);
    expect(res.stdout).toMatch(/\.cursor\/hooks\.json: 13 entries added/);
    expect(trees(sbx)).toEqual(before);
  });

  it("two installs at once leave one valid installation", async () => {
    const sbx = sandbox({ git: true });
    writeProjectFile(sbx, ".cursor/hooks.json", USER_HOOKS);
    const [a, b] = await Promise.all([
      runCli(pkg, sbx, ["install", "cursor"]),
      runCli(pkg, sbx, ["install", "cursor"]),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect([a.stdout, b.stdout].filter((o) => /nothing changed/.test(o))).toHaveLength(1);
    expect(aicEntries(read(join(sbx.project, ".cursor/hooks.json")))).toHaveLength(
      HOOK_REGISTRATIONS.length,
    );
    expect((await runCli(pkg, sbx, ["doctor"])).code).toBe(0);
    expect((await runCli(pkg, sbx, ["uninstall", "cursor"])).stdout.trim()).toBe("restored");
  });

  // Writes: 14 scripts, hooks.json (15th), rule, mcp.json, info/exclude (18th, the last before the
  // final state is committed). AIC_INSTALL_EXHAUSTIVE=1 tries every write point.
  const exhaustive = process.env.AIC_INSTALL_EXHAUSTIVE === "1";
  const writePoints = Array.from({ length: 18 }, (_, i) => i + 1);
  for (const crashAfter of exhaustive ? writePoints : [1, 15, 18]) {
    it(`a process killed after write ${crashAfter} leaves old-or-new files, and a rerun completes`, async () => {
      const sbx = sandbox({ git: true });
      writeProjectFile(sbx, ".cursor/hooks.json", USER_HOOKS);
      const before = trees(sbx);
      const killed = await runCli(pkg, sbx, ["install", "cursor"], {
        AIC_INSTALL_CRASH_AFTER: String(crashAfter),
      });
      expect(killed.signal).toBe("SIGKILL");
      const hooks = read(join(sbx.project, ".cursor/hooks.json"));
      expect(hooks === USER_HOOKS || aicEntries(hooks).length === HOOK_REGISTRATIONS.length).toBe(
        true,
      );
      expect(
        readdirSync(join(sbx.project, ".cursor/hooks")).filter((f) => f.endsWith(".tmp")),
      ).toEqual([]);

      const rerun = await runCli(pkg, sbx, ["install", "cursor"]);
      expect(rerun.stderr).toBe("");
      expect(rerun.code).toBe(0);
      expect((await runCli(pkg, sbx, ["doctor"])).code).toBe(0);
      expect((await runCli(pkg, sbx, ["uninstall", "cursor"])).stdout.trim()).toBe("restored");
      expect(contentOnly(trees(sbx).project)).toEqual(contentOnly(before.project));
    });
  }

  for (const crashAfter of exhaustive ? writePoints : [1, 16]) {
    it(`an uninstall killed after write ${crashAfter} is completed by a rerun, restoring every byte`, async () => {
      const sbx = sandbox({ git: true });
      writeProjectFile(sbx, ".cursor/hooks.json", USER_HOOKS);
      const before = trees(sbx);
      expect((await runCli(pkg, sbx, ["install", "cursor"])).code).toBe(0);
      const killed = await runCli(pkg, sbx, ["uninstall", "cursor"], {
        AIC_INSTALL_CRASH_AFTER: String(crashAfter),
      });
      expect(killed.signal).toBe("SIGKILL");
      const rerun = await runCli(pkg, sbx, ["uninstall", "cursor"]);
      expect(rerun.stdout.trim()).toBe("restored");
      expect(contentOnly(trees(sbx).project)).toEqual(contentOnly(before.project));
    });
  }

  it("--user installs absolute, quoted commands into ~/.cursor that a shell runs, and leaves the project alone", async () => {
    const sbx = sandbox({ homeName: "it's my home" });
    const before = trees(sbx);
    const res = await runCli(pkg, sbx, ["install", "cursor", "--user"]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const hooks = read(join(sbx.home, ".cursor/hooks.json"));
    const quoted = (p: string) => `'${p.replace(/'/g, `'"'"'`)}'`;
    const expected = HOOK_REGISTRATIONS.map((r) => ({
      event: r.event,
      command: `node ${quoted(join(sbx.home, ".cursor/hooks", r.script))}`,
    }));
    expect(aicEntries(hooks).sort(byKey)).toEqual(expected.sort(byKey));
    // The rendered command runs the deployed script from Cursor's user-hook cwd (~/.cursor).
    const endHook = aicEntries(hooks).find((e) => e.event === "sessionEnd")!;
    const ran = spawnSync("sh", ["-c", endHook.command], {
      cwd: join(sbx.home, ".cursor"),
      input: "{}",
      encoding: "utf8",
      env: { ...sbx.env, AIC_DAEMON: "off" },
    });
    expect(ran.status).toBe(0);
    expect(ran.stderr).not.toMatch(/Cannot find module/);
    expect(parse(read(join(sbx.home, ".cursor/mcp.json"))).mcpServers.aic.args[1]).toBe("serve");
    expect(trees(sbx).project).toEqual(before.project);
    expect((await runCli(pkg, sbx, ["doctor", "--user"])).code).toBe(0);
    const projectDoctor = await runCli(pkg, sbx, ["doctor"]);
    expect(projectDoctor.stdout).toMatch(/but for the user .* run `aic doctor --user`/);
    expect(projectDoctor.code).toBe(0);
    expect((await runCli(pkg, sbx, ["uninstall", "cursor", "--user"])).stdout.trim()).toBe(
      "restored",
    );
    expect(contentOnly(trees(sbx).home)).toEqual(contentOnly(before.home));
  });

  it("--global-mcp registers in ~/.cursor/mcp.json; devMode skips uninstall unless --force", async () => {
    const sbx = sandbox({ git: true });
    writeProjectFile(sbx, "aic.config.json", '{ "devMode": true }\n');
    expect((await runCli(pkg, sbx, ["install", "cursor", "--global-mcp"])).code).toBe(0);
    expect(existsSync(join(sbx.project, ".cursor/mcp.json"))).toBe(false);
    expect(parse(read(join(sbx.home, ".cursor/mcp.json"))).mcpServers.aic.command).toBe("node");

    const installed = trees(sbx);
    const skipped = await runCli(pkg, sbx, ["uninstall", "cursor"]);
    expect(skipped.code).toBe(1);
    expect(skipped.stderr).toMatch(/devMode: true/);
    expect(trees(sbx)).toEqual(installed);

    const forced = await runCli(pkg, sbx, [
      "uninstall",
      "cursor",
      "--force",
      "--keep-project-artifacts",
    ]);
    expect(forced.stdout.trim()).toBe("restored");
    expect(read(join(sbx.project, "aic.config.json"))).toBe('{ "devMode": true }\n');
    expect(existsSync(join(sbx.project, ".aic"))).toBe(true);
    expect(existsSync(join(sbx.project, ".aic/install"))).toBe(false);
    expect(existsSync(join(sbx.home, ".cursor/mcp.json"))).toBe(false);
    expect(existsSync(join(sbx.project, ".cursor"))).toBe(false);
  });

  it("the deployed compiling hook runs from the project and reaches AIC's runtime (package root baked in)", async (ctx) => {
    if (!realHooks) ctx.skip();
    const sbx = sandbox({ git: true });
    writeProjectFile(
      sbx,
      "src/cart.ts",
      "export function cartTotal(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n",
    );
    expect((await runCli(pkg, sbx, ["install", "cursor"])).code).toBe(0);
    const payload = JSON.stringify({
      conversation_id: "c-install-test",
      generation_id: "g-1",
      cursor_version: "3.22.12",
      workspace_roots: [sbx.project],
      hook_event_name: "sessionStart",
      session_id: "c-install-test",
    });
    // Exactly as Cursor runs a project hook: the hooks.json command, in the project, JSON on stdin.
    const res = spawnSync("sh", ["-c", "node .cursor/hooks/AIC-compile-context.cjs"], {
      cwd: sbx.project,
      input: payload,
      encoding: "utf8",
      env: { ...sbx.env, CURSOR_PROJECT_DIR: sbx.project, AIC_DAEMON: "off" },
    });
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout) as { additional_context?: string };
    // A compiled context came back: the hook loaded the compiler from the package it was deployed from.
    // (A hook that cannot load the runtime fails open with {} and a health-log line instead.)
    expect(out.additional_context?.length ?? 0).toBeGreaterThan(0);
    expect(existsSync(join(sbx.aicHome, "hook-health.jsonl"))).toBe(false);
  });

  it("doctor fails with the fix when a script is missing", async () => {
    const sbx = sandbox();
    expect((await runCli(pkg, sbx, ["install", "cursor"])).code).toBe(0);
    const { rmSync } = await import("node:fs");
    rmSync(join(sbx.project, ".cursor/hooks/AIC-session-end.cjs"));
    const doctor = await runCli(pkg, sbx, ["doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /FAIL hook scripts missing from \.cursor\/hooks: AIC-session-end\.cjs -> run `aic install cursor`/,
    );
    const json = await runCli(pkg, sbx, ["doctor", "--json"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      ok: boolean;
      findings: Array<{ severity: string; message: string }>;
    };
    expect(report.ok).toBe(false);
    expect(report.findings.filter((f) => f.severity === "fail").map((f) => f.message)).toEqual([
      "hook scripts missing from .cursor/hooks: AIC-session-end.cjs",
    ]);
    expect((await runCli(pkg, sbx, ["install", "cursor"])).code).toBe(0);
    expect((await runCli(pkg, sbx, ["doctor"])).code).toBe(0);

    // The last hook errors from the health log (this project's only), as warnings.
    const line = (projectRoot: string, message: string) =>
      JSON.stringify({
        time: "2026-01-01T00:00:00.000Z",
        hook: "AIC-compile-context",
        stage: "compile",
        message,
        projectRoot,
      }) + "\n";
    writeFileSync(
      join(sbx.aicHome, "hook-health.jsonl"),
      line(sbx.project, "index failed: EACCES") + line("/elsewhere", "not ours"),
    );
    const withErrors = await runCli(pkg, sbx, ["doctor"]);
    expect(withErrors.code).toBe(0);
    expect(withErrors.stdout).toMatch(
      /warn hook error 2026-01-01T00:00:00.000Z AIC-compile-context \(compile\): index failed: EACCES/,
    );
    expect(withErrors.stdout).not.toMatch(/not ours/);

    // An unknown event name can make Cursor ignore the whole file: broken.
    const hooksPath = join(sbx.project, ".cursor/hooks.json");
    writeFileSync(
      hooksPath,
      read(hooksPath).replace('"hooks": {', '"hooks": {\n    "onWhatever": [],'),
    );
    const unknown = await runCli(pkg, sbx, ["doctor"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toMatch(
      /FAIL \.cursor\/hooks\.json line \d+: hooks\.json names an event Cursor does not document/,
    );
    expect(unknown.stdout).toMatch(/ownership verified/);
  });
});

function byKey(a: { event: string; command: string }, b: { event: string; command: string }) {
  return `${a.event} ${a.command}`.localeCompare(`${b.event} ${b.command}`);
}
