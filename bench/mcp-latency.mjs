#!/usr/bin/env node
/**
 * MCP server latency, measured through the official SDK client over stdio against the built
 * server (`node dist/cli.js serve`), beside two baselines measured in the same run:
 *   - a trivial tool round trip (aic_projects): the protocol + process floor;
 *   - a fresh `aic compile` process per request: the "spawn a server per call" approach.
 * Reports medians over --runs distinct intents (cache misses) and repeats (cache hits).
 *
 *   npm run build && node bench/mcp-latency.mjs [--project DIR] [--runs 10]
 *
 * HOME and AIC_HOME point at a temp folder, so the real ~/.aic is never touched.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { benchEnv } from "./lib/measure.mjs";
import { median } from "./lib/results.mjs";

const repo = new URL("..", import.meta.url).pathname;
const cli = join(repo, "dist/cli.js");
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const project = realpathSync(opt("--project", repo));
const runs = Math.max(3, Number(opt("--runs", 10)) || 10);

if (!existsSync(cli)) {
  console.error(`No built CLI at ${cli}. Run \`npm run build\` first.`);
  process.exit(1);
}

const home = mkdtempSync(join(tmpdir(), "aic-mcp-bench-"));
const env = benchEnv(home, { NO_COLOR: "1" });

const SUBJECTS = [
  "parse the configuration file and report unknown keys",
  "cache invalidation when a file changes",
  "command line options for the budget",
  "tokenizer counts for the prompt",
  "retry when the database is locked",
  "render the header of each file section",
  "resolve imports relative to the project root",
  "redact secrets found in file contents",
  "rank files by identifiers mentioned in the request",
  "error message when the project folder is missing",
  "outline of a class with its method signatures",
  "walk the folder tree honouring gitignore",
];
const intents = Array.from({ length: runs }, (_, i) => `${SUBJECTS[i % SUBJECTS.length]} (${i})`);

const time = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

let client;
const coldStart = await time(async () => {
  client = new Client({ name: "aic-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, "serve"],
      env,
      stderr: "ignore",
    }),
  );
  await client.listTools();
});

const compile = (intent) =>
  client
    .callTool({ name: "aic_compile", arguments: { intent, projectRoot: project } })
    .then((r) => {
      if (r.isError) throw new Error(r.content[0].text);
      return JSON.parse(r.content[1].text.slice("AIC meta: ".length));
    });

// First compile builds the index (cold); not part of the medians.
const first = await time(() => compile("warm up the index"));

const trivial = [];
const miss = [];
const hit = [];
const perProcess = [];
for (const intent of intents) {
  trivial.push(await time(() => client.callTool({ name: "aic_projects", arguments: {} })));
  let meta;
  miss.push(await time(async () => (meta = await compile(intent))));
  if (meta.cacheHit) throw new Error("expected a cache miss");
  hit.push(await time(async () => (meta = await compile(intent))));
  if (!meta.cacheHit) throw new Error("expected a cache hit");
  perProcess.push(
    await time(() => {
      const r = spawnSync(
        process.execPath,
        [cli, "compile", "--project", project, "--intent", intent, "--format", "json"],
        {
          env,
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      if (r.status !== 0) throw new Error(`aic compile failed: ${r.stderr}`);
    }),
  );
}
await client.close();

const row = (name, ms, base) =>
  `| ${name} | ${ms.toFixed(1)} | ${base ? (ms / base).toFixed(2) : ""} |`;
const t = median(trivial);
console.log(
  `MCP latency: ${project} (${runs} runs, ${cpus().length} CPUs, node ${process.version})\n`,
);
console.log("| measurement | median ms | × trivial tool |");
console.log("|---|---:|---:|");
console.log(row("server start → tools listed (once)", coldStart, 0));
console.log(row("first aic_compile (index build, once)", first, 0));
console.log(row("trivial tool round trip (aic_projects)", t, 0));
console.log(row("aic_compile, new intent (cache miss)", median(miss), t));
console.log(row("aic_compile, repeated intent (cache hit)", median(hit), t));
console.log(row("`aic compile` process per request (baseline)", median(perProcess), t));
console.log(
  `\nwarm MCP compile is ${(median(perProcess) / median(miss)).toFixed(1)}× faster than a process per request`,
);
