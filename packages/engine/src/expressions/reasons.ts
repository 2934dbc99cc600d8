// The library's errors in a user's words: one line, no source excerpt, no generated type names.
import { ParseError, serialize, type ASTNode } from '@marcbachmann/cel-js';
import { TYPE_NAME_PATTERN, ITERATION_NAMES, type DeclaredType } from './environment';

type Phase = 'check' | 'run';

type ErrorLike = { code?: string; summary?: string; message?: string; node?: unknown };

const TOKENS: Record<string, string> = {
  EOF: 'the end',
  LPAREN: '(',
  RPAREN: ')',
  LBRACKET: '[',
  RBRACKET: ']',
  LBRACE: '{',
  RBRACE: '}',
  COLON: ':',
  COMMA: ',',
  DOT: '.',
  QUESTION: '?',
  PLUS: '+',
  MINUS: '-',
  MULTIPLY: '*',
  DIVIDE: '/',
  MODULO: '%',
  IDENTIFIER: 'a name',
  NUMBER: 'a number',
  STRING: 'a string',
};

/** Why `error` happened, in one line (the caller adds the expression). */
export function describeError(error: unknown, phase: Phase, types?: Map<string, DeclaredType>): string {
  const e = (error ?? {}) as ErrorLike;
  const summary = firstLine(e.summary ?? e.message ?? String(error));
  const named = (text: string) =>
    text.replace(TYPE_NAME_PATTERN, (name) => types?.get(name)?.label ?? 'object');

  if (error instanceof ParseError) {
    if (e.code === 'limit_exceeded') return 'is too complex (too many parts or too deeply nested)';
    const tokens = summary.replace(/\b[A-Z][A-Z_]+\b/g, (token) => {
      const text = TOKENS[token];
      return text === undefined ? token.toLowerCase() : text.length === 1 ? `"${text}"` : text;
    });
    const ended = lowerFirst(tokens)
      .replace(/^unexpected token: the end$/, 'the expression ends too early')
      .replace(/, got the end$/, ' but the expression ended');
    return `syntax error: ${ended}`;
  }

  switch (e.code) {
    case 'no_such_key':
    case 'index_out_of_bounds':
      return missingKey(e, summary, phase, types) ?? named(lowerFirst(summary));
    case 'unknown_variable': {
      const name = summary.replace(/^Unknown variable:\s*/, '');
      if ((ITERATION_NAMES as readonly string[]).includes(name)) {
        return `${name} is only available inside a map or loop`;
      }
      return `unknown name "${name}" (expressions read input, nodes, vars and run)`;
    }
    case 'no_such_overload': {
      const m = /^no such overload: (.+?) (\S+) (.+)$/.exec(summary);
      if (m) return named(`${m[2]} cannot combine ${plain(m[1])} and ${plain(m[3])}`);
      return named(plain(summary));
    }
    case 'no_matching_overload': {
      const m = /found no matching overload for '(.+)'/.exec(summary);
      if (m) return named(`no function ${plain(m[1])}`);
      return named(plain(summary));
    }
    case 'division_by_zero':
      return 'division by zero';
    default:
      return named(plain(lowerFirst(summary)));
  }
}

/** "No such key" names what was missing and where: a node, a var, or a field of some data. */
function missingKey(
  e: ErrorLike,
  summary: string,
  phase: Phase,
  types?: Map<string, DeclaredType>,
): string | null {
  const node = e.node as ASTNode | undefined;
  if (!node || (node.op !== '.' && node.op !== '[]' && node.op !== '.?' && node.op !== '[?]')) return null;
  const [left, keyPart] = node.args as [ASTNode, unknown];
  const key = typeof keyPart === 'string' ? keyPart : literal(keyPart);
  if (key === undefined) return null;
  if (left.op === 'id' && left.args === 'nodes') {
    return phase === 'check'
      ? `"${key}" is not a node before this one`
      : `node "${key}" has no result in this run (it did not run before this step)`;
  }
  if (left.op === 'id' && left.args === 'vars') {
    return phase === 'check'
      ? `"${key}" is not set by a transform before this one`
      : `"${key}" was not set by a transform in this run`;
  }
  if (typeof key === 'bigint' || e.code === 'index_out_of_bounds') {
    return `${serialize(left)} has no item ${String(key)}${/size \d+/.test(summary) ? ` (${/size \d+/.exec(summary)?.[0]})` : ''}`;
  }
  const declared = types?.get((left as { checkedType?: { name?: string } }).checkedType?.name ?? '');
  const fields = declared ? ` (its fields: ${declared.fields.join(', ') || 'none'})` : '';
  return `${serialize(left)} has no field "${String(key)}"${fields}`;
}

function literal(node: unknown): string | bigint | undefined {
  const n = node as ASTNode | undefined;
  if (n?.op === 'value' && (typeof n.args === 'string' || typeof n.args === 'bigint')) return n.args;
  return undefined;
}

/** `dyn<int>` reads as `int`. */
function plain(text: string): string {
  return text.replace(/dyn<([^<>]+)>/g, '$1');
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function firstLine(text: string): string {
  return text.split('\n')[0].trim();
}
