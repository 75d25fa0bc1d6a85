import { rm } from 'node:fs/promises';

/** Removes the temporary database the app ran on. */
export default async function globalTeardown() {
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
