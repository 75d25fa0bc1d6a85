import { createReadStream } from 'node:fs';
import { link, mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { FilesConfig, S3Config } from '../../config.js';

/**
 * Where documents' bytes are kept, under a key naming the agency and the bytes' SHA-256
 * (`fileKey`): the same file kept twice by an agency is stored once, and nothing in a key comes from
 * a client. Nothing in a store is ever public: every download goes through the API.
 */
export interface FileStore {
  /** Where an upload is written while it arrives, on the same disk as the store when it is one. */
  readonly incomingDir: string;
  /**
   * Keeps the file at `source` under `key`, leaving `source` for the caller to remove: an upload
   * may need to store it again (keep.ts).
   */
  put(key: string, source: string, size: number): Promise<void>;
  has(key: string): Promise<boolean>;
  /** The bytes, streamed; undefined when nothing is kept under the key. */
  read(key: string): Promise<Readable | undefined>;
  /** Deletes the bytes; nothing kept under the key is no error. */
  delete(key: string): Promise<void>;
  /** Lets go of the store's connections, once nothing uses it any more. */
  close(): void;
}

const KEY = /^[0-9a-f-]{36}\/[0-9a-f]{64}$/;

/** A key as `fileKey` makes them, or an error: nothing else may name a path or an object. */
function checked(key: string): string {
  if (!KEY.test(key)) throw new Error(`Not a file key: ${key}`);
  return key;
}

/** The key of an agency's file with these bytes. */
export const fileKey = (tenantId: string, sha256: string): string => checked(`${tenantId}/${sha256}`);

/**
 * A directory on the server's disk (`DATA_DIR/files`): a folder per agency, its files named by
 * their hash. An upload arrives in `.incoming` beside them and is linked into place, so a file is
 * whole or absent, and costs no copy. Made as it is first needed, so an install that keeps no
 * documents has none.
 */
export class DiskStore implements FileStore {
  readonly incomingDir: string;

  constructor(private readonly dir: string) {
    this.incomingDir = path.join(dir, '.incoming');
  }

  #path(key: string) {
    return path.join(this.dir, checked(key));
  }

  async put(key: string, source: string): Promise<void> {
    const target = this.#path(key);
    await mkdir(path.dirname(target), { recursive: true });
    await link(source, target).catch((error: NodeJS.ErrnoException) => {
      // Another upload of the same bytes linked them first: named by their hash, they are these.
      if (error.code !== 'EEXIST') throw error;
    });
  }

  async has(key: string): Promise<boolean> {
    return stat(this.#path(key)).then(
      () => true,
      () => false,
    );
  }

  async read(key: string): Promise<Readable | undefined> {
    const file = this.#path(key);
    if (!(await this.has(key))) return undefined;
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  close() {
    // A directory holds no connection.
  }
}

const isMissing = (error: unknown) =>
  error instanceof NotFound ||
  error instanceof NoSuchKey ||
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * A bucket of AWS S3 or of any service speaking its API (MinIO, Cloudflare R2, a local test server),
 * through the official SDK. The bucket stays private; uploads arrive in the system's temporary
 * directory and are streamed to the bucket with their length, never held in memory whole.
 */
export class S3Store implements FileStore {
  readonly incomingDir = path.join(os.tmpdir(), 'coverdesk-incoming');
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(config: S3Config) {
    this.#bucket = config.bucket;
    this.#client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
      // Checksums only where S3 requires them: the services that speak its API do not all take the
      // trailing checksums the SDK otherwise adds, and the hash is checked by Coverdesk anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, source: string, size: number): Promise<void> {
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: checked(key),
        Body: createReadStream(source),
        ContentLength: size,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: checked(key) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async read(key: string): Promise<Readable | undefined> {
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: checked(key) }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: checked(key) }));
  }

  close() {
    this.#client.destroy();
  }
}

/** The store the configuration names: a bucket when `S3_BUCKET` is set, else `DATA_DIR/files`. */
export function openFileStore(config: FilesConfig): FileStore {
  return config.kind === 's3' ? new S3Store(config) : new DiskStore(config.dir);
}
