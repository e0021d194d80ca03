import { SnowkeyError } from '@snowkey/core';
import { runAutoIncrementContrast } from './autoincrement-contrast.js';
import { EXAMPLE_FLAGS_HELP, parseExampleArgs } from './cli-options.js';
import { runMergeScenario, type ShardPlayer } from './merge-scenario.js';
import { plainSnowflakePlayer } from './plain-player.js';
import {
  formatAutoIncrementReport,
  formatMergeReport,
  formatTicketReport,
  progressPrinter,
} from './report.js';
import { spawnedPlayer } from './spawned-player.js';
import { runTicketServerContrast } from './ticket-server-contrast.js';

const USAGE = `pnpm demo [-- flags]

The 合服 demo: game servers with snowflake keys play, merge into one database, and the merge is
verified row by row; then the same game with AUTO_INCREMENT and ticket-server keys, for contrast.
${EXAMPLE_FLAGS_HELP}  --adapters LIST               who plays each server, round robin (default typeorm,prisma,knex;
                               plain = core's Snowflake on plain Knex)
`;

async function main(): Promise<number> {
  const opts = parseExampleArgs(process.argv.slice(2), {
    prefix: 'snowkey_demo',
    players: 1500,
    adapters: ['typeorm', 'prisma', 'knex'],
  });
  if (opts.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const started = performance.now();
  const serverIds = Array.from({ length: opts.shards }, (_, i) => i + 1);
  const players: ShardPlayer[] = serverIds.map((_, i) => {
    const name = opts.adapters[i % opts.adapters.length]!;
    return name === 'plain' ? plainSnowflakePlayer : spawnedPlayer(name);
  });
  const where = 'dir' in opts.host ? `SQLite files in ${opts.host.dir}` : opts.host.dialect;
  const say = (s: string) => process.stdout.write(`${s}\n`);
  say(`snowkey 合服 demo: ${opts.shards} game servers x ${opts.players} players on ${where}\n`);

  const result = await runMergeScenario({
    host: opts.host,
    prefix: opts.prefix,
    players,
    serverIds,
    playersPerShard: opts.players,
    writers: opts.writers,
    seed: opts.seed,
    batchSize: opts.batch,
    onProgress: progressPrinter(process.stdout),
    onStep: (s) => say(`-- ${s}`),
  });
  say('');
  say(formatMergeReport(result));

  let contrastsOk = true;
  if (opts.contrasts) {
    const small = {
      host: opts.host,
      prefix: opts.prefix,
      writers: opts.writers,
      seed: opts.seed,
      batchSize: opts.batch,
    };
    const contrastPlayers = Math.min(opts.players, 300);
    say(`\n-- contrasts: ${contrastPlayers} players per server`);
    const ai = await runAutoIncrementContrast({ ...small, serverIds, playersPerShard: contrastPlayers });
    say(`\n${formatAutoIncrementReport(ai)}`);
    const tickets = await runTicketServerContrast({ ...small, playersPerShard: contrastPlayers });
    say(`\n${formatTicketReport(tickets)}`);
    // The contrasts prove their point only if they really collide.
    contrastsOk =
      ai.merge.collisions > 0 && tickets[0]!.merge.collisions === 0 && tickets[1]!.merge.collisions > 0;
  }

  const ok = result.verification.ok && contrastsOk;
  say(
    `\n${ok ? 'PASS' : 'FAIL'}: snowflake merge ${result.verification.ok ? 'verified' : `broken (${result.verification.problems.join('; ')})`}` +
      ` in ${((performance.now() - started) / 1000).toFixed(1)} s total. Databases: ${result.shards.map((s) => s.ref.url).join(', ')}, ${result.target.url}`,
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(
      err instanceof SnowkeyError ? `${err.name}: ${err.message}\n` : `${(err as Error)?.stack ?? err}\n`,
    );
    process.exitCode = 2;
  },
);
