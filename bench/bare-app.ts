import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/**
 * The baseline of `/me` and refresh: the cheapest thing NestJS on Express can serve. One module,
 * one GET route returning fixed JSON the size and shape of a `/me` answer; no middleware, no
 * guards, no database. `node dist/bench/bare-app.js <port>` listens on 127.0.0.1:<port>.
 */
const FIXED = {
  user: { id: '00000000-0000-4000-8000-000000000000', email: 'bench@example.com', is_admin: false },
  active_sessions: 1,
  organizations: [],
};

@Controller()
class BareController {
  @Get('me')
  me() {
    return FIXED;
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: bare-app.js <port>');
  const app = await NestFactory.create(BareModule, { logger: false });
  app.enableShutdownHooks();
  await app.listen(port, '127.0.0.1');
}

main().catch((err: unknown) => {
  process.stderr.write(`bare-app: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
