import type Database from 'better-sqlite3-multiple-ciphers';

/** An open Cairn database (SQLCipher through better-sqlite3); every repository takes one. */
export type Db = Database.Database;
