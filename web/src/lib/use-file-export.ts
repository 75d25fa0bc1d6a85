import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from './api-client.js';
import { saveFile } from './save-file.js';

type Query = Record<string, string | number>;

/**
 * Downloads a file the API makes from `path` with the list's filters and hands it to the browser to
 * save; `received` counts the bytes that have come in while it is being made. The server names the
 * file; `fallbackName` (which may depend on the query, as the format does) is for when it does not.
 */
export function useFileExport(path: string, fallbackName: string | ((query: Query) => string)) {
  const [received, setReceived] = useState(0);
  const mutation = useMutation({
    mutationFn: async (query: Query) => {
      setReceived(0);
      const file = await api.download(path, { query, onProgress: setReceived });
      saveFile(
        file.blob,
        file.filename ?? (typeof fallbackName === 'string' ? fallbackName : fallbackName(query)),
      );
    },
  });
  return { ...mutation, received };
}

export type FileExport = ReturnType<typeof useFileExport>;
