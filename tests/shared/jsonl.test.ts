import { appendFileSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendJsonl, pruneJsonl, readJsonl } from "../../src/shared/jsonl.js";

describe("jsonl logs", () => {
  it("round-trips multi-line and non-ASCII prompts and keeps the file private", () => {
    const file = join(mkdtempSync(join(tmpdir(), "aic-jsonl-")), ".aic", "prompt-log.jsonl");
    appendJsonl(file, { prompt: "line one\nline two ünïcødé 🚀" });
    expect(readJsonl(file)).toEqual([{ prompt: "line one\nline two ünïcødé 🚀" }]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, "..")).mode & 0o777).toBe(0o700);
  });

  it("skips a corrupt line instead of failing", () => {
    const file = join(mkdtempSync(join(tmpdir(), "aic-jsonl-")), "log.jsonl");
    appendJsonl(file, { a: 1 });
    appendFileSync(file, "{not json\n");
    appendJsonl(file, { a: 2 });
    expect(readJsonl(file)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("prunes by age and keeps recent records", () => {
    const file = join(mkdtempSync(join(tmpdir(), "aic-jsonl-")), "log.jsonl");
    const now = Date.parse("2026-01-10T00:00:00Z");
    appendJsonl(file, { time: "2026-01-01T00:00:00Z", n: 1 });
    appendJsonl(file, { time: "2026-01-09T00:00:00Z", n: 2 });
    expect(pruneJsonl(file, 7, "time", now)).toBe(1);
    expect(readJsonl(file)).toEqual([{ time: "2026-01-09T00:00:00Z", n: 2 }]);
  });
});
