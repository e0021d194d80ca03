import type { SqlClient, SqlParam } from '@snowkey/core';

/** A held statement: `reached` resolves once it arrives; `open()` lets it through to the database. */
export interface Gate {
  readonly reached: Promise<void>;
  open(): void;
}

/** A client whose next write matching a pattern waits at a gate, to interleave two holders by hand. */
export interface GatedSqlClient extends SqlClient {
  /** Holds the next `execute` whose SQL matches `pattern` until the gate is opened. */
  holdNext(pattern: RegExp): Gate;
}

/**
 * Wraps `client` so a test can stop one statement before it reaches the database.
 *
 * @example
 * const gated = gatedSqlClient(client);
 * const gate = gated.holdNext(/^UPDATE/);
 * const renewing = lease.renew(); await gate.reached; ...; gate.open(); await renewing;
 */
export function gatedSqlClient(client: SqlClient): GatedSqlClient {
  const held: { pattern: RegExp; arrive: () => void; passage: Promise<void> }[] = [];
  return {
    dialect: client.dialect,
    query: (sql, params) => client.query(sql, params),
    async execute(sql: string, params?: readonly SqlParam[]) {
      const i = held.findIndex((h) => h.pattern.test(sql));
      if (i !== -1) {
        const [gate] = held.splice(i, 1);
        gate!.arrive();
        await gate!.passage;
      }
      return client.execute(sql, params);
    },
    holdNext(pattern) {
      let arrive!: () => void;
      let open!: () => void;
      const reached = new Promise<void>((r) => {
        arrive = r;
      });
      const passage = new Promise<void>((r) => {
        open = r;
      });
      held.push({ pattern, arrive, passage });
      return { reached, open };
    },
  };
}
