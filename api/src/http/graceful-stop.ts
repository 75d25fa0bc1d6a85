import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The instance is stopping: health answers 503 and every answer closes its connection. */
    draining: boolean;
  }
}

/**
 * While an instance stops, each answer says `Connection: close`, so a browser or a proxy holding a
 * kept-alive connection opens its next one to another instance instead of finding this one gone.
 */
export function registerDraining(app: FastifyInstance): void {
  app.decorate('draining', false);
  app.addHook('onSend', async (_request, reply) => {
    if (app.draining) reply.header('connection', 'close');
  });
}

/** How often connections that fell idle while draining are closed (Node closes idle ones only once). */
const IDLE_SWEEP_MS = 100;

/**
 * Stops an instance without failing a request: health turns 503 at once while the instance still
 * listens for `listenMs`, so a load balancer stops sending and the connections already on their way
 * are accepted and answered; then it stops listening, answers every request it has accepted, closes
 * each connection as it falls idle, and runs the app's onClose hooks (jobs handed back, pool closed).
 */
export async function drainAndClose(app: FastifyInstance, listenMs: number): Promise<void> {
  app.draining = true;
  await new Promise((resolve) => setTimeout(resolve, listenMs));
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
