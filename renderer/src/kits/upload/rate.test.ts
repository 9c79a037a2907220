import { describe, expect, it } from 'vitest';
import { Rate } from './rate.ts';

describe('how fast the bytes leave lately', () => {
  it('is the bytes over the last seconds, once there are enough of them to tell', () => {
    const rate = new Rate(10_000, 1_500);
    rate.add(0, 0);
    rate.add(1_000, 1_000_000);
    expect(rate.perSecond()).toBe(0);
    rate.add(2_000, 2_000_000);
    expect(rate.perSecond()).toBe(1_000_000);
  });

  it('falls to nothing when nothing moves, instead of showing the last speed for ever', () => {
    const rate = new Rate(10_000, 1_500);
    for (let second = 0; second <= 5; second += 1) rate.add(second * 1_000, second * 1_000_000);
    expect(rate.perSecond()).toBe(1_000_000);
    // The connection drops at 5 s: the same total, sampled every second.
    for (let second = 6; second <= 15; second += 1) rate.add(second * 1_000, 5_000_000);
    expect(rate.perSecond()).toBeLessThan(1_000_000);
    rate.add(16_000, 5_000_000);
    expect(rate.perSecond()).toBe(0);
  });

  it('starts afresh after a reset or when the total goes back (an upload restarted from the server’s offset)', () => {
    const rate = new Rate(10_000, 1_500);
    rate.add(0, 0);
    rate.add(2_000, 10_000_000);
    rate.reset();
    rate.add(3_000, 10_000_000);
    expect(rate.perSecond()).toBe(0);
    rate.add(4_000, 4_000_000);
    rate.add(6_000, 6_000_000);
    expect(rate.perSecond()).toBe(1_000_000);
  });
});
