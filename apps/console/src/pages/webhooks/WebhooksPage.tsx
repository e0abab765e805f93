import { PageTitle } from '../../ui/PageTitle';

// Placeholder while the screen is being built (issue 22).
export default function WebhooksPage() {
  return <PageTitle title="WebhooksPage" />;
}
