import { Injectable } from '@nestjs/common';
import { dictionary } from '@zxcvbn-ts/language-common';
import { normalizePassword } from '@gatehouse/crypto';

const COMMON = new Set<string>(
  ((dictionary as Record<string, string[]>)['passwords-common'] ?? []).map((p) => p.toLowerCase()),
);

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/**
 * docs/api-contract.md §3 (sign-up, reset, change, and an admin creating a user): 8–128 characters after NFKC, any Unicode, no composition rules; refused when in
 * the bundled common-password list (zxcvbn's ~49,000 most common passwords) or equal to the
 * email or username. Returns the messages for the `password` field (empty when acceptable).
 */
@Injectable()
export class PasswordPolicy {
  problems(
    password: string,
    context: { email?: string | null; username?: string | null },
  ): string[] {
    const normalized = normalizePassword(password);
    const length = [...normalized].length;
    if (length < PASSWORD_MIN) return [`must be at least ${PASSWORD_MIN} characters`];
    if (length > PASSWORD_MAX) return [`must be at most ${PASSWORD_MAX} characters`];
    const lower = normalized.toLowerCase();
    if (COMMON.has(lower)) return ['is too common; choose a less predictable password'];
    for (const other of [context.email, context.username]) {
      if (other && lower === other.trim().toLowerCase())
        return ['must not be the same as your email or username'];
    }
    return [];
  }
}
