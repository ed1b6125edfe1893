import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * A validator for a schema of the served OpenAPI document, its `$ref`s into `#/components/schemas/` resolved
 * against that document's components. Strict, so that a keyword Ajv does not know fails; `discriminator` is
 * OpenAPI's annotation (the `oneOf` beside it decides), and `format` an annotation in JSON Schema 2020-12.
 */
export function publishedSchemaValidator(openApi: { components: { schemas: object } }, schema: object): ValidateFunction {
  const ajv = new Ajv2020({ strict: true, validateFormats: false });
  ajv.addKeyword('discriminator');
  ajv.addKeyword('components');
  return ajv.compile({ ...schema, components: { schemas: openApi.components.schemas } });
}
