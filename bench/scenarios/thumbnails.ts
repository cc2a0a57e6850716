import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { createFolder, upload } from '../lib/cloudvault-api.ts';
import { request } from '../lib/http-client.ts';
import { percentile } from '../lib/stats.ts';
import type { ScenarioContext, ScenarioResult } from './scenario.ts';

/** 12 megapixels, as a phone camera takes them. */
const [WIDTH, HEIGHT] = [4000, 3000];
const DISTINCT_PHOTOS = 3;
const POLL_MS = 100;

/** Photo-like JPEGs: noise blurred into blotches, so they compress as photographs do (a few MB), not as flat colour. */
async function writePhotos(dir: string): Promise<{ path: string; size: number }[]> {
  const photos = [];
  for (let index = 0; index < DISTINCT_PHOTOS; index++) {
    const small = await sharp({
      create: {
        width: WIDTH / 8,
        height: HEIGHT / 8,
        channels: 3,
        background: 'black',
        noise: { type: 'gaussian', mean: 120 + index * 20, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const jpeg = await sharp(small).resize(WIDTH, HEIGHT, { kernel: 'cubic' }).blur(2).jpeg({ quality: 90 }).toBuffer();
    const file = path.join(dir, `photo-${index}.jpg`);
    await writeFile(file, jpeg);
    photos.push({ path: file, size: jpeg.length });
  }
  return photos;
}

/**
 * Thumbnails of 12-megapixel JPEGs as the job runner makes them after the uploads (SQLite,
 * the in-process runner, THUMBNAIL_CONCURRENCY=1): thumbnails per second from the first
 * upload's answer to the last thumbnail served; the server's peak RSS meanwhile, sampled
 * (VmHWM is a lifetime peak that earlier scenarios set); then sequential GETs of a thumbnail
 * already made (small size, no If-None-Match: the bytes every time).
 */
export async function thumbnails(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { thumbnailPhotos: count, listingRequests: requests, listingWarmup: warmup } = ctx.config;
  const photos = await writePhotos(ctx.fixtures.filesDir);
  const folderId = await createFolder(ctx.client, 'thumbnails-bench');
  const auth = { authorization: `Bearer ${ctx.client.token}` };
  const thumbnailOf = (id: string) =>
    request(`${ctx.client.url}/api/files/${id}/thumbnail?size=small`, { headers: auth, idleTimeoutMs: ctx.config.idleTimeoutMs });

  const rssBefore = (await ctx.ours.memory())?.rssBytes ?? 0;
  let peakRss = 0;
  const sampler = setInterval(() => {
    void ctx.ours.memory().then((memory) => {
      if (memory) peakRss = Math.max(peakRss, memory.rssBytes);
    });
  }, 50);
  const ids: string[] = [];
  let firstAnswered = 0;
  let uploadsDone = 0;
  let finished = 0;
  try {
    for (let index = 0; index < count; index++) {
      const photo = photos[index % photos.length]!;
      ids.push((await upload(ctx.client, photo.path, photo.size, `photo-${index}.jpg`, folderId)).id);
      if (index === 0) firstAnswered = performance.now();
    }
    uploadsDone = performance.now();
    // Made in upload order (one queue, one slot): the last file's thumbnail is the last one made.
    for (const id of ids) {
      for (;;) {
        const answer = await thumbnailOf(id);
        if (answer.status === 200) break;
        if (answer.status !== 404) throw new Error(`GET thumbnail answered ${answer.status}`);
        if (performance.now() - firstAnswered > ctx.config.deadlineMs / 2) throw new Error(`no thumbnail for ${id} in time`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
    finished = performance.now();
  } finally {
    clearInterval(sampler);
  }
  const perSecond = count / ((finished - firstAnswered) / 1000);

  const latencies: number[] = [];
  for (let index = 0; index < warmup + requests; index++) {
    const answer = await thumbnailOf(ids[0]!);
    if (answer.status !== 200) throw new Error(`cached thumbnail answered ${answer.status}`);
    if (index >= warmup) latencies.push(answer.ms);
  }
  const meanMB = photos.reduce((sum, photo) => sum + photo.size, 0) / photos.length / 1e6;
  return {
    id: 'thumbnails',
    title: `Thumbnails of ${count} × 12 MP JPEGs, then ${requests} GETs of one`,
    compares: 'p99Ms',
    figures: [
      { server: 'ours', status: 'measured', samples: latencies, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) },
    ],
    notes: [
      `${perSecond.toFixed(2)} thumbnails/s (both sizes of each photo) from the first upload's answer to the last thumbnail served; the uploads took ${((uploadsDone - firstAnswered) / 1000).toFixed(1)} s of it (${WIDTH}×${HEIGHT} JPEGs, ${meanMB.toFixed(1)} MB on average).`,
      `Server RSS while they were made (VmRSS sampled every 50 ms): ${(rssBefore / 1e6).toFixed(0)} MB before (what earlier scenarios left), peak ${(peakRss / 1e6).toFixed(0)} MB.`,
      `The GETs: the small size of one file, made already, sent whole (no If-None-Match); ${warmup} warm-up requests not counted. No ceiling: nginx and the bare server make no thumbnails.`,
    ],
  };
}
