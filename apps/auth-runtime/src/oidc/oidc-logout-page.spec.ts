import { signOutPageHtml } from './oidc-logout-page';

const FORM =
  '<form id="op.logoutForm" method="post" action="https://auth.example.com/v1/projects/p1/end-session/confirm"><input type="hidden" name="xsrf" value="x$&1"/></form>';

describe('the sign-out page (apps/auth-pages/public/sign-out.html)', () => {
  it("names the client, escaped, and carries the provider's form with its script taken out", () => {
    const html = signOutPageHtml(
      '<App & "Co">',
      `${FORM}<script>document.forms[0].submit()</script>`,
    );
    expect(html).toContain(
      '<h1>Sign out</h1><p>&#60;App &#38; &#34;Co&#34;&#62; asks you to sign out. You will be signed out of this session.</p>',
    );
    expect(html).toContain(
      `\n${FORM}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button><button type="submit" form="op.logoutForm">Stay signed in</button></main></body></html>`,
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('GATEHOUSE_SIGN_OUT');
  });

  it('asks plainly without a client name', () => {
    expect(signOutPageHtml(undefined, FORM)).toContain(
      '<p>Do you want to sign out? You will be signed out of this session.</p>',
    );
  });
});
