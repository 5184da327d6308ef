// The admin console's audit screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Audit() {
  return <AdminPlaceholder screen="audit" />;
}
