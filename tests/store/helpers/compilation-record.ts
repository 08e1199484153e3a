/** A complete compilation_log row for tests; each test overrides only the fields it is about. */
import type { CompilationRecord } from "../../../src/store/index.js";

export function compilationRecord(
  projectId: number,
  over: Partial<CompilationRecord> = {},
): CompilationRecord {
  return {
    createdMs: 1_000,
    projectId,
    conversationId: null,
    editorId: null,
    modelId: null,
    triggerSource: null,
    intent: "fix the login bug",
    intentGiven: null,
    intentSource: "given",
    stepIndex: null,
    stepIntent: null,
    conversationTokens: null,
    taskClass: "bugfix",
    filesSelected: 3,
    filesTotal: 10,
    tokensRaw: 5000,
    tokensCompiled: 900,
    tokenBudget: 8000,
    cacheHit: false,
    durationMs: 12.5,
    guardCounts: { "aws-access-key": 1 },
    topFiles: [{ path: "src/a.ts", tier: "full", tokens: 400 }],
    ...over,
  };
}
