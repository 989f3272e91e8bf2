/**
 * An XLSX file is a ZIP archive, and the XLSX reader (exceljs, through JSZip) unpacks every
 * entry into memory at once. A 10 MB upload of highly compressed XML (a "ZIP bomb": deflate
 * reaches about 1000:1) would unpack to gigabytes and take the server down with it. So before
 * the reader sees the bytes, this walks the archive's central directory (the index JSZip reads
 * too) and inflates each entry with a ceiling on its output, counting what the whole archive
 * unpacks to: the sizes an archive declares are not believed, the bytes are.
 *
 * Refused (as ZipLimitError): more entries than MAX_ENTRIES, ZIP64 or encrypted entries (no
 * spreadsheet this size needs them), compression methods other than stored and deflate, and
 * anything that unpacks to more than the limit in total.
 */
import { inflateRawSync } from 'node:zlib';

export const ZIP_MAX_ENTRIES = 2000;
/** what an import's XLSX may unpack to in total */
export const ZIP_MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

export class ZipLimitError extends Error {
  constructor(
    message: string,
    /** true when the archive is too large unpacked (not merely unreadable) */
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

function findEndOfCentralDirectory(bytes: Buffer): number {
  // the record is 22 bytes plus a comment of at most 65535
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (bytes.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  }
  throw new ZipLimitError('no end of central directory');
}

/** Throws ZipLimitError unless the archive unpacks to at most `maxBytes` in sane entries. */
export function assertZipWithinLimits(bytes: Buffer, maxBytes = ZIP_MAX_UNPACKED_BYTES): void {
  if (bytes.length < 22) throw new ZipLimitError('too short for a ZIP archive');
  const eocd = findEndOfCentralDirectory(bytes);
  const entries = bytes.readUInt16LE(eocd + 10);
  const directorySize = bytes.readUInt32LE(eocd + 12);
  const directoryAt = bytes.readUInt32LE(eocd + 16);
  if (entries === 0xffff || directoryAt === 0xffffffff) throw new ZipLimitError('ZIP64 archive');
  if (entries > ZIP_MAX_ENTRIES) throw new ZipLimitError('too many entries');
  if (directoryAt + directorySize > eocd) throw new ZipLimitError('central directory out of bounds');
  let at = directoryAt;
  let total = 0;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > eocd || bytes.readUInt32LE(at) !== CENTRAL_SIGNATURE) {
      throw new ZipLimitError('broken central directory');
    }
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const localAt = bytes.readUInt32LE(at + 42);
    if (flags & 0x1) throw new ZipLimitError('encrypted entry');
    if (compressedSize === 0xffffffff || localAt === 0xffffffff) throw new ZipLimitError('ZIP64 entry');
    if (localAt + 30 > bytes.length || bytes.readUInt32LE(localAt) !== LOCAL_SIGNATURE) {
      throw new ZipLimitError('broken local header');
    }
    const dataAt = localAt + 30 + bytes.readUInt16LE(localAt + 26) + bytes.readUInt16LE(localAt + 28);
    if (dataAt + compressedSize > bytes.length) throw new ZipLimitError('entry out of bounds');
    const data = bytes.subarray(dataAt, dataAt + compressedSize);
    const room = maxBytes - total;
    if (method === 0) {
      total += data.length;
    } else if (method === 8) {
      try {
        // one byte more than the room left: reaching it means the limit is passed
        total += inflateRawSync(data, { maxOutputLength: room + 1 }).length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new ZipLimitError('unpacks beyond the limit', true);
        }
        throw new ZipLimitError('entry does not inflate');
      }
    } else {
      throw new ZipLimitError(`compression method ${method}`);
    }
    if (total > maxBytes) throw new ZipLimitError('unpacks beyond the limit', true);
    at += 46 + nameLength + extraLength + commentLength;
  }
}
