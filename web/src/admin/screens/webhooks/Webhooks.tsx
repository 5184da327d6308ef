// The admin console's webhooks screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Webhooks() {
  return <AdminPlaceholder screen="webhooks" />;
}
