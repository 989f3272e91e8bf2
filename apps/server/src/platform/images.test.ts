/**
 * Image bombs and floods against the four image routes (company logo, avatar, record picture,
 * template image). sharp is wrapped so the test counts the image pipelines that actually ran and
 * how many were in flight at once: a refused bomb must never reach the decoder, and a burst must
 * never run more than IMAGE_JOBS at a time, whatever the timing.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { ERROR_CODES, IMAGE_MAX_PIXELS } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeItem } from '../modules/cabin/test-support';
import { companies } from '../modules/companies/tables';
import { multipartForm } from '../modules/records/test-support';
import { makeDocTemplate } from '../modules/templates/doc-test-support';
import { makeJpeg, makePng, multipartFile, userRow } from '../modules/users/test-support';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../test/helper';
import { decodeThumbnail, IMAGE_JOBS, IMAGE_QUEUE, imageWork } from './images';

const sharpRuns = vi.hoisted(() => ({ counting: false, started: 0, inFlight: 0, peak: 0 }));

vi.mock('sharp', async (importOriginal) => {
  type Pipeline = Record<string, (...a: unknown[]) => Promise<unknown>>;
  const real = (await importOriginal<{ default: (...a: unknown[]) => Pipeline }>()).default;
  const counted = (...args: unknown[]) => {
    const pipeline = real(...args);
    for (const method of ['toBuffer', 'metadata'] as const) {
      const original = pipeline[method]!.bind(pipeline);
      pipeline[method] = async (...a: unknown[]) => {
        if (!sharpRuns.counting) return original(...a);
        sharpRuns.started += 1;
        sharpRuns.inFlight += 1;
        sharpRuns.peak = Math.max(sharpRuns.peak, sharpRuns.inFlight);
        try {
          return await original(...a);
        } finally {
          sharpRuns.inFlight -= 1;
        }
      };
    }
    return pipeline;
  };
  Object.assign(counted, real);
  return { default: counted };
});

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid single-colour PNG of the given size: 16000 × 16000 compresses to a few dozen KB. */
function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // 1-bit greyscale: a decoder still expands it to width × height
  const rowBytes = 1 + Math.ceil(width / 8);
  const pixels = deflateSync(Buffer.alloc(rowBytes * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

let t: TestApp;
let a: TestCompany;
let recordItem: number;
let templateNode: number;
let bomb: Buffer;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Bombs A');
  ({ itemId: recordItem } = await makeItem(t, a.id, { fields: [{ key: 'f1', name: 'photo', type: 8 }] }));
  ({ nodeId: templateNode } = await makeDocTemplate(t, a.id));
  bomb = pngBomb(16000, 16000);
});

afterAll(() => t.close());

async function storedFiles(): Promise<string[]> {
  const root = path.join(t.dataDir, 'files');
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
  } catch {
    return [];
  }
}

type Route = { name: string; send: (bytes: Buffer) => Promise<{ code: number; message: string }> };

function post(url: string, form: { payload: Buffer; headers: Record<string, string> }) {
  return t.app
    .inject({
      method: 'POST',
      url,
      payload: form.payload,
      headers: { ...form.headers, ...bearer(a.admin.token), 'accept-language': 'en' },
    })
    .then((res) => res.json() as { code: number; message: string });
}

const ROUTES: Route[] = [
  { name: 'company logo', send: (bytes) => post('/general/cos/uploadCompanyLogo', multipartFile(bytes)) },
  { name: 'avatar', send: (bytes) => post('/general/cos/uploadAvatar', multipartFile(bytes)) },
  {
    name: 'record picture',
    send: (bytes) =>
      post(
        '/general/smartdata/record/upload',
        multipartForm({ itemId: recordItem, field: 'f1' }, { bytes, filename: 'site.png' }),
      ),
  },
  {
    name: 'template image',
    send: (bytes) => post(`/general/smartdata/template/image?id=${templateNode}`, multipartFile(bytes)),
  },
];

