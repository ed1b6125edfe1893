import { LIMITS } from '../contract/limits.ts';
import type { JsonObject } from '../json/parse.ts';
import { minorDigits } from '../templates/currencies.ts';
import { isBlank, type Problem, readUnder } from '../templates/field-types.ts';
import type { TemplateDefinition } from '../templates/template.ts';
import type { Totals } from '../templates/totals.ts';

interface ValidFields {
  ok: true;
  /** Normalised values of the fields sent; an optional field left off is absent. */
  values: Record<string, unknown>;
  currency: string;
  digits: number;
  totals: Totals;
}

/** Reads `fields` with the template's field types, then its cross-field rules; every problem at once. */
export function validateFields(template: TemplateDefinition, fields: JsonObject): ValidFields | { ok: false; problems: Problem[] } {
  const names = Object.keys(fields);
  if (names.length > LIMITS.fieldNames) {
    return {
      ok: false,
      problems: [{ code: 'too_many_fields', path: [], message: `fields holds ${names.length} names; at most ${LIMITS.fieldNames}.` }],
    };
  }
  const problems: Problem[] = names
    .filter((name) => !Object.hasOwn(template.fields, name))
    .map((name) => ({ code: 'unknown_field', path: [name], message: `The ${template.slug} template has no field ${name}.` }));

  const currencyRead = isBlank(fields.currency) ? undefined : template.fields.currency?.type.read(fields.currency!, {});
  const currency = currencyRead?.ok && typeof currencyRead.value === 'string' ? currencyRead.value : undefined;
  const digits = currency === undefined ? undefined : minorDigits(currency);

  const values: Record<string, unknown> = {};
  const sent = new Set<string>();
  for (const [name, spec] of Object.entries(template.fields)) {
    const value = fields[name];
    if (isBlank(value)) {
      if (spec.required) problems.push({ code: 'required', path: [name], message: `${name} is required.` });
      continue;
    }
    sent.add(name);
    const read = readUnder(name, spec.type.read(value!, digits === undefined ? {} : { minorDigits: digits }));
    if (read.ok) values[name] = read.value;
    else problems.push(...read.problems);
  }

  const checked = template.check({ values, sent, currency, digits });
  problems.push(...checked.problems);
  if (problems.length) return { ok: false, problems };
  if (!checked.totals || currency === undefined || digits === undefined) {
    throw new Error(`${template.slug}: valid fields without totals`);
  }
  return { ok: true, values, currency, digits, totals: checked.totals };
}
