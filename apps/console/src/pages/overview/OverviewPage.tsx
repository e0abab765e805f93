import { PageTitle } from '../../ui/PageTitle';

// Placeholder while the screen is being built (issue 22).
export default function OverviewPage() {
  return <PageTitle title="OverviewPage" />;
}
