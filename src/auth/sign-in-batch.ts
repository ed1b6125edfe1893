import type { BatchItem } from 'drizzle-orm/batch';

/**
 * What a route sends in the sign-in's round trip (authenticate.ts): statements added under names, sent in the order
 * they were added, and what the route worked out to make them (`prepared`), which its handler reads with the
 * answers. Made per request by the route's `withSignIn`, given back to its handler as SignInAnswers.
 */
export class SignInPart<Name extends string, Prepared> {
  readonly prepared: Prepared;
  private readonly named: { readonly name: Name; readonly statements: readonly BatchItem<'sqlite'>[] }[] = [];

  constructor(prepared: Prepared) {
    this.prepared = prepared;
  }

  /** Adds statements under a name (none is allowed: a part the request does not need sends nothing); a name once. */
  add(name: Name, statements: readonly BatchItem<'sqlite'>[]): this {
    // A second part of a name would hide the first's answers.
    if (this.named.some((part) => part.name === name)) throw new Error(`the sign-in's batch has a part ${name} already`);
    this.named.push({ name, statements });
    return this;
  }

  /** Every statement, in the order added. */
  statements(): BatchItem<'sqlite'>[] {
    return this.named.flatMap((part) => part.statements);
  }

  /** The batch's answers to `statements()`, by name. */
  answered(answers: readonly unknown[]): SignInAnswers<Name, Prepared> {
    const byName = new Map<Name, readonly unknown[]>();
    let at = 0;
    for (const { name, statements } of this.named) {
      byName.set(name, answers.slice(at, at + statements.length));
      at += statements.length;
    }
    if (at !== answers.length) throw new Error(`the sign-in's batch gave ${answers.length} answers to ${at} statements`);
    return new SignInAnswers(this.prepared, byName);
  }
}

/** The answers of a route's SignInPart, read by the names its statements were added under. */
export class SignInAnswers<Name extends string, Prepared> {
  readonly prepared: Prepared;
  private readonly byName: ReadonlyMap<Name, readonly unknown[]>;

  constructor(prepared: Prepared, byName: ReadonlyMap<Name, readonly unknown[]>) {
    this.prepared = prepared;
    this.byName = byName;
  }

  /** The answers of the statements added under `name`, in order; none when none were. */
  of(name: Name): readonly unknown[] {
    return this.byName.get(name) ?? [];
  }

  /** The rows of the one statement added under `name`. */
  rowsOf<Row>(name: Name): Row[] {
    const [rows] = this.of(name);
    if (!Array.isArray(rows)) throw new Error(`the sign-in's batch has no rows under ${name}`);
    return rows;
  }
}
