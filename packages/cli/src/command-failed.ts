/**
 * Thrown by a command that has printed its own report of a failure (a merge that did not
 * verify, a plan that would not succeed): the CLI exits with `code` and prints nothing more.
 */
export class CommandFailed extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`exit ${code}`);
    this.name = 'CommandFailed';
    this.code = code;
  }
}
