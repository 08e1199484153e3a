/** A caller mistake (bad project root, empty intent, …): reported as-is, never as a crash. */
export class AicInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AicInputError";
  }
}
