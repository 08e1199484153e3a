/**
 * Runs a CLI module in this process and, on exit, writes its resource usage (peak RSS, CPU time)
 * as JSON to the file named by AIC_BENCH_USAGE_FILE. Usage: node rss-wrapper.mjs <cli.mjs> args...
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [cli, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], cli, ...args];
process.on("exit", () => {
  const u = process.resourceUsage();
  const out = process.env.AIC_BENCH_USAGE_FILE;
  if (out)
    writeFileSync(
      out,
      JSON.stringify({
        maxRssKb: u.maxRSS,
        userMs: u.userCPUTime / 1000,
        systemMs: u.systemCPUTime / 1000,
      }),
    );
});
await import(pathToFileURL(cli).href);
