import { PageTitle } from '../../ui/PageTitle';

// Placeholder while the screen is being built (issue 22).
export default function UserPage() {
  return <PageTitle title="UserPage" />;
}
