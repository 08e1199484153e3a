/** zod schemas at the MCP boundary. Bounds keep one bad call from exhausting the server. */
import { z } from "zod";

export const projectRootField = z
  .string()
  .min(1)
  .max(4096)
  .describe(
    "Absolute path of the project folder (the workspace root). Never assumed from the server's cwd.",
  );

const conversationIdField = z.string().min(1).max(256);
const relativePaths = z.array(z.string().min(1).max(1024)).max(1000);

export const toolOutputSchema = z
  .object({
    type: z
      .string()
      .min(1)
      .max(64)
      .describe('A label for the output, e.g. "test-failure", "lint", "grep" (informational).'),
    content: z.string().max(200_000).describe("The tool's output text."),
    relatedFiles: relativePaths
      .optional()
      .describe("Project-relative paths the output mentions; those files are boosted."),
  })
  .strict();

export const compileInputShape = {
  intent: z
    .string()
    .max(100_000)
    .describe(
      'The user\'s request, verbatim. A weak follow-up ("continue", "yes", empty) falls back to this conversation\'s last real intent.',
    ),
  projectRoot: projectRootField,
  editorId: z.string().min(1).max(64).optional().describe('Calling editor, e.g. "cursor".'),
  triggerSource: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      'Why this compile runs, e.g. "tool_gate", "session_start", "subagent_start", "subagent_stop".',
    ),
  conversationId: conversationIdField
    .optional()
    .describe("Chat/conversation id; enables history and aic_chat_summary."),
  modelId: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe("Model id of the agent; part of the cache key."),
  reparentFromConversationId: conversationIdField
    .optional()
    .describe(
      'With triggerSource "subagent_stop": move this subagent conversation\'s records to conversationId; nothing is compiled.',
    ),
  stepIndex: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .describe("Index of the agent's current step."),
  stepIntent: z
    .string()
    .max(10_000)
    .optional()
    .describe("What the current step is about; refines the intent."),
  previousFiles: relativePaths
    .optional()
    .describe("Project-relative files already in the agent's view (boosted a little)."),
  toolOutputs: z.array(toolOutputSchema).max(50).optional(),
  conversationTokens: z
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .optional()
    .describe(
      "Tokens already used by the conversation; a fuller conversation gets a smaller budget.",
    ),
  budget: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe("Token budget (default: aic.config.json budget, else 8000)."),
};

export const compileInputSchema = z.object(compileInputShape).strict();
