/**
 * A first request to copy, on the front door and the overview: a free preview with a key from API keys, failing
 * loudly on an error answer and leaving no error saved as the PDF.
 */
export function firstRequest(baseUrl: string): string {
  return `curl --fail-with-body -X POST ${baseUrl}/api/v1/documents \\
  -H "Authorization: Bearer $SVC_API_KEY" -H "Content-Type: application/json" \\
  -o preview.pdf --remove-on-error \\
  -d '{"template":"invoice","mode":"preview","fields":{"seller_name":"Me","client_name":"You","invoice_number":"1","date":"2026-12-01","currency":"EUR","items":"Work | 2 | 50"}}'`;
}
