import { exerciseClient } from './client-program.ts';

/** A Worker that runs the client program inside workerd: POST {baseUrl, apiKey} gets its summary; GET says it is up. */
export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response('POST {"baseUrl", "apiKey"} to run the client program.');
    const { baseUrl, apiKey } = (await request.json()) as { baseUrl: string; apiKey: string };
    return Response.json(await exerciseClient(baseUrl, apiKey));
  },
};
