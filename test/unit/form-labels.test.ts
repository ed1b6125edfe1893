import { describe, expect, it } from 'vitest';
import { labelOf } from '../../src/pages/document-form.ts';

describe('the web form labels a field from its name', () => {
  it('writes the acronyms of the payment fields in capitals', () => {
    expect(labelOf('payee_iban')).toBe('Payee IBAN');
    expect(labelOf('qr_reference')).toBe('QR reference');
    expect(labelOf('po_number')).toBe('PO number');
    expect(labelOf('payee_building_number')).toBe('Payee building number');
  });
});
