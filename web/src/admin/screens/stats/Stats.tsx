// The admin console's stats screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Stats() {
  return <AdminPlaceholder screen="stats" />;
}
