import 'reflect-metadata';
import { loadConfigOrExit } from '@gatehouse/config';
import { runMain } from '@gatehouse/platform';
import { listen, stopOnSignals } from '@gatehouse/http';
import { buildControlPlane } from './app-factory';

runMain('control-plane', async () => {
  // eslint-disable-next-line no-restricted-properties -- the one place the environment is read
  const config = loadConfigOrExit(process.env);
  const app = await buildControlPlane(config);
  stopOnSignals(config, [
    await listen(app, config, config.http.ports.controlPlane, config.metrics.ports.controlPlane),
  ]);
});
