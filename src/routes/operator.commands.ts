import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { DATABASE_RETRY_AFTER_SECONDS, describeError } from '../db/failures.ts';
import { JSON_BODY_ERRORS } from '../http/body.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { log } from '../log.ts';
import { OperatorRefusal } from '../operator/commands.ts';
import { databaseFailureMessage } from '../operator/failure.ts';
import { readCommandRequest } from '../operator/request.ts';

/** Every operator path starts with this; none of them exists while OPERATOR_SECRET is unset. */
export const OPERATOR_PATH_PREFIX = '/operator/';
/** Where the CLI sends its commands with --url. */
export const OPERATOR_COMMANDS_PATH = `${OPERATOR_PATH_PREFIX}v1/commands`;

/** A refusal of the command or of its arguments: 400 with the message the CLI prints on a database file. */
function refused(error: OperatorRefusal): ApiError {
  return new ApiError('invalid_request', { message: error.message });
}

/**
 * The operator CLI's commands over HTTP, for deployments without a database file to open (Workers + D1): the
 * same command definitions, answering the JSON the CLI prints. Outside /api/v1 and the OpenAPI document.
 */
export const runOperatorCommandRoute = defineRoute({
  method: 'POST',
  path: OPERATOR_COMMANDS_PATH,
  access: { kind: 'operator' },
  versioned: false,
  doc: {
    operationId: 'runOperatorCommand',
    summary: 'Run an operator command',
    description: 'Body: {"command": "accounts create", "positionals": [], "options": {"email": "…"}}; answers what `svc` prints.',
    tag: 'Operator',
    responses: { 200: { description: 'What the command prints.' } },
  },
  body: {
    openApi: { required: true, description: 'A command: {"command", "positionals", "options"}.' },
    errors: JSON_BODY_ERRORS,
  },
  async handle({ body, deps, requestId }) {
    let commandRequest: ReturnType<typeof readCommandRequest>;
    try {
      commandRequest = readCommandRequest(await body.value());
    } catch (error) {
      throw error instanceof OperatorRefusal ? refused(error) : error;
    }
    try {
      const result = await commandRequest.command.run(commandRequest.input, { db: deps.db, now: deps.clock.now() });
      return json(result, 200, { [HEADERS.cacheControl]: 'no-store' });
    } catch (error) {
      if (error instanceof OperatorRefusal) throw refused(error);
      const failure = databaseFailureMessage(error);
      if (failure === undefined) throw error;
      log('warn', 'operator_command_failed', { request_id: requestId, error: `${commandRequest.name}: ${describeError(error)}` });
      throw new ApiError('service_busy', { message: failure, headers: { [HEADERS.retryAfter]: String(DATABASE_RETRY_AFTER_SECONDS) } });
    }
  },
});
