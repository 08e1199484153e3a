/**
 * `aic daemon`: the resident process that answers the compiling hooks in milliseconds.
 *
 *   aic daemon            run in the foreground (what `start` and the hooks launch, detached)
 *   aic daemon start      start one in the background unless one is running; wait until it answers
 *   aic daemon status     show the running daemon (exit 3 when none)
 *   aic daemon stop       ask it to stop and wait until it has
 */
import type { Command } from "commander";
import { buildId } from "../daemon/build-id.js";
import {
  callDaemon,
  daemonStartCommand,
  spawnDetachedDaemon,
  stopDaemon,
} from "../daemon/client.js";
import { daemonPaths } from "../daemon/locations.js";
import { readLockHolder } from "../daemon/lock.js";
import { aicPackageRoot } from "../install/package-info.js";
import { idleSecsFrom, runDaemon } from "../daemon/run-daemon.js";

const packageRoot = aicPackageRoot();

/** Exit code of `status` when no daemon runs (as `systemctl status` does). */
const NOT_RUNNING = 3;

export function registerDaemonCommand(program: Command): void {
  const daemon = program
    .command("daemon")
    .description("resident AIC process that compiles for the Cursor hooks over a local socket");

  daemon
    .command("run", { isDefault: true })
    .description(
      "run the daemon in the foreground (one per user; exits after AIC_DAEMON_IDLE_SECS idle)",
    )
    .option("-q, --quiet", "do not echo the daemon log to stderr")
    .action(async (opts: { quiet?: boolean }) => {
      const outcome = await runDaemon({
        build: buildId(packageRoot),
        loadService: async () =>
          (await import("../daemon/compile-service.js")).createCompileService({
            // A project unused for as long as the daemon's own idle limit is dropped from memory.
            evictAfterMs: idleSecsFrom(process.env) * 1000,
          }),
        echo: opts.quiet ? undefined : (line) => process.stderr.write(line + "\n"),
      }).catch((err: Error) => fail(err.message));
      if (!outcome.started) {
        const who = outcome.holder ? `pid ${outcome.holder.pid}` : "another process";
        process.stderr.write(`aic daemon: already running (${who}); nothing to do.\n`);
      }
      // Nothing may keep a stopped daemon alive (the SQLite handle closes with the process).
      process.exit(0);
    });

  daemon
    .command("start")
    .description("start the daemon in the background unless one is running")
    .action(async () => {
      const build = buildId(packageRoot);
      const before = await callDaemon("status", undefined, { build, timeoutMs: 2_000 });
      if (before.status === "ok") {
        console.log(`aic daemon: already running (pid ${pidOf(before.result)})`);
        return;
      }
      if (before.status === "error" && before.error.code === "version_mismatch") {
        console.log(`aic daemon: replacing a daemon of another version (${before.error.message})`);
        await stopDaemon({ build });
      }
      spawnDetachedDaemon(daemonStartCommand(packageRoot));
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const now = await callDaemon("status", undefined, { build, timeoutMs: 2_000 });
        if (now.status === "ok") {
          console.log(`aic daemon: started (pid ${pidOf(now.result)})`);
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      fail(`did not answer within 10 s; see ${daemonPaths().log}`);
    });

  daemon
    .command("status")
    .description("show the running daemon")
    .option("--json", "print the status as JSON")
    .action(async (opts: { json?: boolean }) => {
      const res = await callDaemon("status", undefined, { timeoutMs: 2_000 });
      if (res.status !== "ok") {
        const holder = readLockHolder(daemonPaths().pidFile);
        const why = res.status === "error" ? res.error.message : res.reason;
        if (opts.json)
          console.log(JSON.stringify({ running: false, reason: why, lockHolder: holder }));
        else console.log(`aic daemon: not running (${why})`);
        process.exitCode = NOT_RUNNING;
        return;
      }
      const status: Record<string, unknown> = { running: true, ...(res.result as object) };
      const mine = buildId(packageRoot);
      if (opts.json) {
        console.log(JSON.stringify({ ...status, currentBuild: status.build === mine }));
        return;
      }
      for (const [key, value] of Object.entries(status)) {
        console.log(
          `${key.padEnd(12)} ${typeof value === "string" ? value : JSON.stringify(value)}`,
        );
      }
      if (status.build !== mine) {
        console.log(
          `note         this aic is build ${mine}; the next hook call replaces the daemon`,
        );
      }
    });

  daemon
    .command("stop")
    .description("stop the running daemon")
    .action(async () => {
      const holder = readLockHolder(daemonPaths().pidFile);
      const outcome = await stopDaemon();
      if (outcome === "stopped")
        console.log(`aic daemon: stopped${holder ? ` (pid ${holder.pid})` : ""}`);
      else if (outcome === "not-running") console.log("aic daemon: not running");
      else
        fail(
          `pid ${holder?.pid} holds ${daemonPaths().pidFile} but did not stop; check it with ps`,
        );
    });
}

function pidOf(status: unknown): string {
  return String((status as { pid?: unknown } | null)?.pid ?? "?");
}

function fail(message: string): never {
  process.stderr.write(`aic daemon: ${message}\n`);
  process.exit(1);
}
