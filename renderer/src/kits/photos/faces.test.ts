import { describe, expect, it } from 'vitest';
import { turnBox } from './faces.ts';

// A face near the top left of the upright photo: 10% in, 20% down, 30% wide, 40% tall.
const face = { x: 0.1, y: 0.2, w: 0.3, h: 0.4 };

describe('turnBox: a face found on the upright photo, on the photo as the family turned it', () => {
  it('is where it was when the photo is not turned', () => {
    expect(turnBox(face)).toEqual(face);
    expect(turnBox(face, 0)).toEqual(face);
    expect(turnBox(face, 360)).toEqual(face);
  });

  it('turned a quarter clockwise: the left edge becomes the top, and the box is as wide as it was tall', () => {
    const turned = turnBox(face, 90);
    expect(turned.x).toBeCloseTo(0.4);
    expect(turned.y).toBeCloseTo(0.1);
    expect(turned.w).toBeCloseTo(0.4);
    expect(turned.h).toBeCloseTo(0.3);
  });

  it('turned upside down: the top left corner goes to the bottom right', () => {
    const turned = turnBox(face, 180);
    expect(turned.x).toBeCloseTo(0.6);
    expect(turned.y).toBeCloseTo(0.4);
    expect(turned.w).toBeCloseTo(0.3);
    expect(turned.h).toBeCloseTo(0.4);
  });

  it('a quarter anticlockwise (270, or -90) undoes a quarter clockwise', () => {
    for (const back of [270, -90]) {
      const round = turnBox(turnBox(face, 90), back);
      expect(round.x).toBeCloseTo(face.x);
      expect(round.y).toBeCloseTo(face.y);
      expect(round.w).toBeCloseTo(face.w);
      expect(round.h).toBeCloseTo(face.h);
    }
  });
});
