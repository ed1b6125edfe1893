import { invoice } from './invoice/index.ts';
import { quote } from './quote/index.ts';
import { receipt } from './receipt/index.ts';
import type { TemplateDefinition } from './template.ts';

export const TEMPLATES: readonly TemplateDefinition[] = [invoice, quote, receipt];

export function findTemplate(slug: string): TemplateDefinition | undefined {
  return TEMPLATES.find((template) => template.slug === slug);
}
