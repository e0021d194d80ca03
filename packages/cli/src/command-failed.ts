import { SnowkeyError } from '@snowkey/core';

/**
 * Thrown by a command that has printed its own report of a failure (a merge that did not
 * verify, a plan that would not succeed): the CLI exits with `exitStatus` and prints nothing more.
 */
export class CommandFailed extends SnowkeyError {
  override name = 'CommandFailed';
  override readonly code: string = 'SNOWKEY_COMMAND_FAILED';
  readonly exitStatus: number;
  constructor(exitStatus: number) {
    super(`exit ${exitStatus}`);
    this.exitStatus = exitStatus;
  }
}
