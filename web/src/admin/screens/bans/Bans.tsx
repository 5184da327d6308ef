// The admin console's bans screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Bans() {
  return <AdminPlaceholder screen="bans" />;
}
