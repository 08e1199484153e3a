/** The daemon's compile handlers on the real compiler (no socket: the handlers themselves). */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CompiledContext } from "../../src/compiler/types.js";
import { createCompileService } from "../../src/daemon/compile-service.js";
import { BadRequestError } from "../../src/daemon/server.js";

function project(name: string): string {
  const root = join(mkdtempSync(join(tmpdir(), "aic-daemon-svc-")), name);
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "src", "billing.py"), "def charge(amount):\n    return amount * 2\n");
  writeFileSync(join(root, "src", "users.py"), "def create_user(name):\n    return name\n");
  return root;
}

function service(extra: Parameters<typeof createCompileService>[0] = {}) {
  const svc = createCompileService({
    cacheRoot: mkdtempSync(join(tmpdir(), "aic-daemon-cache-")),
    ...extra,
  });
  const compileContext = (params: unknown) =>
    svc.handlers.compileContext!(params) as Promise<CompiledContext>;
  const warm = () => Object.keys((svc.statusExtras!().projects ?? {}) as object);
  return { svc, compileContext, warm };
}

describe("daemon compile service", () => {
  it("refuses invalid requests as bad_request, with the field and the compiler's reason", async () => {
    const { svc, compileContext } = service();
    await expect(compileContext({ projectRoot: 5, intent: "x" })).rejects.toThrow(
      /invalid compileContext params: projectRoot/,
    );
    await expect(compileContext({ projectRoot: "/no/such/aic-dir", intent: "x" })).rejects.toThrow(
      BadRequestError,
    );
    await expect(svc.handlers.compile!({ intent: "x" })).rejects.toThrow(
      /invalid compile params: projectRoot/,
    );
  });

  it("answers concurrent compiles of one project each with its own intent", async () => {
    const root = project("shop");
    const { compileContext } = service();
    const intents = ["charge amount twice", "create_user name", "billing charge", "users module"];
    const results = await Promise.all(
      intents.map((intent) => compileContext({ projectRoot: root, intent })),
    );
    results.forEach((ctx, i) => expect(ctx.prompt).toContain(intents[i]));
  });

  it("drops the warm index of a project unused for evictAfterMs", async () => {
    let clock = 1_000_000;
    const a = project("a");
    const b = project("b");
    const { compileContext, warm } = service({ evictAfterMs: 60_000, now: () => clock });
    await compileContext({ projectRoot: a, intent: "charge" });
    clock += 30_000;
    await compileContext({ projectRoot: b, intent: "charge" });
    expect(warm().sort()).toEqual([a, b].sort());
    clock += 45_000; // a unused for 75 s, b for 45 s
    await compileContext({ projectRoot: b, intent: "users" });
    expect(warm()).toEqual([b]);
  });
});
