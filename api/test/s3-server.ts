import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../src/config.js';

/**
 * A local S3 server (s3rver, in this process, on a free loopback port) with one empty bucket, and
 * the configuration that points the file store at it. Its objects are files under `directory`.
 */
export async function startS3Server(bucket = 'coverdesk-documents') {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'coverdesk-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const config: S3Config = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    // s3rver's own keys.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  return {
    config,
    /** The keys of the objects in the bucket. */
    async keys(): Promise<string[]> {
      const root = path.join(directory, bucket);
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((entry) => entry.isFile() && entry.name.endsWith('._S3rver_object'))
        .map((entry) =>
          path.relative(root, path.join(entry.parentPath, entry.name.replace(/\._S3rver_object$/, ''))),
        );
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
