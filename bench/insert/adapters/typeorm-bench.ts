import 'reflect-metadata';
import { exactSqliteIntegers } from '@snowkey/core';
import { attachSnowflakes, SnowflakeColumn } from '@snowkey/typeorm';
import {
  Column,
  type ColumnOptions,
  DataSource,
  type DataSourceOptions,
  Entity,
  type EntityTarget,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { BenchDatabase } from '../bench-database.js';
import {
  type AdapterBench,
  type BenchRow,
  callerRows,
  inChunks,
  VARIANT_TABLE,
  type WritePath,
} from './adapter-bench.js';

const payload = () => (target: object, key: string) => {
  const columns: Record<string, ColumnOptions> = {
    ownerId: { type: 'bigint', name: 'owner_id' },
    name: { type: 'varchar', length: 32 },
    score: { type: 'int' },
    createdAt: { type: 'bigint', name: 'created_at' },
  };
  Column(columns[key]!)(target, key);
};

@Entity(VARIANT_TABLE.autoincrement)
class AutoRow {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @payload() ownerId!: bigint;
  @payload() name!: string;
  @payload() score!: number;
  @payload() createdAt!: bigint;
}

/** The plain TypeORM way to an application-assigned key: a bigint primary column, set by hand. */
@Entity(VARIANT_TABLE['hand-set'])
class HandRow {
  @PrimaryColumn({ type: 'bigint' }) id!: bigint;
  @payload() ownerId!: bigint;
  @payload() name!: string;
  @payload() score!: number;
  @payload() createdAt!: bigint;
}

@Entity(VARIANT_TABLE.snowkey)
class SnowRow {
  @SnowflakeColumn() id!: bigint;
  @payload() ownerId!: bigint;
  @payload() name!: string;
  @payload() score!: number;
  @payload() createdAt!: bigint;
}

const ENTITY = { autoincrement: AutoRow, 'hand-set': HandRow, snowkey: SnowRow } as const;

const paths = {
  insert: { name: 'repository.insert(1000 rows)', rowsPerCall: 1000 },
  save: { name: 'repository.save(1000 entities)', rowsPerCall: 1000, sameStatements: false },
  single: { name: 'repository.insert(1 row)', rowsPerCall: 1 },
} satisfies Record<string, WritePath>;

function options(db: BenchDatabase, entity: Function): DataSourceOptions {
  const c = db.database;
  // mysql2 exact BIGINT reads, as @snowkey/typeorm requires (TypeORM's default returns strings).
  if (db.dialect === 'postgres')
    return { type: 'postgres', url: c.url, entities: [entity] } as DataSourceOptions;
  if (db.dialect === 'mysql') {
    return { type: 'mysql', url: c.url, entities: [entity], supportBigNumbers: true, bigNumberStrings: true };
  }
  return {
    type: 'better-sqlite3',
    database: c.filename!,
    prepareDatabase: exactSqliteIntegers,
    entities: [entity],
  };
}

/** TypeORM 1.x: `repository.insert` of 1000 rows, `repository.save` of 1000 entities, one-row inserts. */
export const typeormBench: AdapterBench = {
  name: 'TypeORM',
  paths: Object.values(paths),
  async open(db, variant, generator) {
    const entity = ENTITY[variant];
    const ds = new DataSource(options(db, entity));
    await ds.initialize();
    if (variant === 'snowkey') attachSnowflakes(ds, { generator });
    const repo = ds.getRepository<BenchRow & { id?: bigint }>(
      entity as EntityTarget<BenchRow & { id?: bigint }>,
    );
    const withIds = (rows: readonly BenchRow[]) => callerRows(rows, variant, generator);
    return {
      async write(path, rows) {
        if (path === paths.insert) await inChunks(rows, 1000, (c) => repo.insert(withIds(c)));
        else if (path === paths.save) await inChunks(rows, 1000, (c) => repo.save(withIds(c)));
        else for (const row of rows) await repo.insert(withIds([row])[0]!);
      },
      close: () => ds.destroy(),
    };
  },
};
