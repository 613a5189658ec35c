// `svc config …`: read and change the config file's profiles.
import { Argument, type Command } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { PROFILE_KEYS } from '../../config/store.js';
import { completes, fromMachine, plain } from '../../core/completion/values.js';
import { examples, paragraph } from '../args.js';
import { deleteProfile } from './delete.js';
import { getSetting } from './get.js';
import { listProfiles } from './list.js';
import { printPath } from './path.js';
import { setSetting } from './set.js';
import { useProfile } from './use.js';

/** `<key>`: a setting of a profile. */
const keyArgument = () =>
  completes(new Argument('<key>', 'base_url, api_key, calendar or pager'), () =>
    plain(PROFILE_KEYS),
  );
/** `<profile>`: a profile of the config file. */
const profileArgument = () =>
  completes(new Argument('<profile>', 'profile name'), fromMachine('profiles'));

export function registerConfig(program: Command, app: App): void {
  const config = program
    .command('config')
    .description('read and change profiles in the config file')
    .helpAfter(examples('svc config list', 'svc config use staging', 'svc config delete staging'));
  config
    .command('list')
    .description('list the profiles, their base URLs and keys (masked)')
    .helpAfter(examples('svc config list', "svc config list --json | jq -r '.profiles | keys[]'"))
    .action(app.action(listProfiles));
  config
    .command('get')
    .description('print one setting of the active profile (the key is masked)')
    .addArgument(keyArgument())
    .helpAfter(examples('svc config get base_url', 'svc config get base_url --profile staging'))
    .action(app.action(getSetting));
  config
    .command('set')
    .description('set one setting of the active profile, creating the profile if needed')
    .addArgument(keyArgument())
    .argument('<value>', 'the new value')
    .helpAfter(
      examples(
        'svc config set base_url https://api.example.com',
        'svc config set base_url http://127.0.0.1:8080 --profile local',
        'svc config set calendar bs',
        'svc config set pager ""',
      ),
    )
    .action(app.action(setSetting));
  config
    .command('path')
    .description('print the path of the config file')
    .helpAfter(examples('svc config path', '$EDITOR "$(svc config path)"'))
    .action(app.action(printPath));
  config
    .command('use')
    .description('make a profile the active one')
    .addArgument(profileArgument())
    .helpAfter(examples('svc config use staging'))
    .action(app.action(useProfile));
  config
    .command('delete')
    .description('delete a profile with its base URL and key; the active one only with --force')
    .addArgument(profileArgument())
    .option(
      '--force',
      'delete the active profile too (none is active afterwards, or "default" if it remains)',
    )
    .helpAfter([
      ...examples(
        'svc config delete staging',
        'svc config use default && svc config delete staging',
        'svc config delete default --force',
      ),
      paragraph(
        'The key is only removed from this machine: the service still accepts it until it is revoked in the dashboard.',
      ),
    ])
    .action(app.action(deleteProfile));
}
