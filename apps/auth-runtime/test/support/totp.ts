import { execFileSync } from 'node:child_process';
import type { TestApp } from '@gatehouse/testing';

/** A TOTP code computed by oathtool (RFC 6238), independently of our code, at the test clock's time (± whole steps). */
export function oathtool(secret: string, t: TestApp, offsetSteps = 0): string {
  const seconds = Math.floor(t.clock.nowMs() / 1000) + offsetSteps * 30;
  return execFileSync('oathtool', ['--totp', '-b', secret, '-N', `@${seconds}`])
    .toString()
    .trim();
}
