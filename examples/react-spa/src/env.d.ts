/// <reference types="vite/client" />

/** Baked in at build time (and read by the dev server) from the environment or examples/react-spa/.env.local. */
interface ImportMetaEnv {
  readonly VITE_GATEHOUSE_AUTH_URL?: string;
  readonly VITE_GATEHOUSE_PROJECT_KEY?: string;
}
