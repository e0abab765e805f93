import { defineConfig } from 'tsup';
import { sdkBuild } from '../tsup.shared';

export default defineConfig({ ...sdkBuild, entry: ['src/index.ts'] });
