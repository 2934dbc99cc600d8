// The network of the component tests: MSW answers the web's requests in-process. Handlers are
// typed with the contracts' types, so a test's answer has the shape the server's has.
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';

export const server = setupServer();

/** The origin the tests' page runs on (relative '/api/…' requests resolve against it). */
export const ORIGIN = 'http://localhost:3000';

/** A GET answered with `body` (of the contracts' type T). */
export function answerGet<T extends JsonBodyType>(path: string, body: T) {
  return http.get(`${ORIGIN}${path}`, () => HttpResponse.json(body));
}

/** A POST answered with `body`; each request's JSON body is pushed onto `sent`. */
export function answerPost<Req, Res extends JsonBodyType>(path: string, body: Res, sent: Req[]) {
  return http.post(`${ORIGIN}${path}`, async ({ request }) => {
    sent.push((await request.json()) as Req);
    return HttpResponse.json(body, { status: 201 });
  });
}
