import { parseArgs } from 'node:util';
import { MissingPeerError } from '../../peers.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { commandMessage } from '../messages.js';

const migrateOptions = {
  db: { type: 'string' },
  database: { type: 'string' },
} as const;

export const migrateCommand: Command = {
  name: 'migrate',
  help: `Usage: cfrules migrate [--database URL | --db PATH]

Brings the database of cfrules serve to this version's schema, without
starting the service: run it once ahead of a deployment, so that no instance
starts on a database it has to migrate. Instances migrate at start anyway;
on PostgreSQL, instances starting together migrate once (one waits for the
other). A database of a newer cfrules is refused and left unchanged.

      --database URL   postgres://USER:PASSWORD@HOST:PORT/DB, or a SQLite
                       database file; without --db and --database, the
                       environment variable DATABASE_URL, else ./cfrules.db
      --db PATH        the SQLite database file
  -h, --help           show this help

Prints the versions applied, or that the database was up to date.

Exit status: 0 migrated or up to date, 1 could not (database unreachable,
newer schema), 2 usage error.
`,
  run(args, io) {
    const { values } = parseArgs({ args, options: migrateOptions });
    if (values.db !== undefined && values.database !== undefined) {
      throw new UsageError('give --db or --database, not both');
    }
    return migrate(values.database ?? values.db ?? (process.env.DATABASE_URL || './cfrules.db'), io);
  },
};

async function migrate(database: string, io: CliIo): Promise<number> {
  const { describeDatabase, migrateDatabase } = await import('../../store/open.js');
  const shown = describeDatabase(database);
  try {
    const { applied, version } = await migrateDatabase(database);
    io.stdout(
      applied.length === 0
        ? `${shown}: up to date (schema version ${version})\n`
        : `${shown}: applied migration${applied.length === 1 ? '' : 's'} ${applied.join(', ')} (schema version ${version})\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof MissingPeerError) io.stderr(commandMessage('migrate', error.message));
    else io.stderr(commandMessage('migrate', `cannot migrate ${shown}: ${(error as Error).message}`));
    return 1;
  }
}
