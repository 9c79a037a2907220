import { describe, expect, it } from 'vitest';
import { postedByAnotherSite, type SharePost } from './share-origin.ts';

const OWN = 'https://hearth.local:8420';
const ownPage = 'page-of-hearth';
const isOwnPage = async (id: string) => id === ownPage;
const judge = (post: Partial<SharePost>) => postedByAnotherSite({ origin: null, referrer: '', clientId: '', ...post }, OWN, isOwnPage);

describe('where a post to the Share target came from, as the service worker is told (issue 30, finding 8)', () => {
  it('the phone’s Share sheet (the browser posting: no origin, referrer or page) is let in', async () => {
    expect(await judge({})).toBe(false);
    expect(await judge({ origin: 'null' })).toBe(false);
  });

  it('Hearth’s own page (its origin, or hiding it under no-referrer) is let in', async () => {
    expect(await judge({ origin: OWN, referrer: `${OWN}/files`, clientId: ownPage })).toBe(false);
    expect(await judge({ origin: 'null', clientId: ownPage })).toBe(false);
  });

  it('another site’s page is refused when its Origin or referrer says so, another port or scheme of this host included', async () => {
    expect(await judge({ origin: 'https://evil.example' })).toBe(true);
    expect(await judge({ origin: 'http://hearth.local:8420', clientId: ownPage })).toBe(true);
    expect(await judge({ origin: 'https://hearth.local:8080' })).toBe(true);
    expect(await judge({ origin: 'null', referrer: 'https://evil.example/page' })).toBe(true);
  });

  it('another site’s page that hides its origin and referrer is refused by the page it posted from', async () => {
    expect(await judge({ origin: 'null', referrer: '', clientId: 'page-of-evil-example' })).toBe(true);
  });
});
