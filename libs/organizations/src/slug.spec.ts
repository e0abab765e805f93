import { SLUG, SLUG_MAX, slugify } from './slug';

describe('slugify', () => {
  it.each([
    ['Acme Inc.', 'acme-inc'],
    ['  Crème brûlée   Club ', 'creme-brulee-club'],
    ['a--b__c', 'a-b-c'],
  ])('%j -> %j', (name, slug) => expect(slugify(name)).toBe(slug));

  it('always yields a valid slug, even from names without ASCII letters or very long ones', () => {
    for (const name of ['東京', '!!!', 'x'.repeat(300), `${'ab '.repeat(40)}`]) {
      const slug = slugify(name);
      expect(slug).toMatch(SLUG);
      expect(slug.length).toBeLessThanOrEqual(SLUG_MAX - 7);
    }
  });
});
