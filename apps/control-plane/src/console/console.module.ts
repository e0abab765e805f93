import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';

/** Serves the admin console's files at /console (apps/console builds them). */
@Module({ controllers: [ConsoleController] })
export class ConsoleModule {}
