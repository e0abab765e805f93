import 'reflect-metadata';
import { loadConfigOrExit } from '@gatehouse/config';
import { runMain } from '@gatehouse/platform';
import { listen, stopOnSignals } from '@gatehouse/http';
import { buildWebhookWorker } from './app-factory';

runMain('webhook-worker', async () => {
  // eslint-disable-next-line no-restricted-properties -- the one place the environment is read
  const config = loadConfigOrExit(process.env);
  const app = await buildWebhookWorker(config);
  stopOnSignals(config, [
    await listen(app, config, config.http.ports.webhookWorker, config.metrics.ports.webhookWorker),
  ]);
});
