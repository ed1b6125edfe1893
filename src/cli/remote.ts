import { HEADERS } from '../contract/headers.ts';
import type { CommandInput } from '../operator/commands.ts';
import { OPERATOR_COMMANDS_PATH } from '../routes/operator.commands.ts';

/** An operator command is quick; an answer this late means something in between is stuck. */
const ANSWER_TIMEOUT_MS = 60_000;

/** What the CLI prints: the command's JSON on stdout (exit 0), or a message on stderr (exit 1). */
export type Outcome = { ok: true; result: unknown } | { ok: false; message: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The operator API's address under a base URL (a path prefix of a proxy is kept). Plain http is taken only to
 * this machine: the secret would otherwise cross the network readable by anyone on the way.
 */
export function commandsUrl(base: string): URL | string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return `--url must be the deployment's base URL, such as https://svc.example.com; got "${base}".`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return `--url must start with https:// (http:// only to localhost): the operator secret must not cross the network in clear; got "${base}".`;
  }
  if (url.username || url.password || url.search || url.hash)
    return `--url must be a plain base URL, without credentials, query or fragment.`;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${OPERATOR_COMMANDS_PATH}`;
  return url;
}

function messageOf(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * Sends a parsed command to the operator API and turns the answer into what the CLI prints: the command's JSON
 * as it would print it on a database file, a refusal (400) as its message alone, anything else with the status.
 */
export async function runRemote(url: URL, secret: string, name: string, input: CommandInput): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        [HEADERS.authorization]: `Bearer ${secret}`,
        [HEADERS.contentType]: 'application/json',
        [HEADERS.accept]: 'application/json',
      },
      body: JSON.stringify({ command: name, positionals: input.positionals, options: input.options }),
      // A redirect would either drop the secret or hand it to another address: neither is followed.
      redirect: 'manual',
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return {
      ok: false,
      message: `no answer from ${url.origin} (${cause}). If the request got there, the change may or may not have been made: check before trying again.`,
    };
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status === 200 && body !== undefined) return { ok: true, result: body };
  if (response.status === 400 && messageOf(body)) return { ok: false, message: messageOf(body)! };
  if (response.status >= 300 && response.status < 400) {
    return {
      ok: false,
      message: `${url.origin} answered a redirect (${response.status}) to ${response.headers.get(HEADERS.location)}; give that base URL as --url.`,
    };
  }
  if (response.status === 404) {
    return { ok: false, message: `${url.origin} has no operator API (404): set OPERATOR_SECRET on that deployment, or check --url.` };
  }
  if (response.status === 401) {
    return { ok: false, message: `the operator API refused SVC_OPERATOR_SECRET (401): it must be the deployment's OPERATOR_SECRET.` };
  }
  return { ok: false, message: `the operator API answered ${response.status}: ${messageOf(body) ?? (text.slice(0, 200) || 'no body')}` };
}
