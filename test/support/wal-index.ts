import { readFileSync } from 'node:fs';

/**
 * The WAL's state as SQLite's wal-index (the -shm file, https://sqlite.org/walformat.html) holds it, read without
 * a connection (a connection's checkpoint would change it): the frames in the WAL (mxFrame, offset 16 of the header)
 * and how many of them are copied into the database file (nBackfill, offset 96), in the machine's byte order.
 */
export function walIndex(path: string): { frames: number; copied: number } {
  const index = readFileSync(`${path}-shm`);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const read = (offset: number) => (little ? index.readUInt32LE(offset) : index.readUInt32BE(offset));
  return { frames: read(16), copied: read(96) };
}

/** The table the WAL tests fill: CREATE it first. */
export const FILLER_TABLE = 'CREATE TABLE filler (data BLOB)';

/** A statement that writes about `pages` pages of the WAL, into FILLER_TABLE. */
export function fillerPages(pages: number) {
  return { sql: 'INSERT INTO filler (data) VALUES (randomblob(?))', args: [pages * 4000] };
}
