import path from 'node:path';

/**
 * The server's one-way module graph (docs/architecture.md, Modules): a file of modules/X may import
 * from another module Y only `Y/*.service.ts` as types (`import type`, or only `type` specifiers)
 * and `Y/*.columns.ts` (SQL fragments Y offers); platform/* and packages are free. Relative imports
 * are resolved against the importing file, so a file at any depth of a module is checked.
 *
 * Options: `{ modulesDir, exceptions }`, exceptions being `'x/file -> y/file'` pairs (paths under
 * modulesDir, without `.ts`) that are allowed until they are cut.
 */
export const moduleBoundaries = {
  meta: {
    type: 'problem',
    schema: [
      {
        type: 'object',
        properties: {
          modulesDir: { type: 'string' },
          exceptions: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      internal:
        "modules/{{from}} may not import '{{target}}': another module offers only its *.service.ts (as types) and *.columns.ts.",
      serviceValue:
        "modules/{{from}} may import '{{target}}' only as types (`import type`): modules talk through the services they are given.",
    },
  },
  create(context) {
    const { modulesDir, exceptions = [] } = context.options[0] ?? {};
    const allowed = new Set(exceptions);
    const moduleOf = (file) => {
      const relative = path.relative(modulesDir, file);
      if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
      const parts = relative.split(path.sep);
      return parts.length > 1 ? parts[0] : undefined;
    };
    const file = context.filename;
    const from = moduleOf(file);
    if (!from) return {};
    const fromPath = path.relative(modulesDir, file).replace(/\.ts$/, '').split(path.sep).join('/');

    function check(node, source, typeOnly) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const resolved = path.resolve(path.dirname(file), source);
      const to = moduleOf(resolved);
      if (!to || to === from) return;
      const target = path.relative(modulesDir, resolved).replace(/\.ts$/, '').split(path.sep).join('/');
      if (target.endsWith('.columns')) return;
      const service = target.endsWith('.service');
      if (service && typeOnly) return;
      if (allowed.has(`${fromPath} -> ${target}`)) return;
      context.report({ node, messageId: service ? 'serviceValue' : 'internal', data: { from, target } });
    }
    const onlyTypes = (kind, specifiers) =>
      kind === 'type' ||
      (specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

    return {
      ImportDeclaration: (node) =>
        check(node, node.source.value, onlyTypes(node.importKind, node.specifiers)),
      ExportNamedDeclaration: (node) =>
        node.source && check(node, node.source.value, onlyTypes(node.exportKind, node.specifiers)),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
    };
  },
};
