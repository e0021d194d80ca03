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
import {
  type AdapterBench,
  type BenchRow,
  callerRows,
  inChunks,
  oneByOne,
  VARIANT_TABLE,
} from './adapter-bench.js';

const COLUMNS: Record<string, ColumnOptions> = {
  ownerId: { type: 'bigint', name: 'owner_id' },
  name: { type: 'varchar', length: 32 },
  score: { type: 'int' },
  createdAt: { type: 'bigint', name: 'created_at' },
};
const payload = () => (target: object, key: string) => Column(COLUMNS[key]!)(target, key);

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

/** TypeORM 1.x: `repository.insert` of 1000 rows, `repository.save` of 1000 entities, one-row inserts. */
export const typeormBench: AdapterBench = {
  name: 'TypeORM',
  paths: [
    { name: 'repository.insert(1000 rows)' },
    { name: 'repository.save(1000 entities)', otherSql: true },
    { name: 'repository.insert(1 row)', single: true },
  ],
  async open({ dialect, url, filename }, variant, generator) {
    const entities = [{ autoincrement: AutoRow, 'hand-set': HandRow, snowkey: SnowRow }[variant]];
    // mysql2 exact BIGINT reads, as @snowkey/typeorm requires (TypeORM's default returns strings).
    const options: DataSourceOptions =
      dialect === 'postgres'
        ? { type: 'postgres', url, entities }
        : dialect === 'mysql'
          ? { type: 'mysql', url, entities, supportBigNumbers: true, bigNumberStrings: true }
          : { type: 'better-sqlite3', database: filename!, prepareDatabase: exactSqliteIntegers, entities };
    const ds = await new DataSource(options).initialize();
    if (variant === 'snowkey') attachSnowflakes(ds, { generator });
    type Row = BenchRow & { id?: bigint };
    const repo = ds.getRepository<Row>(entities[0] as EntityTarget<Row>);
    const withIds = (rows: readonly BenchRow[]) => callerRows(rows, variant, generator);
    return {
      writes: [
        (rows) => inChunks(rows, 1000, (c) => repo.insert(withIds(c))),
        (rows) => inChunks(rows, 1000, (c) => repo.save(withIds(c))),
        (rows) => oneByOne(rows, (row) => repo.insert(withIds([row])[0]!)),
      ],
      close: () => ds.destroy(),
    };
  },
};
