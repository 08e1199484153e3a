import Database from "better-sqlite3";
import { chmodSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { databasePath } from "../../src/shared/paths.js";
import {
  cacheEntryCount,
  getCachedContext,
  touchCachedContext,
  getSession,
  insertCompilation,
  isBusyError,
  lastCompilation,
  listCompilations,
  listProjects,
  openDatabase,
  putCachedContext,
  reparentConversation,
  SCHEMA_VERSION,
  touchSession,
  upsertProject,
  withBusyRetry,
} from "../../src/store/index.js";
import { compilationRecord as record } from "./helpers/compilation-record.js";

function tempDb() {
  const home = mkdtempSync(join(tmpdir(), "aic-store-"));
  return { home, db: openDatabase({ env: { AIC_HOME: home } }) };
}

describe("store", () => {
  it("opens at databasePath() under AIC_HOME, in WAL mode with a busy timeout, fully migrated", () => {
    const { home, db } = tempDb();
    expect(db.name).toBe(databasePath({ AIC_HOME: home }));
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    // Re-opening applies nothing twice.
    const again = openDatabase({ env: { AIC_HOME: home } });
    expect(again.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    again.close();
  });

  it("keeps the database and its WAL files private, even if the file was created readable", () => {
    const home = mkdtempSync(join(tmpdir(), "aic-store-"));
    const path = join(home, "aic.sqlite");
    new Database(path).close();
    chmodSync(path, 0o644);
    const db = openDatabase({ path });
    upsertProject(db, "/p/a");
    for (const f of [path, `${path}-wal`, `${path}-shm`])
      expect(statSync(f).mode & 0o777, f).toBe(0o600);
    db.close();
  });

  it("refuses a database written by a newer AIC, naming the file and what to do", () => {
    const { home, db } = tempDb();
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase({ env: { AIC_HOME: home } })).toThrow(
      /aic\.sqlite.*schema version \d+ is newer.*upgrade AIC/,
    );
  });

  it("round-trips a compilation row with its JSON columns and filters by project, time, conversation", () => {
    const { db } = tempDb();
    const a = upsertProject(db, "/p/a", 10);
    const b = upsertProject(db, "/p/b", 20);
    expect(upsertProject(db, "/p/a", 30)).toBe(a);
    insertCompilation(db, record(a, { createdMs: 100, conversationId: "c1" }));
    insertCompilation(db, record(b, { createdMs: 200, cacheHit: true }));
    insertCompilation(db, record(a, { createdMs: 300, conversationId: "c1", intent: "second" }));

    expect(listCompilations(db)).toHaveLength(3);
    expect(listCompilations(db, { projectId: a }).map((r) => r.createdMs)).toEqual([100, 300]);
    expect(listCompilations(db, { sinceMs: 150 }).map((r) => r.createdMs)).toEqual([200, 300]);
    const last = lastCompilation(db, { conversationId: "c1" });
    expect(last).toMatchObject({
      intent: "second",
      projectRoot: "/p/a",
      cacheHit: false,
      guardCounts: { "aws-access-key": 1 },
      topFiles: [{ path: "src/a.ts", tier: "full", tokens: 400 }],
    });
    expect(lastCompilation(db)?.createdMs).toBe(300);
    expect(listProjects(db).map((p) => [p.root, p.lastSeenMs])).toEqual([
      ["/p/a", 30],
      ["/p/b", 20],
    ]);
  });

  it("reparents a child conversation's rows to the parent, once", () => {
    const { db } = tempDb();
    const p = upsertProject(db, "/p/a");
    insertCompilation(db, record(p, { conversationId: "child" }));
    insertCompilation(db, record(p, { conversationId: "child" }));
    insertCompilation(db, record(p, { conversationId: "other" }));
    touchSession(db, {
      conversationId: "child",
      projectId: p,
      editorId: "cursor",
      modelId: null,
      realIntent: "x",
      nowMs: 1,
    });
    expect(reparentConversation(db, "child", "parent")).toBe(2);
    expect(reparentConversation(db, "child", "parent")).toBe(0);
    expect(listCompilations(db, { conversationId: "parent" }).map((r) => r.reparentedFrom)).toEqual(
      ["child", "child"],
    );
    expect(listCompilations(db, { conversationId: "other" })).toHaveLength(1);
    expect(getSession(db, "child")?.parentConversationId).toBe("parent");
  });

  it("keeps the last real intent of a session when a weak one passes null", () => {
    const { db } = tempDb();
    const p = upsertProject(db, "/p/a");
    const touch = (realIntent: string | null, nowMs: number) =>
      touchSession(db, {
        conversationId: "c",
        projectId: p,
        editorId: null,
        modelId: "m1",
        realIntent,
        nowMs,
      });
    touch("refactor the parser", 1);
    touch(null, 2);
    expect(getSession(db, "c")).toMatchObject({
      lastIntent: "refactor the parser",
      modelId: "m1",
      startedMs: 1,
      lastSeenMs: 2,
    });
  });

  it("caches contexts and evicts the least recently used entries per project", () => {
    const { db } = tempDb();
    const p = upsertProject(db, "/p/a");
    for (let i = 0; i < 5; i++) putCachedContext(db, `k${i}`, p, `{"n":${i}}`, i, 3);
    expect(cacheEntryCount(db, p)).toBe(3);
    expect(getCachedContext(db, "k0")).toBeUndefined();
    expect(getCachedContext(db, "k4")).toBe('{"n":4}');
    // A touched entry survives the next eviction; the untouched oldest goes.
    touchCachedContext(db, "k2", 10);
    putCachedContext(db, "k5", p, "{}", 11, 3);
    expect(getCachedContext(db, "k2")).toBeDefined();
    expect(getCachedContext(db, "k3")).toBeUndefined();
    expect(db.prepare("SELECT hits FROM compile_cache WHERE key = 'k2'").get()).toEqual({
      hits: 1,
    });
  });

  it("leaves a database created by plain SQLite alone until migrated", () => {
    const home = mkdtempSync(join(tmpdir(), "aic-store-"));
    const raw = new Database(join(home, "aic.sqlite"));
    raw.exec("CREATE TABLE user_notes (x)");
    raw.close();
    const db = openDatabase({ env: { AIC_HOME: home } });
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name = 'user_notes'").get(),
    ).toBeTruthy();
    db.close();
  });
});

describe("busy retry", () => {
  const busy = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });

  it("retries busy failures with backoff until the work succeeds", () => {
    const sleeps: number[] = [];
    let calls = 0;
    const result = withBusyRetry(
      () => {
        if (++calls < 4) throw busy();
        return "done";
      },
      { sleep: (ms) => void sleeps.push(ms) },
    );
    expect(result).toBe("done");
    expect(sleeps).toHaveLength(3);
    expect(isBusyError(Object.assign(new Error("x"), { code: "SQLITE_BUSY_RECOVERY" }))).toBe(true);
  });

  it("rethrows other errors at once, and busy ones after the time limit", () => {
    let calls = 0;
    expect(() =>
      withBusyRetry(() => {
        calls++;
        throw new Error("no such table: x");
      }),
    ).toThrow(/no such table/);
    expect(calls).toBe(1);
    expect(() =>
      withBusyRetry(
        () => {
          throw busy();
        },
        { maxWaitMs: 50, sleep: () => {} },
      ),
    ).toThrow(/database is locked/);
  });
});
