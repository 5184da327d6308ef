// Provider invites: what the provider API issues, the admin authorize endpoint must accept, and nothing else.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInvite, INVITE_TTL_SECONDS, verifyInvite } from '../../src/modules/connections/invite.js';

const KEY = 'test-invite-key';
const HASH = '3f1c1e6e-8d0a-4b57-9a4b-0d3c3c1b2a10';
const NOW = Date.UTC(2025, 0, 1);

describe('provider invites', () => {
  it('is base64url HMAC-SHA256 of "<user_id>:<provider_hash>:<expires_unix>" and the expiry, 7 days ahead', () => {
    const invite = createInvite(KEY, 42, HASH, NOW);
    const expires = NOW / 1000 + INVITE_TTL_SECONDS;
    expect(INVITE_TTL_SECONDS).toBe(604_800);
    const mac = createHmac('sha256', KEY).update(`42:${HASH}:${expires}`).digest('base64url');
    expect(invite).toBe(`${mac}.${expires}`);
    expect(invite).toMatch(/^[A-Za-z0-9_-]{43}\.\d+$/);
  });

  it('verifies for the same user, provider and key until it expires', () => {
    const invite = createInvite(KEY, 42, HASH, NOW);
    expect(verifyInvite(KEY, invite, 42, HASH, NOW)).toBe(true);
    expect(verifyInvite(KEY, invite, 42, HASH, NOW + INVITE_TTL_SECONDS * 1000)).toBe(true);
    expect(verifyInvite(KEY, invite, 42, HASH, NOW + INVITE_TTL_SECONDS * 1000 + 1000)).toBe(false);
  });

  it('refuses another user, provider or key', () => {
    const invite = createInvite(KEY, 42, HASH, NOW);
    expect(verifyInvite(KEY, invite, 43, HASH, NOW)).toBe(false);
    expect(verifyInvite(KEY, invite, 42, HASH.replace('3f', '4f'), NOW)).toBe(false);
    expect(verifyInvite('other-key', invite, 42, HASH, NOW)).toBe(false);
  });

  it('refuses a changed expiry or signature', () => {
    const invite = createInvite(KEY, 42, HASH, NOW);
    const [mac, expires] = invite.split('.') as [string, string];
    expect(verifyInvite(KEY, `${mac}.${Number(expires) + 1}`, 42, HASH, NOW)).toBe(false);
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    expect(verifyInvite(KEY, `${flipped}.${expires}`, 42, HASH, NOW)).toBe(false);
    // The last character carries two spare bits: a non-canonical spelling of the same bytes is refused too.
    const last = mac[42] as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] as string;
    expect(verifyInvite(KEY, `${mac.slice(0, 42)}${sibling}.${expires}`, 42, HASH, NOW)).toBe(false);
  });

  it.each([
    [''],
    ['garbage'],
    ['.123'],
    ['abc.def'],
    [`${'A'.repeat(43)}.`],
    [`${'A'.repeat(42)}.9999999999`],
    [`${'A'.repeat(44)}.9999999999`],
  ])('refuses malformed invite %j', (invite) => {
    expect(verifyInvite(KEY, invite, 42, HASH, NOW)).toBe(false);
  });
});
