// The admin console's connections screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Connections() {
  return <AdminPlaceholder screen="connections" />;
}
