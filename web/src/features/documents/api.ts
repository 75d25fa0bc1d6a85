import type {
  Document,
  DocumentCategory,
  DocumentOwner,
  DocumentPatchBody,
  Paged,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, tokens } from '../../lib/api-client.js';
import { ApiError } from '../../lib/http.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

/** The record whose documents a panel shows: `{ policy_id: '…' }`. */
export type DocumentsOf = Partial<Record<DocumentOwner, string>>;

const keys = {
  list: (of: DocumentsOf, page: number) => [...queryKeys.documents, 'list', of, page] as const,
};

/** A change to documents shows in every panel, and in the plan's storage. */
const affected = [queryKeys.documents, queryKeys.usage];

export const DOCUMENTS_PAGE_SIZE = 20;

export function useDocuments(of: DocumentsOf, page: number) {
  return useQuery({
    queryKey: keys.list(of, page),
    queryFn: ({ signal }) =>
      api.get<Paged<Document>>('/documents/', {
        query: { ...of, page, page_size: DOCUMENTS_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export const useMarkDocumentsChanged = () => useMarkChanged(affected);

/** One upload's request, for its progress: fetch tells nothing of a body while it is sent. */
function sendForm(form: FormData, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/documents/');
    const token = tokens.access();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: unknown = request.responseText;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's page): its text is the message.
      }
      resolve({ status: request.status, body });
    };
    request.onerror = () =>
      reject(new ApiError(0, 'The upload was interrupted. Check your connection and try again.'));
    request.onabort = () => reject(new ApiError(0, 'The upload was cancelled.'));
    signal?.addEventListener('abort', () => request.abort());
    request.send(form);
  });
}

/**
 * Uploads one file onto the record, telling how much of it is sent. An expired token is refreshed
 * (by a call through the app's client) and the upload sent once more.
 */
export async function uploadDocument(
  of: DocumentsOf,
  file: File,
  category: DocumentCategory,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<Document> {
  const form = new FormData();
  for (const [name, value] of Object.entries(of)) if (value) form.append(name, value);
  form.append('category', category);
  form.append('file', file, file.name);
  let answer = await sendForm(form, onProgress, signal);
  if (answer.status === 401) {
    await api.get('/user/profile/');
    answer = await sendForm(form, onProgress, signal);
  }
  if (answer.status !== 201) throw new ApiError(answer.status, answer.body);
  return answer.body as Document;
}

/** A document's bytes, fetched with the signed-in user's token: files never have public addresses. */
export const fetchDocument = (document: Pick<Document, 'id'>) =>
  api.download(`/documents/${document.id}/download/`);

export function useChangeDocument(id: string) {
  const markChanged = useMarkDocumentsChanged();
  return useMutation({
    mutationFn: (body: DocumentPatchBody) => api.patch<Document>(`/documents/${id}/`, body),
    onSuccess: () => markChanged(),
  });
}

export function useDeleteDocument() {
  const markChanged = useMarkDocumentsChanged();
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/documents/${id}/`),
    onSuccess: () => markChanged(),
  });
}
