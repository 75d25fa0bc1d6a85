const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A file's size as people read it: "820 B", "340 KB", "1.2 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${oneDecimal.format(bytes / 1024)} KB`;
  return `${oneDecimal.format(bytes / (1024 * 1024))} MB`;
}
