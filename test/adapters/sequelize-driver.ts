import type { IdGenerator } from '@snowkey/core';
import { attachSnowflakes, BigIntKey, SnowflakeId, sequelizeSqlClient } from '@snowkey/sequelize';
import { type Association, DataTypes, Model, Op, type Sequelize } from 'sequelize';
import { openSequelize } from '../../packages/sequelize/test/open-sequelize.js';
import type { AdapterDriver, AdapterSession, ItemInput } from '../conformance/adapter-driver.js';
import type { TestDatabase } from '../helpers/test-database.js';

class SkItem extends Model {
  declare id: bigint;
  declare name: string;
  declare qty: number;
}
class SkParent extends Model {
  declare id: bigint;
  declare name: string;
  declare children?: SkChild[];
}
class SkChild extends Model {
  declare id: bigint;
  declare parentId: bigint;
  declare label: string;
}

/** The conformance tables as Sequelize models on `sequelize` (each session has its own instance). */
function defineModels(sequelize: Sequelize) {
  const common = { sequelize, timestamps: false };
  const Item = class extends SkItem {};
  const Parent = class extends SkParent {};
  const Child = class extends SkChild {};
  Item.init(
    {
      id: SnowflakeId(),
      name: { type: DataTypes.STRING(100), allowNull: false, unique: true },
      qty: DataTypes.INTEGER,
    },
    { ...common, modelName: 'SkItem', tableName: 'sk_item' },
  );
  Parent.init(
    { id: SnowflakeId(), name: DataTypes.STRING(100) },
    { ...common, modelName: 'SkParent', tableName: 'sk_parent' },
  );
  Child.init(
    {
      id: SnowflakeId(),
      parentId: BigIntKey({ allowNull: false, field: 'parent_id' }),
      label: DataTypes.STRING(100),
    },
    { ...common, modelName: 'SkChild', tableName: 'sk_child' },
  );
  const children: Association = Parent.hasMany(Child, { as: 'children', foreignKey: 'parentId' });
  return { Item, Parent, Child, children };
}

/**
 * Sequelize reports a unique violation as a UniqueConstraintError whose message is only
 * "Validation error"; the database's own error, which the suite checks, is its `parent`.
 */
function databaseError(err: unknown): never {
  const parent = (err as { name?: string; parent?: unknown }).parent;
  throw (err as { name?: string }).name === 'SequelizeUniqueConstraintError' && parent ? parent : err;
}

/**
 * @snowkey/sequelize under the conformance suite: single rows through `Model.create`, bulk through
 * one `bulkCreate` (default options: no individual hooks), a parent and its children through one
 * `create` with a nested `include`, transactions through a managed `sequelize.transaction`, reads
 * through `findByPk` with the `SnowflakeId` getter.
 */
export const sequelizeDriver: AdapterDriver = {
  name: 'sequelize',
  nullKey: 'generated',
  async openSqlClient(db: TestDatabase) {
    const sequelize = openSequelize(db);
    return { client: sequelizeSqlClient(sequelize), close: () => sequelize.close() };
  },
  async open(db: TestDatabase, generator: IdGenerator): Promise<AdapterSession> {
    const sequelize = openSequelize(db);
    const { Item, Parent, children } = defineModels(sequelize);
    attachSnowflakes(sequelize, { generator });
    return {
      async insertOne(input: ItemInput) {
        return (await Item.create({ ...input })).id;
      },
      async insertMany(input: ItemInput[]) {
        const rows = await Item.bulkCreate(input.map((it) => ({ ...it }))).catch(databaseError);
        return rows.map((row) => row.id);
      },
      async insertParentWithChildren(parentName, childLabels) {
        const parent = await Parent.create(
          { name: parentName, children: childLabels.map((label) => ({ label })) },
          { include: [children] },
        );
        return { parentId: parent.id, childIds: parent.children!.map((c) => c.id) };
      },
      async insertInTransaction(input: ItemInput[]) {
        return sequelize
          .transaction(async (transaction) => {
            const ids: bigint[] = [];
            for (const it of input) ids.push((await Item.create({ ...it }, { transaction })).id);
            return ids;
          })
          .catch(databaseError);
      },
      async findItem(id: bigint) {
        const found = await Item.findByPk(id);
        return found ? { id: found.id, name: found.name } : null;
      },
      async findItemIdsBetween(minId: bigint, maxId: bigint) {
        const found = await Item.findAll({
          where: { id: { [Op.between]: [minId, maxId] } },
          order: [['id', 'ASC']],
        });
        return found.map((r) => r.id);
      },
      async close() {
        await sequelize.close();
      },
    };
  },
};
