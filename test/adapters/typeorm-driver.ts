import 'reflect-metadata';
import type { IdGenerator } from '@snowkey/core';
import { exactSqliteIntegers } from '@snowkey/core';
import { attachSnowflakes, BigIntColumn, SnowflakeColumn, typeormSqlClient } from '@snowkey/typeorm';
import {
  Between,
  Column,
  DataSource,
  type DataSourceOptions,
  Entity,
  JoinColumn,
  ManyToOne,
  OneToMany,
} from 'typeorm';
import type { AdapterDriver, AdapterSession, ItemInput } from '../conformance/adapter-driver.js';
import type { TestDatabase } from '../helpers/test-database.js';

@Entity('sk_item')
class SkItem {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 100, unique: true }) name!: string;
  @Column({ type: 'int' }) qty!: number;
}

@Entity('sk_parent')
class SkParent {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @OneToMany(
    () => SkChild,
    (child) => child.parent,
    { cascade: ['insert'] },
  )
  children!: SkChild[];
}

@Entity('sk_child')
class SkChild {
  @SnowflakeColumn() id!: bigint;
  @BigIntColumn({ name: 'parent_id' }) parentId!: bigint;
  @ManyToOne(
    () => SkParent,
    (parent) => parent.children,
  )
  @JoinColumn({ name: 'parent_id' })
  parent!: SkParent;
  @Column({ type: 'varchar', length: 100 }) label!: string;
}

function options(db: TestDatabase): DataSourceOptions {
  const entities = [SkItem, SkParent, SkChild];
  if (db.dialect === 'postgres') return { type: 'postgres', url: db.url, entities };
  if (db.dialect === 'mysql') return { type: 'mysql', url: db.url, entities };
  return { type: 'better-sqlite3', database: db.filename!, entities, prepareDatabase: exactSqliteIntegers };
}

/**
 * @snowkey/typeorm under the conformance suite: single rows through `save`, bulk through one
 * `repository.insert` (ids from its `identifiers`), children through a cascade, transactions through `dataSource.transaction`.
 */
export const typeormDriver: AdapterDriver = {
  name: 'typeorm',
  nullKey: 'generated',
  async openSqlClient(db: TestDatabase) {
    const dataSource = new DataSource(options(db));
    await dataSource.initialize();
    return { client: typeormSqlClient(dataSource), close: () => dataSource.destroy() };
  },
  async open(db: TestDatabase, generator: IdGenerator): Promise<AdapterSession> {
    const dataSource = new DataSource(options(db));
    await dataSource.initialize();
    attachSnowflakes(dataSource, { generator });
    const items = dataSource.getRepository(SkItem);
    return {
      async insertOne(input: ItemInput) {
        return (await items.save(items.create(input))).id;
      },
      async insertMany(input: ItemInput[]) {
        const { identifiers } = await items.insert(input.map((it) => items.create(it)));
        return identifiers.map((i) => i.id as bigint);
      },
      async insertParentWithChildren(parentName, childLabels) {
        const parent = dataSource.manager.create(SkParent, {
          name: parentName,
          children: childLabels.map((label) => dataSource.manager.create(SkChild, { label })),
        });
        const saved = await dataSource.manager.save(parent);
        return { parentId: saved.id, childIds: saved.children.map((c) => c.id) };
      },
      async insertInTransaction(input: ItemInput[]) {
        return dataSource.transaction(async (m) => {
          const ids: bigint[] = [];
          for (const it of input) ids.push((await m.save(m.create(SkItem, it))).id);
          return ids;
        });
      },
      async findItem(id: bigint) {
        const found = await items.findOneBy({ id });
        return found ? { id: found.id, name: found.name } : null;
      },
      async findItemIdsBetween(minId: bigint, maxId: bigint) {
        const found = await items.find({ where: { id: Between(minId, maxId) }, order: { id: 'ASC' } });
        return found.map((r) => r.id);
      },
      async close() {
        await dataSource.destroy();
      },
    };
  },
};
