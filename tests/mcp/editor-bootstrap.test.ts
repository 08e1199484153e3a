import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditorBootstrap } from "../../src/mcp/editor-bootstrap.js";

function project(config?: object): string {
  const dir = mkdtempSync(join(tmpdir(), "aic-boot-"));
  if (config) writeFileSync(join(dir, "aic.config.json"), JSON.stringify(config));
  return dir;
}

function recorder() {
  const installed: string[] = [];
  const logs: string[] = [];
  return {
    installed,
    logs,
    install: (root: string) => void installed.push(root),
    log: (line: string) => void logs.push(line),
  };
}

describe("editor bootstrap", () => {
  it("is off by default", async () => {
    const r = recorder();
    const boot = createEditorBootstrap({ install: r.install, env: {}, log: r.log });
    expect(await boot.run(project())).toBe("disabled");
    expect(r.installed).toEqual([]);
  });

  it("runs once per project per process when aic.config.json enables it", async () => {
    const r = recorder();
    const boot = createEditorBootstrap({ install: r.install, env: {}, log: r.log });
    const a = project({ editorBootstrap: true });
    const b = project({ editorBootstrap: true });
    const outcomes = await Promise.all([boot.run(a), boot.run(a), boot.run(b)]);
    expect(outcomes.sort()).toEqual(["already-ran", "installed", "installed"]);
    expect(await boot.run(a)).toBe("already-ran");
    expect(r.installed.sort()).toEqual([a, b].sort());
  });

  it("is enabled for every project by AIC_EDITOR_BOOTSTRAP=1", async () => {
    const r = recorder();
    const boot = createEditorBootstrap({
      install: r.install,
      env: { AIC_EDITOR_BOOTSTRAP: "1" },
      log: r.log,
    });
    expect(await boot.run(project())).toBe("installed");
  });

  it("logs an installer failure instead of throwing, and does not retry it in the same process", async () => {
    const logs: string[] = [];
    const boot = createEditorBootstrap({
      install: () => {
        throw new Error("hooks.json is not valid JSON");
      },
      env: { AIC_EDITOR_BOOTSTRAP: "1" },
      log: (l) => logs.push(l),
    });
    const dir = project();
    expect(await boot.run(dir)).toBe("failed");
    expect(await boot.run(dir)).toBe("already-ran");
    expect(logs).toEqual([`editor bootstrap failed for ${dir}: hooks.json is not valid JSON`]);
  });

  it("says so when enabled but no installer is wired", async () => {
    const logs: string[] = [];
    const boot = createEditorBootstrap({
      install: undefined,
      env: { AIC_EDITOR_BOOTSTRAP: "1" },
      log: (l) => logs.push(l),
    });
    expect(await boot.run(project())).toBe("not-wired");
    expect(logs[0]).toMatch(/no installer is wired/);
  });
});
