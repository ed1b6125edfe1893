/** The test-only oracles of issue 39 ship no declarations: what the tests use of them. */
declare module 'sepa-payment-qr-code' {
  export default function generateQrCode(data: {
    name: string;
    iban: string;
    bic?: string;
    amount: number | null;
    purposeCode?: string;
    structuredReference?: string;
    unstructuredReference?: string;
    information?: string;
  }): string;
}

declare module 'iban' {
  const IBAN: {
    countries: Record<string, { countryCode: string; length: number; structure: string; example: string }>;
    isValid(iban: string): boolean;
  };
  export default IBAN;
}
