import sharp, { type Sharp } from 'sharp';

export const HEX: Record<string, string> = { red: '#ff0000', blue: '#0000ff', green: '#00ff00', yellow: '#ffff00', magenta: '#ff00ff' };

/**
 * The stored pixels: four coloured quadrants, red blue on top, green yellow below. No two
 * orientations of it look the same, so the colour of each quadrant of a thumbnail tells which
 * way the server turned it.
 */
export async function quadrants(width = 400, height = 200): Promise<Sharp> {
  const w = width / 2;
  const h = height / 2;
  const tile = (c: string) =>
    sharp({ create: { width: w, height: h, channels: 3, background: HEX[c]! } })
      .png()
      .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#000000' } }).composite([
    { input: await tile('red'), left: 0, top: 0 },
    { input: await tile('blue'), left: w, top: 0 },
    { input: await tile('green'), left: 0, top: h },
    { input: await tile('yellow'), left: w, top: h },
  ]);
}
