import { SnowkeyError } from '@snowkey/core';
import { runAutoIncrementContrast } from './autoincrement-contrast.js';
import { type ExampleDefaults, type ExampleOptions, parseExampleArgs } from './cli-options.js';
import { loadRepositoryEnv } from './dot-env.js';
import type { MergeScenarioOptions } from './merge-scenario.js';
import { runMergeScenario, type ShardPlayer } from './merge-scenario.js';
import {
  formatAutoIncrementReport,
  formatMergeReport,
  formatPlayReport,
  formatSegmentReport,
  formatTicketReport,
  progressPrinter,
} from './report.js';
import { runSegmentContrast } from './segment-contrast.js';
import { runTicketServerContrast } from './ticket-server-contrast.js';

/** What an example's command line supplies to {@link runExampleCli}. */
export interface ExampleCli {
  /** The first line of the report, e.g. `snowkey 合服 with TypeORM`. */
  readonly title: string;
  /** The `--help` text. */
  readonly usage: string;
  readonly defaults: ExampleDefaults;
  /** Who plays each server (one per server id). */
  players(options: ExampleOptions, serverIds: readonly number[]): ShardPlayer[];
}

/**
 * The command line every example shares: parse the flags, build the shards, play, merge with
 * progress, verify, print the report, then (unless `--no-contrasts`) the AUTO_INCREMENT,
 * ticket-server and segment contrasts. Resolves to the exit code: 0 when the merge verified and
 * the contrasts collided as they must (and their fixes merged clean), 1 otherwise, 2 on bad flags
 * or an error.
 *
 * @example
 * process.exitCode = await runExampleCli({ title: 'snowkey 合服 with Knex', usage, defaults, players: () => [knexPlayer, knexPlayer] }, process.argv.slice(2));
 */
export async function runExampleCli(cli: ExampleCli, argv: readonly string[]): Promise<number> {
  const say = (s: string) => process.stdout.write(`${s}\n`);
  try {
    loadRepositoryEnv();
    const opts = parseExampleArgs(argv, cli.defaults);
    if (opts.help) {
      process.stdout.write(cli.usage);
      return 0;
    }
    const started = performance.now();
    const serverIds = Array.from({ length: opts.shards }, (_, i) => i + 1);
    const where = 'dir' in opts.host ? `SQLite files in ${opts.host.dir}` : opts.host.dialect;
    say(
      `${cli.title}: ${opts.shards} game servers x ${opts.players.toLocaleString('en-US')} players, ${opts.writers} concurrent writers each, on ${where}\n`,
    );
    const result = await runMergeScenario({
      host: opts.host,
      prefix: opts.prefix,
      players: cli.players(opts, serverIds),
      serverIds,
      playersPerShard: opts.players,
      writers: opts.writers,
      seed: opts.seed,
      batchSize: opts.batch,
      onProgress: progressPrinter(process.stdout),
      onStep: (s) => say(`-- ${s}`),
      onPlayProgress: playProgressPrinter(process.stdout, opts.players),
      onPlayed: (plays) => say(`\n${formatPlayReport(plays)}\n`),
    });
    say(`\n${formatMergeReport(result)}`);

    let contrastsOk = true;
    let lostWithout: number | undefined;
    if (opts.contrasts) {
      const common = {
        host: opts.host,
        prefix: opts.prefix,
        writers: opts.writers,
        seed: opts.seed,
        batchSize: opts.batch,
      };
      const players = Math.min(opts.players, 300);
      say(
        `\n-- contrasts: the same play on plain Knex, ${players} players per server, keys counted by the database, then by ticket counters, then by segment allocators`,
      );
      const ai = await runAutoIncrementContrast({ ...common, serverIds, playersPerShard: players });
      lostWithout = ai.merge.totals.collisions;
      say(`\n${formatAutoIncrementReport(ai)}`);
      const tickets = await runTicketServerContrast({ ...common, playersPerShard: players });
      say(`\n${formatTicketReport(tickets)}`);
      const segments = await runSegmentContrast({ ...common, serverIds, playersPerShard: players });
      say(`\n${formatSegmentReport(segments)}`);
      const [ownCounter, ...apart] = segments;
      // The contrasts make their point only if they really collide, and their fixes are really clean.
      contrastsOk =
        ai.merge.totals.collisions > 0 &&
        ai.rekeyed.ok &&
        ai.rekeyed.collisions === 0 &&
        tickets[0]!.merge.totals.collisions === 0 &&
        tickets[1]!.merge.totals.collisions > 0 &&
        ownCounter.merge.totals.collisions > 0 &&
        !ownCounter.verification.ok &&
        apart.every((p) => p.merge.totals.collisions === 0 && p.verification.ok);
    }

    const v = result.verification;
    const ok = v.ok && contrastsOk;
    const total = ((performance.now() - started) / 1000).toFixed(1);
    const merged = `${result.merge.run.copied.toLocaleString('en-US')} rows from ${opts.shards} servers merged and verified, ${result.merge.totals.collisions} key collisions`;
    const verdict = !v.ok
      ? `FAIL: the snowflake merge is broken: ${v.problems.join('; ')}`
      : !contrastsOk
        ? `FAIL: ${merged}, but the contrasts did not go wrong as they must`
        : `PASS: ${merged}${lostWithout === undefined ? '' : `; without snowkey the same game lost ${lostWithout.toLocaleString('en-US')} rows`}`;
    say(`\n${verdict} (${total} s)`);
    say(`merged database: ${result.target.url}`);
    return ok ? 0 : 1;
  } catch (err) {
    process.stderr.write(
      err instanceof SnowkeyError ? `${err.name}: ${err.message}\n` : `${(err as Error)?.stack ?? err}\n`,
    );
    return 2;
  }
}

/** Shows the players written on each server while they play: a live line on a terminal, else a line every 2 s. */
function playProgressPrinter(
  stream: NodeJS.WriteStream,
  perServer: number,
): NonNullable<MergeScenarioOptions['onPlayProgress']> {
  const tty = stream.isTTY === true;
  let calls = 0;
  return (counts) => {
    const line = `   playing: ${counts.map((c) => `${c.label} ${c.players.toLocaleString('en-US')}/${perServer.toLocaleString('en-US')} players`).join(', ')}`;
    if (tty) stream.write(`\r${line}`);
    else if (calls++ % 2 === 0) stream.write(`${line}\n`); // a log gets a line every 2 s
  };
}
