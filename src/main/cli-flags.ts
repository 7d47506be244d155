// Reading a CLI command's flags, for every command of `cairn` (those that open the database
// and those that talk to a running Cairn): one usage error, printed with the usage hint.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** A flag or environment value the user got wrong (the CLI prints it with the usage hint). */
export class UsageError extends Error {}

/** The flags of a command (no positional arguments, no unknown flags); else a UsageError. */
export function parseFlags<const O extends ParseArgsOptionsConfig>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false } as const)
      .values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
