import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostedPagesFiles, hostedPagesCsp } from './hosted-pages-files';

describe('HostedPagesFiles', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hosted-pages-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<meta property="csp-nonce" nonce="GATEHOUSE_CSP_NONCE"><script nonce="GATEHOUSE_CSP_NONCE" src="./assets/index-AbC_12.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'index-AbC_12.js'), '');
    writeFileSync(join(dir, 'secret.txt'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('puts a fresh nonce in every copy of the page', () => {
    const files = new HostedPagesFiles(dir);
    const a = files.page()!;
    const b = files.page()!;
    expect(a.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.html).not.toContain('GATEHOUSE_CSP_NONCE');
    expect(a.html.split(`nonce="${a.nonce}"`)).toHaveLength(3);
  });

  it('serves hashed asset names only, never a path', () => {
    const files = new HostedPagesFiles(dir);
    expect(files.asset('index-AbC_12.js')).toBe(join(dir, 'assets', 'index-AbC_12.js'));
    expect(files.asset('missing-1.js')).toBeNull();
    expect(files.asset('../secret.txt')).toBeNull();
    expect(files.asset('..%2Fsecret.txt')).toBeNull();
    expect(files.asset('.hidden.js')).toBeNull();
    expect(files.asset('index.html')).toBeNull();
  });

  it('says when the pages are not built', () => {
    expect(new HostedPagesFiles(join(dir, 'nothing-here')).page()).toBeNull();
  });

  it('has a CSP without inline script, with the nonce for styles, never framed', () => {
    const csp = hostedPagesCsp('n0nce', 'https://auth.example.com');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'nonce-n0nce'");
    expect(csp).toContain("connect-src 'self' https://auth.example.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe');
  });
});
