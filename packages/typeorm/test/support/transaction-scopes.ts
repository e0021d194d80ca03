import type { DataSource, EntityManager } from 'typeorm';

/** Where a piece of work runs: on the DataSource's manager, or inside one of TypeORM's two kinds of transaction. */
export interface TransactionScope {
  readonly name: string;
  /** Whether the work's writes are undone when it throws. */
  readonly transactional: boolean;
  run<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T>;
}

export const transactionScopes: readonly TransactionScope[] = [
  {
    name: 'outside a transaction',
    transactional: false,
    run: (dataSource, work) => work(dataSource.manager),
  },
  {
    name: 'inside dataSource.transaction',
    transactional: true,
    run: (dataSource, work) => dataSource.transaction(work),
  },
  {
    name: 'inside a QueryRunner-managed transaction',
    transactional: true,
    async run(dataSource, work) {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (err) {
        await runner.rollbackTransaction();
        throw err;
      } finally {
        await runner.release();
      }
    },
  },
];