describe('image bombs', () => {
  it('the bomb is small on the wire and claims 16000 × 16000 pixels', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const sharp = (await import('sharp')).default;
    expect(await sharp(bomb).metadata()).toMatchObject({ width: 16000, height: 16000, format: 'png' });
  });

  for (const route of ROUTES) {
    it(`a 16000 × 16000 PNG bomb is refused by the ${route.name} upload before decoding, storing nothing`, async () => {
      const before = await storedFiles();
      sharpRuns.counting = true;
      sharpRuns.started = 0;
      try {
        const answer = await route.send(bomb);
        expect(answer).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
        expect(answer.message).toContain('40 megapixels');
        expect(sharpRuns.started).toBe(0);
      } finally {
        sharpRuns.counting = false;
      }
      expect(await storedFiles()).toEqual(before);
    });
  }

  it('nothing the bombs were refused by changed the company logo or the avatar', async () => {
    const [company] = await t.db.select().from(companies).where(eq(companies.id, a.id));
    expect(company?.cfg ?? '').not.toContain('logo');
    expect((await userRow(t, a.admin.id))?.headImgUrl ?? null).toBeNull();
  });

  it('the decoder keeps the same pixel limit should a header get past the check', async () => {
    await expect(decodeThumbnail('file', bomb, 'png')).rejects.toMatchObject({
      key: 'imageTooManyPixels',
      data: { field: 'file' },
    });
  });

  it('a real 40-megapixel photo shape still passes; one pixel row more does not', async () => {
    expect(IMAGE_MAX_PIXELS).toBe(8000 * 5000);
    const photo = await makeJpeg(8000, 5000);
    expect((await ROUTES[2]!.send(photo)).code).toBe(0);
    const taller = await makeJpeg(8000, 5001);
    const refused = await ROUTES[2]!.send(taller);
    expect(refused).toMatchObject({ code: ERROR_CODES.VALIDATION });
    expect(refused.message).toContain('40 megapixels');
  });
});

describe('image floods', () => {
  it(`a burst of 16 uploads never runs more than ${IMAGE_JOBS} image jobs at once; the rest wait or are told busy`, async () => {
    const photos = await Promise.all(Array.from({ length: 16 }, (_, i) => makeJpeg(1600 + i, 1200)));
    const before = (await storedFiles()).length;
    sharpRuns.counting = true;
    sharpRuns.peak = 0;
    sharpRuns.started = 0;
    let answers: Array<{ code: number; message: string }>;
    try {
      answers = await Promise.all(photos.map((p, i) => ROUTES[i % ROUTES.length]!.send(p)));
    } finally {
      sharpRuns.counting = false;
    }
    expect(sharpRuns.started).toBeGreaterThan(0);
    expect(sharpRuns.peak).toBeLessThanOrEqual(IMAGE_JOBS);
    const accepted = answers.filter((x) => x.code === 0).length;
    const busy = answers.filter((x) => x.code === ERROR_CODES.RATE_LIMITED);
    expect(accepted + busy.length).toBe(16);
    expect(accepted).toBeGreaterThanOrEqual(IMAGE_JOBS);
    expect(accepted).toBeLessThanOrEqual(16);
    for (const x of busy) expect(x.message).toContain('busy');
    // every accepted upload stored its image (and a thumbnail for logos, avatars and records)
    expect((await storedFiles()).length).toBeGreaterThan(before);
    expect(imageWork.stats).toMatchObject({ active: 0, queued: 0 });
    expect(imageWork.stats.peak).toBeLessThanOrEqual(IMAGE_JOBS);
  });

  it('a burst of bombs runs no image job at all', async () => {
    sharpRuns.counting = true;
    sharpRuns.started = 0;
    try {
      const answers = await Promise.all(
        Array.from({ length: IMAGE_JOBS + IMAGE_QUEUE + 4 }, (_, i) => ROUTES[i % ROUTES.length]!.send(bomb)),
      );
      for (const x of answers) expect(x.code).toBe(ERROR_CODES.VALIDATION);
    } finally {
      sharpRuns.counting = false;
    }
    expect(sharpRuns.started).toBe(0);
  });

  it('small pictures still upload one after another', async () => {
    expect((await ROUTES[1]!.send(await makePng(300, 200))).code).toBe(0);
  });
});
