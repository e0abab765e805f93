import { Module } from '@nestjs/common';
import { BackgroundTasks } from './background-tasks';

/** Work the mail flows finish after answering (one instance, so a test can drain it). */
@Module({ providers: [BackgroundTasks], exports: [BackgroundTasks] })
export class CommonModule {}
