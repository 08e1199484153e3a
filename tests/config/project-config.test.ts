import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULT_CONFIG,
  loadProjectConfig,
  parseProjectConfig,
} from "../../src/config/project-config.js";

describe("project config", () => {
  it("defaults when the project has no aic.config.json", () => {
    const dir = mkdtempSync(join(tmpdir(), "aic-cfg-"));
    const loaded = loadProjectConfig(dir);
    expect(loaded.config).toEqual(DEFAULT_CONFIG);
    expect(loaded.path).toBeUndefined();
  });

  it("reads known keys and warns about unknown ones instead of dropping them silently", () => {
    const loaded = parseProjectConfig({ budget: 4000, devMode: true, colour: "red" });
    expect(loaded.config.budget).toBe(4000);
    expect(loaded.config.devMode).toBe(true);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toContain('"colour"');
  });

  it("names the bad key in the error", () => {
    expect(() => parseProjectConfig({ budget: -1 })).toThrow(/"budget" must be a positive integer/);
    try {
      parseProjectConfig({ guardAllowPatterns: ["("] });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).key).toBe("guardAllowPatterns");
    }
  });

  it("rejects a file that is not JSON with its path in the message", () => {
    const dir = mkdtempSync(join(tmpdir(), "aic-cfg-"));
    writeFileSync(join(dir, "aic.config.json"), "{ budget: ");
    expect(() => loadProjectConfig(dir)).toThrow(/aic\.config\.json: not valid JSON/);
  });
});
