/**
 * File downloads (exports): the file comes as a blob, not an envelope. A refused download
 * still answers an envelope, which then arrives as a JSON blob: it is read back and shown like
 * any error. The file name comes from Content-Disposition, else `fallbackName`.
 */
import { ApiError, httpClient } from './client';
import { notifier } from './notifier';

function fileNameOf(disposition: string | undefined, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? fallback;
}

export async function downloadFile(path: string, params: object, fallbackName: string): Promise<void> {
  const http = await httpClient();
  const response = await http.get<Blob>(path, { params, responseType: 'blob', timeout: 120_000 });
  const blob = response.data;
  if (blob.type.includes('application/json')) {
    const body = JSON.parse(await blob.text()) as { code: number; message: string };
    notifier().error({ title: body.message });
    throw new ApiError(body.code, body.message);
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response.headers['content-disposition'] as string | undefined, fallbackName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
