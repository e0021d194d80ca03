import { delegateName } from './data-model.js';
import { FILLED_OPERATIONS } from './fill-ids.js';

/** The part of a Prisma client's extension list (`client._extensions`) read here. */
interface ExtensionList {
  getAllQueryCallbacks(delegate: string, operation: string): unknown;
}

/**
 * Whether `client` may already run a query-extension callback on a write that snowkey fills (a
 * write of one of `models`, by their names, any of the operations that can create rows): a
 * callback that adds rows to the arguments must see them filled after it, so snowkey then runs as
 * a query extension behind it. Prisma's extension list is not a public API: when it cannot be
 * read, the answer is yes.
 */
export function hasWriteQueryCallbacks(client: unknown, models: readonly string[]): boolean {
  const list = (client as { _extensions?: Partial<ExtensionList> } | null)?._extensions;
  if (typeof list?.getAllQueryCallbacks !== 'function') return true;
  const extensions = list as ExtensionList;
  return models.some((model) =>
    FILLED_OPERATIONS.some((op) => {
      const callbacks = extensions.getAllQueryCallbacks(delegateName(model), op);
      return !Array.isArray(callbacks) || callbacks.length > 0;
    }),
  );
}
