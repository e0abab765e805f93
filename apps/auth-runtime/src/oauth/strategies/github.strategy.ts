import { Strategy as GitHubStrategy } from 'passport-github2';
import { installBoundedTransport, ProviderHttpError } from '../provider-http';
import { codeFlowOptions, type StrategyInput } from './strategy-input';

/** What GitHub told us: `/user` and `/user/emails`, as parsed JSON, checked by the verify callback. */
export interface GitHubProfileDocuments {
  user: unknown;
  emails: unknown;
}

function parse(body: string | Buffer | undefined): unknown {
  try {
    return JSON.parse(String(body ?? '')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * GitHub through passport-github2 (its endpoints, scope separator, User-Agent and Authorization
 * header handling), with PKCE, our transaction store and a bounded transport. The profile step is
 * ours: passport-github2 keeps only the primary address and drops its `verified` flag (and parses
 * the emails response without a guard), while linking needs GitHub's word that the primary email
 * is verified — so both documents go to the verify callback as they are.
 */
export class GitHubOAuthStrategy extends GitHubStrategy {
  private readonly userUrl: string;
  private readonly emailsUrl: string;

  constructor(input: StrategyInput) {
    if (!input.userinfoUrl || !input.emailsUrl)
      throw new Error('GitHub needs user and emails URLs');
    super(
      {
        ...codeFlowOptions(input),
        userProfileURL: input.userinfoUrl,
        userEmailURL: input.emailsUrl,
        userAgent: 'Gatehouse',
      },
      input.verify,
    );
    this.userUrl = input.userinfoUrl;
    this.emailsUrl = input.emailsUrl;
    installBoundedTransport(this._oauth2, input.guard, input.calls);
  }

  override userProfile(
    accessToken: string,
    done: (err?: Error | null, profile?: GitHubProfileDocuments) => void,
  ): void {
    this._oauth2.get(this.userUrl, accessToken, (err, body) => {
      if (err) return done(new ProviderHttpError('GitHub user request failed'));
      const user = parse(body);
      this._oauth2.get(this.emailsUrl, accessToken, (emailsErr, emailsBody) => {
        if (emailsErr) return done(new ProviderHttpError('GitHub emails request failed'));
        done(null, { user, emails: parse(emailsBody) });
      });
    });
  }
}
