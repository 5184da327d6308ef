import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';

describeEachDatabase('smoke', (kind) => {
  const t = useTestApp(kind);
  it('creates and reads a subscription', async () => {
    const { token } = await t.newUser();
    const vless = 'vless://5f3c1a2b-1111-4222-8333-944455556666@example.com:443?security=tls#My%20Server';
    const created = await t.call('POST', '/api/v1/subs', { token, body: { name: ' Home ', sources: [vless, { data: 'trojan://pw@t.example.org:443', is_hidden: true }] } });
    expect(created.statusCode, created.body).toBe(201);
    const sub = created.json();
    console.log(JSON.stringify(sub, null, 1));
    const list = await t.call('GET', '/api/v1/subs', { token });
    console.log(list.body);
    const bad = await t.call('POST', '/api/v1/subs', { token, body: '{bad', headers: { 'content-type': 'application/json' } });
    console.log(bad.statusCode, bad.body);
    const v = await t.call('POST', '/api/v1/subs', { token, body: { name: 5, sources: [{}] } });
    console.log(v.statusCode, v.body);
    const nf = await t.call('DELETE', '/api/v1/nope');
    console.log(nf.statusCode, nf.body);
    const m = await t.call('PUT', '/api/v1/subs');
    console.log(m.statusCode, m.headers.allow, m.body);
  });
});

describeEachDatabase('smoke public', (kind) => {
  const t = useTestApp(kind);
  it('serves', async () => {
    const { token } = await t.newUser();
    const vless = 'vless://5f3c1a2b-1111-4222-8333-944455556666@example.com:443?security=tls#My%20Server';
    const created = await t.call('POST', '/api/v1/subs', { token, body: { name: 'Дом', sources: [vless, 'trojan://pw@t.example.org:443'] } });
    const sub = created.json();
    expect(sub.sources_count).toBe(2);
    const res = await t.call('GET', `/sub/${sub.token}?format=plain`);
    console.log(res.statusCode, res.headers, JSON.stringify(res.body));
    const res2 = await t.call('GET', `/api/v1/sub/${sub.token}`, { headers: { 'if-none-match': res.headers.etag as string } });
    console.log(res2.statusCode, JSON.stringify(res2.body));
    const res3 = await t.call('GET', `/api/v1/sub/${sub.token}`);
    console.log(res3.statusCode, res3.headers.etag, JSON.stringify(res3.body));
  });
});
