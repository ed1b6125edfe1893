import { currency, date, type FieldType, multiline, text } from './field-types.ts';
import type { FieldSpec } from './template.ts';

export const required = <T>(type: FieldType<T>, description: string): FieldSpec<T, true> => ({ type, required: true, description });
export const optional = <T>(type: FieldType<T>, description: string): FieldSpec<T, false> => ({ type, required: false, description });

/** The parties and number block every template shares (spec 2.5). */
export const PARTY_FIELDS = {
  seller_name: required(text(), 'Name of the business issuing the document.'),
  seller_details: optional(multiline(), 'Address and contact lines of the seller.'),
  tax_id: optional(text(), 'Printed as Tax / VAT No. under the seller.'),
  client_name: required(text(), 'Name of the client.'),
  client_details: optional(multiline(), 'Address and contact lines of the client.'),
} as const;

export const requiredDate = (description: string) => required(date, description);
export const optionalDate = (description: string) => optional(date, description);
export const currencyField = required(currency, 'ISO 4217 code, three capital letters; decides decimals and printing.');
export const notesField = optional(multiline(), 'Free text printed at the end.');

/** The issuer a template with the party fields names at the foot of its pages: the seller. */
export const sellerName = (values: { readonly seller_name: string }): string => values.seller_name;
