import type { PaddleCheckResult } from '@coverdesk/contract';
import type { PaddleConfig } from '../../config.js';

/** Long enough for Paddle's API on a slow day, short enough that the admin's screen never hangs. */
const CHECK_TIMEOUT_MS = 5_000;

export const paddleApiBase = (environment: PaddleConfig['environment']) =>
  environment === 'production' ? 'https://api.paddle.com' : 'https://sandbox-api.paddle.com';

/** Why a request never got an answer, in words: the cause's code (ENOTFOUND…) or the timeout. */
function unreachableReason(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${CHECK_TIMEOUT_MS / 1000} seconds`;
  }
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Asks Paddle for its event types with the API key: the smallest read any valid key may make. Tells
 * whether Paddle answered, and if it refused the key, what it said.
 */
export async function checkPaddleConnection(
  paddle: PaddleConfig,
  fetchImpl: typeof fetch = fetch,
): Promise<PaddleCheckResult> {
  let response: Response;
  try {
    response = await fetchImpl(`${paddleApiBase(paddle.environment)}/event-types`, {
      headers: { authorization: `Bearer ${paddle.apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, detail: `Could not reach Paddle: ${unreachableReason(error)}.` };
  }
  if (response.ok) {
    return { ok: true, detail: `Connected to Paddle (${paddle.environment}): the API key works.` };
  }
  const body = (await response.json().catch(() => undefined)) as
    | { error?: { code?: string; detail?: string } }
    | undefined;
  const said = [body?.error?.code, body?.error?.detail].filter(Boolean).join(': ');
  return {
    ok: false,
    detail: `Paddle refused the API key (HTTP ${response.status}${said ? ` — ${said}` : ''}).`,
  };
}
