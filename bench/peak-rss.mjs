// Preloaded into the CLI by the merge benchmark (`node --import bench/peak-rss.mjs ...`): prints the
// process's peak resident set size (KiB) on stderr as it exits.
process.on('exit', () => {
  process.stderr.write(`\npeak-rss ${process.resourceUsage().maxRSS}\n`);
});
