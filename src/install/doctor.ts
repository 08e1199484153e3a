/**
 * `aic doctor`: checks an installation and explains each finding in one line with its fix.
 * Broken findings ("fail") make the command exit non-zero; warnings do not.
 */
import { homedir } from "node:os";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { socketAnswers } from "../daemon/client.js";
import { daemonPaths } from "../daemon/locations.js";
import { healthLogPath } from "../integrations/shared/health.js";
import { HOOK_SCRIPTS } from "../integrations/cursor/manifest.js";
import { readJsonl } from "../shared/jsonl.js";
import { digestOf, isDirectory, readBytes } from "./files.js";
import { inspectHooks } from "./hooks-file.js";
import { canonicalDigest, MCP_SERVER_NAME, parseMcpJson } from "./mcp-json.js";
import { aicPackageRoot, aicVersion, builtHooksDir } from "./package-info.js";
import { renderRule, ruleVersion } from "./rule.js";
import { renderHookScript } from "./scripts.js";
import { loadState, StateError, statePath, type InstallState } from "./state.js";
import { pathOfKey, recordKey, resolveTargets, type InstallTargets } from "./targets.js";

export type Severity = "ok" | "warn" | "fail";

export interface Finding {
  severity: Severity;
  message: string;
  /** What to do about it (absent for "ok"). */
  fix?: string;
}

export interface DoctorOptions {
  projectRoot: string;
  user?: boolean;
}

export interface DoctorDeps {
  env: NodeJS.ProcessEnv;
  home: string;
  packageRoot: string;
  nodeVersion: string;
  scripts: readonly string[];
  daemonAnswers: () => Promise<boolean>;
  /** How many health-log errors to show. */
  healthLines: number;
}

export function defaultDoctorDeps(overrides: Partial<DoctorDeps> = {}): DoctorDeps {
  return {
    env: process.env,
    home: homedir(),
    packageRoot: aicPackageRoot(),
    nodeVersion: process.versions.node,
    scripts: HOOK_SCRIPTS,
    daemonAnswers: () => socketAnswers(overrides.env ?? process.env),
    healthLines: 5,
    ...overrides,
  };
}

const REINSTALL = "run `aic install cursor`";

export async function doctorCursor(
  opts: DoctorOptions,
  deps: DoctorDeps = defaultDoctorDeps(),
): Promise<Finding[]> {
  const findings: Finding[] = [checkNode(deps.nodeVersion, deps.packageRoot)];
  if (!opts.user && !isDirectory(opts.projectRoot)) {
    findings.push(
      fail(
        `project folder ${opts.projectRoot} does not exist`,
        "pass an existing folder with --project",
      ),
    );
    return findings;
  }
  const targets = resolveTargets({ ...opts, env: deps.env, home: deps.home });
  let state: InstallState | undefined;
  try {
    state = loadState(targets.stateDir);
  } catch (err) {
    if (!(err instanceof StateError)) throw err;
    findings.push(fail(err.message, "see the message"));
  }
  if (state === undefined) {
    const userTargets = resolveTargets({ ...opts, user: true, env: deps.env, home: deps.home });
    const userInstalled = !opts.user && existsSync(statePath(userTargets.stateDir));
    findings.push(
      userInstalled
        ? warn(
            `AIC is not installed in ${targets.root} itself, but for the user (~/.cursor)`,
            "run `aic doctor --user` to check that installation",
          )
        : fail(
            `AIC is not installed for Cursor in ${targets.root} (no receipts in ${targets.stateDir})`,
            REINSTALL,
          ),
    );
  }
  findings.push(...inspectHooks(readBytes(targets.hooksJson), state, targets));
  if (state) {
    findings.push(...checkScripts(targets, state, deps));
    findings.push(...checkRule(targets, state, deps.packageRoot));
    findings.push(...checkMcp(targets, state));
  }
  findings.push(await checkDaemon(deps));
  findings.push(...checkHealthLog(targets, deps));
  return findings;
}

function ok(message: string): Finding {
  return { severity: "ok", message };
}
function warn(message: string, fix: string): Finding {
  return { severity: "warn", message, fix };
}
function fail(message: string, fix: string): Finding {
  return { severity: "fail", message, fix };
}

function checkNode(version: string, packageRoot: string): Finding {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  let required = ">=20.19";
  try {
    const pkg = JSON.parse(readBytes(join(packageRoot, "package.json"))!.toString("utf8")) as {
      engines?: { node?: string };
    };
    required = pkg.engines?.node ?? required;
  } catch {
    // Fall back to the documented minimum.
  }
  const [, reqMajor = "20", reqMinor = "0"] = /(\d+)(?:\.(\d+))?/.exec(required) ?? [];
  const good =
    major > Number(reqMajor) || (major === Number(reqMajor) && minor >= Number(reqMinor));
  return good
    ? ok(`Node ${version} (AIC needs ${required})`)
    : fail(
        `Node ${version} is too old: AIC needs ${required}`,
        "install a newer Node (https://nodejs.org)",
      );
}

