import { openDatabase } from '../../src/db/libsql.ts';

/** Opens (and so migrates) the database named on the command line, as a server process does on start. */
const { client } = await openDatabase(process.argv[2]!);
client.close();
