// Loaded with `node --require` by bench/export.ts: reports the process's peak memory at exit.
process.on('exit', () => process.stderr.write(`\nPEAK_RSS_KB=${process.resourceUsage().maxRSS}\n`))
