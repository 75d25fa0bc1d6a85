import type { Transaction } from '../../db/client.js';
import { insertDocument, lockFile, type NewDocument } from './queries.js';
import { type FileStore, fileKey } from './storage.js';

/** Bytes waiting in a file of their own (an upload's temporary file, a demo file), with their hash. */
export interface FileToKeep {
  path: string;
  size: number;
  sha256: string;
}

/**
 * Stores the bytes unless the agency keeps them already. An upload does so before its transaction,
 * so sending them to a bucket holds neither the agency's locks nor a pooled connection; should the
 * document not be saved, the upload releases them (`releaseIfUnused`).
 */
export async function storeFile(store: FileStore, tenantId: string, file: FileToKeep): Promise<void> {
  const key = fileKey(tenantId, file.sha256);
  if (!(await store.has(key))) await store.put(key, file.path, file.size);
}

/**
 * Keeps a document, for an upload and for the demo alike: under the file's lock, so the release
 * runner cannot delete the bytes before the row naming them commits, the bytes are stored unless
 * the agency keeps them (stored before, they may have been released since, by another upload of the
 * same bytes that failed), then the row is written. The caller removes `file.path`.
 */
export async function keepDocument(
  tx: Transaction,
  store: FileStore,
  tenantId: string,
  file: FileToKeep,
  document: Omit<NewDocument, 'size' | 'sha256'>,
) {
  await lockFile(tx, tenantId, file.sha256);
  await storeFile(store, tenantId, file);
  return insertDocument(tx, tenantId, { ...document, size: file.size, sha256: file.sha256 });
}
