// Saving data the page already holds as a file: a Blob behind an object URL, clicked through a
// temporary <a download> (no server round trip).

/** Saves `text` as `fileName` (JSON by default). */
export function downloadFile(fileName: string, text: string, type = 'application/json'): void {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Give the browser time to start the download before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Saves `value` as pretty-printed JSON. */
export function downloadJson(fileName: string, value: unknown): void {
  downloadFile(fileName, JSON.stringify(value, null, 2));
}
