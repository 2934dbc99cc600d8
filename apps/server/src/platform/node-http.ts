/**
 * node:http, for code of ours that uses it at run time. Not an `import` of it: importing a builtin into
 * an ES module builds the module's namespace from every one of its exports, and node:http's include
 * WebSocket, CloseEvent and MessageEvent, whose getters load Node's bundled undici (the fetch
 * implementation): in a bare process, 13 MiB of memory more than the module alone, which a server that
 * never calls fetch (model calls go through egress.ts over node:http) would hold at rest.
 * `process.getBuiltinModule` hands over the module itself.
 * Types come from `import type … from 'node:http'`, which is erased (eslint.config.js holds both).
 */
export const http = process.getBuiltinModule('node:http');
