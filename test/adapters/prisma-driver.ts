import type { IdGenerator } from '@snowkey/core';
import { prismaSqlClient, snowkey, snowkeyClient } from '@snowkey/prisma';
import type { Prisma } from '../../packages/prisma/test/generated/postgres/client/client.js';
import { loadTestDataModel, openPrisma } from '../../packages/prisma/test/helpers/prisma-test-client.js';
import type { AdapterDriver, AdapterSession, ItemInput } from '../conformance/adapter-driver.js';

/**
 * The Prisma adapter for the conformance suite: the package's test client (its models map the
 * conformance tables with @@map/@map) extended with `snowkey()`, or wrapped by `snowkeyClient()`,
 * given the data model its generator block wrote.
 */
function prismaDriverOf(attach: 'extension' | 'wrapper'): AdapterDriver {
  return {
    name: attach === 'extension' ? 'prisma' : 'prisma (snowkeyClient)',
    nullKey: 'refused by the ORM',
    async openSqlClient(db) {
      const prisma = await openPrisma(db);
      return { client: prismaSqlClient(prisma), close: () => prisma.$disconnect() };
    },
    async open(db, generator: IdGenerator): Promise<AdapterSession> {
      const base = await openPrisma(db);
      const models = { Item: 'id', Parent: 'id', Child: 'id' } as const;
      const dataModel = await loadTestDataModel();
      const extended = () => base.$extends(snowkey<Prisma.ModelName>({ generator, models, dataModel }));
      // The wrapper returns the client's own type; typed here as the extension's, which has the same
      // model methods.
      const prisma =
        attach === 'extension'
          ? extended()
          : (snowkeyClient(base, { generator, models, dataModel }) as unknown as ReturnType<typeof extended>);
      /** Rows by name (unique in sk_item) back in input order. */
      const inInputOrder = (items: ItemInput[], rows: { id: bigint; name: string }[]) => {
        const byName = new Map(rows.map((r) => [r.name, r.id]));
        return items.map((it) => byName.get(it.name)!);
      };
      return {
        async insertOne(item) {
          return (await prisma.item.create({ data: item })).id;
        },
        async insertMany(items) {
          if (db.dialect === 'mysql') {
            // Prisma has no createManyAndReturn on MySQL: one createMany, then read the ids back.
            await prisma.item.createMany({ data: items });
            const rows = await prisma.item.findMany({
              where: { name: { in: items.map((it) => it.name) } },
              select: { id: true, name: true },
            });
            return inInputOrder(items, rows);
          }
          return inInputOrder(
            items,
            await prisma.item.createManyAndReturn({ data: items, select: { id: true, name: true } }),
          );
        },
        async insertParentWithChildren(parentName, childLabels) {
          const parent = await prisma.parent.create({
            data: { name: parentName, children: { create: childLabels.map((label) => ({ label })) } },
            include: { children: true },
          });
          const byLabel = new Map(parent.children.map((c) => [c.label, c.id]));
          return { parentId: parent.id, childIds: childLabels.map((label) => byLabel.get(label)!) };
        },
        insertInTransaction(items) {
          return prisma.$transaction(async (tx) => {
            const ids: bigint[] = [];
            for (const item of items) ids.push((await tx.item.create({ data: item })).id);
            return ids;
          });
        },
        findItem(id) {
          return prisma.item.findUnique({ where: { id }, select: { id: true, name: true } });
        },
        async findItemIdsBetween(minId, maxId) {
          const found = await prisma.item.findMany({
            where: { id: { gte: minId, lte: maxId } },
            orderBy: { id: 'asc' },
            select: { id: true },
          });
          return found.map((r) => r.id);
        },
        close() {
          return base.$disconnect();
        },
      };
    },
  };
}

export const prismaDriver = prismaDriverOf('extension');
export const prismaClientDriver = prismaDriverOf('wrapper');
