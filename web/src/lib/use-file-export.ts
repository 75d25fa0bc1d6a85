import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from './api-client.js';
import { saveFile } from './save-file.js';

/**
 * Downloads a file the API makes from `path` with the list's filters and hands it to the browser to
 * save; `received` counts the bytes that have come in while it is being made.
 */
export function useFileExport(path: string, fallbackName: string) {
  const [received, setReceived] = useState(0);
  const mutation = useMutation({
    mutationFn: async (query: Record<string, string | number>) => {
      setReceived(0);
      const file = await api.download(path, { query, onProgress: setReceived });
      saveFile(file.blob, file.filename ?? fallbackName);
    },
  });
  return { ...mutation, received };
}

export type FileExport = ReturnType<typeof useFileExport>;
