/*
 * The fake LLM server's structured output (fake-llm-server.ts): what it checks of a JSON Schema the
 * way the real services do before answering, and the schema-shaped JSON it answers with.
 */

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a request asks for structured output, if it does. */
export type StructuredRequest =
  /** OpenAI Chat Completions' `response_format` (json_schema, or json_object without a schema). */
  | { via: 'response_format'; schema: Schema | null; name: string; strict: boolean }
  /** Anthropic's native structured output: `output_config.format`. */
  | { via: 'output_config'; schema: Schema }
  /** Anthropic's JSON tool, which the AI SDK uses for models without native structured output. */
  | { via: 'json_tool'; schema: Schema };

export function structuredRequest(
  protocol: 'openai' | 'anthropic',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol bodies, read field by field
  body: any,
): StructuredRequest | undefined {
  if (protocol === 'openai') {
    const format = body?.response_format;
    if (format?.type === 'json_schema') {
      return {
        via: 'response_format',
        schema: isObject(format.json_schema?.schema) ? format.json_schema.schema : {},
        name: String(format.json_schema?.name ?? 'response'),
        strict: format.json_schema?.strict === true,
      };
    }
    if (format?.type === 'json_object')
      return { via: 'response_format', schema: null, name: '', strict: false };
    return undefined;
  }
  const format = body?.output_config?.format;
  if (format?.type === 'json_schema' && isObject(format.schema))
    return { via: 'output_config', schema: format.schema };
  const choice = body?.tool_choice;
  const jsonTool = Array.isArray(body?.tools)
    ? body.tools.find((t: { name?: string }) => t?.name === 'json')
    : undefined;
  if (jsonTool && (choice?.type === 'any' || (choice?.type === 'tool' && choice.name === 'json'))) {
    return { via: 'json_tool', schema: isObject(jsonTool.input_schema) ? jsonTool.input_schema : {} };
  }
  return undefined;
}

/** Python's repr of a tuple of names, as OpenAI's schema errors print the context. */
const context = (path: string[]) =>
  `(${path.map((p) => `'${p}'`).join(', ')}${path.length === 1 ? ',' : ''})`;

/**
 * What OpenAI refuses of a strict schema, in its words: a root that is not an object, an object
 * that allows other properties than it names, or one that does not list every property as required.
 */
export function strictSchemaRefusal(schema: Schema, name: string): string | undefined {
  const prefix = `Invalid schema for response_format '${name}': `;
  if (schema.type !== 'object') {
    return `${prefix}schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type)}"'.`;
  }
  const visit = (node: unknown, path: string[]): string | undefined => {
    if (!isObject(node)) return undefined;
    const isObjectNode =
      node.type === 'object' ||
      (Array.isArray(node.type) && node.type.includes('object')) ||
      isObject(node.properties);
    if (isObjectNode) {
      if (node.additionalProperties !== false) {
        return `${prefix}In context=${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
      }
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      const missing = Object.keys(isObject(node.properties) ? node.properties : {}).find(
        (k) => !required.has(k),
      );
      if (missing !== undefined) {
        return `${prefix}In context=${context(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
      }
    }
    const children: [unknown, string[]][] = [];
    for (const key of ['properties', '$defs', 'definitions'] as const) {
      if (isObject(node[key]))
        for (const [k, v] of Object.entries(node[key])) children.push([v, [...path, key, k]]);
    }
    for (const key of ['anyOf', 'allOf', 'oneOf'] as const) {
      if (Array.isArray(node[key]))
        node[key].forEach((v, i) => children.push([v, [...path, key, String(i)]]));
    }
    if (node.items !== undefined) children.push([node.items, [...path, 'items']]);
    for (const [child, at] of children) {
      const refusal = visit(child, at);
      if (refusal) return refusal;
    }
    return undefined;
  };
  return visit(schema, []);
}

/** What Anthropic refuses of an `output_config.format` schema: an object open to other properties. */
export function anthropicSchemaRefusal(schema: Schema): string | undefined {
  const visit = (node: unknown): boolean => {
    if (!isObject(node)) return false;
    if ((node.type === 'object' || isObject(node.properties)) && node.additionalProperties !== false)
      return true;
    const children = [
      ...(isObject(node.properties) ? Object.values(node.properties) : []),
      ...(isObject(node.$defs) ? Object.values(node.$defs) : []),
      ...(['anyOf', 'allOf', 'oneOf'] as const).flatMap((k) => (Array.isArray(node[k]) ? node[k] : [])),
      ...(node.items !== undefined ? [node.items] : []),
    ];
    return children.some(visit);
  };
  return visit(schema)
    ? "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false"
    : undefined;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A value that follows the schema, as a model would give it: every property, an array of one item,
 * 1 for numbers, true for booleans, "Fake <field>" for text. An enum takes the first of its values
 * the prompt names as a word (a prompt about a "bug" is classified `bug`), else its first value.
 */
export function sampleOf(schema: Schema, prompt: string): unknown {
  const words = prompt.toLowerCase();
  const named = (values: unknown[]) =>
    values.find(
      (v) => typeof v === 'string' && v && new RegExp(`(^|\\W)${escape(v.toLowerCase())}(\\W|$)`).test(words),
    );

  const resolve = (ref: string): unknown =>
    ref
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .reduce<unknown>(
        (node, part) => (isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
        schema,
      );

  const sample = (node: unknown, name: string, depth: number): unknown => {
    if (!isObject(node) || depth > 12) return null;
    if (typeof node.$ref === 'string') return sample(resolve(node.$ref), name, depth + 1);
    if ('const' in node) return node.const;
    if (Array.isArray(node.enum) && node.enum.length > 0) {
      const choices = node.enum.filter((v) => v !== null);
      return named(choices) ?? choices[0] ?? null;
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (Array.isArray(node[key])) {
        const branch = node[key].find((b) => !(isObject(b) && b.type === 'null')) ?? node[key][0];
        return sample(branch, name, depth + 1);
      }
    }
    const type = Array.isArray(node.type)
      ? (node.type.find((t) => t !== 'null') ?? 'null')
      : (node.type ?? (isObject(node.properties) ? 'object' : 'string'));
    switch (type) {
      case 'object': {
        const properties = isObject(node.properties) ? node.properties : {};
        return Object.fromEntries(
          Object.entries(properties).map(([key, sub]) => [key, sample(sub, key, depth + 1)]),
        );
      }
      case 'array': {
        const count = Math.min(Number(node.maxItems ?? 1), Math.max(1, Number(node.minItems ?? 1)));
        if (Array.isArray(node.prefixItems))
          return node.prefixItems.map((sub) => sample(sub, name, depth + 1));
        return Array.from({ length: count }, () => sample(node.items ?? {}, name, depth + 1));
      }
      case 'integer':
      case 'number': {
        const low = Number(node.minimum ?? node.exclusiveMinimum ?? -Infinity);
        const high = Number(node.maximum ?? node.exclusiveMaximum ?? Infinity);
        const value = Math.min(Math.max(1, low), high);
        return node.exclusiveMinimum !== undefined && value <= Number(node.exclusiveMinimum)
          ? value + 1
          : value;
      }
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return fakeText(node, name);
    }
  };
  return sample(schema, 'value', 0);
}

function fakeText(node: Schema, name: string): string {
  switch (node.format) {
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'date':
      return '2026-01-01';
    case 'time':
      return '12:00:00Z';
    case 'email':
      return 'someone@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
  }
  let text = `Fake ${name}`;
  const min = Number(node.minLength ?? 0);
  while (text.length < min) text += ' text';
  return node.maxLength !== undefined ? text.slice(0, Number(node.maxLength)) : text;
}
