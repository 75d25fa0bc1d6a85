// Measures the JavaScript a first visit to /login downloads: the entry chunk, the login screen's
// chunk and everything they import statically, gzipped at level 9 as a server or CDN would send it.
// Run after `npm run build -w web`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const dist = fileURLToPath(new URL('../web/dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
const loginScreen = Object.keys(manifest).find((key) => key.endsWith('login-page.tsx'));
if (!entry || !loginScreen)
  throw new Error('the build has no entry or no login screen; run npm run build -w web');

const chunks = new Set<string>();
const collect = (key: string) => {
  if (chunks.has(key)) return;
  chunks.add(key);
  for (const imported of manifest[key]?.imports ?? []) collect(imported);
};
collect(entry);
collect(loginScreen);

let total = 0;
const rows: [string, number][] = [];
for (const key of chunks) {
  const file = manifest[key]?.file;
  if (!file?.endsWith('.js')) continue;
  const size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += size;
  rows.push([file, size]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [file, size] of rows) console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
console.log(
  `${(total / 1024).toFixed(1).padStart(7)} KB  initial JavaScript for /login (gzip), target 150 KB`,
);
