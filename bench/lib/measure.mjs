/** Set-up shared by the benches that run AIC processes as Cursor does (hooks, daemon, MCP). */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const fixtures = new URL("../../tests/fixtures/cursor/", import.meta.url).pathname;

/** The environment of a measured process: nothing from the user's, HOME and AIC_HOME under `home`. */
export function benchEnv(home, extra = {}) {
  return { PATH: process.env.PATH, HOME: home, AIC_HOME: join(home, ".aic"), ...extra };
}

/** A Cursor payload from tests/fixtures/cursor, with the fixture's project path set to `root`. */
export function cursorFixture(name, root) {
  const text = readFileSync(join(fixtures, `${name}.json`), "utf8");
  return JSON.parse(text.split("/home/dev/projects/shop-api").join(root));
}
