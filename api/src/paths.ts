import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file runs from api/src (tests, tsx) and bundled into api/dist/main.js: both sit one level
// below api/, so the same relative path finds the package root.
const apiRoot = fileURLToPath(new URL('..', import.meta.url));

export const MIGRATIONS_DIR = path.join(apiRoot, 'migrations');
export const WEB_DIST_DIR = path.join(apiRoot, '..', 'web', 'dist');
export const API_PACKAGE_JSON = path.join(apiRoot, 'package.json');

/** Running from the TypeScript sources (tests, tsx) rather than from the bundle in dist/. */
const fromSources = import.meta.url.endsWith('.ts');

/** The worker thread that reads an uploaded import file (see modules/imports/file-worker.ts). */
export const IMPORT_FILE_WORKER = new URL(
  fromSources ? './modules/imports/file-worker.ts' : './file-worker.js',
  import.meta.url,
);
