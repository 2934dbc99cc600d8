// The upload panel's engine: checks each picked file in the browser, reads the good ones (as text, a
// PDF as bytes sent base64) and POSTs them one request each (three at a time) with a progress bar per file (lib/upload.ts).
import type { AddKnowledgeDocumentInput, KnowledgeDocument, KnowledgeMediaType } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';

import { getErrorMessage } from '@/lib/api';
import { endpointUrl } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';
import { uploadJson } from '@/lib/upload';

import { bytesToBase64, checkFileText, checkPdfBytes } from '../knowledge-files';
import { plannedUploads, runWithConcurrency, uploadsReducer } from '../upload-state';
import { refreshKnowledgeBase } from './documents';

/** A file the browser will not send, with the reason for the user. */
class FileRefused extends Error {}

/** The request body of a file: a PDF's bytes as base64, any other type's text. */
async function readDocument(file: File, mediaType: KnowledgeMediaType): Promise<AddKnowledgeDocumentInput> {
  if (mediaType === 'application/pdf') {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const refusal = checkPdfBytes(bytes);
    if (refusal) throw new FileRefused(refusal);
    return { name: file.name, mediaType, contentBase64: bytesToBase64(bytes) };
  }
  const content = await file.text();
  const refusal = checkFileText(content);
  if (refusal) throw new FileRefused(refusal);
  return { name: file.name, mediaType, content };
}

/** Files sent at the same time; the rest wait their turn. */
const PARALLEL_UPLOADS = 3;

let nextId = 0;
const newUploadId = () => `upload-${++nextId}`;

export function useDocumentUploads(knowledgeBaseId: string) {
  const queryClient = useQueryClient();
  const [items, dispatch] = useReducer(uploadsReducer, []);
  // Leaving the page cancels the uploads still running.
  const controller = useRef<AbortController | null>(null);
  useEffect(() => {
    controller.current = new AbortController();
    return () => controller.current?.abort();
  }, []);

  const upload = useCallback(
    (files: readonly File[]) => {
      const planned = plannedUploads(files, newUploadId);
      if (planned.length === 0) return;
      dispatch({ type: 'added', items: planned });
      const jobs = planned.flatMap((item, index) => (item.mediaType ? [{ item, file: files[index] }] : []));

      void runWithConcurrency(jobs, PARALLEL_UPLOADS, async ({ item, file }) => {
        const signal = controller.current?.signal;
        if (signal?.aborted) return;
        dispatch({ type: 'reading', id: item.id });
        let body: AddKnowledgeDocumentInput;
        try {
          body = await readDocument(file, item.mediaType!);
        } catch (error) {
          const reason = error instanceof FileRefused ? error.message : 'The file could not be read';
          dispatch({ type: 'failed', id: item.id, error: reason });
          return;
        }
        dispatch({ type: 'uploading', id: item.id });
        try {
          const document = await uploadJson<KnowledgeDocument>(
            'POST',
            endpointUrl(endpoints.knowledge.addDocument.path, { id: knowledgeBaseId }),
            body,
            {
              signal,
              onProgress: (loaded, total) => dispatch({ type: 'progress', id: item.id, loaded, total }),
            },
          );
          dispatch({ type: 'succeeded', id: item.id });
          if (document?.id) {
            queryClient.setQueryData<KnowledgeDocument[]>(
              queryKeys.knowledgeBases.documents(knowledgeBaseId),
              (list) => (list ? [document, ...list.filter((doc) => doc.id !== document.id)] : list),
            );
          }
          refreshKnowledgeBase(queryClient, knowledgeBaseId);
          void queryClient.invalidateQueries({
            queryKey: queryKeys.knowledgeBases.documents(knowledgeBaseId),
          });
        } catch (error) {
          if (signal?.aborted) return;
          dispatch({ type: 'failed', id: item.id, error: getErrorMessage(error, 'Upload failed') });
        }
      });
    },
    [knowledgeBaseId, queryClient],
  );

  const dismiss = useCallback((id: string) => dispatch({ type: 'dismissed', id }), []);
  const clearFinished = useCallback(() => dispatch({ type: 'clearedFinished' }), []);

  return { items, upload, dismiss, clearFinished };
}
