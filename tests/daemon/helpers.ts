/**
 * Real processes for the daemon tests: the fixtures are bundled with esbuild (the client to CJS
 * with Node built-ins only, exactly like the Cursor hooks) and run with plain `node`.
 */
import { build } from "esbuild";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callDaemon } from "../../src/daemon/client.js";
import { daemonPaths } from "../../src/daemon/locations.js";
import { processIsAlive, readLockHolder } from "../../src/daemon/lock.js";

const fixtures = new URL("./fixtures/", import.meta.url).pathname;

export interface Bundles {
  daemon: string;
  client: string;
  /** Every input file of the client bundle (to prove it pulls in no package). */
  clientInputs: string[];
}

export async function bundleFixtures(): Promise<Bundles> {
  const out = mkdtempSync(join(tmpdir(), "aic-daemon-bundles-"));
  const daemon = join(out, "echo-daemon.mjs");
  const client = join(out, "hook-client.cjs");
  await build({
    entryPoints: [join(fixtures, "echo-daemon.ts")],
    outfile: daemon,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    logLevel: "error",
  });
  const res = await build({
    entryPoints: [join(fixtures, "hook-client.ts")],
    outfile: client,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    metafile: true,
    logLevel: "error",
  });
  return { daemon, client, clientInputs: Object.keys(res.metafile.inputs) };
}

export function newHome(): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), "aic-daemon-home-"));
  return { ...process.env, AIC_HOME: home, HOME: home };
}

export interface ProcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function run(args: string[], env: NodeJS.ProcessEnv): Promise<ProcResult> {
  return collect(spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] }));
}

export function collect(child: ChildProcess): Promise<ProcResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}

/** Run the hook-shaped client once; returns its printed {servedBy, value} or {error}. */
export async function runClient(
  b: Bundles,
  env: NodeJS.ProcessEnv,
  params: unknown,
  method = "echo",
): Promise<Record<string, unknown>> {
  const res = await run([b.client, b.daemon, JSON.stringify(params), method], env);
  if (res.code !== 0) throw new Error(`client exited ${res.code}: ${res.stderr}`);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}

/** A daemon as a child of the test (not detached), resolved once it answers `status`. */
export async function startDaemon(
  b: Bundles,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; exited: Promise<ProcResult> }> {
  const child = spawn(process.execPath, [b.daemon], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = collect(child);
  await waitForDaemon(env);
  return { child, exited };
}

/** Poll until a daemon answers (a detached one started by a client takes a moment). */
export async function waitForDaemon(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const res = await callDaemon("status", undefined, { env, timeoutMs: 2_000 });
    if (res.status === "ok") return res.result as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("no daemon answered within 10 s");
}

/** Wait until a pid is gone (the detached daemons are not our children, so no exit event). */
export async function waitForExit(pid: number): Promise<void> {
  for (let i = 0; i < 500 && processIsAlive(pid); i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  if (processIsAlive(pid)) throw new Error(`pid ${pid} still alive after 10 s`);
}

/** Kill whatever daemon holds this home's lock (detached daemons outlive the tests otherwise). */
export function killDaemon(env: NodeJS.ProcessEnv): void {
  const holder = readLockHolder(daemonPaths(env).pidFile);
  if (holder && processIsAlive(holder.pid)) process.kill(holder.pid, "SIGKILL");
}
