import { describe, expect, it } from 'vitest';
import { notificationTarget } from './notification-target.ts';

const OWN = 'https://hearth.local:8420';
const ID = '01JDQ5ZK3W9X8Y7V6T5S4R3Q2P';

describe('the page a tapped push notification opens (the service worker builds it, no sign-in in it)', () => {
  it('opens the notification’s place in the app with its id beside it, for the app to mark it read', () => {
    expect(notificationTarget('/albums/abc', ID, OWN)).toBe(`${OWN}/albums/abc?notification=${ID}`);
  });

  it('keeps a query the link already has', () => {
    expect(notificationTarget('/gallery?view=month', ID, OWN)).toBe(`${OWN}/gallery?view=month&notification=${ID}`);
  });

  it('never leaves the app: another site, a protocol-relative or backslash path opens the list instead', () => {
    for (const link of ['https://evil.example/x', '//evil.example/x', '/\\evil.example/x', 'javascript:alert(1)', 42, undefined]) {
      expect(notificationTarget(link, ID, OWN)).toBe(`${OWN}/notifications?notification=${ID}`);
    }
  });

  it('an id that is not one of the server’s is left out', () => {
    expect(notificationTarget('/shared', 'a&b=c', OWN)).toBe(`${OWN}/shared`);
    expect(notificationTarget('/shared', null, OWN)).toBe(`${OWN}/shared`);
  });
});
