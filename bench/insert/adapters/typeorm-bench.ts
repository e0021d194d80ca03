import 'reflect-metadata';
import { exactSqliteIntegers } from '@snowkey/core';
import { attachSnowflakes, SnowflakeColumn } from '@snowkey/typeorm';
import {
  Column,
  DataSource,
  type DataSourceOptions,
  Entity,
  type EntityTarget,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { type AdapterBench, type BenchRow, callerRows, inChunks, VARIANT_TABLE } from './adapter-bench.js';

/** The payload columns, inherited by each variant's entity. */
abstract class Payload {
  @Column({ type: 'bigint', name: 'owner_id' }) ownerId!: bigint;
  @Column({ type: 'varchar', length: 32 }) name!: string;
  @Column({ type: 'int' }) score!: number;
  @Column({ type: 'bigint', name: 'created_at' }) createdAt!: bigint;
}

@Entity(VARIANT_TABLE.autoincrement)
class AutoRow extends Payload {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
}

/** The plain TypeORM way to an application-assigned key: a bigint primary column, set by hand. */
@Entity(VARIANT_TABLE['hand-set'])
class HandRow extends Payload {
  @PrimaryColumn({ type: 'bigint' }) id!: bigint;
}

@Entity(VARIANT_TABLE.snowkey)
class SnowRow extends Payload {
  @SnowflakeColumn() id!: bigint;
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
        (rows) => inChunks(rows, 1, (c) => repo.insert(withIds(c)[0]!)),
      ],
      close: () => ds.destroy(),
    };
  },
};
