import { availableParallelism } from 'node:os';
import * as bcrypt from 'bcrypt';

export interface BcryptBaseline {
  perSecond: number;
  compares: number;
  elapsedS: number;
  concurrency: number;
  cpuS: number;
}

/**
 * The ceiling for password sign-in on this machine: `bcrypt.compare` at the same cost, on all
 * cores (twice as many compares in flight as cores, so the thread pool never idles), for a fixed
 * time. The input is a 44-character string, what the `bcrypt-sha256` scheme feeds bcrypt.
 */
export async function bcryptComparesPerSecond(
  cost: number,
  durationS: number,
): Promise<BcryptBaseline> {
  const input = 'x'.repeat(43) + '=';
  const hash = await bcrypt.hash(input, cost);
  const concurrency = availableParallelism() * 2;
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(durationS * 1e9));
  let compares = 0;
  const worker = async () => {
    while (process.hrtime.bigint() < deadline) {
      if (!(await bcrypt.compare(input, hash))) throw new Error('bcrypt baseline: compare failed');
      compares++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    perSecond: compares / elapsedS,
    compares,
    elapsedS,
    concurrency,
    cpuS: (cpu.user + cpu.system) / 1e6,
  };
}
