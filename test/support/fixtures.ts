// The replies the service's documentation shows, kept as files in test/fixtures/documented/: the
// in-process tests answer with them and the mock is compared with them.
import { readdirSync, readFileSync } from 'node:fs';

const FOLDER = new URL('../fixtures/documented/', import.meta.url);

/**
 * The documented reply `name` (`report` or `report.json`), parsed anew on each call: a test may
 * change its copy.
 */
export function documented(name: string): Record<string, any> {
  return JSON.parse(
    readFileSync(new URL(name.endsWith('.json') ? name : `${name}.json`, FOLDER), 'utf8'),
  ) as Record<string, any>;
}

/** The file names of every documented reply. */
export function documentedNames(): string[] {
  return readdirSync(FOLDER).filter((name) => name.endsWith('.json'));
}
