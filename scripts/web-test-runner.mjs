// `npm run test:components`: web-test-runner, started again (at most three times in all) when its dev
// server could not bind the port it had chosen. web-test-runner chooses a free port (portfinder, from
// 8000) and binds it a moment later, and cannot be given port 0; another test runner on this machine
// starting at the same moment can take that port in between. Any other failure is final.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Its command (the package exports no path to it): bin.js beside its main module.
const bin = join(dirname(createRequire(import.meta.url).resolve('@web/test-runner')), 'bin.js');
for (let attempt = 1; ; attempt++) {
  let output = '';
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'pipe'] });
    for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]])
      from.on('data', (chunk) => {
        output += chunk;
        to.write(chunk);
      });
    child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
  if (code === 0 || attempt === 3 || !/EADDRINUSE/.test(output)) process.exit(code);
  process.stderr.write(`\nweb-test-runner: the port it chose was taken before it bound it (another test runner?): starting again (attempt ${attempt + 1})\n`);
}
