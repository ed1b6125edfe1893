import type { BatchItem } from 'drizzle-orm/batch';
import { describe, expect, it } from 'vitest';
import { SignInPart } from '../../src/auth/sign-in-batch.ts';

// Statements stand for themselves here: the part only orders them and hands their answers back by name.
const statement = (name: string) => ({ name }) as unknown as BatchItem<'sqlite'>;

describe('the sign-in batch: statements added by name, answers read by name', () => {
  it('sends the statements in the order added and gives each name its own answers, an empty part none', () => {
    const part = new SignInPart<'renewal' | 'lease' | 'counts', { now: number }>({ now: 5 })
      .add('renewal', [statement('renew')])
      .add('lease', [])
      .add('counts', [statement('minute'), statement('day')]);
    expect(part.statements()).toEqual([{ name: 'renew' }, { name: 'minute' }, { name: 'day' }]);
    const answers = part.answered([['renewed'], [{ count: 1 }], [{ count: 2 }]]);
    expect(answers.of('renewal')).toEqual([['renewed']]);
    expect(answers.of('lease')).toEqual([]);
    expect(answers.of('counts')).toEqual([[{ count: 1 }], [{ count: 2 }]]);
    expect(answers.rowsOf('renewal')).toEqual(['renewed']);
    expect(answers.prepared).toEqual({ now: 5 });
  });

  it('refuses a name added twice, whose first answers the second would hide', () => {
    const part = new SignInPart<'record', undefined>(undefined).add('record', [statement('read')]);
    expect(() => part.add('record', [statement('again')])).toThrow(/part record already/);
  });

  it('refuses answers that do not match the statements sent, and rows of a part that has none', () => {
    const part = new SignInPart<'record', undefined>(undefined).add('record', [statement('read')]);
    expect(() => part.answered([])).toThrow(/0 answers to 1 statements/);
    expect(() => new SignInPart<'record', undefined>(undefined).add('record', []).answered([]).rowsOf('record')).toThrow(/no rows/);
  });
});
