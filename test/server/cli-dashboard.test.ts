import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { dashboard } from '../helpers/dashboard.ts';
import { embeddedOnly } from '../helpers/service.ts';
import { cli, startServiceProcess } from '../helpers/service-process.ts';

/** A link's token, from the URL `npm run -s dashboard` prints (the token rides in the fragment). */
const tokenOf = (url: string) => {
  assert.match(url, /^http:\/\/[^/]+\/dashboard\/link#cpe_dl_[\w-]{32}$/);
  return url.split('#')[1]!;
};

describe('npm run -s dashboard and npm start\'s link', embeddedOnly, () => {
  test('a one-time link printed with no service running, and through the running one; npm start prints one for the seeded merchant', async () => {
    const dir = tempDataDir();
    const offline = cli(dir, ['dashboard']);
    assert.equal(offline.status, 0, offline.stderr);
    const service = await startServiceProcess(dir);
    try {
      const banner = /Dashboard {10}(\S+)/.exec(service.output())?.[1];
      assert.ok(banner, 'npm start prints the dashboard link');
      const online = cli(dir, ['dashboard']);
      assert.equal(online.status, 0, online.stderr);
      for (const url of [offline.stdout, banner, online.stdout]) {
        const link = tokenOf(url);
        const signedIn = await dashboard(service, 'POST', '/sign-in', { json: { link } });
        assert.equal(signedIn.status, 200, signedIn.text);
        assert.equal(signedIn.body.via, 'link');
        assert.equal((await dashboard(service, 'POST', '/sign-in', { json: { link } })).status, 401, 'once only');
      }
      // Another merchant's link, by --merchant.
      const merchant = JSON.parse(cli(dir, ['merchant', '--', '--origin', 'https://other.example']).stdout);
      const other = await dashboard(service, 'POST', '/sign-in', { json: { link: tokenOf(cli(dir, ['dashboard', '--', '--merchant', String(merchant.merchantId)]).stdout) } });
      assert.equal(other.body.merchant.id, merchant.merchantId);
      const missing = cli(dir, ['dashboard', '--', '--merchant', '999999']);
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /No such merchant: '999999'/);
      assert.ok(!service.output().includes('cpe_ds_'), 'no session token in the service\'s output');
    } finally {
      await service.stop();
    }
  });
});
