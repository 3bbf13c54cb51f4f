/**
 * json-server 0.17.4's app built as its own CLI builds it (lib/cli/run.js: createApp with the CLI's
 * defaults and --quiet: no request log), on a db.json, listening on port 0 of 127.0.0.1: the CLI
 * cannot report the port it got, this sends it to the parent as `{type: 'listening', port}`.
 * `node bench/messaging/json-server.cjs <db.json>`.
 */
const jsonServer = require('json-server');
// json-server's own lowdb 1 (the project's is lowdb 7).
const own = require('node:module').createRequire(require.resolve('json-server'));
const low = own('lowdb');
const FileAsync = own('lowdb/adapters/FileAsync');

low(new FileAsync(process.argv[2])).then((db) => {
  const app = jsonServer.create();
  const router = jsonServer.router(db, { foreignKeySuffix: 'Id' });
  app.use(jsonServer.defaults({ logger: false, bodyParser: true }));
  router.db._.id = 'id';
  app.db = router.db;
  app.use(router);
  const server = app.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
});
