// Placeholder entry; commands are wired in as they land.
async function main(argv: string[]): Promise<number> {
  process.stdout.write(`governor: ${argv.join(' ')}\n`);
  return 0;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
