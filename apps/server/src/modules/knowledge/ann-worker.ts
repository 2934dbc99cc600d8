import { closeSync, fsyncSync, openSync, readSync, statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import usearch from 'usearch';
import type { AnnAnswer, AnnRequest, AnnThreadSettings } from './ann-thread';

/*
 * The thread that holds one knowledge base's HNSW index (usearch, native memory outside the V8 heap),
 * started by ann-thread.ts. Every usearch call is synchronous and some take seconds (adding 10,000
 * vectors, reading or writing a 3 GiB file), so they run here, never on the event loop that serves
 * requests. It answers its requests one at a time, in order.
 */
const settings = workerData as AnnThreadSettings;

const scalar = {
  f32: usearch.ScalarKind.F32,
  f16: usearch.ScalarKind.F16,
  i8: usearch.ScalarKind.I8,
} as const;

const index = new usearch.Index({
  dimensions: settings.dimensions,
  metric: usearch.MetricKind.Cos,
  quantization: scalar[settings.quantization],
  connectivity: settings.connectivity,
  expansion_add: settings.expansionAdd,
  expansion_search: settings.expansionSearch,
  multi: false,
});

/** The file's CRC-32, read in 16 MiB pieces (zlib's is hardware-assisted: about a second for 3 GiB). */
function fileCrc(file: string) {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(16 * 1024 * 1024);
    let crc = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) return crc;
      crc = crc32(buffer.subarray(0, read), crc);
    }
  } finally {
    closeSync(fd);
  }
}

function handle(request: AnnRequest): AnnAnswer {
  switch (request.op) {
    case 'add':
      if (request.keys.length > 0) {
        index.add(request.keys, request.vectors, settings.threads);
      }
      return { size: index.size() };
    case 'remove':
      if (request.keys.length > 0) index.remove(request.keys);
      return { size: index.size() };
    case 'search': {
      if (index.size() === 0) return { keys: new BigUint64Array(0), distances: new Float32Array(0) };
      const found = index.search(request.query, request.k, 1);
      return { keys: found.keys, distances: found.distances };
    }
    case 'save': {
      index.save(request.path);
      // On disk before it is renamed into place: a crash leaves the old file or the new one, whole.
      const fd = openSync(request.path, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return { bytes: statSync(request.path).size, crc: fileCrc(request.path) };
    }
    case 'load': {
      // A file that is not exactly the one written (torn, truncated, changed) is refused before
      // usearch reads it: its header alone would not catch a changed vector.
      const bytes = statSync(request.path).size;
      if (bytes !== request.bytes) throw new Error(`it has ${bytes} bytes, not ${request.bytes}`);
      const crc = fileCrc(request.path);
      if (crc !== request.crc) throw new Error(`its checksum is ${crc}, not ${request.crc}`);
      index.load(request.path);
      if (index.dimensions() !== settings.dimensions) {
        throw new Error(`it holds ${index.dimensions()} dimensions, not ${settings.dimensions}`);
      }
      return { size: index.size() };
    }
  }
}

parentPort!.on('message', (message: { id: number; request: AnnRequest }) => {
  try {
    parentPort!.postMessage({ id: message.id, answer: handle(message.request) });
  } catch (error) {
    parentPort!.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
