/**
 * `aic … | head` closes the pipe early; Node then raises EPIPE on the next stdout write and, with
 * no listener, dies with a stack trace and exit code 1. A closed reader wants no more output:
 * stop quietly, as Unix tools do. Any other stdout error stays fatal.
 */
export function exitQuietlyWhenStdoutCloses(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
}
