import 'reflect-metadata';
import { loadConfigOrExit } from '@gatehouse/config';
import { runMain } from '@gatehouse/platform';
import { listen, stopOnSignals } from '@gatehouse/http';
import { buildAuthRuntime } from './app-factory';

runMain('auth-runtime', async () => {
  // eslint-disable-next-line no-restricted-properties -- the one place the environment is read
  const config = loadConfigOrExit(process.env);
  const app = await buildAuthRuntime(config);
  stopOnSignals(config, [
    await listen(app, config, config.http.ports.authRuntime, config.metrics.ports.authRuntime),
  ]);
});
