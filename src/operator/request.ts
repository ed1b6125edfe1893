import { JsonNumber, type JsonObject, type JsonValue } from '../json/parse.ts';
import { type Command, type CommandInput, findCommand, OperatorRefusal } from './commands.ts';

/** A command as the operator API receives it: `{ "command": "accounts create", "positionals": [], "options": {} }`. */
export interface CommandRequest {
  readonly name: string;
  readonly command: Command;
  readonly input: CommandInput;
}

const MEMBERS = ['command', 'positionals', 'options'];

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);

/**
 * Reads a command request from its JSON, checking what the CLI's parser checks: a known command, and only the
 * command's options, each of its type (a string, or true/false for a flag). Anything else is a refusal that
 * says what to fix.
 */
export function readCommandRequest(body: JsonValue): CommandRequest {
  if (!isObject(body)) throw new OperatorRefusal('Send a JSON object: {"command": "…", "positionals": […], "options": {…}}.');
  const unknown = Object.keys(body).filter((member) => !MEMBERS.includes(member));
  if (unknown.length) throw new OperatorRefusal(`Unknown member "${unknown[0]}": a command request has ${MEMBERS.join(', ')}.`);
  const name = body.command;
  if (typeof name !== 'string') throw new OperatorRefusal('"command" must be a command name such as "accounts list".');
  const command = findCommand(name);
  if (!command) throw new OperatorRefusal(`Unknown command "${name}".`);

  const positionals = body.positionals ?? [];
  if (!Array.isArray(positionals) || !positionals.every((value) => typeof value === 'string')) {
    throw new OperatorRefusal('"positionals" must be an array of strings.');
  }
  const given = body.options ?? Object.create(null);
  if (!isObject(given)) throw new OperatorRefusal('"options" must be an object of option names and values.');
  const options: CommandInput['options'] = Object.create(null);
  for (const [option, value] of Object.entries(given)) {
    const spec = Object.hasOwn(command.options, option) ? command.options[option] : undefined;
    if (!spec) throw new OperatorRefusal(`Unknown option '--${option}' for ${name}. Usage: ${command.usage}`);
    if (spec.type === 'string' && typeof value !== 'string') throw new OperatorRefusal(`Option '--${option}' takes a string.`);
    if (spec.type === 'boolean' && typeof value !== 'boolean') throw new OperatorRefusal(`Option '--${option}' is true or false.`);
    options[option] = value as string | boolean;
  }
  return { name, command, input: { positionals: positionals as string[], options } };
}
