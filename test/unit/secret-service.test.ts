// The Secret Service client (src/config/keyring/secret-service.ts) against a Secret Service of the
// test's own on a fake bus (test/support/fake-bus.ts), for what GNOME Keyring cannot be made to do:
// a Completed signal forged by another connection, a prompt that never completes, thousands of
// items that each ask for a prompt. The real GNOME Keyring is met in test/e2e/keyring.test.ts.
import { describe, expect, it } from 'vitest';

import { type KeyringEntry, KeyringError } from '../../src/config/keyring/keyring.js';
import { secretService } from '../../src/config/keyring/secret-service.js';
import { InterruptedError } from '../../src/core/errors.js';
import { completed, fakeSecretService, SECRETS_OWNER } from '../support/fake-bus.js';

const ENTRY: KeyringEntry = { profile: 'default', baseUrl: 'https://svc.test', legacy: false };
const ITEM = '/org/freedesktop/secrets/collection/login/1';
const FORGED_ITEM = '/org/freedesktop/secrets/collection/login/666';
const KEY = 'svc_sk_test_00112233445566778899aabbccddeeff';

describe("an unlock prompt's Completed signal", () => {
  it('counts only from the owner of org.freedesktop.secrets, for the prompt svc showed: forged ones before it are ignored', async () => {
    const calls: string[] = [];
    const address = await fakeSecretService({
      items: { unlocked: [], locked: [ITEM] },
      unlockPrompts: true,
      secrets: { [ITEM]: KEY, [FORGED_ITEM]: 'svc_sk_test_forged' },
      calls,
      onPrompt: (prompt, peer) => {
        // Another connection claims the prompt unlocked its item; the owner completes another
        // prompt.
        completed(peer, prompt, ':1.99', false, [FORGED_ITEM]);
        completed(peer, `${prompt}x`, SECRETS_OWNER, false, [FORGED_ITEM]);
        // The owner's own answer: the person dismissed it.
        completed(peer, prompt, SECRETS_OWNER, true);
      },
    });
    const keyring = secretService({ DBUS_SESSION_BUS_ADDRESS: address });
    await expect(keyring.read(ENTRY)).rejects.toThrow(
      /the keyring is locked and its unlock prompt was dismissed/,
    );
    expect(calls).toContain('DBus.GetNameOwner /org/freedesktop/DBus');
    expect(calls).not.toContain(`Secret.Item.GetSecret ${FORGED_ITEM}`);
  });

  it("the owner's Completed for the prompt unlocks the item, whose key is read", async () => {
    const address = await fakeSecretService({
      items: { unlocked: [], locked: [ITEM] },
      unlockPrompts: true,
      secrets: { [ITEM]: KEY },
      onPrompt: (prompt, peer) => completed(peer, prompt, SECRETS_OWNER, false, [ITEM]),
    });
    expect(await secretService({ DBUS_SESSION_BUS_ADDRESS: address }).read(ENTRY)).toBe(KEY);
  });
});

describe("one command's keyring work is bounded", () => {
  it('a prompt that never completes ends at the deadline of all the keyring work, naming the keyring', async () => {
    const address = await fakeSecretService({
      items: { unlocked: [], locked: [ITEM] },
      unlockPrompts: true,
    });
    const keyring = secretService(
      { DBUS_SESSION_BUS_ADDRESS: address },
      new AbortController().signal,
      300,
    );
    const failure = await keyring.read(ENTRY).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(KeyringError);
    expect((failure as Error).message).toBe(
      'the Secret Service took more than 0.3 s in all for this command (svc waits no longer for a keyring)',
    );
    // The deadline is the command's: a second call finds it spent.
    await expect(keyring.remove(ENTRY)).rejects.toThrow(/took more than 0.3 s in all/);
  });

  it('a stop of the run (Ctrl-C) ends a wait for a prompt at once: InterruptedError', async () => {
    const address = await fakeSecretService({
      items: { unlocked: [], locked: [ITEM] },
      unlockPrompts: true,
    });
    const stop = new AbortController();
    const reading = secretService({ DBUS_SESSION_BUS_ADDRESS: address }, stop.signal).read(ENTRY);
    setTimeout(() => stop.abort(), 100);
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);
  });

  it('removing acts on a bounded number of items, not on each of thousands that match', async () => {
    const calls: string[] = [];
    const many = Array.from(
      { length: 5_000 },
      (_, i) => `/org/freedesktop/secrets/collection/login/${i}`,
    );
    const address = await fakeSecretService({
      items: { unlocked: many, locked: [] },
      deletePrompts: true,
      calls,
      onPrompt: (prompt, peer) => completed(peer, prompt, SECRETS_OWNER, false),
    });
    expect(await secretService({ DBUS_SESSION_BUS_ADDRESS: address }).remove(ENTRY)).toBe(true);
    expect(calls.filter((call) => call.startsWith('Secret.Item.Delete')).length).toBe(16);
    expect(calls.filter((call) => call.startsWith('Secret.Prompt.Prompt')).length).toBe(16);
  });
});
