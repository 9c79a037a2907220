import { describe, expect, it } from 'vitest';
import { FakeWakeLock } from '../../testing/fake-wake-lock.ts';
import { ScreenAwake } from './wake-lock.ts';

describe('keeping the screen on while uploads are under way', () => {
  it('asks once however often it is told, and lets go when nothing is left to send', async () => {
    const lock = new FakeWakeLock();
    const awake = new ScreenAwake(
      () => lock,
      () => true,
    );
    // Every upload that starts or ends says so; the requests overlap.
    await Promise.all([awake.want(true), awake.want(true), awake.want(true)]);
    expect(lock.sentinels).toHaveLength(1);
    expect(lock.held).toBe(1);
    await awake.want(false);
    expect(lock.held).toBe(0);
  });

  it('done while the lock was being asked for: it is let go as soon as it comes, not kept for nothing', async () => {
    const lock = new FakeWakeLock();
    const awake = new ScreenAwake(
      () => lock,
      () => true,
    );
    void awake.want(true);
    // The request is under way (the fake answers after a timer).
    await new Promise((resolve) => setImmediate(resolve));
    await awake.want(false);
    expect(lock.sentinels).toHaveLength(1);
    expect(lock.held).toBe(0);
  });

  it('done before it was even asked for: it is not asked for', async () => {
    const lock = new FakeWakeLock();
    const awake = new ScreenAwake(
      () => lock,
      () => true,
    );
    void awake.want(true);
    await awake.want(false);
    expect(lock.sentinels).toHaveLength(0);
  });

  it('takes it again when the page shows after the browser let go of it (hidden)', async () => {
    const lock = new FakeWakeLock();
    let visible = true;
    const awake = new ScreenAwake(
      () => lock,
      () => visible,
    );
    await awake.want(true);
    visible = false;
    lock.releaseAll();
    await awake.recheck();
    expect(lock.held).toBe(0);
    visible = true;
    await awake.recheck();
    expect(lock.held).toBe(1);
    expect(lock.sentinels).toHaveLength(2);
  });

  it('without the API (plain HTTP at home) or refused (battery saver), nothing breaks and it asks again later', async () => {
    const none = new ScreenAwake(
      () => undefined,
      () => true,
    );
    await expect(none.want(true)).resolves.toBeUndefined();
    expect(none.held).toBe(false);

    const lock = new FakeWakeLock();
    lock.refuse = true;
    const awake = new ScreenAwake(
      () => lock,
      () => true,
    );
    await awake.want(true);
    expect(awake.held).toBe(false);
    lock.refuse = false;
    await awake.want(true);
    expect(awake.held).toBe(true);
  });
});
