import { escapeHtml } from '../docs/html.ts';

/** Markup that is already safe: made by the `html` tag, whose interpolations are escaped. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | false | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === false || part === null || part === undefined) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** A template of markup: every interpolated value is escaped unless it is itself `Html`; false and absent are left out. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  return new Html(strings.reduce((out, text, index) => out + text + (index < values.length ? render(values[index]!) : ''), ''));
}
