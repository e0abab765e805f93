import {
  renderClaimSources,
  renderTokenClaims,
  TOKEN_CLAIMS_RENDERED_MAX,
  tokenClaimsProblems,
} from './token-claims';

const sources = {
  user: {
    metadata: { plan: 'pro', seats: 5, flags: { beta: true }, tags: ['a', 'b'] },
    email_verified: true,
  },
  org: { metadata: { tier: 'gold' } },
};

describe('token_claims templates', () => {
  it('keeps the JSON type of a whole {{…}} and renders text with holes as text', () => {
    expect(
      renderTokenClaims(
        {
          plan: '{{user.metadata.plan}}',
          seats: '{{ user.metadata.seats }}',
          flags: '{{user.metadata.flags}}',
          first_tag: '{{user.metadata.tags.0}}',
          verified: '{{user.email_verified}}',
          tier: '{{org.metadata.tier}}',
          label: '{{user.metadata.plan}}/{{org.metadata.tier}} ({{user.metadata.seats}})',
          fixed: 'static',
        },
        sources,
      ),
    ).toEqual({
      plan: 'pro',
      seats: 5,
      flags: { beta: true },
      first_tag: 'a',
      verified: true,
      tier: 'gold',
      label: 'pro/gold (5)',
      fixed: 'static',
    });
  });

  it('leaves out a claim whose value is missing or null, and org claims without an active organization', () => {
    expect(
      renderTokenClaims(
        {
          a: '{{user.metadata.nope}}',
          b: 'x {{user.metadata.nope}}',
          c: '{{org.metadata.tier}}',
          d: '{{user.metadata.plan}}',
          e: '{{user.metadata.plan.length}}',
        },
        { user: { metadata: { plan: 'pro', nope: null } }, org: null },
      ),
    ).toEqual({ d: 'pro' });
  });

  it('never reaches a prototype: __proto__, constructor and inherited members are refused and render nothing', () => {
    const templates = {
      a: '{{user.metadata.__proto__}}',
      b: '{{user.metadata.constructor.name}}',
      c: '{{user.metadata.toString}}',
      d: '{{user.metadata.prototype}}',
    };
    expect(tokenClaimsProblems(templates)).toEqual([
      'claim "a": "{{user.metadata.__proto__}}" may not name __proto__',
      'claim "b": "{{user.metadata.constructor.name}}" may not name constructor',
      'claim "d": "{{user.metadata.prototype}}" may not name prototype',
    ]);
    expect(renderTokenClaims({ c: '{{user.metadata.toString}}' }, sources)).toEqual({});
    const parsed = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    expect(
      renderTokenClaims({ p: '{{user.metadata.polluted}}' }, { user: { metadata: parsed } }),
    ).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses reserved names, other roots, too many claims and bad shapes', () => {
    expect(tokenClaimsProblems({ sub: 'x', org: 'y', scope: 'z' })).toEqual([
      'claim "sub" is a registered or Gatehouse claim',
      'claim "org" is a registered or Gatehouse claim',
      'claim "scope" is a registered or Gatehouse claim',
    ]);
    expect(tokenClaimsProblems({ a: '{{process.env.SECRET}}' })).toEqual([
      'claim "a": "{{process.env.SECRET}}" must start with user.metadata, org.metadata or user.email_verified',
    ]);
    expect(tokenClaimsProblems({ a: '{{user.email_verified.x}}' })).toHaveLength(1);
    expect(tokenClaimsProblems({ a: '{{user.metadata.a b}}' })).toHaveLength(1);
    expect(tokenClaimsProblems({ a: '{{ {{user.metadata.a}} }}' })).toHaveLength(1);
    expect(tokenClaimsProblems({ a: 'x {{user.metadata.a' })).toEqual([
      'claim "a": an unclosed or nested {{',
    ]);
    expect(tokenClaimsProblems({ a: 1, b: '' })).toHaveLength(2);
    expect(tokenClaimsProblems({ '1x': 'v', __proto__x: 'v' })).toHaveLength(2);
    expect(tokenClaimsProblems(['a'])).toEqual(['must be an object of claim name to template']);
    expect(tokenClaimsProblems({ a: 'x'.repeat(513) })).toHaveLength(1);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, 'v']));
    expect(tokenClaimsProblems(many)).toEqual(['must have at most 20 claims']);
    expect(tokenClaimsProblems(null)).toEqual([]);
    expect(renderTokenClaims({ sub: 'x', a: 'y' }, sources)).toEqual({});
  });

  it(`keeps the rendered claims within ${TOKEN_CLAIMS_RENDERED_MAX} bytes, leaving out those past it`, () => {
    const big = 'x'.repeat(1500);
    const claims = renderTokenClaims(
      {
        a: '{{user.metadata.big}}',
        b: '{{user.metadata.big}}',
        c: '{{user.metadata.big}}',
        d: 'small',
      },
      { user: { metadata: { big } } },
    );
    expect(Object.keys(claims)).toEqual(['a', 'b', 'd']);
    expect(Buffer.byteLength(JSON.stringify(claims))).toBeLessThanOrEqual(
      TOKEN_CLAIMS_RENDERED_MAX,
    );
  });

  it('renders what claimSourcesSql selected, and nothing when the project has no templates', () => {
    expect(renderClaimSources(null)).toEqual({});
    expect(
      renderClaimSources({ templates: { tier: '{{org.metadata.tier}}' }, ...sources }),
    ).toEqual({
      tier: 'gold',
    });
  });
});
