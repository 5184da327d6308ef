// The admin console's users screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Users() {
  return <AdminPlaceholder screen="users" />;
}
