/** Colour only on a terminal, never when NO_COLOR is set (https://no-color.org). */
import pc from "picocolors";

export type Colours = ReturnType<typeof pc.createColors>;

export function colourEnabled(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return stream.isTTY === true;
}

export function colours(enabled = colourEnabled()): Colours {
  return pc.createColors(enabled);
}
