import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file runs from api/src (tests, tsx) and bundled into api/dist/main.js: both sit one level
// below api/, so the same relative path finds the package root.
const apiRoot = fileURLToPath(new URL('..', import.meta.url));

export const MIGRATIONS_DIR = path.join(apiRoot, 'migrations');
export const WEB_DIST_DIR = path.join(apiRoot, '..', 'web', 'dist');
export const API_PACKAGE_JSON = path.join(apiRoot, 'package.json');
