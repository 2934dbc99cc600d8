import type { FastifyInstance } from 'fastify';
import { BadRequestError } from './errors';

/** Deeper than any form of ours sends; far below where parsing and validation would exhaust the stack. */
export const MAX_JSON_DEPTH = 64;

type Problem = { path: string; message: string };

// PostgreSQL stores neither NUL in text or jsonb nor a lone UTF-16 surrogate in jsonb: such text is
// refused here, for every route, instead of failing the query later.
const lonePattern = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (lonePattern.test(text)) return 'must be valid Unicode text (it contains a lone surrogate)';
  return undefined;
}

/** A path segment as the user can read it back: invisible or broken characters spelled out, kept short. */
function readable(segment: string): string {
  const shown = segment.length > 64 ? `${segment.slice(0, 64)}…` : segment;
  return shown.replace(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is spelled out
    /[\u0000-\u001f\ud800-\udfff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** One value on the walk; `isName` when its key is an object key (user text) rather than an array index. */
type Visit = { value: unknown; key?: string; isName?: boolean; parent?: Visit };

const pathOf = (visit: Visit): string[] => {
  const path: string[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
};

/**
 * Every string value and object key in `value` that Postgres would refuse, walked iteratively (the depth is
 * not trusted). `kind` names what holds them in the message: 'Field', 'Query parameter', 'Path parameter'.
 */
export function findBadText(value: unknown, kind: string): Problem[] {
  const problems: Problem[] = [];
  const report = (path: string[], message: string, isKey = false) => {
    const name = path.map(readable).join('.');
    const subject = name ? `${kind}${isKey ? ' name' : ''} ${name}` : 'Request body';
    problems.push({ path: name, message: `${subject} ${message}` });
  };
  // Depth first, in document order, so the first problem reported is the first in the input.
  const stack: Visit[] = [{ value }];
  while (stack.length > 0 && problems.length < 20) {
    const visit = stack.pop()!;
    const keyProblem = visit.isName ? textProblem(visit.key!) : undefined;
    const current = visit.value;
    if (keyProblem) report(pathOf(visit), keyProblem, true);
    else if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) report(pathOf(visit), problem);
    } else if (current !== null && typeof current === 'object') {
      const isName = !Array.isArray(current);
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ value: entries[i][1], key: entries[i][0], isName, parent: visit });
      }
    }
  }
  return problems;
}

/** Whether a JSON text nests arrays and objects deeper than `limit`, counting brackets outside strings. */
export function jsonDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character: \" does not end the string.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Input no route can use, refused with a 400 before any validation or handler runs (docs/security.md, Input):
 * JSON nested deeper than MAX_JSON_DEPTH (checked on the raw text, before parsing), and NUL characters
 * or lone surrogates in any string of the path, the query or the body (keys included).
 */
export function registerInputGuard(app: FastifyInstance) {
  // Fastify's own parser stays in charge (secure-json-parse refusing __proto__ and constructor.prototype,
  // its empty-body error); 'error' is Fastify's default for both, which the app does not change.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new BadRequestError(`Request body is nested too deeply (the limit is ${MAX_JSON_DEPTH} levels)`));
      return;
    }
    parseJson(request, body as string, done);
  });

  // preValidation runs after parsing and before the schema validator (and so before every handler).
  app.addHook('preValidation', async (request) => {
    const problems = [
      ...findBadText(request.params, 'Path parameter'),
      ...findBadText(request.query, 'Query parameter'),
      ...findBadText(request.body, 'Field'),
    ];
    if (problems.length > 0) throw new BadRequestError(problems[0].message, problems);
  });
}