function checkScripts(targets: InstallTargets, state: InstallState, deps: DoctorDeps): Finding[] {
  const findings: Finding[] = [];
  const missing: string[] = [];
  const modified: string[] = [];
  const outdated: string[] = [];
  for (const script of deps.scripts) {
    const path = join(targets.hooksDir, script);
    const key = recordKey(targets.root, path);
    const bytes = readBytes(path);
    if (bytes === null) {
      missing.push(script);
      continue;
    }
    const record = state.files[key];
    if (!record || digestOf(bytes) !== record.produced) {
      modified.push(script);
      continue;
    }
    const bundle = readBytes(join(builtHooksDir(deps.packageRoot), script));
    if (bundle && !renderHookScript(bundle, deps.packageRoot).equals(bytes)) outdated.push(script);
  }
  const dir = recordKey(targets.root, targets.hooksDir);
  if (missing.length > 0)
    findings.push(fail(`hook scripts missing from ${dir}: ${missing.join(", ")}`, REINSTALL));
  if (modified.length > 0) {
    findings.push(
      fail(
        `hook scripts in ${dir} differ from what AIC installed: ${modified.join(", ")}`,
        `move them away and ${REINSTALL} (or \`aic install cursor --force\` to replace them)`,
      ),
    );
  }
  if (outdated.length > 0) {
    findings.push(
      warn(`hook scripts in ${dir} come from another AIC build: ${outdated.join(", ")}`, REINSTALL),
    );
  }
  if (findings.length === 0)
    findings.push(ok(`${deps.scripts.length} hook scripts present and unmodified in ${dir}`));
  return findings;
}

function checkRule(targets: InstallTargets, state: InstallState, packageRoot: string): Finding[] {
  if (!targets.ruleFile) return [];
  const key = recordKey(targets.root, targets.ruleFile);
  const bytes = readBytes(targets.ruleFile);
  if (bytes === null)
    return [
      fail(`the trigger rule ${key} is missing, so the model may not call aic_compile`, REINSTALL),
    ];
  const version = aicVersion(packageRoot);
  if (bytes.equals(renderRule(version))) return [ok(`trigger rule ${key} (AIC ${version})`)];
  if (state.files[key] && digestOf(bytes) === state.files[key]!.produced) {
    return [
      warn(
        `trigger rule ${key} is from AIC ${ruleVersion(bytes) ?? "unknown"}, not ${version}`,
        REINSTALL,
      ),
    ];
  }
  return [
    warn(
      `trigger rule ${key} was edited; it is kept as it is`,
      "`aic install cursor --force` replaces it",
    ),
  ];
}

function checkMcp(targets: InstallTargets, state: InstallState): Finding[] {
  const key = Object.keys(state.files).find((k) => state.files[k]!.role === "mcp");
  const path = key ? pathOfKey(targets.root, key) : targets.mcpJson;
  const shown = key ?? recordKey(targets.root, path);
  const bytes = readBytes(path);
  const parsed = parseMcpJson(bytes?.toString("utf8") ?? "", shown);
  if (typeof parsed === "string") return [fail(parsed, "fix the file")];
  const entry = parsed.entry as { command?: unknown; args?: unknown } | undefined;
  if (entry === undefined) {
    return [fail(`the "${MCP_SERVER_NAME}" MCP server is not registered in ${shown}`, REINSTALL)];
  }
  const cli =
    Array.isArray(entry.args) && typeof entry.args[0] === "string" ? entry.args[0] : undefined;
  if (cli && readBytes(cli) === null) {
    return [
      fail(
        `the "${MCP_SERVER_NAME}" MCP server in ${shown} starts ${cli}, which does not exist`,
        REINSTALL,
      ),
    ];
  }
  const digest = canonicalDigest(entry);
  if (state.mcpEntry !== undefined && digest !== state.mcpEntry) {
    return [
      warn(
        `the "${MCP_SERVER_NAME}" MCP server in ${shown} was edited since AIC registered it`,
        REINSTALL,
      ),
    ];
  }
  return [ok(`MCP server "${MCP_SERVER_NAME}" registered in ${shown}`)];
}

async function checkDaemon(deps: DoctorDeps): Promise<Finding> {
  const socket = daemonPaths(deps.env).socket;
  let answers = false;
  try {
    answers = await deps.daemonAnswers();
  } catch {
    answers = false;
  }
  return answers
    ? ok(`daemon answers on ${socket}`)
    : warn(
        `no daemon answers on ${socket}: hooks compile in-process, which is slower`,
        "run `aic daemon start` (the compiling hooks also start it on demand)",
      );
}

interface HealthLine {
  time?: string;
  hook?: string;
  stage?: string;
  message?: string;
  projectRoot?: string;
}

function checkHealthLog(targets: InstallTargets, deps: DoctorDeps): Finding[] {
  const file = healthLogPath(deps.env);
  const lines = readJsonl<HealthLine>(file).filter(
    (l) => targets.scope === "user" || !l.projectRoot || l.projectRoot === targets.root,
  );
  if (lines.length === 0) return [ok(`no hook errors recorded in ${file}`)];
  return lines
    .slice(-deps.healthLines)
    .map((l) =>
      warn(
        `hook error ${l.time ?? "?"} ${l.hook ?? "?"} (${l.stage ?? "?"}): ${l.message ?? ""}`,
        `see ${file}; the hook failed open, Cursor was not blocked`,
      ),
    );
}
