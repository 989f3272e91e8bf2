import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { assertZipWithinLimits, ZIP_MAX_ENTRIES, ZipLimitError } from './zip-guard';
import { zipOf } from './zip-test-support';

const MB = 1024 * 1024;

function refusal(bytes: Buffer, max?: number): ZipLimitError | null {
  try {
    assertZipWithinLimits(bytes, max);
    return null;
  } catch (error) {
    if (error instanceof ZipLimitError) return error;
    throw error;
  }
}

describe('the ZIP guard of XLSX uploads', () => {
  it('lets a real workbook through', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('a').addRow(['ICCID', 'Notes']);
    expect(refusal(Buffer.from(await workbook.xlsx.writeBuffer()))).toBeNull();
  });

  it('counts what entries unpack to, not what they declare', () => {
    const data = Buffer.alloc(3 * MB, 0x20);
    expect(refusal(zipOf([{ name: 'a.xml', data }]), 4 * MB)).toBeNull();
    const lying = refusal(zipOf([{ name: 'a.xml', data, declaredSize: 10 }]), 2 * MB);
    expect(lying).toMatchObject({ tooLarge: true });
    // two entries that fit alone and not together
    const two = refusal(
      zipOf([
        { name: 'a.xml', data },
        { name: 'b.xml', data },
      ]),
      5 * MB,
    );
    expect(two).toMatchObject({ tooLarge: true });
    const stored = refusal(zipOf([{ name: 'a.xml', data, method: 0 }]), 2 * MB);
    expect(stored).toMatchObject({ tooLarge: true });
  });

  it('refuses what no spreadsheet needs: encryption, other methods, too many entries, broken archives', () => {
    const data = Buffer.from('<x/>');
    for (const bytes of [
      zipOf([{ name: 'a.xml', data, flags: 1 }]),
      zipOf([{ name: 'a.xml', data, method: 12 }]),
      zipOf(Array.from({ length: ZIP_MAX_ENTRIES + 1 }, (_, i) => ({ name: `${i}.xml`, data }))),
      zipOf([{ name: 'a.xml', data }]).subarray(0, 40),
      Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 1)]),
      Buffer.from('PK'),
    ]) {
      expect(refusal(bytes)).toMatchObject({ tooLarge: false });
    }
  });
});
