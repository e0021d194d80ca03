// A CommonJS app (no top-level await) that follows the README's PostgreSQL set-up.
import { Snowflake } from '@snowkey/core';
import { snowkeyKnex, withBigintReads } from '@snowkey/knex';
import knex from 'knex';

async function main(): Promise<void> {
  const db = knex(withBigintReads({ client: 'pg', connection: process.env.DATABASE_URL }));
  const sk = snowkeyKnex(db, {
    generator: new Snowflake({ workerId: 1 }),
    tables: { players: 'id', items: ['id', 'serial_no'] },
  });
  try {
    const [aria] = await sk.insert('players', { name: 'Aria' });
    const [sword, shield] = await sk.insert('items', [{ label: 'sword' }, { label: 'shield' }]);
    await sk.insert('players', { id: 42n, name: 'Imported' });
    const ariaId: bigint = aria!.id;
    const read = await db('players').where({ name: 'Aria' }).first();
    const result = {
      players: { Aria: ariaId, Imported: 42n },
      items: { sword: [sword!.id, sword!.serial_no], shield: [shield!.id, shield!.serial_no] },
      readBack: typeof read.id === 'bigint' && read.id === ariaId,
    };
    console.log(
      JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)),
    );
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
