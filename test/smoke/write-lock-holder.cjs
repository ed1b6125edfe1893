// Another process on the service's database file: takes the write lock (BEGIN IMMEDIATE), writes, prints
// "locked", and commits when a line arrives on stdin (or after HOLD_MAX_MS), then prints "released".
// Run with the pinned Node or Bun from the repository root: node test/smoke/write-lock-holder.cjs <file>
const Libsql = require('libsql');

const connection = new Libsql(process.argv[2]);
connection.exec('BEGIN IMMEDIATE');
connection.exec('UPDATE accounts SET credits_remaining = credits_remaining');
process.stdout.write('locked\n');

const release = () => {
  connection.exec('COMMIT');
  connection.close();
  process.stdout.write('released\n');
  process.exit(0);
};
process.stdin.once('data', release);
setTimeout(release, Number(process.env.HOLD_MAX_MS ?? 60_000));
