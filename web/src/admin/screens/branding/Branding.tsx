// The admin console's branding screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Branding() {
  return <AdminPlaceholder screen="branding" />;
}
