import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Runs a Node script of the repository asynchronously (the control plane of the test answers meanwhile); rejects with its output. */
function node(args: string[], env: Record<string, string> = {}): Promise<void> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // eslint-disable-next-line no-restricted-properties -- the build tools run with the test's environment plus what they are given
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`node ${args.join(' ')} failed (${code}):\n${out}`)),
    ),
  );
}

/** `npm run build:sdk js react`: the example resolves @gatehouse/js and @gatehouse/react to these builds (packages/<name>/dist). */
export function buildSdk(): Promise<void> {
  return node([join(ROOT, 'tools/scripts/build-sdk.js'), 'js', 'react']);
}

/**
 * examples/react-spa as it is deployed: built by Vite (its own vite.config.mts, so the SDK comes
 * from the packages' dist) with the auth URL and project key baked in from the environment, into a
 * folder of its own, and served as static files by a tiny server on `http://localhost:<port>` (any
 * unknown path gets index.html, as a single-page app's host does). The port is taken before the
 * build so that the project's allowed origins can name it.
 */
export class SpaSite {
  private readonly dir = mkdtempSync(join(tmpdir(), 'gatehouse-react-spa-'));
  private server: Server | null = null;
  origin = '';

  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      const path = normalize(
        decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname),
      ).replace(/^(\.\.[/\\])+/, '');
      let file = join(this.dir, path);
      if (!file.startsWith(this.dir) || !existsSync(file) || statSync(file).isDirectory())
        file = join(this.dir, 'index.html');
      if (!existsSync(file)) return void res.writeHead(503).end('not built yet');
      res
        .writeHead(200, {
          'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
          'Cache-Control': 'no-store',
        })
        .end(readFileSync(file));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://localhost:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  /** `vite build -c examples/react-spa/vite.config.mts` with VITE_GATEHOUSE_* in the environment, into this site's folder. */
  build(env: {
    VITE_GATEHOUSE_AUTH_URL: string;
    VITE_GATEHOUSE_PROJECT_KEY: string;
  }): Promise<void> {
    return node(
      [
        join(ROOT, 'node_modules/vite/bin/vite.js'),
        'build',
        '-c',
        'examples/react-spa/vite.config.mts',
        '--outDir',
        this.dir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      env,
    );
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
