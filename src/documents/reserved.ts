import type { ErrorDetail } from '../contract/api-error.ts';
import { isJsonObject, type JsonValue } from '../json/parse.ts';

/** Names held for a later version (spec 2.2); each is refused with 400 reserved_field, alone. */
const RESERVED_TOP_LEVEL = ['callback_url', 'webhook', 'file_url', 'einvoice', 'validation', 'jurisdiction', 'metadata', 'logo'];
const RESERVED_FIELDS = ['seller', 'buyer', 'payment', 'document'];
const RESERVED_ITEM_MEMBERS = ['tax'];
const RESERVED_OUTPUT_FORMATS = ['pdf-a3', 'xml'];

const reserved = (field: string): ErrorDetail => ({
  code: 'reserved',
  field,
  message: `${field} is reserved for a later version.`,
});

export function findReservedNames(body: JsonValue): ErrorDetail[] {
  if (!isJsonObject(body)) return [];
  const found = Object.keys(body)
    .filter((name) => RESERVED_TOP_LEVEL.includes(name))
    .map(reserved);
  const output = body.output;
  if (isJsonObject(output)) {
    for (const name of Object.keys(output)) if (name !== 'format') found.push(reserved(`output.${name}`));
    if (typeof output.format === 'string' && RESERVED_OUTPUT_FORMATS.includes(output.format)) found.push(reserved('output.format'));
  }
  const fields = body.fields;
  if (isJsonObject(fields)) {
    for (const name of Object.keys(fields)) if (RESERVED_FIELDS.includes(name)) found.push(reserved(`fields.${name}`));
    if (Array.isArray(fields.items)) {
      fields.items.forEach((item, index) => {
        if (!isJsonObject(item)) return;
        for (const name of Object.keys(item)) {
          if (RESERVED_ITEM_MEMBERS.includes(name)) found.push(reserved(`fields.items[${index}].${name}`));
        }
      });
    }
  }
  return found;
}
