import { Controller, Get, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@gatehouse/config';
import { createLogger } from './logger';

@Controller('things')
class ThingsController {
  @Get()
  list() {
    return [];
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

/** What an app built with the logger of LOG_LEVEL writes while it starts and while it runs. */
async function outputAt(level: string): Promise<string> {
  const config = loadConfig({
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: level,
  });
  let out = '';
  const capture = (chunk: string | Uint8Array) => ((out += chunk.toString()), true);
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    const app = await NestFactory.create(ThingsModule, {
      logger: createLogger(config, 'test'),
      abortOnError: false,
    });
    await app.init();
    new Logger('MailProcessor').log('mail to=a@example.com');
    new Logger('InstanceLoader').warn('a warning from Nest');
    new Logger('RoutesResolver').error('an error from Nest');
    await app.close();
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return out;
}

describe('the one logger', () => {
  it("keeps Nest's start-up chatter out of the default level, not its warnings, errors or our own lines", async () => {
    const out = await outputAt('info');
    expect(out).not.toMatch(
      /InstanceLoader\] \w+ dependencies initialized|RoutesResolver\] ThingsController|RouterExplorer|NestFactory|NestApplication/,
    );
    expect(out).toContain('[MailProcessor] mail to=a@example.com');
    expect(out).toContain('[InstanceLoader] a warning from Nest');
    expect(out).toContain('[RoutesResolver] an error from Nest');
  });

  it('writes a text line short: the time of day, the level, the context and the message (no pid, no date)', async () => {
    const out = await outputAt('info');
    expect(out).toMatch(/^\d{2}:\d{2}:\d{2} LOG \[MailProcessor\] mail to=a@example\.com$/m);
    expect(out).toMatch(/^\d{2}:\d{2}:\d{2} WARN \[InstanceLoader\] a warning from Nest$/m);
    expect(out).not.toContain('[Nest]');
  });

  it('shows the chatter from LOG_LEVEL=debug', async () => {
    const out = await outputAt('debug');
    expect(out).toMatch(/\[InstanceLoader\] ThingsModule dependencies initialized/);
    expect(out).toMatch(/\[RouterExplorer\] Mapped \{\/things, GET\} route/);
    expect(out).toContain('[NestApplication] Nest application successfully started');
  });

  it('shows nothing but errors at LOG_LEVEL=error', async () => {
    const out = await outputAt('error');
    expect(out).not.toContain('mail to=');
    expect(out).not.toContain('a warning from Nest');
    expect(out).toContain('an error from Nest');
  });
});
