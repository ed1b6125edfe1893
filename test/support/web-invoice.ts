/**
 * The invoice the web app's tests and its page bench make: a bakery's, three items, a discount and a tax rate, in
 * a script beyond ASCII. `WEB_INVOICE` is the API's body; `formOf` the same as the web form's inputs send it.
 */
export const WEB_INVOICE = {
  template: 'invoice',
  paper: 'a4',
  fields: {
    seller_name: 'Bäckerei Zeynep Öztürk',
    seller_details: 'Hauptstraße 5\r\n10115 Berlin',
    client_name: 'Café Lumière',
    invoice_number: 'WEB-0001',
    date: '2026-12-01',
    currency: 'EUR',
    items: [
      { description: 'Croissants', quantity: '40', unit_price: '1.20' },
      { description: 'Sourdough loaves', quantity: '12', unit_price: '4.50' },
      { description: 'Delivery', quantity: '1', unit_price: '7.00' },
    ],
    discount: '10%',
    tax_rate: '7',
    tax_label: 'VAT',
  },
};

/** A body as the form names its inputs (`fields.items[0].quantity`): what the browser sends for it. */
export function formOf(body: { paper?: string; fields: Record<string, unknown> }): Record<string, string> {
  const form: Record<string, string> = body.paper ? { paper: body.paper } : {};
  for (const [name, value] of Object.entries(body.fields)) {
    if (Array.isArray(value)) {
      value.forEach((item: Record<string, string>, row) => {
        for (const [member, text] of Object.entries(item)) form[`fields.${name}[${row}].${member}`] = text;
      });
    } else {
      form[`fields.${name}`] = String(value);
    }
  }
  return form;
}
