import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { CHANNELS, type DatabaseNotifications } from '../../db/notifications.js';
import { fileInUse, lockFile } from './queries.js';
import { type FileStore, fileKey } from './storage.js';
import { documentFileReleases } from './tables.js';

/** Releases looked at per round. */
const BATCH = 100;
/** How often the queue is looked at without being told, for what a lost notification missed. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Deletes the bytes of deleted documents once no document of the agency has them. The delete
 * trigger queues each deleted document's agency and hash, whichever statement deleted it (the
 * document's own delete, its customer's, policy's, claim's or lead's, or the agency's), in the
 * transaction that deleted it: so bytes go only once the rows are surely gone, and a rolled-back
 * delete releases nothing. The runner works the queue when told (after a delete answered here, on
 * the database's notification from any instance), at start, and every minute.
 *
 * Each release takes the file's lock (`lockFile`) as an upload keeping the same bytes does, so the
 * two take turns: an upload that comes after finds the bytes gone and stores them again.
 */
export class FileReleases {
  #running: Promise<void> | undefined;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(
    private readonly db: Database,
    private readonly store: FileStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Hears of deletes made by other instances; call before the notifications start. */
  follow(notifications: DatabaseNotifications): void {
    const kick = () => this.kick();
    notifications.subscribe(CHANNELS.documentFiles, { onNotification: kick, onResync: kick });
  }

  start(): void {
    this.kick();
    this.#timer = setInterval(() => this.kick(), SWEEP_EVERY_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running;
  }

  /** Works the queue soon; a kick while it runs makes it look once more when done. */
  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#work().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        this.kick();
      }
    });
  }

  /** Resolves once the queue has been worked through, as far as it was when asked (for tests). */
  async settled(): Promise<void> {
    this.kick();
    while (this.#running) await this.#running;
  }

  async #work(): Promise<void> {
    try {
      while (!this.#stopped && (await this.#releaseBatch()) === BATCH) {}
    } catch (error) {
      this.log.error({ err: error }, "could not delete deleted documents' files; trying again later");
    }
  }

  /** Releases up to a batch of queued files; says how many queue rows it looked at. */
  async #releaseBatch(): Promise<number> {
    const queued = await this.db
      .select()
      .from(documentFileReleases)
      .orderBy(asc(documentFileReleases.id))
      .limit(BATCH);
    const files = new Map<string, { tenantId: string; sha256: string; upTo: number }>();
    for (const row of queued) files.set(`${row.tenantId}/${row.sha256}`, { ...row, upTo: row.id });
    for (const file of files.values()) await this.#release(file);
    return queued.length;
  }

  /**
   * Deletes the agency's file with these bytes unless a document has them: after an upload that
   * failed once its bytes may have been stored.
   */
  async releaseIfUnused(tenantId: string, sha256: string): Promise<void> {
    await this.#release({ tenantId, sha256, upTo: 0 });
  }

  async #release({ tenantId, sha256, upTo }: { tenantId: string; sha256: string; upTo: number }) {
    await this.db.transaction(async (tx) => {
      // The app's own role, seeing the agency's rows (the agency may be gone: then there are none).
      await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);
      await lockFile(tx, tenantId, sha256);
      if (!(await fileInUse(tx, tenantId, sha256))) await this.store.delete(fileKey(tenantId, sha256));
      if (upTo > 0)
        await tx
          .delete(documentFileReleases)
          .where(
            and(
              eq(documentFileReleases.tenantId, tenantId),
              eq(documentFileReleases.sha256, sha256),
              lte(documentFileReleases.id, upTo),
            ),
          );
    });
  }
}
