// Admin branding (docs/admin-api.md): GET and PUT, the public view, every refused field, the audit entry, the pages showing it.
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { expectError, expectStatus } from '../support/expect.js';
import { LOGO_MAX_BYTES } from '../../src/modules/branding/branding.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16, 2)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>');
const dataUrl = (type: string, bytes: Buffer) => `data:image/${type};base64,${bytes.toString('base64')}`;

const EMPTY = { service_name: null, logo: null, accent_color: null, support_url: null };

describeEachDatabase('branding', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'branding-secret-of-at-least-32-characters' });
  const put = (body: unknown) => t.admin('PUT', '/branding', body);

  afterEach(async () => {
    expectStatus(await put(EMPTY), 200);
  });

  it('starts empty, sets fields, keeps left-out ones, clears with null, and shows the public part without auth', async () => {
    expect(expectStatus(await t.admin('GET', '/branding'), 200).json()).toEqual(EMPTY);
    const logo = dataUrl('svg+xml', SVG);
    const set = await put({
      service_name: 'Северный ВПН',
      logo,
      accent_color: '#0A7D5A',
      support_url: 'https://help.example.com/ask',
    });
    const full = {
      service_name: 'Северный ВПН',
      logo,
      accent_color: '#0A7D5A',
      support_url: 'https://help.example.com/ask',
    };
    expect(expectStatus(set, 200).json()).toEqual(full);
    expect(expectStatus(await t.admin('GET', '/branding'), 200).json()).toEqual(full);

    const partial = await put({ service_name: 'North', support_url: null });
    expect(expectStatus(partial, 200).json()).toEqual({ ...full, service_name: 'North', support_url: null });

    const open = await t.call('GET', '/api/v1/branding');
    expect(expectStatus(open, 200).json()).toEqual({ service_name: 'North', logo, accent_color: '#0A7D5A' });
    expect(open.headers['cache-control']).toBe('no-cache');
  });

  it('accepts each image type whose bytes match it, up to 64 KiB', async () => {
    for (const [type, bytes] of [
      ['png', PNG],
      ['jpeg', JPEG],
      ['webp', WEBP],
      ['svg+xml', SVG],
      ['png', Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES - PNG.length)])],
    ] as const) {
      const res = await put({ logo: dataUrl(type, bytes) });
      expect(expectStatus(res, 200).json<{ logo: string }>().logo).toBe(dataUrl(type, bytes));
    }
  });

  it('refuses every bad field with validation_failed, naming it, and changes nothing', async () => {
    expectStatus(await put({ service_name: 'Kept' }), 200);
    const oversize = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES + 1 - PNG.length)]);
    const cases: Array<[string, unknown, string]> = [
      ['empty name', { service_name: '' }, 'body.service_name'],
      ['long name', { service_name: 'n'.repeat(65) }, 'body.service_name'],
      ['bell in name', { service_name: 'a\u0007b' }, 'body.service_name'],
      ['newline in name', { service_name: 'a\nb' }, 'body.service_name'],
      ['C1 control in name', { service_name: 'a\u0085b' }, 'body.service_name'],
      ['line separator in name', { service_name: 'a\u2028b' }, 'body.service_name'],
      ['name not a string', { service_name: 5 }, 'body.service_name'],
      ['oversize logo', { logo: dataUrl('png', oversize) }, 'body.logo'],
      ['gif logo', { logo: dataUrl('gif', PNG) }, 'body.logo'],
      ['html logo', { logo: `data:text/html;base64,${SVG.toString('base64')}` }, 'body.logo'],
      ['logo by URL', { logo: 'https://example.com/logo.png' }, 'body.logo'],
      ['png label, jpeg bytes', { logo: dataUrl('png', JPEG) }, 'body.logo'],
      ['svg label, png bytes', { logo: dataUrl('svg+xml', PNG) }, 'body.logo'],
      ['not base64', { logo: 'data:image/png;base64,@@@@' }, 'body.logo'],
      ['empty logo', { logo: 'data:image/png;base64,' }, 'body.logo'],
      ['colour name', { accent_color: 'red' }, 'body.accent_color'],
      ['short colour', { accent_color: '#fff' }, 'body.accent_color'],
      ['not hex', { accent_color: '#gggggg' }, 'body.accent_color'],
      ['colour with alpha', { accent_color: '#11223344' }, 'body.accent_color'],
      ['javascript: URL', { support_url: 'javascript:alert(1)' }, 'body.support_url'],
      ['data: URL', { support_url: 'data:text/html,x' }, 'body.support_url'],
      ['ftp URL', { support_url: 'ftp://example.com/' }, 'body.support_url'],
      ['URL without host', { support_url: 'http://' }, 'body.support_url'],
      ['URL with spaces', { support_url: 'https://exa mple.com/' }, 'body.support_url'],
      ['long URL', { support_url: `https://example.com/${'a'.repeat(2048)}` }, 'body.support_url'],
      ['unknown field', { service_name: 'x', theme: 'dark' }, 'body'],
    ];
    for (const [label, body, path] of cases) {
      const envelope = expectError(await put(body), 400, 'validation_failed', label);
      const issues = (envelope.details as { issues: Array<{ path: string }> }).issues;
      expect(
        issues.some((issue) => issue.path === path || issue.path.startsWith(`${path}.`)),
        `${label}: ${JSON.stringify(issues)}`,
      ).toBe(true);
    }
    expectError(await put([]), 400, 'validation_failed', 'array body');
    expect(expectStatus(await t.admin('GET', '/branding'), 200).json()).toEqual({ ...EMPTY, service_name: 'Kept' });
  });

  it('needs the admin signature to read or change, but not for the public view', async () => {
    expectError(await t.call('GET', '/api/v1/admin/branding'), 401, 'missing_signature');
    expectError(
      await t.call('PUT', '/api/v1/admin/branding', { body: { service_name: 'x' } }),
      401,
      'missing_signature',
    );
    expectStatus(await t.call('GET', '/api/v1/branding'), 200);
  });

  it('records settings.changed in the audit log with the changed fields', async () => {
    expectStatus(await put({ accent_color: '#123456', support_url: 'https://help.example.com/' }), 200);
    const page = expectStatus(
      await t.admin('GET', '/audit?target=settings%3Abranding&action=settings.change&limit=1'),
      200,
    ).json<{ entries: Array<{ action: string; actor: { kind: string }; summary: Record<string, unknown> }> }>();
    expect(page.entries[0]).toMatchObject({
      action: 'settings.change',
      actor: { kind: 'admin' },
      summary: { setting: 'branding', fields: ['accent_color', 'support_url'] },
    });
  });

  it('documents the three routes in OpenAPI with their schemas', async () => {
    const spec = expectStatus(await t.call('GET', '/docs/json'), 200).json<{
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    }>();
    const admin = spec.paths['/api/v1/admin/branding']!;
    expect(Object.keys(admin).sort()).toEqual(['get', 'put']);
    expect(JSON.stringify(admin['put']!.requestBody)).toContain('accent_color');
    expect(Object.keys(admin['put']!.responses)).toContain('400');
    const open = spec.paths['/api/v1/branding']!['get']!;
    expect(JSON.stringify(open.responses['200'])).toContain('service_name');
    expect(JSON.stringify(open.responses['200'])).not.toContain('support_url');
  });

  it('shows on the connect page at once after a change', async () => {
    const provider = await t.newProvider();
    const before = await t.call('GET', `/connect/${provider.name}`);
    expect(before.body).toContain('<span id="brand-name">subweave</span>');
    expectStatus(await put({ service_name: 'North <VPN>', logo: dataUrl('png', PNG), accent_color: '#0a7d5a' }), 200);
    const after = await t.call('GET', `/connect/${provider.name}`);
    expect(after.body).toContain('<span id="brand-name">North &lt;VPN&gt;</span>');
    expect(after.body).toContain(`<img id="brand-logo" class="logo" src="${dataUrl('png', PNG)}" alt=""`);
    expect(after.body).toContain('data-accent="#0a7d5a" data-accent-text="#ffffff"');
    expect(after.body).toContain('· North &lt;VPN&gt;</title>');
  });
});
