// The admin console's providers screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Providers() {
  return <AdminPlaceholder screen="providers" />;
}
