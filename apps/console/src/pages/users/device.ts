/**
 * A session's or an event's device as an admin reads it: browser and operating system parsed from
 * the user agent by bowser (a maintained parser of the browser and OS tokens), e.g.
 * "Chrome 140 on Linux", "Safari 17 on iOS 17.1 (phone)". The raw string stays available as a tooltip.
 */
import Bowser from 'bowser';

export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent?.trim()) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, majorOf(parsed.browser.version)].filter(Boolean).join(' ');
  const os = [
    parsed.os.name,
    parsed.os.name === 'Linux' ? '' : (parsed.os.versionName ?? parsed.os.version),
  ]
    .filter(Boolean)
    .join(' ');
  const kind =
    parsed.platform.type === 'mobile'
      ? 'phone'
      : parsed.platform.type === 'tablet'
        ? 'tablet'
        : null;
  if (!browser && !os) return shorten(userAgent);
  const text = browser && os ? `${browser} on ${os}` : browser || os;
  return kind ? `${text} (${kind})` : text;
}

/** "140.0.0.0" → "140": the major version is what tells browsers apart. */
function majorOf(version: string | undefined): string {
  return version?.split('.')[0] ?? '';
}

/** A user agent no parser knows (a script, `curl/8.5.0`): its first token. */
function shorten(userAgent: string): string {
  const first = userAgent.trim().split(/\s+/)[0];
  return first.length > 40 ? `${first.slice(0, 40)}…` : first;
}
