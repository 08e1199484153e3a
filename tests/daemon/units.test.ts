import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireDaemonLock, type LockDeps } from "../../src/daemon/lock.js";
import { LineDecoder, LineTooLongError } from "../../src/daemon/protocol.js";
import { daemonPaths, ensureDaemonDirs } from "../../src/daemon/locations.js";
import { idleSecsFrom } from "../../src/daemon/run-daemon.js";

describe("LineDecoder", () => {
  it("splits lines across chunks and keeps a UTF-8 character split between chunks whole", () => {
    const d = new LineDecoder();
    const bytes = Buffer.from('{"a":"ü🚀"}\n{"b":1}\n{"c"', "utf8");
    const cut = bytes.indexOf(Buffer.from("🚀")) + 2; // inside the 4-byte emoji
    expect(d.push(bytes.subarray(0, cut))).toEqual([]);
    expect(d.push(bytes.subarray(cut))).toEqual(['{"a":"ü🚀"}', '{"b":1}']);
    expect(d.push(Buffer.from(":2}\n"))).toEqual(['{"c":2}']);
  });

  it("refuses a line past the limit, even one that arrives in many small chunks", () => {
    const d = new LineDecoder(10);
    d.push(Buffer.from("12345"));
    expect(() => d.push(Buffer.from("678901"))).toThrow(LineTooLongError);
  });
});

describe("daemon lock", () => {
  const deps = (over: Partial<LockDeps> = {}): LockDeps => ({
    pid: 1000,
    now: () => 1_000_000,
    isAlive: () => true,
    socketAnswers: async () => true,
    startupGraceMs: 30_000,
    ...over,
  });
  const pidFile = () => join(mkdtempSync(join(tmpdir(), "aic-lock-")), "daemon.pid");

  it("lets one holder in and tells the second who holds it; release frees it", async () => {
    const file = pidFile();
    const first = await acquireDaemonLock(file, deps());
    expect(first.acquired).toBe(true);
    const second = await acquireDaemonLock(file, deps({ pid: 2000 }));
    expect(second).toEqual({ acquired: false, holder: { pid: 1000, startedAt: 1_000_000 } });
    if (first.acquired) first.release();
    expect(existsSync(file)).toBe(false);
    expect((await acquireDaemonLock(file, deps({ pid: 2000 }))).acquired).toBe(true);
  });

  it("takes over the pidfile of a dead daemon (kill -9 leaves it behind)", async () => {
    const file = pidFile();
    writeFileSync(file, JSON.stringify({ pid: 4242, startedAt: 1 }));
    const res = await acquireDaemonLock(file, deps({ isAlive: (pid) => pid !== 4242 }));
    expect(res.acquired).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ pid: 1000 });
  });

  it("treats a reused pid as stale only once its start-up grace is over and the socket is silent", async () => {
    const file = pidFile();
    writeFileSync(file, JSON.stringify({ pid: 4242, startedAt: 1_000_000 - 5_000 }));
    const silent = deps({ socketAnswers: async () => false });
    expect((await acquireDaemonLock(file, silent)).acquired).toBe(false); // may still be starting
    const later = deps({ socketAnswers: async () => false, now: () => 1_000_000 + 60_000 });
    expect((await acquireDaemonLock(file, later)).acquired).toBe(true);
  });

  it("release never removes a lock that another daemon has taken since", async () => {
    const file = pidFile();
    const first = await acquireDaemonLock(file, deps());
    writeFileSync(file, JSON.stringify({ pid: 3000, startedAt: 5 }));
    if (first.acquired) first.release();
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ pid: 3000 });
  });
});

describe("daemon folders", () => {
  it("refuses a run folder that is a symlink, without touching the link's target", () => {
    const base = mkdtempSync(join(tmpdir(), "aic-dirs-"));
    const target = join(base, "elsewhere");
    mkdirSync(target, { mode: 0o755 });
    chmodSync(target, 0o755);
    mkdirSync(join(base, "home"));
    symlinkSync(target, join(base, "home", "run"));
    const paths = daemonPaths({ AIC_HOME: join(base, "home") });
    expect(() => ensureDaemonDirs(paths)).toThrow(/is not a private folder of this user/);
    expect(statSync(target).mode & 0o777).toBe(0o755);
  });

  it("creates missing folders private and makes an existing one private", () => {
    const base = mkdtempSync(join(tmpdir(), "aic-dirs-"));
    const paths = daemonPaths({ AIC_HOME: join(base, "home") });
    ensureDaemonDirs(paths);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    chmodSync(paths.dir, 0o755);
    ensureDaemonDirs(paths);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
  });
});

describe("daemon settings", () => {
  it("reads AIC_DAEMON_IDLE_SECS and falls back to 900 s on nonsense, saying so", () => {
    expect(idleSecsFrom({})).toBe(900);
    expect(idleSecsFrom({ AIC_DAEMON_IDLE_SECS: "2.5" })).toBe(2.5);
    const lines: string[] = [];
    expect(idleSecsFrom({ AIC_DAEMON_IDLE_SECS: "soon" }, (l) => lines.push(l))).toBe(900);
    expect(lines[0]).toMatch(/AIC_DAEMON_IDLE_SECS="soon"/);
  });

  it("keeps the socket under ~/.aic/run, or a private temp folder when that path is too long", () => {
    expect(daemonPaths({ AIC_HOME: "/home/u/.aic" }).socket).toBe("/home/u/.aic/run/daemon.sock");
    const deep = "/home/u/" + "very-long-folder-name/".repeat(6) + ".aic";
    const paths = daemonPaths({ AIC_HOME: deep });
    expect(paths.pidFile.startsWith(deep)).toBe(true);
    expect(Buffer.byteLength(paths.socket)).toBeLessThanOrEqual(100);
    expect(paths.socket).not.toBe(daemonPaths({ AIC_HOME: deep + "2" }).socket);
  });
});
