import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

test('smoke', async () => {
  const t = svc.credentials.accessToken;
  const c = await svc.api('POST', '/v1/contacts', { token: t, form: { username: 'bob', phone_number: '+441234567' } });
  assert.equal(c.status, 200, JSON.stringify(c.body));
  const l = await svc.api('GET', '/v1/contacts', { token: t });
  assert.equal(l.body.data.length, 1);
  const e = await svc.api('GET', '/v1/contacts/nope', { token: t });
  assert.equal(e.status, 404);
});
