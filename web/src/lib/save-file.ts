/** Hands a file the app fetched (with the signed-in user's token) to the browser's downloads. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Let go of the bytes once the browser has surely started saving them (some take a moment).
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
