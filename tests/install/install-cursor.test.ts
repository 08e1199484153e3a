/**
 * The installer in-process (as the MCP server's editor bootstrap calls it), with a fixture
 * package so manifest and version changes can be simulated: obsolete scripts, rule versions,
 * foreign files, the lock.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  installCursor,
  defaultInstallDeps,
  type InstallDeps,
} from "../../src/install/install-cursor.js";
import {
  acquireInstallLock,
  acquireTargetLocks,
  defaultLockDeps,
  installLockPath,
  LockBusyError,
} from "../../src/install/lock.js";
import { uninstallCursor, defaultUninstallDeps } from "../../src/install/uninstall-cursor.js";
import type { HookRegistration } from "../../src/integrations/cursor/manifest.js";
import {
  cleanupTempDirs,
  read,
  sandbox,
  tempDir,
  writeFixtureBundles,
  type Sandbox,
} from "./helpers.js";

afterAll(cleanupTempDirs);

function fixturePackage(scripts: string[], version = "1.0.0"): string {
  const root = tempDir("fixpkg");
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "aic", version }));
  writeFixtureBundles(join(root, "dist", "hooks"), scripts);
  return root;
}

function deps(
  sbx: Sandbox,
  packageRoot: string,
  scripts: string[],
  registrations: HookRegistration[],
  version = "1.0.0",
): InstallDeps {
  return defaultInstallDeps({
    env: sbx.env,
    home: sbx.home,
    packageRoot,
    aicVersion: version,
    scripts,
    registrations,
  });
}

const hooksDir = (sbx: Sandbox) => join(sbx.project, ".cursor", "hooks");

describe("installCursor (in-process)", () => {
  it("removes obsolete scripts only when their bytes prove AIC wrote them, whatever their names", async () => {
    const sbx = sandbox();
    const all = ["AIC-a.cjs", "AIC-b.cjs", "AIC-c.cjs"];
    const pkg = fixturePackage(all);
    const regs: HookRegistration[] = [
      { event: "stop", script: "AIC-a.cjs" },
      { event: "sessionStart", script: "AIC-b.cjs", fields: { timeout: 20 } },
    ];
    expect(
      (await installCursor({ projectRoot: sbx.project }, deps(sbx, pkg, all, regs))).status,
    ).toBe("installed");
    writeFileSync(
      join(hooksDir(sbx), "AIC-user.cjs"),
      "// the user's own script in AIC's naming style\n",
    );
    writeFileSync(join(hooksDir(sbx), "AIC-c.cjs"), "// edited by the user\n");

    const next = await installCursor(
      { projectRoot: sbx.project },
      deps(sbx, pkg, ["AIC-a.cjs"], [regs[0]!]),
    );
    expect(next.status).toBe("installed");
    expect(next.notes).toContain("removed obsolete .cursor/hooks/AIC-b.cjs");
    expect(next.kept.join("\n")).toMatch(
      /kept \.cursor\/hooks\/AIC-c\.cjs: AIC no longer ships it, but it was edited/,
    );
    expect(readdirSync(hooksDir(sbx)).sort()).toEqual(["AIC-a.cjs", "AIC-c.cjs", "AIC-user.cjs"]);
    const hooks = read(join(sbx.project, ".cursor/hooks.json"));
    expect(hooks).toContain("AIC-a.cjs");
    expect(hooks).not.toContain("AIC-b.cjs");
  });

  it("rewrites only scripts whose bundle changed, and stamps the rule with the version", async () => {
    const sbx = sandbox();
    const scripts = ["AIC-a.cjs", "AIC-b.cjs"];
    const pkg = fixturePackage(scripts);
    const regs: HookRegistration[] = [{ event: "stop", script: "AIC-a.cjs" }];
    await installCursor({ projectRoot: sbx.project }, deps(sbx, pkg, scripts, regs));
    const mtimeB = statSync(join(hooksDir(sbx), "AIC-b.cjs")).mtimeMs;
    writeFileSync(
      join(pkg, "dist/hooks/AIC-a.cjs"),
      '"use strict";\nconst root = "__AIC_PACKAGE_ROOT__"; // v2\n',
    );

    const upgrade = await installCursor(
      { projectRoot: sbx.project },
      deps(sbx, pkg, scripts, regs, "1.1.0"),
    );
    expect(upgrade.notes).toEqual([
      "updated .cursor/hooks/AIC-a.cjs",
      "updated .cursor/rules/AIC.mdc (1.0.0 -> 1.1.0)",
    ]);
    expect(read(join(hooksDir(sbx), "AIC-a.cjs"))).toBe(
      `"use strict";\nconst root = ${JSON.stringify(pkg)}; // v2\n`,
    );
    expect(statSync(join(hooksDir(sbx), "AIC-b.cjs")).mtimeMs).toBe(mtimeB);
    expect(read(join(sbx.project, ".cursor/rules/AIC.mdc"))).toContain("aic-version: 1.1.0");
  });

  it("keeps a user-edited rule and reports it; --force replaces it", async () => {
    const sbx = sandbox();
    const pkg = fixturePackage(["AIC-a.cjs"]);
    const regs: HookRegistration[] = [{ event: "stop", script: "AIC-a.cjs" }];
    await installCursor({ projectRoot: sbx.project }, deps(sbx, pkg, ["AIC-a.cjs"], regs));
    const rule = join(sbx.project, ".cursor/rules/AIC.mdc");
    writeFileSync(rule, read(rule) + "\nMy addition.\n");

    const kept = await installCursor(
      { projectRoot: sbx.project },
      deps(sbx, pkg, ["AIC-a.cjs"], regs, "2.0.0"),
    );
    expect(kept.kept.join("\n")).toMatch(
      /kept \.cursor\/rules\/AIC\.mdc: it was edited .* --force/,
    );
    expect(read(rule)).toContain("My addition.");

    const forced = await installCursor(
      { projectRoot: sbx.project, force: true },
      deps(sbx, pkg, ["AIC-a.cjs"], regs, "2.0.0"),
    );
    expect(forced.status).toBe("installed");
    expect(read(rule)).not.toContain("My addition.");
    expect(read(rule)).toContain("aic-version: 2.0.0");
  });

  it("refuses a foreign aic MCP server unless --force, and leaves a user's identical registration theirs", async () => {
    const sbx = sandbox();
    const pkg = fixturePackage(["AIC-a.cjs"]);
    const regs: HookRegistration[] = [{ event: "stop", script: "AIC-a.cjs" }];
    const mcp = join(sbx.project, ".cursor/mcp.json");
    mkdirSync(join(sbx.project, ".cursor"));
    writeFileSync(
      mcp,
      '{ "mcpServers": { "aic": { "command": "npx", "args": ["aic", "serve"] } } }\n',
    );
    const refused = await installCursor(
      { projectRoot: sbx.project },
      deps(sbx, pkg, ["AIC-a.cjs"], regs),
    );
    expect(refused.status).toBe("refused");
    expect(refused.refusals.join("\n")).toMatch(/already has an MCP server named "aic" .* --force/);
    expect(existsSync(join(sbx.project, ".cursor/hooks"))).toBe(false);

    const same = JSON.stringify({
      mcpServers: { aic: { args: [join(pkg, "dist/cli.js"), "serve"], command: "node" } },
    });
    writeFileSync(mcp, same);
    expect(
      (await installCursor({ projectRoot: sbx.project }, deps(sbx, pkg, ["AIC-a.cjs"], regs)))
        .status,
    ).toBe("installed");
    expect(read(mcp)).toBe(same);
    writeFileSync(
      join(sbx.project, ".cursor/hooks.json"),
      read(join(sbx.project, ".cursor/hooks.json")).replace("{", '{ "x": 1,'),
    );
    const un = await uninstallCursor(
      { projectRoot: sbx.project },
      defaultUninstallDeps({ env: sbx.env, home: sbx.home }),
    );
    expect(un.status).toBe("removed");
    expect(read(mcp)).toBe(same);
  });

  it("puts back AIC entries the user deleted when nothing else changed, and refuses when it cannot prove that", async () => {
    const sbx = sandbox();
    const pkg = fixturePackage(["AIC-a.cjs", "AIC-b.cjs"]);
    const regs: HookRegistration[] = [
      { event: "stop", script: "AIC-a.cjs" },
      { event: "sessionEnd", script: "AIC-b.cjs" },
    ];
    const d = deps(sbx, pkg, ["AIC-a.cjs", "AIC-b.cjs"], regs);
    const hooksPath = join(sbx.project, ".cursor/hooks.json");
    mkdirSync(join(sbx.project, ".cursor"));
    writeFileSync(
      hooksPath,
      '{\n  "x": 1,\n  "hooks": {\n    "stop": [{ "command": "./mine.sh" }]\n  }\n}\n',
    );
    await installCursor({ projectRoot: sbx.project }, d);
    const installed = read(hooksPath);
    const withoutB = installed.replace(
      /\{\s*"command": "node \.cursor\/hooks\/AIC-b\.cjs"\s*\}/,
      "",
    );
    expect(withoutB).not.toContain("AIC-b.cjs");

    writeFileSync(hooksPath, withoutB);
    const repaired = await installCursor({ projectRoot: sbx.project }, d);
    expect(repaired.notes.join("\n")).toMatch(/1 deleted ones restored/);
    expect(read(hooksPath)).toContain("AIC-b.cjs");
    expect((await installCursor({ projectRoot: sbx.project }, d)).status).toBe("unchanged");

    writeFileSync(hooksPath, withoutB.replace('"x": 1', '"x": 2'));
    const unproven = await installCursor({ projectRoot: sbx.project }, d);
    expect(unproven.status).toBe("refused");
    expect(unproven.refusals.join("\n")).toMatch(
      /cannot prove the entry was not deliberately edited away/,
    );
  });

  it("uninstall: entries the user deleted are proven lost, the rest removed; unprovable ones keep their scripts", async () => {
    const pkg = fixturePackage(["AIC-a.cjs", "AIC-b.cjs"]);
    const regs: HookRegistration[] = [
      { event: "stop", script: "AIC-a.cjs" },
      { event: "sessionEnd", script: "AIC-b.cjs" },
    ];
    const original =
      '{\n  "x": 1,\n  "hooks": {\n    "stop": [{ "command": "./mine.sh" }]\n  }\n}\n';
    const setup = async () => {
      const sbx = sandbox();
      mkdirSync(join(sbx.project, ".cursor"));
      const hooksPath = join(sbx.project, ".cursor/hooks.json");
      writeFileSync(hooksPath, original);
      await installCursor(
        { projectRoot: sbx.project },
        deps(sbx, pkg, ["AIC-a.cjs", "AIC-b.cjs"], regs),
      );
      const withoutB = read(hooksPath).replace(
        /\{\s*"command": "node \.cursor\/hooks\/AIC-b\.cjs"\s*\}/,
        "",
      );
      return { sbx, hooksPath, withoutB };
    };
    const undeps = (sbx: Sandbox) => defaultUninstallDeps({ env: sbx.env, home: sbx.home });

    const proven = await setup();
    writeFileSync(proven.hooksPath, proven.withoutB);
    const un = await uninstallCursor({ projectRoot: proven.sbx.project }, undeps(proven.sbx));
    expect(un.drifted).toEqual([]);
    expect(read(proven.hooksPath)).toBe(original);
    expect(existsSync(hooksDir(proven.sbx))).toBe(false);

    const unproven = await setup();
    const drifted = unproven.withoutB.replace('"x": 1', '"x": 2');
    writeFileSync(unproven.hooksPath, drifted);
    const kept = await uninstallCursor({ projectRoot: unproven.sbx.project }, undeps(unproven.sbx));
    expect(kept.status).toBe("removed");
    expect(kept.drifted.join("\n")).toMatch(
      /kept AIC's entries in \.cursor\/hooks\.json: .*deliberately edited away/,
    );
    expect(kept.drifted.join("\n")).toMatch(
      /kept \.cursor\/hooks\/AIC-a\.cjs: AIC's entries in hooks\.json still run it/,
    );
    expect(read(unproven.hooksPath)).toBe(drifted);
    expect(readdirSync(hooksDir(unproven.sbx)).sort()).toEqual(["AIC-a.cjs", "AIC-b.cjs"]);
  });

  it("excludes .aic/ through info/exclude unless git already ignores the folder itself", async () => {
    const pkg = fixturePackage(["AIC-a.cjs"]);
    const regs: HookRegistration[] = [{ event: "stop", script: "AIC-a.cjs" }];
    const excludeAfterInstall = async (gitignore: string) => {
      const sbx = sandbox({ git: true });
      writeFileSync(join(sbx.project, ".gitignore"), gitignore);
      await installCursor({ projectRoot: sbx.project }, deps(sbx, pkg, ["AIC-a.cjs"], regs));
      expect(read(join(sbx.project, ".gitignore"))).toBe(gitignore);
      return read(join(sbx.project, ".git/info/exclude")).split("\n");
    };
    // *.json matches state.json but not the folder's logs and snapshots: still excluded.
    expect(await excludeAfterInstall("*.json\n")).toContain(".aic/");
    expect(await excludeAfterInstall("/.aic/\n")).not.toContain(".aic/");
  });

  // Red if the deployed scripts were left for git to list: they embed this machine's AIC path,
  // and the compiler (which lists files as git does) packed them into every project's context,
  // ahead of the user's code (first-install QA).
  it("keeps the deployed hook scripts out of git, also for a project in a subfolder", async () => {
    const pkg = fixturePackage(["AIC-a.cjs"]);
    const regs: HookRegistration[] = [{ event: "stop", script: "AIC-a.cjs" }];
    const sbx = sandbox({ git: true });
    const project = join(sbx.project, "packages", "app");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "index.ts"), "export {};\n");
    const excludePath = join(sbx.project, ".git/info/exclude");
    const before = read(excludePath);
    await installCursor({ projectRoot: project }, deps(sbx, pkg, ["AIC-a.cjs"], regs));
    const listed = spawnSync("git", ["ls-files", "-co", "--exclude-standard"], {
      cwd: project,
      encoding: "utf8",
    }).stdout.split("\n");
    expect(listed).toContain("index.ts");
    expect(listed).toContain(".cursor/hooks.json");
    expect(existsSync(join(project, ".cursor/hooks/AIC-a.cjs"))).toBe(true);
    expect(listed.filter((f) => f.startsWith(".cursor/hooks/") || f.startsWith(".aic/"))).toEqual(
      [],
    );
    await uninstallCursor(
      { projectRoot: project },
      defaultUninstallDeps({ env: sbx.env, home: sbx.home }),
    );
    expect(read(excludePath)).toBe(before);
  });

  it("refuses to guess when the receipts are damaged", async () => {
    const sbx = sandbox();
    const pkg = fixturePackage(["AIC-a.cjs"]);
    const regs: HookRegistration[] = [{ event: "stop", script: "AIC-a.cjs" }];
    await installCursor({ projectRoot: sbx.project }, deps(sbx, pkg, ["AIC-a.cjs"], regs));
    writeFileSync(join(sbx.project, ".aic/install/state.json"), "{ broken");
    const res = await installCursor(
      { projectRoot: sbx.project },
      deps(sbx, pkg, ["AIC-a.cjs"], regs),
    );
    expect(res.status).toBe("refused");
    expect(res.refusals[0]).toMatch(
      /state\.json is not valid JSON .* cannot prove which entries it owns/,
    );
  });
});

describe("install lock", () => {
  it("takes over a lock left by a dead process and times out on a live one", async () => {
    const dir = tempDir("lock");
    const path = join(dir, "install.lock");
    writeFileSync(path, "999999999\n");
    const held = await acquireInstallLock(path, { ...defaultLockDeps, isAlive: () => false });
    expect(read(path)).toBe(`${process.pid}\n`);
    let now = 0;
    const busy = acquireInstallLock(path, {
      ...defaultLockDeps,
      timeoutMs: 100,
      now: () => (now += 60),
      sleep: async () => {},
    });
    await expect(busy).rejects.toBeInstanceOf(LockBusyError);
    await expect(busy).rejects.toThrow(new RegExp(`pid ${process.pid}`));
    held.release();
    expect(existsSync(path)).toBe(false);
  });
});

describe("target locks", () => {
  it("holds the project's and the home's lock together and releases both", async () => {
    const env = { AIC_HOME: tempDir("aic-home") };
    const [project, home] = [tempDir("p"), tempDir("h")];
    const both = await acquireTargetLocks([project, home, project], env);
    for (const root of [project, home]) expect(existsSync(installLockPath(root, env))).toBe(true);
    const fast = { ...defaultLockDeps, timeoutMs: 0, sleep: async () => {} };
    await expect(acquireTargetLocks([home], env, fast)).rejects.toBeInstanceOf(LockBusyError);
    both.release();
    for (const root of [project, home]) expect(existsSync(installLockPath(root, env))).toBe(false);
  });
});

describe("installCursorOrThrow (the MCP editor bootstrap's installer)", () => {
  it("throws the refusal so the bootstrap logs why nothing was installed", async () => {
    const { installCursorOrThrow } = await import("../../src/install/index.js");
    await expect(installCursorOrThrow(join(tempDir("gone"), "no-such-project"))).rejects.toThrow(
      /refused, nothing was written: the project folder .*no-such-project does not exist/,
    );
  });
});
