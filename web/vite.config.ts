import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // `npm run dev -w web` talks to the API started by `npm run dev` on port 8080.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  // The manifest lets bench/login-bundle.ts measure what the first screen downloads.
  // Browsers from 2022 on: smaller output than the default target, no module-preload polyfill.
  build: { sourcemap: true, manifest: true, target: 'es2022', modulePreload: { polyfill: false } },
});
