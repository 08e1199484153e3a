import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listCompilations, openDatabase } from "../../src/store/index.js";

const WRITER = fileURLToPath(new URL("./helpers/concurrent-writer.ts", import.meta.url));
const WRITERS = 6;
const ROWS = 120;

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runWriter(args: string[]): { done: Promise<Exit> } {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return {
    done: new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr }))),
  };
}

describe("store under concurrent writers", () => {
  it("several real processes writing to one fresh file lose no row and never see 'database is locked'", async () => {
    const dir = mkdtempSync(join(tmpdir(), "aic-store-conc-"));
    const dbPath = join(dir, "home", "aic.sqlite");
    const barrier = join(dir, "barrier");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(barrier);

    const writers = Array.from({ length: WRITERS }, (_, k) =>
      runWriter([dbPath, barrier, String(k), String(ROWS)]),
    );
    // Release everyone at once, so the first open, the migration and the writes all overlap.
    while (readdirSync(barrier).filter((f) => f.startsWith("ready-")).length < WRITERS) {
      await new Promise((r) => setTimeout(r, 10));
    }
    writeFileSync(join(barrier, "go"), "");
    const exits = await Promise.all(writers.map((w) => w.done));

    for (const exit of exits) {
      expect(exit.stderr).not.toMatch(/locked|busy/i);
      expect(exit.code, exit.stderr).toBe(0);
    }
    const db = openDatabase({ path: dbPath });
    const rows = listCompilations(db);
    expect(rows).toHaveLength(WRITERS * ROWS);
    for (let k = 0; k < WRITERS; k++) {
      const mine = rows.filter((r) => r.conversationId === `conv-${k}`).map((r) => r.intent);
      expect(new Set(mine)).toEqual(new Set(Array.from({ length: ROWS }, (_, i) => `w${k}-${i}`)));
    }
    expect(db.prepare("SELECT COUNT(*) AS n FROM projects").get()).toEqual({ n: 3 });
    expect(db.prepare("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: WRITERS });
    db.close();
    expect(statSync(dbPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "home")).mode & 0o777).toBe(0o700);
  });
});
