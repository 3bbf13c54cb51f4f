import { run, withService } from './service-link.ts';

/**
 * `npm run -s token -- <username>`: creates the messaging user if needed and prints a new access
 * token, bare, so that `TOKEN=$(npm run -s token -- alice)` works.
 */
await run(async () => {
  const username = process.argv[2];
  if (!username) throw new Error('Usage: npm run -s token -- <username>');
  return withService({
    viaService: async (call) => (await call('issueToken', { username })).accessToken,
    direct: async ({ users }) => (await users.issueToken(username)).accessToken,
  });
});
